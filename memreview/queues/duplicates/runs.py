"""Runs copied whole: a run of lines found again elsewhere (``block``) and a record (a
heading with its label lines) repeated whole (``record``)."""

from __future__ import annotations

from collections import defaultdict

from memreview.queues.duplicates.scope import MAX_SAME, Scope
from memreview.queues.sameness import comparison_form
from memreview.workspace.fields import FileFields, width
from memreview.workspace.model import Entry, Workspace


def blocks(ws: Workspace, units_by_file, canon, scope: Scope, cfg) -> list[list[list[Entry]]]:  # noqa: C901
    """Runs of ``duplicates_block_lines`` or more consecutive entries (one section, nothing
    between them) found again, line for line, in one other section or file."""
    need = max(2, cfg.duplicates_block_lines)
    seqs: list[list[Entry]] = []
    for rel, units in units_by_file.items():
        mf = ws.files[rel]
        every = sorted([*mf.entries, *mf.paragraphs], key=lambda e: e.line)
        index = {id(e): k for k, e in enumerate(every)}
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
