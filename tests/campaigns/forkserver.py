"""The installed `scarbook` as a real process per command, without starting Python and importing it each time.

A test that runs the console script thousands of times (tests/test_cli_hostile_args.py's whole argument matrix:
2,150 runs) spent most of its CPU starting Python and importing the same modules again: about 0.18 s a run, of
which a `campaign status` itself needs a few hundredths. `ForkServer` starts one Python process (the
interpreter named on the console script's first line) that imports `scarbook.cli.entry` and every module of the
package once, then forks a child for each command: the child is a process of its own (its own standard input
from /dev/null, output and error into files, working folder, environment, process group, exit status), runs
exactly what the console script runs (`sys.argv = [script, *args]`, `entry.run()`, Python's own handling of
`SystemExit` and of an uncaught exception: the traceback on standard error and exit 1, then the `atexit`
functions and a flush of the standard streams) and is killed with its process group past its timeout.

What it does not test is the start of the script itself (its imports in a fresh process): the tests that run
the script (tests/test_installed.py, tests/test_startup.py, the fast profile of the matrix and the named cases
of tests/test_cli_hostile_args.py, tests/test_faults.py) do.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

#: The server: reads one JSON request a line on fd 0, answers one JSON line on fd 1.
_SERVER = r'''
import atexit, io, json, os, signal, sys, time, traceback, pkgutil, importlib

script = sys.argv[1]
from scarbook.cli.codecache import install
install()  # as entry.run does first (it finds it installed then), before the dataclasses are defined
import scarbook
import scarbook.cli.entry
for found in pkgutil.walk_packages(scarbook.__path__, "scarbook."):
    importlib.import_module(found.name)
import gc
gc.freeze()  # the imported objects stay where they are: a child's collections do not copy their pages
requests = os.fdopen(os.dup(0), "rb", buffering=0)
answers = os.fdopen(os.dup(1), "wb", buffering=0)
null = os.open(os.devnull, os.O_RDWR)
os.dup2(null, 0)
os.dup2(null, 1)


def child(req):
    os.setsid()
    requests.close()  # the server's pipes are not the command's
    answers.close()
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    os.dup2(null, 0)
    for fd, name in ((1, "out"), (2, "err")):
        target = os.open(req[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding=sys.stdin.encoding,
                                 errors=sys.stdin.errors)
    sys.argv = [script, *req["args"]]
    code = 0
    try:
        scarbook.cli.entry.run()
    except SystemExit as done:
        if done.code is None:
            code = 0
        elif isinstance(done.code, int):
            code = done.code
        else:
            print(done.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        os._exit(code & 0xFF)


while True:
    line = b""
    while not line.endswith(b"\n"):
        part = requests.read(65536)
        if not part:
            sys.exit(0)
        line += part
    req = json.loads(line)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            child(req)
        finally:
            os._exit(70)
    deadline = time.monotonic() + req["timeout"]
    status = None
    pause = 0.001
    while status is None:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
        elif time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            status = "timeout"
        else:
            time.sleep(pause)
            pause = min(pause * 2, 0.02)
    answers.write(json.dumps({"status": status}).encode() + b"\n")
'''


class ForkServer:
    """One server process; `run` is not thread-safe (use one server a thread)."""

    def __init__(self, script: str, env: dict[str, str]) -> None:
        first = Path(script).read_text("utf-8").splitlines()[0]
        python = first[2:].strip() if first.startswith("#!") else "python3"
        self.folder = Path(tempfile.mkdtemp(prefix="scarbook-forkserver-"))
        self.proc = subprocess.Popen([python, "-c", _SERVER, script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env)

    def run(self, args: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int | None, bytes, bytes]:
        """(exit status, standard output, standard error) of the console script given `args`; status None when
        it was still running after `timeout` seconds (then killed with its process group)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        out, err = self.folder / "out", self.folder / "err"
        request = {"args": args, "cwd": str(cwd), "env": env, "timeout": timeout, "out": str(out), "err": str(err)}
        self.proc.stdin.write(json.dumps(request).encode() + b"\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"the fork server ended (exit {self.proc.wait()})")
        status = json.loads(answer)["status"]
        return (None if status == "timeout" else int(status)), out.read_bytes(), err.read_bytes()

    def close(self) -> None:
        import shutil

        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
