"""The right pane: the evidence for the highlighted item, and a preview of what its decision
would write (computed in a worker once the cursor rests on the item)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.console import Group, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.cache import LRUCache
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from memreview.app.backend import make_decision
from memreview.app.keys import act_by_action, decision_label, default_act
from memreview.app.messages import PreviewReady, PreviewResult
from memreview.app.ports import ReviewBackend
from memreview.app.render import (
    STYLE_NAMES,
    decision_line,
    diff_text,
    item_body,
    spaced,
)
from memreview.app.wrap import DIFF_INDENT, Indented, WrappedText
from memreview.decisions import Decision
from memreview.decisions.unit import Act
from memreview.display import one_line
from memreview.i18n import _, ngettext

PREVIEW_DELAY = 0.15  # seconds the cursor rests on an item before its preview is computed
PREVIEW_CACHE_SIZE = 256  # previews kept (one per item and action); the oldest used go first


class PreviewRequest:
    """What to preview for the highlighted item: ``key`` names it (for the cache),
    ``compute`` runs in a worker thread."""

    def __init__(self, key: tuple, heading: str, compute: Callable[[], PreviewResult]) -> None:
        self.key = key
        self.heading = heading
        self.compute = compute


def preview_request(
    queue: str, item: dict | None, staged: Decision | None, result, backend: ReviewBackend
) -> PreviewRequest | None:
    """Preview ``staged`` (the item's staged decision), else the queue's first action."""
    if item is None:
        return None
    d = staged
    if d is not None:
        label = decision_label(d)[0]
    else:
        act = default_act(queue)
        if act is None:
            return None
        d = make_decision(item["id"], act.action, queue, keep=act.keep)
        label = _(act.label)

    def compute() -> PreviewResult:
        act = act_by_action(d.queue, d.action)
        if d.action == "defer":
            return None, _("defer writes nothing")
        preview = backend.preview(result, [d])
        if preview.problems:
            return preview.diffs, _("✗ can't be written: {problems}").format(
                problems="; ".join(preview.problems)
            )
        if not preview.diffs:
            if act is None:
                return None, ""
            return None, _("writes no memory file: {effect}").format(effect=_(act.effect))
        return preview.diffs, ""

    return PreviewRequest((item["id"], d.action, d.keep, d.text), label, compute)


class Evidence(Widget, can_focus=False):
    """Right pane: the evidence and the preview of the highlighted item.

    Drawn a line at a time from pre-rendered strips: a new item changes neither this
    widget's size nor the screen's layout, so moving through a queue stays cheap. Content
    taller than the pane scrolls with the mouse wheel or shift+up/down.
    """

    COMPONENT_CLASSES = {f"evidence--{name}" for name in STYLE_NAMES}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._body: list[RenderableType] = []
        self._preview: RenderableType | None = None
        self._strips: list[Strip] = []
        self._width = 0
        self._base_style: Style | None = None
        self.offset_y = 0
        self._preview_key: tuple | None = None
        self._preview_cache: LRUCache[tuple, tuple[str, PreviewResult]] = LRUCache(
            PREVIEW_CACHE_SIZE
        )
        self._preview_timer: Timer | None = None
        self._generation = 0  # how many times the previews were forgotten (a reload)

    def style_of(self, name: str) -> Style:
        return self.get_component_rich_style(f"evidence--{name}")

    # -- content -----------------------------------------------------------------------------
    def show_item(
        self,
        queue: str,
        item: dict | None,
        context,
        decision: Decision | None,
        hints: list[tuple[str, Act]],
        empty_text: str = "",
        preview: PreviewRequest | None = None,
        also: Iterable[str] = (),
        changed: bool = False,
    ) -> None:
        """Render the evidence of ``item``, the ``decision`` staged for it and ``hints``
        (key, act) for deciding; ``preview`` is what to preview under it (from the cache,
        else soon)."""
        st = self.style_of
        self.offset_y = 0
        # no item: nothing previewed, and a preview still coming for the last one is not
        # drawn under another queue
        self._preview = self._request_preview(preview if item is not None else None)
        if item is None:  # "": nothing to say (the queue is being computed)
            self._body = [Text(empty_text, style=st("dim"))]
        else:
            parts: list[RenderableType] = [
                WrappedText(one_line(str(item.get("title", ""))), style=st("title"))
            ]
            label, act = decision_label(decision) if decision is not None else ("", None)
            staged = (act, label) if act is not None else None
            # the decision and its keys right under the title: never below the fold
            parts.append(decision_line(staged, hints, st))
            if changed and staged is not None:
                parts.append(
                    Text(
                        _(
                            "⚠ changed since you decided: what this decision would change reads "
                            "otherwise now. It is not written until you press its key again."
                        ),
                        style=st("reject"),
                        end="",
                    )
                )
            parts.extend(Text(line, style=st("label"), end="") for line in also)
            # A/B side by side only where the screen is wide (140 columns and more)
            stack = not (self.screen.has_class("-wide") or self.screen.has_class("-huge"))
            parts.extend(item_body(queue, item, context, st, stack))
            self._body = spaced(parts)
        self._render_strips()

    # -- preview -----------------------------------------------------------------------------
    def _request_preview(self, request: PreviewRequest | None) -> Text | None:
        if self._preview_timer is not None:
            self._preview_timer.stop()
        self._preview_key = request.key if request else None
        if request is None:
            return None
        cached = self._preview_cache.get(request.key)
        if cached is not None:
            heading, (diffs, note) = cached
            return self._preview_text(heading, diffs, note)
        generation = self._generation
        self._preview_timer = self.set_timer(
            PREVIEW_DELAY, lambda: self._compute(request, generation)
        )
        return self._preview_text(request.heading, None, "…")

    @work(thread=True, exclusive=True, group="preview")
    def _compute(self, request: PreviewRequest, generation: int = 0) -> None:
        try:
            result = request.compute()
        except Exception as exc:  # a preview that fails is shown as such
            result = (None, _("✗ preview failed: {error}").format(error=exc))
        self.post_message(PreviewReady(request.key, request.heading, result, generation))

    def on_preview_ready(self, message: PreviewReady) -> None:
        message.stop()
        if message.generation != self._generation:
            return  # computed on the workspace before a reload: its diff may be wrong now
        self._preview_cache.set(message.key, (message.heading, message.result))
        if message.key == self._preview_key:
            diffs, note = message.result
            self._preview = self._preview_text(message.heading, diffs, note)
            self._render_strips()

    def forget_previews(self) -> None:
        """The workspace changed: every cached preview may be wrong, and so may those
        being computed (they are dropped when they come in)."""
        self._preview_cache.clear()
        self._generation += 1

    def _preview_text(self, heading: str, diffs: dict[str, str] | None, note: str) -> Text:
        st = self.style_of
        t = Text()
        t.append(
            "─" * 3 + " " + _("Preview — {decision}").format(decision=heading) + "\n", st("label")
        )
        if note:
            t.append(note, st("reject") if note.startswith("✗") else st("dim"))
        elif not diffs:
            t.append(_("writes no memory file"), st("dim"))
        else:
            t.append_text(diff_text(diffs, st))
        return t

    def _render_strips(self) -> None:
        width = self.size.width
        self._width = width
        if width <= 0:
            self._strips = []
            return
        parts: list[RenderableType] = list(self._body)
        if self._preview is not None:  # a wrapped diff line keeps its + or - on each row
            parts += [Text(""), Indented(self._preview, DIFF_INDENT, "+-")]
        console = self.app.console
        options = console.options.update(width=width, height=None, highlight=False)
        lines = console.render_lines(Group(*parts), options, style=self._base(), pad=True)
        self._strips = [Strip(line, width) for line in lines]
        self.offset_y = min(self.offset_y, max(0, len(self._strips) - 1))
        self.refresh()

    def on_resize(self) -> None:
        if self.size.width != self._width:
            self._render_strips()

    # -- scrolling ---------------------------------------------------------------------------
    def scroll_lines(self, delta: int) -> None:
        limit = max(0, len(self._strips) - self.size.height + 1)
        offset = max(0, min(limit, self.offset_y + delta))
        if offset != self.offset_y:
            self.offset_y = offset
            self.refresh()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.scroll_lines(3)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.scroll_lines(-3)

    def _base(self) -> Style:
        # rich_style walks every ancestor: once per restyle, not once per line
        if self._base_style is None:
            self._base_style = self.rich_style
        return self._base_style

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._base_style = None

    def render_line(self, y: int) -> Strip:
        height, width = self.size.height, self.size.width
        base = self._base()
        more = len(self._strips) - (self.offset_y + height)
        if y == height - 1 and more > 0:
            note = ngettext(
                "▼ {count} more line: shift+↓ or the mouse wheel",
                "▼ {count} more lines: shift+↓ or the mouse wheel",
                more + 1,
            ).format(count=more + 1)
            return Strip([Segment(note, base + self.style_of("dim"))]).crop_extend(0, width, base)
        index = self.offset_y + y
        if index < len(self._strips) and width == self._width:
            return self._strips[index]  # rendered at this width already
        return Strip.blank(width, base)
