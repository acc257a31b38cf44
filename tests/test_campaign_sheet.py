"""The campaign sheet (`scarbook campaign sheet`): built from the end state of real campaigns.

Each test runs a scripted campaign through the CLI, writes the sheet and reads its text back with
`pdftotext` (skipped only when poppler is missing), asserting the names and values a group would
look for on the wall.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, play_once, run_script

from conftest import pdftotext


@pytest.fixture(autouse=True)
def _no_env_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)



def test_sheet_with_an_active_scar_does_not_crash(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\nplace bunker greenland --by Ann\n", file)
    out = tmp_path / "sheet.pdf"
    result = invoke(["sheet", "--out", str(out)], file)
    assert result.exit_code == 0, result.output
    assert "Bunker" in pdftotext(out) or "bunker" in pdftotext(out)


def test_sheet_says_when_each_mark_was_placed_before_during_or_after_a_game(tmp_path: Path) -> None:
    """A scar placed while game 1 is played was not there 'before game 1' (issue 10): during game N, after game N
    (between games), before game 1 (setup)."""
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\nplace bunker greenland --by Ann\ngame end --winner Ann\n"
                          "place major-city peru --by Ann --name Lima\nplace coin brazil --by Bob\n"
                          "place coin egypt --by Cat\n" + START + "\nplace ammo-shortage iceland --by Bob\n", file)
    out = tmp_path / "sheet.pdf"
    result = invoke(["sheet", "--out", str(out)], file)
    assert result.exit_code == 0, result.output
    flat = " ".join(pdftotext(out).split())
    assert "Greenland Bunker in play Ann, during game 1" in flat, flat
    assert "Iceland Ammo Shortage in play Bob, during game 2" in flat
    assert "Peru Lima Major City size 2 Ann, after game 1" in flat
    assert "before game 1" not in flat.split("Scars", 1)[-1].split("Stickers left", 1)[0]
    status = invoke(["status"], file).output
    assert "peru: major-city 'Lima' (Ann, after game 1, population 2)" in status


def test_a_homebrew_campaign_records_its_game_folder_relative_to_the_ledger(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import EXAMPLES

    game = tmp_path / "games" / "isles"
    shutil.copytree(EXAMPLES / "tiny-game", game)
    monkeypatch.chdir(tmp_path)
    assert invoke(["new", "camps/c.yaml", "--game", "games/isles", "--player", "Ann", "--player", "Bob"]).exit_code == 0
    assert "game: ../games/isles" in (tmp_path / "camps" / "c.yaml").read_text()
    monkeypatch.chdir(game)  # any folder
    result = invoke(["place", "kraken", "north-isle"], tmp_path / "camps" / "c.yaml")
    assert result.exit_code == 0, result.output


# --- the end state of three realistic campaigns ---------------------------------------------------
def _shadow_forces_script() -> str:
    from campaigns.helpers import script

    return script("risk-shadow-forces-15.txt")

HOMEBREW_EXTRA = """
  - {id: calm-seas, name: Calm Seas, kind: cancel, targets: [territory], supply: 2, covers: [scar], cancels: true,
     effect: Covers a scar., checks: [{check: covers-existing, cite: "isles § Calm"}]}
  - {id: sea-wall, name: Sea Wall, kind: fortification, targets: [territory], supply: 2, boxes: 6,
     effect: The defender adds 1 to both dice.}
  - {id: lighthouse, name: Lighthouse, kind: lighthouse, targets: [territory], supply: 3, effect: Seen from afar.}
  - {id: village, name: Fishing Village, kind: city, slot: city, targets: [territory], supply: 4,
     founds: {kind: city, population: 1, named: true}, effect: A named village.}
  - {id: pearl, name: Pearl, kind: resource, targets: [territory-card], supply: 6, adds: {resources: 1},
     effect: One more resource on the card.}
  - {id: sunk, name: Sunk card, kind: destroyed, targets: [territory-card], effect: The card is gone.}
envelopes:
  - {id: storm-chest, name: The Storm Chest, trigger: {text: Open after the first game., when: {after_game: 1}},
     contents: []}
  - {id: deep-chest, name: The Deep Chest, trigger: {text: Open after game 1 too., when: {after_game: 1}},
     contents: []}
factions:
  - {id: gulls, name: The Gulls}
  - {id: crabs, name: The Crabs}
"""

HOMEBREW = """
new {file} --game isles --player Ann --player Bob --name "Isle Wars"
place kraken north-isle
place kraken east-isle
game start --play Ann=gulls --play Bob=crabs
place sea-wall south-isle --by Ann
tick south-isle --boxes 2
game end --winner Ann --held-on Bob
place calm-seas east-isle --by Ann
place village south-isle --by Bob --name Saltby
place lighthouse north-isle
place pearl east-isle-card
destroy north-isle-card --by Ann
open storm-chest
"""


@pytest.fixture(scope="module")
def risk_legacy_sheet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from campaigns.helpers import script

    file = tmp_path_factory.mktemp("rl") / "world.yaml"
    assert not play_once(script("risk-legacy-15.txt"), file)  # the script's one play per run, then a 16th game
    assert not run_script("game start --play Ann=khan-industries --play Bob=saharan-republic --play "
                          "Cat=die-mechaniker\ntick argentina --boxes 4\ngame end --winner Ann\n", file)
    out = file.with_suffix(".pdf")
    result = invoke(["sheet", "--out", str(out)], file)
    assert result.exit_code == 0, result.output
    return out


def _run(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    file = tmp_path / "c.yaml"
    assert not run_script(text, file)
    return file


def _homebrew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from conftest import EXAMPLES

    game = tmp_path / "isles"
    shutil.copytree(EXAMPLES / "tiny-game", game)
    text = (game / "game.yaml").read_text()
    text = text.replace("count: 3}", "count: 3, card_type: territory}")
    (game / "game.yaml").write_text(text + HOMEBREW_EXTRA)
    return _run(tmp_path, HOMEBREW, monkeypatch)


@pytest.mark.slow
def test_risk_legacy_sheet_after_fifteen_games(risk_legacy_sheet: Path) -> None:
    """Slow (the sheet of a 15-game campaign rendered to PDF): what the Risk Legacy sheet prints at the end."""
    text = pdftotext(risk_legacy_sheet)
    flat = " ".join(text.split())
    # page 1: the board with names as printed, cities with names, fortifications with boxes left
    page1 = text.split("\f")[0]
    for name in ("Great Britain", "Sunny Glasgow", "Buenos Aires", "Eurodisney +6", "Khanate +6", "Awesometonia +2",
                 "6/10", "10/10", "Tana", "Kamchatka"):
        assert name in page1, name
    assert "great-britain" not in text and "khan-industries" not in text  # never ids
    assert "Europe Eurodisney Bob +6 printed +5; Continent +1" in flat
    assert "Asia Khanate Bob +6 printed +7; Continent -1" in flat
    assert "Ann 6 1, 3, 5, 8, 11, 14 6 missiles" in flat
    assert "Cat 4 4, 7, 10, 13 4 missiles" in flat
    assert "Ann · Alberta · winner" in flat  # the faction record: player, start, result
    assert "khan-industries-home-draft" not in flat and "Khan Industries: " in flat  # its power, by name
    assert "Argentina Fortification 6 of 10 boxes left Ann, after game 11" in flat
    assert "Greenland Bunker cancelled (Scar Cancel (white sticker))" in flat
    assert "Japan" in flat and "destroyed" in flat
    # issue 34 P12: the "On" column names the rulebook place, never the sticker again ('Rules addition E |
    # Rules addition E'), and a section titled after its one place is not named twice
    assert "Its own place in the rulebook Rules addition E in play" in flat
    assert "Rules additions B and C: Rules addition B Rules addition B in play" in flat
    assert "Rules addition E Rules addition E" not in flat and "Rules addition F: Rules addition F" not in flat
    assert "Packet for an eliminated faction opened" in flat and "Packet for the 9th minor city opened" in flat
    # the packets still sealed, with the trigger printed on them (issue 25, review D17)
    assert "Pocket for three missiles sealed Open when three missiles are used on one combat roll." in flat
    assert "Packet for the World Capital sealed" in flat
    assert "overall winner" not in flat.lower()  # Risk Legacy's sources give no overall-winner rule


def test_risk_legacy_sheet_lists_only_changed_cards(risk_legacy_sheet: Path) -> None:
    flat = " ".join(pdftotext(risk_legacy_sheet).split())
    cards = flat.split("Cards that changed", 1)[1].split("Stickers left", 1)[0]
    assert "Alaska 1 3" in cards or "Alaska" in cards
    assert "Peru" in cards and "Japan" in cards and "destroyed" in cards
    assert "Kamchatka" not in cards  # never upgraded


def test_risk_legacy_sheet_keeps_headings_with_their_tables(risk_legacy_sheet: Path) -> None:
    for page in pdftotext(risk_legacy_sheet).split("\f"):
        lines = [ln.strip() for ln in page.splitlines() if ln.strip()]
        body = [ln for ln in lines if not ln.startswith("Test World · Risk Legacy")]
        if body:
            assert body[-1] not in ("Cities", "Scars", "Fortifications", "Coin stickers", "Rules stickers",
                                    "Stickers left", "Games played", "Sealed packets", "Cards that changed",
                                    "Players", "Continents"), page[-300:]


@pytest.mark.slow
def test_shadow_forces_sheet_shows_setup_scars_and_warlord_stickers(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The end state of the scripted 15-game campaign: devastation, warlord stickers, zones, names, the tie.
    Slow: its sheet rendered to PDF."""
    monkeypatch.chdir(tmp_path)
    file = tmp_path / "c.yaml"
    assert not play_once(_shadow_forces_script(), file)  # the script's one play per run
    out = tmp_path / "sf.pdf"
    result = invoke(["sheet", "--out", str(out)], file)
    assert result.exit_code == 0, result.output
    text = pdftotext(out)
    page1 = text.split("\f")[0]
    for name in ("NA-05", "EU-03", "Devastation scar", "Kai Weller", "Paradise"):
        assert name in page1, name
    flat = " ".join(text.split())
    assert "cancelled" in flat and "Black cancel square" in flat
    assert "NA-05 Devastation scar in play setup, before game 1" in flat
    assert "skirmish" in flat and "global" in flat
    assert "missile" not in flat.lower() and "red star" not in flat.lower()
    assert "1 domination token, 6 cyber-operations" in flat
    assert "overall winner: a tie between Ann, Bob and Cat (5 signatures each): roll off, adding Ann +5" in flat


def test_homebrew_sheet_and_its_formats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = _homebrew(tmp_path, monkeypatch)
    out = tmp_path / "isles.pdf"
    result = invoke(["sheet", "--out", str(out)], file)
    assert result.exit_code == 0, result.output
    flat = " ".join(pdftotext(out).split())
    assert "Isle Wars" in flat and "Tiny Isles" in flat
    assert "North Isle Kraken in play" in flat and "East Isle Kraken cancelled (Calm Seas)" in flat
    assert "South Isle Sea Wall 4 of 6 boxes left Ann, during game 1" in flat  # placed while game 1 was played
    assert "South Isle Saltby Fishing Village size 1 Bob, after game 1" in flat
    assert "North Isle Lighthouse in play after game 1" in flat  # placed by nobody named, between games
    assert "East Isle 1 2" in flat and "North Isle 1 1 destroyed" in flat
    assert "The Deep Chest open now" in flat and "The Storm Chest opened" in flat
    assert "The Gulls" in flat and "Ann · winner" in flat

    html = tmp_path / "isles.html"
    assert invoke(["sheet", "--format", "html", "--out", str(html)], file).exit_code == 0
    page = html.read_text()
    assert "<svg" in page and "data:font/ttf;base64," in page and "url(fonts/" not in page
    assert "Saltby" in page and "4/6" in page

    svg = tmp_path / "isles.svg"
    assert invoke(["sheet", "--format", "svg", "--out", str(svg)], file).exit_code == 0
    import xml.etree.ElementTree as ET

    texts = [t.text for t in ET.parse(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "Saltby" in texts and "4/6" in texts and "Kraken" in texts and "Lighthouse" in texts
    assert "East Isle" in texts and "Archipelago +2" in texts
    lines = list(ET.parse(svg).iter("{http://www.w3.org/2000/svg}line"))
    assert len(lines) == 2  # the `neighbors:` lists are drawn, and a ring layout never "wraps"
    assert not (tmp_path / "c.pdf").exists()


# --- the board picture: labels that read -----------------------------------------------------------
@pytest.mark.parametrize("aid", [False, True], ids=["sheet", "aid"])
@pytest.mark.parametrize("game_ref", ["risk-legacy", "risk-shadow-forces", "tiny-game"])
def test_board_labels_never_overlap_each_other_or_circles(game_ref: str, aid: bool) -> None:
    """On the campaign sheet's wide view, and on the player aid's narrower one (A4 portrait, at most 112 mm
    tall, with the marks as rows of icons): the same text size in a smaller picture."""
    from conftest import EXAMPLES
    from scarbook.compiler.boardmap import VIEW_WIDTH, BoardLayout, MapMark, view_width_for
    from scarbook.compiler.validate import cached_game

    game = cached_game(str(EXAMPLES / "tiny-game") if game_ref == "tiny-game" else game_ref)
    marks: dict[str, list] = {tid: [MapMark("city", "Newtown", 2)] for tid in list(game.section("territories"))[::5]}
    view = view_width_for(game, 188, 112) if aid else VIEW_WIDTH
    assert view < VIEW_WIDTH or not aid
    for marked in (None, marks):
        lay = BoardLayout(game, marked, view, compact=aid)
        boxes = lay.label_boxes()
        assert boxes or (marked is None and game_ref == "risk-shadow-forces"), game_ref  # codes sit in circles
        items = list(boxes.items())
        for i, (a, box_a) in enumerate(items):
            for b, box_b in items[i + 1:]:
                assert not box_a.hits(box_b), (game_ref, a, b)
            for tid, (cx, cy) in lay.pos.items():
                assert not box_a.hits_circle(cx, cy, lay.radius), (game_ref, a, "circle", tid)
        for text, _x, _y, title in lay.titles:
            for tid, box in items:
                assert not box.hits(title), (game_ref, text, tid)


def test_shadow_forces_prints_each_territory_once_with_its_code() -> None:
    import xml.etree.ElementTree as ET

    from scarbook.compiler.boardmap import board_svg
    from scarbook.compiler.validate import cached_game

    texts = [t.text or "" for t in ET.fromstring(board_svg(cached_game("risk-shadow-forces")))
             .iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("NA-03") == 1 and "na-03" not in texts


def test_wrap_edges_leave_one_side_and_enter_the_other() -> None:
    from scarbook.compiler.boardmap import VIEW_WIDTH, BoardLayout
    from scarbook.compiler.validate import cached_game

    lay = BoardLayout(cached_game("risk-legacy"))
    wraps = [(a, b) for kind, a, b, _ in lay.segments if kind == "wrap"]
    assert len(wraps) == 2
    assert sorted(b[0] for _, b in wraps) == [0.0, VIEW_WIDTH]
    assert wraps[0][1][1] == wraps[1][1][1]  # both halves cross the sides at the same height
    assert all(abs(a[0] - b[0]) < VIEW_WIDTH / 2 for a, b in wraps)


def test_the_sheet_carries_the_board_picture_with_the_campaign_marks(tmp_path: Path) -> None:
    import re

    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\nplace bunker greenland --by Ann\n", file)
    svg_out, html_out = tmp_path / "board.svg", tmp_path / "sheet.html"
    assert invoke(["sheet", "--format", "svg", "--out", str(svg_out)], file).exit_code == 0
    result = invoke(["sheet", "--format", "html", "--out", str(html_out)], file)
    assert result.exit_code == 0, result.output
    svg, html = svg_out.read_text("utf-8").strip(), html_out.read_text("utf-8")
    assert svg.endswith("</svg>\n<!-- made by scarbook -->")  # the mark that lets it be written again
    svg = svg.removesuffix("\n<!-- made by scarbook -->")
    assert "No board picture" not in html
    assert svg.startswith("<svg") and svg in html  # the very picture `--format svg` writes
    assert len(re.findall(r"<circle\b", svg)) >= 42  # one per territory of the Risk Legacy board
    assert "Greenland" in svg


def test_no_table_leaves_one_row_alone_on_a_page(tmp_path: Path) -> None:
    """Issue 34 P10: a table that runs onto the next page takes two rows or more with it (the Shadow Forces
    opening's sheet, A4: page 5 held the repeated header and game 3's row alone) and leaves two or more behind.
    Read from the PDF: a page that opens with the header the page before it also has (a table going on) holds two
    or more rows after it, and the page before two or more lines after that header."""
    from campaigns.helpers import script

    file = tmp_path / "sfo.yaml"
    assert not play_once(script("risk-shadow-forces-opening.txt"), file)
    for paper in ("a4", "letter"):
        out = tmp_path / f"sfo-{paper}.pdf"
        result = invoke(["sheet", "--out", str(out), "--paper", paper], file)
        assert result.exit_code == 0, result.output
        pages = [[" ".join(line.split()) for line in page.splitlines() if line.strip()]
                 for page in pdftotext(out).split("\f") if page.strip()]
        assert len(pages) >= 3, pages
        for number, (before, page) in enumerate(zip(pages, pages[1:], strict=False), 2):
            if page[0] in before:  # a table's repeated header: the table goes on here
                body = [line for line in page[1:] if " page " not in line]  # the running footer
                rows = body[:next((i for i, line in enumerate(body) if not line[0].isdigit()), len(body))] \
                    if body and body[0][0].isdigit() else body
                assert len(rows) >= 2, (paper, number, page[:4])
                left = [line for line in before[len(before) - before[::-1].index(page[0]):] if " page " not in line]
                assert len(left) >= 2, (paper, number - 1, before[-4:])  # nor one row alone at the page's foot


def _played(playtest: Path, file: Path) -> None:
    """The campaign a play-test file plays (its refused steps left out), recorded in `file`."""
    import yaml

    doc = yaml.safe_load(playtest.read_text(encoding="utf-8"))
    new = ["new", str(file), "--game", str((playtest.parent / doc["game"]).resolve())]
    assert invoke([*new, *(x for p in doc["players"] for x in ("--player", p))]).exit_code == 0
    for step in doc["steps"]:
        if isinstance(step, dict) and step.get("refused"):
            continue
        line = (step["run"] if isinstance(step, dict) else step).replace("{scratch}", str(file.parent))
        result = invoke(shlex.split(line), file)
        assert result.exit_code == 0, (line, result.output)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("example", ["cinder-guild", "lantern-road", "harbor-watch"])
def test_the_board_stays_on_the_first_page_under_a_long_summary(example: str, paper: str, tmp_path: Path) -> None:
    """The end state of an example's play-test, whose shape says a lot above the board (cards and tracks, scenarios
    played, months won): the board shrinks to stay on page 1 with it (sheet.board_room_mm). Before, a board 160 mm
    tall went to a page of its own and page 1 held three lines of text."""
    import re

    from conftest import EXAMPLES

    file = tmp_path / "c.yaml"
    _played(EXAMPLES / example / "playtest.yaml", file)
    svg, pdf = tmp_path / "board.svg", tmp_path / "sheet.pdf"
    assert invoke(["sheet", "--format", "svg", "--out", str(svg)], file).exit_code == 0
    assert invoke(["sheet", "--paper", paper, "--out", str(pdf)], file).exit_code == 0
    words = {" ".join(w.split()) for w in re.findall(r"<text[^>]*>([^<]+)</text>", svg.read_text(encoding="utf-8"))}
    first = " ".join(pdftotext(pdf).split("\f")[0].split())
    assert len(words) >= 3 and not [w for w in words if w not in first], [w for w in words if w not in first]


def test_a_branching_campaign_sheet_lists_every_scenario_with_its_state(tmp_path: Path) -> None:
    """Lantern Road after its play-test: each scenario of the graph with its result, the games that played it, and
    whether it may be played next or the condition that keeps it closed (the map a branching campaign is played
    on; before, the sheet said only which were played)."""
    from conftest import EXAMPLES

    file, pdf = tmp_path / "c.yaml", tmp_path / "sheet.pdf"
    _played(EXAMPLES / "lantern-road" / "playtest.yaml", file)
    assert invoke(["sheet", "--out", str(pdf)], file).exit_code == 0
    flat = " ".join(pdftotext(pdf).split())
    section = flat.split("Scenarios Scenario Result Games Next ", 1)[1].split(" Regions ", 1)[0]
    assert section.startswith("The River Crossing won 1, 2 The Burned Mill won 3 The Drowned Marsh not played closed: "
                              "the bridge still stands"), section
    assert section.endswith("The Lantern Tower won 8, 9, 10"), section


def test_the_campaign_aid_says_where_a_campaign_beyond_the_board_stands(tmp_path: Path) -> None:
    """`build --campaign` of Lantern Road after its play-test: the aid's "The world now" says what `status` says of
    its shape (prosperity, scenarios played and open, the result), not only which cards are marked."""
    from typer.testing import CliRunner

    from conftest import EXAMPLES
    from scarbook.cli.main import app

    file, out = tmp_path / "c.yaml", tmp_path / "out"
    _played(EXAMPLES / "lantern-road" / "playtest.yaml", file)
    result = CliRunner().invoke(app, ["build", "--campaign", str(file), "--out", str(out), "--only", "reference",
                                      "--jobs", "1"])
    assert result.exit_code == 0, result.output
    flat = " ".join(pdftotext(out / "lantern-road" / "reference.pdf").split())
    world = flat.split("The world now ", 1)[1].split(" The turn", 1)[0]
    assert world.startswith("Prosperity: 5 (0 to 9) "), world
    assert ("Played: The River Crossing won, The Burned Mill won, The Old Ford won, The Guild Hall won, The Lantern "
            "Tower won Open to play: none The campaign is won (The Lantern Tower's result: won)") in world, world


@pytest.mark.slow
def test_a_piece_struck_through_on_the_sheet_says_when_it_was_lost_and_played_again(tmp_path: Path) -> None:
    """The 15-game Shadow Forces campaign loses Angus Smith for good and plays him again at a price: the sheet's
    warlord table struck his name through and said nothing of either (issue 34 audit); each game comes from the
    ledger (`campaign status --format json`), the words are read back from the PDF."""
    import json
    import re
    import subprocess

    file = tmp_path / "c.yaml"
    assert not play_once(_shadow_forces_script(), file)
    status = json.loads(invoke(["status", "--format", "json"], file).output)
    lost = {p: g["game"] for g in status["games"] for p in g["lost"]}
    again = {p: g["game"] for g in status["games"] for p in g["returned"]}
    assert lost.get("angus-smith") and again.get("angus-smith"), (lost, again)
    out = tmp_path / "sf.pdf"
    assert invoke(["sheet", "--out", str(out)], file).exit_code == 0
    pdftotext(out)  # skips without poppler
    html = subprocess.run(["pdftotext", "-bbox", str(out), "-"], capture_output=True, text=True, check=True).stdout
    page = next(p for p in html.split("<page ")[1:] if ">Warlords</word>" in p)
    words = [(float(y), float(x), w) for x, y, w in
             re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)</word>', page)]
    top = next(y for y, _, w in words if w == "Warlords")
    end = min(y for y, _, w in words if w == "Devastated" and y > top)
    given = next(x for y, x, w in words if w == "Given" and y > top)  # the Name column ends where Given name starts
    names = " ".join(w for y, x, w in sorted(words) if top < y < end and x < given - 1)
    assert names.count("lost for good") == sum(1 for p in status["pieces"] if p["lost"]) == 1, names
    assert (f"Angus Smith lost for good in game {lost['angus-smith']}; played again in game {again['angus-smith']} "
            "at a price") in names, names


@pytest.mark.slow
def test_a_mark_table_lists_its_places_in_board_order_and_each_place_by_game(tmp_path: Path) -> None:
    """The 15-game Shadow Forces sheet's 55 warlord stickers came in the ledger's order of places (NA-05, EU-03,
    NA-02, AF-03, NA-01...: neither by territory nor by game, issue 34 audit / D10); now by the board's territory
    order (the content's), each territory's stickers by the game they were placed after. Read from the PDF."""
    import re

    from scarbook.compiler.validate import cached_game

    file = tmp_path / "c.yaml"
    assert not play_once(_shadow_forces_script(), file)
    out = tmp_path / "sf.pdf"
    assert invoke(["sheet", "--out", str(out)], file).exit_code == 0
    text = pdftotext(out)
    table = text[text.index("Warlord stickers"):text.index("Tactic stickers")]
    rows = re.findall(r"^\s*([A-Z]{2}-\d\d)\s+.*?warlord sticker.*?after game (\d+)\s*$", table, re.M)
    assert len(rows) >= 50, rows
    board = [str(t.get("code")) for t in cached_game("risk-shadow-forces").section("territories").values()]
    keys = [(board.index(code), int(game)) for code, game in rows]
    assert keys == sorted(keys), [r for r, k, n in zip(rows, keys, keys[1:], strict=False) if k > n][:5]
    # the scar card stickers of envelopes C and D go on the gameboard's legend: 'On' said 'board' (the target's id)
    stickers = text[text.index("Continent stickers"):text.index("Rules stickers")]
    on = [line.split()[0] for line in stickers.splitlines() if "Scar card sticker" in line]
    assert len(on) == 4 and set(on) == {"The"} and stickers.count("The gameboard") == 4, stickers


def test_a_sticker_that_adds_territories_is_listed_with_its_kind_even_when_named(tmp_path: Path) -> None:
    """Issue 34 N8: the 15-game Shadow Forces sheet's 'Continent stickers' table and `status` listed 7 continent
    stickers: the one its placer named (`named: true`: the tracker took it for a mere name, shown in the
    Continents table only) was missing, though it lies on the board as the others do. Every placed sticker that
    adds territories to the board is listed in its mark group, in the status text and in the sheet's PDF."""
    import json

    from scarbook.compiler.validate import cached_game

    file = tmp_path / "c.yaml"
    assert not play_once(_shadow_forces_script(), file)
    result = invoke(["status", "--format", "json"], file)
    assert result.exit_code == 0, result.output
    status = json.loads(result.output)
    stickers = cached_game("risk-shadow-forces").section("stickers")
    groups = status["mark_groups"]
    on_board = [(n, m) for n, g in enumerate(groups) for m in g["marks"]
                if stickers.get(m["sticker"], {}).get("adds_territories") and m["active"]]
    assert len(on_board) >= 4 and any(stickers[m["sticker"]].get("named") for _n, m in on_board), on_board
    text = invoke(["status"], file).output
    out = tmp_path / "sf.pdf"
    assert invoke(["sheet", "--out", str(out)], file).exit_code == 0
    sheet = pdftotext(out)
    lines = text.splitlines()
    for n in sorted({n for n, _m in on_board}):
        heading, mine = groups[n]["plural"][:1].upper() + groups[n]["plural"][1:], [m for k, m in on_board if k == n]
        head = next(i for i, line in enumerate(lines) if line.startswith(f"{heading} ("))
        listed = lines[head + 1:head + 1 + int(lines[head].split("(")[1].split(")")[0])]  # 'Continent stickers (8):'
        missing = [m["sticker"] for m in mine if not any(f": {m['sticker']}" in line for line in listed)]
        assert not missing, (heading, missing, listed)
        later = [g["plural"][:1].upper() + g["plural"][1:] for g in groups[n + 1:]]
        table = sheet[sheet.index(f"\n{heading}\n"):]
        table = table[:min([table.index(f"\n{h}\n") for h in later if f"\n{h}\n" in table] or [len(table)])]
        flat = " ".join(table.split())
        missing = [stickers[m["sticker"]]["name"] for m in mine if stickers[m["sticker"]]["name"] not in flat]
        assert not missing, (heading, missing, flat[:600])


def test_a_marks_state_is_never_broken_over_two_lines(tmp_path: Path) -> None:
    """The 15-game Shadow Forces sheet: the State column of its mark tables broke 'in play' into 'in' / 'play' in
    the continent stickers' rows (issue 34 audit); a short state is one unbroken cell."""
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.sheet import view

    file, out = tmp_path / "c.yaml", tmp_path / "sf.pdf"
    assert not play_once(_shadow_forces_script(), file)
    campaign = Campaign(read(file))
    rows = [m for g in view(campaign.ledger, campaign.replay(check=False))["mark_groups"] for m in g["rows"]
            if m["state"] == "in play"]
    assert invoke(["sheet", "--out", str(out)], file).exit_code == 0
    whole = sum(line.count("in play") for line in pdftotext(out).splitlines())
    assert len(rows) >= 50 and whole >= len(rows), (whole, len(rows))
