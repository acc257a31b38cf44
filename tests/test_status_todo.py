"""Issue 37, the CLI at the table: `status`, `game end` and `open` list what is owed, in the rules' order, each
with the command to type; mistyped commands get a suggestion; a missing campaign file exits 2; status wraps to
the terminal; `validate` of the shipped games summarises their known gaps in one line."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script, set_cache
from test_campaign_rules_coverage import sf_until
from typer.testing import CliRunner

from conftest import snapshot
from scarbook.cli.main import app


@pytest.fixture(autouse=True)
def _cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    set_cache(monkeypatch, tmp_path_factory)


def todo(file: Path) -> list[dict]:  # type: ignore[type-arg]
    result = invoke(["status", "--format", "json"], file)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["todo"]  # type: ignore[no-any-return]


def test_status_lists_the_setup_checklist_after_new(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script("new {file} --game risk-legacy --player Ann --player Bob --player Cat\n", file)
    out = invoke(["status"], file).stdout
    assert "Still to do before game 1, in this order:\n  1. the 12 coins of the resource deck are placed before " \
           "the first game (12 still to place)\n     $ scarbook campaign place coin " in out, out
    assert ("$ scarbook campaign place first-game-power die-mechaniker --name "
            "{die-mechaniker-fortified-hq|die-mechaniker-double-six-shield}") in out
    items = todo(file)
    assert [t["kind"] for t in items] == ["setup"] * 6
    # every listed command, its choice made, is legal now
    cmd = items[1]["command"].replace("{die-mechaniker-fortified-hq|die-mechaniker-double-six-shield}",
                                      "die-mechaniker-fortified-hq")
    assert cmd.startswith("scarbook campaign ")
    done = invoke([*shlex.split(cmd)[2:], "--dry-run"], file)
    assert done.exit_code == 0 and done.stdout.startswith("legal: "), done.output


def test_held_on_rewards_are_listed_in_the_order_r240_enforces(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + " --seating Ann,Bob,Cat\ngame end --winner Bob --held-on Ann --held-on "
                          "Cat\n", file)
    items = todo(file)
    assert [(t["who"], t["step"]) for t in items] == [("Bob", "winner-reward"), ("Cat", "held-on-reward"),
                                                      ("Ann", "held-on-reward")]
    text = invoke(["status"], file).stdout
    assert text.index("2. Cat: A held-on player's reward") < text.index("3. Ann: A held-on player's reward")
    assert not run_script("!R240 place coin alaska --by Ann\nplace coin alaska --by Cat\nplace coin brazil --by Ann\n",
                          file)
    assert [t["who"] for t in todo(file)] == ["Bob"]


def test_shadow_forces_after_game_1_lists_the_ten_game_1_steps_with_their_commands(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, 'place faction-name green-faction --name "Verdant Cells"')  # game 1 in progress, nothing named
    assert not run_script("place bunker na-02 --by Ann\n", file)
    ended = invoke(["game", "end", "--winner", "Ann", "--held-on", "Bob", "--eliminated", "Cat"], file)
    assert ended.exit_code == 0, ended.output
    assert "Still to do before game 2, in this order:" in ended.stdout
    items = todo(file)
    setup = [t for t in items if t["kind"] == "setup"]
    assert len(setup) == 10 and items[:10] == setup
    assert setup[0]["command"] == "scarbook campaign place faction-name green-faction --name NAME"
    assert setup[5]["command"] == ("scarbook campaign place starting-tactic green-faction --name "
                                   "{green-starting-tactic-1|green-starting-tactic-2}")
    assert all(t["command"] in ended.stdout for t in items)
    steps = [t for t in items if t["kind"] == "step"]
    assert steps[0]["who"] == "Ann" and steps[0]["command"].startswith(
        "scarbook campaign place kai-weller-warlord-sticker TERRITORY --by Ann")


def test_game_end_and_open_dry_run_write_nothing(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\n", file)
    before = snapshot(file)
    result = invoke(["game", "end", "--winner", "Ann", "--dry-run"], file)
    assert result.exit_code == 0 and result.stdout.startswith("legal: game ends: Ann wins"), result.output
    assert snapshot(file) == before
    refused = invoke(["open", "faction-eliminated", "--dry-run"], file)
    assert refused.exit_code == 1 and snapshot(file) == before


def test_open_says_what_the_packet_added_and_what_to_place(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --held-on Bob --eliminated Cat\n"
                          "place major-city great-britain --by Ann --name Glasgow\n"
                          "place minor-city ontario --by Bob --name Toronto\n", file)
    assert invoke(["open", "faction-eliminated", "--dry-run"], file).stdout.startswith("legal: packet")
    result = invoke(["open", "faction-eliminated"], file)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "recorded: packet faction-eliminated opened"
    assert " added: " in lines[1] and "Mercenary" in lines[1], lines
    assert "$ scarbook campaign place rules-addition-e rules-addition-e" in result.stdout


def test_a_mistyped_subcommand_gets_a_suggestion() -> None:
    result = CliRunner().invoke(app, ["campaign", "stauts"])
    assert result.exit_code == 2 and "No such command 'stauts'. Did you mean 'status'?" in result.output
    top = CliRunner().invoke(app, ["valdate"])
    assert top.exit_code == 2 and "Did you mean 'validate'?" in top.output
    none = CliRunner().invoke(app, ["campaign", "zzzz"])
    assert none.exit_code == 2 and "Did you mean" not in none.output


def test_a_missing_campaign_file_exits_2(tmp_path: Path) -> None:
    result = invoke(["status"], tmp_path / "missing.yaml")
    assert result.exit_code == 2 and "error L001: no campaign file here" in result.output
    assert not (tmp_path / "missing.yaml").exists()


def test_status_wraps_to_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script("new {file} --game risk-legacy --player Ann --player Bob --player Cat\n", file)
    whole = invoke(["status"], file).stdout
    assert max(len(line) for line in whole.splitlines()) > 60
    import scarbook.cli.campaign.status as status_command  # a terminal 60 columns wide

    monkeypatch.setattr(status_command, "width", lambda: 60)
    narrow = invoke(["status"], file).stdout
    assert max(len(line) for line in narrow.splitlines() if " " in line.strip()) <= 60, narrow
    assert " \\\n" in narrow  # a command to type goes on with a backslash, still one shell line
    assert " ".join(narrow.split()).replace(" \\ ", " ") == " ".join(whole.split())


def test_validate_summarises_the_shipped_games_known_gaps() -> None:
    short = CliRunner().invoke(app, ["validate"])
    assert short.exit_code == 0
    lines = short.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("0 errors in ") and "known gaps of the shipped games" in lines[0]
    full = CliRunner().invoke(app, ["validate", "--all-gaps"])
    assert full.exit_code == 0 and "warning X310" in full.output
    count = int(lines[0].split("; ")[1].split()[0])
    assert full.output.strip().splitlines()[-1].endswith(f"{count} warnings in {lines[0].split()[3]} files")


def test_log_as_json(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann\n", file)
    text = invoke(["log"], file).stdout.splitlines()
    data = json.loads(invoke(["log", "--format", "json"], file).stdout)
    assert len(data) == len(text) and text[-1].endswith(f":{data[-1]['line']}: {data[-1]['said']}")
    assert data[-1]["event"]["event"] == "game-end" and data[-1]["event"]["winner"] == "Ann"
    assert data[0]["event"] == {"event": "place", "sticker": "coin", "target": "alaska-card"}


def test_undo_dry_run_and_redo(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann\n", file)
    before = snapshot(file)
    looked = invoke(["undo", "--dry-run"], file)
    assert looked.exit_code == 0 and looked.stdout.startswith("would undo: line ") and "game ends: Ann wins" in \
        looked.stdout and snapshot(file) == before
    refused = invoke(["place", "coin", "nowhere", "--by", "Bob"], file)  # a refusal changes nothing undo takes
    assert refused.exit_code == 1 and invoke(["undo", "--dry-run"], file).stdout == looked.stdout
    assert invoke(["undo"], file).stdout.startswith("undone: line ")
    assert snapshot(file) != before
    assert invoke(["redo", "--dry-run"], file).stdout.startswith("legal: game ends: Ann wins")
    redone = invoke(["redo"], file)
    assert redone.exit_code == 0 and redone.stdout.startswith("recorded: game ends: Ann wins"), redone.output
    assert snapshot(file) == before
    again = invoke(["redo"], file)
    assert again.exit_code == 1 and "error L019: there is nothing to redo" in again.output
    assert snapshot(file) == before


def test_progress_is_shown_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from scarbook.cli.terminal import progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert progress("chronicle") is None
    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    show = progress("chronicle")
    assert show is not None
    show("game 2 of 16")
    show("")
    assert tty.getvalue() == "\r\x1b[Kchronicle: game 2 of 16 ...\r\x1b[K"


def test_chronicle_reports_each_game_to_progress(tmp_path: Path) -> None:
    from scarbook.campaign.service import history

    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann\n", file)
    heard: list[str] = []
    history.chronicle(file, tmp_path / "c.html", "html", heard.append)
    assert heard == ["game 1 of 1"]


def test_game_end_lists_what_is_owed_from_the_state_it_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`game end` says what is owed from the state its write folded, without reading the campaign again (that second
    read was a sixth of a warm `game end`); what it says is what `status` then lists."""
    from scarbook.campaign.service import reading

    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\n", file)
    monkeypatch.setattr(reading, "owed", lambda path: (_ for _ in ()).throw(AssertionError("read again")))
    ended = invoke(["game", "end", "--winner", "Ann", "--held-on", "Bob", "--eliminated", "Cat"], file)
    assert ended.exit_code == 0, ended.output
    owed = ended.stdout[ended.stdout.index("Still to do before game 2"):]
    assert "Ann: The winner's reward" in owed and "Bob: A held-on player's reward" in owed
    monkeypatch.undo()
    status = invoke(["status"], file).stdout
    assert owed.strip() in status
