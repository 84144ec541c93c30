"""``memreview.yaml``: every path, section name and threshold, with defaults (docs/design.md §1)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any

from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import YAMLError

from memreview.i18n import LANGUAGES, N_, Message, language_of
from memreview.shipped import user_config_file
from memreview.workspace.dates import parse_date
from memreview.workspace.yamlcap import CONFIG_LIMIT, YAMLRefused, load_yaml, read_capped


@dataclass
class Config:
    review_date: date | None = None
    lang: str = ""  # the interface language (`en`, `zh`); empty: the user's, else the locale
    # paths, relative to the workspace root
    recall_log: str = "memory/recall_log.jsonl"
    proposals: str = "memory/review/proposals.jsonl"
    verdicts: str = "memory/review/verdicts.jsonl"
    dreams_db: str = "memory/knowledge/dreams.db"
    skill_candidates: str = "memory/skill_candidates.json"
    short_term_recall: str = "memory/.dreams/short-term-recall.json"
    recall_events: str = "memory/.dreams/events.jsonl"
    # OpenClaw's state database; empty: found as OpenClaw does (its state directory)
    openclaw_state_db: str = ""
    now: str = "NOW.md"
    heartbeat: str = "HEARTBEAT.md"
    dreams_md: str = "DREAMS.md"
    projects_dir: str = "memory/projects"
    archive_dir: str = "memory/archive"
    superseded_file: str = "memory/archive/superseded.md"
    demoted_file: str = "memory/archive/demoted.md"
    skills_dir: str = "skills"
    lock_files: list[str] = field(
        default_factory=lambda: ["memory/.dreams/short-term-promotion.lock"]
    )
    # section names
    rules_headings: list[str] = field(
        default_factory=lambda: ["规则", "Rules", "偏好", "Preferences"]
    )
    chronicle_words: list[str] = field(default_factory=lambda: ["编年史", "chronicle"])
    # thresholds
    dormant_days: int = 28
    dormant_limit: int = 10
    snooze_days: int = 28
    archived_days: int = 30
    archived_partial_ratio: float = 90.0
    min_match_chars: int = 8
    near_ratio: float = 90.0
    # duplicates (docs/design.md §2); also written as ``duplicates: {scope: all, min_width: 20, …}``
    duplicates_scope: str = "curated"  # curated: one side in a curated file; all: any files
    duplicates_min_width: int = 20  # near and fingerprint pairs: display width, CJK counts 2
    duplicates_confirm_beyond: int = 60  # longer fingerprint groups must agree beyond it
    duplicates_value_min_width: int = 12  # a value shared under two labels
    duplicates_block_lines: int = 3  # consecutive lines copied elsewhere: one item
    duplicates_candidates: int = 16  # near partners kept per text (bounds the work)
    curated: list[str] = field(default_factory=list)  # globs of curated files, e.g. notes/*.md
    demotion_age_days: int = 30
    demotion_max_recalls: int = 1
    recall_window_days: int = 90
    reject_hide_days: int = 84
    memory_max_lines: int = 500
    memory_max_tokens: int = 12000
    heartbeat_max_lines: int = 50
    stale_todo_days: int = 3
    untouched_days: int = 30
    max_markdown_mib: int = 32  # a Markdown file larger than this is skipped with a warning
    max_jsonl_mib: int = 64  # a JSON-lines input (recall log, proposals…) the same
    # alarms (``memreview doctor``); also written as ``alarms: {silent_nights: 2, …}``.
    # The defaults are OpenClaw's own figures (OPENCLAW.md).
    alarms_silent_nights: int = 2  # daily logs without a dreaming trace
    alarms_zero_promotion_nights: int = 3  # deep reports "Promoted 0" while some were ranked
    alarms_promotion_budget: int = 10_000  # OpenClaw's MEMORY.md budget for promotion writes
    alarms_budget_warning_pct: float = 10.0  # warn this close to the promotion budget
    alarms_bootstrap_chars: int = 20_000  # OpenClaw's per-file bootstrap cap
    alarms_legacy_store_mib: int = 16  # older OpenClaw refuses a larger legacy store
    alarms_store_cap: int = 512  # entries OpenClaw's SQLite store keeps
    alarms_runaway_size: float = 5.0  # a daily log this many times the median of 28
    alarms_runaway_blocks: float = 3.0  # dreaming blocks this many times the median of 14
    alarms_lock_stale_seconds: int = 60  # OpenClaw's lock row may be taken over after this
    alarms_gate_score: float = 0.75  # OpenClaw's promotion gates
    alarms_gate_recalls: int = 3
    alarms_gate_queries: int = 3
    commit: bool = False  # asked for in the workspace file: not obeyed (owner_commits)
    # backups (also written as ``backups: {keep_batches: 50, keep_days: 90}``): the copies of
    # a batch are pruned once it is neither among the last keep_batches nor keep_days old,
    # and can't be undone any more
    backups_keep_batches: int = 50
    backups_keep_days: int = 90

    @property
    def max_markdown_bytes(self) -> int:
        return self.max_markdown_mib << 20

    @property
    def max_jsonl_bytes(self) -> int:
        return self.max_jsonl_mib << 20


# The range of every number setting (inclusive): a value outside it, NaN, infinity, a
# fraction where a whole number goes, or a string is reported by name and the default kept.
# The bounds are generous; they keep dates, sizes and loops from overflowing or running away.
_YEARS_100 = 36_500
RANGES: dict[str, tuple[float, float]] = {
    "dormant_days": (1, _YEARS_100),
    "dormant_limit": (0, 1_000_000),
    "snooze_days": (1, _YEARS_100),
    "archived_days": (0, _YEARS_100),
    "archived_partial_ratio": (1, 100),
    "min_match_chars": (1, 10_000),
    "near_ratio": (1, 100),
    "duplicates_min_width": (1, 10_000),
    "duplicates_confirm_beyond": (1, 1_000_000),
    "duplicates_value_min_width": (1, 10_000),
    "duplicates_block_lines": (2, 10_000),
    "duplicates_candidates": (1, 1_000),
    "demotion_age_days": (0, _YEARS_100),
    "demotion_max_recalls": (0, 1_000_000_000),
    "recall_window_days": (1, _YEARS_100),
    "reject_hide_days": (1, _YEARS_100),
    "memory_max_lines": (1, 1_000_000_000),
    "memory_max_tokens": (1, 1_000_000_000),
    "heartbeat_max_lines": (1, 1_000_000_000),
    "stale_todo_days": (0, _YEARS_100),
    "untouched_days": (0, _YEARS_100),
    "max_markdown_mib": (1, 4096),
    "max_jsonl_mib": (1, 4096),
    "alarms_silent_nights": (1, _YEARS_100),
    "alarms_zero_promotion_nights": (1, _YEARS_100),
    "alarms_promotion_budget": (100, 100_000_000),
    "alarms_budget_warning_pct": (0, 100),
    "alarms_bootstrap_chars": (100, 100_000_000),
    "alarms_legacy_store_mib": (1, 4096),
    "alarms_store_cap": (1, 100_000_000),
    "alarms_runaway_size": (1, 1_000),
    "alarms_runaway_blocks": (1, 1_000),
    "alarms_lock_stale_seconds": (1, 86_400 * 365),
    "alarms_gate_score": (0, 1),
    "alarms_gate_recalls": (0, 1_000_000),
    "alarms_gate_queries": (0, 1_000_000),
    "backups_keep_batches": (1, 1_000_000),
    "backups_keep_days": (0, _YEARS_100),
}


_ALIASES = {"today": "review_date"}


class _DatesAsText(RoundTripConstructor):
    """Dates stay text: ruamel would raise on ``2026-02-30`` and lose the whole file; as
    text, that one setting is reported and the others still count."""


_DatesAsText.add_constructor("tag:yaml.org,2002:timestamp", _DatesAsText.construct_yaml_str)


def load_config(data: bytes | None) -> tuple[Config, list[tuple[int | None, Message]]]:  # noqa: C901, PLR0915
    """Parse ``memreview.yaml``; problems come back as (line, message), defaults kept."""
    cfg = Config()
    problems: list[tuple[int | None, Message]] = []
    if not data:
        return cfg, problems
    try:
        doc = load_yaml(data, limit=CONFIG_LIMIT, typ="rt", constructor=_DatesAsText)
    except YAMLRefused as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        return cfg, [(line, Message(N_("refused: {reason}; defaults used"), reason=str(exc)))]
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
        problem = " ".join(str(problem).split())  # it may quote a multi-line value
        text = N_("broken YAML ({problem}); defaults used")
        return cfg, [(line, Message(text, problem=problem))]
    except Exception as exc:  # ruamel raises a few non-YAMLError types on odd bytes
        text = N_("unreadable YAML ({error}); defaults used")
        return cfg, [(None, Message(text, error=type(exc).__name__))]
    if doc is None:
        return cfg, problems
    if not isinstance(doc, dict):
        return cfg, [(1, Message(N_("expected a mapping at the top; defaults used")))]
    known = {f.name: f for f in fields(Config)}
    flat: dict[str, Any] = {}
    lines: dict[str, int | None] = {}  # its line and name as written
    names: dict[str, str] = {}

    def nested(section: Any, prefix: str, shown: str) -> None:
        for k, v in section.items():
            if prefix == "alarms_" and k == "gates" and isinstance(v, dict):
                nested(v, "alarms_gate_", "alarms.gates.")  # alarms: {gates: {score: 0.75, …}}
                continue
            flat[prefix + str(k)] = v
            lines[prefix + str(k)] = _line_of(section, k)
            names[prefix + str(k)] = shown + str(k)

    for key, value in doc.items():
        if isinstance(value, dict) and key in ("paths", "thresholds", "sections"):
            nested(value, "", "")
        elif isinstance(value, dict) and key in ("duplicates", "alarms", "backups"):
            nested(value, f"{key}_", f"{key}.")
        else:
            flat[key] = value

    def at(key: str) -> int | None:
        return lines.get(flat_key) or _line_of(doc, key)

    for flat_key, value in flat.items():
        key = flat_key
        name = _ALIASES.get(str(key), str(key).replace("-", "_"))
        if name not in known:
            text = N_("unknown setting {name} ignored")
            problems.append((at(key), Message(text, name=repr(names.get(key, key)))))
            continue
        current = getattr(cfg, name)
        key = names.get(key, key)
        if name == "review_date":
            parsed = value if isinstance(value, date) else parse_date(str(value))
            if parsed is None:
                text = N_("review_date {value} is not a date")
                problems.append((at(key), Message(text, value=repr(value))))
            else:
                cfg.review_date = parsed
        elif name == "commit":
            # the agent writes this file: a setting that makes memreview commit (and so run
            # git on the agent's repository as the owner) is the owner's, in the user config
            if value is True:
                cfg.commit = True  # asked for, never obeyed (apply says so)
                text = N_(
                    "commit: true in memreview.yaml is not obeyed (the agent can write this "
                    "file); set commit: true in your user config {path}, or pass --commit"
                )
                problems.append((at(key), Message(text, path=str(user_config_file()))))
        elif isinstance(current, bool):
            if isinstance(value, bool):
                setattr(cfg, name, value)
            else:
                problems.append(
                    (at(key), Message(N_("{name} must be true or false"), name=str(key)))
                )
        elif isinstance(current, int | float):
            number, problem = _number(name, value, current)
            if problem is None:
                setattr(cfg, name, number)
            else:
                text = N_("{name}: {problem}; the default {default} is used")
                message = Message(text, name=str(key), problem=problem, default=str(current))
                problems.append((at(key), message))
        elif isinstance(current, list):
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                setattr(cfg, name, [str(v) for v in value])
            elif isinstance(value, str):
                setattr(cfg, name, [value])
            else:
                problems.append(
                    (at(key), Message(N_("{name} must be a list of strings"), name=str(key)))
                )
        elif isinstance(value, str) and value:
            setattr(cfg, name, value)
        else:
            problems.append((at(key), Message(N_("{name} must be a string"), name=str(key))))
    if cfg.lang and language_of(cfg.lang) is None:
        text = N_("lang {value} is not one of {languages}")
        message = Message(text, value=repr(cfg.lang), languages=", ".join(LANGUAGES))
        problems.append((at("lang"), message))
        cfg.lang = ""
    if cfg.duplicates_scope not in ("curated", "all"):
        problems.append(
            (
                _line_of(doc, "duplicates"),
                Message(
                    N_("duplicates scope {value} is not 'curated' or 'all'; curated used"),
                    value=repr(cfg.duplicates_scope),
                ),
            )
        )
        cfg.duplicates_scope = "curated"
    return cfg, problems


def _number(name: str, value: object, default: int | float) -> tuple[int | float, Message | None]:
    """``value`` as the setting's type when it is one and in range, else a problem."""
    low, high = RANGES.get(name, (float("-inf"), float("inf")))
    whole = isinstance(default, int)
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    wrong = Message(
        N_("{value} is not a whole number") if whole else N_("{value} is not a number"),
        value=shown,
    )
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default, wrong
    if value != value or value in (float("inf"), float("-inf")):
        return default, wrong
    if whole and isinstance(value, float) and not value.is_integer():
        return default, wrong
    if not low <= value <= high:
        text = N_("{value} is out of range ({low} to {high})")
        return default, Message(text, value=shown, low=f"{low:,.0f}", high=f"{high:,.0f}")
    return (int(value) if whole else float(value)), None


def _line_of(doc: Any, key: str) -> int | None:
    try:
        return int(doc.lc.key(key)[0]) + 1
    except Exception:
        return None


def owner_commits() -> bool:
    """``commit: true`` in the owner's user config: commit every applied batch."""
    path = user_config_file()
    try:
        doc = load_yaml(read_capped(path, CONFIG_LIMIT), limit=CONFIG_LIMIT, typ="safe")
    except Exception:  # missing, unreadable or broken: the app reports it; no commit
        return False
    return isinstance(doc, dict) and doc.get("commit") is True
