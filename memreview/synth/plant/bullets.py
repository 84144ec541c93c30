"""Bullet entries: the root MEMORY.md (OpenClaw dialect: identity, rules, an older generation
with comment markers, weekly promotions) and the knowledge files under memory/lessons,
decisions and preferences (one of them written by a Windows workstation in GBK)."""

from __future__ import annotations

from datetime import timedelta

from memreview.synth.dates import days_ago, grown_date, iso
from memreview.synth.model import Builder, Bullet
from memreview.synth.vocabulary import (
    AGENT_NAMES,
    AGENTS,
    CAVEATS_CN,
    GBK_LESSONS,
    ID_ASPECTS,
    ID_TOPICS,
    TASKS_CN,
    sentence,
)


def plant_root_memory(b: Builder) -> None:
    """The sections of the root MEMORY.md, about 6 % of the entries."""
    r = b.rng
    n_root = max(15, round(b.total_entries * 0.06))
    ident = b.section("MEMORY.md", "## 身份与协作")
    for agent in AGENTS:
        ident.bullets.append(
            Bullet(
                f"- {agent}（{AGENT_NAMES[agent]}）：{'、'.join(r.sample(TASKS_CN, 2))}，"
                f"{r.choice(CAVEATS_CN)}"
            )
        )
    rules = b.section("MEMORY.md", "## Rules")
    for _ in range(max(3, n_root // 20)):
        rules.bullets.append(Bullet(f"- {sentence(r)}"))
    old = b.section("MEMORY.md", "## Gateway")
    for i in range(max(3, n_root // 8)):
        trig = ", ".join(r.sample(ID_TOPICS, 2))
        text = f"- {sentence(r)} <!-- trigger: {trig} --> <!-- importance: {r.randint(1, 5)} -->"
        if (i == 0 or r.random() < 0.3) and b.manifest["active_projects"]:
            text += f" <!-- project: {r.choice(b.manifest['active_projects'])} -->"
        old.bullets.append(Bullet(text))
    for key in b.marker_keys:  # projects known only from a marker
        old.bullets.append(Bullet(f"- {sentence(r)} <!-- project: {key} -->", planted=True))
    weeks = max(2, min(20, n_root // 10))
    per_week = max(2, (n_root - 6 - len(rules.bullets) - len(old.bullets)) // weeks)
    for w in range(weeks):
        day = days_ago(2 + 7 * (weeks - 1 - w))
        sec = b.section("MEMORY.md", f"## Promoted From Short-Term Memory ({iso(day)})")
        for _ in range(per_week):
            src = iso(day - timedelta(days=r.randint(1, 6)))
            s1 = r.randint(3, 400)
            s2 = s1 + r.randint(0, 4)
            score = r.uniform(0.35, 0.92)
            sec.bullets.append(
                Bullet(
                    f"<!-- openclaw-memory-promotion:memory:memory/{src}.md:{s1}:{s2} -->\n"
                    f"- {sentence(r)} [score={score:.3f} recalls={r.randint(1, 9)} "
                    f"avg={score * r.uniform(0.6, 0.95):.3f} source=memory/{src}.md:{s1}-{s2}]"
                )
            )


def plant_knowledge_files(b: Builder) -> None:
    """The knowledge files, about 36 % of the entries; the GBK one first."""
    r = b.rng
    n_kn = max(30, round(b.total_entries * 0.36))
    b.gbk_rel = "memory/lessons/windows-codepage.md"
    gbk = b.section(b.gbk_rel, "")
    gbk.raw_before = ["# Windows 码页", "", "## 文件摘要：工作站上 Python 默认 GBK 的坑", ""]
    gbk.bullets = [Bullet(f"- {t}") for t in GBK_LESSONS] + [
        Bullet(f"- {sentence(r)}") for _ in range(max(1, n_kn // 100))
    ]
    b.knowledge_files.append(b.gbk_rel)
    made = len(gbk.bullets)
    while made < n_kn:
        kind = r.choices(["lessons", "decisions", "preferences"], weights=[5, 3, 2])[0]
        slug = f"{r.choice(ID_TOPICS)}-{r.choice(ID_ASPECTS)}"
        if kind == "decisions":  # a name starting with a date would be a daily log
            slug = f"{slug}-{iso(grown_date(r))[:7]}"
        rel = f"memory/{kind}/{slug}.md"
        if rel in b.bullet_files:
            continue
        n = min(n_kn - made, r.randint(8, 40))
        title = b.section(rel, "")
        title.raw_before = [f"# {slug}", "", f"## 文件摘要：{sentence(r)}", ""]
        for _ in range(n):
            stamp = f"（{iso(grown_date(r))}）" if r.random() < 0.4 else ""
            title.bullets.append(Bullet(f"- {sentence(r)}{stamp}"))
        b.knowledge_files.append(rel)
        made += n
