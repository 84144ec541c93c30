"""The indexes that keep the queues from comparing all pairs find exactly what all pairs find:
the curated near index (promotions' "already stands in memory" check), the recall events by
file and line (promotions' recalls since, demotion's promoted-unused), on random texts and
small random workspaces, each against the all-pairs way it replaced."""

from __future__ import annotations

import json
import random
from datetime import date

import pytest
from rapidfuzz import fuzz, process

from memreview.queues import demotion
from memreview.queues.duplicates.index import NearIndex, window_scores
from memreview.queues.duplicates.scope import comparable, curated_files
from memreview.queues.promotions import detect
from memreview.queues.recall_index import RecallIndex
from memreview.queues.sameness import comparison_form, same_fact
from memreview.workspace.openclaw import LineRecall

TODAY = date(2026, 11, 30)
ALPHABETS = ["ab", "abc ", "abcdefgh ", "的了是在 ab", "gateway port restart owner 端口 重启"]


def _edited(r: random.Random, text: str, alphabet: str, edits: int) -> str:
    chars = list(text)
    for _ in range(edits):
        if chars and r.random() < 0.5:
            del chars[r.randrange(len(chars))]
        else:
            chars.insert(r.randint(0, len(chars)), r.choice(alphabet))
    return "".join(chars)


def _texts(r: random.Random) -> tuple[list[str], list[str], str]:
    alphabet = r.choice(ALPHABETS)
    base = ["".join(r.choice(alphabet) for _ in range(r.randint(0, 45))) for _ in range(30)]
    texts = [_edited(r, r.choice(base), alphabet, r.randint(0, 5)) for _ in range(r.randint(1, 70))]
    queries = [_edited(r, r.choice(texts + base), alphabet, r.randint(0, 3)) for _ in range(25)]
    return texts, queries, alphabet


@pytest.mark.parametrize("cutoff", [100, 95, 90, 80, 70, 50, 30, 0])
def test_the_near_index_finds_every_text_scoring_every_pair_finds(cutoff):
    for seed in range(60):
        texts, queries, _a = _texts(random.Random(seed * 31 + int(cutoff)))
        got = NearIndex(texts, cutoff).matches(queries)
        for q, hits in zip(queries, got, strict=True):
            every = process.extract(q, texts, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
            assert hits == [(s, k) for _t, s, k in every], (seed, q)
            # what promotions takes: the first five, as extract's limit gives them
            top = process.extract(q, texts, scorer=fuzz.ratio, score_cutoff=cutoff, limit=5)
            assert hits[:5] == [(s, k) for _t, s, k in top]


def test_the_near_index_scores_only_the_lengths_that_can_reach_the_cutoff():
    r = random.Random(7)
    texts = ["x" * r.randint(8, 400) for _ in range(2000)]
    queries = sorted(("y" * r.randint(8, 400) for _ in range(300)), key=len)
    ix = NearIndex(texts, 90)
    scored = sum(s.size for _a, _b, s in window_scores(ix.by_len, ix.lengths, queries, 90))
    assert scored < 0.4 * len(texts) * len(queries)


def _all_pairs_standing(ws, forms, promoted_ids):
    """The check as it was: every promotion's form against every curated form."""
    curated = [
        (comparison_form(e.norm), e)
        for rel in sorted(curated_files(ws))
        if rel in ws.files
        for e in ws.files[rel].entries
        if id(e) not in promoted_ids and comparable(e)
    ]
    fs = [f for f, _e in curated]
    out = {}
    for form in forms:
        out[form] = None
        if len(form) < 8 or not curated:
            continue
        for _c, s, k in process.extract(
            form, fs, scorer=fuzz.ratio, score_cutoff=ws.config.near_ratio, limit=5
        ):
            if s >= 100 or same_fact(form, fs[k]):
                out[form] = curated[k][1]
                break
    return out


class _AllEvents:
    """Recall events found by walking every one (the lookup as it was)."""

    def __init__(self, usage):
        self.recalls = getattr(usage, "recalls", usage)

    def overlapping(self, path, a, b):
        return [
            k for k, r in enumerate(self.recalls) if r.path == path and r.start <= b and a <= r.end
        ]


WORDS = (
    "gateway port restart owner backup billing cron 端口 重启 备份 主人 账单 always never".split()
)


def _sentence(r: random.Random) -> str:
    return " ".join(r.choice(WORDS) for _ in range(r.randint(2, 9)))


def _workspace(r: random.Random) -> dict:
    """Curated rules in MEMORY.md; nights of promotions in MEMORY.md (seen at boot) and in
    memory/notes.md (not: its promotions can be unused); recall events over both and the
    daily logs."""
    curated = [_sentence(r) for _ in range(r.randint(3, 25))]
    files = {
        "MEMORY.md": ["# MEMORY.md", "", "## Rules", ""] + [f"- {t}" for t in curated] + [""],
        "memory/notes.md": ["# Notes", ""],
    }
    made: list[str] = []
    for night in range(r.randint(1, 6)):
        lines = files["MEMORY.md" if night % 2 else "memory/notes.md"]
        lines += [f"## Promoted From Short-Term Memory (2026-11-{10 + night:02d})", ""]
        for _ in range(r.randint(1, 8)):
            text = _promoted_text(r, curated, made)
            made.append(text)
            n = r.randint(1, 30)
            src = f"memory/2026-11-{r.randint(1, 9):02d}.md"
            lines += [
                f"<!-- openclaw-memory-promotion:memory:{src}:{n}:{n + 1} -->",
                f"- {text} [score=0.8 recalls=3 avg=0.7 source={src}:{n}-{n + 1}]",
                "",
            ]
    out: dict = {rel: "\n".join(lines) + "\n" for rel, lines in files.items()}
    for d in range(1, 10):
        out[f"memory/2026-11-{d:02d}.md"] = "".join(f"- line {k}\n" for k in range(1, 40))
    paths = ["MEMORY.md", "memory/notes.md", *(f"memory/2026-11-{d:02d}.md" for d in range(1, 10))]
    out["memory/.dreams/events.jsonl"] = [
        {
            "type": "memory.recall.recorded",
            "timestamp": f"2026-{r.choice(['10', '11'])}-{r.randint(1, 28):02d}T09:00:00Z",
            "query": "q",
            "results": [
                {
                    "path": r.choice(paths),
                    "startLine": (a := r.randint(1, 60)),
                    "endLine": a + r.randint(0, 6),
                }
            ],
        }
        for _ in range(r.randint(0, 40))
    ]
    return out


def _promoted_text(r: random.Random, curated: list[str], made: list[str]) -> str:
    x = r.random()
    if x < 0.25:
        return r.choice(curated)
    if x < 0.5:
        return _edited(r, r.choice(curated), " ab的", r.randint(1, 3))
    if x < 0.6 and made:
        return r.choice(made)
    return _sentence(r)


def _dumped(files: dict) -> dict:
    return {
        k: "".join(json.dumps(o) + "\n" for o in v) if isinstance(v, list) else v
        for k, v in files.items()
    }


def test_promotions_and_promoted_unused_are_what_all_pairs_give(make_ws, monkeypatch):
    stood = unused = recalled = 0
    for seed in range(40):
        ws = make_ws(_dumped(_workspace(random.Random(seed))))
        ws.config.demotion_age_days = 5
        indexed = (detect.promotions(ws, TODAY), demotion.promoted_unused(ws, TODAY))
        with monkeypatch.context() as m:
            m.setattr(detect, "_standing", _all_pairs_standing)
            m.setattr(detect, "recall_index", _AllEvents)
            m.setattr(demotion, "recall_index", _AllEvents)
            every = (detect.promotions(ws, TODAY), demotion.promoted_unused(ws, TODAY))
        assert indexed == every, seed
        stood += sum(1 for it in indexed[0] for f in it["flags"] if "already stands" in f["reason"])
        recalled += sum(1 for it in indexed[0] if it["recalled_since"])
        unused += len(indexed[1])
    assert stood > 20 and recalled > 20 and unused > 20  # each lookup had something to find


def test_the_recall_index_finds_every_overlapping_event():
    for seed in range(50):
        r = random.Random(seed)
        events = [
            LineRecall(TODAY, r.choice("abc"), (s := r.randint(1, 60)), s + r.randint(0, 12))
            for _ in range(r.randint(0, 80))
        ]
        ix, walk = RecallIndex(events), _AllEvents(events)
        for _ in range(40):
            a = r.randint(1, 70)
            path, b = r.choice("abcd"), a + r.randint(0, 8)
            assert ix.overlapping(path, a, b) == walk.overlapping(path, a, b)
