"""The agent picker: which workspace to open when OpenClaw runs several agents."""

from __future__ import annotations

from pathlib import Path

from app_helpers import screen_text

from memreview.app import make_picker

AGENTS = [
    ("default", Path("/home/o/.openclaw/workspace")),
    ("coder", Path("/home/o/.openclaw/workspace-coder")),
    ("[bold]x\x1b[31m", Path("/home/o/.openclaw/workspace-[bold]x\x1b[31m")),
]


async def test_enter_on_an_agent_opens_its_workspace():
    app = make_picker(AGENTS, "/home/o/.openclaw")
    async with app.run_test(size=(100, 20)) as pilot:
        text = screen_text(app)
        assert "3 agent workspaces in /home/o/.openclaw" in text
        assert "coder" in text and "/home/o/.openclaw/workspace-coder" in text
        await pilot.press("down", "enter")
    assert app.return_value == AGENTS[1][1]


async def test_q_opens_nothing():
    app = make_picker(AGENTS, "/home/o/.openclaw")
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.press("q")
    assert app.return_value is None


async def test_agent_names_are_shown_as_text_never_as_markup_or_escapes():
    app = make_picker(AGENTS, "/home/o/.openclaw")
    async with app.run_test(size=(100, 20)):
        text = screen_text(app)
    assert "[bold]x␛[31m" in text
