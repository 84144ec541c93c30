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


BOT = "7715203948:AAHq3mZ8xW2pL5vN9cR4tY7uJ1kE6sD0fGh"


async def test_a_recall_store_secret_says_why_redact_is_not_offered(make, ws):
    import json

    entry = {"key": "memory:memory/2026-11-20.md:3:3", "path": "memory/2026-11-20.md",
             "startLine": 3, "endLine": 3, "source": "memory", "recallCount": 1,
             "snippet": f"- Created the alert bot, token {BOT}"}  # fmt: skip
    store = ws / "memory" / ".dreams" / "short-term-recall.json"
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text(json.dumps({"version": 1, "entries": {entry["key"]: entry}}), encoding="utf-8")
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        await pilot.press("9")
        await loaded(app, pilot)
        assert review(app).queue == "secrets"
        assert "Telegram Bot Token in the recall store" in screen_text(app)
        await pilot.press("j")  # the second item: the sample's own secret comes first
        await loaded(app, pilot)
        text = screen_text(app)
        assert "redact is not offered" in text and "never writes it" in text
        await pilot.press("a")
        await pilot.pause()
        [why] = [n.message for n in app._notifications if n.title == "Not staged"]
        assert "not redacted" in why and "never writes it" in why and BOT not in why
        assert not review(app).staging.decisions()
