"""Putting a skipped skill candidate back (``unhide``): the one edit unhide makes to a file.

state.yaml says where the candidate goes back (``removed.file``) and the agent can write
state.yaml, so what it says is checked before anything is touched: the file must be the
workspace's skill candidates file (``skill_candidates`` in the config, a ``.json`` file),
and it must be a candidates document (``{"candidates": [...]}``) that parses. A file that
doesn't parse (a trailing comma, a half-written document) is refused with the reason and
left as it is: the candidate goes back only into a list whose other candidates stay as they
are, never by writing the file again as just that candidate. A missing or empty file gets a
new document holding the candidate.
"""

from __future__ import annotations

from typing import Any

from memreview import store
from memreview.decisions.rewrite.whole import insert_candidate
from memreview.i18n import _
from memreview.workspace import jsondoc
from memreview.workspace.textfile import EncodeError, TextFile


def removed_candidate(removed: dict[str, Any] | None) -> dict[str, Any] | None:
    """The skill candidate a skip took out (kept as JSON text, its keys in order), or None."""
    text = (removed or {}).get("candidate")
    try:
        cand = jsondoc.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return cand if isinstance(cand, dict) else None


def candidates_document(current: TextFile) -> tuple[list[Any] | None, str | None]:
    """(the "candidates" list of ``current``, None) or (None, why it isn't one)."""
    text = "".join(ln.text + ln.ending for ln in current.lines)
    try:
        doc = jsondoc.loads(text)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        if line:
            return None, _("{file} is not valid JSON (line {line})").format(
                file=current.rel, line=line
            )
        return None, _("{file} is not valid JSON").format(file=current.rel)
    cands = doc.get("candidates") if isinstance(doc, dict) else None
    if not isinstance(cands, list):
        return None, _('{file} is not an object with a "candidates" list').format(file=current.rel)
    return cands, None


def candidates_of(current: TextFile) -> list[Any]:
    """The candidates of ``current``; [] when it isn't a candidates document."""
    cands, _problem = candidates_document(current)
    return cands or []


def putback_problem(removed: dict[str, Any], skill_candidates: str) -> str | None:
    """Why state.yaml's record of a skipped candidate can't be put back as it says (a file
    other than the skill candidates file, a candidate that doesn't parse), or None."""
    rel = removed.get("file")
    if not isinstance(rel, str) or rel != skill_candidates or not rel.endswith(".json"):
        return _(
            "state.yaml says the candidate goes back into {file!r}, but unhide only writes "
            "the skill candidates file ({expected}); nothing was changed"
        ).format(file=rel, expected=skill_candidates)
    if removed_candidate(removed) is None:
        return _("state.yaml holds no readable candidate to put back; nothing was changed")
    return None


class PutBack:
    """The store job that puts a skipped skill candidate back in its file, where it was
    (nothing to write when the file holds it again); refused, with the reason, when the
    file is not a candidates document."""

    loses_text = False

    def __init__(self, removed: dict[str, Any], key: str) -> None:
        self.rel = str(removed.get("file") or "")
        self.removed = removed
        self.decisions = [key]

    def _refused(self, why: str) -> store.FileOutcome:
        return store.FileOutcome(None, conflicts=[store.Conflict(self.decisions[0], self.rel, why)])

    def compute(self, current: TextFile | None) -> store.FileOutcome:
        cand = removed_candidate(self.removed)
        if cand is None:
            return self._refused(_("no readable candidate to put back"))
        if current is not None and "".join(ln.text for ln in current.lines).strip():
            cands, problem = candidates_document(current)
            if problem is not None:
                return self._refused(
                    _("{problem}; fix it and unhide again (it was left as it is)").format(
                        problem=problem
                    )
                )
            if cands is not None and cand in cands:
                return store.FileOutcome(None, applied=list(self.decisions))
        else:
            current = None  # missing or empty: a new document holding the candidate
        index = self.removed.get("index")
        try:
            at = index if isinstance(index, int) and not isinstance(index, bool) else 0
            new = insert_candidate(self.rel, current, at, cand)
        except EncodeError as exc:
            return self._refused(f"{self.rel}: {exc}")
        return store.FileOutcome(new, applied=list(self.decisions))
