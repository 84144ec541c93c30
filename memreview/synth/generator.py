"""``generate``: the stages in the order they run. One random stream drives them all, so the
order is part of the output: a stage moved is a different workspace."""

from __future__ import annotations

import time
from pathlib import Path

from memreview.synth.model import Builder
from memreview.synth.plant.anchors import plant_random_anchors
from memreview.synth.plant.bullets import plant_knowledge_files, plant_root_memory
from memreview.synth.plant.contradictions import plant_contradictions
from memreview.synth.plant.demotion import plant_demotion, plant_not_demoted
from memreview.synth.plant.dormant import plant_projects
from memreview.synth.plant.duplicates import dedupe_random, plant_duplicates
from memreview.synth.plant.fragments import plant_fragments
from memreview.synth.plant.judge import plant_complements
from memreview.synth.plant.logs import plan_logs
from memreview.synth.plant.promotions import plant_promotions
from memreview.synth.plant.supersede import plant_supersede
from memreview.synth.write.logs import write_logs
from memreview.synth.write.memory import write_memory_files
from memreview.synth.write.root import write_root_files
from memreview.synth.write.state import (
    write_dreams_db,
    write_proposals,
    write_recalls,
    write_short_term_recall,
    write_skill_candidates,
)

STAGES = (
    plan_logs,
    plant_projects,
    plant_contradictions,
    plant_supersede,
    plant_complements,
    plant_demotion,
    plant_not_demoted,
    plant_random_anchors,
    plant_root_memory,
    plant_knowledge_files,
    plant_duplicates,
    plant_fragments,
    dedupe_random,
    write_memory_files,
    write_logs,
    write_recalls,
    write_dreams_db,
    write_proposals,
    write_skill_candidates,
    write_short_term_recall,
    write_root_files,
)


def generate(out: Path, scale: float, seed: int = 0, promotions: int = 0) -> dict:
    """Write a synthetic workspace into ``out`` (created if missing) and return a manifest
    of what was planted for each queue, the files written with their sizes, and counts;
    ``promotions``: that many more OpenClaw promotions in the root MEMORY.md (a year of
    dreaming, ``plant.promotions``)."""
    if scale <= 0:
        raise ValueError("scale must be positive")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    b = Builder(out, scale, seed)
    t0 = time.perf_counter()
    for stage in STAGES:
        if stage is write_memory_files:  # after every other bullet is planted
            plant_promotions(b, promotions)
        stage(b)
    counts = b.manifest["counts"]
    counts["projects"] = (
        len(b.project_files) + sum(1 for a in b.anchors if a.type == "PROJECT") + len(b.marker_keys)
    )
    counts["skill_candidates"] = len(b.manifest["skills"])
    b.manifest["seconds"] = round(time.perf_counter() - t0, 3)
    return b.manifest
