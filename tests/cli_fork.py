"""``python -m memreview ARGS`` as a real process, without paying for the interpreter's
start-up and memreview's imports on every run (most of a small command's time).

A server process, started once per test process with the same interpreter and environment
as ``python -m`` would have, imports memreview's command modules and forks one child per
command. The child is a process of its own: stdin from /dev/null, stdout and stderr to files,
the environment and working directory asked for, memreview's ``__main__`` run as ``python -m``
runs it, its own exit status (a SIGKILL failpoint kills it alone, -9 as with subprocess).
memreview reads the environment when it runs, never at import, so a preloaded module is the
module a fresh interpreter would load; the random generator is seeded again in each child.
What an interpreter fixes at start-up (the locale, the streams' encoding, PYTHON* variables)
is the server's, so each set of those values has a server started with them. Without
``os.fork`` and ``os.pidfd_open``, or with $MEMREVIEW_TESTS_NO_FORK set, every command is
a fresh ``python -m memreview`` (subprocess.run).
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Read by the interpreter at start-up: a child must be asked for the server's values.
_STARTUP = ("LANG", "LANGUAGE", "LC_", "PYTHON")

SERVER = r"""
import json, os, random, runpy, select, signal, sys, traceback
import memreview.cli, memreview.cli.parser
for name in ("memreview.scan", "memreview.report", "memreview.doctor", "memreview.decisions",
             "memreview.store", "memreview.workspace.loader"):
    try:
        __import__(name)
    except ImportError:
        pass
channel = os.fdopen(int(sys.argv[1]), "r")
answer = os.fdopen(int(sys.argv[2]), "w")
def child(req):
    try:
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY),
                                (1, req["out"], os.O_WRONLY | os.O_TRUNC),
                                (2, req["err"], os.O_WRONLY | os.O_TRUNC)):
            new = os.open(path, flags)
            os.dup2(new, fd)
            os.close(new)
        os.environ.clear()
        os.environ.update(req["env"])
        os.chdir(req["cwd"])
        random.seed()
        sys.argv = ["-m", *req["argv"]]
        try:
            runpy.run_module("memreview", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
                code = 1
        except BaseException:
            traceback.print_exc()
            code = 1
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            code = 120
    finally:
        os._exit(locals().get("code", 1))
for line in channel:
    req = json.loads(line)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        channel.close()
        answer.close()
        child(req)
    pidfd = os.pidfd_open(pid)
    ready, _, _ = select.select([pidfd], [], [], req["timeout"])
    if not ready:
        os.kill(pid, signal.SIGKILL)
    os.close(pidfd)
    _, status = os.waitpid(pid, 0)
    answer.write(json.dumps({"code": os.waitstatus_to_exitcode(status),
                             "timeout": not ready}) + "\n")
    answer.flush()
"""


class _Server:
    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        to_server, self._channel = os.pipe()
        self._answer, from_server = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(to_server), str(from_server)],
            env=env,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # a pipe's buffering for the children, never a tty's
            pass_fds=(to_server, from_server),
        )
        os.close(to_server)
        os.close(from_server)
        self.send = os.fdopen(self._channel, "w")
        self.receive = os.fdopen(self._answer, "r")
        self.lock = threading.Lock()

    def run(self, argv, env, cwd, timeout) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory(prefix="memreview-cli-") as tmp:
            out, err = Path(tmp) / "out", Path(tmp) / "err"
            out.touch()
            err.touch()
            req = {"argv": list(argv), "env": env, "cwd": str(cwd), "timeout": timeout}
            req.update(out=str(out), err=str(err))
            with self.lock:
                self.send.write(json.dumps(req) + "\n")
                self.send.flush()
                line = self.receive.readline()
            if not line:
                raise RuntimeError("the memreview fork server ended")
            reply = json.loads(line)
            stdout, stderr = out.read_bytes(), err.read_bytes()
        cmd = [sys.executable, "-m", "memreview", *argv]
        if reply["timeout"]:
            raise subprocess.TimeoutExpired(cmd, timeout, stdout, stderr)
        return subprocess.CompletedProcess(cmd, reply["code"], stdout, stderr)


_servers: dict[tuple, _Server] = {}
_servers_lock = threading.Lock()


@atexit.register
def _stop_servers() -> None:
    """End of input: each server ends; wait for it (no process is left behind)."""
    for server in _servers.values():
        server.send.close()
        try:
            server.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.proc.kill()


def _startup_values(env: dict[str, str]) -> tuple:
    return tuple(sorted((k, v) for k, v in env.items() if k.startswith(_STARTUP)))


def run_fresh(argv, env: dict[str, str], cwd, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m memreview ARGV`` in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "memreview", *argv],
        env=env,
        cwd=cwd,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def run_memreview(
    argv, env: dict[str, str], cwd: str | Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    """``python -m memreview ARGV`` with ``env`` in ``cwd``: stdout and stderr as bytes."""
    cwd = Path.cwd() if cwd is None else cwd
    if not (hasattr(os, "fork") and hasattr(os, "pidfd_open")) or os.environ.get(
        "MEMREVIEW_TESTS_NO_FORK"
    ):
        return run_fresh(argv, env, cwd, timeout)
    key = _startup_values(env)
    with _servers_lock:
        server = _servers.get(key)
        if server is None or server.proc.poll() is not None:
            server = _servers[key] = _Server(dict(env))
    return server.run(argv, env, cwd, timeout)


def text(data: bytes) -> str:
    """Bytes as ``subprocess.run(text=True)`` gives them: the locale's encoding (UTF-8 in
    UTF-8 mode), universal newlines."""
    import locale

    encoding = "utf-8" if sys.flags.utf8_mode else locale.getencoding()
    return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")
