"""Benchmark the campaign tracker: `status` start-up, replaying 10,000 events, appending one.

Run: .venv/bin/python bench/bench_campaign.py
Prints a table. Targets (shared/design/quality.md): `scarbook campaign status` on a 200-event
campaign at most 2 x the median of `python -c "import typer, yaml"` measured here; replaying
10,000 events <= 1 s; appending one event to that ledger <= 0.5 s. Medians over several runs.
The append is timed once the cache holds the verdict of a full check (see campaign/README.md);
the first append after a hand edit, which checks every event, and the start-up cost of the
same command (no ledger: it fails at once) are shown for reference.
"""

from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchlib import compile_sources, median_command, median_time, print_table, run_command

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SCARBOOK = str(Path(sys.executable).parent / "scarbook")
RUNS = 7
GAME_START = ["campaign", "game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic",
              "--play", "Cat=die-mechaniker"]


def median_wall(cmd: list[str], env: dict[str, str], runs: int = RUNS) -> float:
    return median_command(cmd, runs, env=env, ok=range(256))


def append_once(ledger: Path, env: dict[str, str]) -> float:
    """Wall time of one `game start` appended through the CLI; undone untimed, so every run appends to the same file."""
    took = median_command([SCARBOOK, *GAME_START, "-c", str(ledger)], 1, env=env)
    run_command([SCARBOOK, "campaign", "undo", "-c", str(ledger)], env=env)
    return took


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


def extended(base: Path, out: Path, total: int) -> Path:
    """The campaign with more (reward-free) games appended until it has `total` events."""
    from scarbook.campaign.ledger import dump_event, read

    ledger = read(base)
    lines = []
    n = len(ledger.events)
    players = ledger.players
    factions = ["khan-industries", "saharan-republic", "die-mechaniker"]
    i = 0
    while n < total:  # whole games (a start and an end), so the ledger ends between games
        lines.append(dump_event({"event": "game-start", "play": dict(zip(players, factions, strict=True))}))
        lines.append(dump_event({"event": "game-end", "winner": players[i % 3], "held_on": players[:0],
                                 "eliminated": []}))
        i += 1
        n += 2
    out.write_text(base.read_text() + "".join(f"- {ln}\n" for ln in lines))
    return out


def main() -> None:
    compile_sources()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = dict(os.environ)
        env.setdefault("SCARBOOK_CACHE", str(folder / "cache"))
        os.environ["SCARBOOK_CACHE"] = env["SCARBOOK_CACHE"]
        base = played_campaign(folder)
        small = extended(base, folder / "c200.yaml", 200)
        big = extended(base, folder / "c10k.yaml", 10_000)

        from scarbook.campaign.engine import Campaign
        from scarbook.campaign.ledger import read

        for path in (small, big):
            replay = Campaign(read(path)).replay()
            assert not replay.problems, replay.problems[:3]
        subprocess.run([SCARBOOK, "campaign", "status", "-c", str(small)], env=env, capture_output=True, check=True)

        ref = median_wall([PY, "-c", "import typer, yaml"], env)
        status = median_wall([SCARBOOK, "campaign", "status", "-c", str(small)], env)
        fast = median_wall([PY, "-c", "import sys; from scarbook.cli.campaign.status import main; "
                            f"sys.exit(main(['-c', {str(small)!r}]))"], env)

        replay_s = median_time(lambda: Campaign(read(big)).replay(), 5)

        first = append_once(big, env)  # the file was written by hand: this write checks all 10,000 events
        append_s = statistics.median(append_once(big, env) for _ in range(RUNS))
        floor = median_wall([SCARBOOK, *GAME_START, "-c", str(folder / "missing.yaml")], env)

    rows = [
        ("python -c 'import typer, yaml' (reference)", f"{ref * 1000:.0f} ms", ""),
        ("scarbook campaign status, 200 events", f"{status * 1000:.0f} ms",
         f"{status / ref:.2f} x reference (target <= 2 x)"),
        ("  same, status fast path (no Typer parsing)", f"{fast * 1000:.0f} ms", f"{fast / ref:.2f} x reference"),
        ("replay 10,000 events (read + fold + checks)", f"{replay_s * 1000:.0f} ms", "target <= 1000 ms"),
        ("append one event to 10,000 (whole CLI command)", f"{append_s * 1000:.0f} ms", "target <= 500 ms"),
        ("  first append after a hand edit (checks all)", f"{first * 1000:.0f} ms", ""),
        ("  same command without a ledger (start-up only)", f"{floor * 1000:.0f} ms", "Python, Typer, imports"),
    ]
    print_table(rows)


if __name__ == "__main__":
    main()
