"""How a build's render tasks run: one interface, three strategies (as Sphinx's `SerialTasks` and
`ParallelTasks`), and the structured result every task gives back.

A task is one output of `scarbook build`, or one part of a long card sheet. A strategy runs each task
through a render function (`build.render_job`) and hands each result to `finished` as it comes, in the
build's own process:

- `InProcess`: one after the other, in this process (platforms without `fork`, with one worker);
- `ForkedSerial`: one after the other, each in a child forked for it, which ends at once without
  tearing down or collecting its layout (Linux with one worker);
- `ForkPool`: a pool of worker processes, forked where the platform allows (several workers).

`choose` picks one from the number of workers and the platform. A problem crosses the process
boundary as a `Problem` (code, message), never as a string to split again; a worker or child that dies
is a B399 for its task and the build goes on with the others.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar


class Problem(NamedTuple):
    """A problem of one render task: its diagnostic code and message (placed at the game by `build`)."""

    code: str
    message: str


class JobResult(NamedTuple):
    """What rendering one task gives: its problems, its seconds, and the PDF of a part (else None)."""

    problems: list[Problem]
    seconds: float
    data: bytes | None


#: The arguments of a render function: the job, the files it writes, the output folder.
JobArgs = tuple[dict[str, Any], list[str], str]
#: A render function: runs one task, never raises for a problem of the content (it returns a Problem).
Render = Callable[[dict[str, Any], list[str], str], JobResult]
T = TypeVar("T")


class Worker:
    """What a render task knows of the process it runs in."""

    #: This process is a forked worker: it renders tasks, then ends at once (`os._exit`), without collecting.
    dedicated = False
    #: A task of this worker left the cyclic collector paused: its layout is garbage nobody collected yet.
    paused = False


def worker_started() -> None:
    """Initializer of the render workers and children."""
    Worker.dedicated = True


def died(reason: str) -> JobResult:
    """The result of a task whose process died or raised outside the render function's own guard."""
    return JobResult([Problem("B399", f"rendering failed: {reason}")], 0.0, None)


class Strategy(Protocol):
    """Runs render tasks and hands each result to `finished`, in the build's process."""

    def run(self, tasks: Sequence[T], args: Callable[[T], JobArgs], render: Render,
            finished: Callable[[T, JobResult], None]) -> None: ...


class InProcess:
    """Each task in this process, one after the other."""

    def run(self, tasks: Sequence[T], args: Callable[[T], JobArgs], render: Render,
            finished: Callable[[T, JobResult], None]) -> None:
        for task in tasks:
            finished(task, render(*args(task)))


class ForkedSerial:
    """Each task in a child forked straight from the build (no pool: its modules, threads and pickled
    jobs cost about 30 ms), one after the other. `preload` runs first when more than one child will need
    what it loads (WeasyPrint); a lone child loads it itself."""

    def __init__(self, preload: Callable[[], None]) -> None:
        self.preload = preload

    def run(self, tasks: Sequence[T], args: Callable[[T], JobArgs], render: Render,
            finished: Callable[[T, JobResult], None]) -> None:
        if len(tasks) > 1:
            self.preload()
        for task in tasks:
            finished(task, forked(render, *args(task)))


class ForkPool:
    """The tasks on a pool of `size` worker processes (forked where the platform can, after `preload`, so
    that every worker starts with the renderer loaded); results are handed on as they complete."""

    def __init__(self, size: int, preload: Callable[[], None]) -> None:
        self.size = size
        self.preload = preload

    def run(self, tasks: Sequence[T], args: Callable[[T], JobArgs], render: Render,
            finished: Callable[[T, JobResult], None]) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        fork = "fork" in multiprocessing.get_all_start_methods()
        if fork:  # imported once here, shared by every forked worker
            self.preload()
        context = multiprocessing.get_context("fork" if fork else None)
        with ProcessPoolExecutor(max_workers=self.size, mp_context=context, initializer=worker_started) as pool:
            futures = {pool.submit(render, *args(task)): task for task in tasks}
            for future in as_completed(futures):
                try:
                    res = JobResult(*future.result())
                except Exception as exc:  # a dead worker
                    res = died(f"{type(exc).__name__}: {exc}")
                finished(futures[future], res)


def choose(workers: int, tasks: int, preload: Callable[[], None], platform: str | None = None) -> Strategy:
    """The strategy for `tasks` render tasks on at most `workers` processes.

    On Linux every task runs in a forked process: a child ends without tearing down the millions of
    objects a layout leaves (about 0.5 s of CPU at 500 cards that the build would spend exiting), and
    without collecting them (`Worker`). Elsewhere (macOS, where forking a process that uses system
    frameworks is unsafe) one worker renders in the build's own process.
    """
    platform = sys.platform if platform is None else platform
    can_fork = platform.startswith("linux") and hasattr(os, "fork")
    size = max(1, min(workers, tasks))
    if can_fork and size == 1:
        return ForkedSerial(preload)
    if can_fork or (size > 1 and tasks > 1):
        return ForkPool(size, preload)
    return InProcess()


def forked(render: Render, job: dict[str, Any], files: list[str], out_dir: str) -> JobResult:
    """`render` in a child process forked for it, which sends its result back through a pipe and ends at
    once (`os._exit`: no teardown, no collection of its layout). A child that dies gives a B399 with its
    wait status."""
    import pickle

    sys.stdout.flush()
    sys.stderr.flush()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: whatever happens, it ends here
        code = 1
        try:
            os.close(read)
            worker_started()
            payload = pickle.dumps(tuple(render(job, files, out_dir)))
            with os.fdopen(write, "wb") as pipe:
                pipe.write(payload)
            code = 0
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        payload = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not payload:
        return died(f"the render process ended with status {status}")
    problems, seconds, data = pickle.loads(payload)
    return JobResult([Problem(*p) for p in problems], seconds, data)
