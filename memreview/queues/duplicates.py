"""Duplicates: chronicle dates, fingerprint groups, near duplicates, copies (DESIGN §1.5, §2).

What an owner merges is one fact stored twice; what real workspaces are full of is parallel
records and parallel facts. So, besides the chronicle and seed 002's fingerprint groups:

- only entries that are facts on their own are compared: a field line (``**Email:** …``
  under each account, ``| 体感 | - | - |`` in each weekly table) belongs to its record, and
  records are compared whole (``record`` items);
- a near pair (ratio ≥ ``near_ratio`` on the comparison forms, ``queues.sameness``) must
  also differ only in filler — never in a number, path, code span, name or content word —
  and both sides must be ``duplicates_min_width`` wide (a CJK character counts two);
- a fingerprint group of long entries (OpenClaw prefixes snippets with their source
  heading) holds only the members that agree beyond the shared prefix;
- a duplicate matters when one side is in a curated file (``MEMORY.md``, an anchor file,
  a ``curated:`` glob); other files are compared only with ``duplicates: {scope: all}``;
- the same fact in other dress is found too: the same text in two files (``copy``), the same
  value under two labels (``value``), a table row and a bullet with the same values
  (``row-bullet``), the same dated row in two tables (``dated-row``) and a run of lines
  copied elsewhere (``block``, reported once).

The near search is bounded (issue 18): identical comparison forms are grouped first, each
text keeps at most ``duplicates_candidates`` partners, and above ``EXACT_PAIRS`` comparisons
only neighbours in prefix and suffix order are scored, so time and memory stay linear.
"""

from __future__ import annotations

import heapq
import re
from collections import defaultdict
from datetime import date
from fnmatch import fnmatchcase

import numpy as np
from rapidfuzz import fuzz, process

from memreview.queues.common import item_id, short
from memreview.queues.sameness import comparison_form, numbers, same_fact
from memreview.workspace.fields import FileFields, file_fields, wide_enough, width
from memreview.workspace.model import ChronicleRow, Entry, Workspace
from memreview.workspace.normalize import confirmed_key, fingerprint, without_parentheticals

_EVENT_SPLIT = re.compile(r"[；;]")
WINDOW = 12  # above EXACT_PAIRS: neighbours in prefix and in suffix order are scored
# Up to this many comparisons (texts to look for × texts) every pair is scored (rapidfuzz's
# C++ loop, about 0.2 s at the limit); above it the neighbour search can miss a pair whose
# edits touch both ends.
EXACT_PAIRS = 4_000_000
MAX_SAME = 8  # members of one identical text paired one by one with another text's
_DATE_CELL = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PARTS = re.compile(r"\s*[:：|]\s*")
_SUBJECT_VALUE = re.compile(r"[^\W\d_]")  # a value with a letter or a CJK character
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_WHEN = re.compile(r"[\d\s:/.,%+~-]*(?:[年月日号点时分秒周]|am|pm)?[\d\s:/.,%+~-]*", re.I)
_EMPTY_CELLS = ("", "-", "—", "–", "/")
MAIN_FILES = ("MEMORY.md", "memory/MEMORY.md", "memory.md")


def chronicle_merge(rows: list[ChronicleRow]) -> tuple[ChronicleRow, str]:
    """Seed 002's merge: keep the longest row, append the others' new events with '；'."""
    kept = max(rows, key=lambda r: len(r.text))  # max keeps the first on a tie
    events = kept.events
    for r in rows:
        if r is kept:
            continue
        for ev in _EVENT_SPLIT.split(r.events):
            ev = ev.strip()
            if ev and ev not in events:
                events = f"{events}；{ev}" if events else ev
    parts = kept.text.split("|")
    # parts: [lead, date, events, …, trail]; keep every other cell and the spacing style
    if len(parts) >= 3:
        cell = parts[2]
        lead = cell[: len(cell) - len(cell.lstrip())] or " "
        tail = cell[len(cell.rstrip()) :] or " "
        parts[2] = f"{lead}{events}{tail}"
    return kept, "|".join(parts)


def _chronicle_items(ws: Workspace) -> list[dict]:
    items = []
    for mf in ws.files.values():
        by_date: dict[str, list[ChronicleRow]] = defaultdict(list)
        for row in mf.chronicle:
            by_date[row.date].append(row)
        for day, rows in by_date.items():
            if len(rows) < 2:
                continue
            kept, merged = chronicle_merge(rows)
            ordered = [kept] + [r for r in rows if r is not kept]
            items.append(
                {
                    "id": item_id("d", "chronicle", mf.rel, day, *sorted(r.text for r in rows)),
                    "title": f"{day}: {len(rows)} chronicle rows",
                    "kind": "chronicle",
                    "refs": [r.entry.ref() for r in ordered],
                    "merged": merged,
                    "score": None,
                }
            )
    return items


def comparable(e: Entry) -> bool:
    """Whether an entry takes part in duplicate detection (a bullet or row of its own)."""
    return e.kind != "anchor" and e.in_anchor is None and not e.in_chronicle and bool(e.norm)


def curated_files(ws: Workspace) -> set[str]:
    """MEMORY.md (root or memory/), anchor files and the config's ``curated`` globs."""
    globs = ws.config.curated
    return {
        rel
        for rel, mf in ws.files.items()
        if rel in MAIN_FILES or mf.anchors or any(fnmatchcase(rel, g) for g in globs)
    }


class _Scope:
    def __init__(self, ws: Workspace):
        self.all = str(ws.config.duplicates_scope).strip().lower() == "all"
        self.curated = curated_files(ws)

    def allows(self, a: str, b: str) -> bool:
        """Whether a duplicate between files ``a`` and ``b`` (possibly the same) matters."""
        return self.all or a in self.curated or b in self.curated

    def rank(self, e: Entry) -> int:
        return 0 if e.file in self.curated else 1


class _Union:
    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        parent = self.parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)


def _fingerprint_groups(entries: list[Entry], canon: dict[int, str], cfg) -> list[list[Entry]]:
    """Seed 002's groups (one section, same fingerprint and confirmation key); a group with a
    member longer than ``duplicates_confirm_beyond`` keeps only members whose texts agree
    beyond the shared prefix (same fact, ratio ≥ near_ratio), split into connected sets."""
    groups: dict[tuple, list[Entry]] = defaultdict(list)
    for e in entries:
        groups[(e.section_line, fingerprint(e.norm), confirmed_key(e.norm))].append(e)
    out = []
    for g in groups.values():
        if len(g) < 2:
            continue
        if max(len(e.norm) for e in g) <= cfg.duplicates_confirm_beyond:
            out.append(g)
            continue
        forms = [without_parentheticals(canon[id(e)]) for e in g]
        u = _Union()
        first: dict[str, int] = {}
        for x, f in enumerate(forms):  # the same form: one member stands for all
            u.join(x, first.setdefault(f, x))
        distinct = list(first)
        cap = max(1, cfg.duplicates_candidates)
        pairs = near_candidates(distinct, list(range(len(distinct))), cfg.near_ratio, cap)
        nums = [numbers(f) for f in distinct]
        for a, b in sorted(pairs):
            fa, fb = distinct[a], distinct[b]
            if nums[a] != nums[b] or u.find(first[fa]) == u.find(first[fb]):
                continue
            if same_fact(fa, fb, numbers_differ=False):
                u.join(first[fa], first[fb])
        parts: dict[int, list[Entry]] = defaultdict(list)
        for x, e in enumerate(g):
            parts[u.find(x)].append(e)
        out.extend(p for p in parts.values() if len(p) > 1)
    return out


def near_candidates(
    texts: list[str], queries: list[int], cutoff: float, cap: int
) -> dict[tuple[int, int], float]:
    """Pairs (i < j) of texts with ratio ≥ cutoff, i among ``queries``: at most ``cap``
    partners per query (the best scores). Every pair is scored up to EXACT_PAIRS
    comparisons; above it only neighbours in prefix and suffix order (WINDOW each side)."""
    out: dict[tuple[int, int], float] = {}
    if len(texts) < 2 or not queries:
        return out
    if len(queries) * len(texts) <= EXACT_PAIRS:
        return _all_candidates(texts, queries, cutoff, cap)
    want = set(queries)
    ratio = fuzz.ratio
    # each text's best partners so far, a heap bounded to ``cap`` (memory: texts × cap)
    best: dict[int, list[tuple[float, int]]] = defaultdict(list)

    def offer(i: int, s: float, j: int) -> None:
        heap = best[i]
        if len(heap) < cap:
            heapq.heappush(heap, (s, -j))
        elif (s, -j) > heap[0]:
            heapq.heapreplace(heap, (s, -j))

    for key in (lambda k: texts[k], lambda k: texts[k][::-1]):
        order = sorted(range(len(texts)), key=key)
        for x, i in enumerate(order):
            for y in range(x + 1, min(x + 1 + WINDOW, len(order))):
                j = order[y]
                if i not in want and j not in want:
                    continue
                s = ratio(texts[i], texts[j], score_cutoff=cutoff)
                if s:
                    offer(i, s, j)
                    offer(j, s, i)
    for i, heap in best.items():
        for s, neg_j in heap:
            j = -neg_j
            out[(i, j) if i < j else (j, i)] = s
    return out


def _all_candidates(
    texts: list[str], queries: list[int], cutoff: float, cap: int
) -> dict[tuple[int, int], float]:
    """Every query scored against every text whose length allows the cutoff.

    ratio = 2·LCS / (|a| + |b|) ≤ 2·min / (min + max): a pair can only reach the cutoff when
    min/max ≥ cutoff / (200 − cutoff). Queries are taken in order of length, in chunks, each
    against the window of lengths it can pair with; each keeps its ``cap`` best partners.
    """
    out: dict[tuple[int, int], float] = {}
    order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))
    by_len = [texts[i] for i in order]
    lengths = np.fromiter(map(len, by_len), dtype=np.int64, count=len(by_len))
    qs = sorted(queries, key=lambda i: (len(texts[i]), i))
    keep = cutoff / (200 - cutoff)
    step = 256
    for start in range(0, len(qs), step):
        rows = qs[start : start + step]
        lo = int(np.searchsorted(lengths, len(texts[rows[0]]) * keep - 1e-9, side="left"))
        hi = int(np.searchsorted(lengths, len(texts[rows[-1]]) / keep + 1e-9, side="right"))
        if hi - lo < 1:
            continue
        scores = process.cdist(
            [texts[i] for i in rows],
            by_len[lo:hi],
            scorer=fuzz.ratio,
            score_cutoff=cutoff,
            dtype=np.float32,
            workers=-1,
        )
        for r, i in enumerate(rows):
            row = scores[r]
            cols = np.nonzero(row)[0]
            if not len(cols):
                continue
            if len(cols) > cap + 1:
                cols = cols[np.argsort(-row[cols], kind="stable")[: cap + 1]]
            taken = 0
            for c in cols.tolist():
                j = order[lo + c]
                if j == i:
                    continue
                if taken == cap:
                    break
                taken += 1
                out[(i, j) if i < j else (j, i)] = float(row[c])
    return out


def _near_edges(units: list[Entry], canon: dict[int, str], scope: _Scope, cfg):
    """Edges (unit index, unit index, score on normalized texts) of the same fact: identical
    comparison forms, and near pairs whose differences are filler only."""
    texts: list[str] = []
    members: list[list[int]] = []
    at: dict[str, int] = {}
    for k, e in enumerate(units):
        c = canon[id(e)]
        t = at.get(c)
        if t is None:
            at[c] = t = len(texts)
            texts.append(c)
            members.append([])
        members[t].append(k)
    edges: list[tuple[int, int, float]] = []
    for ms in members:  # one text, several places: each joined to the first curated one
        if len(ms) < 2:
            continue
        hub = next((k for k in ms if scope.allows(units[k].file, units[k].file)), None)
        if hub is None:
            continue
        for k in ms:
            if k != hub:
                edges.append((hub, k, _score(units[hub], units[k])))
    queries = [
        t
        for t, ms in enumerate(members)
        if scope.all or any(units[k].file in scope.curated for k in ms)
    ]
    pairs = near_candidates(texts, queries, cfg.near_ratio, max(1, cfg.duplicates_candidates))
    u = _Union()
    nums = [numbers(t) for t in texts]
    for ti, tj in sorted(pairs):
        if nums[ti] != nums[tj] or u.find(ti) == u.find(tj):
            continue  # another number: another fact; or already one group
        if not same_fact(texts[ti], texts[tj], numbers_differ=False):
            continue
        joined = False
        for a in members[ti][:MAX_SAME]:
            for b in members[tj][:MAX_SAME]:
                if scope.allows(units[a].file, units[b].file):
                    edges.append((a, b, _score(units[a], units[b])))
                    joined = True
                    break
            if joined:
                break
        if joined:
            u.join(ti, tj)
    return edges


def _score(a: Entry, b: Entry) -> float:
    return float(fuzz.ratio(a.norm, b.norm))


def _item(kind: str, group: list[Entry], scope: _Scope, score, title=None, extra=None) -> dict:
    files = sorted({e.file for e in group})
    if len(files) == 1:
        ident = item_id("d", kind, files[0], *sorted(e.norm for e in group))
    else:
        ident = item_id("d", kind, *sorted(f"{e.file}\x1f{e.norm}" for e in group))
    item = {
        "id": ident,
        "title": short(title or group[0].first_line),
        "kind": kind,
        "refs": [e.ref() for e in group],
        "merged": None,
        "score": score,
    }
    if extra:
        item.update(extra)
    return item


def _span_ref(entries: list[Entry]) -> dict:
    """One ref for a run of entries: the first one's, to the last one's end, with every
    entry's line (a decision removes each)."""
    ref = entries[0].ref()
    ref["end_line"] = entries[-1].end_line
    ref["lines"] = [e.line for e in entries]
    return ref


def _run_item(kind: str, runs: list[list[Entry]], scope: _Scope, title: str) -> dict:
    runs = sorted(runs, key=lambda r: (scope.rank(r[0]), r[0].file, r[0].line))
    ident = item_id(
        "d", kind, *sorted("\x1f".join([r[0].file, *(e.norm for e in r)]) for r in runs)
    )
    return {
        "id": ident,
        "title": short(title),
        "kind": kind,
        "refs": [_span_ref(r) for r in runs],
        "merged": None,
        "score": None,
    }


def _blocks(ws: Workspace, units_by_file, canon, scope: _Scope, cfg) -> list[list[list[Entry]]]:
    """Runs of ``duplicates_block_lines`` or more consecutive entries (one section, nothing
    between them) found again, line for line, in one other section or file."""
    need = max(2, cfg.duplicates_block_lines)
    seqs: list[list[Entry]] = []
    for rel, units in units_by_file.items():
        index = {id(e): k for k, e in enumerate(ws.files[rel].entries)}
        run: list[Entry] = []
        for e in units:
            if run and (
                index[id(e)] != index[id(run[-1])] + 1 or e.section_line != run[-1].section_line
            ):
                seqs.append(run)
                run = []
            run.append(e)
        if run:
            seqs.append(run)
    where: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for s, seq in enumerate(seqs):
        for k, e in enumerate(seq):
            where[canon[id(e)]].append((s, k))
    found: dict[tuple, list[list[Entry]]] = {}
    for places in where.values():
        if len(places) < 2 or len(places) > MAX_SAME:
            continue
        for x in range(len(places)):
            for y in range(x + 1, len(places)):
                (s1, k1), (s2, k2) = places[x], places[y]
                a, b = seqs[s1], seqs[s2]
                if k1 and k2 and canon[id(a[k1 - 1])] == canon[id(b[k2 - 1])]:
                    continue  # not where the shared run starts
                n = 0
                while (
                    k1 + n < len(a)
                    and k2 + n < len(b)
                    and canon[id(a[k1 + n])] == canon[id(b[k2 + n])]
                    and (s1 != s2 or k1 + n < k2)
                ):
                    n += 1
                ra, rb = a[k1 : k1 + n], b[k2 : k2 + n]
                if (
                    n < need
                    or ra[0].section_line == rb[0].section_line
                    and ra[0].file == rb[0].file
                ):
                    continue
                if sum(width(canon[id(e)]) for e in ra) < 2 * cfg.duplicates_min_width:
                    continue
                if not scope.allows(ra[0].file, rb[0].file):
                    continue
                key = tuple(canon[id(e)] for e in ra)
                runs = found.setdefault(key, [])
                for r in (ra, rb):
                    if not any(r[0] is o[0] for o in runs):
                        runs.append(r)
    # the same run in three or more places is a template (a weekly checklist), not a copy
    return [runs for runs in found.values() if len(runs) == 2]


def _records(ws: Workspace, fields: dict[str, FileFields], canon, scope: _Scope, cfg):
    """Records (a heading with its label lines) repeated whole: same heading, same lines."""
    by_sig: dict[tuple, list[list[Entry]]] = defaultdict(list)
    for ff in fields.values():
        for rec in ff.records:
            lines = tuple(canon[id(e)] for e in rec.entries)
            if sum(width(x) for x in lines) < cfg.duplicates_min_width:
                continue
            by_sig[(comparison_form(rec.heading.lower()), lines)].append(rec.entries)
    out = []
    for runs in by_sig.values():
        if len(runs) < 2:
            continue
        if not any(scope.allows(a[0].file, b[0].file) for a in runs for b in runs if a is not b):
            continue
        out.append(runs)
    return out


def _value_pairs(ws, fields, units_ok, scope: _Scope, cfg) -> list[list[Entry]]:
    """The same value under two different labels in two places (shape: ``Config file:`` and
    ``配置:``). A value held by more than two label lines is a shared attribute of different
    records (one e-mail for four accounts), not a duplicate; nor is an e-mail address or a
    date and time alone, which different things share."""
    by_value: dict[str, list[tuple[Entry, str]]] = defaultdict(list)
    heading_of = {}
    for rel, ff in fields.items():
        mf = ws.files[rel]
        for e in mf.entries:
            lv = ff.labels.get(id(e))
            if lv is None:
                continue
            value = comparison_form(lv[1].lower())
            if width(value) < cfg.duplicates_value_min_width or not _SUBJECT_VALUE.search(value):
                continue
            if _EMAIL.fullmatch(value) or _WHEN.fullmatch(value):
                continue  # an address or a date is shared by different things
            by_value[value].append((e, lv[0]))
            heading_of[id(e)] = (rel, e.heading_path[-1:] if e.heading_path else ())
    out = []
    for held in by_value.values():
        if len(held) != 2:
            continue
        (a, la), (b, lb) = held
        if la == lb or heading_of[id(a)] == heading_of[id(b)]:
            continue
        if not (units_ok(a) and units_ok(b)) or not scope.allows(a.file, b.file):
            continue
        out.append([a, b])
    return out


def _cells(e: Entry) -> tuple[str, ...]:
    s = e.first_line.strip().strip("|")
    cells = [_squash(c) for c in s.split("|")]
    return tuple(c for c in cells if c not in _EMPTY_CELLS)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", comparison_form(text.strip().lower()))


def _row_bullet_pairs(units: list[Entry], canon, scope: _Scope, cfg) -> list[list[Entry]]:
    """A table row and a bullet with the same values: ``| 止损 | 回撤 8% |``, ``- 止损：回撤8%``."""
    rows: dict[tuple, list[Entry]] = defaultdict(list)
    for e in units:
        if e.kind == "row":
            cells = _cells(e)
            if len(cells) >= 2:
                rows[cells].append(e)
    out = []
    if not rows:
        return out
    for e in units:
        if e.kind == "row":
            continue
        parts = tuple(p for p in (_squash(x) for x in _PARTS.split(canon[id(e)])) if p)
        if len(parts) < 2 or width("".join(parts)) < cfg.duplicates_min_width // 2:
            continue
        for r in rows.get(parts, ()):
            if scope.allows(r.file, e.file) and (r.file, r.section_line) != (
                e.file,
                e.section_line,
            ):
                out.append([r, e])
                break
    return out


def _dated_rows(units: list[Entry], fields, scope: _Scope, cfg) -> list[list[Entry]]:
    """The same dated record in two tables with different columns: one row's cells (after
    the date) are all among the other's."""
    by_date: dict[str, list[tuple[Entry, frozenset]]] = defaultdict(list)
    for e in units:
        if e.kind != "row":
            continue
        cells = _cells(e)
        if len(cells) >= 2 and _DATE_CELL.match(cells[0]):
            by_date[cells[0]].append((e, frozenset(cells[1:])))
    out = []
    for rows in by_date.values():
        if len(rows) < 2 or len(rows) > MAX_SAME:
            continue
        for x in range(len(rows)):
            for y in range(x + 1, len(rows)):
                (a, ca), (b, cb) = rows[x], rows[y]
                ta = (a.file, fields[a.file].tables.get(id(a)))
                tb = (b.file, fields[b.file].tables.get(id(b)))
                small, big = (ca, cb) if len(ca) <= len(cb) else (cb, ca)
                if ta == tb or ca == cb or not small <= big:
                    continue
                if width("".join(small)) < cfg.duplicates_min_width // 2:
                    continue
                if scope.allows(a.file, b.file):
                    out.append([a, b])
    return out


def duplicates(ws: Workspace, today: date) -> list[dict]:
    """The groups of entries that say the same thing, as items (chronicle rows of one day,
    same fingerprint, near-identical text, copied blocks)."""
    cfg = ws.config
    items = _chronicle_items(ws)
    scope = _Scope(ws)
    if not scope.all and not scope.curated:
        return items
    fields = {rel: file_fields(mf) for rel, mf in ws.files.items()}
    canon: dict[int, str] = {}
    units_by_file: dict[str, list[Entry]] = {}
    for rel, mf in ws.files.items():
        ff = fields[rel]
        us = [e for e in mf.entries if comparable(e) and not ff.is_field(e)]
        for e in us:
            canon[id(e)] = comparison_form(e.norm)
        units_by_file[rel] = us
    for ff in fields.values():
        for rec in ff.records:
            for e in rec.entries:
                canon.setdefault(id(e), comparison_form(e.norm))
    min_w = cfg.duplicates_min_width

    # runs of lines and whole records copied elsewhere: one item each, their lines taken
    covered: set[int] = set()
    block_items = []
    for runs in _blocks(ws, units_by_file, canon, scope, cfg):
        title = f"{len(runs[0])} lines copied: {runs[0][0].first_line}"
        block_items.append(_run_item("block", runs, scope, title))
        covered.update(id(e) for r in runs for e in r)
    record_items = []
    for runs in _records(ws, fields, canon, scope, cfg):
        title = f"record {runs[0][0].heading_path[-1] if runs[0][0].heading_path else ''}"
        record_items.append(_run_item("record", runs, scope, title))
        covered.update(id(e) for r in runs for e in r)

    # seed 002's fingerprint groups, in curated files
    per_file: dict[str, list[dict]] = defaultdict(list)
    in_group: dict[int, tuple[str, int]] = {}
    pool: list[Entry] = []
    for rel, us in units_by_file.items():
        wide = [e for e in us if id(e) not in covered and wide_enough(e.norm, min_w)]
        pool.extend(wide)
        if not scope.allows(rel, rel):
            continue
        for g_no, group in enumerate(_fingerprint_groups(wide, canon, cfg)):
            for e in group:
                in_group[id(e)] = (rel, g_no)
            per_file[rel].append(_item("fingerprint", group, scope, None))

    # the label lines of each record, so that two lines of records that disagree elsewhere
    # (same e-mail, another plan) are not one fact
    record_of: dict[int, dict[str, str]] = {}
    for ff in fields.values():
        for rec in ff.records:
            values = {ff.labels[id(e)][0]: canon[id(e)] for e in rec.entries}
            for e in rec.entries:
                record_of[id(e)] = values

    def disagree(a: Entry, b: Entry) -> bool:
        ra, rb = record_of.get(id(a)), record_of.get(id(b))
        if ra is None or rb is None or ra is rb:
            return False
        return any(rb.get(label, v) != v for label, v in ra.items())

    # near pairs and copies, in one file or across files
    edges = []
    for i, j, sc in _near_edges(pool, canon, scope, cfg):
        gi, gj = in_group.get(id(pool[i])), in_group.get(id(pool[j]))
        if (gi is None or gi != gj) and not disagree(pool[i], pool[j]):
            edges.append((i, j, sc))
    comps, low = connected_groups(len(pool), edges)
    cross = []
    for r, members in sorted(comps.items(), key=lambda kv: min(kv[1])):
        group = [pool[i] for i in sorted(members)]
        score = round(float(low[r]), 1)
        if len({e.file for e in group}) == 1:
            per_file[group[0].file].append(_item("near", group, scope, score))
        else:
            group.sort(key=scope.rank)  # stable: curated copies first, then file order
            cross.append(_item("copy", group, scope, score))
        covered.update(id(e) for e in group)
    for rel in ws.files:
        items.extend(per_file.get(rel, ()))
    items.extend(cross)
    items.extend(block_items)
    items.extend(record_items)

    # the same fact in other dress
    def free(e: Entry) -> bool:
        return id(e) not in covered and id(e) not in in_group

    all_units = [e for us in units_by_file.values() for e in us]
    for kind, pairs in (
        ("value", _value_pairs(ws, fields, lambda e: not fields[e.file].is_field(e), scope, cfg)),
        ("row-bullet", _row_bullet_pairs(all_units, canon, scope, cfg)),
        ("dated-row", _dated_rows(all_units, fields, scope, cfg)),
    ):
        for pair in pairs:
            if not all(free(e) for e in pair) or disagree(*pair):
                continue
            pair.sort(key=scope.rank)
            items.append(_item(kind, pair, scope, None))
            covered.update(id(e) for e in pair)
    return items


def connected_groups(n: int, edges: list[tuple[int, int, float]]):
    """Connected sets of the pairs (union-find) and each set's lowest pair score."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j, _s in edges:
        parent[find(i)] = find(j)
    low: dict[int, float] = {}
    for i, _j, s in edges:
        r = find(i)
        low[r] = min(low.get(r, 100.0), s)
    comps: dict[int, list[int]] = defaultdict(list)
    for i in range(n):
        r = find(i)
        if r in low:
            comps[r].append(i)
    return comps, low
