"""The duplicates queue: fingerprint groups planted within one section, near pairs within one
file; and the pass that keeps random bullets apart so that only the planted ones are found."""

from __future__ import annotations

import random
import re

from rapidfuzz import fuzz, process

from memreview.synth.dates import grown_date, iso
from memreview.synth.model import Builder, Bullet, Section
from memreview.synth.vocabulary import sentence
from memreview.workspace.normalize import confirmed_key, fingerprint, normalize

_SWAPS = [
    ("之后", "后"),
    ("后", "之后"),
    ("不然", "否则"),
    ("先", "首先"),
    ("要求", "希望"),
    ("已观察", "观察了"),
    ("的", ""),
    ("了", ""),
    ("时", "的时候"),
    ("should", "must"),
    ("before", "prior to"),
    ("otherwise", "or else"),
    ("every", "each"),
]
_CJK = re.compile(r"[\u4e00-\u9fff]")
_COMMENTS_TAIL = re.compile(r"(?:\s*<!--.*?-->)+$")
_LINGXI_TAIL = re.compile(r"（[^（）]*）（\d{4}-\d{2}-\d{2} 自动沉淀）$")


def plant_duplicates(b: Builder) -> None:
    """Fingerprint groups of two or three (the same text, different date stamps) and near
    pairs, in the knowledge files (not the GBK one) and the root MEMORY.md."""
    r = b.rng
    m = b.manifest["duplicates"]
    candidates = [rel for rel in b.knowledge_files if rel != b.gbk_rel] + ["MEMORY.md"]
    for i in range(b.k(200)):
        rel = r.choice(candidates)
        sec = r.choice([s for s in b.bullet_files[rel] if s.bullets] or b.bullet_files[rel])
        if sec.heading.startswith("## Promoted") or sec.heading == "## 身份与协作":
            sec = b.section(rel, "## 重要教训") if rel == "MEMORY.md" else sec
        core = sentence(r)
        texts = []
        for _j in range(2 if i % 4 else 3):
            stamp = r.choice(
                [
                    f"（{iso(grown_date(r))}）",
                    f" ({iso(grown_date(r))})",
                    f"（{iso(grown_date(r))} 自动沉淀）",
                ]
            )
            texts.append(f"- {core}{stamp}")
        for t in texts:
            sec.insert(r, Bullet(t, planted=True))
        m["fingerprint"].append({"file": rel, "section": sec.heading, "texts": texts})
    for _ in range(b.k(200)):
        _plant_near_pair(b, r.choice(candidates))


def _plant_near_pair(b: Builder, rel: str) -> None:
    r = b.rng
    sec = r.choice([s for s in b.bullet_files[rel] if s.bullets] or b.bullet_files[rel])
    if sec.heading.startswith("## Promoted") or sec.heading == "## 身份与协作":
        sec = b.section(rel, "## 重要教训")
    core = sentence(r)
    while len(core) < 24:
        core = sentence(r)
    variant = near_variant(r, core)
    texts = [f"- {core}", f"- {variant}"]
    sec2 = r.choice([s for s in b.bullet_files[rel] if s.bullets] or [sec])
    if sec2.heading.startswith("## Promoted") or sec2.heading == "## 身份与协作":
        sec2 = sec
    sec.insert(r, Bullet(texts[0], planted=True))
    sec2.insert(r, Bullet(texts[1], planted=True))
    b.manifest["duplicates"]["near"].append(
        {
            "file": rel,
            "texts": texts,
            "ratio": round(fuzz.ratio(normalize(texts[0]), normalize(texts[1])), 1),
        }
    )


def near_variant(r: random.Random, core: str) -> str:
    """A small natural edit (a synonym, a dropped particle, a typo) starting between
    positions 8 and 30: a different fingerprint and confirmed key, ratio >= 90. When no such
    edit exists, a repeated CJK character (a typing slip)."""
    lo, hi = 8, min(30, len(core) - 9)
    edits: list[str] = []
    typos: list[str] = []
    for old, new in _SWAPS:
        pos = core.find(old, lo)
        while 0 <= pos <= hi:
            edits.append(core[:pos] + new + core[pos + len(old) :])
            pos = core.find(old, pos + 1)
    for pos in range(lo, hi):  # typos: two adjacent letters swapped
        a, b = core[pos], core[pos + 1]
        if a.isascii() and b.isascii() and a.isalpha() and b.isalpha() and a != b:
            typos.append(core[:pos] + b + a + core[pos + 2 :])
    r.shuffle(edits)
    r.shuffle(typos)
    n1 = normalize(core)
    for v in edits + typos:
        n2 = normalize(v)
        if (
            fingerprint(n1) != fingerprint(n2)
            and confirmed_key(n1) != confirmed_key(n2)
            and fuzz.ratio(n1, n2) >= 90
        ):
            return v
    for _ in range(100):  # no natural edit fits: repeat a CJK character (a typing slip)
        pos = r.randint(lo, max(lo, hi))
        if _CJK.match(core[pos]):
            v = core[: pos + 1] + core[pos:]
            if fuzz.ratio(n1, normalize(v)) >= 90 and confirmed_key(n1) != confirmed_key(
                normalize(v)
            ):
                return v
    return core[:lo] + core[lo] + core[lo:]


def dedupe_random(b: Builder) -> None:
    """Replace random bullets that happen to share a fingerprint with another bullet of the
    same section, or are near (ratio >= 90) another bullet of the same file, so that only
    the planted duplicates are found. Replacements are checked again, up to 20 rounds."""
    r = b.rng
    for secs in b.bullet_files.values():
        flat = [(s, i) for s in secs for i in range(len(s.bullets))]
        if len(flat) < 2:
            continue
        planted = [s.bullets[i].planted for s, i in flat]
        norms = [normalize(s.bullets[i].text.split("\n")[-1]) for s, i in flat]
        check = list(range(len(flat)))  # first every bullet, then only the replaced ones
        for _round in range(20):
            bad = _clashes(flat, planted, norms, check)
            if not bad:
                break
            for k in bad:
                s, i = flat[k]
                s.bullets[i] = _replacement(r, s.bullets[i].text)
                norms[k] = normalize(s.bullets[i].text.split("\n")[-1])
            check = sorted(bad)


def _clashes(
    flat: list[tuple[Section, int]], planted: list[bool], norms: list[str], check: list[int]
) -> set[int]:
    """Indexes (into ``flat``) of the random bullets to replace."""
    bad: set[int] = set()
    groups: dict[tuple[int, str], list[int]] = {}
    for k, ((s, _i), n) in enumerate(zip(flat, norms, strict=True)):
        groups.setdefault((id(s), fingerprint(n)), []).append(k)
    for members in groups.values():
        if len(members) > 1:
            rnd = [k for k in members if not planted[k]]
            bad.update(rnd[1:] if len(rnd) == len(members) else rnd)
    scores = process.cdist(
        [norms[k] for k in check],
        norms,
        scorer=fuzz.ratio,
        score_cutoff=90,
        dtype="uint8",
        workers=-1,
    )
    for cx, y in zip(*scores.nonzero(), strict=True):
        x, y = sorted((check[int(cx)], int(y)))
        if x == y or len(norms[x]) < 8 or len(norms[y]) < 8:
            continue
        if not planted[y]:
            bad.add(y)
        elif not planted[x]:
            bad.add(x)
    return bad


def _replacement(r: random.Random, old: str) -> Bullet:
    """A new random bullet with the old one's markers and tail."""
    if "\n" in old:  # an OpenClaw promotion: keep the marker and the tail
        head, line = old.split("\n", 1)
        tail = line[line.rfind(" [score=") :]
        return Bullet(f"{head}\n- {sentence(r)}{tail}")
    if (m := _LINGXI_TAIL.search(old)) is not None:
        return Bullet(f"- {sentence(r)}{m.group(0)}")
    # keep trailing comments (trigger, importance, project markers)
    tail = _COMMENTS_TAIL.search(old)
    return Bullet(f"- {sentence(r)}{tail.group(0) if tail else ''}")
