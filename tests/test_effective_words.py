"""What a campaign writes into its game's items is named by the content, not by Python.

An invented game (`guild-marsh`: guilds that keep one of their `powers`, which the game calls guild perks; a
`lodge` sticker that founds an `outpost`, a `marker` that founds a `code`) is played through the CLI; the game as
it stands in the campaign (`build --campaign`, `show -c`) tells the option chosen under the singular of the list
its `choice-of` check names, with the others gone, and what a mark founds under the kind its sticker `founds`
(or `founded`, where the printed item has a field of that name); an option without a printed name is told in
the game's word for one of the list. Risk Legacy's `power` and `city` are the same rule applied to its own
content (tests/test_campaign_ledger.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from scarbook.cli.main import app

CITE = "guild-marsh § Rules"
GAME: dict[str, Any] = {
    "source": {"cite": "test game: the content names what a campaign writes"},
    "game": {
        "id": "guild-marsh", "title": "Guild Marsh", "legacy": True, "players": {"min": 2, "max": 3},
        "words": {"power": {"one": "guild perk", "many": "guild perks"}},
        "campaign": {
            "games": 4,
            "pieces": [{"id": "guild", "name": "guild", "section": "factions"}],
            "game_types": [{"id": "season", "name": "season", "plays": ["guild"], "steps": [
                {"id": "sign", "name": "Sign the charter", "who": "winner", "does": "sign", "cite": CITE}]}],
        },
    },
    "board": {"default_slots": {"camp": 1}},
    "regions": [{"id": "fen", "name": "Fen", "bonus": 1}],
    "territories": [
        {"id": "reed-bank", "name": "Reed Bank", "regions": ["fen"], "neighbors": ["mire"]},
        {"id": "mire", "name": "Mire", "code": "MI-1", "regions": ["fen"], "neighbors": ["reed-bank"]},
    ],
    "factions": [
        {"id": "otters", "name": "Otters", "slots": {"perk": 1},
         "powers": [{"id": "swift", "name": "Swift", "text": "Move twice."}, {"id": "deep", "text": "Dive."}]},
        {"id": "herons", "name": "Herons", "slots": {"perk": 1},
         "powers": [{"id": "patient", "name": "Patient", "text": "Wait."}, {"id": "sharp", "name": "Sharp",
                                                                           "text": "Strike."}]},
    ],
    "stickers": [
        {"id": "perk", "name": "Perk", "kind": "perk", "targets": ["faction-card"], "slot": "perk", "supply": 4,
         "effect": "The perk a guild keeps; the other is gone.",
         "checks": [{"check": "slot-free", "slot": "perk", "cite": CITE},
                    {"check": "choice-of", "field": "powers", "cite": CITE}]},
        {"id": "lodge", "name": "Lodge", "kind": "lodge", "targets": ["territory"], "slot": "camp", "supply": 4,
         "founds": {"kind": "outpost", "named": True}, "effect": "Founds a named outpost.",
         "checks": [{"check": "supply-left", "cite": CITE}]},
        {"id": "marker", "name": "Marker", "kind": "marker", "targets": ["territory"], "slot": "camp", "supply": 4,
         "founds": {"kind": "code", "named": True}, "effect": "Founds a named code post.",
         "checks": [{"check": "supply-left", "cite": CITE}]},
    ],
}


@pytest.fixture
def played(tmp_path: Path) -> Path:
    folder = tmp_path / "guild-marsh"
    folder.mkdir()
    (folder / "game.yaml").write_text(yaml.safe_dump(GAME, sort_keys=False), "utf-8")
    ledger = tmp_path / "c.yaml"
    runner = CliRunner()
    for line in (["new", str(ledger), "--game", str(folder), "--player", "Ann", "--player", "Bob"],
                 ["place", "perk", "otters", "--name", "swift", "--by", "Ann"],
                 ["game", "start", "--play", "Ann=otters", "--play", "Bob=herons"],
                 ["game", "end", "--winner", "Ann"],
                 ["place", "lodge", "reed-bank", "--name", "Eelwick", "--by", "Ann"],
                 ["place", "marker", "mire", "--name", "Sogby", "--by", "Bob"]):
        result = runner.invoke(app, ["campaign", *line, *([] if line[0] == "new" else ["-c", str(ledger)])])
        assert result.exit_code == 0, (line, result.output)
    return ledger


def test_the_choice_and_the_founding_are_told_in_the_contents_own_words(played: Path) -> None:
    from scarbook.campaign.service.reading import campaign_game

    game = campaign_game(played, [])
    otters = game.section("factions")["otters"]
    assert otters["power"] == "swift"
    assert [p.get("destroyed", False) for p in otters["powers"]] == [False, True]
    assert "power" not in game.section("factions")["herons"]
    reed = game.section("territories")["reed-bank"]
    assert reed["outpost"] == {"name": "Eelwick", "sticker": "lodge", "by": "Ann"} and "city" not in reed
    mire = game.section("territories")["mire"]  # a territory's printed `code` is its own: the marker's goes beside
    assert mire["code"] == "MI-1" and mire["founded"] == {"name": "Sogby", "sticker": "marker", "by": "Bob"}


def test_an_option_without_a_printed_name_is_told_in_the_games_word(played: Path) -> None:
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.ledger.cache import read

    content = Campaign(read(played)).replay(check=False).content
    assert content.choice_fields == ("powers",)
    assert content.option_names == {"swift": "Swift", "deep": "guild perk 2 (its name is not known)",
                                    "patient": "Patient", "sharp": "Sharp"}
    assert content.powers == {"swift": "otters", "deep": "otters", "patient": "herons", "sharp": "herons"}
