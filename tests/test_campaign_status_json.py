"""`campaign status --format json`: the keys scripts and the sheet read, asserted through a campaign's life."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script


def status(file: Path) -> dict[str, Any]:
    result = invoke(["status", "--format", "json"], file)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def sticker(data: dict[str, Any], sid: str) -> dict[str, Any]:
    return next(s for s in data["stickers"] if s["sticker"] == sid)


def test_status_json_through_a_game_and_its_rewards(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP, file)
    data = status(file)
    assert data["game_in_progress"] is None and data["games"] == [] and data["events"] == 17
    # coins: 12 before the first game (all placed), 41 for held-on players later
    assert sticker(data, "bunker") == {"sticker": "bunker", "placed": 0, "pool": None, "left": 3}

    assert not run_script(START, file)
    data = status(file)
    assert data["game_in_progress"] == 1 and data["events"] == 18
    assert [(g["game"], g["ended"], g["winner"]) for g in data["games"]] == [(1, False, None)]
    assert data["games"][0]["plays"] == {"Ann": "khan-industries", "Bob": "saharan-republic", "Cat": "die-mechaniker"}
    assert data["owed_rewards"] == [] and data["steps"] == []
    assert sticker(data, "coin") == {"sticker": "coin", "placed": 12, "pool": "held-on", "left": 41}

    assert not run_script("place bunker peru --by Ann\ngame end --winner Ann --eliminated Cat\n", file)
    data = status(file)
    assert data["game_in_progress"] is None and data["events"] == 20
    assert [(g["game"], g["ended"], g["winner"], g["eliminated"]) for g in data["games"]] == [(1, True, "Ann", ["Cat"])]
    assert sticker(data, "bunker") == {"sticker": "bunker", "placed": 1, "pool": None, "left": 2}
    assert data["owed_rewards"] == [{"player": "Ann", "role": "The winner's reward"},
                                    {"player": "Bob", "role": "A held-on player's reward"}]
    owed = {(s["player"], s["step"]) for s in data["steps"] if s["owed"]}
    assert owed == {("Ann", "winner-reward"), ("Bob", "held-on-reward")}
    may_take = {p["name"]: p["may_take"] for p in data["players"]}
    assert "major-city" in may_take["Ann"] and "coin" not in may_take["Ann"]
    assert set(may_take["Bob"]) == {"minor-city", "coin"} and may_take["Cat"] == []

    assert not run_script("place major-city alaska --by Ann --name Anchorage\n", file)
    data = status(file)
    assert data["owed_rewards"] == [{"player": "Bob", "role": "A held-on player's reward"}]
    assert sticker(data, "major-city")["placed"] == 1
    assert {(s["player"], s["step"]) for s in data["steps"] if s["owed"]} == {("Bob", "held-on-reward")}


def test_the_console_scripts_fast_path_says_what_the_app_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`scarbook campaign status` skips building the Typer app (scarbook.cli.entry); same output, same refusals."""
    from scarbook.cli import entry

    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --eliminated Cat\n", file)

    def fast(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["scarbook", "campaign", "status", *args])
        capsys.readouterr()
        with pytest.raises(SystemExit) as done:
            entry.run()
        out, err = capsys.readouterr()
        return int(done.value.code or 0), out, err

    code, out, _ = fast("--format", "json", "-c", str(file))
    assert code == 0 and json.loads(out) == status(file)
    code, out, _ = fast("-c", str(file))
    assert code == 0 and out == invoke(["status"], file).stdout
    code, out, err = fast("-c", str(tmp_path / "missing.yaml"))
    assert code == 2 and "error L001" in out + err
