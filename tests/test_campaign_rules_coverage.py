"""The permanent-change rules of issue 23, each tried legal and illegal (docs/rules-coverage.md names these tests).

Each test replays the scripted campaign (tests/campaigns/) up to the moment a rule bites, then runs a short
script: `!CODE` lines must be refused with that code and leave the ledger byte-identical (run_script checks
both), the others must be recorded. The rules are all content (the scoped `limit`, `game-type`, steps bound to
their game type, schedule `draft` / `places` / `returns`, `links.by: placer`, `owed_when_opened`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, play_prefix, run_script, script, set_cache


@pytest.fixture(autouse=True)
def _cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    set_cache(monkeypatch, tmp_path_factory)


def sf_until(file: Path, stop: str, occurrence: int = 1) -> None:
    """The scripted Shadow Forces campaign, up to (not including) the `occurrence`-th line starting with `stop` (from
    one play of the script per test run: campaigns.helpers.play_prefix)."""
    text = script("risk-shadow-forces-15.txt")
    lines = text.splitlines(keepends=True)
    seen = 0
    for i, line in enumerate(lines):
        if line.startswith(stop):
            seen += 1
            if seen == occurrence:
                assert not play_prefix(text, i, file)
                return
    raise AssertionError(f"no line {stop!r}")


def first_error(file: Path, line: str) -> str:
    import shlex

    return str(invoke(shlex.split(line), file).output.splitlines()[0])


# --- 1. a step belongs to the game type that offers it ---------------------------------------------------------
def test_a_skirmish_stat_upgrade_after_a_global_game_and_a_global_sticker_after_a_skirmish(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "# --- game 2")  # game 1 (global) ended, its steps taken
    assert not run_script("!R239 place warlord-stat-upgrade kai-weller --by Ann --name melee_dice --value 4\n"
                          "game start --play Ann=kai-weller --play Bob=jett-st-clair --play Cat=angus-smith\n"
                          "game end --winner Bob --eliminated Cat\n"
                          "!R239 place kai-weller-warlord-sticker na-05 --by Ann\n"  # a global game's sticker
                          "!R239 place raaz-garcia-warlord-sticker na-05 --by Ann\n"  # and another player's warlord
                          "place warlord-stat-upgrade jett-st-clair --by Bob --name range_to_hit --value 4\n"
                          "place warlord-stat-upgrade kai-weller --by Ann --name shield_dice --value 3\n", file)
    out = first_error(file, "place kai-weller-warlord-sticker na-06 --by Ann")
    assert out.startswith("error R239: game 2 was a skirmish game, and no step after it places a Kai Weller warlord "
                          "sticker (it is 'Place a warlord sticker', after a global game)"), out
    assert "Risk: Shadow Forces rulebook § End of the Global Game" in out


def test_scar_cards_only_in_global_games(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "game end --winner Bob --eliminated Cat")  # game 2, a skirmish, in progress
    assert not run_script("!R239 place bunker na-05 --by Ann\n", file)
    assert "§ Setup Before Every Global Game" in first_error(file, "place bunker na-05 --by Ann")


def test_another_players_warlord_sticker_is_refused_after_a_global_game(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "!R205 place kai-weller-warlord-sticker na-01 --by Bob")
    assert not run_script("!R205 place kai-weller-warlord-sticker na-01 --by Bob\n"
                          "place kai-weller-warlord-sticker na-01 --by Ann\n", file)


# --- 2. the scoped limit ----------------------------------------------------------------------------------------
def test_risk_legacy_one_scar_card_per_player_per_game(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\n!R238 place bunker peru\nplace bunker peru --by Ann\n"
                          "!R238 place ammo-shortage brazil --by Ann\nplace ammo-shortage brazil --by Bob\n"
                          "game end --winner Ann\nplace major-city egypt --by Ann --name Cairo\n"
                          "place coin china --by Bob\nplace coin india --by Cat\n" + START
                          + "\nplace bunker alaska --by Ann\n", file)  # a new game: a new scar card
    out = first_error(file, "place ammo-shortage japan --by Ann")
    assert out == ("error R238: Ann already placed bunker on alaska (line 35) in game 2 (at most 1 scar card per "
                   "player per game; Risk Legacy rulebook § Scars Cards)"), out


def test_tactic_drafts_three_a_draft_one_a_faction_and_the_supply_never_negative(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "place extra-tactic green-faction")  # game 5 in progress, its draft
    assert not run_script("place extra-tactic green-faction\n"
                          "!R238 place extra-tactic green-faction\n"  # one per faction
                          "place extra-tactic white-faction\nplace extra-tactic blue-faction\n"
                          "!R201 place extra-tactic red-faction\n", file)  # three a draft: none left
    data = json.loads(invoke(["status", "--format", "json"], file).stdout)
    left = next(s for s in data["stickers"] if s["sticker"] == "extra-tactic")
    assert left["placed"] == 3 and left["left"] == 0


def test_a_draft_only_in_the_game_that_has_one(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "# --- game 12")
    assert not run_script("game start --play Ann=green-faction,kai-weller --play Bob=white-faction,raaz-garcia "
                          "--play Cat=blue-faction,angus-smith\n!R238 place energy-tactic red-faction\n", file)
    assert "game 12 has no draft of Energy tactic sticker" in first_error(file, "place energy-tactic red-faction")


def test_one_eco_station_fortification_after_game_4_never_after_game_1(tmp_path: Path) -> None:
    early = tmp_path / "early.yaml"
    sf_until(early, "# --- game 2")
    assert not run_script("!R220 place fortification eu-05 --by Bob\n", early)
    file = tmp_path / "c.yaml"
    sf_until(file, "open envelope-c")  # game 4's steps taken
    assert not run_script("place fortification eu-05 --by Bob\n!R238 place fortification eu-06 --by Bob\n", file)


def test_one_xenia_sticker_after_game_2_and_owed_before_game_3(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "place xenia-jones-warlord-sticker as-02")
    start3 = ("game start --play Ann=green-faction,kai-weller --play Bob=white-faction,raaz-garcia "
              "--play Cat=blue-faction,angus-smith")
    assert not run_script(f"!R221 {start3}\nplace xenia-jones-warlord-sticker as-02\n"
                          "!R238 place xenia-jones-warlord-sticker as-03\n", file)


# --- 3. timing windows ------------------------------------------------------------------------------------------
def test_risk_legacy_scars_are_played_during_a_game_not_between_games(tmp_path: Path) -> None:
    """§ Playing a Scar Card: a scar card is played at the start of a turn (or before an attack roll), so during a
    game; before game 1 and between games it is refused."""
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + "!R230 place bunker peru --by Ann\n" + START + "\nplace bunker peru --by Ann\n"
                          "game end --winner Ann --held-on Bob --held-on Cat\n"
                          "!R230 place ammo-shortage brazil --by Bob\n", file)
    out = first_error(file, "place ammo-shortage brazil --by Bob")
    assert out == ("error R230: no game is in progress (an Ammo Shortage is placed during a game; Risk Legacy "
                   "rulebook § Playing a Scar Card)"), out


# --- 4. owners ----------------------------------------------------------------------------------------------------
def test_only_the_placer_of_a_new_continent_draws_its_lines(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "link continent-sticker-nb nb-01 eu-01 --by Bob")
    assert not run_script("!R346 link continent-sticker-nb nb-01 eu-01 --by Ann\n"
                          "!R346 link continent-sticker-nb nb-01 eu-01\n"
                          "link continent-sticker-nb nb-01 eu-01 --by Bob\n", file)


def test_a_warlord_lost_in_game_13_returns_in_game_14_for_a_price(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "# --- game 15")
    data = json.loads(invoke(["status", "--format", "json"], file).stdout)
    game14 = data["games"][13]
    assert game14["returned"] == {"angus-smith": "the player starts with no warlord cards and 2 energy instead of "
                                                 "5, for this game only"}
    assert data["games"][14:] == [] and not data["games"][12]["returned"]


# --- 5. what an opened envelope adds goes in place before the next game ------------------------------------------
def test_shadow_forces_rules_stickers_go_in_place_before_the_next_game(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "place rules-sticker-c-1 rules-addition-a")
    start5 = ("game start --play Ann=green-faction,kai-weller --play Bob=white-faction,raaz-garcia "
              "--play Cat=blue-faction,angus-smith")
    out = first_error(file, start5)
    assert out.startswith("error R315: Rules sticker 1 of envelope C from the opened packet 'envelope-c' is not in "
                          "place yet"), out
    assert "Risk: Shadow Forces rulebook § Game 4 (Skirmish)" in out
    assert not run_script(f"!R315 {start5}\nplace rules-sticker-c-1 rules-addition-a\n"
                          "!R238 place rules-sticker-c-2 rules-addition-a\n"  # one rules sticker a bracket
                          "place rules-sticker-c-2 rules-addition-b\n", file)


# --- 6. records -----------------------------------------------------------------------------------------------------
def test_status_shows_a_raised_unknown_stat_as_raised(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    sf_until(file, "open envelope-c")  # Bob raised Raaz Garcia's Cyber-Tech after game 4
    text = invoke(["status"], file).output
    assert "cyber_tech ? +1" in text and "cyber_tech ?," not in text.split("raaz-garcia", 1)[-1].split("\n")[0]


SEATED = START + " --seating Ann,Cat,Bob"  # clockwise from Ann: Cat, then Bob


def test_held_on_players_choose_clockwise_from_the_winner(tmp_path: Path) -> None:
    """§ If you held on but did not win: "Proceeding clockwise from the winner, each player who Held On chooses"."""
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + SEATED + "\ngame end --winner Ann --held-on Bob --held-on Cat\n"
                          "place major-city egypt --by Ann --name Cairo\n"
                          "!R240 place coin china --by Bob\n"  # Cat sits first after Ann
                          "place coin india --by Cat\nplace coin china --by Bob\n"
                          # the seating is kept: game 2, Bob wins, clockwise from Bob: Ann, then Cat
                          + START + "\ngame end --winner Bob --held-on Ann --held-on Cat\n"
                          "place major-city peru --by Bob --name Lima\n"
                          "!R240 place coin japan --by Cat\nplace coin japan --by Ann\nplace coin brazil --by Cat\n",
                          file)
    assert not run_script("!R309 " + START + " --seating Ann,Bob\n!R309 " + START + " --seating Ann,Bob,Cat,Ann\n"
                          "!R309 " + START + " --seating Ann,Bob,Zed\n", file)
    assert json.loads(invoke(["status", "--format", "json"], file).stdout)["games"][1]["seating"] == ["Ann", "Cat",
                                                                                                      "Bob"]
    out = first_error(file, START + " --seating Ann,Bob")
    assert out == ("error R309: the seating leaves out Cat, who plays this game (--seating lists the players of "
                   "the game clockwise around the table, each once; Risk Legacy rulebook § If you held on but did "
                   "not win)"), out


def test_without_a_seating_the_order_is_the_players_word(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --held-on Bob --held-on Cat\n"
                          "place coin china --by Bob\nplace coin india --by Cat\n", file)
    refusal = SETUP + SEATED + "\ngame end --winner Ann --held-on Bob --held-on Cat\n"
    assert not run_script(refusal, other := tmp_path / "d.yaml")
    out = first_error(other, "place coin china --by Bob")
    assert out == ("error R240: Cat chooses 'A held-on player's reward' before Bob (clockwise from the winner, Ann: "
                   "Cat, Bob); wait for Cat's choice (A held-on player's reward: in turn, clockwise from the winner; "
                   "Risk Legacy rulebook § If you held on but did not win)"), out


def test_a_game_start_asks_for_the_starting_territories_the_faction_cards_record(tmp_path: Path) -> None:
    """§ Before the first turn: players write their starting territory on their faction card. A game start
    without them is recorded with a note that asks for them; with every start given, no note."""
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP, file)
    asked = invoke([*START.split(), "--start", "Ann=peru"], file)
    assert asked.exit_code == 0, asked.output
    assert ("note: 'Record the game on the faction cards' writes down each player's starting territory; not "
            "recorded for Bob, Cat. Undo and start again with --start NAME=TERRITORY to keep it (Risk Legacy "
            "rulebook § Before the first turn)") in asked.output
    assert invoke(["undo"], file).exit_code == 0
    given = invoke([*START.split(), "--start", "Ann=peru", "--start", "Bob=egypt", "--start", "cat=china"], file)
    assert given.exit_code == 0 and "note:" not in given.output, given.output
    game = json.loads(invoke(["status", "--format", "json"], file).stdout)["games"][0]
    assert game["starts"] == {"Ann": "peru", "Bob": "egypt", "Cat": "china"} and game["seating"] == [], game
    # the option off: a house rule's pack patches the record step to write no starting territory down
    pack = tmp_path / "no-starts"
    pack.mkdir()
    (pack / "pack.yaml").write_text("source: {cite: \"homebrew: no starts\"}\n"
                                    "pack: {id: no-starts, title: No starts, extends: risk-legacy}\n"
                                    "steps:\n  - {game_type: game, id: record, patch: true, records: []}\n", "utf-8")
    other = tmp_path / "d.yaml"
    assert not run_script(SETUP.replace("--player Cat", f"--player Cat --pack {pack}"), other)
    quiet = invoke(START.split(), other)
    assert quiet.exit_code == 0 and "note:" not in quiet.output, quiet.output
