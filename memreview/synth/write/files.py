"""The one place the generator writes a file and records its size in the manifest.

The generator writes into a fresh directory of its own, never into a user's workspace, so
it writes directly rather than through the store's safe writer.
"""

from __future__ import annotations

from memreview.synth.model import Builder


def write_data(b: Builder, rel: str, data: bytes) -> None:
    """Write ``data`` to ``rel`` (parents created) and record its size."""
    p = b.out / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    b.manifest["files"][rel] = len(data)


def write(
    b: Builder, rel: str, lines: list[str], *, encoding: str = "utf-8", newline: str = "\n"
) -> None:
    """Write ``lines``, each ended by ``newline``, in ``encoding``."""
    write_data(b, rel, (newline.join(lines) + newline).encode(encoding))
