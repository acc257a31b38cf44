"""Benchmark the campaign tracker: every command's start-up, cold and warm, and costs against the campaign's length.

Run: .venv/bin/python bench/bench_campaign.py [--runs N] [--no-big]
Prints a table of medians: CPU / wall milliseconds, and the medians of pair-by-pair ratios (CPU and
wall) against a reference run in turn with it (machines here are shared and noisy).

- Start-up (issue 15, item 1): every `campaign` command, `--help` included, on a 200-event campaign
  against `python -c "import typer, yaml"`: warm (the caches hold the content and the ledger)
  target <= 1.25 x, cold (the cache folder emptied before each run) target <= 2 x.
- Length (item 3): the same write, undo, `where` and `place --dry-run` on 50,000 events against 200
  events, warm, paired run by run (target <= 1.2 x); `status` and `check` at 10,000 events, warm and
  cold (target <= 0.5 s); replaying 10,000 events in-process (quality.md: <= 1 s).
- Game start (issue 36, item 5): `game start` on 10,000 events (about 5,000 games, every one ended) cold
  (target <= 1.5 s of CPU) and warm (target <= 1.5 x the same on 100 events, paired run by run); a start that
  walks every earlier game shows here first.

Every timed command must exit 0, or the benchmark stops (benchlib.run_command): a command that
fails at once (a missing module, a refused event) is never timed as if it had worked. A write is
timed from the same file each run: an untimed step undoes it after each run (or makes it again, for undo).
The campaign is the scripted 15-game Risk Legacy campaign of the tests, extended with reward-free games
and ending in a game in progress, so a scar (`place bunker alaska --by Ann`) is legal in every ledger.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchlib import Paired, compile_sources, emptied, median_time, ms, paired, print_table, run_command

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SCARBOOK = str(Path(sys.executable).parent / "scarbook")
REFERENCE = [PY, "-c", "import typer, yaml"]
PLAYS = ["--play", "Ann=khan-industries", "--play", "Bob=saharan-republic", "--play", "Cat=die-mechaniker"]
GAME_END = ["campaign", "game", "end", "--winner", "Ann"]


def played_campaign(folder: Path) -> Path:
    """The scripted 15-game campaign of the tests, played through the CLI in-process."""
    from typer.testing import CliRunner

    from scarbook.cli.main import app

    file = folder / "base.yaml"
    runner = CliRunner()
    for raw in (ROOT / "tests" / "campaigns" / "risk-legacy-15.txt").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "!")):
            continue
        args = shlex.split(line.replace("{file}", str(file)))
        if args[0] != "new":
            args += ["-c", str(file)]
        result = runner.invoke(app, ["campaign", *args])
        assert result.exit_code == 0, (line, result.output)
    return file


def extended(base: Path, out: Path, total: int, in_progress: bool = True) -> Path:
    """The campaign with more (reward-free) games until it has `total` events, the last game started, not ended
    (`in_progress`), or every game ended (so that `game start` is legal next)."""
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.ledger.text import dump_event

    ledger = read(base)
    lines = []
    n = len(ledger.events)
    players = ledger.players
    factions = ["khan-industries", "saharan-republic", "die-mechaniker"]
    start = dump_event({"event": "game-start", "play": dict(zip(players, factions, strict=True))})
    i = 0
    while n < total - 1:  # whole games (a start and an end) ...
        lines.append(start)
        lines.append(dump_event({"event": "game-end", "winner": players[i % 3], "held_on": players[:0],
                                 "eliminated": []}))
        i += 1
        n += 2
    if in_progress:
        lines.append(start)  # ... and one game in progress, so `game end` and `tick` are legal
    out.write_text(base.read_text() + "".join(f"- {ln}\n" for ln in lines))
    return out


@dataclass(frozen=True)
class Timed:
    """A timed command, and the untimed steps around it that keep the file as it was: `restore` after each
    run, `prepare` before the first and `cleanup` after the last (an undo needs an event to undo)."""

    cmd: list[str]
    restore: list[str] | None = None
    prepare: list[str] | None = None
    cleanup: list[str] | None = None


def commands(ledger: Path) -> dict[str, Timed]:
    """Each timed command on `ledger`."""
    c = ["-c", str(ledger)]
    end = [SCARBOOK, *GAME_END, *c]
    undo = [SCARBOOK, "campaign", "undo", *c]
    return {
        "campaign --help": Timed([SCARBOOK, "campaign", "--help"]),
        "campaign status --help": Timed([SCARBOOK, "campaign", "status", "--help"]),
        "campaign place --help": Timed([SCARBOOK, "campaign", "place", "--help"]),
        "campaign status": Timed([SCARBOOK, "campaign", "status", *c]),
        "campaign log": Timed([SCARBOOK, "campaign", "log", *c]),
        "campaign check": Timed([SCARBOOK, "campaign", "check", *c]),
        "campaign where bunker": Timed([SCARBOOK, "campaign", "where", "bunker", "--by", "Ann", *c]),
        "campaign place --dry-run": Timed([SCARBOOK, "campaign", "place", "bunker", "alaska", "--by", "Ann",
                                           "--dry-run", *c]),
        "campaign game end (append)": Timed(end, restore=undo),
        "campaign undo": Timed(undo, restore=end, prepare=end, cleanup=undo),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="paired runs per row (medians)")
    parser.add_argument("--no-big", action="store_true", help="skip the 10,000- and 50,000-event ledgers")
    args = parser.parse_args()
    compile_sources()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        env = dict(os.environ, SCARBOOK_CACHE=str(cache))
        os.environ["SCARBOOK_CACHE"] = str(cache)
        base = played_campaign(folder)
        small = extended(base, folder / "c200.yaml", 200)
        rows = [("reference: python -c 'import typer, yaml'", "", "CPU / wall ms in each row's note")]

        def row(what: str, p: Paired, target: str) -> None:
            rows.append((what, ms(p.command), f"{p.ratios()}  (ref {ms(p.reference)}; target {target})"))

        def step(cmd: list[str] | None) -> None:
            if cmd is not None:
                run_command(cmd, env=env)

        def measure(t: Timed, reference: Timed | None, *, cold: bool, runs: int) -> Paired:
            step(t.prepare)
            if reference is not None:
                step(reference.prepare)
            if not cold:  # warm: a first run fills the caches (a write after a hand edit checks every event)
                run_command(t.cmd, env=env)
                step(t.restore)

            def restore() -> None:
                step(t.restore)
                if reference is not None:
                    step(reference.restore)

            p = paired(t.cmd, reference.cmd if reference else REFERENCE, runs, env=env,
                       before=emptied(cache) if cold else None, after=restore)
            step(t.cleanup)
            if reference is not None:
                step(reference.cleanup)
            return p

        for name, t in commands(small).items():
            row(f"{name}, 200 events, warm", measure(t, None, cold=False, runs=args.runs), "<= 1.25 x")
        for name, t in commands(small).items():
            row(f"{name}, 200 events, cold", measure(t, None, cold=True, runs=args.runs), "<= 2 x")

        if not args.no_big:
            start = ["campaign", "game", "start", *PLAYS]
            for total in (100, 10_000):
                ended = extended(base, folder / f"ended{total}.yaml", total, in_progress=False)
                timed = Timed([SCARBOOK, *start, "-c", str(ended)], restore=[SCARBOOK, "campaign", "undo", "-c",
                                                                          str(ended)])
                if total == 100:
                    start_small = timed
                    continue
                cold_start = measure(timed, None, cold=True, runs=max(3, args.runs))
                rows.append(("campaign game start, 10,000 events (5,000 games), cold", ms(cold_start.command),
                             "target <= 1500 ms of CPU"))
                p = measure(timed, start_small, cold=False, runs=max(3, args.runs))
                rows.append(("campaign game start, 10,000 events (5,000 games), warm", ms(p.command),
                             f"{p.ratios()} the same on 100 events ({ms(p.reference)}; target <= 1.5 x)"))
            from scarbook.campaign.engine import Campaign
            from scarbook.campaign.ledger.cache import read

            shutil.rmtree(cache, ignore_errors=True)
            for total in (10_000, 50_000):
                big = extended(base, folder / f"c{total}.yaml", total)
                if total == 10_000:
                    def replay(b: Path = big) -> object:
                        return Campaign(read(b)).replay()

                    replay_s = median_time(replay, 3)
                    rows.append(("replay 10,000 events in-process (read + fold + checks)",
                                 f"{replay_s * 1000:.0f} ms", "target <= 1000 ms"))
                    for name in ("campaign status", "campaign check"):
                        for cold in (False, True):
                            row(f"{name}, 10,000 events, {'cold' if cold else 'warm'}",
                                measure(commands(big)[name], None, cold=cold, runs=args.runs), "<= 0.5 s")
                    continue
                for name in ("campaign game end (append)", "campaign undo", "campaign where bunker",
                             "campaign place --dry-run"):
                    # paired against the same command on 200 events
                    p = measure(commands(big)[name], commands(small)[name], cold=False, runs=max(3, args.runs))
                    rows.append((f"{name}, {total:,} events, warm", ms(p.command),
                                 f"{p.ratios()} the same on 200 events ({ms(p.reference)}; target <= 1.2 x)"))
    print_table(rows, ("what", "CPU / wall", "ratio (medians of pairs)"))


if __name__ == "__main__":
    main()
