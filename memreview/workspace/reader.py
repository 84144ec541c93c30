"""Reading one workspace file for the loader: the safe-read primitives of
:mod:`memreview.workspace.paths`, with every problem turned into a warning on the workspace."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memreview.i18n import N_
from memreview.workspace.jsonl import (
    CUT,
    MAX_PROBLEMS_SHOWN,
    iter_jsonl,
    more_bad_lines,
    problem_lines,
)
from memreview.workspace.model import Workspace
from memreview.workspace.paths import (
    NotARegularFile,
    PathEscape,
    SymlinkLoop,
    open_regular,
    read_fd,
    real_inside,
)
from memreview.workspace.textfile import TextFile, decode_bytes, is_binary
from memreview.workspace.yamlcap import size_text

MAX_WARNINGS_PER_FILE = 20


class Reader:
    """Reads files of the workspace at ``root`` (resolved), warning on ``ws`` for each problem."""

    def __init__(self, root: Path, ws: Workspace):
        self.root = root
        self.ws = ws
        self.markdown_limit: int | None = None  # bytes; the loader sets it from the config
        self.jsonl_limit: int | None = None  # bytes, for a JSON-lines file; the same

    def rel(self, p: Path) -> str:
        """The workspace-relative name of a path under the root, with ``/``."""
        return p.relative_to(self.root).as_posix()

    def locate(self, rel: str) -> Path | None:
        """The real path of workspace file ``rel``, or None when it must not be read.

        The whole path is resolved first, so a symlink anywhere on the way (a linked
        ``memory/review/`` directory, say) and a configured path with ``..`` or an absolute
        one are refused, with a warning, when they end outside the workspace.
        """
        p = self.root / rel
        try:
            return real_inside(self.root, p, rel)
        except SymlinkLoop:
            self.ws.warn(rel, None, N_("skipped: symlink loop"))
        except PathEscape:
            if os.path.normpath(p) == str(p.resolve()):
                self.ws.warn(rel, None, N_("skipped: path leads outside the workspace"))
            else:
                self.ws.warn(rel, None, N_("skipped: symlink leads outside the workspace"))
        return None

    def read(self, rel: str, limit: int | None = None) -> bytes | None:
        """Bytes of a workspace file (None, silently, when it isn't there).

        Opened without following a symlink swapped in after the check and without blocking
        on a named pipe; anything but a regular file, and a file larger than ``limit``
        bytes, is skipped with a warning (never read whole).
        """
        real = self.locate(rel)
        if real is None:
            return None
        try:
            fd, st = open_regular(real, rel)
            try:
                if limit is None or st.st_size <= limit:
                    data = read_fd(fd, st.st_size + 1)
                    if limit is None or len(data) <= limit:
                        return data
            finally:
                os.close(fd)
            self._too_large(rel, max(st.st_size, limit + 1), limit)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except SymlinkLoop:
            self.ws.warn(rel, None, N_("skipped: symlink loop"))
        except NotARegularFile:
            self.ws.warn(rel, None, N_("skipped: not a regular file"))
        except OSError as exc:
            self.ws.warn(rel, None, N_("cannot read: {error}"), error=str(exc.strerror or exc))
        return None

    def _too_large(self, rel: str, size: int, limit: int, setting: str | None = None) -> None:
        """Warn that ``rel`` is skipped for its size; ``setting`` names the limit's setting
        (default: ``max_markdown_mib`` for Markdown, the cap for any other file)."""
        if setting is None and not rel.endswith(".md"):
            text = N_("skipped: {size}, more than {limit} (the cap)")
        else:
            text = N_("skipped: {size}, more than {limit} ({setting} in memreview.yaml)")
        self.ws.warn(
            rel,
            None,
            text,
            size=size_text(size),
            limit=size_text(limit),
            setting=setting or "max_markdown_mib",
        )

    def text(self, rel: str) -> TextFile | None:
        """A text file decoded line by line; None (with a warning) for a binary file and one over
        ``markdown_limit`` bytes."""
        data = self.read(rel, self.markdown_limit)
        if data is None:
            return None
        if is_binary(data):
            self.ws.warn(rel, None, N_("skipped: binary file, not text"))
            return None
        tf = decode_bytes(rel, data)
        for line, message in tf.warnings:
            self.ws.warn(rel, line, message)
        return tf

    def jsonl(self, rel: str) -> Iterator[tuple[int, dict[str, Any]]] | None:
        """(line number, object) for each good line, read as it is consumed (a megabyte at a
        time); a warning for each of the others. None when the file is not there or can't be
        read, and, with a warning, when it is larger than ``jsonl_limit`` bytes."""
        real = self.locate(rel)
        if real is None:
            return None
        try:
            fd, st = open_regular(real, rel)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except SymlinkLoop:
            self.ws.warn(rel, None, N_("skipped: symlink loop"))
            return None
        except NotARegularFile:
            self.ws.warn(rel, None, N_("skipped: not a regular file"))
            return None
        except OSError as exc:
            self.ws.warn(rel, None, N_("cannot read: {error}"), error=str(exc.strerror or exc))
            return None
        limit = self.jsonl_limit
        if limit is not None and st.st_size > limit:
            os.close(fd)
            self._too_large(rel, st.st_size, limit, "max_jsonl_mib")
            return None
        return self._jsonl_rows(rel, fd, limit)

    def _jsonl_rows(
        self, rel: str, fd: int, limit: int | None
    ) -> Iterator[tuple[int, dict[str, Any]]]:
        bad: list[tuple[int, str]] = []

        def read(n: int) -> bytes:
            try:
                return os.read(fd, n)
            except OSError as exc:
                text = N_("cannot read the rest: {error}")
                self.ws.warn(rel, None, text, error=str(exc.strerror or exc))
                return b""

        def problem(p: tuple[int, str]) -> None:
            bad.append(p)
            if len(bad) <= MAX_PROBLEMS_SHOWN or p[1] == CUT:
                for line, message in problem_lines([p]):
                    self.ws.warn(rel, line, message)

        try:
            yield from iter_jsonl(read, problem, limit)
        finally:
            os.close(fd)
            more = sum(1 for _no, why in bad[MAX_PROBLEMS_SHOWN:] if why != CUT)
            if more:
                self.ws.warn(rel, None, more_bad_lines(more))
