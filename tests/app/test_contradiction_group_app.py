"""A group of conflicts in the app: its members listed, # then a digit keeps one of them; a
pair has no members to pick."""

from __future__ import annotations

from app_helpers import SIZE, loaded, review, screen_text


def star(root) -> None:
    leaves = [f"claim{k}" for k in range(7)]
    hub = "CONFLICTS-WITH: " + ", ".join(f"[[{x}]]" for x in leaves)
    text = f"# Claims\n\n## [FACT:hub]\nAdded: 2026-10-01\n{hub}\nThe hub.\n---\n\n" + "".join(
        f"## [FACT:{x}]\nAdded: 2026-0{k + 1}-01\nClaim {k}.\n---\n\n" for k, x in enumerate(leaves)
    )
    (root / "memory/claims.md").write_text(text, encoding="utf-8")


async def test_hash_then_a_digit_keeps_a_member_of_a_group_and_a_pair_has_none(make, ws, backend):
    star(ws)
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        await pilot.press("1")
        text = screen_text(app)
        assert "Contradictions   1 of 2" in text
        assert "hub conflicts with 7 anchors" in text
        await pilot.press("down")  # the group comes after the pairs
        text = screen_text(app)
        assert "members 8" in text and "conflicts 7" in text
        # eight members are in Demotion too: five named, then how many more
        assert text.count("also in Demotion") == 5
        assert "… and 3 more items on the same anchors or entries" in text
        assert "#1  in 7 conflicts" in text and "#2  in 1 conflicts" in text
        await pilot.press("number_sign", "1")
        [d] = backend.store["pending"]
        assert (d.action, d.keep) == ("keep-one", 1)
        assert screen.queue == "contradictions"
        await pilot.press("up", "number_sign", "1")  # a pair: nothing to pick, nothing staged
        assert len(backend.store["pending"]) == 1
        assert screen.queue == "contradictions"
