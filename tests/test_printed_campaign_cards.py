"""`build --campaign` cards and the sticker sheets, read back from the PDFs (issue 34, P1 and P6).

- P1: after the scripted 15-game Shadow Forces campaign (tests/campaigns/), every main warlord card prints
  the stats `campaign status` gives (upgrades applied; an unknown value raised by stickers reads "? +N"),
  under the warlord's own name with the players' alias beside it.
- P6: every sticker of the two legacy games, A4 and Letter, is sized for where it goes (a token for a card
  holds six on a card's 59 x 40 mm free area), draws its tick boxes, and keeps every word at least 2 mm
  inside its cut line (word boxes from `pdftotext -bbox` against the planned cut rectangles; a round token's
  words inside its circle by the same 2 mm).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from campaigns.helpers import play_once, script
from typer.testing import CliRunner

from scarbook.cli.main import app
from scarbook.compiler.sheets import sticker_items, sticker_sheets
from scarbook.compiler.validate import cached_game

MM_PER_PT = 25.4 / 72
NBSP = "\u00a0"
pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext")


def _build(out: Path, *args: str) -> None:
    result = CliRunner().invoke(app, ["build", *args, "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output


def _words(pdf: Path) -> list[list[tuple[float, float, float, float, str]]]:
    """Every page's words as (x0, y0, x1, y1) in mm from the top left, and the word."""
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page in html.split("<page ")[1:]:
        pages.append([(float(a) * MM_PER_PT, float(b) * MM_PER_PT, float(c) * MM_PER_PT, float(d) * MM_PER_PT,
                       w.replace("&amp;", "&").replace("&quot;", '"'))
                      for a, b, c, d, w in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                                                      r'yMax="([\d.]+)">([^<]*)</word>', page)])
    return pages


@pytest.fixture(scope="module")
def sf15(tmp_path_factory: pytest.TempPathFactory) -> Path:
    file = tmp_path_factory.mktemp("sf15") / "sf15.yaml"
    assert not play_once(script("risk-shadow-forces-15.txt"), file)  # the end state, played once per run
    return file


def test_campaign_warlord_cards_print_the_upgraded_stats_under_the_warlords_name(sf15: Path, tmp_path: Path) -> None:
    status = CliRunner().invoke(app, ["campaign", "status", "--format", "json", "-c", str(sf15)])
    assert status.exit_code == 0, status.output
    pieces = [p for p in json.loads(status.output)["pieces"] if p["given_name"]]
    assert {p["piece"] for p in pieces} >= {"kai-weller", "raaz-garcia"}
    _build(tmp_path, "risk-shadow-forces", "--campaign", str(sf15), "--only", "cards")
    pdf = tmp_path / "risk-shadow-forces" / "cards.pdf"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout.replace(NBSP, " ")
    flat = " ".join(text.split())
    checked = 0
    for p in pieces:
        assert f"{p['name']} “{p['given_name']}”" in flat, p["name"]  # the name, the alias beside it
        # the card's stats block: from the name's heading to the card's footer note
        block = flat[flat.index(f"{p['name']} “"):]
        block = block[:block.index("= not in the sources")] if "= not in the sources" in block else block[:600]
        for key, now in p["stats"].items():
            words = key.replace("_", " ")
            raised = p["raised"].get(key)
            if now is not None and now != p["printed"].get(key):
                assert re.search(rf"\b{words} {now}\b", block), (p["name"], key, now)
                checked += 1
            elif now is None and raised:
                assert f"{words} ? +{raised}" in block, (p["name"], key, raised)
                checked += 1
    assert checked >= 8  # Ghost: melee dice, shield dice, shield to block; Razor: 2 stats, 2 raised


def _players_game(game_id: str):  # type: ignore[no-untyped-def]
    """The game as `build` prints it without a campaign: nothing sealed (as scarbook.cli.build loads it)."""
    from scarbook.compiler.spoilers import for_players

    full = cached_game(game_id)
    return for_players(full.effective(), full)


def _planned(game_id: str, paper: str) -> list[list[tuple[float, float, float, float, dict]]]:
    game = _players_game(game_id)
    return [[(s.x, s.y, s.x + s.w, s.y + s.h, s.card) for s in sheet.slots]
            for sheet in sticker_sheets(sticker_items(game), paper)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_stickers_are_sized_for_their_target_and_keep_their_words_2_mm_inside(paper: str, tmp_path: Path) -> None:
    _build(tmp_path, "risk-legacy", "risk-shadow-forces", "--only", "stickers", "--paper", paper)
    for game_id in ("risk-legacy", "risk-shadow-forces"):
        pdf = tmp_path / game_id / "stickers.pdf"
        planned = _planned(game_id, paper)
        pages = _words(pdf)
        assert len(pages) == len(planned), game_id
        coins = [c for page in planned for *_, c in page if c["id"] == "coin"]
        if game_id == "risk-legacy":  # 53 coin tokens: six fit the 59 x 40 mm free area of a card (3 x 2)
            assert len(coins) == 53 and all(c["token"] for c in coins)
            w, h = coins[0]["w"], coins[0]["h"]
            assert 3 * w + 2 * 1.0 <= 59 and 2 * h + 1.0 <= 40
            fort = next(c for page in planned for *_, c in page if c["id"] == "fortification")
            assert fort["boxes"] == 10
        near = []
        for words, slots in zip(pages, planned, strict=True):
            for x0, y0, x1, y1, word in words:
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                inside = [s for s in slots if s[0] <= cx <= s[2] and s[1] <= cy <= s[3]]
                if not inside:
                    continue  # the sheet's heading
                sx0, sy0, sx1, sy1, card = inside[0]
                if card["token"]:  # round: every corner of the word 2 mm inside the circle
                    r, ox, oy = (sx1 - sx0) / 2, (sx0 + sx1) / 2, (sy0 + sy1) / 2
                    far = max(((x - ox) ** 2 + (y - oy) ** 2) ** 0.5 for x in (x0, x1) for y in (y0, y1))
                    gap = r - far
                else:
                    gap = min(x0 - sx0, sx1 - x1, y0 - sy0, sy1 - y1)
                if gap < 2.0:
                    near.append((game_id, card["id"], word, round(gap, 2)))
        assert not near, near[:10]
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "risk-legacy" / "stickers.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "sized for where it goes" in " ".join(text.split()) and "42 × 26" not in text


def test_a_fortification_sticker_draws_its_ten_tick_boxes() -> None:
    from scarbook.compiler.render.html import sheets_html

    game = _players_game("risk-legacy")
    html = sheets_html("stickers.html.j2", game.title, sticker_sheets(sticker_items(game), "a4"), "a4")
    forts = re.findall(r'data-sticker="fortification".*?data-boxes="(\d+)">((?:<i></i>)*)</div>', html, re.S)
    assert len(forts) == 5 and all(n == "10" and body.count("<i>") == 10 for n, body in forts)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_pages_carry_a_trim_box_on_the_cards_and_a_bleed_box_around_it(paper: str, tmp_path: Path) -> None:
    """P19: a print shop's imposition tool finds the cut: TrimBox is the outline of the cards (each 63 x 88 mm,
    so the box is a whole number of cards), BleedBox that outline with the bleed, both inside the MediaBox."""
    from pypdf import PdfReader

    _build(tmp_path, "risk-shadow-forces", "--only", "cards", "--paper", paper)
    reader = PdfReader(tmp_path / "risk-shadow-forces" / "cards.pdf")
    cards = 0
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        w_mm, h_mm = (trim[2] - trim[0]) * MM_PER_PT, (trim[3] - trim[1]) * MM_PER_PT
        if trim == media:
            continue
        cards += 1
        cols, rows = w_mm / 63, h_mm / 88
        assert abs(cols - round(cols)) < 0.01 and abs(rows - round(rows)) < 0.01, (w_mm, h_mm)
        assert media[0] <= bleed[0] <= trim[0] and media[1] <= bleed[1] <= trim[1]
        assert trim[2] <= bleed[2] <= media[2] and trim[3] <= bleed[3] <= media[3]
        assert 2.0 <= (trim[0] - bleed[0]) * MM_PER_PT <= 3.01  # the bleed past the grid's outer edge
    assert cards >= len(reader.pages) - 2  # all but the calibration pair at most


def test_the_html_aid_has_its_screen_margin_and_its_fonts_beside_it(tmp_path: Path) -> None:
    """P9/D21: the `@media screen` margin comes after `body { margin: 0 }` (same specificity: the later rule
    wins), and every font the HTML loads (`url(fonts/...)`) is in a `fonts` folder beside it, so a browser
    prints it in the PDF's fonts. P13: a legend's swatch never parts from its name (one unbreakable key)."""
    _build(tmp_path, "risk-legacy", "--only", "reference", "--only", "digest")
    for name in ("reference.html", "digest.html"):
        html = (tmp_path / "risk-legacy" / name).read_text("utf-8")
        fonts = set(re.findall(r"url\(fonts/([A-Za-z0-9_.-]+)\)", html))
        assert fonts and all((tmp_path / "risk-legacy" / "fonts" / f).stat().st_size > 100_000 for f in fonts), name
        css = html[:html.index("</style>")]
        plain = css.index("body { margin: 0; }")
        screen = [m.start() for m in re.finditer(r"@media screen \{ body \{[^}]*margin: 8mm auto", css)]
        assert screen and min(screen) > plain, name
    aid = (tmp_path / "risk-legacy" / "reference.html").read_text("utf-8")
    legend = aid[aid.index('<div class="legend">'):]
    legend = legend[:legend.index("</div>")]
    swatches = legend.count('class="swatch"')
    assert swatches > 0 and legend.count('<span class="key"><span class="swatch"') == swatches


def test_campaign_deck_backs_are_told_apart_at_a_glance(sf15: Path, tmp_path: Path) -> None:
    """Issue 34 P16: after 15 games Shadow Forces prints 11 decks (the opened envelopes' among them); every two
    decks' backs, sampled from the PDF's backs pages 1.5 mm inside each trim, differ by a CIE76 colour
    difference of 20 or more (the warlord upgrade cards and the faction records were 9.3 apart)."""
    from test_printed_sheets import BACKS_APART, _slot_pixel, delta_e, pixels

    from scarbook.compiler.sheets import grid_for
    from scarbook.compiler.sizes import POKER_MM

    _build(tmp_path, "risk-shadow-forces", "--campaign", str(sf15), "--only", "cards")
    pdf = tmp_path / "risk-shadow-forces" / "cards.pdf"
    grid = grid_for(POKER_MM, "a4")
    words = _words(pdf)
    backs: dict[tuple[int, ...], set[str]] = {}  # a back colour -> the deck names printed on it
    for number, image in enumerate(pixels(pdf, tmp_path, grow=0.0)[2:], 3):  # after the calibration pair
        if number % 2:
            continue  # a fronts page; its backs follow it
        for row in range(grid.rows):
            for col in range(grid.cols):
                x, y = grid.x0 + col * grid.w, grid.y0 + row * grid.h
                fill = _slot_pixel(image, x + 1.5, y + 1.5)
                if min(fill) > 240:
                    continue  # an empty slot
                name = " ".join(w for x0, y0, x1, y1, w in words[number - 1]
                                if x < x0 and x1 < x + grid.w and y < y0 and y1 < y + grid.h)
                seen = next((c for c in backs if delta_e(c, fill) < 3), fill)
                backs.setdefault(seen, set()).update([name] if name else [])
    assert len(backs) >= 10, backs
    assert all(len(names) == 1 for names in backs.values()), backs  # one colour, one deck
    colours = list(backs)
    close = sorted((round(delta_e(a, b), 1), *backs[a], *backs[b]) for i, a in enumerate(colours)
                   for b in colours[i + 1:] if delta_e(a, b) < BACKS_APART)
    assert not close, close[:4]


def test_campaign_record_cards_name_each_start_as_the_board_prints_it(sf15: Path, tmp_path: Path) -> None:
    """A faction record card of the `--campaign` build says where its player started as the board prints that
    territory: its name, or its printed code where the sources give no name (Shadow Forces: 'NA-01'), never the
    content's id ('na-01': three of them on the 15-game record cards)."""
    game = cached_game("risk-shadow-forces")
    territories = game.section("territories")
    ids = {tid for tid in territories if tid != str(territories[tid].get("code"))}
    _build(tmp_path, "risk-shadow-forces", "--campaign", str(sf15), "--only", "cards")
    pages = _words(tmp_path / "risk-shadow-forces" / "cards.pdf")
    records = [[w for *_, w in page] for page in pages if "RECORD" in [w for *_, w in page]]
    assert records  # the record cards' fronts
    printed = [w for page in records for w in page]
    assert not sorted(set(printed) & ids), sorted(set(printed) & ids)
    status = CliRunner().invoke(app, ["campaign", "status", "--format", "json", "-c", str(sf15)])
    starts = {v for g in json.loads(status.output)["games"] for v in (g.get("starts") or {}).values()}
    assert starts, "the 15-game campaign records where game 1 started"
    for tid in starts:
        assert str(territories[tid]["code"]) in printed, tid


def test_a_campaign_card_says_what_else_is_stuck_on_it_and_whose(tmp_path: Path) -> None:
    """The Cinder Guild after its play-test: each guild card bears its smith's crest (the claim that makes it part
    of their deck), which the reprinted card must show; a forge upgrade shows as the raised might, a burned card
    as its stamp, so neither is said twice. Before, the card showed its might and nothing of whose it is."""
    from test_campaign_sheet import _played

    from conftest import EXAMPLES

    file, out = tmp_path / "c.yaml", tmp_path / "out"
    _played(EXAMPLES / "cinder-guild" / "playtest.yaml", file)
    status = json.loads(CliRunner().invoke(app, ["campaign", "status", "-c", str(file), "-f", "json"]).output)
    crests = {m["target"]: m["by"] for m in status["marks"] if m["sticker"] == "crest" and m["active"]}
    result = CliRunner().invoke(app, ["build", "--campaign", str(file), "--out", str(out), "--only", "cards",
                                      "--jobs", "1"])
    assert result.exit_code == 0, result.output
    text = subprocess.run(["pdftotext", "-raw", str(out / "cinder-guild" / "cards.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    said = re.findall(r"On it: ([^\n]+)", text)
    assert sorted(said) == sorted(f"Crest ({by})" for by in crests.values()), said
    assert "Forge" not in " ".join(said) and "Burned" not in " ".join(said)


def test_campaign_faction_cards_keep_the_printed_name_with_the_players_name_beside_it(sf15: Path,
                                                                                      tmp_path: Path) -> None:
    """A faction the players named prints as the card is printed, with their name beside it as a warlord's alias
    (P1): 'The Green Faction “Verdant Cells”'. Before, the faction and record cards printed only 'Verdant Cells',
    while the stickers, the sheet and the chronicle say 'The Green Faction'."""
    status = CliRunner().invoke(app, ["campaign", "status", "--format", "json", "-c", str(sf15)])
    named = [f for f in json.loads(status.output)["factions"] if f["given_name"]]
    assert len(named) == 5
    printed = {fid: str(f["name"]) for fid, f in cached_game("risk-shadow-forces").section("factions").items()}
    _build(tmp_path, "risk-shadow-forces", "--campaign", str(sf15), "--only", "cards")
    text = subprocess.run(["pdftotext", "-raw", str(tmp_path / "risk-shadow-forces" / "cards.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    flat = " ".join(text.split())
    for f in named:
        said = f"{printed[f['id']]} “{f['given_name']}”"
        assert flat.count(said) == 2, (said, flat.count(said))  # its faction card and its record card
