"""Benchmark replay against the ledger's length: is a cold `status` / `check` linear in the events? (issue 26, item 5)

Run: .venv/bin/python bench/bench_replay.py [--sizes 10000 20000] [--scarbook PATH] [--runs N] [--timeout S]

Cold means the cache folder emptied before each run (a ledger just merged, edited by hand, or met with an empty
cache): every event is parsed and checked. Three ledgers per size:
- `stacked-illegal`: the tests' Risk Legacy set-up ledger plus N `place coin peru-card` lines, every one illegal
  (what a bad merge or a script appending junk leaves; replay goes on past an illegal event);
- `stacked-legal`: a homebrew game (tiny-game with a `marker` sticker that has no checks) plus N legal
  `place marker north-isle` lines: N marks on one territory;
- `spread-legal`: the same, over the game's three territories;
- `many-games`: the scripted 15-game Risk Legacy campaign of the tests, then reward-free games (a start and an
  end, with the factions played) up to N events: about N / 2 games, so a cost per game start that walks every
  earlier game (quadratic in games: `steps.gone_pieces` before issue 36) shows as a ratio near its square.
Prints wall and CPU seconds per command and the CPU ratio of each size to the smallest: a linear replay gives
about `size / smallest` (2.0 for 20,000 against 10,000), a quadratic one its square (4.0). The benchmark fails
(exit 1, after the table) when a ratio is over 1.5 x linear (3.0 for 20,000) or a command is still running at
`--timeout`; it stops at once when a command exits otherwise than it must (`check` 1 on the illegal ledger, 0
everywhere else) or prints a traceback. `--scarbook` times another install (an older one, for a before/after).
The machine is shared: read ratios within one run; CPU moves less than wall.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "examples" / "tiny-game" / "game.yaml"
MARKER = "  - {id: marker, name: Marker, kind: marker, targets: [territory], effect: A mark.}\n"
TERRITORIES = ["north-isle", "east-isle", "south-isle"]
#: A size may cost at most this times its share of the smallest size's CPU (a quadratic replay: its square).
LINEAR_SLACK = 1.5


def setup_ledger() -> str:
    sys.path.insert(0, str(ROOT / "tests"))
    from campaigns.helpers import setup_bytes

    return setup_bytes().decode("utf-8")


def free_game(folder: Path) -> Path:
    """tiny-game with one more sticker, `marker`, that any territory takes any number of times."""
    game = folder / "free"
    game.mkdir()
    text = TINY.read_text("utf-8").replace("stickers:\n", "stickers:\n" + MARKER, 1)
    (game / "game.yaml").write_text(text.replace("id: tiny-isles", "id: free-isles"), "utf-8")
    return game


def played_base(folder: Path) -> Path:
    """The scripted 15-game campaign (bench_campaign.played_campaign), played once per benchmark."""
    base = folder / "played" / "base.yaml"
    if not base.exists():
        base.parent.mkdir()
        sys.path.insert(0, str(ROOT / "bench"))
        from bench_campaign import played_campaign

        os.environ.setdefault("SCARBOOK_CACHE", str(folder / "c"))
        played_campaign(base.parent)
    return base


def ledgers(folder: Path, scarbook: str, size: int) -> dict[str, Path]:
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_campaign import extended

    out = {}
    illegal = folder / f"stacked-illegal-{size}.yaml"
    illegal.write_text(setup_ledger() + "- {event: place, sticker: coin, target: peru-card}\n" * size, "utf-8")
    out["stacked-illegal"] = illegal
    base = folder / "free.yaml"
    if not base.exists():
        free_game(folder)
        subprocess.run([scarbook, "campaign", "new", str(base), "--game", "./free", "--player", "A", "--player", "B"],
                       cwd=folder, check=True, capture_output=True,
                       env=dict(os.environ, SCARBOOK_CACHE=str(folder / "c")))
    head = base.read_text("utf-8")
    stacked = folder / f"stacked-legal-{size}.yaml"
    stacked.write_text(head + "- {event: place, sticker: marker, target: north-isle}\n" * size, "utf-8")
    out["stacked-legal"] = stacked
    spread = folder / f"spread-legal-{size}.yaml"
    spread.write_text(head + "".join(f"- {{event: place, sticker: marker, target: {TERRITORIES[i % 3]}}}\n"
                                     for i in range(size)), "utf-8")
    out["spread-legal"] = spread
    out["many-games"] = extended(played_base(folder), folder / f"many-games-{size}.yaml", size)
    return out


#: The exit code each command must give on each ledger: `check` rejects the illegal events, `status` only warns.
EXPECTED_EXIT = {("stacked-illegal", "check"): 1}


def cold(scarbook: str, command: str, kind: str, ledger: Path, cache: Path,
         timeout: float) -> tuple[float, float] | None:
    """(wall, CPU) seconds of one cold run (None: still running at `timeout`); stops the benchmark on a traceback
    or an exit code other than the one expected (EXPECTED_EXIT, else 0): a figure is never taken from a command
    that failed."""
    shutil.rmtree(cache, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run([scarbook, "campaign", command, "-c", str(ledger)], capture_output=True, text=True,
                              timeout=timeout, env=dict(os.environ, SCARBOOK_CACHE=str(cache)))
    except subprocess.TimeoutExpired:
        return None
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    expected = EXPECTED_EXIT.get((kind, command), 0)
    if done.returncode != expected or "Traceback" in done.stderr:
        raise SystemExit(f"benchmark stopped: {command} on {ledger.name} exited {done.returncode} (expected "
                         f"{expected}):\n{done.stdout[-1000:]}\n{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000])
    ap.add_argument("--scarbook", default=str(Path(sys.executable).parent / "scarbook"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--commands", nargs="+", default=["status", "check"])
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scarbook-replay-"))
    failed: list[str] = []
    try:
        rows: dict[tuple[str, str], dict[int, tuple[float, float] | None]] = {}
        for size in args.sizes:
            for kind, ledger in ledgers(work, args.scarbook, size).items():
                for command in args.commands:
                    times = [cold(args.scarbook, command, kind, ledger, work / "cache", args.timeout)
                             for _ in range(args.runs)]
                    known = sorted(t for t in times if t is not None)
                    rows.setdefault((kind, command), {})[size] = known[len(known) // 2] if known else None
                    if len(known) < len(times):
                        failed.append(f"{kind} {command} at {size:,} events: still running at {args.timeout:.0f} s")
                    shown = (f"{known[len(known) // 2][0]:.2f} s wall, {known[len(known) // 2][1]:.2f} s CPU"
                             if known else f"> {args.timeout:.0f} s")
                    print(f"  {kind:16} {command:7} {size:>7,} events: {shown}", flush=True)
        smallest = min(args.sizes)
        print(f"\n{'ledger':16} {'command':7} " + " ".join(f"{s:>15,}" for s in args.sizes) + "   CPU ratio to "
              f"{smallest:,} (linear: " + ", ".join(f"{s / smallest:.1f}" for s in args.sizes) + ")")
        for (kind, command), by_size in rows.items():
            cells = " ".join(f"{t[0]:>6.2f}s/{t[1]:>5.2f}s" if (t := by_size[s]) is not None else f"{'timeout':>15}"
                             for s in args.sizes)
            base = by_size.get(smallest)
            ratios = []
            for s in args.sizes:
                now = by_size[s]
                if base is None or now is None or not base[1]:
                    ratios.append("?")
                    continue
                ratio = now[1] / base[1]
                ratios.append(f"{ratio:.2f}")
                if ratio > LINEAR_SLACK * s / smallest:
                    failed.append(f"{kind} {command}: {s:,} events take {ratio:.2f} x the CPU of {smallest:,} (linear: "
                                  f"{s / smallest:.1f}, at most {LINEAR_SLACK * s / smallest:.1f})")
            print(f"{kind:16} {command:7} {cells}   {', '.join(ratios)}")
        print("(each cell: wall / CPU seconds, median of --runs)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        raise SystemExit("FAILED:\n" + "\n".join(failed))


if __name__ == "__main__":
    main()
