"""Benchmark replay against the ledger's length: is a cold `status` / `check` linear in the events? (issue 26, item 5)

Run: .venv/bin/python bench/bench_replay.py [--sizes 10000 20000] [--scarbook PATH] [--runs N] [--timeout S]

Cold means the cache folder emptied before each run (a ledger just merged, edited by hand, or met with an empty
cache): every event is parsed and checked. Three ledgers per size:
- `stacked-illegal`: the tests' Risk Legacy set-up ledger plus N `place coin peru-card` lines, every one illegal
  (what a bad merge or a script appending junk leaves; replay goes on past an illegal event);
- `stacked-legal`: a homebrew game (tiny-game with a `marker` sticker that has no checks) plus N legal
  `place marker north-isle` lines: N marks on one territory;
- `spread-legal`: the same, over the game's three territories.
Prints wall seconds per command and the ratio of each size to the smallest: a linear replay gives
about `size / smallest` (2.0 for 20,000 against 10,000), a quadratic one its square (4.0). `--scarbook` times
another install (main's, for a before/after). The machine is shared: read ratios within one run.
"""

from __future__ import annotations

import argparse
import os
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


def ledgers(folder: Path, scarbook: str, size: int) -> dict[str, Path]:
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
    return out


def cold(scarbook: str, command: str, ledger: Path, cache: Path, timeout: float) -> float | None:
    """Wall seconds of one cold run (None: still running at `timeout`); stops on a traceback or a bad exit."""
    shutil.rmtree(cache, ignore_errors=True)
    started = time.perf_counter()
    try:
        done = subprocess.run([scarbook, "campaign", command, "-c", str(ledger)], capture_output=True, text=True,
                              timeout=timeout, env=dict(os.environ, SCARBOOK_CACHE=str(cache)))
    except subprocess.TimeoutExpired:
        return None
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1) or "Traceback" in done.stderr:
        raise SystemExit(f"benchmark stopped: {command} on {ledger.name} exited {done.returncode}:\n"
                         f"{done.stderr[-2000:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000])
    ap.add_argument("--scarbook", default=str(Path(sys.executable).parent / "scarbook"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--commands", nargs="+", default=["status", "check"])
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scarbook-replay-"))
    try:
        rows: dict[tuple[str, str], dict[int, float | None]] = {}
        for size in args.sizes:
            for kind, ledger in ledgers(work, args.scarbook, size).items():
                for command in args.commands:
                    times = [cold(args.scarbook, command, ledger, work / "cache", args.timeout)
                             for _ in range(args.runs)]
                    known = sorted(t for t in times if t is not None)
                    rows.setdefault((kind, command), {})[size] = known[len(known) // 2] if known else None
                    shown = f"{known[len(known) // 2]:.2f} s" if known else f"> {args.timeout:.0f} s"
                    print(f"  {kind:16} {command:7} {size:>7,} events: {shown}", flush=True)
        smallest = min(args.sizes)
        print(f"\n{'ledger':16} {'command':7} " + " ".join(f"{s:>10,}" for s in args.sizes) + "   ratio to "
              f"{smallest:,} (linear: " + ", ".join(f"{s / smallest:.1f}" for s in args.sizes) + ")")
        for (kind, command), by_size in rows.items():
            cells = " ".join(f"{by_size[s]:>9.2f}s" if by_size[s] is not None else f"{'timeout':>10}"
                             for s in args.sizes)
            base = by_size.get(smallest)
            ratios = ", ".join(f"{t / base:.2f}" if base and (t := by_size[s]) else "?" for s in args.sizes)
            print(f"{kind:16} {command:7} {cells}   {ratios}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
