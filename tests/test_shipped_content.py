"""The shipped games hold what the sources give: counts, ids, bonuses, nothing sealed in view."""

from __future__ import annotations

from collections import Counter

import pytest

from scarbook.compiler import views
from scarbook.compiler.model import Game
from scarbook.compiler.validate import load_game


@pytest.fixture(scope="module")
def legacy() -> Game:
    return load_game("risk-legacy")


def test_risk_legacy_board(legacy: Game) -> None:
    board = views.board(legacy.effective())
    assert len(board["territories"]) == 42 and board["edges"] == 83
    bonuses = {r["id"]: r["bonus"] for r in board["regions"]}
    assert bonuses == {"north-america": 5, "south-america": 2, "europe": 5, "africa": 3, "asia": 7, "australia": 2}
    assert all(r["name"] is None for r in board["regions"])  # continents start unnamed
    names = {t["id"]: t["name"] for t in board["territories"]}
    assert names["russia"] == "Russia" and names["eastern-canada"] == "Eastern Canada"
    assert names["southeast-asia"] == "Southeast Asia" and names["central-africa"] == "Central Africa"
    assert "ukraine" not in names and "siam" not in names


def test_risk_legacy_adjacency_is_symmetric_with_14_crossings(legacy: Game) -> None:
    board = legacy.effective()  # the board before any pocket is opened
    adj = board.neighbors()
    assert all(a in adj[b] for a in adj for b in adj[a])
    region = {t: v["regions"][0] for t, v in board.section("territories").items()}
    crossings = {frozenset((a, b)) for a, b, _ in board.edges if region[a] != region[b]}
    assert len(crossings) == 14
    assert Counter(len(r["regions"]) for r in board.section("territories").values()) == {1: 42}
    # the Alien Island (sealed in the pocket for thirty troops): no continent, no printed lines
    island = legacy.section("territories")["alien-island"]
    assert island["regions"] == [] and not legacy.neighbors()["alien-island"]


def test_risk_legacy_cards_and_stickers(legacy: Game) -> None:
    cards = legacy.section("cards")
    territory_cards = [c for c in cards.values() if c.get("territory")]
    sealed = legacy.sealed_ids()
    assert len([c for c in territory_cards if c["id"] not in sealed]) == 42
    assert all(c["resources"] == 1 for c in territory_cards if c["id"] not in sealed)
    assert [(c["id"], c["resources"]) for c in territory_cards if c["id"] in sealed] == [("alien-island-card", 3)]
    assert sum(c.get("copies", 1) for c in cards.values() if c["deck"] == "coin-deck") == 10
    stickers = legacy.section("stickers")
    for sid in ("coin", "minor-city", "major-city", "fortification", "scar-cancel", "continent-plus-one",
                "continent-minus-one", "continent-name", "bunker", "ammo-shortage"):
        assert sid in stickers, sid
    assert stickers["fortification"]["boxes"] == 10
    factions = legacy.section("factions")
    assert sorted(factions) == ["die-mechaniker", "enclave-of-the-bear", "imperial-balkania", "khan-industries",
                                "saharan-republic"]
    assert all(len(f["powers"]) == 2 for f in factions.values())


def test_sealed_content_is_not_in_view(legacy: Game) -> None:
    seen = legacy.effective()
    assert "bio-hazard" in legacy.section("stickers") and "bio-hazard" not in seen.section("stickers")
    assert "mercenary" not in seen.section("stickers")
    opened = legacy.effective(["nine-minor-cities"])
    assert "bio-hazard" in opened.section("stickers") and "mercenary" not in opened.section("stickers")


def test_shadow_forces_has_42_coded_territories_and_nothing_sealed() -> None:
    game = load_game("risk-shadow-forces")
    seen = game.effective()
    codes = Counter(t["code"][:2] for t in seen.section("territories").values())
    assert codes == {"NA": 9, "SA": 4, "EU": 7, "AF": 6, "AS": 12, "OC": 4}
    assert len(game.section("territories")) > 42  # the sealed new continents exist, but not in view
    assert not ({"ts-01", "ag-01", "nb-01"} & set(seen.section("territories")))
    assert len(game.section("schedule")) == 15


def test_every_game_loads_without_errors() -> None:
    for gid in ("risk-legacy", "risk-shadow-forces", "risk-warhammer-40k", "shadow-blades"):
        assert load_game(gid).id == gid


def test_warhammer_board_is_the_whole_board_from_one_unofficial_source() -> None:
    """42 territories (39 + 3 Fortwalls, each in two regions), 72 borders, connected, region counts
    as declared; every territory from the reference is marked low confidence, and shown so."""
    from scarbook.compiler.model import components, low_confidence

    game = load_game("risk-warhammer-40k").effective()
    board = views.board(game)
    assert len(board["territories"]) == 42 and board["edges"] == 72 == len(game.edges)
    assert len(components(game.neighbors())) == 1
    assert all(a in game.neighbors()[b] for a, b, _ in game.edges)
    fortwalls = {t["id"]: t["regions"] for t in board["territories"] if t["id"].endswith("-fortwall")}
    assert fortwalls == {
        "mortwald-oteck-fortwall": ["mortwald-and-ork-scrap-cities", "oteck-hivesprawl"],
        "dontoria-megaborealis-fortwall": ["dontoria", "megaborealis"],
        "kaelacs-bane-hyperia-fortwall": ["kaelacs-bane-and-dirkden", "hyperia"],
    }
    assert Counter(len(t["regions"]) for t in board["territories"]) == {1: 39, 2: 3}
    members = game.region_members()
    counts = {rid: len(members[rid]) for rid in game.section("regions")}
    assert counts == {"mortwald-and-ork-scrap-cities": 5, "megaborealis": 6, "dontoria": 8, "storvhal": 4,
                      "oteck-hivesprawl": 8, "kaelacs-bane-and-dirkden": 7, "hyperia": 7}
    assert all(r["territory_count"] == counts[rid] for rid, r in game.section("regions").items())
    bonuses = {r["id"]: r["bonus"] for r in board["regions"]}
    assert bonuses == {"mortwald-and-ork-scrap-cities": 3, "megaborealis": 3, "dontoria": 5, "storvhal": 2,
                       "oteck-hivesprawl": 5, "kaelacs-bane-and-dirkden": 4, "hyperia": 4}
    # every territory but the rulebook's Mortwald-Oteck Fortwall rests on the one unofficial source
    unofficial = {t["id"] for t in board["territories"] if t.get("confidence") == "L"}
    assert set(game.section("territories")) - unofficial == {"mortwald-oteck-fortwall"}
    assert low_confidence(game.board) is not None and "72 borders" in board["low_confidence"][0]
    assert all(isinstance(t.get("layout"), dict) for t in game.section("territories").values())
    text = views.text(game, "board")
    assert text.splitlines()[1] == "42 territories, 72 edges, 7 regions ‡"
    assert "  The Great Choke ‡ [the-great-choke] -> " in text and "‡ from one unofficial source" in text
    # territory cards: one per territory, 26 at 100 Throne Gelt and 16 at 200
    cards = [c for c in game.section("cards").values() if c.get("deck") == "territory-cards"]
    assert sorted(c["territory"] for c in cards) == sorted(game.section("territories"))
    assert Counter(c["stats"]["throne_gelt"] for c in cards) == {100: 26, 200: 16}


def test_warhammer_keeps_the_rulebook_where_the_unofficial_source_differs() -> None:
    game = load_game("risk-warhammer-40k")
    factions = game.section("factions")
    assert factions["aeldari-craftworlds"]["leader"]["ability"].startswith("The final army in this leader's")
    assert factions["orks"]["leader"]["ability"] == "Add +1 to all attack dice."
    units = factions["genestealer-cults"]["units"]
    assert [u["name"] for u in units] == ["Acolytes", "Goliath"]
    assert all(u["source"]["confidence"] == "L" for u in units)
    # the still unknown cards stay unknown: 18 of 20 objectives, 8 of 16 rewards
    listed = Counter(c["deck"] for c in game.section("cards").values())
    assert listed["objective-cards"] == 18 and listed["reward-cards"] == 8
