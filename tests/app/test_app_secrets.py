"""The secrets queue in the app: the value never on screen, the redaction's warning before writing."""

from __future__ import annotations

from app_helpers import SIZE, loaded, review, screen_text

from memreview.app.screens.apply import ApplyScreen

KEY = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


async def test_the_secrets_queue_shows_the_value_masked_and_warns_before_a_redaction(make, ws):
    (ws / "memory" / "accounts.md").write_text(
        f"# Accounts\n\n- CI token for the night job: {KEY}\n", encoding="utf-8"
    )
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("9")
        await loaded(app, pilot)
        assert review(app).queue == "secrets"
        text = screen_text(app)
        assert "GitHub Token in memory/accounts.md:3" in text
        assert "ghp_…6789" in text and KEY not in text
        await pilot.press("a", "w")
        await loaded(app, pilot)
        assert isinstance(app.screen, ApplyScreen)
        text = screen_text(app)
        assert "A redaction can't be undone" in text
        assert KEY not in text
