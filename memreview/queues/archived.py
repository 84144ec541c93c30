"""Archived fragments whose content still sits in a memory file (docs/design.md §2)."""

from __future__ import annotations

import functools
import hashlib
from collections import defaultdict
from datetime import date

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import LCSseq

from memreview.queues.candidates import candidate_pairs
from memreview.queues.common import item_id, short
from memreview.workspace.model import Entry, Workspace
from memreview.workspace.normalize import normalize


def archived(ws: Workspace, today: date) -> list[dict]:
    """Fragments archived at least ``archived_days`` ago whose text still lives in a memory
    entry (partial ratio ≥ the configured cutoff), with every entry that holds it."""
    cfg = ws.config
    if not ws.fragments:
        return []
    wanted: list[tuple] = []
    for f in ws.fragments:
        if f.status != "archived":
            continue
        seen = f.last_seen_date()
        if seen is None:
            continue
        days = (today - seen).days
        if days < cfg.archived_days:
            continue
        norm = normalize(f.content)
        if len(norm) < cfg.min_match_chars:
            continue
        wanted.append((f, norm, days))
    if not wanted:
        return []

    norms = [n for _f, n, _d in wanted]
    found = matches_by_file(ws, norms)
    items = []
    for k, (f, _norm, days) in enumerate(wanted):
        matches = found.get(k)
        if not matches:
            continue
        items.append(
            {
                "id": item_id("a", f.id, f.content),
                "title": short(f.content),
                "fragment": {
                    "id": f.id,
                    "content": f.content,
                    "status": f.status,
                    "last_seen": f.last_seen,
                },
                "days_since_last_seen": days,
                "matches": matches,
            }
        )
    return items


def matches_by_file(ws: Workspace, norms: list[str]) -> dict[int, list[dict]]:
    """For each pattern index, the memory entries holding it (their refs and scores), in
    file and entry order. What an entry holds depends on its text alone, so the scan
    cache's ``PerFile`` keeps, for each file, the matches of the patterns it was searched
    for and what each of its entries held (by a digest of the entry's text): a file
    unchanged since the last scan gives its matches without being read, a file changed
    gives those of its unchanged entries, and only new entries and new patterns are
    searched."""
    cfg = ws.config
    store = ws.per_file
    params = f"{cfg.archived_partial_ratio}|{cfg.min_match_chars}"
    ids = [_pattern_id(n) for n in norms]
    wanted = frozenset(ids)
    first = {pid: k for k, pid in reversed(list(enumerate(ids)))}  # two fragments, one text
    plan = _Plan(wanted)
    sets: dict[int, frozenset] = {}  # the sets of pattern ids found well made (one for all)
    for rel, mf in ws.files.items():
        check = functools.partial(_well_made, rel=rel, sets=sets)
        record = store.get("archived", rel, params, check) if store is not None else None
        if record is not None:
            plan.unchanged(rel, mf, record, cfg.min_match_chars)
            continue
        stale = None
        if store is not None:
            stale = store.stale("archived", rel, params, _well_made_stale)
        plan.changed(rel, mf, stale, cfg.min_match_chars)
    for missing, todo in plan.todo.items():
        pats = sorted(first[pid] for pid in missing)
        found = _search(pats, norms, [e for _rel, _k, e in todo], cfg.archived_partial_ratio)
        for (rel, k, _e), hits in zip(todo, found, strict=True):
            plan.held[rel][k].extend((ids[pats[j]], score) for j, score in hits)
    out: dict[int, list[dict]] = defaultdict(list)
    where = defaultdict(list)
    for k, pid in enumerate(ids):
        where[pid].append(k)
    for rel in ws.files:
        kept, seen = plan.result(rel)
        if store is not None:
            store.put("archived", rel, params, (wanted, kept, seen))
        for pid, matches in kept.items():
            for k in where[pid]:
                out[k].extend(matches)
    return out


class _Plan:
    """What each file gives of the last scan's search and what is left to search: the
    entries to search, by the patterns they are to be searched for (``todo``), and what
    each entry of a file read holds (``held``: by its place among the file's entries
    searched, (pattern id, score) pairs)."""

    def __init__(self, wanted: frozenset[str]):
        self.wanted = wanted
        self.todo: dict[frozenset[str], list[tuple[str, int, Entry]]] = defaultdict(list)
        self.held: dict[str, dict[int, list[tuple[str, float]]]] = {}
        self.entries: dict[str, list[Entry]] = {}
        self.kept: dict[str, dict[str, list]] = {}  # the matches of a file not read
        self.seen: dict[str, dict[bytes, tuple[tuple[str, float], ...]]] = {}

    def unchanged(self, rel: str, mf, record, min_chars: int) -> None:
        """A file as it was: its matches of the patterns searched for then; read only when
        a pattern is new."""
        done, hits, seen = record
        missing = self.wanted - done
        if not missing:
            self.kept[rel] = {pid: m for pid, m in hits.items() if pid in self.wanted}
            self.seen[rel] = seen
        else:  # read: its entries are searched for the new patterns
            seen = seen if _well_made_stale(record) else {}
            self._read(rel, mf, min_chars, seen, done & self.wanted, missing)

    def changed(self, rel: str, mf, stale, min_chars: int) -> None:
        """A file changed (or new): each entry whose text was in the file before gives what
        it held then; the others are searched."""
        done, seen = (stale[0], stale[2]) if stale is not None else (frozenset(), {})
        self._read(rel, mf, min_chars, seen, done & self.wanted, self.wanted - done)

    def _read(self, rel, mf, min_chars, seen, done, missing) -> None:
        entries = self.entries[rel] = [e for e in mf.entries if len(e.norm) >= min_chars]
        held = self.held[rel] = {}
        # each list looked up once per file: a set key equal to another but not it is
        # compared element by element at every lookup
        every, rest = self.todo[self.wanted], (self.todo[missing] if missing else None)
        for k, e in enumerate(entries):
            before = seen.get(_entry_digest(e.norm)) if seen else None
            if before is None and seen:  # a new entry: searched for every pattern
                held[k] = []
                every.append((rel, k, e))
                continue
            held[k] = [(pid, score) for pid, score in before or () if pid in done]
            if rest is not None:
                rest.append((rel, k, e))

    def result(self, rel: str) -> tuple[dict[str, list], dict[bytes, tuple]]:
        """The file's matches by pattern id (in entry order) and what each entry holds."""
        if rel not in self.held:
            return self.kept[rel], self.seen[rel]
        kept: dict[str, list] = {}
        seen: dict[bytes, tuple[tuple[str, float], ...]] = {}
        for k, e in enumerate(self.entries[rel]):
            hits = self.held[rel][k]
            seen[_entry_digest(e.norm)] = tuple(hits)
            for pid, score in hits:
                kept.setdefault(pid, []).append({**e.ref(), "score": score})
        return kept, seen


def _entry_digest(norm: str) -> bytes:
    """An entry's text as the cache keeps it: a digest (the text itself is never written)."""
    return hashlib.blake2b(norm.encode("utf-8", "surrogatepass"), digest_size=12).digest()


def _search(
    pats: list[int], norms: list[str], entries: list[Entry], cutoff: float
) -> list[list[tuple[int, float]]]:
    """For each of ``entries``, (index into ``pats``, score) of each pattern it holds."""
    found: list[list[tuple[int, float]]] = [[] for _ in entries]
    if not pats or not entries:
        return found
    hits = contained_in([norms[k] for k in pats], [e.norm for e in entries], cutoff)
    for j in sorted(hits):
        for ei, score in hits[j]:
            found[ei].append((j, round(float(score), 1)))
    return found


def _pattern_id(norm: str) -> str:
    """A pattern as the cache keeps it: a hash (a fragment's text is never written)."""
    return hashlib.blake2b(norm.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def _pattern_ids(done, sets: dict[int, frozenset] | None = None) -> bool:
    """Whether ``done`` is a set of pattern ids; ``sets``: those found so, by identity (the
    files' records share one: each is looked at once, not once per file)."""
    if sets is not None and sets.get(id(done)) is done:
        return True
    good = isinstance(done, frozenset) and all(isinstance(pid, str) for pid in done)
    if good and sets is not None:
        sets[id(done)] = done
    return good


def _well_made(record, rel: str, sets: dict[int, frozenset] | None = None) -> bool:
    """A record stored for file ``rel``: (the pattern ids searched for, their matches in
    it by id, what each entry held); what the entries held is checked when it is used."""
    if not (isinstance(record, tuple) and len(record) == 3):
        return False
    done, hits, seen = record
    return (
        _pattern_ids(done, sets)
        and isinstance(hits, dict)
        and isinstance(seen, dict)
        and all(
            pid in done
            and isinstance(matches, list)
            and matches
            and all(_well_made_match(m) and m["file"] == rel for m in matches)
            for pid, matches in hits.items()
        )
    )


def _well_made_stale(record) -> bool:
    """A record of a file since changed, of which only what each entry held is used: digests
    to (pattern id searched for, score) pairs."""
    if not (isinstance(record, tuple) and len(record) == 3):
        return False
    done, _hits, seen = record
    return (
        _pattern_ids(done)
        and isinstance(seen, dict)
        and all(
            isinstance(d, bytes)
            and isinstance(held, tuple)
            and all(
                isinstance(h, tuple) and len(h) == 2 and h[0] in done and type(h[1]) is float
                for h in held
            )
            for d, held in seen.items()
        )
    )


def _well_made_match(m) -> bool:
    return (
        isinstance(m, dict)
        and set(m) == {"file", "line", "end_line", "text", "anchor", "score"}
        and isinstance(m["file"], str)
        and type(m["line"]) is int
        and type(m["end_line"]) is int
        and isinstance(m["text"], str)
        and isinstance(m["anchor"], str | None)
        and type(m["score"]) is float
    )


def contained_in(
    patterns: list[str], texts: list[str], cutoff: float
) -> dict[int, list[tuple[int, float]]]:
    """For each pattern index, every (text index, score) with ``partial_ratio ≥ cutoff``
    where the text is at least as long as the pattern, in text order.

    The pattern is looked for inside each text: a text shorter than the pattern can't hold
    its content (partial_ratio would otherwise score a short entry found inside a long
    fragment). Three steps, each exact: the q-gram candidate filter, an LCS bound on the
    stretch of text where a match must lie, then the score itself.
    """
    found: dict[int, list[tuple[int, float]]] = defaultdict(list)

    def score(k: int, ti: int) -> None:
        s = fuzz.partial_ratio(patterns[k], texts[ti], score_cutoff=cutoff)
        if s:
            found[k].append((ti, s))

    # A longer text: partial_ratio scores the pattern against the text's windows, which
    # leaves at most (100 − cutoff)/50 of the pattern's length in insertions and deletions.
    candidates = candidate_pairs(patterns, texts, (100 - cutoff) / 50)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    for k, spans in candidates.items():
        longer = lengths[spans.text] > len(patterns[k])
        cand = spans.text[longer].tolist()
        stretches = [
            texts[ti][a:b]
            for ti, a, b in zip(
                cand, spans.lo[longer].tolist(), spans.hi[longer].tolist(), strict=True
            )
        ]
        for at in _lcs_survivors(patterns[k], stretches, cutoff):
            score(k, cand[at])
    # A text exactly as long: partial_ratio also scores the whole text against windows of
    # the pattern, which the filter above doesn't bound. Such texts are few per length;
    # the LCS bound on the whole text sorts them out (rapidfuzz's threads, both cores).
    by_len: dict[int, list[int]] = defaultdict(list)
    for ti, t in enumerate(texts):
        by_len[len(t)].append(ti)
    pats_by_len: dict[int, list[int]] = defaultdict(list)
    for k, p in enumerate(patterns):
        if by_len.get(len(p)):
            pats_by_len[len(p)].append(k)
    for n, ks in pats_by_len.items():
        tis = by_len[n]
        lcs = process.cdist(
            [patterns[k] for k in ks],
            [texts[ti] for ti in tis],
            scorer=LCSseq.similarity,
            dtype=np.int32,
            workers=-1,
        )
        for r, c in zip(*np.nonzero(lcs >= _lcs_needed(n, cutoff)), strict=True):
            score(ks[int(r)], tis[int(c)])
    return {k: sorted(v) for k, v in found.items()}


def _lcs_needed(length: int, cutoff: float) -> float:
    return cutoff * length / (200 - cutoff) - 1e-9


def _lcs_survivors(pattern: str, stretches: list[str], cutoff: float) -> list[int]:
    """Indices of the stretches that can still reach ``partial_ratio ≥ cutoff``: an exact
    bound, far cheaper than the score itself (bit-parallel LCS).

    partial_ratio scores a window w (a substring of the stretch, at most as long as the
    pattern p) as 2·LCS(p, w) / (|p| + |w|). With X = LCS(p, stretch) ≥ LCS(p, w) and
    LCS(p, w) ≤ |w|, that is at most 2X / (|p| + X). So a stretch needs
    X ≥ cutoff·|p| / (200 − cutoff).
    """
    if not stretches:
        return []
    lcs = process.cdist([pattern], stretches, scorer=LCSseq.similarity, dtype=np.int32)[0]
    return np.nonzero(lcs >= _lcs_needed(len(pattern), cutoff))[0].tolist()
