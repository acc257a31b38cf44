"""Refusals of the tracker's game and packet rules (campaign/rules.py), word for word, with the way through.

Each transcript runs one command at a time through the CLI (campaigns.helpers.play_transcript): a
refusal must exit 1 without a crash and leave the ledger byte-identical; the expected text is every line
the command prints first. The games are two test packs (`tests/packs/valid/checks-isles/`: no factions,
no pieces, 2-3 players; `trigger-isles/`: one sealed packet per kind of trigger), Risk Legacy and (its R302)
Risk: Shadow Forces.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, play_transcript, run_script

PACKS = Path(__file__).parent / "packs" / "valid"
NOT_WRITTEN = "nothing was written"
ENDS = ("(the end of a game records who won, who held on and who was eliminated, each a player of that game)")


@pytest.fixture(autouse=True)
def _no_default_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)


GAME_RULES = [  # checks-isles: 2 to 3 players, one type of game, nothing lost for good
    ("game start --play Ann", "error R306: 1 player; Checks Isles needs at least 2 (Checks Isles is for 2 to 3 "
     "players; test game: generic checks)\n" + NOT_WRITTEN),
    ("game start --play Ann --play Bob --play Cy --play Dee",
     "error R104: 'Dee' is not a player of this campaign; players: Ann, Bob, Cy (a campaign's players are those "
     "named when it began ('scarbook campaign new --player NAME'))\n"
     "error R306: 4 players; Checks Isles takes at most 3 (Checks Isles is for 2 to 3 players; "
     "test game: generic checks)\n" + NOT_WRITTEN),
    ("game start --play Ann --play Bob --type blitz", "error R308: unknown type of game 'blitz'; types: game"),
    ("game start --play Ann --play Bob --type gam", "error R308: unknown type of game 'gam' (did you mean 'game'?); "
     "types: game"),
    ("game start --play Ann --play Bob --start Cy=a-isle",
     "error R305: Cy does not play in this game (each player of the game starts in one territory)"),
    ("game start --play Ann --play Bob --start Ann=a-isle --start Ann=b-isle",
     "error R305: Ann is given two starting territories (each player starts in one territory)"),
    ("game start --play Ann --play Bob --start Ann=a-isle --start Bob=a-isle",
     "error R305: Ann and Bob cannot both start in a-isle (a starting territory holds one player's HQ)"),
    ("game start --play Ann --play Bob --start Ann=zz-isle", "error R305: unknown territory 'zz-isle' (did you mean "
     "'c-isle'?) (each player of the game starts in one territory)"),
    ("game start --play Ann --play Bob --start Ann=a-isle --start Bob=c-isle",
     "recorded: game starts: Ann from a-isle, Bob from c-isle"),
    ("game end --winner ' '", "error R307: say who won with --winner NAME " + ENDS),
    ("game end --winner Cy", "error R307: 'Cy' did not play game 1; players: Ann, Bob " + ENDS),
    ("game end --winner Ann --eliminated Ann", "error R307: a player is listed twice among winner, held on and "
     "eliminated " + ENDS),
    ("game end --winner Ann --controlled Ann=q-isle --controlled Bob=b-isle,c-isle",
     "error R307: unknown territory 'q-isle' (did you mean 'c-isle'?) " + ENDS),
    ("game end --winner Ann --lost Bob",
     "error R307: nothing is lost for good in game 1; leave out --lost Bob (only the games whose rules say so "
     "remove a piece for good)"),
    ("destroy a-card", "error R103: Checks Isles has no rule for destroying cards; nothing to record (a card is "
     "destroyed only where the game's rules say so)"),
    ("game end --winner Ann --held-on Bob", "recorded: game ends: Ann wins; held on: Bob"),
    ("game end --winner Ann", "error R302: no game is in progress; start one with 'scarbook campaign game start "
     "--play NAME ...' (a game ends after it started)"),
]


def test_game_start_and_end_refusals(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert run_script(f"new {{file}} --game {PACKS / 'checks-isles'} --player Ann --player Bob --player Cy\n",
                      file) == []
    play_transcript(file, GAME_RULES)


TRIGGERS = [  # trigger-isles: each packet waits for its trigger, then blocks the next game until opened
    ("open second", "error R313: packet second may not be opened yet (After game 2.)\n" + NOT_WRITTEN),
    ("open begun", "error R313: packet begun may not be opened yet (Once a game has started.)"),
    ("open nope", "error R311: unknown packet 'nope'; packets: begun, ended, fallen, after-begun, second, guarded "
     "(the sealed packets of Trigger Isles are those its content lists; test game: triggers)"),
    ("game start --play Ann --play Bob", "recorded: game starts: Ann, Bob\nopen the sealed packet now: begun (Begun: "
     "Once a game has started.) -> scarbook campaign open begun [--pack DIR]"),
    ("game end --winner Ann", "recorded: game ends: Ann wins; held on: Bob\nopen the sealed packet now: ended (Ended: "
     "Once a game has ended.) -> scarbook campaign open ended [--pack DIR]"),
    ("game start --play Ann --play Bob",
     "error R310: open the sealed packet 'begun' first: Begun ('scarbook campaign open begun') (Once a game has "
     "started.)\nerror R310: open the sealed packet 'ended' first: Ended ('scarbook campaign open ended') (Once a "
     "game has ended.)\n" + NOT_WRITTEN),
    ("open after-begun", "error R313: packet after-begun may not be opened yet (Once Begun is open.)"),
    ("open begun", "recorded: packet begun opened\nopen the sealed packet now: after-begun (After Begun: Once Begun "
     "is open.) -> scarbook campaign open after-begun [--pack DIR]"),
    ("game start --play Ann --play Bob",
     "error R310: open the sealed packet 'ended' first: Ended ('scarbook campaign open ended') (Once a game has "
     "ended.)\nerror R310: open the sealed packet 'after-begun' first: After Begun ('scarbook campaign open "
     "after-begun') (Once Begun is open.)"),
    ("open after-begun", "recorded: packet after-begun opened"),
    ("open ended", "recorded: packet ended opened"),
    ("game start --play Ann --play Bob", "recorded: game starts: Ann, Bob"),
    ("open fallen", "error R313: packet fallen may not be opened yet (Once a player is eliminated.)"),
    ("game end --winner Ann --eliminated Bob", "recorded: game ends: Ann wins; eliminated: Bob\n"
     "open the sealed packet now: fallen (Fallen: Once a player is eliminated.) -> scarbook campaign open fallen "
     "[--pack DIR]\nopen the sealed packet now: second (Second: After game 2.) -> scarbook campaign open second "
     "[--pack DIR]"),
    ("game start --play Ann --play Bob",
     "error R310: open the sealed packet 'fallen' first: Fallen ('scarbook campaign open fallen') (Once a player is "
     "eliminated.)\nerror R310: open the sealed packet 'second' first: Second ('scarbook campaign open second') "
     "(After game 2.)"),
    ("open fallen", "recorded: packet fallen opened"),
    ("open fallen", "error R312: packet fallen is already open (a sealed packet is opened once)"),
    ("open second", "recorded: packet second opened"),
    ("game start --play Ann --play Bob", "recorded: game starts: Ann, Bob"),
    ("where raid", "raid cannot go anywhere now (try 'scarbook campaign place raid TARGET --dry-run' to see why)"),
    ("place raid a-isle", "error R310: open the sealed packet 'guarded' first: Guarded (Open before the first Raid.; "
     "t § guarded)"),
    ("open guarded", "recorded: packet guarded opened"),
    ("where raid", "a-isle\nb-isle"),
    ("place raid a-isle", "recorded: raid on a-isle"),
]


def test_every_trigger_the_tracker_can_tell(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert run_script(f"new {{file}} --game {PACKS / 'trigger-isles'} --player Ann --player Bob\n", file) == []
    play_transcript(file, TRIGGERS)


RISK_LEGACY = [
    ("game start --play Ann=khan-industries --play Bob=saharan-republic --play Cat=die-mechaniker,khan-industries",
     "error R303: Cat plays two of faction: die-mechaniker and khan-industries (a Risk Legacy game records each "
     "player's faction, each played by one player; Risk Legacy rulebook § Player Set Up)"),
    ("game start --play Ann=khan-industries --play Bob=saharan-republic --play Cat=die-mechaniker",
     "recorded: game starts: Ann as khan-industries, Bob as saharan-republic, Cat as die-mechaniker"),
    ("tick alaska", "error R320: alaska has no mark with boxes to tick (boxes are ticked on a mark that has them; "
     "Risk Legacy rulebook § If you won; Risk Legacy rulebook § Fortifications)"),
    ("game end --winner Ann --lost khan-industries",
     "error R307: nothing is lost for good in game 1; leave out --lost khan-industries (only the games whose rules "
     "say so remove a piece for good; Risk Legacy rulebook § Before the first turn)"),
    ("destroy alaskaa", "error R102: 'alaskaa' is not a card that can be destroyed (did you mean 'alaska'?); see "
     "'scarbook campaign where card-destroyed' (only the cards the game's rules let you destroy)"),
    ("link x alaska brazil --by Zed", "error R104: 'Zed' is not a player of this campaign; players: Ann, Bob, Cat (a "
     "campaign's players are those named when it began ('scarbook campaign new --player NAME'); "
     "Risk Legacy rulebook § Player Set Up)"),
]


def test_risk_legacy_game_refusals(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert run_script(SETUP, file) == []
    play_transcript(file, RISK_LEGACY)


PLAYS = "--play Ann=khan-industries --play Bob=saharan-republic --play Cat=die-mechaniker"
RL = "Risk Legacy rulebook"
REWARDS_AND_BOXES = [  # Risk Legacy, game 1 in progress: rewards owed, passing them, a fortification worn down
    ("game end --winner Ann", "recorded: game ends: Ann wins; held on: Bob, Cat"),
    ("place minor-city peru --name Lima", "error R205: say who takes it with --by NAME (rewards go to players by "
     f"their result; {RL} § If you held on but did not win)"),  # two held on: the tracker cannot tell whose
    ("pass winner-reward --by Ann", "error R332: 'The winner's reward' is owed and a continent-name can still go on "
     f"north-america, south-america, europe, africa, asia … (The winner's reward: the winner; {RL} § If you won)"),
    ("destroy alaska --by Zed", "error R104: 'Zed' is not a player of this campaign; players: Ann, Bob, Cat (a "
     "campaign's players are those named when it began ('scarbook campaign new --player NAME'); "
     f"{RL} § Player Set Up)"),
    ("place major-city alaska --by Ann --name Ankh", "recorded: major-city 'Ankh' on alaska by Ann"),
    ("place minor-city peru --by Bob --name Lima", "recorded: minor-city 'Lima' on peru by Bob"),
    ("place minor-city egypt --by Cat --name Cairo", "recorded: minor-city 'Cairo' on egypt by Cat"),
    (f"game start {PLAYS}", "recorded: game starts: Ann as khan-industries, Bob as saharan-republic, Cat as "
     "die-mechaniker"),
    ("game end --winner Ann", "recorded: game ends: Ann wins; held on: Bob, Cat"),
    ("place fortification alaska --by Ann", "recorded: fortification on alaska by Ann"),
    ("tick alaska", "error R320: no game is in progress: boxes on alaska's fortification are ticked during a game (a "
     f"box is ticked after an attack on it; {RL} § If you won; {RL} § Fortifications)"),
    ("place minor-city brazil --by Bob --name Rio", "recorded: minor-city 'Rio' on brazil by Bob"),
    ("place minor-city china --by Cat --name Xian", "recorded: minor-city 'Xian' on china by Cat"),
    ("open second-signature", "recorded: packet second-signature opened"),
    ("place rules-addition-f rules-addition-f", "recorded: rules-addition-f on rules-addition-f"),
    (f"game start {PLAYS}", "recorded: game starts: Ann as khan-industries, Bob as saharan-republic, Cat as "
     "die-mechaniker"),
    ("tick alaska --boxes 9", "recorded: 9 boxes ticked on alaska"),
    ("tick alaska --boxes 2", "error R320: alaska has 1 box left, not 2 (a Fortification has 10 boxes; "
     f"{RL} § If you won; {RL} § Fortifications)"),
    ("tick alaska", "recorded: 1 box ticked on alaska"),
    ("tick alaska", f"error R320: alaska has 0 boxes left, not 1 (a Fortification has 10 boxes; {RL} § If you won; "
     f"{RL} § Fortifications)"),
]


def test_rewards_passes_and_fortification_boxes(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert run_script(SETUP + START + "\n", file) == []
    play_transcript(file, REWARDS_AND_BOXES)


RL_REF = "Risk Legacy component scans"
BEFORE_GAME_1 = [  # Risk Legacy as created: nothing set up yet; what is typed wrong, what is still sealed
    (f"game start {PLAYS}", "error R221: 12 coins of the before-first-game supply still to place before game 1 "
     f"(the 12 coins of the resource deck are placed before the first game; {RL} § Customize the Resource Deck)\n"
     "error R221: first-game-power still to place on die-mechaniker, enclave-of-the-bear, imperial-balkania, "
     "khan-industries, saharan-republic before game 1 (every faction gets one of its two starting powers before the "
     f"first game; {RL} § Customize the Factions)\n" + NOT_WRITTEN),
    ("place no-such alaska", "error R101: unknown sticker 'no-such'; stickers: coin, minor-city, major-city, "
     "fortification, scar-cancel, continent-plus-one, continent-minus-one, continent-name, card-destroyed, "
     "first-game-power, bunker, ammo-shortage (the stickers and marks of Risk Legacy are those its content lists; "
     f"{RL} § If you won; {RL} § If you held on but did not win; {RL_REF} § Sticker sheet inventory (H for cities, "
     "cancel and coins before game 1; M for the rest))"),
    ("place mercenary alaska", "error R310: 'mercenary' is sealed in the packet 'faction-eliminated' (Packet for an "
     "eliminated faction): open packet faction-eliminated first ('scarbook campaign open faction-eliminated') (Open "
     f"when a faction is eliminated.; Risk Legacy rulebook § Sealed Components; {RL_REF} § Sealed packets: only their "
     "names and triggers (H))"),
    ("place minor-city nowhere", "error R102: 'nowhere' is not a territory that a Minor City can go on; see 'scarbook "
     f"campaign where minor-city' (a Minor City goes on a territory; {RL} § If you held on but did not win; {RL} § "
     "Territories and Population (Cities))"),
    ("place major-city alaska --by Ann", f"error R211: no game has ended yet (rewards are taken after a game; {RL} § "
     "End of the Game)\nerror R224: give the Major City its name with --name TEXT (the player names it; "
     f"{RL} § If you won; {RL} § Before the first turn)"),
    ("where first-game-power", "die-mechaniker\nenclave-of-the-bear\nimperial-balkania\nkhan-industries\n"
     "saharan-republic"),  # a power-choice sticker goes on every faction that still has a power to choose
    ("pass winner-reward --by Ann", "error R330: there is no step to pass now: no game has ended, or one is in "
     f"progress (the steps of a game are taken after it ends, before the next game starts; {RL} § End of the Game)"),
    ("game start --play Ann=khan-industries --play Bob=saharan-republic --play Ann",  # not also 'say which faction'
     "error R221: 12 coins of the before-first-game supply still to place before game 1 (the 12 coins of the "
     f"resource deck are placed before the first game; {RL} § Customize the Resource Deck)\n"
     "error R221: first-game-power still to place on die-mechaniker, enclave-of-the-bear, imperial-balkania, "
     "khan-industries, saharan-republic before game 1 (every faction gets one of its two starting powers before the "
     f"first game; {RL} § Customize the Factions)\n"
     f"error R303: Ann is given twice in this game (each player plays once; {RL} § Player Set Up)\n" + NOT_WRITTEN),
]


def test_refusals_before_the_first_game(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert run_script("new {file} --game risk-legacy --player Ann --player Bob --player Cat\n", file) == []
    play_transcript(file, BEFORE_GAME_1)


def test_shadow_forces_refusals_before_the_first_game(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert run_script("new {file} --game risk-shadow-forces --player Ann --player Bob --player Cat\n", file) == []
    play_transcript(file, [  # game 1 is a global game (game 2, a skirmish, is played with warlords only)
        ("game end --winner Ann", "error R302: no game is in progress; start one with 'scarbook campaign game start "
         "--play NAME=FACTION,WARLORD ...' (a game ends after it started; Risk: Shadow Forces rulebook § End of the "
         "Global Game)\n" + NOT_WRITTEN),
    ])
