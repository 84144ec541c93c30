"""One module per queue: its :class:`~memreview.decisions.unit.QueueUnit` declaration (keys,
actions, evidence, report note) and its plan builder. ``decisions/registry.py`` lists them."""
