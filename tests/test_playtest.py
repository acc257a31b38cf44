"""`scarbook playtest`: a play-test file played on a scratch campaign, every difference at its line.

A file whose steps all do what it expects exits 0 and leaves no campaign file behind; each kind of
mismatch (recorded when a refusal was expected, the wrong code, refused when expected recorded, text
missing or present, a JSON field different or missing, output that is not JSON, a crash, a refusal that
changed the file) is reported at the line of the expectation, with what was expected and what came;
a malformed file is refused at its line before anything runs. Every shipped example's play-test passes
through the installed `scarbook`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import EXAMPLES
from scarbook.cli.main import app
from scarbook.cli.playrun import Outcome, compare
from scarbook.compiler.playtest import read

HEAD = f"game: {EXAMPLES / 'harbor-watch'}\nplayers: [Ann, Bob]\nsteps:\n"


def play(tmp_path: Path, steps: str, name: str = "t.playtest.yaml") -> tuple[int, list[str]]:
    file = tmp_path / name
    file.write_text(HEAD + textwrap.dedent(steps), "utf-8")
    result = CliRunner().invoke(app, ["playtest", str(file)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output.splitlines()


def test_a_file_whose_steps_all_do_what_it_expects_passes(tmp_path: Path) -> None:
    rc, out = play(tmp_path, """\
      - run: status
        shows: "Month 1, try 1 of 2 (next)"
        lacks: Traceback
      - run: game start --play Ann=ada --play Bob=ada
        refused: R303
        shows: ada is played twice
      - game start --play Ann=ada --play Bob=bram
      - run: game end --team won
        shows: ["recorded: game ends: the team won", "held on: Ann, Bob"]
      - run: status --format json
        json: {team: true, chapter.results.1: won, games_played: 1}
    """)
    assert rc == 0, out
    assert out == [f"{tmp_path / 't.playtest.yaml'}: 5 steps, 5 as expected, 0 differences"]
    assert not list(tmp_path.glob("*campaign*"))  # the scratch campaign is not left beside the file


def test_each_kind_of_mismatch_is_reported_at_its_line(tmp_path: Path) -> None:
    rc, out = play(tmp_path, """\
      - run: status
        shows: Month 9
        lacks: Month 1
      - run: game start --play Ann=ada --play Bob=ada
        refused: R999
      - run: game start --play Ann=ada --play Bob=bram
        refused: R303
      - game end --winner Ann
      - run: status --format json
        json: {games_played: 3, nope.x: 1}
      - run: status
        json: {team: true}
    """)
    file = tmp_path / "t.playtest.yaml"
    assert rc == 1
    assert out[0].startswith(f"{file}:5:10: step 1 `status`: expected the output to show 'Month 9'; got campaign "
                             "(harbor-watch): 0 games played | Month 1, try 1 of 2 (next) | Funding level: 5 (0 to "
                             "6) | "), out[0]
    assert out[1] == (f"{file}:6:10: step 1 `status`: expected the output without 'Month 1'; got 'Month 1, try 1 "
                      "of 2 (next)'")
    assert out[2].startswith(f"{file}:8:12: step 2 `game start --play Ann=ada --play Bob=ada`: expected refused "
                             "R999; got refused R303: \"error R303: ada is played twice"), out[2]
    assert out[3] == (f"{file}:10:12: step 3 `game start --play Ann=ada --play Bob=bram`: expected refused R303; "
                      "got recorded (exit 0): 'recorded: game starts: Ann as ada, Bob as bram'")
    assert out[4].startswith(f"{file}:11:3: step 4 `game end --winner Ann`: expected recorded (exit 0); got refused "
                             "R350: \"error R350: Harbor Watch is co-operative"), out[4]
    assert out[5] == f"{file}:13:24: step 5 `status --format json`: expected games_played = 3; got games_played = 0"
    assert out[6] == f"{file}:13:35: step 5 `status --format json`: expected nope.x = 1; got no field nope.x"
    assert out[7].startswith(f"{file}:14:8: step 6 `status`: expected JSON output (for the 'json:' fields); got "
                             "campaign (harbor-watch): 0 games played, game 1 in progress"), out[7]
    assert out[8] == f"{file}: 6 steps, 0 as expected, 8 differences"


def test_a_crash_and_a_refusal_that_wrote_are_differences() -> None:
    test, problems = read(EXAMPLES / "harbor-watch" / "playtest.yaml")
    assert test is not None and not problems
    refusing = replace(next(s for s in test.steps if s.refused), shows=())
    crashed = Outcome(1, "", "", "Traceback (most recent call last):\nKeyError: 'tie'\n")
    assert [d.got for d in compare(refusing, crashed, changed=False)] == ["a crash: KeyError: 'tie'"]
    wrote = Outcome(1, "", f"error {refusing.refused}: no\nnothing was written\n")
    assert [(d.expected, d.got) for d in compare(refusing, wrote, changed=True)] == [
        ("the campaign file unchanged by a refusal", "the file changed")]
    assert compare(refusing, wrote, changed=False) == []
    uncoded = Outcome(2, "", "Usage: scarbook campaign ...\nError: No such option: --bogus\n")
    assert [d.got for d in compare(refusing, uncoded, changed=False)] == [
        "exit 2 without a code: 'Usage: scarbook campaign ...'"]


def test_a_malformed_file_is_refused_at_its_lines_before_anything_runs(tmp_path: Path) -> None:
    rc, out = play(tmp_path, """\
      - runn: status
      - run: status
        refused: 303
      - "status 'x"
      - place x -c other.yaml
      - new c.yaml
    """)
    file = tmp_path / "t.playtest.yaml"
    assert rc == 1
    assert out == [f"{file}:4:3: error S001: unknown key 'runn' in this mapping (did you mean 'run'?)",
                   f"{file}:4:3: error S002: this mapping needs 'run'; add it",
                   f"{file}:6:12: error S004: 303 is not of type 'string' in this mapping",
                   f"{file}: not run: 3 problems in the play-test file"]
    rc, out = play(tmp_path, """\
      - "status 'x"
      - place x -c other.yaml
      - new c.yaml
    """)
    assert rc == 1 and out == [
        f"{file}:4:3: error S020: step 1: the command cannot be split into words (No closing quotation); close the "
        "quote or escape it",
        f"{file}:5:3: error S020: step 2: leave out -c/--campaign; every step runs on the play-test's scratch "
        "campaign file",
        f"{file}:6:3: error S020: step 3: 'new' is not a step; the play-test starts the campaign itself from "
        "'game:', 'players:' and 'name:'",
        f"{file}: not run: 3 problems in the play-test file"]


def test_a_game_that_cannot_be_played_is_reported_at_game(tmp_path: Path) -> None:
    file = tmp_path / "t.playtest.yaml"
    file.write_text("game: no-such-game\nplayers: [Ann]\nsteps: [status]\n", "utf-8")
    result = CliRunner().invoke(app, ["playtest", str(file)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith(f"{file}:1:7: the campaign could not be created from 'game:' "
                                                    "and 'players:': error: unknown game 'no-such-game'")


def test_a_play_test_beside_the_content_is_not_content(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["validate", "--strict", str(EXAMPLES / "harbor-watch")])
    assert result.exit_code == 0 and result.output.strip() == "0 errors, 0 warnings in 1 file", result.output


SCRIPT = Path(sys.executable).parent / "scarbook"
PLAYTESTS = sorted(EXAMPLES.glob("*/playtest.yaml"))


@pytest.mark.slow
@pytest.mark.parametrize("file", PLAYTESTS, ids=[p.parent.name for p in PLAYTESTS])
def test_every_example_play_test_passes_through_the_installed_cli(file: Path, tmp_path: Path) -> None:
    """Slow (a real process playing a whole example play test): each example's play test passes, 0 differences."""
    if not SCRIPT.exists():
        pytest.skip("scarbook is not installed in this environment")
    env = {**os.environ, "SCARBOOK_CACHE": str(tmp_path / "cache")}
    env.pop("SCARBOOK_CAMPAIGN", None)
    done = subprocess.run([str(SCRIPT), "playtest", str(file)], capture_output=True, text=True, env=env,
                          timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith(" 0 differences") and "Traceback" not in done.stderr, done.stdout


def test_there_are_example_play_tests() -> None:
    assert (EXAMPLES / "harbor-watch" / "playtest.yaml") in PLAYTESTS
