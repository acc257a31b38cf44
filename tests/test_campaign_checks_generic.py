"""The generic checks of campaign/checks.py, each refusal and its way out, on a homebrew game made for it.

`tests/packs/valid/checks-isles/` declares one sticker per check (a claim, one per game, beside your own
banner, after a packet, in games 2-3, on a rich card, on a scarred territory's card) and no factions, so
the games record only who plays. Each line of the script is run through the CLI; `!CODE` lines must be
refused with that code, the file left byte-identical (see campaigns/helpers.run_script).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import invoke, run_script

from conftest import refused, snapshot

GAME = Path(__file__).parent / "packs" / "valid" / "checks-isles"

SCRIPT = f"""
new {{file}} --game {GAME} --player Ann --player Bob
!R228 place banner a-isle
place banner a-isle --by Ann
!R228 place banner b-isle --by Ann
place banner b-isle --by Bob
!R230 place raid c-isle --by Ann
!R231 place tower a-isle
!R231 place tower a-isle --by Bob
place tower b-isle --by Bob
!R219 place relic a-isle
!R220 place late a-isle
!R234 place crown a-isle --by Ann
!R234 place crown c-isle --by Ann
!R234 place crown b-isle
place crown b-isle --by Ann
!R237 place ruin loose-card
!R237 place ruin a-card
!R303 game start --play Ann=red --play Bob
game start --play Ann --play Bob
!R229 place raid c-isle
place raid c-isle --by Bob
!R229 place raid a-isle --by Bob
!R220 place late a-isle
place raid a-isle --by Ann
place ruin a-card
"""


def test_every_generic_check_refuses_and_lets_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    file = tmp_path / "c.yaml"
    assert run_script(SCRIPT, file) == []
    assert invoke(["check"], file).exit_code == 0


@pytest.mark.parametrize("line, code, words", [
    ("place banner a-isle", "R228", "say who with --by NAME (each player places their own Banner; t § banner)"),
    ("place tower a-isle --by Bob", "R231", "a-isle has no banner of Bob's"),
    ("place relic a-isle", "R219", "packet vault is not open"),
    ("place late a-isle", "R220", "this is game 0 (a Late is placed only in games 2-3"),
    ("place crown a-isle --by Ann", "R234", "a-card has 1 resources"),
    ("place crown c-isle --by Ann", "R234", "c-isle has no card"),
    ("place crown b-isle", "R234", "say with --by NAME which player it is for"),
    ("place ruin loose-card", "R237", "loose-card is not the card of a territory"),
    ("place ruin a-card", "R237", "a-isle has no scar"),
    ("game start --play Ann=red --play Bob", "R303", "has no factions or other pieces to play"),
])
def test_refusals_say_what_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, code: str,
                                    words: str) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    file = tmp_path / "c.yaml"
    assert run_script(f"new {{file}} --game {GAME} --player Ann --player Bob\n", file) == []
    before = snapshot(file)
    result = invoke(line.split(), file)
    refused(result, code, file_before=before)
    assert words in result.output, result.output


def test_a_game_without_pieces_is_logged_by_its_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    file = tmp_path / "c.yaml"
    assert run_script(f"new {{file}} --game {GAME} --player Ann --player Bob\ngame start --play Ann --play Bob\n",
                      file) == []
    log = invoke(["log"], file).output
    assert "game 1 starts: Ann, Bob" in log and " as " not in log
    assert "Faction history" not in invoke(["status"], file).output
