"""Planting: each module adds to the ``Builder`` the work one queue (or one file kind) will
find, and records it in the manifest. Nothing here writes a file."""
