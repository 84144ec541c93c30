"""The duplicates detector itself: ``duplicates`` gathers every kind of duplicate item in
order (chronicle, per-file fingerprint and near groups, cross-file copies, blocks, records,
then the same fact in other dress), and the item builders they share."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from memreview.i18n import ngettext
from memreview.queues.common import item_id, short
from memreview.queues.duplicates.chronicle import chronicle_items
from memreview.queues.duplicates.kinds import shown_kind
from memreview.queues.duplicates.near import connected_groups, fingerprint_groups, near_edges
from memreview.queues.duplicates.prepared import compared, forms, substances, units
from memreview.queues.duplicates.runs import HeadingLine, blocks, records
from memreview.queues.duplicates.scope import Scope, comparable, restates_summary
from memreview.queues.duplicates.substance import (
    Token,
    Weights,
    entry_substance,
    evidence,
    record_slots,
    same_fact_groups,
    slots_disagree,
)
from memreview.queues.sameness import comparison_form, same_fact
from memreview.workspace.fields import file_fields, wide_enough
from memreview.workspace.model import Entry, Workspace


def _rule_id(rule: str, group: list[Entry]) -> str:
    files = sorted({e.file for e in group})
    if len(files) == 1:
        return item_id("d", rule, files[0], *sorted(e.norm for e in group))
    return item_id("d", rule, *sorted(f"{e.file}\x1f{e.norm}" for e in group))


# the rules the substance measure took over: a pair they found had its id from their name,
# and an owner's state.yaml may still hide it under that id
FORMER_RULES = ("value", "row-bullet", "dated-row")


def _item(kind: str, group: list[Entry], scope: Scope, score, title=None, extra=None) -> dict:
    """An item of the rule ``kind`` over ``group``: its id from the rule's name (what an
    owner's hidden items name), its ``kind`` the dress (``kinds.shown_kind``)."""
    ident = _rule_id(kind, group)
    item = {
        "id": ident,
        "title": short(title or group[0].first_line),
        "kind": shown_kind(kind, group),
        "refs": [e.ref() for e in group],
        "merged": None,
        "score": score,
    }
    if extra:
        item.update(extra)
    return item


def _span_ref(run: list) -> dict:
    """One ref for a copied run: from its first line (a heading the copy carries) to its
    last entry's end, with every entry's line and the heading lines that go with the copy
    (a decision removes each)."""
    entries = [e for e in run if isinstance(e, Entry)]
    ref = entries[0].ref()
    first = run[0]
    if isinstance(first, HeadingLine):
        ref["line"], ref["text"] = first.line, first.text
    ref["end_line"] = entries[-1].end_line
    ref["lines"] = [e.line for e in entries]
    headings = [h.line for h in run if isinstance(h, HeadingLine) and h.goes]
    if headings:
        ref["headings"] = headings
    return ref


def _run_item(kind: str, runs: list[list], scope: Scope, title: str) -> dict:
    """One item for a run found in several places (its id from the entries alone)."""
    firsts = [next(e for e in r if isinstance(e, Entry)) for r in runs]
    order = sorted(
        range(len(runs)), key=lambda k: (scope.rank(firsts[k]), firsts[k].file, firsts[k].line)
    )
    runs = [runs[k] for k in order]
    ident = item_id(
        "d",
        kind,
        *sorted(
            "\x1f".join([r[0].file, *(e.norm for e in r if isinstance(e, Entry))]) for r in runs
        ),
    )
    return {
        "id": ident,
        "title": short(title),
        "kind": shown_kind(kind),
        "refs": [_span_ref(r) for r in runs],
        "merged": None,
        "score": None,
    }


def _block_items(found: list[list[list]], scope: Scope, covered: set[int]) -> list[dict]:
    """An item for each copied block; its entries and headings added to ``covered``."""
    out = []
    for runs in found:
        entries = [e for e in runs[0] if isinstance(e, Entry)]
        title = ngettext(
            "{count} line copied: {first}", "{count} lines copied: {first}", len(entries)
        ).format(count=len(entries), first=entries[0].first_line)
        out.append(_run_item("block", runs, scope, title))
        covered.update(id(e) for r in runs for e in r)
    return out


class _Anywhere:
    """The scope of a block between or within the files that are not curated."""

    all = True

    def allows(self, a: str, b: str) -> bool:
        return True


def _uncurated_blocks(ws: Workspace, units_by_file, canon, scope: Scope, covered: set[int]):
    """Blocks copied between or within the memory files that are not curated (a topic
    file holding itself twice, two topic files sharing a section), among the entries no
    other item took: a run of lines copied whole is a copy wherever it lies, while a
    single line there is compared only with the curated files (docs/design.md §2)."""
    if scope.all:
        return []
    rest = {
        rel: [e for e in us if id(e) not in covered]
        for rel, us in units_by_file.items()
        if rel not in scope.curated
    }
    found, template = blocks(ws, rest, canon, _Anywhere(), ws.config)
    covered.update(template)
    return _block_items(found, scope, covered)


def _run_items(ws: Workspace, units_by_file, fields, canon, scope: Scope, covered: set[int]):
    """The items of copied blocks and of records repeated whole; their entries (and a
    block's headings, and a template's rows) added to ``covered``. A record inside a copied
    block is the block's."""
    cfg = ws.config
    found, template = blocks(ws, units_by_file, canon, scope, cfg)
    covered.update(template)
    block_items = _block_items(found, scope, covered)
    record_items = []
    for runs in records(ws, fields, canon, scope, cfg):
        if all(id(e) in covered for r in runs for e in r):
            continue
        title = f"record {runs[0][0].heading_path[-1] if runs[0][0].heading_path else ''}"
        record_items.append(_run_item("record", runs, scope, title))
        covered.update(id(e) for r in runs for e in r)
    return block_items, record_items


def duplicates(ws: Workspace, today: date) -> list[dict]:  # noqa: C901, PLR0915
    """The groups of entries that say the same thing, as items (chronicle rows of one day,
    same fingerprint, near-identical text, copied blocks)."""
    cfg = ws.config
    items = chronicle_items(ws)
    scope = Scope(ws)
    if not scope.all and not scope.curated:
        return items
    fields = {rel: file_fields(mf) for rel, mf in ws.files.items()}
    canon: dict[int, str] = {}
    units_by_file: dict[str, list[Entry]] = {}
    for rel, mf in ws.files.items():
        ff = fields[rel]
        every = units(mf)
        for e, form in zip(every, forms(mf, every), strict=True):
            canon[id(e)] = form
        every.sort(key=lambda e: e.line)
        units_by_file[rel] = [e for e in every if comparable(e) and not ff.is_field(e)]
    for ff in fields.values():
        for rec in ff.records:
            for e in rec.entries:
                if id(e) not in canon:
                    canon[id(e)] = comparison_form(e.norm)
    min_w = cfg.duplicates_min_width
    subst = _Substance(ws)

    # runs of lines and whole records copied elsewhere: one item each, their lines taken
    covered: set[int] = set()
    block_items, record_items = _run_items(ws, units_by_file, fields, canon, scope, covered)

    # seed 002's fingerprint groups, in curated files
    per_file: dict[str, list[dict]] = defaultdict(list)
    in_group: dict[int, tuple[str, int]] = {}
    pool: list[Entry] = []
    for rel, us in units_by_file.items():
        wide = [e for e in us if id(e) not in covered and wide_enough(e.norm, min_w)]
        pool.extend(wide)
        if not scope.allows(rel, rel):
            continue
        for g_no, group in enumerate(fingerprint_groups(wide, canon, cfg)):
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
        # a value that differs only in dress (``：`` for ``:``, quotes) is the same value
        return any(label in rb and not same_fact(v, rb[label]) for label, v in ra.items())

    # near pairs and copies, in one file or across files
    edges = []
    for i, j, sc in near_edges(pool, canon, scope, cfg):
        gi, gj = in_group.get(id(pool[i])), in_group.get(id(pool[j]))
        if (gi is None or gi != gj) and not disagree(pool[i], pool[j]):
            if not restates_summary(pool[i], pool[j]):
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
    items.extend(_uncurated_blocks(ws, units_by_file, canon, scope, covered))

    def free(e: Entry) -> bool:
        return id(e) not in covered and id(e) not in in_group

    # the same fact by its substance: what the shapes above miss
    items.extend(_substance_items(subst, fields, scope, free, min_w))
    for it in items:
        _attach_evidence(it, subst)
    return items


class _Substance:
    """Every compared entry and the list items nested in them, with the substance weights
    over them all and each item's entries (for its evidence)."""

    def __init__(self, ws: Workspace):
        self.every: list[Entry] = []
        self.nested: dict[int, Entry] = {}
        self.bags: list[tuple[Token, ...]] = []
        made: dict[tuple[str, str], Token] = {}  # the tokens, one object each
        for mf in ws.files.values():
            pairs = compared(mf)
            for e, parent in pairs:
                self.every.append(e)
                if parent is not None:
                    self.nested[id(e)] = parent
            self.bags.extend(substances(mf, [e for e, _p in pairs], made))
        self.weights = Weights(self.bags)
        self.at = {(e.file, e.line): e for e in self.every}

    def parent(self, e: Entry) -> Entry:
        return self.nested.get(id(e), e)


def _substance_items(subst: _Substance, fields, scope: Scope, free, min_w: int) -> list[dict]:
    """Groups of entries with the same substance and nothing in disagreement, among those
    no other rule took (``paraphrase``, ``restructured``)."""

    def allowed(a: Entry, b: Entry) -> bool:
        return (
            free(subst.parent(a))
            and free(subst.parent(b))
            and scope.allows(a.file, b.file)
            and wide_enough(a.norm, min_w // 2)
            and wide_enough(b.norm, min_w // 2)
            # one text twice is the exact rule's to judge (a short line in two lists),
            # unless one is a nested line that rule never sees
            and (
                id(a) in subst.nested
                or id(b) in subst.nested
                or comparison_form(a.norm) != comparison_form(b.norm)
            )
        )

    slots_of: dict[int, dict] = {}
    for ff in fields.values():
        for rec in ff.records:
            slots = record_slots(rec.entries)
            for e in rec.entries:
                slots_of[id(e)] = slots

    def parallel(a: Entry, b: Entry) -> bool:
        if a.file == b.file and a.line <= b.end_line and b.line <= a.end_line:
            return True  # an item and a line of its own
        if a.file == b.file and fields[a.file].is_field(a) and fields[b.file].is_field(b):
            return True  # two fields of parallel records
        ra, rb = slots_of.get(id(subst.parent(a))), slots_of.get(id(subst.parent(b)))
        return ra is not None and rb is not None and ra is not rb and slots_disagree(ra, rb)

    queries = {k for k, e in enumerate(subst.every) if scope.allows(e.file, e.file)}
    groups = same_fact_groups(
        subst.every, allowed, parallel, subst.nested, subst.weights, queries, subst.bags
    )
    out = []
    for g in groups:
        group = sorted(g.entries, key=scope.rank)
        item = _item(g.kind, group, scope, g.score)
        if len(group) == 2:
            item["former_ids"] = [_rule_id(rule, group) for rule in FORMER_RULES]
        out.append(item)
    return out


def _attach_evidence(item: dict, subst: _Substance) -> None:
    """``evidence`` of an item of two or more places: the substance its first two share
    (and every other member holds), and where their words differ."""
    refs = item.get("refs") or []
    if len(refs) < 2:
        return
    members = [subst.at.get((r["file"], r["line"])) for r in refs]
    if any(m is None for m in members):
        return
    held = [set(entry_substance(m)) for m in members[2:]]
    item["evidence"] = evidence(members[0], members[1], subst.weights, also=held)
