"""The detectors: one pure function per queue, (workspace, review date) -> items in §6's JSON
shape. Which queues exist, and in what order, is ``decisions/registry.py``'s table."""
