"""The card and sticker sheets of every shipped game, read back from the PDFs on A4 and Letter.

Each PDF is rasterised with poppler's `pdftoppm` (skipped without it, unless SCARBOOK_REQUIRE_POPPLER
is set) after pypdf has grown every page's box by 15 mm on each side, so that anything drawn outside
the page shows too. Measured on the pixels:

- nothing outside the page box and no ink within 5 mm of any paper edge;
- each deck has one back (every card of a deck the same back colour) and no two decks of a game the
  same back colour;
- the content's colours (a faction's `color:`) are on its card;
- every shipped game with stickers in its content has a sticker sheet.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from campaigns.shared import shipped_build

from scarbook.compiler.sheets import card_sheets, colour, grid_for, printable_cards, sticker_items
from scarbook.compiler.sizes import INK_MARGIN_MM, PAPER_MM
from scarbook.compiler.validate import load_game

GAMES = ("risk-legacy", "risk-shadow-forces", "risk-warhammer-40k", "shadow-blades")
PAPERS = ("a4", "letter")
DPI = 72
GROW_MM = 15.0
PT_PER_MM = 72 / 25.4


def shipped(game: str) -> Any:
    """A shipped game as `build` prints it: nothing sealed."""
    return load_game(game).effective()


def _need_poppler() -> None:
    if shutil.which("pdftoppm") is None:
        if os.environ.get("SCARBOOK_REQUIRE_POPPLER"):
            pytest.fail("pdftoppm (poppler-utils) is not installed and SCARBOOK_REQUIRE_POPPLER is set")
        pytest.skip("pdftoppm (poppler-utils) is not installed")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Card and sticker sheets of the four shipped games, on A4 and on Letter."""
    _need_poppler()
    # the build of every shipped game that tests/test_printed_aid.py reads too, made once per run; it built
    # without an error (its exit code), and holds the card and sticker sheets of GAMES
    out = {paper: shipped_build(paper) for paper in PAPERS}
    assert all((out[paper] / game / "cards.pdf").is_file() for paper in PAPERS for game in GAMES)
    return out


def pixels(pdf: Path, tmp: Path, grow: float = GROW_MM) -> list[Any]:
    """Every page of `pdf` as an RGB image, its box grown by `grow` mm on each side."""
    from PIL import Image
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import RectangleObject

    reader = PdfReader(str(pdf))
    writer = PdfWriter()
    g = grow * PT_PER_MM
    for page in reader.pages:
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        page.mediabox = RectangleObject([x0 - g, y0 - g, x1 + g, y1 + g])
        page.cropbox = RectangleObject([x0 - g, y0 - g, x1 + g, y1 + g])
        writer.add_page(page)
    grown = tmp / f"{pdf.parent.name}-{pdf.stem}-grown.pdf"
    with grown.open("wb") as fh:
        writer.write(fh)
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), str(grown), str(tmp / f"{grown.stem}-p")], check=True)
    files = sorted(tmp.glob(f"{grown.stem}-p-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return [Image.open(f).convert("RGB") for f in files]


def px(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def ink_near_edges(image: Any, paper: str | None, grow: float = GROW_MM) -> list[tuple[int, int]]:
    """Pixels with ink outside the page inset by the ink margin (the page box grown by `grow` around it).
    `paper` None: any page size or orientation (a campaign sheet's landscape board page, say)."""
    # the pixels wholly outside the allowed box: from the grown edge to 5 mm inside the page's edge
    left, top = px(grow + INK_MARGIN_MM) - 1, px(grow + INK_MARGIN_MM) - 1
    right, bottom = image.width - left, image.height - top
    if paper is not None:
        pw, ph = PAPER_MM[paper]
        assert abs(image.width - px(pw + 2 * grow)) <= 1 and abs(image.height - px(ph + 2 * grow)) <= 1
    grey = image.convert("L")
    bad = []
    for box in ((0, 0, grey.width, top), (0, bottom, grey.width, grey.height),  # above, below
                (0, top, left, bottom), (right, top, grey.width, bottom)):  # beside
        band = grey.crop(box)
        if band.getextrema()[0] < 245:  # some ink: say where
            data = band.load()
            bad += [(box[0] + x, box[1] + y) for y in range(band.height) for x in range(band.width) if data[x, y] < 245]
    return bad


def assert_ink_inside(pdf: Path, tmp: Path, paper: str | None = None) -> None:
    """No ink outside the page box and none within 5 mm of any of its edges, on every page of `pdf`."""
    _need_poppler()
    for n, image in enumerate(pixels(pdf, tmp), 1):
        bad = ink_near_edges(image, paper)
        where = [(round(x * 25.4 / DPI - GROW_MM, 1), round(y * 25.4 / DPI - GROW_MM, 1)) for x, y in bad[:3]]
        assert not bad, f"{pdf.name} p. {n}: {len(bad)} pixels of ink within 5 mm of the edge, e.g. at {where} mm"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_ink_outside_the_page_or_within_5_mm_of_its_edges(built: dict[str, Path], game: str, paper: str,
                                                            tmp_path: Path) -> None:
    pdfs = [built[paper] / game / name for name in ("cards.pdf", "stickers.pdf")
            if (built[paper] / game / name).exists()]
    assert pdfs
    for pdf in pdfs:
        for n, image in enumerate(pixels(pdf, tmp_path), 1):
            bad = ink_near_edges(image, paper)
            where = [(round(x * 25.4 / DPI - GROW_MM, 1), round(y * 25.4 / DPI - GROW_MM, 1)) for x, y in bad[:3]]
            assert not bad, f"{pdf.name} p. {n}: {len(bad)} pixels of ink within 5 mm of the edge, e.g. at {where} mm"


def test_the_check_sees_ink_at_the_edge_and_outside_the_page(tmp_path: Path) -> None:
    """The measure itself: a page with a mark 3 mm from its edge and a box beyond it fails."""
    _need_poppler()
    from scarbook.compiler.render.pdf import render_pdf
    from scarbook.templates import TEMPLATE_DIR

    html = ("<html><head><style>@page { size: A4; margin: 0 } body { margin: 0 }</style></head><body>"
            "<div style='position: absolute; left: 3mm; top: 100mm; width: 1mm; height: 1mm; background: #000'></div>"
            "</body></html>")
    pdf = tmp_path / "edge.pdf"
    pdf.write_bytes(render_pdf(html, [], TEMPLATE_DIR))
    (image,) = pixels(pdf, tmp_path)
    assert ink_near_edges(image, "a4")
    clean = html.replace("left: 3mm", "left: 6mm")
    pdf.write_bytes(render_pdf(clean, [], TEMPLATE_DIR))
    (image,) = pixels(pdf, tmp_path)
    assert not ink_near_edges(image, "a4")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def _near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _lab(rgb: tuple[int, ...]) -> tuple[float, float, float]:
    """An sRGB pixel in CIELAB (D65)."""
    lin = [((c / 255 + 0.055) / 1.055) ** 2.4 if c / 255 > 0.04045 else c / 255 / 12.92 for c in rgb]
    xyz = [sum(k * v for k, v in zip(row, lin, strict=True)) / white for row, white in
           (((0.4124, 0.3576, 0.1805), 0.95047), ((0.2126, 0.7152, 0.0722), 1.0), ((0.0193, 0.1192, 0.9505), 1.08883))]
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """CIE76 colour difference of two pixels (20 and more: two colours plainly told apart)."""
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5


#: Issue 34 P16: no two decks' backs of a game closer than this (16 dark backs of Shadow Forces were 9.3 apart).
BACKS_APART = 20.0


def _slot_pixel(image: Any, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return tuple(image.getpixel((px(x_mm), px(y_mm))))  # type: ignore[no-any-return]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_one_back_per_deck_and_no_two_decks_alike_from_behind(built: dict[str, Path], game: str, paper: str,
                                                             tmp_path: Path) -> None:
    """Every back of a deck has the deck's colour (sampled 1 mm inside the trim, where a back frame would
    be) and its name; two decks never share a back colour."""
    loaded = shipped(game)
    sheets = card_sheets(printable_cards(loaded), paper)
    images = pixels(built[paper] / game / "cards.pdf", tmp_path, grow=0.0)
    assert len(images) == len(sheets)
    backs: dict[str, set[tuple[int, int, int]]] = {}
    for sheet, image in zip(sheets, images, strict=True):
        if sheet.kind != "back":
            continue
        for s in sheet.slots:
            samples = {_slot_pixel(image, s.x + 1.5, s.y + 1.5), _slot_pixel(image, s.x + s.w - 1.5, s.y + 1.5),
                       _slot_pixel(image, s.x + 1.5, s.y + s.h - 1.5), _slot_pixel(image, s.x + s.w / 2, s.y + 10)}
            first = next(iter(samples))
            assert all(_near(c, first, 6) for c in samples), (game, s.card["id"], samples)  # no frame line
            backs.setdefault(s.card["deck_id"], set()).update(samples)
    for deck, seen in backs.items():
        first = next(iter(seen))
        assert all(_near(c, first, 6) for c in seen), (game, deck, seen)  # one back
    colours = {deck: next(iter(seen)) for deck, seen in backs.items()}
    decks = list(colours)
    close = [(round(delta_e(colours[a], colours[b]), 1), a, b) for i, a in enumerate(decks) for b in decks[i + 1:]
             if delta_e(colours[a], colours[b]) < BACKS_APART]
    assert not close, (game, paper, sorted(close)[:4])  # two decks, two backs told apart at a glance


@pytest.mark.parametrize("game", ["risk-shadow-forces", "risk-warhammer-40k"])
def test_a_faction_card_is_printed_in_its_factions_colour(built: dict[str, Path], game: str, tmp_path: Path) -> None:
    loaded = shipped(game)
    wanted = {fid: colour(f.get("color")) for fid, f in loaded.section("factions").items()}
    assert all(wanted.values())  # the shipped factions name their colours
    sheets = card_sheets(printable_cards(loaded), "a4")
    images = pixels(built["a4"] / game / "cards.pdf", tmp_path, grow=0.0)
    found = {}
    for sheet, image in zip(sheets, images, strict=True):
        if sheet.kind != "front":
            continue
        for s in sheet.slots:
            if s.card.get("deck_id") == "factions":
                found[s.card["id"]] = _slot_pixel(image, s.x + 3.0, s.y + 3.0)  # the header, by its corner
    assert set(found) == set(wanted)
    for fid, rgb in found.items():
        assert _near(rgb, _rgb(str(wanted[fid]))), (fid, rgb, wanted[fid])


def test_every_shipped_game_with_stickers_prints_a_sticker_sheet(built: dict[str, Path]) -> None:
    from pypdf import PdfReader

    for game in GAMES:
        loaded = shipped(game)
        has = bool(loaded.section("stickers"))
        for paper in PAPERS:
            sheet = built[paper] / game / "stickers.pdf"
            assert sheet.exists() == has, (game, paper)
            if has:
                text = "".join(p.extract_text() for p in PdfReader(str(sheet)).pages)
                for item in sticker_items(loaded)[:5]:
                    assert item["name"].split()[0] in text
                # a sticker whose size the sources do not give is sized for where it goes, and the sheet says so,
                # naming what each size is made for and its width
                flat = " ".join(text.split())
                unsized = [i for i in sticker_items(loaded) if i["sized"] is False]
                assert ("each is sized for where it goes (wide: " in flat) == bool(unsized), (game, paper)
                for basis, w in {(str(i["basis"]), float(i["w"])) for i in unsized}:
                    assert basis in flat and f"{w:g}" in flat and " mm" in flat, (game, basis, w)


def test_build_gutter_option_reaches_the_card_sheet_and_is_bounded(tmp_path: Path) -> None:
    """`build --gutter 8`: two columns of poker cards on A4, each card with its full 3 mm bleed and white
    between the bleeds; out of range: a usage error."""
    _need_poppler()
    from pypdf import PdfReader
    from typer.testing import CliRunner

    from scarbook.cli.main import app

    game = tmp_path / "g"
    game.mkdir()
    (game / "game.yaml").write_text(
        "game: {id: gut, title: Gut, legacy: false, players: {min: 2, max: 4}}\n"
        "decks:\n  - {id: d, name: D, count: 6}\ncards:\n"
        + "".join(f"  - {{id: c{i}, deck: d, name: C{i}, text: 'Card {i}.'}}\n" for i in range(6)))
    runner = CliRunner()
    refused = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "o"), "--gutter", "25"])
    assert refused.exit_code == 2, refused.output
    done = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "o"), "--only", "cards",
                               "--gutter", "8"])
    assert done.exit_code == 0, done.output
    pdf = tmp_path / "o" / "gut" / "cards.pdf"
    assert len(PdfReader(str(pdf)).pages) == 4  # calibration pair + one sheet: 2 x 3 = 6 cards a page
    front = pixels(pdf, tmp_path, grow=0.0)[2]
    grid = grid_for((63.0, 88.0), "a4", 8.0)
    gap_x = grid.x0 + 63.0 + 4.0  # the middle of the gutter between the two columns: white
    assert _slot_pixel(front, gap_x, grid.y0 + 40) == (255, 255, 255)
    assert _slot_pixel(front, grid.x0 + 63.0 + 2.0, grid.y0 + 40) != (255, 255, 255)  # the first card's bleed
    assert _slot_pixel(front, grid.x0 + 63.0 + 6.0, grid.y0 + 40) != (255, 255, 255)  # the second's


@pytest.mark.parametrize("paper", PAPERS)
def test_the_calibration_text_keeps_inside_the_slots(built: dict[str, Path], paper: str) -> None:
    """Issue 34 P18: on the calibration pair every word (the instructions, the ruler's labels, the slot numbers)
    lies inside one slot, 1 mm or more from its cut lines: no line of text runs across a slot's edge (the
    instructions ran from 15.4 to 194.6 mm, through slots 1 to 3). Word boxes from `pdftotext -bbox`."""
    import re

    from scarbook.compiler.sheets import cut_lines
    from scarbook.compiler.sizes import POKER_MM

    grid = grid_for(POKER_MM, paper)
    xs = cut_lines(grid.x0, grid.w, grid.cols, grid.gutter)
    ys = cut_lines(grid.y0, grid.h, grid.rows, grid.gutter)
    for game in GAMES:
        bbox = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "2", str(built[paper] / game / "cards.pdf"), "-"],
                              capture_output=True, text=True, check=True).stdout
        words = [(float(a) / PT_PER_MM, float(b) / PT_PER_MM, float(c) / PT_PER_MM, float(d) / PT_PER_MM, w)
                 for a, b, c, d, w in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                                                 r'([^<]*)</word>', bbox)]
        assert len(words) > 40, (game, words)
        across = [(w, round(x0, 1), round(x1, 1)) for x0, y0, x1, y1, w in words
                  if any(x0 - 1 < x < x1 + 1 for x in xs) or any(y0 - 1 < y < y1 + 1 for y in ys)]
        assert not across, (game, paper, across[:6])
