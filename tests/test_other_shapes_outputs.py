"""Fixes found by playing the new example shapes (issue 38: a branching scenario campaign, a deck that grows):
rules the content already said but the tracker did not keep, and outputs that spoke only Risk's shape.

Each test fails without its fix.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_homebrew_options import CITE, PLAY, campaign, do, no, run, status

from conftest import EXAMPLES


def test_a_setup_each_player_places_its_count(tmp_path: Path) -> None:
    """`setup: {each: player, count: 2}` asks two of every player, not one."""
    def setup(data: dict[str, Any]) -> None:
        data["game"]["campaign"]["setup"] = [{"id": "coins", "place": "coin", "each": "player", "count": 2,
                                              "before_game": 1, "text": "two coins from every player", "cite": CITE}]

    file = campaign(tmp_path, setup)
    do(file, "place coin a-isle --by Ann", "place coin b-isle --by Bob", "place coin c-isle --by Ann")
    no(file, PLAY, "R221", "Bob still to place")
    assert "two coins from every player (1 still to place)" in run(file, "status").output
    do(file, "place coin a-isle --by Bob", PLAY)
    assert status(file)["games_played"] == 0


# --- the new examples, played part way through the CLI --------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
LR_START = "game start --play Ann --play Bob --scenario "
CG_START = "game start --play Ann --play Bob --play Cat"


def _example(tmp_path: Path, name: str, players: tuple[str, ...] = ("Ann", "Bob")) -> Path:
    from typer.testing import CliRunner

    from scarbook.cli.main import app

    file = tmp_path / f"{name}.yaml"
    args = ["campaign", "new", str(file), "--game", str(EXAMPLES / name)]
    for p in players:
        args += ["--player", p]
    made = CliRunner().invoke(app, args)
    assert made.exit_code == 0, made.output
    return file


def _lantern(tmp_path: Path) -> Path:
    """Lantern Road after the crossing lost (the bridge burned) and won, and the mill won (a pact)."""
    file = _example(tmp_path, "lantern-road")
    do(file, LR_START + "crossing", "game end --team lost", "place bridge-burned achievements-box --by Ann",
       LR_START + "crossing", "game end --team won", LR_START + "mill", "game end --team won",
       "place guild-pact achievements-box --by Bob")
    return file


def _cinder(tmp_path: Path) -> Path:
    """The Cinder Guild after one game: crests, a forge upgrade, a card burned, scores."""
    file = _example(tmp_path, "cinder-guild", ("Ann", "Bob", "Cat"))
    do(file, "place crest spark --by Ann", "place crest flint --by Ann", "place crest tinder --by Bob",
       "place crest bellows --by Bob", "place crest kindling --by Cat", "place crest ember --by Cat", CG_START,
       "game end --winner Ann --score Ann=12 --score Bob=9 --score Cat=5", "place forge spark --by Ann",
       "destroy slag --by Cat")
    return file


def test_status_shows_each_players_places_and_total_score(tmp_path: Path) -> None:
    file = _cinder(tmp_path)
    text = run(file, "status").output
    assert "  Ann: owns spark, flint; total score 12" in text, text
    assert "legal start" not in text and "signature" not in text
    players = {p["name"]: p for p in status(file)["players"]}
    assert (players["Bob"]["claimed"], players["Bob"]["score_total"]) == (["tinder", "bellows"], 9)


def test_a_campaign_wide_level_is_read_at_the_top_of_its_row(tmp_path: Path) -> None:
    level = status(_lantern(tmp_path))["levels"][0]
    assert (level["level"], level["value"]) == (1, 2) and level["values"] == {"": {"level": 1, "value": 2}}


def test_a_value_kept_on_a_board_space_is_shown(tmp_path: Path) -> None:
    def game(data: dict[str, Any]) -> None:
        from test_homebrew_options import _sticker

        data["stickers"].append(_sticker("shrine", "shrine", ["territory"], adds={"faith": 2}))

    file = campaign(tmp_path, game)
    do(file, "place shrine a-isle", "place shrine a-isle")
    assert status(file)["place_values"] == [{"place": "a-isle", "name": "A Isle", "values": {"faith": 4}}]
    assert "Places: A Isle: faith 4" in run(file, "status").output


def test_log_and_diff_name_the_scenario_and_the_scores(tmp_path: Path) -> None:
    lantern = _lantern(tmp_path)
    log = run(lantern, "log").output
    assert "game 3 starts: Ann, Bob; scenario: mill" in log, log
    diff = run(lantern, "diff 0").output
    assert "Game 1 starts: The River Crossing; Ann, Bob" in diff and "Game 1 ends: The River Crossing lost" in diff
    assert "the team lost" not in diff
    cinder = run(_cinder(tmp_path), "diff 0").output
    assert "Game 1 ends: Ann wins; Bob and Cat held on; scores: Ann 12, Bob 9, Cat 5" in cinder, cinder


def _sheet(file: Path) -> str:
    import html
    import re

    out = file.with_suffix(".html")
    done = run(file, f"sheet -f html --out {out}")
    assert done.exit_code == 0, done.output
    page = re.sub(r"<svg.*?</svg>|<style.*?</style>", "", out.read_text("utf-8"), flags=re.S)
    rows = re.sub(r"</tr>", "\n", page)
    return html.unescape(re.sub(r"[ \t]+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"</t[dh]>", " |", rows))))


def test_the_sheets_tables_follow_the_games_result_form(tmp_path: Path) -> None:
    team = _sheet(_lantern(tmp_path))
    assert " Game | Played | Result |" in team and "2 | The River Crossing | won |" in team, team
    assert "Winner" not in team and "Held on" not in team and "Eliminated" not in team
    assert "Legal starts" not in team and "Bonus now" not in team
    scored = _sheet(_cinder(tmp_path))
    assert " Game | Winner | Held on | Scores |" in scored and "1 | Ann | Bob, Cat | Ann 12, Bob 9, Cat 5 |" in scored
    assert " Player | Owns | Total score | May still take |" in scored
    assert " Ann | Spark, Flint | 12 |" in scored
    assert " Spark | might 1 | might 2 |" in scored  # a card's printed value changed by an upgrade
    assert "the sources do not give how many" not in scored  # every supply is known


def test_messages_in_the_games_words(tmp_path: Path) -> None:
    lantern = _lantern(tmp_path)
    refused = run(lantern, "place thieves-pact achievements-box --by Ann").output
    assert "places a The" not in refused
    start = run(lantern, "game start --play Ann --play Bob").output
    assert "(each game plays one open scenario; lantern-road § Scenarios)" in start, start
    said = run(lantern, "status").output
    assert "won (won)" not in said


def test_a_default_game_is_a_game_not_a_game_game(tmp_path: Path) -> None:
    from scarbook.compiler.words import a, a_game, singular_of

    assert (a_game("game"), a_game("raid"), a_game("open")) == ("a game", "a raid game", "an open game")
    assert a("The Guild's Pact") == "The Guild's Pact" and a("Theft") == "a Theft"
    assert (singular_of("upgrades"), singular_of("Major Cities"), singular_of("banner")) == \
        ("upgrade", "Major City", "banner")


def test_a_limit_of_one_says_its_thing_in_the_singular(tmp_path: Path) -> None:
    def game(data: dict[str, Any]) -> None:
        from test_homebrew_options import _sticker

        data["stickers"].append(_sticker("charm", "charm", ["territory"], checks=[
            {"check": "limit", "max": 1, "of": ["charm"], "per": ["target"], "name": "charms", "cite": CITE}]))

    file = campaign(tmp_path, game)
    do(file, "place charm a-isle")
    no(file, "place charm a-isle", "R238", "at most 1 charm per territory")


def test_too_few_players_cites_the_games_source(tmp_path: Path) -> None:
    file = _example(tmp_path, "cinder-guild", ("Ann", "Bob", "Cat"))
    do(file, "place crest spark --by Ann", "place crest flint --by Ann", "place crest tinder --by Bob",
       "place crest bellows --by Bob", "place crest kindling --by Cat", "place crest ember --by Cat")
    no(file, "game start --play Ann", "R306", "(The Cinder Guild is for 2 to 4 players; homebrew: scarbook example "
       "cinder-guild)")


def test_card_tags_are_read_by_the_language(tmp_path: Path) -> None:
    file = _cinder(tmp_path)
    no(file, "place crest dragon-heart --by Ann", "R310")
    verdict = run(file, "place crest anvil --by Bob --dry-run")
    assert verdict.exit_code == 0, verdict.output  # anvil is no vault card: any forge level takes it


def test_no_game_words_of_the_new_examples_in_python() -> None:
    """The new examples are content only: none of their ids or kinds is in the tracker's, compiler's or CLI's
    Python."""
    import re

    import yaml

    words: set[str] = set()
    for name in ("lantern-road", "cinder-guild"):
        data = yaml.safe_load((EXAMPLES / name / "game.yaml").read_text("utf-8"))
        camp = data["game"]["campaign"]
        words |= {item["id"] for section in ("stickers", "cards", "decks", "envelopes") for item in
                  data.get(section, [])}
        words |= {st["kind"] for st in data["stickers"]} - {"upgrade", "destroyed"}
        words |= {x["id"] for key in ("scenarios", "levels", "tracks", "conditions") for x in camp.get(key, [])}
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b", re.IGNORECASE)
    hits = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
            for folder in ("campaign", "compiler", "scarbook/cli") for path in sorted((ROOT / folder).rglob("*.py"))
            if "generated" not in path.parts
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if pattern.search(line)]
    assert not hits, "\n".join(hits)


def test_a_comparison_that_holds_does_not_repeat_the_value_read(tmp_path: Path) -> None:
    from scarbook.campaign.lang import Scope
    from scarbook.campaign.service import reading

    _campaign, replay = reading.state(_lantern(tmp_path))
    content, state = replay.content, replay.state
    said = content.conditions.holds({"scenario": "crossing", "equals": "won"}, Scope(content, state)).why
    assert said == "The River Crossing's result: won"  # not "won (won)"
    more = content.conditions.holds({"track": "prosperity", "at_least": 1}, Scope(content, state)).why
    assert more == "prosperity: 2 (at least 1)"


@pytest.mark.slow
def test_the_chronicle_speaks_the_games_shape(tmp_path: Path) -> None:
    """Slow (a chronicle rendered to PDF): the chronicle of a game of another shape speaks its words."""
    from conftest import pdftotext

    lantern = _lantern(tmp_path)
    out = tmp_path / "lantern.pdf"
    assert run(lantern, f"chronicle --out {out}").exit_code == 0
    text = " ".join(pdftotext(out).split())
    assert "Game 1 · The River Crossing" in text and "The River Crossing lost" in text, text
    assert "Open to play: The Old Ford, The Guild Hall" in text  # the end page: the campaign's shape lines
    assert "Started in" not in text and "Signature" not in text and "unnamed" not in text
    assert "held on" not in text and "Result" not in text  # a team game: the team's result, no one's role
    cinder = _cinder(tmp_path)
    out = tmp_path / "cinder.pdf"
    assert run(cinder, f"chronicle --out {out}").exit_code == 0
    text = " ".join(pdftotext(out).split())
    assert "The Cinder Guild campaign · Ann, Bob, Cat" in text and "A The" not in text, text
    assert "Score Result" in text and "Standings (by points by rank (3, 1) over every game, then total score)" in text


def test_the_aid_tells_the_world_of_other_shapes(tmp_path: Path) -> None:
    """The player aid's 'world now' lists marked cards and a region's marks (no 'bonus 0' in a game without
    bonuses), and each rule sticker of a place that holds several says where it is."""
    from scarbook.campaign.service.reading import campaign_game
    from scarbook.compiler.aid import aid_view

    cinder = aid_view(campaign_game(_cinder(tmp_path), []), "c")["world"]
    assert cinder["cards"] == ["Crest: Spark, Flint, Tinder, Bellows, Kindling, Ember", "Forge upgrade: Spark"]
    assert cinder["destroyed"] == ["Slag"], cinder
    lantern = aid_view(campaign_game(_lantern(tmp_path), []), "l")["rule_stickers"]
    said = {s["name"]: s["text"] for s in lantern}
    assert said["The Bridge Burned"].endswith("In “The Road Book: Achievements” (after game 1).")
    assert said["The Guild's Pact"].endswith("In “The Road Book: Achievements” (after game 3).")
    vale = _example(tmp_path, "founders-vale")
    do(vale, "place charter north-district --by Ann")
    assert "  north-district (held by Ann)" in run(vale, "status").output.splitlines()
    assert aid_view(campaign_game(vale, []), "v")["world"]["regions"] == ["North District: held by Ann"]


def test_the_aids_rule_stickers_in_play_are_the_placed_ones(tmp_path: Path) -> None:
    """Issue 34: 'Rule stickers in play' on the printed aid names the stickers the campaign placed in the rulebook
    (where, since when), not one it has not placed (Lantern Road: the Thieves' Pact was the side not taken)."""
    from typer.testing import CliRunner

    from conftest import pdftotext
    from scarbook.cli.main import app

    lantern = _lantern(tmp_path)
    out = tmp_path / "out"
    built = CliRunner().invoke(app, ["build", str(EXAMPLES / "lantern-road"), "--campaign", str(lantern),
                                     "--out", str(out), "--only", "reference", "--jobs", "1"])
    assert built.exit_code == 0, built.output
    text = " ".join(pdftotext(out / "lantern-road" / "reference.pdf").split())
    in_play = text[text.index("Rule stickers in play"):]
    assert "The Bridge Burned The bridge at the crossing is gone" in in_play
    assert "The Guild's Pact The Guild Hall opens its doors" in in_play
    assert "Thieves' Pact" not in in_play and "Smugglers' Cove" not in in_play, in_play


def test_one_player_is_one_player(tmp_path: Path) -> None:
    file = _example(tmp_path, "founders-vale")
    no(file, "game start --play Ann", "R306", "1 player; Founders' Vale needs at least 2")


def test_the_aid_of_an_ended_campaign_says_it_ended(tmp_path: Path) -> None:
    """A campaign whose end condition holds is not 'as it stands before game 4': there is no game 4."""
    from scarbook.campaign.service.reading import campaign_game
    from scarbook.compiler.render.html import aid_html

    vale = _example(tmp_path, "founders-vale")
    do(vale, "place charter north-district --by Ann", "place charter south-district --by Bob",
       "game start --play Ann --play Bob", "game end --winner Ann --score Ann=5 --score Bob=3",
       "game start --play Ann --play Bob")
    during = aid_html(campaign_game(vale, []), "a4", None, [], "vale")
    assert "as it stands before game 2" in during and "as it ended" not in during
    do(vale, "game end --winner Bob --score Ann=2 --score Bob=4", "game start --play Ann --play Bob",
       "game end --winner Bob --score Ann=3 --score Bob=3")
    ended = aid_html(campaign_game(vale, []), "a4", None, [], "vale")
    assert "as it ended, after game 3." in ended and "before game 4" not in ended


def test_diff_names_a_rulebook_slot_by_its_label(tmp_path: Path) -> None:
    """A sticker put in a rulebook's box is told with the box's label in its rulebook, not the slot's id."""
    text = run(_lantern(tmp_path), "diff 0 3").output
    assert "The Road Book: Achievements" in text and "achievements-box" not in text, text
