"""A credential inside another queue's item (a duplicate) is masked in scan --json and the
report, and by the one function every screen uses (display.visible)."""

from __future__ import annotations

from pathlib import Path

from memreview.cli import main
from memreview.display import one_line, visible

KEY = "sk-proj-Abc123def456ghi789jkl012mno345pqr678stu901vwx"
WS = {
    "MEMORY.md": (
        "# Memory\n\n## Tools\n"
        f"- The night bot calls the API with the key {KEY} every morning\n"
        f"- The night bot calls the API with the key {KEY} every morning.\n"
    )
}


def _ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    for rel, text in WS.items():
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_scan_json_masks_a_key_inside_a_duplicate(tmp_path, capsys):
    root = _ws(tmp_path)
    assert main(["scan", str(root), "--json", "--today", "2026-11-29"]) == 0
    out = capsys.readouterr().out
    assert KEY not in out
    assert "sk-proj-…1vwx" in out  # the duplicate's refs are there, masked
    assert '"secrets": 2' in out and '"duplicates": 1' in out


def test_the_report_masks_it(tmp_path, capsys):
    root = _ws(tmp_path)
    assert main(["report", str(root), "--today", "2026-11-29"]) == 0
    out = capsys.readouterr().out
    assert KEY not in out


def test_visible_masks_and_still_escapes_controls():
    shown = visible(f"key {KEY}\x1b[31m")
    assert KEY not in shown and "sk-proj-…1vwx" in shown and "\x1b" not in shown
    assert one_line("plain text") == "plain text"


def test_a_cold_scan_searches_each_queue_once(tmp_path, monkeypatch):
    """The queues a cold scan found free of credentials as it stored them are not searched
    again to be printed; the duplicate holding the key is, and is masked."""
    from memreview import masking
    from memreview.cli.scan import print_json
    from memreview.scan import scan_workspace

    root = _ws(tmp_path)
    (root / "memory").mkdir()
    (root / "memory" / "2026-11-20.md").write_text("# 2026-11-20\n\n- moved the NAS\n")
    monkeypatch.setenv("MEMREVIEW_CACHE_DIR", str(tmp_path / "cache"))
    result = scan_workspace(root, cache=True)
    assert "duplicates" not in result.safe
    assert {"contradictions", "dormant", "secrets", "health"} <= result.safe
    searched = []
    real = masking.strings_in

    def watched(obj):
        searched.append(obj)
        return real(obj)

    monkeypatch.setattr(masking, "strings_in", watched)
    print_json(result.to_json(), result.safe)
    queues = searched[0]["queues"]
    assert set(queues) == set(result.to_json()["queues"]) - result.safe
    assert "duplicates" in queues
