"""An undo killed (SIGKILL) right after its journal says it is done, before the record of
what the owner reviewed and state.yaml are updated: no "deleted outside memreview" alarm for
the promotion it took back, and the item its batch hid is shown again."""

from __future__ import annotations

import json

from reliability_helpers import TODAY, apply_cli, run_cli, sample_copy, scan_json, write_decisions


def test_an_undo_killed_after_its_files_leaves_no_false_alarm_and_no_hidden_item(tmp_path):
    root = sample_copy(tmp_path / "ws")
    [item] = scan_json(root)["queues"]["dropping"]
    decisions = write_decisions(tmp_path / "d.yaml", [{"item": item["id"], "action": "promote"}])
    proc = apply_cli(root, decisions)
    assert proc.returncode == 0, proc.stderr
    assert scan_json(root)["queues"]["dropping"] == []  # promoted: hidden
    seen = json.loads((root / ".memreview/promotions-seen.json").read_text())
    promoted = set(seen["keys"])
    memory = (root / "MEMORY.md").read_bytes()

    killed = run_cli("undo", str(root), env={"MEMREVIEW_FAILPOINT": "commit:1"})
    assert killed.returncode == -9, (killed.returncode, killed.stderr)
    assert (root / "MEMORY.md").read_bytes() != memory  # the undo's file was written
    after = json.loads((root / ".memreview/promotions-seen.json").read_text())
    assert set(after["keys"]) == promoted  # and the record was not updated

    proc = run_cli("doctor", str(root), "--json", "--today", TODAY)
    doc = json.loads(proc.stdout)["workspaces"][0]
    assert "promotions-deleted" not in [a["id"] for a in doc["alarms"]]
    scan = scan_json(root)
    assert [i["id"] for i in scan["queues"]["dropping"]] == [item["id"]]
    assert any("undo was cut short" in w["message"] for w in scan["warnings"])
