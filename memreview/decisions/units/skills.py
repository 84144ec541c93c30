"""The skills queue: a rule the dreaming pipeline saw often; solidify it or make it a skill."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import DoubleQuotedScalarString as DoubleQuoted

from memreview import store
from memreview.decisions.model import Decision, DecisionError
from memreview.decisions.plan import (
    CreateFile,
    InsertRule,
    PlanBuilder,
    PlannedDecision,
    RemoveCandidate,
)
from memreview.decisions.unit import DEFER, MERGE, Act, Facts, Passage, QueueUnit, judge_note
from memreview.i18n import N_, _, ngettext
from memreview.queues.skills import skill_slug, skills
from memreview.workspace import jsondoc
from memreview.workspace.config import Config
from memreview.workspace.model import Workspace


def skill_file(theme: str, content: str, slug: str) -> str:
    """SKILL.md: front matter with ``name`` and ``description``, then the content."""
    body = content.replace("\r\n", "\n")
    if not body.endswith("\n"):
        body += "\n"
    return f"---\n{front_matter({'name': slug, 'description': theme})}---\n\n{body}"


# Characters a YAML plain or single-quoted scalar would carry raw (or fold as a line break):
# a value holding one is double-quoted, where each is an escape.
_NEEDS_ESCAPES = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff]")


def front_matter(fields: dict[str, str]) -> str:
    """``fields`` as YAML written by ruamel.yaml, so each value reads back as the same string
    (``true``, ``2024``, ``0x1F`` or ``.inf`` are quoted, a tab or a bell escaped)."""
    yaml = YAML(typ="rt")
    yaml.allow_unicode = True
    yaml.width = 1 << 30  # one line per field
    doc = {k: DoubleQuoted(v) if _NEEDS_ESCAPES.search(v) else v for k, v in fields.items()}
    buf = io.StringIO()
    yaml.dump(doc, buf)
    return buf.getvalue()


def plan(b: PlanBuilder, pd: PlannedDecision, d: Decision, item: dict[str, Any]) -> None:
    """solidify adds a rule to MEMORY.md, create-skill writes SKILL.md; both (and skip)
    take the candidate out of skill_candidates.json. skip also hides the item, keeping the
    candidate in state.yaml so ``unhide`` can put it back where it was."""
    if d.action == "defer":
        return
    theme, content = str(item.get("theme") or ""), str(item.get("content") or "")
    if d.action == "solidify":
        main = b.ws.main_memory()
        if main is None:
            raise DecisionError(_("there is no MEMORY.md to solidify the rule into"))
        line = "- " + content.replace("\r\n", " ").replace("\n", " ").strip()
        b.plan.add(main, InsertRule(pd.key, line, tuple(b.cfg.rules_headings)), pd)
    elif d.action == "create-skill":
        slug = d.slug or str(item.get("slug") or "") or skill_slug(theme)
        rel = f"{b.cfg.skills_dir.rstrip('/')}/{slug}/SKILL.md"
        b.plan.add(rel, CreateFile(pd.key, skill_file(theme, content, slug)), pd)
    # Identical candidates share one item id: the decision takes the first of them.
    twins = [c for c in b.ws.skills or [] if (c.theme, c.content) == (theme, content)]
    if d.action == "skip":  # hidden, with the candidate kept to put back on unhide
        b.hide(pd, "skipped")
        index = twins[0].index if twins else 0
        removed = {"file": b.cfg.skill_candidates, "index": index}
        # JSON text: its keys keep their order when it goes back
        removed["candidate"] = json.dumps(_raw_candidate(b, index, theme, item), ensure_ascii=False)
        if pd.hide is not None:
            pd.hide = replace(pd.hide, removed=removed)
    b.plan.add(
        b.cfg.skill_candidates,
        RemoveCandidate(pd.key, theme, content, 0, max(1, len(twins))),
        pd,
    )


def _raw_candidate(b: PlanBuilder, index: int, theme: str, item: dict[str, Any]) -> dict[str, Any]:
    """The candidate as skill_candidates.json holds it (every field kept), else as read."""
    try:
        doc = jsondoc.loads(store.safe_read_bytes(b.ws.root, b.cfg.skill_candidates))
        raw = doc["candidates"][index]
    except (OSError, store.PathEscape, ValueError, KeyError, IndexError, TypeError):
        raw = None
    if isinstance(raw, dict) and raw.get("theme") == theme:
        return raw
    return {k: item[k] for k in ("theme", "content", "count", "reason") if item.get(k) is not None}


def check(item: dict[str, Any], d: Decision) -> None:
    """A skipped candidate (shown with the hidden items) is no longer in the file: it is
    unhidden first, then decided."""
    if item.get("skipped") and d.action != "defer":
        raise DecisionError(
            _(
                "{item}: this candidate was skipped and is no longer in the candidates file; "
                "unhide it first (Z, or memreview unhide {item})"
            ).format(item=d.item)
        )


def evidence(item: dict[str, Any]) -> list[Any]:
    """Theme, how often seen and why, then the candidate's text."""
    return [
        Facts(
            (
                (_("theme"), item.get("theme")),
                (_("folder"), f"{item['slug']}/" if item.get("slug") else None),
                (_("seen"), item.get("count")),
                (_("reason"), item.get("reason")),
            )
        ),
        Passage(_("content"), str(item.get("content", ""))),
    ]


def note(item: dict[str, Any]) -> str:
    """How often the pipeline saw the rule."""
    if item.get("count") is not None:
        count = item["count"]
        return ngettext(" — seen {count} time", " — seen {count} times", count).format(count=count)
    return judge_note(item)


def missing(ws: Workspace) -> str | None:
    """No candidates file, no items."""
    if ws.skills is None:
        return _("no skill candidates ({file})").format(file=ws.config.skill_candidates)
    return None


def candidates_file(cfg: Config) -> str:
    """A candidate has no entry of its own: ``o`` opens the candidates file."""
    return cfg.skill_candidates


UNIT = QueueUnit(
    name="skills",
    title=N_("Skills"),
    detect=skills,
    acts=(
        Act(
            "approve", "solidify", N_("solidify"), "approve", N_("a bullet under the Rules heading")
        ),
        Act(
            "skill",
            "create-skill",
            N_("create-skill"),
            "approve",
            N_("a new SKILL.md under skills/, in the folder named above (m names another)"),
            takes=("slug",),
        ),
        Act(
            MERGE,
            "create-skill",
            N_("edit folder"),
            "approve",
            N_("create-skill into the folder you name"),
            takes=("slug",),
        ),
        Act(
            "reject",
            "skip",
            N_("skip"),
            "reject",
            N_("the candidate leaves skill_candidates.json; hidden, kept to unhide"),
        ),
        DEFER,
    ),
    plan=plan,
    check=check,
    evidence=evidence,
    note=note,
    missing=missing,
    editor_file=candidates_file,
)
