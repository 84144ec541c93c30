"""One pure function per queue: (workspace, review date) -> items, in §6's JSON shape."""

from memreview.queues.archived import archived
from memreview.queues.contradictions import contradictions
from memreview.queues.demotion import demotion
from memreview.queues.dormant import dormant
from memreview.queues.duplicates import duplicates
from memreview.queues.skills import skills
from memreview.queues.supersede import supersede

QUEUES = {
    "contradictions": contradictions,
    "supersede": supersede,
    "skills": skills,
    "archived": archived,
    "duplicates": duplicates,
    "dormant": dormant,
    "demotion": demotion,
}
