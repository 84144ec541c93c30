"""A duplicates item shows why it is one fact: the substance its members share highlighted
in each, and what differs (docs/design.md §2, §5: memory text is never markup)."""

from __future__ import annotations

import io

from rich.console import Console, Group
from rich.style import Style

from memreview.app.render import item_body

MARK = Style(bold=True, underline=True)


def st(name: str) -> Style:
    return MARK if name == "mark" else Style()


def _ref(line: int, text: str) -> dict:
    return {"file": "MEMORY.md", "line": line, "end_line": line, "text": text, "anchor": None}


def _context(lines: dict[int, str]):
    return lambda file, line, end, before, after: [
        (n, lines[n]) for n in range(line - before, end + after + 1) if n in lines
    ]


def _marked_rows(parts) -> list[tuple[str, list[str]]]:
    """Each member line shown: its text and the stretches of it drawn highlighted."""
    out = []
    for part in parts:
        if not isinstance(part, Group):
            continue
        for _number, text in part.renderables[1].rows:
            marks = [text.plain[s.start : s.end] for s in text.spans if s.style == MARK]
            out.append((text.plain, marks))
    return out


def _shown(parts) -> str:
    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    for part in parts:
        console.print(part)
    return console.export_text()


LINES = {
    3: "- VPN endpoint: wg.danaw.net, port 51820 (support ticket 7)",
    9: "| VPN | wg.danaw.net | 51820 |",
}
ITEM = {
    "id": "d-1",
    "title": "VPN endpoint",
    "kind": "restructured",
    "refs": [_ref(3, LINES[3]), _ref(9, LINES[9])],
    "merged": None,
    "score": 88.0,
    "evidence": {"shared": ["wg.danaw.net", "51820", "port"], "differs": []},
}


def test_the_shared_substance_is_highlighted_in_each_member():
    rows = _marked_rows(item_body("duplicates", ITEM, _context(LINES), st))
    assert (LINES[3], ["wg.danaw.net", "port", "51820"]) in rows  # not "port" in "support"
    assert (LINES[9], ["wg.danaw.net", "51820"]) in rows
    shown = _shown(item_body("duplicates", ITEM, _context(LINES), st))
    assert "shared wg.danaw.net, 51820, port" in shown
    assert "differs" not in shown


def test_memory_text_and_marks_are_shown_as_text_never_markup():
    lines = {3: "- [bold]rule[/bold] \x1b[31m use wg.danaw.net", 4: "- use wg.danaw.net \u202e"}
    item = {
        **ITEM,
        "refs": [_ref(3, lines[3]), _ref(4, lines[4])],
        "evidence": {"shared": ["[bold]rule[/bold]", "wg.danaw.net"]},
    }
    rows = _marked_rows(item_body("duplicates", item, _context(lines), st))
    assert (
        "- [bold]rule[/bold] ␛[31m use wg.danaw.net",
        ["[bold]rule[/bold]", "wg.danaw.net"],
    ) in rows
    assert any(text.startswith("- use wg.danaw.net <U+202E>") for text, _m in rows)


def test_a_near_pair_lists_what_differs():
    # given by the item
    item = {**ITEM, "kind": "near", "evidence": {"shared": [], "differs": [["51820", "51821"]]}}
    assert "differs 51820 → 51821" in _shown(item_body("duplicates", item, _context(LINES), st))
    # found from its members' words when the item gives none
    lines = {
        1: "- Deploys go out on Tuesdays after the standup",
        2: "- Deploys go out on Tuesdays just after standup",
    }
    item = {**ITEM, "kind": "near", "refs": [_ref(1, lines[1]), _ref(2, lines[2])]}
    del item["evidence"]
    shown = _shown(item_body("duplicates", item, _context(lines), st))
    assert "differs (nothing) → just  ·  the → (nothing)" in shown
    # an exact copy has nothing that differs
    item = {**item, "kind": "exact", "refs": [_ref(1, lines[1]), _ref(1, lines[1])]}
    assert "differs" not in _shown(item_body("duplicates", item, _context(lines), st))


def test_evidence_of_the_wrong_shape_is_left_out():
    for evidence in ("wg.danaw.net", {"shared": "wg", "differs": "ab"}, {"differs": [["a"]]}):
        item = {**ITEM, "evidence": evidence}
        rows = _marked_rows(item_body("duplicates", item, _context(LINES), st))
        assert all(marks == [] for _text, marks in rows)
        assert "differs" not in _shown(item_body("duplicates", item, _context(LINES), st))


async def test_the_app_shows_a_near_pairs_kind_and_what_differs(make, tmp_path):
    from app_helpers import SIZE, loaded, screen_text

    root = tmp_path / "near"
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "# Memory\n## Habits\n- 周四慢跑四十分钟，心率控制在安全区以下\n"
        "- 周四慢跑四十分钟，心率就控制在安全区以下\n",
        encoding="utf-8",
    )
    app = make(root=root)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("5")
        text = screen_text(app)
        assert "kind the same text but for filler" in text
        assert "differs (nothing) → 就" in text
