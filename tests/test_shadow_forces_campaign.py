"""Risk: Shadow Forces played through the tracker from the warlord draft to the overall winner.

`campaigns/risk-shadow-forces-15.txt` mixes every kind of end-of-game step with illegal moves
(each refused with the file unchanged, by the runner); these tests then read the end state.
The generator `campaigns/make_shadow_forces.py` wrote games 4-15 of the script.

Slow: the 300-line script (its one play per run, campaigns.helpers.play_once / play_prefix) and the tests that
read its states.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from campaigns.helpers import invoke, play_once, play_prefix, play_transcript, run_script, script, set_cache

from conftest import check_golden, snapshot
from conftest import refused as refuses

pytestmark = pytest.mark.slow  # replays a 300-line campaign


REFUSALS: list[str] = []  # every refused line of the script with what it printed, filled by `world`


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    mp = pytest.MonkeyPatch()
    set_cache(mp, tmp_path_factory)
    file = tmp_path_factory.mktemp("sf") / "shadow.yaml"
    REFUSALS.clear()  # a second pytest run in the same process (mutmut) fills it anew
    failures = play_once(script("risk-shadow-forces-15.txt"), file, refusals=REFUSALS)
    assert not failures, "\n".join(failures)
    yield file
    mp.undo()


def status(file: Path) -> dict:  # type: ignore[type-arg]
    result = invoke(["status", "--format", "json"], file)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_every_refusal_word_for_word(world: Path) -> None:
    check_golden("risk-shadow-forces-15.refusals.txt", "".join(REFUSALS))


def test_whole_campaign_checks_clean(world: Path) -> None:
    result = invoke(["check"], world)
    assert result.exit_code == 0 and "all legal" in result.output, result.output


def test_overall_winner_tie_names_players_and_bonus(world: Path) -> None:
    data = status(world)
    assert data["games_played"] == 15 and [g["type"] for g in data["games"]][:3] == ["global", "skirmish", "global"]
    win = data["overall_winner"]
    assert win["players"] == ["Ann", "Bob", "Cat"] and win["signatures"] == 5 and win["tie"]
    named: dict[str, int] = {}
    for r in data["continents"]:  # every continent a player named: written on the board or on a new continent
        if r["named_by"]:
            named[r["named_by"]] = named.get(r["named_by"], 0) + 1
    assert named["Bob"] == 1  # Bob named continent NB-01 with its sticker (game 4) and no continent of the board
    assert win["roll_off_bonus"] == {p: named.get(p, 0) for p in ("Ann", "Bob", "Cat")}
    assert "roll off, adding Ann +5, Bob +1, Cat +4" in invoke(["status"], world).stdout


def test_tokens_by_the_content_formulas(world: Path) -> None:
    players = {p["name"]: p for p in status(world)["players"]}
    # all have signed: everyone takes one domination token; one cyber-operations token plus one per signature
    assert players["Ann"]["tokens"] == {"domination-token": 1, "cyber-operations-attack-token": 6}
    assert players["Bob"]["owns"] == {"warlord": ["raaz-garcia"]}


def test_lost_warlord_takes_no_upgrade_and_stats_move_one_step(world: Path) -> None:
    data = status(world)
    pieces = {p["piece"]: p for p in data["pieces"]}
    assert pieces["angus-smith"]["lost"] and not pieces["kai-weller"]["lost"]
    assert data["games"][12]["lost"] == ["angus-smith"]
    upgrades = [s for s in data["steps"] if s["game"] == 15]
    assert upgrades and all(s["done"] for s in upgrades)
    assert pieces["kai-weller"]["stats"]["melee_dice"] == 3


def test_every_sealed_packet_opened_after_its_game(world: Path) -> None:
    data = status(world)
    assert data["opened_packets"] == ["container-b", "envelope-c", "envelope-d", "envelope-e", "envelope-f"]
    text = script("risk-shadow-forces-15.txt")
    assert text.index("open container-b") > text.index("--winner Bob --eliminated Cat")  # game 2's end


def test_passes_are_kept_with_their_reason(world: Path) -> None:
    passes = status(world)["passes"]
    assert {"game": 1, "step": "warlord-upgrade", "by": "Ann", "for": "kai-weller",
            "why": "fewer than six stickers on the face-up upgrade cards"} in passes
    assert "pass warlord-upgrade --by Ann" in invoke(["log"], world).stdout or passes


FIVE = """
new {file} --game risk-shadow-forces --player A --player B --player C --player D --player E
place warlord-claim angus-smith --by A --name One
place warlord-claim cassandra-evans --by B --name Two
place warlord-claim jett-st-clair --by C --name Three
place warlord-claim kai-weller --by D --name Four
!R221 game start --play A=green-faction,angus-smith --play B=white-faction,cassandra-evans --play C=blue-faction,jett-st-clair --play D=yellow-faction,kai-weller --play E=red-faction,raaz-garcia
place warlord-claim raaz-garcia --by E --name Five
place devastation af-01
place devastation sa-02
game start --play A=green-faction,angus-smith --play B=white-faction,cassandra-evans --play C=blue-faction,jett-st-clair --play D=yellow-faction,kai-weller --play E=red-faction,raaz-garcia
game end --winner C --eliminated A
!R205 place continent-name asia --by B --name Nope
!R227 place continent-name asia --by C --name Skyreach
!R240 place angus-smith-warlord-sticker na-01 --by A
place jett-st-clair-warlord-sticker na-02 --by C
place angus-smith-warlord-sticker na-01 --by A
place cassandra-evans-warlord-sticker na-01 --by B
!R202 place kai-weller-warlord-sticker na-01 --by D
place kai-weller-warlord-sticker na-02 --by D
place raaz-garcia-warlord-sticker na-03 --by E
!R240 place warlord-upgrade-tactic angus-smith-warlord-deck --by A
place warlord-upgrade-tactic jett-st-clair-warlord-deck --by C
place warlord-upgrade-tactic angus-smith-warlord-deck --by A
place warlord-upgrade-tactic cassandra-evans-warlord-deck --by B
place warlord-upgrade-tactic kai-weller-warlord-deck --by D
place warlord-upgrade-tactic raaz-garcia-warlord-deck --by E
!R304 game start --play A=kai-weller --play B=cassandra-evans --play C=jett-st-clair --play D=angus-smith --play E=raaz-garcia
!R231 place restricted-operating-zone na-01 --by C
place restricted-operating-zone na-02 --by C
!R207 place continent-name asia --by C --name Skyreach
"""


def test_five_players_no_unassigned_warlord_and_zones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path_factory: pytest.TempPathFactory) -> None:
    set_cache(monkeypatch, tmp_path_factory)
    file = tmp_path / "five.yaml"
    assert not run_script(FIVE, file)
    data = status(file)
    assert not any(s["step"].endswith("-unassigned") for s in data["steps"])
    starts = {p["name"]: set(p["legal_starts"]) for p in data["players"]}
    assert "na-02" in starts["C"] and "na-02" not in starts["D"]  # C's zone beside C's own warlord sticker
    assert "af-01" not in starts["A"]  # devastated
    # a claimed warlord is its owner's: nobody else plays it, not even in a skirmish
    refused = invoke(["game", "start", "--play", "A=kai-weller", "--play", "B=cassandra-evans", "--play",
                      "C=jett-st-clair", "--play", "D=angus-smith", "--play", "E=raaz-garcia"], file)
    refuses(refused, "R303", file_before=snapshot(file))
    assert "error R303: kai-weller is D's warlord" in refused.output


GAME_WORDS = re.compile(r"missile|red.star|warlord|major.city|skirmish|domination|cyber|\brisk\b|shadow forces|"
                        r"\bcoins?\b|khan|alaska|devastat", re.IGNORECASE)


def test_tracker_python_names_no_game() -> None:
    root = Path(__file__).resolve().parent.parent / "campaign"
    hits = [f"{path.name}:{n}: {line.strip()}" for path in sorted(root.glob("*.py"))
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if GAME_WORDS.search(line)]
    assert not hits, "\n".join(hits)


def played_to_the_first_end(file: Path) -> tuple[Path, str, int]:
    """The opening script played into `file` up to and including the end of game 1: the file, the script and
    where in it game 1 ends."""
    opening = script("risk-shadow-forces-opening.txt")
    first_end = opening.index("game end --winner Ann --held-on Bob --eliminated Cat")
    assert not run_script(opening[:first_end] + "game end --winner Ann --held-on Bob --eliminated Cat\n", file)
    return file, opening, first_end


def test_status_lists_every_owed_step_even_those_waiting_for_earlier_ones(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path_factory: pytest.TempPathFactory
                                                                          ) -> None:
    set_cache(monkeypatch, tmp_path_factory)
    file, _opening, _first_end = played_to_the_first_end(tmp_path / "three.yaml")
    owed = [(o["player"], o["role"]) for o in status(file)["owed_rewards"]]
    assert ("Ann", "Place a warlord sticker for a warlord nobody played for cassandra-evans") in owed
    assert ("Cat", "Place a warlord sticker for angus-smith") in owed
    assert owed.index(("Cat", "Place a warlord sticker for angus-smith")) < owed.index(
        ("Ann", "Place a warlord sticker for a warlord nobody played for cassandra-evans"))


def test_where_waits_for_the_earlier_steps_and_lines_owed_are_counted(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path_factory: pytest.TempPathFactory
                                                                       ) -> None:
    set_cache(monkeypatch, tmp_path_factory)
    file, opening, first_end = played_to_the_first_end(tmp_path / "opening.yaml")
    steps = opening[first_end:].splitlines(keepends=True)[1:20]  # warlord stickers, upgrades passed
    assert steps[-1].startswith("pass warlord-upgrade-unassigned --by Ann --for jett-st-clair")
    nowhere = ("continent-name cannot go anywhere now for Ann (try 'scarbook campaign place continent-name TARGET "
               "--dry-run' to see why)")
    play_transcript(file, [
        ("where continent-name --by Ann", nowhere),  # a global game's steps go in order
        ("place kai-weller-warlord-sticker na-01", "error R205: say who takes the Kai Weller warlord sticker with --by "
         "NAME (each step is taken by a player)"),  # three players owe a warlord sticker: no default
    ])
    assert not run_script("".join(steps), file)
    play_transcript(file, [
        ("where continent-name --by Ann", "north-america\nsouth-america\neurope\nafrica\nasia\naustralia"),
        ("place kai-weller-warlord-sticker na-05 --by Ann", "error R238: kai-weller-warlord-sticker on na-01 (line 33) "
         "is already placed after game 1 (at most 1 warlord sticker per warlord per game; Risk: Shadow Forces "
         "rulebook § End of the Global Game)"),
    ])

    file = tmp_path / "lines.yaml"  # game 2's new continent TS: one of ts-01's two lines drawn, none of ts-02's
    text = script("risk-shadow-forces-15.txt")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("link continent-sticker-ts ts-01 sa-04"))
    assert not play_prefix(text, at + 1, file)
    why = ("(After applying the sticker the player connects each new territory to two different territories with "
           "lines, then may draw one more line.; Risk: Shadow Forces rulebook § Game 2 (Skirmish): In Search of Answers)")
    play_transcript(file, [(
        "game start --play Ann=green-faction,kai-weller --play Bob=white-faction,raaz-garcia --play Cat=blue-faction,"
        "angus-smith",
        "error R344: ts-01 still needs 1 line of the continent-sticker-ts ('scarbook campaign link continent-sticker-ts "
        f"ts-01 TERRITORY') {why}\nerror R344: ts-02 still needs 2 lines of the continent-sticker-ts ('scarbook "
        f"campaign link continent-sticker-ts ts-02 TERRITORY') {why}\nerror R344: ag-01 still needs 2 lines of the "
        f"continent-sticker-ag ('scarbook campaign link continent-sticker-ag ag-01 TERRITORY') {why}\n"
        "nothing was written")])


def test_a_lost_warlord_owes_no_stat_upgrade(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    set_cache(monkeypatch, tmp_path_factory)
    file = tmp_path / "lost.yaml"
    text = script("risk-shadow-forces-15.txt")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("game end --winner Bob --lost angus-smith"))
    assert not play_prefix(text, at + 1, file)  # game 13, a skirmish
    play_transcript(file, [
        ("place warlord-stat-upgrade angus-smith --by Cat --name melee_dice --value 3", "error R205: Cat has no step "
         "after game 13 that places a Warlord stat upgrade sticker (Upgrade a stat on the main warlord card: every "
         "player; Risk: Shadow Forces rulebook § End of the Skirmish Game)"),
    ])


def test_game_twelve_adds_its_own_start_check(world: Path) -> None:
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.rules import legal_starts, start_problem

    replay = Campaign(read(world)).replay()
    content, state = replay.content, replay.state
    own = next(t for t, marks in state.marks.items() for m in marks
               if m.active and m.sticker == "kai-weller-warlord-sticker" and t in content.territories
               and not state.has(t, "restricted-operating-zone") and not state.has(t, "devastation"))
    problem = start_problem(content, state, "Ann", own, 12)
    assert problem is not None and "Game 12 (Global)" in problem.cite and "your own warlord is there" in problem.message
    assert start_problem(content, state, "Ann", own, 13) is None  # only game 12 adds the check
    free = [n for n in content.game.neighbors()[own] if start_problem(content, state, "Ann", n, 13) is None]
    assert free, "a neighbour that is a legal start in other games"
    near = start_problem(content, state, "Ann", free[0], 12)
    assert near is not None and "Game 12" in near.cite and "your own warlord is" in near.message
    # the legal starts listed are those of the next game: game 12 after 11 games, game 13 after 12
    assert own not in legal_starts(content, dataclasses.replace(state, games=state.games[:11]), "Ann")
    assert own in legal_starts(content, dataclasses.replace(state, games=state.games[:12]), "Ann")


def test_a_game_after_the_campaign_is_played_but_gives_no_rewards(world: Path, tmp_path: Path) -> None:
    file = tmp_path / "after.yaml"
    file.write_bytes(world.read_bytes())
    plays = "--play Ann=green-faction,kai-weller --play Bob=white-faction,raaz-garcia --play Cat=blue-faction,angus-smith"
    play_transcript(file, [
        (f"game start {plays}", "recorded: game starts: Ann as green-faction and kai-weller, Bob as white-faction "
         "and raaz-garcia, Cat as blue-faction and angus-smith"),
        ("game end --winner Bob", "recorded: game ends: Bob wins; held on: Ann, Cat"),
        ("place warlord-upgrade-tactic kai-weller-warlord-deck --by Ann", "error R208: game 16 gives no rewards (only "
         "the first 15 games give rewards; Risk: Shadow Forces rulebook § End of the Global Game)"),
        ("game start --type skirmish --play Ann=green-faction --play Bob=raaz-garcia --play Cat=angus-smith",
         "error R303: 'green-faction' is not a warlord of this game; choose from: angus-smith, cassandra-evans, "
         "jett-st-clair, kai-weller, raaz-garcia, xenia-jones (a skirmish game records each player's warlord, each "
         "played by one player; Risk: Shadow Forces rulebook § Before You Start Game 1)"),  # the type asked for, unscheduled
        (f"game start {plays}", "recorded: game starts: Ann as green-faction and kai-weller, Bob as white-faction "
         "and raaz-garcia, Cat as blue-faction and angus-smith"),
    ])
    assert status(file)["games_played"] == 16
