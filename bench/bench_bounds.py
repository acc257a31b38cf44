"""Benchmark what no campaign or content needs: is it refused at once, or worked through in linear time? (issue 26,
items 5 and 6)

Run: .venv/bin/python bench/bench_bounds.py [--scarbook PATH] [--limit S] [--big 100000] [--only NAME ...]

Each case is one real command on a real file, timed (wall and CPU), with the exit code and the diagnostic code it
must give. The audit (docs/trust-and-limits.md) found each of these ran past its limit:
- `target-10mb-*`: the tests' Risk Legacy set-up ledger plus one event whose `target` is 10,000,000 characters
  (`check`, `game start`): refused with L003 (L007 for the write) at its line, at once; `status` warns with
  L003 and shows the rest;
- `big-illegal-*`, `big-legal-*`: the set-up ledger plus `--big` illegal `place coin peru-card` lines, and a
  homebrew game's ledger plus `--big` legal marks on one territory (`status`, `check`): worked through, and in
  time linear in the ledger: CPU at most 1.5 x `--big / 10,000` times the CPU of the same ledger at 10,000
  events (a quadratic replay gives 10 x that at 100,000);
- `build-word-x50`, `build-accents-x10`, `build-prose-x100`: `build` of tiny-game with 50 cards each holding
  one 19,990-character word, 10 cards of `a` + 19,000 combining accents, 100 cards of 20,000 characters of prose
  (they validated and took 150 s or more to build): refused with B305, B306, B307 at the text's line.
A case fails when its command exits otherwise, says another code, runs past `--limit` seconds (wall) or, for
the big ledgers, is not linear; the benchmark then exits 1 after the table. `--scarbook` times another install
(an older one, for a before/after: expect failures there).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_replay import TINY, free_game, setup_ledger  # noqa: E402

START = ["game", "start", "--play", "Ann=die-mechaniker", "--play", "Bob=khan-industries", "--play",
         "Cat=saharan-republic"]


@dataclass
class Case:
    name: str
    args: Callable[[Path], list[str]]  # the command line after `scarbook`, given the work folder
    exit: int
    says: str  # a diagnostic code the output must hold ('' when none)
    linear_of: str = ""  # the case at 10,000 events this one must scale linearly from


def _pathological_game(folder: Path, name: str, text: str, cards: int) -> Path:
    """tiny-game with `cards` cards in its deck, each holding `text`."""
    game = folder / name
    game.mkdir()
    lines = TINY.read_text("utf-8").splitlines(keepends=True)
    out = []
    for line in lines:
        if line.startswith("  - {id: isle-cards"):
            line = line.replace("count: 3", f"count: {cards + 3}")
        out.append(line)
        if line.startswith("cards:"):
            out += [f'  - {{id: c{n}, deck: isle-cards, name: C{n}, text: "{text}"}}\n' for n in range(cards)]
    (game / "game.yaml").write_text("".join(out), "utf-8")
    return game


def prepare(work: Path, scarbook: str, big: int) -> list[Case]:
    base = setup_ledger()
    (work / "target-10mb.yaml").write_text(base + "- {event: place, sticker: coin, target: " + "x" * 10_000_000
                                           + "}\n", "utf-8")
    free_game(work)
    subprocess.run([scarbook, "campaign", "new", str(work / "free.yaml"), "--game", "./free", "--player", "A",
                    "--player", "B"], cwd=work, check=True, capture_output=True,
                   env=dict(os.environ, SCARBOOK_CACHE=str(work / "c")))
    head = (work / "free.yaml").read_text("utf-8")
    for size in (10_000, big):
        (work / f"illegal-{size}.yaml").write_text(base + "- {event: place, sticker: coin, target: peru-card}\n"
                                                   * size, "utf-8")
        (work / f"legal-{size}.yaml").write_text(head + "- {event: place, sticker: marker, target: north-isle}\n"
                                                 * size, "utf-8")
    _pathological_game(work, "word-x50", "x" * 19_990, 50)
    _pathological_game(work, "accents-x10", "a" + "\u0301" * 19_000, 10)
    _pathological_game(work, "prose-x100", "lorem ipsum " * 1666, 100)

    def ledger(file: str, *command: str) -> Callable[[Path], list[str]]:
        return lambda w: ["campaign", *command, "-c", str(w / file)]

    def build(game: str) -> Callable[[Path], list[str]]:
        return lambda w: ["build", str(w / game), "--out", str(w / "out")]

    cases = [Case("target-10mb-check", ledger("target-10mb.yaml", "check"), 1, "L003"),
             Case("target-10mb-status", ledger("target-10mb.yaml", "status"), 0, "L003"),
             Case("target-10mb-game-start", ledger("target-10mb.yaml", *START), 1, "L007")]
    for kind, status_exit, check_exit, says in (("illegal", 0, 1, "R"), ("legal", 0, 0, "")):
        for command, code in (("status", status_exit), ("check", check_exit)):
            small = f"{kind}-10000-{command}"
            cases.append(Case(small, ledger(f"{kind}-10000.yaml", command), code, says if code else ""))
            cases.append(Case(f"big-{kind}-{command}", ledger(f"{kind}-{big}.yaml", command), code,
                              says if code else "", linear_of=small))
    cases += [Case("build-word-x50", build("word-x50"), 1, "B305"),
              Case("build-accents-x10", build("accents-x10"), 1, "B306"),
              Case("build-prose-x100", build("prose-x100"), 1, "B307")]
    return cases


def run(scarbook: str, case: Case, work: Path, limit: float) -> tuple[float, float, str]:
    """(wall, cpu, why it failed or '') of one cold run (the cache folder emptied first)."""
    cache = work / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(work / "out", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run([scarbook, *case.args(work)], cwd=work, capture_output=True, text=True,
                              timeout=limit, env=dict(os.environ, SCARBOOK_CACHE=str(cache)))
    except subprocess.TimeoutExpired:
        return limit, float("nan"), f"still running at {limit:.0f} s"
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = done.stdout + done.stderr
    if "Traceback" in out:
        return wall, cpu, "a traceback"
    if done.returncode != case.exit:
        return wall, cpu, f"exit {done.returncode}, not {case.exit}: {out.strip()[-300:]}"
    if case.says and f" {case.says}" not in out:
        return wall, cpu, f"no {case.says} in its output: {out.strip()[-300:]}"
    return wall, cpu, ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scarbook", default=str(Path(sys.executable).parent / "scarbook"))
    ap.add_argument("--limit", type=float, default=120, help="wall seconds a command may take (default 120)")
    ap.add_argument("--big", type=int, default=100_000, help="events in the big ledgers (default 100,000)")
    ap.add_argument("--only", nargs="+", default=[], help="run only the cases whose name starts with one of these")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scarbook-bounds-"))
    failed = 0
    try:
        cases = prepare(work, args.scarbook, args.big)
        cpu_of: dict[str, float] = {}
        print(f"{'case':26} {'wall':>8} {'cpu':>8}  verdict", flush=True)
        for case in cases:
            if args.only and not case.name.startswith(tuple(args.only)) and not any(
                    c.linear_of == case.name and c.name.startswith(tuple(args.only)) for c in cases):
                continue
            wall, cpu, why = run(args.scarbook, case, work, args.limit)
            cpu_of[case.name] = cpu
            if not why and case.linear_of and case.linear_of in cpu_of:
                allowed = 1.5 * args.big / 10_000 * cpu_of[case.linear_of]
                if not cpu <= allowed:
                    why = f"not linear: {cpu:.1f} s of CPU, at most {allowed:.1f} s (1.5 x {case.linear_of} scaled)"
            failed += bool(why)
            print(f"{case.name:26} {wall:7.2f}s {cpu:7.2f}s  {'ok' if not why else 'FAILED: ' + why}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        raise SystemExit(f"{failed} case(s) failed")


if __name__ == "__main__":
    main()
