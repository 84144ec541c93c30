"""Archive every flagged item in view at once: the confirm screen lists them, with their
flags, and the diff they would write (issue 13: one key for the owner's daily chore)."""

from __future__ import annotations

from rich.text import Text

from memreview.app.screens.apply import ApplyScreen
from memreview.display import one_line
from memreview.i18n import _, ngettext


class BulkArchiveScreen(ApplyScreen):
    """The diff of archiving these flagged items; ``y`` writes them, escape writes nothing."""

    def on_mount(self) -> None:
        self.query_one("#apply-title").update(
            ngettext(
                "Archive {count} flagged item in view",
                "Archive {count} flagged items in view",
                len(self.decisions),
            ).format(count=len(self.decisions))
        )
        super().on_mount()

    def _decision_line(self, d) -> Text:
        t = super()._decision_line(d)
        found = self.result.item(d.item) if self.result is not None else None
        flags = (found[1].get("flags") or []) if found else []
        if flags:
            names = [f["label"] for f in flags]
            t.append("  ⚑ " + one_line(", ".join(_(name) for name in names)), "dim")
        return t
