"""Contradictions: CONFLICTS-WITH markers and judge ``contradicts`` proposals (DESIGN §2).

Two anchors in conflict are one pair item. An anchor in more than :data:`HANDFUL` conflicts
is not shown as that many pairs: the conflicts around it become one *group* item ("x conflicts
with 12 anchors"), and anchors joined by such conflicts share one group, so a clique of 2,000
anchors that all conflict is one item, not two million pairs. The graph is read once, in time
linear in its references.
"""

from __future__ import annotations

from datetime import date

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
    graph = _Graph(ws, index)
    hubs = {x for x, near in graph.adj.items() if len(near) > HANDFUL}
    items = _pairs(ws, index, hubs, today)
    if hubs:
        items.extend(_groups(index, graph, hubs, today))
    return items


class _Graph:
    """Who is in conflict with whom (ids shared with the index, each pair once), and which
    anchors have a conflict from a marker, which from the judge."""

    def __init__(self, ws: Workspace, index: dict[str, Anchor]) -> None:
        live = {aid: a.id for aid, a in index.items() if not a.archived}
        self.adj: dict[str, set[str]] = {}
        self.marked: set[str] = set()
        self.judged: set[str] = set()
        for a in ws.all_anchors():
            if a.archived:
                continue
            named = {live[o] for o in a.ref_list("CONFLICTS-WITH") if o in live}
            named.discard(a.id)
            if named:
                self._link(live[a.id], named)
                self.marked.add(a.id)
                self.marked.update(named)
        for p in _contradicts(ws):
            if p.new in live and p.old in live:
                if p.new != p.old:
                    self._link(live[p.new], {live[p.old]})
                    self.judged.update((p.new, p.old))

    def _link(self, x: str, others: set[str]) -> None:
        self.adj.setdefault(x, set()).update(others)
        for o in others:
            near = self.adj.get(o)
            if near is None:
                self.adj[o] = {x}
            else:
                near.add(x)


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


def _groups(index: dict[str, Anchor], graph: _Graph, hubs: set[str], today: date) -> list[dict]:
    """Anchors joined by the conflicts of hubs, one item per connected set: its members
    (hubs first, most conflicts first, then oldest first), each with its conflict count."""
    adj = graph.adj
    seen: set[str] = set()
    items = []
    for start in hubs:
        if start in seen:
            continue
        seen.add(start)
        ids, todo = [start], [start]
        while todo:
            x = todo.pop()
            if x not in hubs:
                continue
            new = adj[x] - seen
            seen |= new
            ids.extend(new)
            todo.extend(new)
        group_hubs = [x for x in ids if x in hubs]
        # each conflict once: every conflict of a hub, less those between two hubs twice
        ends = sum(len(adj[h]) for h in group_hubs)
        between = sum(len(adj[h] & hubs) for h in group_hubs)
        n = ends - between // 2
        ordered = sorted(ids, key=lambda x: (x not in hubs, -len(adj[x]), age_key(index[x], today)))
        first = ordered[0]
        if len(group_hubs) == 1:
            title = ngettext(
                "{anchor} conflicts with {count} anchor", "{anchor} conflicts with {count} anchors",
                len(adj[first]),
            ).format(anchor=first, count=f"{len(adj[first]):,}")
        else:
            title = _("{count} anchors in conflict ({conflicts} conflicts)").format(
                count=f"{len(ids):,}", conflicts=f"{n:,}"
            )
        marked = any(h in graph.marked for h in group_hubs)
        judged = any(h in graph.judged for h in group_hubs)
        items.append(
            {
                "id": item_id("cg", *sorted(ids)),
                "kind": "group",
                "title": title,
                "refs": [{**index[x].ref(), "conflicts": len(adj[x])} for x in ordered],
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
