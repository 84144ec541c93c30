"""Runs copied whole: a run of lines found again elsewhere (``block``) and a record (a
heading with its label lines) repeated whole (``record``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from memreview.queues.duplicates.scope import MAX_SAME, Scope, comparable, restates_summary
from memreview.queues.duplicates.substance import slots_disagree, substance
from memreview.queues.sameness import comparison_form
from memreview.workspace.fields import FileFields, label_of, width
from memreview.workspace.model import Entry, Workspace


@dataclass(eq=False, slots=True)
class HeadingLine:
    """A heading inside a copied block: compared with the block's entries, and removed with
    its copy when ``goes`` (its section lies wholly inside the copy)."""

    file: str
    line: int
    level: int
    text: str  # the line as written
    key: str  # what it is compared by: its level and its title's comparison form
    goes: bool = True

    @property
    def end_line(self) -> int:
        return self.line


def _sequences(ws: Workspace, units_by_file, canon) -> tuple[list[list], dict[int, bool]]:
    """Per file, the runs of comparable entries (field lines too) and headings with nothing
    else between them (another entry breaks a run: an anchor, a chronicle row); and, for
    each element, whether an entry comes right after it (a heading's section goes on beyond
    a run that ends there)."""
    seqs: list[list] = []
    goes_on: dict[int, bool] = {}
    seen: dict[str, int] = defaultdict(int)
    for units in units_by_file.values():
        for e in units:
            seen[canon[id(e)]] += 1
    for rel, units in units_by_file.items():
        if not any(seen[canon[id(e)]] > 1 for e in units):
            continue  # no entry of this file is found again: no run starts here
        mf = ws.files[rel]
        unit_ids = {id(e) for e in units}
        lines = mf.source.lines
        flat: list = []
        for ln, level, title in mf.headings:
            raw = lines[ln - 1].text if ln <= len(lines) else title
            key = "#" * level + " " + comparison_form(title.strip().lower())
            flat.append(HeadingLine(rel, ln, level, raw, key))
        flat.extend([*mf.entries, *mf.paragraphs])
        flat.sort(key=lambda x: x.line)
        run: list = []
        for k, x in enumerate(flat):
            if isinstance(x, HeadingLine) or id(x) in unit_ids or comparable(x):
                if id(x) not in canon and isinstance(x, Entry):
                    canon[id(x)] = comparison_form(x.norm)
                run.append(x)
                nxt = flat[k + 1] if k + 1 < len(flat) else None
                goes_on[id(x)] = nxt is not None and not isinstance(nxt, HeadingLine)
                continue
            if run:
                seqs.append(run)
            run = []
        if run:
            seqs.append(run)
    return seqs, goes_on


def _key(x, canon) -> str:
    return x.key if isinstance(x, HeadingLine) else canon[id(x)]


def _shared_run(
    a: list, b: list, k1: int, k2: int, same_seq: bool, canon, units
) -> tuple[int, int]:
    """Where the run shared by ``a`` at ``k1`` and ``b`` at ``k2`` starts (back over the
    headings and field lines both carry; -1 when an equal entry of their own comes first:
    the run is found from there) and how long it is."""
    back = 0
    while k1 - back > 0 and k2 - back > 0:
        x, y = a[k1 - back - 1], b[k2 - back - 1]
        if _key(x, canon) != _key(y, canon):
            break
        if id(x) in units:
            return -1, 0
        back += 1
    s1, s2 = k1 - back, k2 - back
    n = 0
    while (
        s1 + n < len(a)
        and s2 + n < len(b)
        and _key(a[s1 + n], canon) == _key(b[s2 + n], canon)
        and (not same_seq or s1 + n < s2)
    ):
        n += 1
    while n and isinstance(a[s1 + n - 1], HeadingLine):
        n -= 1  # a run never ends on a heading: that heading's section is not in it
    return back, n


@dataclass(slots=True)
class _Line:
    """A line of a section read as a paragraph, for ``label_of`` (short ones are no entry)."""

    text: str
    kind: str = "paragraph"

    @property
    def first_line(self) -> str:
        return self.text


def _section_slots(ws: Workspace, e: Entry) -> dict[str, frozenset]:
    """Label → value substance over every label line of the section ``e`` is in, short
    ones too (``**Status:** open`` is under the width of an entry)."""
    mf = ws.files[e.file]
    starts = sorted(ln for ln, _level, _title in mf.headings)
    end = next((ln for ln in starts if ln > e.section_line), len(mf.source.lines) + 1)
    out: dict[str, frozenset] = {}
    for raw in mf.source.lines[e.section_line : end - 1]:
        lv = label_of(_Line(raw.text))
        if lv is not None:
            out[comparison_form(lv[0])] = frozenset(substance(lv[1]))
    return out


def _parallel_records(ws: Workspace, ea: list[Entry], eb: list[Entry]) -> bool:
    """Whether a run of label lines found twice belongs to two records that hold another
    value under one of their labels (two incidents of one day, one priority, another
    status): the lines they share are parallel fields, not a copy."""
    if not all(label_of(e) is not None for e in ea):
        return False
    return slots_disagree(_section_slots(ws, ea[0]), _section_slots(ws, eb[0]))


def blocks(ws: Workspace, units_by_file, canon, scope: Scope, cfg):  # noqa: C901
    """Runs of ``duplicates_block_lines`` or more consecutive entries found again, line for
    line, in another section or file: in two places, or in more when the copies carry their
    headings (a whole file pasted in again, several times). The same run in three or more
    places of one file under headings of their own is a template: its entries are returned
    apart, as no finding. A run holds the headings its copies share; each heading ``goes`` with its
    copy unless its section goes on beyond the copy. Returns (the runs of each block, the
    ids of the template's entries)."""
    need = max(2, cfg.duplicates_block_lines)
    unit_ids = {id(e) for us in units_by_file.values() for e in us}
    seqs, goes_on = _sequences(ws, units_by_file, canon)
    where: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for s, seq in enumerate(seqs):
        for k, x in enumerate(seq):
            if id(x) in unit_ids:
                where[canon[id(x)]].append((s, k))
    found: dict[tuple, list[list]] = {}
    for places in where.values():
        if len(places) < 2 or len(places) > MAX_SAME:
            continue
        for x in range(len(places)):
            for y in range(x + 1, len(places)):
                (s1, k1), (s2, k2) = places[x], places[y]
                a, b = seqs[s1], seqs[s2]
                back, n = _shared_run(a, b, k1, k2, s1 == s2, canon, unit_ids)
                if back < 0:
                    continue  # not where the shared run starts
                ra, rb = a[k1 - back : k1 - back + n], b[k2 - back : k2 - back + n]
                ea = [e for e in ra if id(e) in unit_ids]
                eb = [e for e in rb if id(e) in unit_ids]
                if (
                    len(ea) < need
                    or ea[0].section_line == eb[0].section_line
                    and ea[0].file == eb[0].file
                ):
                    continue
                if sum(width(canon[id(e)]) for e in ea) < 2 * cfg.duplicates_min_width:
                    continue
                if not scope.allows(ea[0].file, eb[0].file):
                    continue
                if _parallel_records(ws, ea, eb):
                    continue
                key = tuple(_key(e, canon) for e in ra)
                runs = found.setdefault(key, [])
                for r in (ra, rb):
                    if not any(r[0] is o[0] for o in runs):
                        runs.append(r)
    out, template = [], set()
    for runs in found.values():
        # the same run in three or more places, each under a heading of its own: in one
        # file a template (a weekly checklist), neither a copy nor its lines duplicates;
        # across files, its lines are compared one by one
        if len(runs) > 2 and not any(isinstance(x, HeadingLine) for x in runs[0]):
            if len({r[0].file for r in runs}) == 1:
                template.update(id(e) for r in runs for e in r)
            continue
        firsts = [next(e for e in r if isinstance(e, Entry)) for r in runs]
        if len(runs) == 2 and restates_summary(*firsts):
            continue
        for r in runs:
            last = next((x for x in reversed(r) if isinstance(x, HeadingLine)), None)
            if last is not None and goes_on.get(id(r[-1])):
                last.goes = False
        out.append(runs)
    return out, template


def records(ws: Workspace, fields: dict[str, FileFields], canon, scope: Scope, cfg):
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
