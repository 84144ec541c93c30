"""pending.yaml survives quits and crashes; broken files are warnings, never exceptions."""

from __future__ import annotations

from decisions_helpers import write_files

from memreview.decisions import Decision, load_pending, save_pending


def test_staged_decisions_round_trip_through_pending_yaml(tmp_path):
    staged = [
        Decision("c-1", "keep-a", queue="contradictions"),
        Decision("d-2", "merge", keep=2, text="- 合并后的条目\n  第二行: with: colons\n"),
    ]
    save_pending(tmp_path, staged)
    assert load_pending(tmp_path) == (staged, [])
    assert (tmp_path / ".memreview/.gitignore").read_text().split() == [
        "backups/",
        "pending.yaml",
        "lock",
    ]


def test_a_missing_or_empty_pending_file_is_an_empty_list(tmp_path):
    assert load_pending(tmp_path) == ([], [])
    save_pending(tmp_path, [])
    assert load_pending(tmp_path) == ([], [])


def test_broken_yaml_is_a_warning_and_an_empty_list(tmp_path):
    write_files(tmp_path, {".memreview/pending.yaml": "- item: [unclosed\n  action: x\n"})
    decisions, warnings = load_pending(tmp_path)
    assert decisions == [] and "broken YAML" in warnings[0]


def test_bad_entries_are_skipped_with_a_warning_and_the_rest_kept(tmp_path):
    write_files(
        tmp_path,
        {".memreview/pending.yaml": "- {item: s-1, action: approve}\n- 42\n- {item: s-2}\n"},
    )
    decisions, warnings = load_pending(tmp_path)
    assert decisions == [Decision("s-1", "approve")]
    assert len(warnings) == 2 and "entry 2" in warnings[0] and "entry 3" in warnings[1]


def test_binary_garbage_in_pending_yaml_does_not_raise(tmp_path):
    write_files(tmp_path, {".memreview/pending.yaml": b"\xff\xfe\x00\x01\x80garbage"})
    decisions, warnings = load_pending(tmp_path)
    assert decisions == [] and warnings
