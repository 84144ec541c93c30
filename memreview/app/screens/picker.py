"""Which agent to open: asked when OpenClaw's state directory holds several agent workspaces
(``workspace``, ``workspace-<agentId>``) and no path was given."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from memreview.app.widgets.keybar import KeyBar
from memreview.display import visible
from memreview.i18n import N_, _


class AgentPicker(App[Path | None]):
    """A list of the agents' workspaces; Enter opens one, q or Escape quits."""

    TITLE = "memreview"
    CSS = """
    Static#picker-title { padding: 1 2 0 2; }
    OptionList { margin: 1 2; height: auto; max-height: 80%; }
    """
    BINDINGS = [
        Binding(
            "escape,q", "cancel", N_("quit"), id="picker.quit", tooltip=N_("Open nothing and quit")
        ),
    ]

    def __init__(self, agents: list[tuple[str, Path]], where: str) -> None:
        super().__init__()
        self.agents = list(agents)
        self.where = where

    def compose(self) -> ComposeResult:
        title = Text(
            _("{count} agent workspaces in {where}.").format(
                count=len(self.agents), where=visible(self.where)
            )
        )
        title.append("\n" + _("Which agent's memory do you want to review?"), style="bold")
        yield Static(title, id="picker-title", markup=False)
        # names padded in terminal cells: an agent named in Chinese is twice its length wide
        width = max(cell_len(visible(name)) for name, _root in self.agents)
        options = []
        for k, (name, root) in enumerate(self.agents):
            shown = visible(name)
            prompt = Text(shown + " " * (width + 2 - cell_len(shown)), style="bold")
            prompt.append(visible(str(root)), style="dim")
            options.append(Option(prompt, id=str(k)))
        yield OptionList(*options)
        yield KeyBar(id="keybar")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.exit(self.agents[int(event.option.id or 0)][1])

    def action_cancel(self) -> None:
        self.exit(None)
