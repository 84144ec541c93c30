"""The realistic precision corpus: load a case, scan it, key its items, compare.

A case is ``cases/<name>/`` with ``expected.yaml`` and the workspace in ``ws/``. Every queue
the case does not list must show nothing; the ones it lists must show exactly the expected
keys. ``pending`` (optional, a reason) marks a case whose rule is not built yet: its test is
an expected failure that turns into an error the day it passes.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from openclaw_state import SPEC, build_state_db
from ruamel.yaml import YAML

from memreview.decisions import registry

CASES = Path(__file__).resolve().parent / "cases"


@dataclass
class Case:
    name: str
    root: Path  # the workspace
    today: date
    description: str
    expected: dict[str, dict[str, str]]  # queue -> key -> why
    look_alikes: list[str] = field(default_factory=list)
    pending: str | None = None
    flags: dict[str, set[str]] = field(default_factory=dict)  # promotions: key -> its flags


def case_names() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if (p / "expected.yaml").is_file())


def load_case(name: str) -> Case:
    d = CASES / name
    doc = YAML(typ="safe").load((d / "expected.yaml").read_text(encoding="utf-8")) or {}
    today = doc.get("today")
    if not isinstance(today, date):
        today = date.fromisoformat(str(today))
    expected: dict[str, dict[str, str]] = {}
    flags: dict[str, set[str]] = {}
    for queue, items in (doc.get("expected") or {}).items():
        if queue not in registry.queue_names() and queue != "secrets":
            raise ValueError(f"{name}: unknown queue {queue!r} in expected.yaml")
        keys: dict[str, str] = {}
        for it in items or []:
            keys[key_text(it["key"])] = str(it.get("why", ""))
            if queue == "promotions" and "flags" in it:
                flags[key_text(it["key"])] = set(it["flags"] or ())
        expected[queue] = keys
    return Case(
        name=name,
        root=d / "ws",
        today=today,
        description=" ".join(str(doc.get("description", "")).split()),
        expected=expected,
        look_alikes=[str(x) for x in doc.get("look_alikes") or []],
        pending=doc.get("pending"),
        flags=flags,
    )


def key_text(key) -> str:
    """A key as one comparable string: lists are sorted and joined with ' + '."""
    if isinstance(key, list | tuple):
        return " + ".join(sorted(str(k) for k in key))
    return str(key)


def _ref(r: dict) -> str:
    return f"{r['file']}:{r['line']}"


def item_key(queue: str, item: dict) -> str:
    """The key an expected.yaml names an item by (REALISTIC.md)."""
    if queue == "duplicates":
        return key_text([_ref(r) for r in item["refs"]])
    if queue == "dormant":
        return str(item["project"])
    if queue == "contradictions":
        return key_text([item["a"]["anchor"], item["b"]["anchor"]])
    if queue == "supersede":
        return str(item["proposal"])
    if queue == "skills":
        return str(item["theme"])
    if queue == "archived":
        return str(item["fragment"]["id"])
    if queue == "dropping":
        return str(item["key"])
    if queue == "demotion":
        a = item.get("anchor") or {}
        if a.get("anchor"):
            return str(a["anchor"])
        return _ref(item.get("entry") or a)
    # promotions, secrets and any later queue: the entry's place
    ref = item.get("ref") or item.get("entry") or (item.get("refs") or [{}])[0]
    return _ref(ref)


def scan_case(case: Case) -> dict[str, dict[str, dict]]:
    """Queue -> key -> item, for what the scan shows on the case's workspace.

    A case with an ``openclaw-state.json`` is scanned from a copy, next to which OpenClaw's
    state database is written first (its rows must name the workspace as it is read).
    """
    from memreview.scan import scan_workspace

    case_dir = case.root.parent
    if (case_dir / SPEC).is_file():
        with tempfile.TemporaryDirectory(prefix="memreview-case-") as tmp:
            copy = Path(tmp) / case.name
            shutil.copytree(case_dir, copy)
            build_state_db(copy, copy / "ws")
            result = scan_workspace(copy / "ws", today=case.today)
    else:
        result = scan_workspace(case.root, today=case.today)
    shown: dict[str, dict[str, dict]] = {}
    for queue, items in result.queues.items():
        if queue == "promotions":  # every promotion is listed; the findings are the flagged
            items = [it for it in items if it.get("flags")]
        shown[queue] = {item_key(queue, it): it for it in items}
    return shown


@dataclass
class QueueScore:
    shown: int = 0
    found: int = 0
    missed: int = 0
    unexpected: int = 0
    missing_keys: list[str] = field(default_factory=list)
    unexpected_keys: list[str] = field(default_factory=list)

    def add(self, other: QueueScore) -> None:
        self.shown += other.shown
        self.found += other.found
        self.missed += other.missed
        self.unexpected += other.unexpected

    @property
    def precision(self) -> float | None:
        return self.found / self.shown if self.shown else None

    @property
    def recall(self) -> float | None:
        want = self.found + self.missed
        return self.found / want if want else None


def compare(case: Case, shown: dict[str, dict[str, dict]]) -> dict[str, QueueScore]:
    """Per queue (every queue shown or expected): what was found, missed, shown unasked."""
    out: dict[str, QueueScore] = {}
    for queue in sorted(set(shown) | set(case.expected)):
        want = set(case.expected.get(queue, {}))
        got = set(shown.get(queue, {}))
        out[queue] = QueueScore(
            shown=len(got),
            found=len(want & got),
            missed=len(want - got),
            unexpected=len(got - want),
            missing_keys=sorted(want - got),
            unexpected_keys=sorted(got - want),
        )
    return out


def difference(case: Case, shown: dict[str, dict[str, dict]]) -> str:
    """A readable account of every missing and unexpected item ('' when none)."""
    lines = []
    for queue, sc in compare(case, shown).items():
        for k in sc.missing_keys:
            lines.append(f"{queue}: missing {k}  ({case.expected[queue][k]})")
        for k in sc.unexpected_keys:
            it = shown[queue][k]
            lines.append(f"{queue}: unexpected {k}  ({it.get('kind', '')} {it.get('title', '')})")
    for k, want in case.flags.items():
        it = shown.get("promotions", {}).get(k)
        got = {f["flag"] for f in it["flags"]} if it else set()
        if it and got != want:
            lines.append(f"promotions: {k} flags {sorted(got)}, expected {sorted(want)}")
    return "\n".join(lines)


def flag_counts(case: Case, shown: dict[str, dict[str, dict]]) -> dict[str, list[int]]:
    """Per junk flag: [flagged true junk, flagged good entries] of the promotions queue (an
    item the case lists is junk; any other flagged item is a good entry flagged)."""
    out: dict[str, list[int]] = {}
    junk = case.expected.get("promotions", {})
    for k, it in shown.get("promotions", {}).items():
        for f in it.get("flags") or ():
            out.setdefault(f["flag"], [0, 0])[0 if k in junk else 1] += 1
    return out
