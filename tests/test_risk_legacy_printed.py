"""Risk Legacy as the printed components give it (issue 12; issue 9 item 4): each rule with a legal and an
illegal case, every refusal with its code and the section it cites, and the file unchanged on refusal."""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script

SCANS = "Risk Legacy component scans § From scans of the printed components"
#: What a sealed packet's refusal (R310) cites: the rule on sealed components, and the scans only for the trigger
SEALED = ("Risk Legacy rulebook § Sealed Components",
          "Risk Legacy component scans § Sealed packets: only their names and triggers (H)")


@pytest.fixture(autouse=True)
def _no_env_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)


def refused(file: Path, args: list[str], code: str, *cited: str) -> str:
    """Run a command that must be refused with `code` (an honest refusal: `conftest.refused`), citing every one
    of `cited`; the file stays as it was."""
    from conftest import refused as honest_refusal
    from conftest import snapshot

    before = snapshot(file)
    result = invoke(args, file)
    honest_refusal(result, code, file_before=before)
    out = " ".join(result.output.split())
    for c in cited:
        assert c in out, (c, out)
    return out


def ok(file: Path, text: str) -> None:
    failures = run_script(text, file)
    assert not failures, "\n".join(failures)


@pytest.fixture
def playing(tmp_path: Path) -> Path:
    file = tmp_path / "world.yaml"
    ok(file, SETUP + START + "\n")
    return file


def test_bunker_and_ammo_shortage_go_on_the_defending_territory_never_a_faction_card(playing: Path) -> None:
    for sticker in ("bunker", "ammo-shortage"):
        refused(playing, ["place", sticker, "die-mechaniker"], "R102", "goes on a territory", SCANS)
    ok(playing, "place bunker peru --by Ann\nplace ammo-shortage brazil --by Bob\n")
    refused(playing, ["place", "ammo-shortage", "peru", "--by", "Cat"], "R202", "Risk Legacy rulebook § Gameboard")


# --- issue 9 item 4: sealed stickers, every refusal cites a rule, grammar ------------------------------------
def test_a_sealed_sticker_is_refused_as_sealed_naming_its_packet(playing: Path) -> None:
    out = refused(playing, ["place", "mercenary", "brazil"], "R310", "open packet faction-eliminated first",
                  "Open when a faction is eliminated", "Risk Legacy component scans § Sealed packets")
    assert "unknown sticker" not in out
    refused(playing, ["place", "no-such-sticker", "brazil"], "R101", "unknown sticker")
    ok(playing, "game end --winner Ann --eliminated Cat\nplace continent-plus-one asia --by Ann\n"
       "place coin peru --by Bob\nopen faction-eliminated\nplace rules-addition-e rules-addition-e\n" + START
       + "\nplace mercenary brazil --by Ann\n")


def test_game_bookkeeping_refusals_cite_a_rule(tmp_path: Path) -> None:
    file = tmp_path / "world.yaml"
    ok(file, SETUP)
    refused(file, ["game", "start", "--play", "Ann=khan-industries", "--play", "Ann=saharan-republic", "--play",
                   "Cat=die-mechaniker"], "R303", "each player plays once", "Risk Legacy rulebook § Player Set Up")
    refused(file, ["game", "start", "--play", "Ann=khan-industries", "--play", "Bob=khan-industries", "--play",
                   "Cat=die-mechaniker"], "R303", "khan-industries is played twice",
            "Risk Legacy rulebook § Player Set Up")
    refused(file, ["game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic"], "R306",
            "Risk Legacy is for 3 to 5 players", "Risk Legacy rulebook § Components")
    refused(file, ["tick", "peru"], "R320", "boxes are ticked on a mark that has them",
            "Risk Legacy rulebook § Fortifications")
    refused(file, ["game", "end", "--winner", "Ann"], "R302", "a game ends after it started",
            "Risk Legacy rulebook § End of the Game")
    ok(file, START + "\n")
    refused(file, START.split(), "R301", "after it ends, before the next game",
            "Risk Legacy rulebook § End of the Game")
    refused(file, ["game", "end", "--winner", "Zed"], "R307", "did not play game 1",
            "Risk Legacy rulebook § End of the Game")
    refused(file, ["game", "end", "--winner", "Ann", "--held-on", "Ann"], "R307", "listed twice",
            "Risk Legacy rulebook § End of the Game")
    ok(file, "game end --winner Ann --eliminated Cat\nplace continent-plus-one asia --by Ann\n"
       "place coin peru --by Bob\nopen faction-eliminated\n")
    refused(file, ["open", "faction-eliminated"], "R312", "a sealed packet is opened once",
            "Risk Legacy component scans § Sealed packets")


def test_grammar_of_counts_articles_and_reward_refusals(tmp_path: Path) -> None:
    file = tmp_path / "world.yaml"
    ok(file, SETUP + START + "\ngame end --winner Ann\n")
    status = invoke(["status"], file).output
    assert "1 game played" in status and "1 games played" not in status
    out = refused(file, ["place", "major-city", "peru", "--by", "Bob", "--name", "Lima"], "R205",
                  "Bob held on in game 1", "a Major City is for the winner", "Risk Legacy rulebook § If you won")
    assert out.count("is for the winner") == 1
    from scarbook.campaign.checks import a, plural

    assert (a("Extra tactic sticker"), a("Bunker"), plural(1, "box", "boxes"), plural(2, "box", "boxes"),
            plural(1, "game")) == ("an Extra tactic sticker", "a Bunker", "1 box", "2 boxes", "1 game")
    fresh = tmp_path / "fresh.yaml"
    ok(fresh, "new {file} --game risk-legacy --player Ann --player Bob --player Cat\n")
    out = refused(fresh, ["game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic",
                          "--play", "Cat=die-mechaniker"], "R221", "12 coins of the before-first-game supply")


# --- issue 12 item 2: the World Capital as printed ---------------------------------------------------------
TWO_WINS = SETUP + START + """
game end --winner Ann
place major-city alaska --by Ann --name Anchorage
place coin alaska --by Bob
place coin peru --by Cat
""" + START + """ --start Ann=alaska
game end --winner Ann
place continent-plus-one asia --by Ann
place coin brazil --by Bob
place coin egypt --by Cat
"""


@pytest.fixture
def second_signature(tmp_path: Path) -> Path:
    """Ann has signed twice; Ann founded a Major City in Alaska, whose card is worth 4."""
    file = tmp_path / "world.yaml"
    ok(file, TWO_WINS)
    return file


def cities(file: Path) -> list[dict]:
    import json

    result = invoke(["status", "--format", "json"], file)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["cities"]


def test_world_capital_comes_with_the_second_signature_packet_and_goes_on_a_card_worth_4(
        second_signature: Path) -> None:
    file = second_signature
    refused(file, ["place", "world-capital", "alaska", "--by", "Bob", "--name", "Capital"], "R310",
            "open packet second-signature first", *SEALED)
    ok(file, "open second-signature\n")
    assert "to put in place: rules-addition-f -> rules-addition-f (second-signature)" in invoke(["status"],
                                                                                                file).output
    refused(file, ["place", "world-capital", "alaska", "--by", "Bob", "--name", "Capital"], "R230",
            "placed during a game", SCANS)
    # the packet's rule sticker goes into its place before the next game (issue 12 e)
    refused(file, START.split(), "R315", "Rules addition F (\"Homeland\") from the opened packet 'second-signature' "
            "is not in place yet", "place rules-addition-f rules-addition-f",
            "go into their places in the rulebook before the next game", "Risk Legacy rulebook § Before the first "
            "turn", SCANS)
    ok(file, "place rules-addition-f rules-addition-f\n" + START + "\n")
    refused(file, ["place", "world-capital", "peru", "--by", "Bob", "--name", "Capital"], "R234",
            "peru-card has 2 resources", "a card with 4 or more resources", SCANS)
    refused(file, ["place", "world-capital", "alaska", "--name", "Capital"], "R234", "--by NAME", SCANS)
    refused(file, ["place", "world-capital", "alaska", "--by", "Bob"], "R224", "--name")
    assert [c["sticker"] for c in cities(file) if c["territory"] == "alaska"] == ["major-city"]
    ok(file, "place world-capital alaska --by Bob --name Capital\n")
    # it replaced the Major City: one city there, of population 5
    assert [(c["sticker"], c["name"], c["population"]) for c in cities(file) if c["territory"] == "alaska"] == [
        ("world-capital", "Capital", 5)]
    assert "alaska: world-capital 'Capital' (Bob, during game 3, population 5)" in invoke(["status"], file).output
    # there is one, never two on one territory
    refused(file, ["place", "world-capital", "alaska", "--by", "Cat", "--name", "Again"], "R238", SCANS)
    refused(file, ["place", "world-capital", "brazil", "--by", "Cat", "--name", "Again"], "R201", SCANS)


def test_placing_the_world_capital_opens_its_packet_and_the_founder_loses_the_start(second_signature: Path) -> None:
    file = second_signature
    ok(file, "open second-signature\nplace rules-addition-f rules-addition-f\n" + START + " --start Ann=alaska\n"
       "place world-capital alaska --by Bob --name Capital\n"
       "game end --winner Cat\nplace fortification alaska --by Cat\nplace coin china --by Ann\n"
       "place coin india --by Bob\n")
    refused(file, ["game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic", "--play",
                   "Cat=die-mechaniker"], "R310", "open the sealed packet 'world-capital-packet' first",
            "Open when the World Capital mark is about to be placed", *SEALED)
    ok(file, "open world-capital-packet\n")
    status = status_json(file)["to_put_in_place"]
    assert {(x["sticker"], x["before_next_game"]) for x in status} == {
        ("world-capital-rules", True), ("lead-faction-rules", True), ("private-mission-rules", True)}
    assert "world-capital-rules -> world-capital-rules (world-capital-packet) before the next game" in invoke(
        ["status"], file).output
    refused(file, START.split(), "R315", "World Capital rules", "Lead Faction rules", "Private Mission rules")
    ok(file, "place world-capital-rules world-capital-rules\nplace lead-faction-rules lead-faction-rules\n"
       "place private-mission-rules private-mission-rules\n")
    refused(file, ["game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic", "--play",
                   "Cat=die-mechaniker", "--start", "Ann=alaska"], "R305", "not a legal starting territory for Ann",
            "it has fortification, world-capital", "Risk Legacy rulebook § Before the first turn")
    ok(file, START + " --start Ann=peru\n")


# --- issue 12 item 3: rules addition stickers go into their places -----------------------------------------
def test_rule_stickers_go_into_their_places_and_the_reference_sheet_shows_them(second_signature: Path,
                                                                                tmp_path: Path) -> None:
    file = second_signature
    refused(file, ["place", "rules-addition-f", "rules-addition-f"], "R310", "open packet second-signature first",
            *SEALED)
    refused(file, ["place", "rules-addition-b", "rules-addition-b"], "R310", "open packet nine-minor-cities first",
            *SEALED)
    pack = tmp_path / "homeland"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "pack: {id: homeland, title: Our transcription of the second-signature packet, extends: risk-legacy}\n"
        "stickers:\n"
        "  - id: rules-addition-f\n    name: Rules addition F (Homeland)\n    kind: rule\n"
        "    targets: [rulebook-slot]\n    supply: 1\n    replace: true\n    text: Our own transcription.\n"
        "    checks:\n      - {check: target-is, ids: [rules-addition-f], cite: 'our packet'}\n"
        "      - {check: supply-left, cite: 'our packet'}\n"
        "      - {check: placed-once-opened, envelope: second-signature, cite: 'our packet'}\n", "utf-8")
    result = invoke(["open", "second-signature", "--pack", str(pack)], file)
    assert result.exit_code == 0, result.output
    refused(file, ["place", "rules-addition-f", "rules-addition-d"], "R235", "goes on rules-addition-f",
            "our packet")
    refused(file, ["place", "rules-addition-f", "nowhere"], "R102", "goes on a rulebook slot")
    table = invoke_tables(file)
    assert "| Rules addition F | Rules addition F | empty | ? |" in table  # its place shows no text until placed
    assert "Rules addition B" not in table  # still sealed in the packet for the 9th minor city
    status = invoke(["status"], file).output
    assert "to put in place: rules-addition-f -> rules-addition-f (second-signature)" in status
    ok(file, "place rules-addition-f rules-addition-f\n")
    assert "to put in place" not in invoke(["status"], file).output
    table = invoke_tables(file)
    assert "| Before the first turn | Rules addition D | empty |" in table
    assert "Rules addition F (Homeland) (after game 2) | Our own transcription. |" in table
    refused(file, ["place", "rules-addition-f", "rules-addition-f"], "R201", "no rules-addition-f is left")


def invoke_tables(file: Path) -> str:
    from typer.testing import CliRunner

    from scarbook.cli.main import app

    result = CliRunner().invoke(app, ["tables", "risk-legacy", "--campaign", str(file)])
    assert result.exit_code == 0, result.output
    return result.output


def test_scar_deck_before_and_after_the_thirty_troops_pocket(playing: Path) -> None:
    import re

    def scar_cards(table: str) -> int:
        rows = re.findall(r"^\| (Scar cards|Weakness scar cards) \| deck \| (\d+) \|", table, re.M)
        return sum(int(n) for _, n in rows)

    before = invoke_tables(playing)
    assert scar_cards(before) == 12 and "Weakness scar cards" not in before
    refused(playing, ["open", "nine-minor-cities"], "R313", "all 9 minor cities")
    ok(playing, "open thirty-troops\n")
    after = invoke_tables(playing)
    assert scar_cards(after) == 17 and "| Weakness scar cards | deck | 5 |" in after


# --- issue 12 item 4: faction slots, the Alien Island and the Fallout Zone, sealed in their pockets ----------
SEALED_WORDS = ("alien", "fallout", "weakness", "missile-power", "comeback")


def outputs(file: Path) -> str:
    """Everything the players can see of the game as it stands in this campaign."""
    from typer.testing import CliRunner

    from scarbook.cli.main import app

    texts = [invoke(["status", "--format", "json"], file), invoke(["status"], file)]
    for part in ("board", "cards", "stickers", "envelopes", "rules"):
        for fmt in ("text", "json"):
            texts.append(CliRunner().invoke(app, ["show", "risk-legacy", part, "--format", fmt, "--campaign",
                                                  str(file)]))
    for r in texts:
        assert r.exit_code == 0, r.output
    return "\n".join(r.output for r in texts) + invoke_tables(file)


def board(file: Path) -> dict:
    import json

    from typer.testing import CliRunner

    from scarbook.cli.main import app

    result = CliRunner().invoke(app, ["show", "risk-legacy", "board", "--format", "json", "--campaign", str(file)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_pocket_contents_do_not_appear_before_their_pocket_is_opened(playing: Path) -> None:
    seen = outputs(playing).lower()
    assert not [w for w in SEALED_WORDS if w in seen]
    for args, packet in ((["place", "fallout-zone", "peru"], "three-missiles"),
                         (["place", "weakness-scar-sticker", "khan-industries"], "thirty-troops"),
                         (["place", "alien-island-sea-lines", "alien-island", "--to", "peru"], "thirty-troops")):
        refused(playing, args, "R310", f"open packet {packet} first", *SEALED)


def test_thirty_troops_pocket_adds_the_alien_island_its_card_its_sea_lines_and_the_weakness_slot(
        playing: Path) -> None:
    file = playing
    ok(file, "open thirty-troops\n")
    shown = board(file)
    assert "alien-island" in str(shown)
    table = invoke_tables(file)
    assert "Alien Island" in table
    assert "alien-island-sea-lines -> alien-island (thirty-troops)" in invoke(["status"], file).output
    # the sea lines start at the island; which territories they join is the players' choice
    refused(file, ["place", "alien-island-sea-lines", "peru", "--to", "brazil"], "R235", "goes on alien-island",
            SCANS)
    ok(file, "place alien-island-sea-lines alien-island --to peru\nlink alien-island-sea-lines alien-island japan\n")
    refused(file, ["link", "alien-island-sea-lines", "peru", "egypt"], "R342", "starts at alien-island")
    assert "to put in place" not in invoke(["status"], file).output
    # a scar may go on the island, like on any territory
    ok(file, "place bunker alien-island --by Ann\n")
    # the weakness scars go on a faction card's yellow slot (declared by the sealed sticker), one per faction
    # card, never on the board
    refused(file, ["place", "weakness-scar-sticker", "peru"], "R102", "goes on a faction card")
    ok(file, "place weakness-scar-sticker khan-industries\n")
    refused(file, ["place", "weakness-scar-sticker", "khan-industries"], "R202", "already has a Weakness scar",
            "a faction card holds 1 Weakness scar", SCANS)
    ok(file, "place weakness-scar-sticker saharan-republic\n")
    seen = outputs(file).lower()
    assert "fallout" not in seen  # still sealed in the pocket for three missiles


def test_alien_island_card_is_worth_3_coins(playing: Path) -> None:
    import json

    from typer.testing import CliRunner

    from scarbook.cli.main import app

    ok(playing, "open thirty-troops\n")
    result = CliRunner().invoke(app, ["show", "risk-legacy", "cards", "--format", "json", "--campaign", str(playing)])
    assert result.exit_code == 0, result.output
    cards = {c["id"]: c for c in json.loads(result.stdout)["cards"]}
    assert (cards["alien-island-card"]["territory"], cards["alien-island-card"]["resources"]) == ("alien-island", 3)


def status_json(file: Path) -> dict:
    import json

    result = invoke(["status", "--format", "json"], file)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def cards_shown(file: Path) -> list[dict]:
    import json

    from typer.testing import CliRunner

    from scarbook.cli.main import app

    result = CliRunner().invoke(app, ["show", "risk-legacy", "cards", "--format", "json", "--campaign", str(file)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["cards"]


def test_fallout_zone_covers_the_city_and_scar_and_destroys_the_card(second_signature: Path) -> None:
    file = second_signature
    ok(file, "open second-signature\nplace rules-addition-f rules-addition-f\n" + START
       + "\nplace bunker alaska --by Ann\nopen three-missiles\n")
    ok(file, "place fallout-zone alaska\n")
    assert [c for c in cities(file) if c["territory"] == "alaska"] == []
    scars = next(g for g in status_json(file)["mark_groups"] if g["id"] == "scars")["marks"]
    assert [(m["target"], m["sticker"], m["cancelled"]) for m in scars if m["target"] == "alaska"] == [
        ("alaska", "bunker", True)]
    refused(file, ["place", "fallout-zone", "brazil"], "R201", SCANS)  # there is one
    # the card is destroyed in the same step: nothing left to put in place, the card takes nothing more
    assert "fallout" not in invoke(["status"], file).output.split("to put in place", 1)[-1].split("\n")[0]
    assert status_json(file)["destroyed_cards"] == ["alaska-card"]
    refused(file, ["place", "fallout-zone-card", "alaska"], "R101", "unknown sticker")
    refused(file, ["place", "coin", "alaska"], "R215", "alaska-card was destroyed")
    seen = {c["id"]: c for c in cards_shown(file)}
    assert seen["alaska-card"].get("destroyed") is True and not seen["peru-card"].get("destroyed")
    # undo takes the Fallout Zone and its card's destruction back together
    assert invoke(["undo"], file).exit_code == 0
    assert status_json(file)["destroyed_cards"] == []
    ok(file, "place fallout-zone alaska\n")
    # the Major City under it no longer counts: Alaska is no longer Ann's start
    ok(file, "game end --winner Cat\nplace continent-minus-one europe --by Cat\nplace coin china --by Ann\n"
       "place coin india --by Bob\n")
    refused(file, [*START.split(), "--start", "Ann=alaska"], "R305", "not a legal starting territory for Ann",
            "fallout-zone")
    ok(file, START + " --start Ann=peru\n")


# --- issue 12 item 4: the later faction-card slots are sealed slots of their packets -------------------------
def factions_of(file: Path) -> dict:
    from scarbook.campaign.service.reading import campaign_game

    return campaign_game(file, []).section("factions")


COMEBACK_PACK = """pack: {id: comeback, title: Our transcription of the blue slot, extends: risk-legacy}
stickers:
  - id: comeback-power-sticker
    name: Comeback power
    kind: power
    targets: [faction-card]
    slot: comeback-power
    supply: 5
    checks:
      - {check: slot-free, cite: 'our packet'}
"""


def test_faction_cards_declare_their_later_slots_sealed_until_their_packet_opens(playing: Path,
                                                                                 tmp_path: Path) -> None:
    from scarbook.compiler.validate import load_game

    game = load_game("risk-legacy")
    declared = game.section("factions")["khan-industries"]["sealed_slots"]
    assert {s: d["envelope"] for s, d in declared.items()} == {
        "comeback-power": "faction-eliminated", "missile-power": "three-missiles", "weakness": "thirty-troops"}
    assert game.effective().section("factions")["khan-industries"]["slots"] == {"scar": 1, "power": 1}
    assert "sealed_slots" not in game.effective().section("factions")["khan-industries"]
    assert game.effective(["thirty-troops"]).section("factions")["khan-industries"]["slots"] == {
        "scar": 1, "power": 1, "weakness": 1}
    # a pack fills the blue slot: refused while the packet for an eliminated faction is sealed, then one per card
    pack = tmp_path / "comeback"
    pack.mkdir()
    (pack / "pack.yaml").write_text(COMEBACK_PACK, "utf-8")
    file = playing
    ok(file, f"game end --winner Ann --eliminated Cat\nplace continent-plus-one asia --by Ann\n"
             f"place coin peru --by Bob\nadd-pack {pack}\n")
    refused(file, ["place", "comeback-power-sticker", "khan-industries"], "R202",
            "khan-industries has no Comeback power slot", "our packet")
    assert all(set(f["slots"]) == {"scar", "power"} for f in factions_of(file).values())
    ok(file, "open faction-eliminated\nplace comeback-power-sticker khan-industries\n")
    refused(file, ["place", "comeback-power-sticker", "khan-industries"], "R202", "already has a Comeback power")
    seen = factions_of(file)
    assert seen["khan-industries"]["slots"] == {"scar": 1, "power": 1, "comeback-power": 1}
    assert [m["sticker"] for m in seen["khan-industries"]["marks"]] == ["first-game-power", "comeback-power-sticker"]


# --- issue 12 item 4: the territory deck follows the opened pocket (42, then 43 with the Alien Island's card) ---
def test_territory_card_count_follows_the_thirty_troops_pocket(playing: Path) -> None:
    from typer.testing import CliRunner

    from scarbook.cli.main import app
    from scarbook.compiler.validate import load_game

    def shown(file: Path) -> tuple[str, str]:
        cards = CliRunner().invoke(app, ["show", "risk-legacy", "cards", "--campaign", str(file)])
        assert cards.exit_code == 0, cards.output
        return invoke_tables(file), cards.output

    table, cards = shown(playing)
    assert "| Territory cards | deck | 42 | 42 |" in table and "Territory cards [territory]: 42 cards" in cards
    ok(playing, "open thirty-troops\n")
    table, cards = shown(playing)
    assert "| Territory cards | deck | 43 | 43 |" in table, table
    assert "Territory cards [territory]: 43 cards" in cards, cards
    assert "of the 42 cards" not in table and "of 42" not in cards
    game = load_game("risk-legacy")
    assert "sealed_count" not in str(game.effective().section("decks"))
    assert game.effective().section("decks")["territory"]["count"] == 42
    assert game.effective().board["territory_count"] == 42
    opened = game.effective(["thirty-troops"])
    assert (opened.section("decks")["territory"]["count"], opened.board["territory_count"]) == (43, 43)
    assert len(opened.section("territories")) == 43


# --- issue 12 item 4: the Alien Island on the board picture, only once its pocket is opened ----------------
def test_alien_island_is_drawn_once_opened_at_a_position_marked_as_a_drawing_choice(playing: Path,
                                                                                    tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from scarbook.compiler.boardmap import BoardLayout, board_svg, positions
    from scarbook.compiler.validate import load_game

    svg_ns = "{http://www.w3.org/2000/svg}"

    def texts(file: Path) -> list[str]:
        out = tmp_path / "board.svg"
        result = invoke(["sheet", "--format", "svg", "--out", str(out)], file)
        assert result.exit_code == 0, result.output
        return [t.text or "" for t in ET.parse(out).iter(f"{svg_ns}text")]

    before = texts(playing)
    assert not [t for t in before if "Alien" in t]
    ok(playing, "open thirty-troops\nplace alien-island-sea-lines alien-island --to brazil\n")
    after = texts(playing)
    assert "Alien Island" in after
    assert any("no source gives its place" in t for t in after)  # the legend says the position is not game data
    game = load_game("risk-legacy")
    assert "drawing_choice" in game.section("territories")["alien-island"]["layout"]
    opened = game.effective(["thirty-troops"])
    assert positions(opened)["alien-island"] == (40.0, 51.0)
    root = ET.fromstring(board_svg(opened))
    dashed = [c for c in root.iter(f"{svg_ns}circle") if c.get("stroke-dasharray")]
    lay = BoardLayout(opened)
    x, y = lay.pos["alien-island"]
    assert [(float(c.get("cx", 0)), float(c.get("cy", 0))) for c in dashed] == [(round(x, 1), round(y, 1))]
    boxes = list(lay.label_boxes().items())  # its label overlaps no other label and no circle
    island = dict(boxes)["alien-island"]
    assert not [t for t, b in boxes if t != "alien-island" and b.hits(island)]
    assert not [t for t, (cx, cy) in lay.pos.items() if island.hits_circle(cx, cy, lay.radius)]


# --- issue 12 item 6: every refusal cites the rule and where it is written ----------------------------------
def test_unknown_names_and_passes_are_refused_citing_their_rule(playing: Path) -> None:
    from conftest import refused as honest_refusal
    from conftest import snapshot

    def cited(args: list[str], code: str, *parts: str) -> None:
        before = snapshot(playing)
        result = invoke(args, playing)
        honest_refusal(result, code, file_before=before)
        line = next(ln for ln in result.output.splitlines() if f"error {code}:" in ln)
        assert line.rstrip().endswith(")") and "§" in line, line  # (rule; source § section)
        for part in parts:
            assert part in " ".join(result.output.split()), (part, result.output)

    stickers = "the stickers and marks of Risk Legacy are those its content lists"
    cited(["place", "no-such-sticker", "peru"], "R101", stickers, "Risk Legacy rulebook § If you won")
    cited(["where", "no-such-sticker"], "R101", stickers)
    players = "a campaign's players are those named when it began"
    cited(["place", "bunker", "peru", "--by", "Zed"], "R104", players, "Risk Legacy rulebook § Player Set Up")
    cited(["where", "coin", "--by", "Zed"], "R104", players, "Risk Legacy rulebook § Player Set Up")
    cited(["open", "no-such-packet"], "R311", "the sealed packets of Risk Legacy are those its content lists",
          "Risk Legacy rulebook § Sealed Components")
    cited(["pass", "held-on-reward", "--by", "Bob"], "R330", "taken after it ends",
          "Risk Legacy rulebook § End of the Game")
    ok(playing, "game end --winner Ann --held-on Bob --held-on Cat\n")
    cited(["pass", "held-on-reward", "--by", "Zed"], "R104", players, "Risk Legacy rulebook § Player Set Up")
    cited(["pass", "no-such-step", "--by", "Bob"], "R330", "the end of a Risk Legacy game has these steps",
          "Risk Legacy rulebook § End of the Game")
    cited(["pass", "winner-reward", "--by", "Bob"], "R331", "Bob owes no 'winner-reward'",
          "The winner's reward: the winner", "Risk Legacy rulebook § If you won")


def test_world_capital_refusals_cite_the_rulebook_where_it_gives_the_rule(tmp_path: Path) -> None:
    """Issue 39 item 10: a sealed component used before its packet is opened is refused citing the rulebook's
    Sealed Components (it says so: "Don't open these until you've earned the right to!"), the scans only for
    which packet holds it; every `opened` check of the content cites the rulebook too, and the World Capital's
    mission-card conditions (during a game, a card worth 4) cite the scans alone (the rulebook does not print
    them)."""
    import yaml

    file = tmp_path / "world.yaml"
    ok(file, SETUP)
    for sticker, target in (("world-capital", "peru"), ("world-capital-rules", "world-capital-rules"),
                            ("lead-faction-rules", "lead-faction-rules")):
        refused(file, ["place", sticker, target, "--by", "Ann"], "R310", "Risk Legacy rulebook § Sealed Components")
    stickers = yaml.safe_load((Path(__file__).resolve().parents[1] / "content" / "risk-legacy" / "stickers.yaml")
                              .read_text("utf-8"))["stickers"]
    opened = [(s["id"], c["cite"]) for s in stickers for c in s.get("checks", []) if c.get("check") == "opened"]
    assert opened and all("rulebook § Sealed Components" in cite for _sid, cite in opened), opened
    capital = next(s for s in stickers if s["id"] == "world-capital")
    only_scans = {c["check"]: c["cite"] for c in capital["checks"] if c["check"] in ("during-a-game",
                                                                                       "target-card-value")}
    assert all(str(cite).startswith("component-scans §") for cite in only_scans.values()), only_scans
