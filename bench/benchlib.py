"""What the benchmark scripts share: timings of whole commands (CPU and wall), medians of paired runs, a table.

Benchmarks measure ratios against a reference run in the same script (quality.md); these helpers
only time and print, they never judge. A timed command that does not exit 0 stops the benchmark:
a figure is never taken from a command that failed (an import error is fast, and would look good).
"""

from __future__ import annotations

import compileall
import resource
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compile_sources() -> None:
    """Byte-compile scarbook's modules, as `pip install` does for every user.

    An editable install under PYTHONDONTWRITEBYTECODE=1 (set on some machines) would otherwise
    compile every module from source on each run, and the benchmark would time the compiler.
    """
    for folder in ("scarbook", "compiler", "campaign"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)


@dataclass(frozen=True)
class Timing:
    """One whole command: wall seconds, and CPU seconds (user + system of it and its children)."""

    wall: float
    cpu: float


def median_time(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of `fn()` over `runs` calls, in seconds (in-process work only)."""
    times = []
    for _ in range(max(1, runs)):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def run_command(cmd: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> Timing:
    """Run a command quietly and time it; stop the benchmark unless it exits 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"benchmark stopped: {' '.join(cmd)} exited {done.returncode}:\n"
                         f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(wall, cpu)


def median_command(cmd: Sequence[str], runs: int, *, cwd: Path | None = None,
                   env: dict[str, str] | None = None) -> Timing:
    """Medians of the wall and CPU time of a whole command over `runs` runs (each must exit 0)."""
    timings = [run_command(cmd, cwd=cwd, env=env) for _ in range(max(1, runs))]
    return Timing(statistics.median(t.wall for t in timings), statistics.median(t.cpu for t in timings))


@dataclass(frozen=True)
class Paired:
    """A command against a reference, run in turn: medians of each, and medians of the pair-by-pair ratios."""

    command: Timing
    reference: Timing
    wall_ratio: float
    cpu_ratio: float

    def ratios(self) -> str:
        return f"CPU {self.cpu_ratio:.2f} x, wall {self.wall_ratio:.2f} x"


def paired(cmd: Sequence[str], reference: Sequence[str], runs: int, *, env: dict[str, str] | None = None,
           cwd: Path | None = None, before: Callable[[], object] | None = None,
           after: Callable[[], object] | None = None,
           before_reference: Callable[[], object] | None = None) -> Paired:
    """Run `cmd` and `reference` in turn `runs` times (A B A B ...): machine drift hits both alike.

    `before()` runs untimed before each run of `cmd` (to empty a cache for a cold figure, say), and
    `before_reference()` before each run of the reference (when it must be cold too);
    `after()` runs untimed after each pair (to put back a file a command wrote, say).
    """
    mine, refs = [], []
    for _ in range(max(1, runs)):
        if before is not None:
            before()
        mine.append(run_command(cmd, cwd=cwd, env=env))
        if before_reference is not None:
            before_reference()
        refs.append(run_command(reference, cwd=cwd, env=env))
        if after is not None:
            after()
    return Paired(
        Timing(statistics.median(t.wall for t in mine), statistics.median(t.cpu for t in mine)),
        Timing(statistics.median(t.wall for t in refs), statistics.median(t.cpu for t in refs)),
        statistics.median(a.wall / b.wall for a, b in zip(mine, refs, strict=True)),
        statistics.median(a.cpu / max(b.cpu, 1e-6) for a, b in zip(mine, refs, strict=True)),
    )


def emptied(folder: Path) -> Callable[[], None]:
    """A `before` hook that removes `folder` (a cache), so the next run starts cold."""
    return lambda: shutil.rmtree(folder, ignore_errors=True)


def ms(t: Timing) -> str:
    return f"{t.cpu * 1000:.0f} / {t.wall * 1000:.0f} ms"


Row = tuple[str, str, str]


def print_table(rows: Sequence[Row], header: Row = ("what", "median", "note")) -> None:
    """Rows of (what, measured value, reference or ratio), aligned."""
    width = max(len(r[0]) for r in [header, *rows])
    value_width = max(len(r[1]) for r in [header, *rows])
    for what, value, note in [header, *rows]:
        print(f"{what:<{width}}  {value:>{value_width}}  {note}")
