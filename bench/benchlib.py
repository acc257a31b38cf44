"""What the benchmark scripts share: medians of repeated timings, and the table they print.

Benchmarks measure ratios against a reference run in the same script (quality.md); these helpers
only time and print, they never judge.
"""

from __future__ import annotations

import compileall
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compile_sources() -> None:
    """Byte-compile scarbook's modules, as `pip install` does for every user.

    An editable install under PYTHONDONTWRITEBYTECODE=1 (set on some machines) would otherwise
    compile every module from source on each run, and the benchmark would time the compiler.
    """
    for folder in ("scarbook", "compiler", "campaign"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)


def median_time(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of `fn()` over `runs` calls, in seconds."""
    times = []
    for _ in range(max(1, runs)):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def run_command(cmd: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None,
                ok: Sequence[int] = (0,)) -> None:
    """Run a command quietly; stop the benchmark if it fails (an exit code outside `ok`)."""
    done = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def median_command(cmd: Sequence[str], runs: int, *, cwd: Path | None = None, env: dict[str, str] | None = None,
                   ok: Sequence[int] = (0,)) -> float:
    """Median wall time of a whole command, in seconds."""
    return median_time(lambda: run_command(cmd, cwd=cwd, env=env, ok=ok), runs)


Row = tuple[str, str, str]


def print_table(rows: Sequence[Row], header: Row = ("what", "median", "note")) -> None:
    """Rows of (what, measured value, reference or ratio), aligned."""
    width = max(len(r[0]) for r in [header, *rows])
    value_width = max(len(r[1]) for r in [header, *rows])
    for what, value, note in [header, *rows]:
        print(f"{what:<{width}}  {value:>{value_width}}  {note}")
