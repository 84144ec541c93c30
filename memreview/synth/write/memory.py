"""Memory files, one writer per dialect (docs/design.md §1.1, §1.2, §1.6): the OpenClaw root
MEMORY.md, the Lingxi memory/MEMORY.md, knowledge files (one in GBK with CRLF), project
files, agents' anchor files, the archive of superseded anchors, and the *.boot.md lists."""

from __future__ import annotations

from memreview.synth.dates import days_ago, iso
from memreview.synth.model import AnchorSpec, Builder
from memreview.synth.vocabulary import AGENT_NAMES, AGENTS
from memreview.synth.write.files import write


def write_memory_files(b: Builder) -> None:
    """Write every memory file and count bullets, anchors and entries into the manifest."""
    bullets = _root_memory(b) + _lingxi(b) + _knowledge(b)
    for rel, lines in b.project_files.items():
        write(b, rel, lines)
        bullets += sum(1 for ln in lines if ln.startswith("- "))
    for rel, anchors in b.anchor_files.items():
        agent = rel.split("/")[2]
        kind = rel.rsplit("/", 1)[1].removesuffix(".md")
        write(b, rel, _anchor_lines([f"# {AGENT_NAMES[agent]} — {kind}", ""], anchors))
    write(b, "memory/archive/superseded.md", _anchor_lines(["# Superseded", ""], b.archive_anchors))
    _boot_files(b)
    counts = {
        "bullets": bullets,
        "anchors": len(b.anchors),
        "chronicle_rows": len(b.chronicle),
        "memory_files": 2 + len(b.knowledge_files) + len(b.project_files) + len(b.anchor_files),
    }
    counts["entries"] = counts["bullets"] + counts["anchors"] + counts["chronicle_rows"]
    b.manifest["counts"].update(counts)


def _anchor_lines(lines: list[str], anchors: list[AnchorSpec]) -> list[str]:
    for a in anchors:
        lines += a.lines() + [""]
    return lines


def _root_memory(b: Builder) -> int:
    """MEMORY.md at the root (OpenClaw): promotions are each followed by a blank line."""
    lines = [
        "# MEMORY.md — 长期记忆",
        "",
        "> 索引页：规则看 memory/agents/*/rules.md，基础设施看 infra.md，踩坑看 memory/lessons/。",
        "",
    ]
    n = 0
    for s in b.bullet_files.get("MEMORY.md", []):
        lines += [s.heading, ""]
        for bl in s.bullets:
            lines += bl.text.split("\n")
            if s.heading.startswith("## Promoted"):
                lines.append("")
            n += 1
        if not s.heading.startswith("## Promoted"):
            lines.append("")
    write(b, "MEMORY.md", lines)
    return n


def _lingxi(b: Builder) -> int:
    """memory/MEMORY.md (Lingxi): sections under their module headings, then the chronicle."""
    lines = [
        "# 小满的长期记忆（灵犀 dreaming 自动沉淀）",
        "",
        f"> 最后更新：{iso(days_ago(1))}",
        "",
    ]
    n = 0
    module = None
    for s in sorted(
        b.bullet_files.get("memory/MEMORY.md", []),
        key=lambda s: b.lingxi_module_of.get(s.heading, ""),
    ):
        mod = b.lingxi_module_of.get(s.heading)
        if mod and mod != module:
            lines += [mod, ""]
            module = mod
        lines += [s.heading] + [bl.text for bl in s.bullets] + [""]
        n += len(s.bullets)
    lines += ["### 编年史", "| 日期 | 事件 | 备注 |", "|---|---|---|"] + b.chronicle
    write(b, "memory/MEMORY.md", lines)
    return n


def _knowledge(b: Builder) -> int:
    """Knowledge files; the Windows workstation's one in GBK with CRLF."""
    n = 0
    for rel in b.knowledge_files:
        lines = []
        for s in b.bullet_files[rel]:
            if s.heading:
                lines += ["", s.heading]
            lines += s.raw_before + [bl.text for bl in s.bullets]
            n += len(s.bullets)
        if rel == b.gbk_rel:
            write(b, rel, lines, encoding="gbk", newline="\r\n")
            b.manifest["gbk_file"] = rel
        else:
            write(b, rel, lines)
    return n


def _boot_files(b: Builder) -> None:
    """Boot files at the root list anchors as [[id]], each anchor under a random agent."""
    per_agent: dict[str, list[str]] = {}
    for aid in b.boot_ids:
        per_agent.setdefault(b.rng.choice(AGENTS), []).append(aid)
    for agent, ids in sorted(per_agent.items()):
        write(
            b,
            f"{agent}.boot.md",
            [f"# {AGENT_NAMES[agent]} boot", ""] + [f"- [[{x}]]" for x in ids],
        )
