"""The campaign's last special form, `overall_winner`, said in the language (issue 38): edition 5 reads the old form
as the `outcome` that says the same (warning X602, an error in a file that declares edition 5), and `scarbook
migrate` writes that outcome into the file. Each old rule plays exactly as its rewrite: the same `status` text and
JSON; the shipped games written in the new form (harbor-watch, Shadow Forces) are what migrate makes of their old
form, and harbor-watch's play-test passes on the old form, on the migrated one and on the shipped one.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_homebrew_options import CITE, _sticker, campaign, do, run, status
from typer.testing import CliRunner

from scarbook.cli.main import app
from scarbook.compiler.deprecations import overall_as_outcome_rule
from scarbook.compiler.migrate import migrate_text
from scarbook.compiler.validate import validate_paths

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def flags(data: dict[str, Any]) -> None:
    """Option Isles with a sticker players name (a flag) and one of the same kind nobody names (a pennant)."""
    data["stickers"] += [_sticker("flag", "flag", ["territory"], named=True),
                         _sticker("pennant", "flag", ["territory"])]


def old_form(rule: dict[str, Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        flags(data)
        data["game"]["campaign"]["overall_winner"] = copy.deepcopy(rule)
    return edit


def new_form(rule: dict[str, Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        flags(data)
        camp = data["game"]["campaign"]
        camp["outcome"] = overall_as_outcome_rule(copy.deepcopy(rule), camp)
    return edit


# Ann and Bob win a game each (a signature each); Ann has a crown and a flag she named, Bob a crown and a pennant
SCRIPT = ("game start --play Ann=kai --play Bob=raaz", "game end --winner Ann", "place crown a-isle --by Ann",
          "place flag c-isle --by Ann --name Hope", "place pennant b-isle --by Bob",
          "game start --play Ann=kai --play Bob=raaz", "game end --winner Bob", "place crown b-isle --by Bob")

#: (the old rule, each tied player's roll-off bonus after SCRIPT: None without one, the roll-off's words)
RULES: list[tuple[dict[str, Any], dict[str, int] | None, str | None]] = [
    ({"after_game": 2, "most": "signatures", "tie_bonus": {"per": "crown", "text": "roll"}, "text": "most",
      "cite": CITE}, {"Ann": 1, "Bob": 1}, "roll"),
    ({"after_game": 2, "tie_bonus": {"per": ["crown", "flag"]}}, {"Ann": 2, "Bob": 2}, ""),  # a list; no text
    ({"after_game": 2, "tie_bonus": {"per": ["flag"], "named": True}, "cite": [CITE, "more"]}, {"Ann": 1, "Bob": 0},
     ""),
    ({"after_game": 2, "text": "no bonus"}, None, None),
]


def play(tmp: Path, edit: Any, *more: str) -> tuple[dict[str, Any], str]:
    tmp.mkdir()
    file = campaign(tmp, edit)
    do(file, *SCRIPT, *more)
    return status(file), run(file, "status").output


@pytest.mark.parametrize(("rule", "bonus", "roll"), RULES, ids=["one-id", "a-list", "named", "no-bonus"])
def test_an_old_rule_plays_as_its_rewrite(tmp_path: Path, rule: dict[str, Any], bonus: dict[str, int] | None,
                                          roll: str | None) -> None:
    old, old_text = play(tmp_path / "old", old_form(rule))
    new, new_text = play(tmp_path / "new", new_form(rule))
    assert old == new and old_text == new_text
    won = old["overall_winner"]
    assert (won["players"], won["signatures"], won["tie"], won["provisional"], won["after_game"]) == \
        (["Ann", "Bob"], 1, True, False, 2)
    assert won["text"] == rule.get("text", "") and won["cite"] == rule.get("cite", "")  # the cite as written
    assert won.get("roll_off_bonus") == bonus and won.get("roll_off") == roll
    assert "outcome" not in old  # shown as the overall winner, as before


def test_a_cancelled_mark_no_longer_counts_for_the_roll_off(tmp_path: Path) -> None:
    rule = RULES[0][0]
    old, _ = play(tmp_path / "old", old_form(rule), "place ruin a-isle --by Bob")  # covers Ann's crown
    new, _ = play(tmp_path / "new", new_form(rule), "place ruin a-isle --by Bob")
    assert old["overall_winner"]["roll_off_bonus"] == new["overall_winner"]["roll_off_bonus"] == {"Ann": 0, "Bob": 1}


@pytest.mark.parametrize("rule", [{"after_game": 3, "tie_bonus": {"per": "crown"}}, {"text": "no game given"}])
def test_no_winner_before_its_game_or_without_one(tmp_path: Path, rule: dict[str, Any]) -> None:
    old, old_text = play(tmp_path / "old", old_form(rule))
    new, new_text = play(tmp_path / "new", new_form(rule))
    assert old["overall_winner"] is None and new["overall_winner"] is None and old_text == new_text


def test_one_leader_wins_alone(tmp_path: Path) -> None:
    rule = RULES[0][0]
    more = ("game start --play Ann=kai --play Bob=raaz", "game end --winner Ann", "place crown c-isle --by Ann")
    old, old_text = play(tmp_path / "old", old_form(rule), *more)
    new, new_text = play(tmp_path / "new", new_form(rule), *more)
    assert old == new and old_text == new_text
    assert old["overall_winner"] == {"players": ["Ann"], "signatures": 2, "tie": False, "text": "most", "cite": CITE,
                                     "provisional": False, "after_game": 3}
    assert "Overall winner: Ann with 2 signatures" in old_text


# --- the shipped games: their old form warns, migrates into the shipped new form, and plays the same -----------
HARBOR_OLD = """\
    overall_winner:
      team: true
      count: chapters-won
      at_least: 8
      text: the team wins the campaign with at least 8 of the 12 months won
      cite: "harbor-watch § Winning the campaign"
"""
SHADOW_OLD = """\
    overall_winner:
      after_game: 15
      most: signatures
      tie_bonus: {per: [continent-name, continent], named: true, text: "tied players roll off, adding 1 for each \
continent they named (a name written on the board or on a new continent's sticker)"}
      text: the player who signed the back page the most times is the overall winner
      cite: "rulebook § Game 15 (Global): Fire and Brimstone"
"""


def with_old_form(tmp: Path, shipped: Path, old: str) -> Path:
    """A copy of a shipped game whose `outcome` is written as the `overall_winner` it replaced."""
    folder = tmp / shipped.name
    shutil.copytree(shipped, folder)
    game = folder / "game.yaml"
    text = game.read_text("utf-8")
    start = text.index("    outcome:\n")
    end = text.index("\n", text.index("      cite:", start)) + 1
    game.write_text(text[:start] + old + text[end:], "utf-8")
    return folder


def outcome_of(folder: Path) -> Any:
    return yaml.safe_load((folder / "game.yaml").read_text("utf-8"))["game"]["campaign"]["outcome"]


@pytest.mark.parametrize(("shipped", "old"), [(ROOT / "examples" / "harbor-watch", HARBOR_OLD),
                                              (ROOT / "content" / "risk-shadow-forces", SHADOW_OLD)],
                         ids=["harbor-watch", "shadow-forces"])
def test_the_old_form_of_a_shipped_game_warns_and_migrates_into_its_shipped_form(tmp_path: Path, shipped: Path,
                                                                                 old: str) -> None:
    folder = with_old_form(tmp_path, shipped, old)
    report = validate_paths([folder])
    assert report.ok
    warned = [d for d in report.diagnostics if d.code == "X602"]
    assert len(warned) == 1 and not warned[0].is_error and "scarbook migrate" in warned[0].message
    assert str(warned[0].span).startswith(f"{folder / 'game.yaml'}:")
    result = runner.invoke(app, ["migrate", str(folder / "game.yaml")])
    assert result.exit_code == 0, result.output
    assert outcome_of(folder) == outcome_of(shipped)
    after = validate_paths([folder])
    assert after.ok and not [d for d in after.diagnostics if d.code == "X602"]
    assert sorted((d.code, d.message) for d in after.diagnostics) == sorted(  # the rest unchanged (lines move)
        (d.code, d.message) for d in report.diagnostics if d.code != "X602")


def test_harbor_watch_plays_its_playtest_on_the_old_form_and_on_the_migrated_one(tmp_path: Path) -> None:
    folder = with_old_form(tmp_path, ROOT / "examples" / "harbor-watch", HARBOR_OLD)
    old = runner.invoke(app, ["playtest", str(folder / "playtest.yaml")])
    assert old.exit_code == 0, old.output
    runner.invoke(app, ["migrate", str(folder / "game.yaml")])
    assert "overall_winner" not in (folder / "game.yaml").read_text("utf-8")
    new = runner.invoke(app, ["playtest", str(folder / "playtest.yaml")])
    assert new.exit_code == 0, new.output


def test_the_old_form_is_an_error_in_a_file_that_declares_edition_5(tmp_path: Path) -> None:
    folder = with_old_form(tmp_path, ROOT / "examples" / "harbor-watch", HARBOR_OLD)
    game = folder / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("edition: 4", "edition: 5"), "utf-8")
    errors = [d for d in validate_paths([folder]).diagnostics if d.is_error]
    assert [d.code for d in errors] == ["X602"] and "write outcome: {won_when: {chapters: won, at_least: 8}" in \
        errors[0].message


def test_migrate_writes_the_outcome_where_the_old_rule_stood() -> None:
    text = "game:\n  id: g\n  campaign:\n    games: 3\n    overall_winner: {after_game: 3}\n    team: false\n"
    new, changes = migrate_text(text, "g.yaml")
    assert new.endswith("  campaign:\n    games: 3\n    outcome: {when: {game: played, at_least: 3}, rank_by: "
                        "[{signatures: actor}], show: winner}\n    team: false\n"), new
    assert changes[0] == ("g.yaml:4: {overall_winner: {after_game: 3}} -> {outcome: {when: {game: played, "
                          "at_least: 3}, rank_by: [{signatures: actor}], show: winner}}")
    again, more = migrate_text(new, "g.yaml")
    assert again == new and more == []


@pytest.mark.parametrize(("outcome", "words"), [
    ({"won_when": {"scenario": "s01", "equals": "won"}, "show": "winner"}, "'show: winner' names the player first"),
    ({"won_when": {"scenario": "s01", "equals": "won"}, "show": "tally"}, "'show: tally' counts toward 'won_when'"),
    ({"rank_by": [{"wins": "actor"}], "show": "tally"}, "'show: tally' counts toward 'won_when'"),
])
def test_x533_an_outcome_shown_in_a_way_its_form_cannot_give(tmp_path: Path, outcome: dict[str, Any],
                                                             words: str) -> None:
    from test_campaign_language import validate

    def edit(data: dict[str, Any]) -> None:
        data["game"]["campaign"]["outcome"] = {**outcome, "cite": CITE}

    out = validate(tmp_path, edit)
    hit = [line for line in out if "X533" in line]
    assert len(hit) == 1 and words in hit[0] and "game.yaml:" in hit[0], out
    fine = {**outcome, "show": "standings"} if "rank_by" in outcome else {**outcome, "show": "winner",
                                                                          "rank_by": [{"wins": "actor"}]}
    (tmp_path / "fine").mkdir()
    assert not [line for line in validate(tmp_path / "fine", lambda d: d["game"]["campaign"].update(
        outcome={**fine, "cite": CITE})) if "X533" in line]


def test_a_campaign_with_an_outcome_keeps_it_and_drops_the_old_rule_beside_it() -> None:
    from scarbook.compiler.editions import find

    camp = {"games": 3, "overall_winner": {"after_game": 3}, "outcome": {"rank_by": [{"wins": "actor"}]}}
    found = find({"game": {"campaign": camp}})
    assert [f.row.code for f in found] == ["X602"]
    assert found[0].new == {"games": 3, "outcome": {"rank_by": [{"wins": "actor"}]}}
    assert "the 'overall_winner' beside it is dropped" in found[0].row.replacement(found[0].old, found[0].new)
    assert find({"game": {"campaign": {"overall_winner": {"unknown": "the source does not say"}}}}) == []


def test_a_team_threshold_on_games_won_is_lost_only_where_the_games_are_counted() -> None:
    rule = {"team": True, "at_least": 2, "text": "two wins"}
    assert overall_as_outcome_rule(rule, {"games": 3}) == {
        "won_when": {"games": {"result": "won"}, "at_least": 2},
        "lost_when": {"sum": [{"games": {"result": "won"}}, {"game": "left"}], "at_most": 1}, "show": "tally",
        "text": "two wins"}
    assert "lost_when" not in overall_as_outcome_rule(rule, {"games": {"unknown": "not said"}})
    assert "lost_when" not in overall_as_outcome_rule({**rule, "at_least": 0}, {"games": 3})  # won from the start
