"""The staged decisions of a review, without the app: staging, counts and pending.yaml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from decisions_helpers import write_files

from memreview.decisions import Decision
from memreview.decisions.staging import PendingFile, Staging


def _staging(root: Path) -> Staging:
    staging = Staging(PendingFile(root))
    assert staging.load() == []
    return staging


APPROVE = Decision("s-1", "approve", queue="supersede")
REJECT = Decision("s-1", "reject", queue="supersede")
DEMOTE = Decision("m-7", "demote", queue="demotion")
KEEP_B = Decision("c-2", "keep-b", queue="contradictions")


class FailingStore:
    def __init__(self) -> None:
        self.saved: list[list[Decision]] = []
        self.fail = False

    def load_pending(self):
        return [], []

    def save_pending(self, decisions):
        if self.fail:
            raise OSError("No space left on device")
        self.saved.append(list(decisions))


def test_staging_a_decision_saves_it_to_pending_yaml_at_once(tmp_path):
    staging = _staging(tmp_path)
    assert staging.stage(APPROVE) is None
    assert staging.for_item("s-1") == APPROVE and "s-1" in staging and len(staging) == 1
    text = (tmp_path / ".memreview/pending.yaml").read_text()
    assert "item: s-1" in text and "action: approve" in text


def test_restaging_an_item_replaces_its_decision_and_moves_it_last(tmp_path):
    staging = _staging(tmp_path)
    staging.stage(APPROVE)
    staging.stage(DEMOTE)
    assert staging.stage(REJECT) == APPROVE
    assert staging.decisions() == [DEMOTE, REJECT]
    assert staging.newest() == REJECT
    assert staging.count("supersede") == 1


def test_unstage_drops_only_that_item_and_saves(tmp_path):
    staging = _staging(tmp_path)
    staging.stage(APPROVE)
    staging.stage(DEMOTE)
    assert staging.unstage("s-1") == APPROVE
    assert staging.unstage("s-1") is None
    assert staging.decisions() == [DEMOTE]
    again = Staging(PendingFile(tmp_path))
    assert again.load() == []
    assert again.decisions() == [DEMOTE]


def test_counts_per_queue_follow_stage_unstage_and_replace(tmp_path):
    staging = _staging(tmp_path)
    staging.stage(APPROVE)
    staging.stage(DEMOTE)
    staging.stage(KEEP_B)
    assert staging.counts() == {"supersede": 1, "demotion": 1, "contradictions": 1}
    staging.stage(Decision("s-1", "demote", queue="demotion"))  # the item moved queue
    assert staging.counts() == {"demotion": 2, "contradictions": 1}
    staging.unstage("c-2")
    assert staging.count("contradictions") == 0 and staging.count("demotion") == 2
    staging.replace([KEEP_B])
    assert staging.counts() == {"contradictions": 1} and staging.decisions() == [KEEP_B]
    assert staging.count("never-seen") == 0


def test_persistence_round_trip_keeps_order_keep_text_and_queue(tmp_path):
    text = "- 合并后的条目\n  第二行: with: colons\n"
    merge = Decision("d-3", "merge", keep=2, text=text, queue="duplicates")
    staging = _staging(tmp_path)
    for d in (KEEP_B, merge, APPROVE):
        staging.stage(d)
    again = Staging(PendingFile(tmp_path))
    assert again.load() == []
    assert again.decisions() == [KEEP_B, merge, APPROVE]
    assert again.counts() == staging.counts()


def test_staged_decisions_are_there_after_the_process_quits(tmp_path):
    script = (
        "import sys\n"
        "from memreview.decisions import Decision\n"
        "from memreview.decisions.staging import PendingFile, Staging\n"
        "s = Staging(PendingFile(sys.argv[1]))\n"
        "s.load()\n"
        "s.stage(Decision('m-7', 'demote', queue='demotion'))\n"
        "s.stage(Decision('s-1', 'approve', queue='supersede'))\n"
        "s.unstage('m-7')\n"
    )
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True)
    staging = Staging(PendingFile(tmp_path))
    assert staging.load() == []
    assert staging.decisions() == [APPROVE]


def test_a_broken_pending_file_loads_as_a_warning_and_nothing_staged(tmp_path):
    write_files(tmp_path, {".memreview/pending.yaml": "- item: [unclosed\n"})
    staging = Staging(PendingFile(tmp_path))
    [warning] = staging.load()
    assert "broken YAML" in warning and not staging and staging.decisions() == []


def test_a_store_that_raises_on_load_is_a_warning(tmp_path):
    class Unreadable(FailingStore):
        def load_pending(self):
            raise PermissionError("pending.yaml: permission denied")

    staging = Staging(Unreadable())
    assert staging.load() == ["pending decisions not loaded: pending.yaml: permission denied"]
    assert len(staging) == 0


def test_a_failed_save_keeps_the_decision_staged_and_says_why():
    store = FailingStore()
    staging = Staging(store)
    staging.stage(APPROVE)
    assert staging.saved and staging.save_error is None
    store.fail = True
    staging.stage(DEMOTE)
    assert not staging.saved
    assert staging.save_error == "pending decisions not saved: No space left on device"
    assert staging.decisions() == [APPROVE, DEMOTE]
    store.fail = False
    staging.unstage("s-1")
    assert staging.saved and staging.save_error is None
    assert store.saved[-1] == [DEMOTE]


def test_duplicate_items_in_the_file_load_as_one_decision_the_later_one(tmp_path):
    write_files(
        tmp_path,
        {
            ".memreview/pending.yaml": "- {item: s-1, action: approve, queue: supersede}\n"
            "- {item: m-7, action: demote, queue: demotion}\n"
            "- {item: s-1, action: reject, queue: supersede}\n"
        },
    )
    staging = Staging(PendingFile(tmp_path))
    assert staging.load() == []
    assert staging.for_item("s-1") == REJECT and len(staging) == 2
    assert staging.count("supersede") == 1


def test_the_staging_model_loads_without_textual_or_rich():
    code = (
        "import sys, memreview.decisions.staging\n"
        "print(sorted(m for m in ('textual', 'rich') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
