"""Random sequences of decisions in every queue of a workspace whose entries are in several
queues (issue 29): stage, unstage, apply, apply again, undo, undo an older batch, restore,
unhide, with an agent appending between steps. After each step:

- every entry the workspace started with is in exactly one live file or one archive (an
  archive file, or a batch's backup for an entry deleted without archiving);
- ``verdicts.jsonl`` agrees with the files (a promotion a batch says it kept is live after
  it, one it says it archived is in the archive);
- ``state.yaml`` hides exactly what the applied batches not undone decided;
- an undo is the exact inverse of its batch (the files as they were, with what the agent
  appended since);
- applying the same decisions again writes nothing.

Also: what an undo stages again is only what can be written (no decision on an item in no
queue, none that clashes with one staged), so an apply of what is staged is never refused.

Settings: ``MEMREVIEW_SEQUENCES`` examples (10 unless set) of 4 to ``MEMREVIEW_STEPS`` steps
(16 unless set); by default about 3 s, derandomized. A campaign sets both, e.g.
``MEMREVIEW_SEQUENCES=800 MEMREVIEW_STEPS=20`` (random examples; about 1 s of CPU each)."""

from __future__ import annotations

import difflib
import json
import os
import re
import tempfile
from pathlib import Path

from decisions_helpers import NOW, TODAY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_ws import write_shared

from memreview import store
from memreview.decisions import apply, clash_of, load_pending, save_pending, undo
from memreview.decisions.hidden import hidden_items, unhide
from memreview.decisions.model import Decision
from memreview.decisions.restore import archived_entries, restore
from memreview.decisions.state import load_state
from memreview.scan import scan_workspace

EXAMPLES = int(os.environ.get("MEMREVIEW_SEQUENCES", "10"))
STEPS = int(os.environ.get("MEMREVIEW_STEPS", "16"))
STAMP_RE = re.compile(r"\(\d{4}-\d{2}-\d{2} 自动沉淀\)")
HEADER_RE = re.compile(r"^## \[[A-Z]+:[^\]]+\]", re.M)
AGENT_FILE = "memory/2026-11-29.md"

# The decisions a step may stage: every action of every queue (a member, a merge text and an
# edit text where the action takes one).
EXTRA = {
    ("duplicates", "keep"): [{"keep": 1}, {"keep": 2}],
    ("duplicates", "merge"): [{"keep": 1, "text": None}],
    ("promotions", "edit"): [{"text": "- The entry as the owner reworded it {stamp}"}],
}

STAGE = st.tuples(st.just("stage"), st.integers(0, 10_000))
STEP = st.one_of(
    STAGE,
    STAGE,
    STAGE,
    st.tuples(st.just("unstage"), st.integers(0, 10_000)),
    st.tuples(st.just("apply"), st.just(0)),
    st.tuples(st.just("reapply"), st.just(0)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("undo-batch"), st.integers(0, 10_000)),
    st.tuples(st.just("restore"), st.integers(0, 10_000)),
    st.tuples(st.just("unhide"), st.integers(0, 10_000)),
)


def _choices(result) -> list[dict]:
    out = []
    for queue, items in result.all_queues.items():
        unit = next(u for u in _units() if u.name == queue)
        for it in items:
            for action in unit.actions:
                if action == "defer":
                    continue
                for extra in EXTRA.get((queue, action), [{}]):
                    d = {"item": it["id"], "action": action, **extra}
                    if d.get("text", "") is None:
                        d.pop("text")
                    elif "text" in d:  # an edit keeps the entry's date: it is still that entry
                        d["text"] = d["text"].format(stamp=_stamp(it.get("text") or ""))
                    out.append(d)
    return out


def _stamp(text: str) -> str:
    found = STAMP_RE.search(text)
    return found.group(0) if found else ""


def _units():
    from memreview.decisions import registry

    return registry.units()


def _files(root: Path) -> dict[str, str]:
    """The workspace's text files, memreview's own directory left out."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and not rel.startswith(".memreview/") and not rel.endswith(".db"):
            out[rel] = p.read_bytes().decode("utf-8", "replace")
    return out


def _live(files: dict[str, str]) -> str:
    return "\n".join(
        t
        for rel, t in files.items()
        if rel.endswith(".md") and not rel.startswith("memory/archive/")
    )


class Run:
    """One sequence: the workspace, what is staged, what the agent appended."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.staged: list[Decision] = []
        self.agent: list[str] = []
        self.last_applied: list[Decision] = []
        self.fresh_verdicts: list[tuple[str, str]] = []  # those the last apply wrote
        self.taken_back = False  # an undo, restore or unhide since the last apply
        self.batches: dict[str, tuple] = {}  # per batch: the files and state before it
        first = self.scan()
        text = _files(root)
        self.stamps = sorted(set(STAMP_RE.findall(text["MEMORY.md"])))
        self.headers = sorted(set(HEADER_RE.findall(text["memory/knowledge.md"])))
        self.promotion_stamp = {
            it["key"]: STAMP_RE.search(it["text"]).group(0) for it in first.all_queues["promotions"]
        }

    def scan(self):
        return scan_workspace(self.root, today=TODAY)

    # -- the agent ------------------------------------------------------------------------
    def append(self, n: int) -> None:
        line = f"- the agent noted thing {n} at 23:{n % 60:02d}"
        for rel in ("MEMORY.md", AGENT_FILE):
            path = self.root / rel
            old = path.read_bytes().decode("utf-8") if path.exists() else "# 2026-11-29\n"
            path.write_bytes((old + ("" if old.endswith("\n") else "\n") + line + "\n").encode())
        self.agent.append(line)

    # -- steps ----------------------------------------------------------------------------
    def step(self, kind: str, k: int) -> str:
        if kind in ("undo", "undo-batch", "restore", "unhide"):
            self.taken_back = True
        journal = len(store.batches(self.root))
        getattr(self, "do_" + kind.replace("-", "_"))(k)
        if kind in ("undo-batch", "restore", "unhide") and len(store.batches(self.root)) > journal:
            # the files before the earlier batches are not the ones their undo must give
            # back any more: that exact check holds for the batches written since
            self.batches.clear()
        return kind

    def do_stage(self, k: int) -> None:
        result = self.scan()
        choices = _choices(result)
        if not choices:
            return
        d = Decision.from_dict(choices[k % len(choices)])
        if clash_of(result, self.staged, d) is None:  # the app refuses a clashing one
            self.staged = [s for s in self.staged if s.item != d.item] + [d]
            save_pending(self.root, self.staged)  # as the app keeps them

    def do_unstage(self, k: int) -> None:
        if self.staged:
            del self.staged[k % len(self.staged)]
            save_pending(self.root, self.staged)

    def do_apply(self, _k: int) -> None:
        if not self.staged:
            return
        before = _files(self.root)
        hidden_before = _hidden(self.root)
        verdicts = len(_promotion_verdicts(self.root))
        out = apply(self.scan(), self.staged, now=NOW)
        # what is staged never clashes: staging refuses a clash, an undo leaves out what
        # it would stage again into one
        assert not out.refused, out.refused
        # applied again as they were written (one that failed may be valid by now: an
        # edited promotion's new text is an item of its own)
        self.last_applied = list(out.applied)
        self.taken_back = False
        # the verdicts this batch wrote must agree with the files as it left them
        self.fresh_verdicts = _promotion_verdicts(self.root)[verdicts:]
        self.staged = list(out.pending)
        if out.batch:
            self.batches[out.batch] = (before, hidden_before, list(self.agent))

    def do_reapply(self, _k: int) -> None:
        if not self.last_applied:
            return
        before = _files(self.root)
        journal = store.batches(self.root)
        state = _hidden(self.root)
        out = apply(self.scan(), self.last_applied, now=NOW)
        if self.taken_back:  # an undo, restore or unhide since: they are decided anew
            self.staged = list(out.pending)
            if out.batch:
                self.batches[out.batch] = (before, state, list(self.agent))
            return
        assert out.batch is None, ("a re-apply wrote a batch", out.messages, out.applied)
        assert _files(self.root) == before, "a re-apply changed the files"
        assert len(store.batches(self.root)) == len(journal)
        assert _hidden(self.root) == state
        self.staged = [s for s in self.staged if s.item not in {d.item for d in out.applied}]

    def do_undo(self, _k: int) -> None:
        last = store.last_batch(self.root, undoable=True)
        out = undo(self.root, now=NOW, scan=lambda root: scan_workspace(root, today=TODAY))
        if not out.ok or last is None:
            return
        self._restaged(out)
        saved = self.batches.get(last.batch_id)
        if saved is None or last.kind != "apply":
            return
        before, hidden_before, agent_then = saved
        now = _files(self.root)
        added = [ln for ln in self.agent if ln not in agent_then]
        for rel in set(before) | set(now):
            if rel.endswith("verdicts.jsonl") or rel in getattr(out, "kept_files", ()):
                continue
            want = before.get(rel)
            have = now.get(rel)
            if have is not None:
                have = "".join(
                    ln for ln in have.splitlines(keepends=True) if ln.rstrip("\n") not in added
                )
            if rel == AGENT_FILE:
                continue
            assert have == want, f"undo of {last.batch_id} left {rel} otherwise:\n" + _diff(
                want, have
            )
        assert _hidden(self.root) == hidden_before, "undo left state.yaml otherwise"

    def do_undo_batch(self, k: int) -> None:
        open_ = [
            b
            for b in store.batches(self.root)
            if b.kind in ("apply", "restore", "unhide") and not b.undone_by and b.committed
        ]
        if not open_:
            return
        out = undo(
            self.root,
            now=NOW,
            batch_id=open_[k % len(open_)].batch_id,
            scan=lambda root: scan_workspace(root, today=TODAY),
        )
        if out.ok:
            self._restaged(out)

    def _restaged(self, out) -> None:
        self.staged = load_pending(self.root)[0]
        assert [d.item for d in out.restaged] == [d.item for d in self.staged][: len(out.restaged)]
        result = self.scan()
        for d in self.staged:  # no dead decision: each one's item is in a queue
            assert result.item(d.item) is not None, f"{d.item} staged again, in no queue"
        if out.lasting:  # the redaction stays: the files before the other batches have it
            now = _files(self.root)
            for before, _hidden_then, _agent in self.batches.values():
                for rel in out.kept_files:
                    if rel in before and rel in now:
                        before[rel] = _redacted_as(before[rel], now[rel])

    def do_restore(self, k: int) -> None:
        found = archived_entries(self.root)
        if found:
            restore(self.root, found[k % len(found)].id, now=NOW)

    def do_unhide(self, k: int) -> None:
        found = hidden_items(self.root, TODAY)
        if found:
            unhide(self.root, found[k % len(found)].id, today=TODAY, now=NOW)

    # -- the invariants -------------------------------------------------------------------
    def check(self) -> None:
        files = _files(self.root)
        live = _live(files)
        kept = archived_entries(self.root)
        for mark in [*self.stamps, *self.headers]:
            n = live.count(mark) + sum(mark in "\n".join(a.lines) for a in kept)
            assert n == 1, f"{mark!r} is in {n} places (live {live.count(mark)})"
        for line in self.agent:
            assert line in files["MEMORY.md"], f"the agent's line {line!r} was lost"
        for key, verdict in self.fresh_verdicts:
            stamp = self.promotion_stamp.get(key)
            if stamp is None:
                continue
            in_archive = stamp in files.get("memory/archive/rejected-promotions.md", "")
            if verdict in ("kept", "edited", "stripped"):
                assert stamp in live, f"verdicts say {key} was {verdict}; it is not in memory"
            elif verdict == "archived":
                assert in_archive and stamp not in live, f"{key} is said archived"
        self.fresh_verdicts = []
        hidden, expected = _hidden(self.root), _expected_hidden(self.root)
        assert hidden == expected, f"state.yaml hides {hidden}, the journal says {expected}"


def _redacted_as(text: str, now: str) -> str:
    """``text`` with each line that ``now`` holds redacted as ``now`` holds it."""
    marked = [ln for ln in now.splitlines() if "[redacted " in ln]
    patterns = [
        (re.compile(re.sub(r"\\\[redacted\\ [^\]]*\\\]", ".+?", re.escape(ln))), ln)
        for ln in marked
    ]
    out = []
    for ln in text.splitlines(keepends=True):
        body = ln.rstrip("\n")
        hit = next((new for pat, new in patterns if pat.fullmatch(body)), None)
        out.append(ln if hit is None else hit + ln[len(body) :])
    return "".join(out)


def _diff(want: str | None, have: str | None) -> str:
    lines = difflib.unified_diff(
        (want or "").splitlines(), (have or "").splitlines(), "before", "after", lineterm=""
    )
    return "\n".join(lines)


def _hidden(root: Path) -> dict[str, str | None]:
    return {k: h.batch for k, h in load_state(root).hidden.items()}


def _expected_hidden(root: Path) -> dict[str, str | None]:
    """What the journal's batches not undone hid, oldest first (an unhide shows again)."""
    out: dict[str, str | None] = {}
    for b in store.batches(root):
        if b.undone_by or not b.committed:
            continue
        failed = store.failed_keys(b)
        for d in b.decisions:
            if not isinstance(d, dict):
                continue
            if b.kind == "apply" and isinstance(d.get("hide"), dict) and d.get("key") not in failed:
                out[d["hide"]["item"]] = b.batch_id
            elif b.kind == "unhide" and isinstance(d.get("item"), str):
                out.pop(d["item"], None)
    return out


def _promotion_verdicts(root: Path) -> list[tuple[str, str]]:
    """The verdict lines on promotions, in file order: (promotion key, verdict)."""
    path = root / "memory/review/verdicts.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [(str(v["proposal"]), v["verdict"]) for v in rows if v.get("relation") == "promotion"]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=EXAMPLES <= 10,
)
@given(st.lists(STEP, min_size=4, max_size=STEPS))
def test_every_sequence_of_decisions_ends_in_a_consistent_workspace(steps):
    with tempfile.TemporaryDirectory() as tmp:
        run = Run(write_shared(Path(tmp) / "ws"))
        done = []
        for n, (kind, k) in enumerate(steps):
            done.append(run.step(kind, k))
            run.append(n)
            try:
                run.check()
            except AssertionError as exc:
                raise AssertionError(f"after {done}: {exc}") from None
