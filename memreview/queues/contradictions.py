"""Contradictions: CONFLICTS-WITH markers and judge ``contradicts`` proposals (docs/design.md §2).

Two anchors in conflict are one pair item. An anchor in more than :data:`HANDFUL` conflicts
is not shown as that many pairs: the conflicts around it become one *group* item ("x conflicts
with 12 anchors"), and anchors joined by such conflicts share one group, so a clique of 2,000
anchors that all conflict is one item, not two million pairs. The graph is read once, in time
linear in its references.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from itertools import chain

from memreview.i18n import _, ngettext
from memreview.queues.common import item_id
from memreview.workspace.dates import parse_date
from memreview.workspace.model import Anchor, Workspace

HANDFUL = 5  # an anchor in more conflicts than this is shown in a group item


def age_key(a: Anchor, today: date) -> tuple:
    """Older first; a missing (or future) Added sorts as newest; then file order."""
    added = parse_date(a.get("Added") or "")
    if added is not None and added > today:
        added = None
    return (added is None, added or date.max, a.file, a.line)


def settled(ws: Workspace) -> set[str]:
    """The judge's proposals whose last verdict is ``kept-both``: the owner ruled that both
    anchors stay, so the proposal sets them against each other no more."""
    last: dict[str, str] = {}
    for v in ws.verdicts or []:
        last[v.proposal] = v.verdict
    return {pid for pid, verdict in last.items() if verdict == "kept-both"}


def _contradicts(ws: Workspace) -> list:
    """The judge's ``contradicts`` proposals still open to a ruling."""
    done = settled(ws)
    return [p for p in ws.proposals or [] if p.relation == "contradicts" and p.id not in done]


def conflict_edges(ws: Workspace, index: dict[str, Anchor] | None = None):
    """Every conflict between two live anchors, as it is found: ``(x, y, source, proposal)``
    (``source`` marker or judge; the proposal for a judge's), a pair as often as it is named."""
    index = ws.anchor_index() if index is None else index
    for a in ws.all_anchors():
        if a.archived:
            continue
        for other in a.ref_list("CONFLICTS-WITH"):
            b = index.get(other)
            if b is not None and not b.archived and b.id != a.id:
                yield a.id, b.id, "marker", None
    for p in _contradicts(ws):
        x, y = index.get(p.new), index.get(p.old)
        if x is not None and y is not None:
            if not (x.archived or y.archived) and x.id != y.id:
                yield x.id, y.id, "judge", p


def contradictions(ws: Workspace, today: date) -> list[dict]:
    """Pairs of live anchors that CONFLICTS-WITH markers or judge ``contradicts`` proposals
    set against each other, A the older side; then one group item per set of anchors joined
    by the conflicts of anchors in more than a handful of them."""
    index = ws.anchor_index()
    named = _Named(ws, index)
    hubs = named.few_hubs()
    graph = None
    if hubs is None:  # many conflicts: counted in arrays
        graph = _Graph(named)
        hubs = {graph.ids[k] for k in graph.hubs()}
    items = _pairs(ws, index, hubs, today)
    if hubs:
        items.extend(_groups(index, graph or _Graph(named), today))
    return items


FEW = 20_000  # conflicts named, up to which the hubs are counted without numpy


class _Named:
    """Each live anchor as a number (``ids``, ``pos``) and the conflicts as named: the live
    anchors (their CONFLICTS-WITH lines) and the judge's pairs, by number."""

    def __init__(self, ws: Workspace, index: dict[str, Anchor]) -> None:
        self.ids = [aid for aid, a in index.items() if not a.archived]
        self.pos = pos = {aid: k for k, aid in enumerate(self.ids)}
        self.live = [a for a in ws.all_anchors() if not a.archived]
        judge = [(pos.get(p.new), pos.get(p.old)) for p in _contradicts(ws)]
        self.judge = [(x, y) for x, y in judge if x is not None and y is not None and x != y]
        self.size = sum(len(a.refs) for a in self.live) + len(self.judge)

    def few_hubs(self) -> set[str] | None:
        """The hubs, by id, counted in plain Python when at most FEW conflicts are named
        (most workspaces: no numpy to import, 60–100 ms before the first queue's items);
        None when more are (a clique of 2,000 anchors: the arrays of ``_Graph``)."""
        if self.size > FEW:
            return None
        pos = self.pos
        conflicts: set[tuple[int, int]] = set()
        for a in self.live:
            found = a.ref_list("CONFLICTS-WITH")
            if not found:
                continue
            x = pos[a.id]
            for k in map(pos.get, found):
                if k is not None and k != x:
                    conflicts.add((k, x) if k < x else (x, k))
        conflicts.update((x, y) if x < y else (y, x) for x, y in self.judge)
        degree = Counter(chain.from_iterable(conflicts))
        return {self.ids[k] for k, d in degree.items() if d > HANDFUL}


class _Graph:
    """Who is in conflict with whom, in numbers: each live anchor is a number (``ids``), each
    conflict once (however often it is named) as its two ends ``lo`` < ``hi``; ``degree``
    counts each anchor's conflicts. Eight bytes a conflict: the two million conflicts of a
    clique of 2,000 anchors are 16 MB, where a set of neighbours per anchor took 250 MB.
    Conflicts named twice are found by sorting each conflict's number ``lo * n + hi``."""

    def __init__(self, named: _Named) -> None:
        import numpy as np

        self.ids, pos, live, judge = named.ids, named.pos, named.live, named.judge
        n = self.n = len(self.ids)
        # room for every conflict as named (a block's references hold its CONFLICTS-WITH's)
        wide = np.int32 if n * n < 2**31 else np.int64  # a conflict's number fits in 4 bytes
        keys = np.empty(named.size, dtype=wide)
        self.marked = np.zeros(n, dtype=bool)  # in a conflict a CONFLICTS-WITH line names
        self.judged = np.zeros(n, dtype=bool)  # in a conflict the judge proposed
        end = 0
        for a in live:
            found = a.ref_list("CONFLICTS-WITH")
            if not found:  # most anchors: no array made for them
                continue
            x = pos[a.id]
            named = np.array(
                [k for k in map(pos.get, found) if k is not None and k != x], dtype=wide
            )
            if len(named):
                self.marked[x] = True
                self.marked[named] = True
                keys[end : end + len(named)] = np.where(named < x, named * n + x, x * n + named)
                end += len(named)
        for x, y in judge:
            self.judged[x] = self.judged[y] = True
            keys[end] = min(x, y) * n + max(x, y)
            end += 1
        keys = keys[:end]
        keys.sort()
        first = np.ones(len(keys), dtype=bool)
        first[1:] = keys[1:] != keys[:-1]
        keys = keys[first]
        del first
        lo, hi = np.divmod(keys, max(n, 1))
        del keys
        self.lo, self.hi = lo.astype(np.int32), hi.astype(np.int32)  # the two ends of each
        del lo, hi
        self.degree = np.bincount(self.lo, minlength=n) + np.bincount(self.hi, minlength=n)

    def hubs(self):
        """The anchors in more than a handful of conflicts, by number."""
        import numpy as np

        return np.flatnonzero(self.degree > HANDFUL)

    def groups(self):
        """The anchors joined by the conflicts of hubs: per group, its members by number and
        how many conflicts it holds (each conflict of a hub once)."""
        import numpy as np

        hub = self.degree > HANDFUL
        touch = hub[self.lo] | hub[self.hi]
        if touch.all():  # a clique: no copy of its ends
            lo, hi = self.lo, self.hi
        else:
            lo, hi = self.lo[touch], self.hi[touch]
        del touch
        label = _components(self.n, lo, hi)
        ends = np.bincount(lo, minlength=self.n) + np.bincount(hi, minlength=self.n)
        members = np.flatnonzero(ends)
        edges = np.bincount(label[lo], minlength=self.n)
        order = members[np.argsort(label[members], kind="stable")]
        cuts = np.flatnonzero(np.diff(label[order])) + 1
        for group in np.split(order, cuts):
            yield group.tolist(), int(edges[label[group[0]]])


def _components(n: int, lo, hi):
    """Connected components of the graph on ``n`` nodes with edges ``lo``-``hi``: each node's
    label is the smallest node of its component (min-label hooking and pointer jumping, a
    few passes over the edges)."""
    import numpy as np

    label = np.arange(n, dtype=np.int32)
    while True:
        a, b = label[lo], label[hi]
        apart = a != b
        if not apart.any():
            return label
        a, b = a[apart], b[apart]
        del apart
        low = np.minimum(a, b)
        np.minimum.at(label, a, low)
        np.minimum.at(label, b, low)
        del a, b, low
        while True:  # point every node at its root
            up = label[label]
            if np.array_equal(up, label):
                break
            label = up


def _pairs(ws: Workspace, index: dict[str, Anchor], hubs: set[str], today: date) -> list[dict]:
    """One item per unordered pair of anchors of which neither is a hub, in the order the
    pairs are first named."""
    pairs: dict[frozenset, dict] = {}

    def add(x: str, y: str, source: str, proposal=None) -> None:
        rec = pairs.setdefault(frozenset((x, y)), {"sources": set(), "proposals": []})
        rec["sources"].add(source)
        if proposal is not None:
            rec["proposals"].append(proposal)

    for a in ws.all_anchors():
        if a.archived or a.id in hubs:
            continue
        for other in a.ref_list("CONFLICTS-WITH"):
            b = index.get(other)
            if b is not None and not b.archived and b.id != a.id and b.id not in hubs:
                add(a.id, b.id, "marker")
    for p in _contradicts(ws):
        x, y = index.get(p.new), index.get(p.old)
        if x is None or y is None or x.id == y.id:
            continue
        if not (x.archived or y.archived or x.id in hubs or y.id in hubs):
            add(x.id, y.id, "judge", p)
    items = []
    for key, rec in pairs.items():
        x, y = sorted(key)
        a, b = sorted((index[x], index[y]), key=lambda an: age_key(an, today))
        srcs = rec["sources"]
        source = "both" if len(srcs) == 2 else next(iter(srcs))
        props = rec["proposals"]
        best = props[-1] if props else None
        items.append(
            {
                "id": item_id("c", x, y),
                "title": f"{a.id} ⟷ {b.id}",
                "a": a.ref(),
                "b": b.ref(),
                "source": source,
                "confidence": best.confidence if best else None,
                "reason": best.reason if best else None,
                "proposals": [p.id for p in props],
            }
        )
    return items


def _groups(index: dict[str, Anchor], graph: _Graph, today: date) -> list[dict]:
    """Anchors joined by the conflicts of hubs, one item per connected set: its members
    (hubs first, most conflicts first, then oldest first), each with its conflict count."""
    ids, degree = graph.ids, graph.degree.tolist()
    items = []
    for members, n in graph.groups():
        group_hubs = [k for k in members if degree[k] > HANDFUL]
        ordered = sorted(
            members, key=lambda k: (degree[k] <= HANDFUL, -degree[k], age_key(index[ids[k]], today))
        )
        first = ids[ordered[0]]
        if len(group_hubs) == 1:
            title = ngettext(
                "{anchor} conflicts with {count} anchor",
                "{anchor} conflicts with {count} anchors",
                int(degree[ordered[0]]),
            ).format(anchor=first, count=f"{degree[ordered[0]]:,}")
        else:
            title = _("{count} anchors in conflict ({conflicts} conflicts)").format(
                count=f"{len(members):,}", conflicts=f"{n:,}"
            )
        marked = any(graph.marked[k] for k in group_hubs)
        judged = any(graph.judged[k] for k in group_hubs)
        items.append(
            {
                "id": item_id("cg", *sorted(ids[k] for k in members)),
                "kind": "group",
                "title": title,
                "refs": [{**index[ids[k]].ref(), "conflicts": degree[k]} for k in ordered],
                "hubs": len(group_hubs),
                "conflicts": n,
                "source": "both" if marked and judged else "judge" if judged else "marker",
                "confidence": None,
                "reason": None,
            }
        )
    items.sort(key=lambda it: (-it["conflicts"], it["id"]))
    return items


def group_conflicts(ws: Workspace, item: dict, aid: str) -> tuple[set[str], list]:
    """The members of group ``item`` in conflict with ``aid``, and the judge's proposals
    that set them against it."""
    ids = {ref["anchor"] for ref in item.get("refs") or []}
    near: set[str] = set()
    proposals = []
    for x, y, _source, p in conflict_edges(ws):
        other = y if x == aid else x if y == aid else None
        if other is None or other not in ids:
            continue
        near.add(other)
        if p is not None:
            proposals.append(p)
    return near, proposals


def group_links(ws: Workspace, item: dict) -> tuple[dict[str, set[str]], list]:
    """For each member of group ``item``, the members its CONFLICTS-WITH line names; and the
    judge's proposals between two members."""
    ids = {ref["anchor"] for ref in item.get("refs") or []}
    index = ws.anchor_index()
    links: dict[str, set[str]] = {}
    proposals = []
    for x, y, source, p in conflict_edges(ws, index):
        if x not in ids or y not in ids:
            continue
        if source == "marker":
            links.setdefault(x, set()).add(y)
        elif p is not None:
            proposals.append(p)
    return links, proposals
