"""Files at the workspace root besides MEMORY.md: DREAMS.md with its diary block, NOW.md,
HEARTBEAT.md, the generated INDEX.md, and memreview.yaml pinning the review date."""

from __future__ import annotations

from memreview.synth.dates import REVIEW_DATE, days_ago, iso
from memreview.synth.model import Builder
from memreview.synth.vocabulary import SERVICES, TODOS_CN, sentence
from memreview.synth.write.files import write


def write_root_files(b: Builder) -> None:
    """Write the root files; INDEX.md lists what was written before it."""
    r = b.rng
    lines = ["# Dream Diary", "", "## 梦境日记", "", "<!-- openclaw:dreaming:diary:start -->"]
    for back in range(1, 8):
        day = days_ago(back)
        lines += [
            f"### {iso(day)} 03:0{back}",
            "",
            f"浅睡扫描了 {r.randint(2, 9)} 个日志，REM 提出 {r.randint(0, 12)} 个候选，"
            f"深睡晋升 {r.randint(0, 4)} 个。",
            "",
        ]
    lines += ["<!-- openclaw:dreaming:diary:end -->"]
    write(b, "DREAMS.md", lines)
    _now_and_heartbeat(b)
    write(b, "INDEX.md", _index(b))
    write(
        b,
        "memreview.yaml",
        [
            "# A synthetic workspace (memreview.synth); the review date is",
            "# pinned so that its queues are the same on every run.",
            f"review_date: {iso(REVIEW_DATE)}",
        ],
    )


def _now_and_heartbeat(b: Builder) -> None:
    r = b.rng
    todos = []
    for _ in range(8):
        day = days_ago(r.choice([0, 1, 2, 4, 6, 12, 30]))
        box = "x" if r.random() < 0.25 else " "
        todos.append(f"- [{box}] {r.choice(TODOS_CN)}：{r.choice(SERVICES)}（{iso(day)}）")
    write(
        b,
        "NOW.md",
        ["# NOW", "", f"{iso(days_ago(1))} 23:40 更新", "", "**待办**:"]
        + todos
        + ["", "**进行中**:", f"- {sentence(r)}"],
    )
    write(
        b,
        "HEARTBEAT.md",
        [
            "# HEARTBEAT",
            "",
            "## 活跃任务",
            "- [x] 检查飞书未读（08:00 完成）",
            "- [ ] 更新赏金追踪表（进行中）",
            "",
            "## 当前状态",
            f"- 本月 API 花费：{r.randint(20, 59)} / 60 美元",
            "- dreaming：正常",
        ],
    )


def _index(b: Builder) -> list[str]:
    """INDEX.md: up to 50 files of each knowledge folder and of projects/."""
    idx = ["# INDEX", "", f"{iso(days_ago(1))} 23:15 自动生成，请勿手改。", ""]
    for kind in ("lessons", "decisions", "preferences", "projects"):
        idx.append(f"## {kind}/")
        for rel in sorted(x for x in b.manifest["files"] if x.startswith(f"memory/{kind}/"))[:50]:
            idx.append(f"- {rel.removeprefix('memory/')}")
        idx.append("")
    return idx
