"""The generic checks of campaign/checks.py, each refusal and its way out, on a homebrew game made for it.

`tests/packs/valid/checks-isles/` declares one sticker per check (a claim, one per game, beside your own
banner, after a packet, in games 2-3, on a rich card, on a scarred territory's card) and no factions, so
the games record only who plays. Each line of the script is run through the CLI; `!CODE` lines must be
refused with that code, the file left byte-identical (see campaigns/helpers.run_script).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import invoke, play_transcript, run_script

GAME = Path(__file__).parent / "packs" / "valid" / "checks-isles"

SCRIPT = f"""
new {{file}} --game {GAME} --player Ann --player Bob
!R238 place banner a-isle
place banner a-isle --by Ann
!R238 place banner b-isle --by Ann
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
!R238 place raid c-isle
place raid c-isle --by Bob
!R238 place raid a-isle --by Bob
!R220 place late a-isle
place raid a-isle --by Ann
place ruin a-card
"""


def test_every_generic_check_refuses_and_lets_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    file = tmp_path / "c.yaml"
    assert run_script(SCRIPT, file) == []
    assert invoke(["check"], file).exit_code == 0


TRANSCRIPT = [  # each command, then the first line it prints: every refusal word for word
    ("place banner a-isle", "error R238: say who places it with --by NAME (at most 1 banner per player; t § banner)"),
    ("place banner a-isle --by Ann", "recorded: banner on a-isle by Ann"),
    ("place banner b-isle --by Ann",
     "error R238: Ann already placed banner on a-isle (line 10) (at most 1 banner per player; t § banner)"),
    ("place banner b-isle --by Bob", "recorded: banner on b-isle by Bob"),
    ("place raid c-isle --by Ann", "error R230: no game is in progress (a Raid is placed during a game; t § raid)"),
    ("place tower a-isle",
     "error R231: say who places it with --by NAME (a Tower goes beside your own Banner; t § tower)"),
    ("place tower a-isle --by Bob",
     "error R231: a-isle has no Banner of Bob's (a Tower goes only beside your own Banner; t § tower)"),
    ("place tower b-isle --by Bob", "recorded: tower on b-isle by Bob"),
    ("place relic a-isle",
     "error R219: packet vault is not open (a Relic comes into play when vault is opened; t § relic)"),
    ("place late a-isle", "error R220: this is game 0 (a Late is placed only in games 2-3; t § late)"),
    ("place crown a-isle --by Ann",
     "error R234: a-card has 1 resources (a Crown goes where a card with 2 or more resources is; t § crown)"),
    ("place crown c-isle --by Ann",
     "error R234: c-isle has no card (a Crown goes where a card with 2 or more resources is; t § crown)"),
    ("place crown b-isle", "error R234: say with --by NAME which player it is for (a Crown is placed by the player "
     "the card is for; t § crown)"),
    ("place crown b-isle --by Ann", "recorded: crown on b-isle by Ann"),
    ("place ruin loose-card", "error R237: loose-card is not the card of a territory (a Ruin goes only on the card "
     "of a territory; t § ruin)"),
    ("place ruin a-card",
     "error R237: a-isle has no scar (a Ruin goes only on the card of a territory with a scar; t § ruin)"),
    ("game start --play Ann=red --play Bob", "error R303: Checks Isles has no factions or other pieces to play, so "
     "'red' means nothing here; say only who plays: --play Ann (a game records only who played)"),
    ("game start --play Ann --play Bob", "recorded: game starts: Ann, Bob"),
    ("place raid c-isle",
     "error R238: say who places it with --by NAME (at most 1 raid per player per game; t § raid)"),
    ("place raid c-isle --by Bob", "recorded: raid on c-isle by Bob"),
    ("place raid a-isle --by Bob", "error R238: Bob already placed raid on c-isle (line 15) in game 1 (at most 1 "
     "raid per player per game; t § raid)"),
    ("place late a-isle", "error R220: this is game 1 (a Late is placed only in games 2-3; t § late)"),
    ("place raid a-isle --by Ann", "recorded: raid on a-isle by Ann"),
    ("place ruin a-card", "recorded: ruin on a-card"),
    ("game end --winner Ann", "recorded: game ends: Ann wins; held on: Bob"),
    ("game start --play Ann --play Bob", "recorded: game starts: Ann, Bob"),
    ("place late a-isle", "recorded: late on a-isle"),
    ("place raid b-isle --by Ann", "recorded: raid on b-isle by Ann"),  # one per game: a new game, a new one
    ("game end --winner Bob", "recorded: game ends: Bob wins; held on: Ann"),
    ("open vault", "recorded: packet vault opened"),
    ("place relic a-isle", "recorded: relic on a-isle"),
    ("game start --play Ann --play Bob", "recorded: game starts: Ann, Bob"),
    ("place late c-isle", "recorded: late on c-isle"),  # game 3: the last of games 2-3
    ("game end --winner Bob", "recorded: game ends: Bob wins; held on: Ann"),
    ("game start --play Ann --play Bob", "recorded: game starts: Ann, Bob"),
    ("place late b-isle", "error R220: this is game 4 (a Late is placed only in games 2-3; t § late)"),
]


def test_refusals_word_for_word_and_the_ways_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    file = tmp_path / "c.yaml"
    assert run_script(f"new {{file}} --game {GAME} --player Ann --player Bob\n", file) == []
    play_transcript(file, TRANSCRIPT)


def test_a_game_without_pieces_is_logged_by_its_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    file = tmp_path / "c.yaml"
    assert run_script(f"new {{file}} --game {GAME} --player Ann --player Bob\ngame start --play Ann --play Bob\n",
                      file) == []
    created = invoke(["new", str(tmp_path / "d.yaml"), "--game", str(GAME), "--player", "Ann", "--player", "Bob"])
    assert "then scarbook campaign game start --play Ann --play Bob" in created.output, created.output
    log = invoke(["log"], file).output
    assert "game 1 starts: Ann, Bob" in log and " as " not in log
    assert "Faction history" not in invoke(["status"], file).output


@pytest.mark.parametrize(("lo", "hi", "said"), [
    (4, 4, "only in game 4"), (2, 3, "only in games 2-3"), (5, None, "only in game 5 and after"),
    (None, 1, "only in games up to 1")])
def test_a_game_range_says_its_games_as_a_person_would(lo: int | None, hi: int | None, said: str) -> None:
    """A sticker of one game only said 'placed only in games 4-4' (Shadow Forces' fortification, game 4)."""
    from types import SimpleNamespace

    from scarbook.campaign.checks import game_number

    p = SimpleNamespace(state=SimpleNamespace(started=hi + 1 if hi is not None else (lo or 1) - 1), label="Fort")
    failure = game_number(p, SimpleNamespace(min=lo, max=hi))  # type: ignore[arg-type]
    assert failure is not None and failure[1] == f"a Fort is placed {said}", failure
