"""Small hand-made workspaces for the reader's and the queues' tests (shared by every folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared_helpers import write_dreams_db

from memreview import i18n
from memreview.workspace.loader import load_workspace


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml): a worker per core, but never more than the test files
    asked for (a file stays in one worker), and none for a single file: it runs in this
    process, without the workers' start-up."""
    from xdist.plugin import pytest_xdist_auto_num_workers as per_core

    here = config.invocation_params.dir
    files: set[Path] = set()
    for arg in config.args:
        path = here / arg.split("::")[0]
        files.update([path] if path.is_file() else path.rglob("test_*.py"))
    n = min(per_core(config), len(files))
    return n if n > 1 else 0


# Folders whose tests drive the app through Pilot or run memreview as a process: the `slow`
# lane. `python -m pytest -m "not slow"` is the edit loop's fast lane; CI runs everything.
SLOW_FOLDERS = ("app", "hostile", "reliability")


def pytest_collection_modifyitems(config, items):
    tests = Path(__file__).resolve().parent
    for item in items:
        parts = Path(str(item.fspath)).resolve().relative_to(tests).parts
        if parts and parts[0] in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _english_interface(monkeypatch):
    """Every test starts in English whatever the machine's locale says (a test in Chinese
    asks for it) and leaves the interface in English."""
    for name in i18n.LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    i18n.use_language("en")
    yield
    i18n.use_language("en")


def write_workspace(root: Path, files: dict[str, object]) -> Path:
    """Write ``files`` under ``root``: str as UTF-8 (no newline translation), bytes as is,
    a list as JSON lines (or, for ``*.db``, as rows of the ``dreams`` table), a dict as JSON."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        elif rel.endswith(".db"):
            write_dreams_db(p, content)
        elif isinstance(content, list):
            p.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in content))
        elif isinstance(content, dict):
            p.write_text(json.dumps(content, ensure_ascii=False))
        else:
            p.write_bytes(str(content).encode("utf-8"))
    return root


@pytest.fixture(autouse=True, scope="session")
def _scan_cache_dir(tmp_path_factory):
    """No scan cache in the tests (and the commands they run), but those that test it and
    turn it on (``use_scan_cache``): a test that patches a queue's rules must not be given
    what another test computed. Its directory is never the user's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMREVIEW_CACHE_DIR", str(tmp_path_factory.mktemp("scan-cache")))
        mp.setenv("MEMREVIEW_NO_CACHE", "1")
        yield


@pytest.fixture
def use_scan_cache(monkeypatch):
    """The scan cache on, as outside the tests."""
    monkeypatch.delenv("MEMREVIEW_NO_CACHE", raising=False)


@pytest.fixture
def make_ws(tmp_path):
    """``make_ws({path: content})`` -> the loaded Workspace (MEMORY.md added if missing)."""

    def make(files: dict[str, object]):
        files = dict(files)
        if "MEMORY.md" not in files and "memory/MEMORY.md" not in files:
            files["MEMORY.md"] = "# Memory\n"
        root = write_workspace(tmp_path / "ws", files)
        return load_workspace(root)

    return make


@pytest.fixture
def write_files():
    """``write_files(root, {path: content})`` -> root, for tests that need the directory."""
    return write_workspace
