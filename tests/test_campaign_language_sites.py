"""Every rule site that takes a condition of the campaign language, each both ways, through the CLI.

A sticker's `when` check (R241), a packet's trigger, `owed_when` with `when` (per target, per player, at once:
R316, R317), a step's `when`, the campaign's `end` (R351) and `outcome` (standings with tie-breaks, a team
result), derived `levels` in status, a graph of `scenarios` chosen at `game start` (R352), scores at `game end`.
The game is tests/test_campaign_language.py's Option Isles with the parts the language reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_campaign_language import language_game
from test_homebrew_options import CITE, _sticker, campaign, do, no, run, status

START = "game start --play Ann=kai --play Bob=raaz --scenario s01"


def with_(*edits: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        language_game(data)
        for e in edits:
            e(data)
    return edit


def sticker(sid: str, targets: list[str], **more: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["stickers"].append(_sticker(sid, sid, targets, **more))
    return edit


def camp(key: str, value: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["game"]["campaign"][key] = value
    return edit


# --- a sticker's placement: any condition ------------------------------------------------------------------
HALL = {"check": "when", "cite": CITE, "text": "a hall goes on your own land, or anywhere once the chest is open",
        "when": {"any": [{"owner": "target", "equals": {"who": "actor"}}, {"opened": "chest"}]}}


def test_a_when_check_takes_an_or_and_says_which_part_failed(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_(sticker("hall", ["territory"], checks=[HALL])))
    do(file, "place deed north --by Ann", "place deed south --by Bob")
    no(file, "place hall d-isle --by Ann", "R241", "none of these holds: the owner of d-isle: Bob; Ann needed; or "
       "not so: packet chest is open (a hall goes on your own land, or anywhere once the chest is open")
    do(file, "place hall a-isle --by Ann")  # her own land
    do(file, "place hut b-isle --by Ann", "open chest", "place hall d-isle --by Ann")  # the chest is open


def test_not_negates_a_named_check(tmp_path: Path) -> None:
    apart = {"check": "when", "cite": CITE, "when": {"not": {"check": "next-to", "kind": "hut", "cite": CITE}}}
    file = campaign(tmp_path, with_(sticker("camp", ["territory"], checks=[apart])))
    do(file, "place hut a-isle --by Ann")
    no(file, "place camp b-isle --by Ann", "R241", "not so: next-to (kind hut) holds")
    do(file, "place camp c-isle --by Ann")


# --- a packet's trigger: any condition ---------------------------------------------------------------------
def test_a_trigger_waits_for_every_part_of_all(tmp_path: Path) -> None:
    def both(data: dict[str, Any]) -> None:
        data["envelopes"][0]["trigger"]["when"] = {"all": [{"held": "hut"}, {"scenario": "s01", "equals": "won"}]}

    file = campaign(tmp_path, with_(both))
    do(file, "place hut a-isle --by Ann")
    no(file, "open chest", "R313")  # a hut, but The Landing is not won
    do(file, START, "game end --winner Ann", "place crown a-isle --by Ann", "open chest")


# --- obligations: per target, per player, at once ----------------------------------------------------------
BANNER = {"id": "banner-owed", "targets": "region", "place": "banner", "text": "a region with two huts raises a "
          "banner", "cite": CITE, "when": {"count": {"sticker": "hut", "in": "target"}, "at_least": 2}}


def test_an_obligation_per_target_on_a_condition(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_(sticker("banner", ["region"]), camp("owed_when", [BANNER])))
    do(file, "place hut a-isle --by Ann", "open chest", START)  # one hut: nothing owed
    do(file, "game end --winner Ann", "place crown a-isle --by Ann", "place hut b-isle --by Ann")
    assert [o["said"] for o in status(file)["owed"]] == ["banner on north"]
    no(file, "game start --play Ann=kai --play Bob=raaz --scenario s02", "R316", "a Banner is owed on north")
    do(file, "place banner north", "game start --play Ann=kai --play Bob=raaz --scenario s02")


def test_an_obligation_at_once_comes_before_any_other_placement(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_(sticker("banner", ["region"]), camp("owed_when", [{**BANNER, "at_once": True}])))
    do(file, "place hut a-isle --by Ann", "place coin c-isle --by Bob")  # not owed yet: anything goes
    do(file, "place hut b-isle --by Ann")
    no(file, "place coin c-isle --by Bob", "R317", "first banner on north")
    do(file, "place banner north", "place coin c-isle --by Bob")


def test_an_obligation_per_player(tmp_path: Path) -> None:
    medal = {"id": "medal-owed", "each": "player", "place": "medal", "text": "a winner takes a medal",
             "cite": CITE, "when": {"wins": "actor", "at_least": 1}}
    file = campaign(tmp_path, with_(sticker("medal", ["hero-card"]), camp("owed_when", [medal])))
    do(file, START, "game end --winner Ann", "place crown a-isle --by Ann")
    assert [o["said"] for o in status(file)["owed"]] == ["Ann owes medal"]  # Bob has not won
    no(file, "game start --play Ann=kai --play Bob=raaz --scenario s02", "R316", "is owed by Ann")
    do(file, "place medal kai --by Ann", "game start --play Ann=kai --play Bob=raaz --scenario s02")


# --- an end-of-game step on a condition --------------------------------------------------------------------
def test_a_step_is_owed_only_where_its_condition_holds(tmp_path: Path) -> None:
    def crown_when(data: dict[str, Any]) -> None:
        step = next(s for s in data["game"]["campaign"]["game_types"][0]["steps"] if s["id"] == "crown")
        step["when"] = {"count": {"kind": "hut", "own": "actor"}, "at_least": 1}

    file = campaign(tmp_path, with_(crown_when))
    do(file, "place deed north --by Ann", START, "game end --winner Ann")
    do(file, "game start --play Ann=kai --play Bob=raaz --scenario s02")  # no hut of her own: no crown owed
    do(file, "place hut a-isle --by Ann", "game end --winner Ann")
    no(file, "game start --play Ann=kai --play Bob=raaz --scenario s02", "R352")  # (s02 is won now)
    no(file, "game start --play Ann=kai --play Bob=raaz", "R304", "Crown an isle (Ann)")


# --- the campaign's end and outcome ------------------------------------------------------------------------
RANKED = {"rank_by": [{"score": {"total": True}}, {"wins": "actor"}], "text": "most points; ties by games won",
          "cite": CITE}


def test_the_campaign_ends_on_a_condition_and_ranks_with_tie_breaks(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_(camp("end", {"when": {"game": "played", "at_least": 2}, "text": "two games",
                                                 "cite": CITE}), camp("outcome", RANKED)))
    do(file, START, "game end --winner Bob --score Ann=5 --score Bob=3", "place crown b-isle --by Bob")
    data = status(file)["outcome"]
    assert not data["over"] and data["winners"] == []
    do(file, "game start --play Ann=kai --play Bob=raaz --scenario s02",
       "game end --winner Bob --score Ann=1 --score Bob=3")
    data = status(file)["outcome"]
    assert data["over"] and data["winners"] == ["Bob"]  # 6 each; Bob won two games
    assert [(r["player"], r["rank"], r["values"]) for r in data["standings"]] == [("Bob", 1, [6, 2]),
                                                                                 ("Ann", 2, [6, 0])]
    text = run(file, "status").output
    assert "Final standings (by total score, then games won): 1. Bob 6/2; 2. Ann 6/0" in text
    assert "The campaign is won by Bob" in text
    no(file, "game start --play Ann=kai --play Bob=raaz --scenario s01", "R351", "the campaign is over (games "
       "played: 2 (at least 2)): no game starts after its end")


def test_a_team_outcome_by_a_condition(tmp_path: Path) -> None:
    out = {"won_when": {"scenario": "s02", "equals": "won"}, "cite": CITE}
    file = campaign(tmp_path, with_(camp("end", {"when": {"game": "played", "at_least": 1}, "cite": CITE}),
                                    camp("outcome", out)))
    assert status(file)["outcome"]["team"] is None  # not over yet
    do(file, START, "game end --winner Ann")
    assert status(file)["outcome"]["team"] == "lost"
    assert "The campaign is lost (The Cave's result: unplayed; won needed)" in run(file, "status").output


WINNER = {"when": {"game": "played", "at_least": 2}, "rank_by": [{"signatures": "actor"}],
          "ties": {"roll_off": {"bonus": {"count": {"kind": "flag", "by": "actor", "named": True}}},
                   "text": "roll off, one die more per flag you named"},
          "show": "winner", "text": "most signatures after game 2", "cite": CITE}


def test_an_outcome_decided_after_game_n_names_the_winner_and_rolls_off_a_tie(tmp_path: Path) -> None:
    """`when`: decided after game 2 of a campaign that goes on (no `end`); `ties`: the tied players' roll-off bonus
    (a count of the flags each named: Bob's pennant is a flag nobody names); `show: winner`."""
    file = campaign(tmp_path, with_(camp("outcome", WINNER)))
    do(file, START, "game end --winner Ann", "place crown a-isle --by Ann",
       "place flag c-isle --by Ann --name Hope", "place pennant c-isle --by Bob")
    assert status(file)["overall_winner"] is None  # one game played: not decided yet
    do(file, "game start --play Ann=kai --play Bob=raaz --scenario s02", "game end --winner Bob")
    won = status(file)
    assert "outcome" not in won  # shown as its winner, not as standings
    assert won["overall_winner"] == {"players": ["Ann", "Bob"], "signatures": 1, "tie": True,
                                     "text": "most signatures after game 2", "cite": CITE, "provisional": True,
                                     "after_game": 2, "roll_off_bonus": {"Ann": 1, "Bob": 0},
                                     "roll_off": "roll off, one die more per flag you named"}
    do(file, "place crown b-isle --by Bob")  # game 2's last step: no longer provisional
    assert status(file)["overall_winner"]["provisional"] is False
    text = run(file, "status").output
    assert "Overall winner: a tie between Ann and Bob (1 signature each): roll off, adding Ann +1, Bob +0" in text


def test_the_ties_of_standings_roll_off_with_a_bonus(tmp_path: Path) -> None:
    ranked = {**WINNER, "show": "standings"}
    file = campaign(tmp_path, with_(camp("outcome", ranked)))
    do(file, START, "game end --winner Ann", "place crown a-isle --by Ann",
       "place flag c-isle --by Ann --name Hope")
    assert status(file)["outcome"]["winners"] == [] and "roll_off" not in status(file)["outcome"]
    do(file, "game start --play Ann=kai --play Bob=raaz --scenario s02", "game end --winner Bob",
       "place crown b-isle --by Bob")
    data = status(file)
    assert data["overall_winner"] is None and data["outcome"]["roll_off_bonus"] == {"Ann": 1, "Bob": 0}
    assert "A tie between Ann and Bob: roll off, adding Ann +1, Bob +0" in run(file, "status").output


def test_a_winner_by_another_value_than_signatures_is_named_with_it(tmp_path: Path) -> None:
    """`show: winner` ranked by a score: status, its JSON (`by`), the sheet and the chronicle name the value, not
    signatures."""
    outcome = {"when": {"game": "played", "at_least": 1}, "rank_by": [{"score": {"total": True}}], "show": "winner",
               "cite": CITE}
    file = campaign(tmp_path, with_(camp("outcome", outcome)))
    do(file, START, "game end --winner Ann --score Ann=7 --score Bob=3", "place crown a-isle --by Ann")
    won = status(file)["overall_winner"]
    assert (won["players"], won["signatures"], won["by"]) == (["Ann"], 7, "total score")
    assert "Overall winner: Ann with total score 7" in run(file, "status").output
    sheet = tmp_path / "sheet.html"
    do(file, f"sheet --format html --out {sheet}")
    assert "overall winner: Ann (total score 7)" in sheet.read_text("utf-8")
    chronicle = tmp_path / "chronicle.html"
    do(file, f"chronicle --format html --out {chronicle}")
    assert "overall winner: <b>Ann</b> with total score 7" in chronicle.read_text("utf-8")


TALLY = {"won_when": {"games": {"winner": "Ann"}, "at_least": 2},
         "lost_when": {"sum": [{"games": {"winner": "Ann"}}, {"game": "left"}], "at_most": 1},
         "show": "tally", "text": "Ann's crew wins with two games of three", "cite": CITE}


def test_a_tally_is_lost_once_it_can_no_longer_be_won(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_(camp("games", 3), camp("outcome", TALLY)))
    do(file, START, "game end --winner Bob", "place crown a-isle --by Bob")
    assert status(file)["overall_winner"] == {"team": True, "won": 0, "of": 3, "at_least": 2, "unit": "games",
                                              "result": None, "text": TALLY["text"], "cite": CITE}
    assert "The campaign is still open (0 of 3 games won, at least 2 needed)" in run(file, "status").output
    do(file, "game start --play Ann=kai --play Bob=raaz --scenario s02", "game end --winner Bob")
    assert status(file)["overall_winner"]["result"] == "lost"  # 0 won, 1 game left: 2 can no longer be reached


def test_a_tally_is_won_as_soon_as_its_threshold_is_reached(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_(camp("games", 3), camp("outcome", TALLY)))
    do(file, START, "game end --winner Ann", "place crown a-isle --by Ann",
       "game start --play Ann=kai --play Bob=raaz --scenario s02", "game end --winner Ann")
    assert status(file)["overall_winner"]["result"] == "won"  # before game 3
    assert "The campaign is won (2 of 3 games won, at least 2 needed)" in run(file, "status").output


# --- derived values ----------------------------------------------------------------------------------------
def test_a_level_per_player_is_shown_in_status(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_())
    do(file, "place deed north --by Ann", "place hut a-isle --by Ann")
    levels = status(file)["levels"]
    assert levels[0]["values"] == {"Ann": {"level": 1, "value": 1}, "Bob": {"level": 1, "value": 0}}
    do(file, "place hut b-isle --by Ann")
    assert status(file)["levels"][0]["values"]["Ann"] == {"level": 2, "value": 2}
    assert "Village level: Ann 2 (2), Bob 1 (0)" in run(file, "status").output


# --- a scenario graph ---------------------------------------------------------------------------------------
def test_a_scenario_graph_chosen_at_game_start(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_())
    no(file, "game start --play Ann=kai --play Bob=raaz", "R352", "say which scenario this game plays with "
       "--scenario ID (open now: s01)")
    no(file, "game start --play Ann=kai --play Bob=raaz --scenario s09", "R352", "unknown scenario 's09'")
    no(file, "game start --play Ann=kai --play Bob=raaz --scenario S02", "R352", "The Cave is not open: The "
       "Landing's result: unplayed; won needed")
    do(file, START, "game end --winner Ann", "place crown a-isle --by Ann")
    no(file, START, "R352", "The Landing is not open: The Landing is already won")
    assert "Open to play: The Cave" in run(file, "status").output
    do(file, "game start --play Ann=kai --play Bob=raaz --scenario S02")  # typed as the id is spelled (s02)


def test_scenario_is_refused_where_there_are_no_scenarios(tmp_path: Path) -> None:
    file = campaign(tmp_path)
    no(file, "game start --play Ann=kai --play Bob=raaz --scenario s01", "R352", "has no scenarios")


def test_a_score_for_a_player_who_did_not_play_is_refused(tmp_path: Path) -> None:
    file = campaign(tmp_path, with_(), players=("Ann", "Bob", "Cat"))
    do(file, START)
    no(file, "game end --winner Ann --score Cat=4", "R307", "'Cat' did not play game 1, so has no score in it")
    do(file, "game end --winner Ann --score Ann=4 --score Bob=2")



def test_a_team_outcome_won_when_its_condition_holds(tmp_path: Path) -> None:
    out = {"won_when": {"scenario": "s02", "equals": "won"}, "cite": CITE}
    file = campaign(tmp_path, with_(camp("end", {"when": {"game": "played", "at_least": 2}, "cite": CITE}),
                                    camp("outcome", out)))
    do(file, START, "game end --winner Ann", "place crown a-isle --by Ann")
    assert status(file)["outcome"]["team"] is None  # one game: not over
    do(file, "game start --play Ann=kai --play Bob=raaz --scenario s02", "game end --winner Bob")
    assert status(file)["outcome"]["team"] == "won"


# --- a named condition (game.campaign.conditions), named where a condition stands ------------------------------
def test_a_named_condition_is_asked_where_it_is_named(tmp_path: Path) -> None:
    tower = {"check": "when", "cite": CITE, "when": {"condition": "three-huts"}}
    file = campaign(tmp_path, with_(sticker("tower", ["territory"], checks=[tower])))
    do(file, "place hut a-isle --by Ann", "place hut b-isle --by Ann")
    no(file, "place tower c-isle --by Ann", "R241", "hut: 2; at least 3 needed")
    do(file, "place hut c-isle --by Bob", "place tower c-isle --by Ann")


# --- the table of rule sites ------------------------------------------------------------------------------------
#: Every place content may write a condition or query (as compiler/conditions.py walks them) -> the tests here
#: that try it both ways (it holds: accepted, shown or won; it fails: refused, not owed or lost).
SITES: dict[str, tuple[str, ...]] = {
    "/stickers/N/checks/N/when": ("test_a_when_check_takes_an_or_and_says_which_part_failed",
                                  "test_not_negates_a_named_check"),
    "/envelopes/N/trigger/when": ("test_a_trigger_waits_for_every_part_of_all",),
    "/game/campaign/owed_when/N/when": ("test_an_obligation_per_target_on_a_condition",
                                        "test_an_obligation_at_once_comes_before_any_other_placement",
                                        "test_an_obligation_per_player"),
    "/game/campaign/game_types/N/steps/N/when": ("test_a_step_is_owed_only_where_its_condition_holds",),
    "/game/campaign/end/when": ("test_the_campaign_ends_on_a_condition_and_ranks_with_tie_breaks",),
    "/game/campaign/outcome/rank_by/N": ("test_the_campaign_ends_on_a_condition_and_ranks_with_tie_breaks",),
    "/game/campaign/outcome/won_when": ("test_a_team_outcome_by_a_condition",
                                        "test_a_team_outcome_won_when_its_condition_holds",
                                        "test_a_tally_is_won_as_soon_as_its_threshold_is_reached"),
    "/game/campaign/outcome/lost_when": ("test_a_tally_is_lost_once_it_can_no_longer_be_won",),
    "/game/campaign/outcome/when": ("test_an_outcome_decided_after_game_n_names_the_winner_and_rolls_off_a_tie",),
    "/game/campaign/outcome/ties/roll_off/bonus": (
        "test_an_outcome_decided_after_game_n_names_the_winner_and_rolls_off_a_tie",
        "test_the_ties_of_standings_roll_off_with_a_bonus"),
    "/game/campaign/levels/N/of": ("test_a_level_per_player_is_shown_in_status",),
    "/game/campaign/scenarios/N/open": ("test_a_scenario_graph_chosen_at_game_start",),
    "/game/campaign/conditions/N/when": ("test_a_named_condition_is_asked_where_it_is_named",),
}


def test_every_rule_site_has_tests_that_try_it_both_ways() -> None:
    """The sites compiler/conditions.py checks are this table's (a site added there without a test fails here);
    each site's tests accept something and refuse or deny something."""
    import inspect
    import re
    import sys

    from scarbook.compiler.conditions import content_conditions

    source = inspect.getsource(content_conditions)
    walked = {("/game/campaign" if m.group(1) else "") + re.sub(r"\{[^}]*\}", "N", m.group(2))
              for m in re.finditer(r'f"(\{base\}|)(/[^"]*)"', source)}
    assert walked == set(SITES)
    module = sys.modules[__name__]
    for site, names in SITES.items():
        code = "".join(inspect.getsource(getattr(module, name)) for name in names)
        assert "do(" in code or "holds" in code, site
        # refused, not owed, lost, or a level's threshold not reached
        assert any(x in code for x in ('no(', 'is None', '"lost"', "assert not", '"level": 1')), site
