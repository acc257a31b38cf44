"""The renderers: board SVG, the confined URL fetcher, autoescaped templates, reproducible PDFs."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_build_fixtures import tiny_game

from conftest import pdftotext
from scarbook.compiler.boardmap import board_svg, positions
from scarbook.compiler.render.pdf import UnsafeResource, render_pdf
from scarbook.compiler.sheets import Sheet, Slot, card_sheets, printable_cards, sticker_items, sticker_sheets
from scarbook.compiler.tables import rule_tables
from scarbook.templates import TEMPLATE_DIR

SVG = "{http://www.w3.org/2000/svg}"



def test_board_svg_is_xml_with_layout_fallback_and_escaped_marks(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    svg = board_svg(game, {"east": ["City: <Nome> & co"]})
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "City: <Nome> & co" in texts  # escaped in the source, intact once parsed
    assert "North Isle" in texts and "Isles +2" in texts and "Reef +?" in texts
    assert len(list(root.iter(f"{SVG}circle"))) == 3
    assert len(list(root.iter(f"{SVG}line"))) == 2
    pos = positions(game)
    assert pos["north"] == (10.0, 10.0) and len(set(pos.values())) == 3


def test_board_svg_without_any_layout(tmp_path: Path) -> None:
    game = tiny_game(tmp_path, territories=[{"id": f"t{i}", "name": f"T{i}", "regions": []} for i in range(7)])
    root = ET.fromstring(board_svg(game))
    assert len(list(root.iter(f"{SVG}circle"))) == 7


@pytest.mark.parametrize("html", [
    '<img src="file:///etc/passwd">',
    '<img src="/etc/hostname">',
    '<img src="../../../../../../etc/passwd">',
    '<img src="http://127.0.0.1:9/x.png">',
    '<link rel="stylesheet" href="https://example.com/x.css">',
    '<div style="background: url(ftp://example.com/x.png)">x</div>',
])
def test_fetcher_refuses_everything_outside_the_roots(html: str) -> None:
    with pytest.raises(UnsafeResource):
        render_pdf(f"<html><body>{html}</body></html>", [TEMPLATE_DIR], TEMPLATE_DIR)


def test_fetcher_serves_data_urls_and_root_files(tmp_path: Path) -> None:
    png = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
           "AAAABJRU5ErkJggg==")
    html = f'<html><head><link rel="stylesheet" href="fonts.css"></head><body><img src="{png}">ok</body></html>'
    assert render_pdf(html, [TEMPLATE_DIR], TEMPLATE_DIR).startswith(b"%PDF")


def test_fetcher_refuses_symlink_out_of_root(tmp_path: Path) -> None:
    (tmp_path / "art.png").symlink_to("/etc/passwd")
    with pytest.raises(UnsafeResource):
        render_pdf(f'<img src="{(tmp_path / "art.png").as_uri()}">', [tmp_path], tmp_path)


def test_templates_autoescape_content_text(tmp_path: Path) -> None:
    from scarbook.compiler.render.html import card_sheets_html, reference_html

    evil = '<img src="file:///etc/passwd"><script>alert(1)</script>'
    game = tiny_game(tmp_path, rewards=[{"id": "r", "name": evil, "for": "winner", "text": evil}])
    game.meta["title"] = 'Tiny "</style><b>'
    html = reference_html(game, rule_tables(game), "a4", board_svg(game), [], None)
    assert "<script>" not in html and "<img src=\"file" not in html and "&lt;script&gt;" in html
    assert "</style><b>" not in html
    cards = printable_cards(tiny_game(tmp_path, cards=[{"id": "c", "deck": "isle-cards", "name": evil}]))
    html, _pages = card_sheets_html("T", card_sheets(cards, "a4"), "a4")
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_strict_undefined_fails_instead_of_printing_nothing() -> None:
    from jinja2 import UndefinedError

    from scarbook.compiler.render.html import sheets_html

    with pytest.raises(UndefinedError):
        sheets_html("stickers.html.j2", "T", [Sheet("stickers", [Slot(0, 0, 10, 10, (0, 0, 0, 0), {})])], "a4")


def test_compiled_templates_are_kept_in_the_cache_folder_and_never_needed(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.compiler.render import html as htmlmod

    (tmp_path / "game").mkdir()
    game = tiny_game(tmp_path / "game")
    sheets = card_sheets(printable_cards(game), "a4")

    def render(cache: Path) -> str:
        monkeypatch.setenv("SCARBOOK_CACHE", str(cache))
        htmlmod.environment.cache_clear()
        try:
            return htmlmod.card_sheets_html("T", sheets, "a4")[0]
        finally:
            htmlmod.environment.cache_clear()

    cache = tmp_path / "cache"
    first = render(cache)
    kept = list((cache / "templates").iterdir())
    assert kept and all(p.suffix == ".jinja" for p in kept)  # cards.html.j2 and the fonts and CSS it includes
    assert render(cache) == first  # from the kept code
    for path in kept:
        path.write_bytes(b"damaged")
    assert render(cache) == first
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be")
    assert render(blocked) == first


def test_card_sheet_geometry_three_by_three_with_mirrored_backs(tmp_path: Path) -> None:
    cards = printable_cards(tiny_game(tmp_path))
    assert len(cards) == 4  # copies expanded
    for paper in ("a4", "letter"):
        sheets = card_sheets(cards, paper)
        assert [s.kind for s in sheets] == ["calibration-front", "calibration-back", "front", "back", "front", "back"]
        cal = sheets[0]
        assert len(cal.slots) == 9
        front, back = sheets[2], sheets[3]
        assert front.slots[0].x == back.slots[2].x  # column 1 on the front is column 3 on the back
        assert (front.slots[0].w, front.slots[0].h) == (63.0, 88.0)
        xs = [s.x for s in front.slots]
        for mark in front.marks:  # marks stay off the cards: in the margin, at most over the bleed
            assert mark.x2 <= min(xs) - 1 or mark.x1 >= max(xs) + 63 + 1 or mark.y2 <= front.slots[0].y - 1 \
                or mark.y1 >= front.slots[0].y + 88 * 3 + 1
        assert (sheets[4].slots[0].w, sheets[4].slots[0].h) == (70.0, 120.0)


def test_stickers_at_real_size(tmp_path: Path) -> None:
    items = sticker_items(tiny_game(tmp_path))
    assert len(items) == 3
    sheet = sticker_sheets(items, "a4")[0]
    assert {(s.w, s.h) for s in sheet.slots} == {(20.0, 20.0)}


LOAD_CHECK = """
import ctypes.util, sys
calls = []
search = ctypes.util.find_library
ctypes.util.find_library = lambda name: calls.append(name) or search(name)
mine = ctypes.util.find_library
{setup}
from scarbook.compiler.render.pdf import load_weasyprint
weasyprint = load_weasyprint()
from weasyprint.text.ffi import pango
assert pango.pango_version() > 0
assert ctypes.util.find_library is mine, "the search is put back"
print(len(calls))
"""


def _load_check(setup: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LOAD_CHECK.format(setup=setup)], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the search is skipped on Linux only")
def test_weasyprint_loads_its_libraries_without_searching_for_them() -> None:
    done = _load_check()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"  # not one find_library call (each runs ldconfig, gcc and ld)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the search is skipped on Linux only")
def test_weasyprint_is_imported_as_usual_when_a_library_needs_the_search() -> None:
    # a system where Pango opens only under the name the search finds: the first import fails, the second,
    # with the search, works; WeasyPrint's advice printed on the way is not shown
    done = _load_check("""
import cffi
dlopen = cffi.FFI.dlopen
def picky(self, name, *args):
    if "pango-1.0" in str(name) and ctypes.util.find_library is not mine:
        raise OSError("not without the search")
    return dlopen(self, name, *args)
cffi.FFI.dlopen = picky
""")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.strip()) > 0 and "WeasyPrint could not import" not in done.stdout


def test_pdf_is_reproducible_and_has_text(tmp_path: Path) -> None:
    from scarbook.compiler.render.html import card_sheets_html

    cards = printable_cards(tiny_game(tmp_path))
    html, pages = card_sheets_html("Tiny Isles", card_sheets(cards, "a4"), "a4")
    one = render_pdf(html, [TEMPLATE_DIR], TEMPLATE_DIR, pages)
    two = render_pdf(html, [TEMPLATE_DIR], TEMPLATE_DIR, pages)
    assert one == two
    (tmp_path / "c.pdf").write_bytes(one)
    text = pdftotext(tmp_path / "c.pdf")
    assert "North Card" in text and "Sail & conquer if 3 < 4" in text


def test_a_board_the_sources_give_only_in_part_gets_a_note_not_a_map(tmp_path: Path) -> None:
    from scarbook.compiler.boardmap import map_withheld
    from scarbook.compiler.render.html import reference_html
    from scarbook.compiler.validate import cached_game

    assert map_withheld(tiny_game(tmp_path)) is None
    assert map_withheld(cached_game("risk-legacy")) is None
    assert map_withheld(cached_game("shadow-blades")) == "the game has no board of territories"
    partial = tiny_game(tmp_path)
    partial.board["complete"] = {"unknown": "names not legible"}
    note = map_withheld(partial)
    assert note is not None and note.startswith("the sources give 3 territories only (names not legible")
    html = reference_html(partial, rule_tables(partial), "a4", None, [], None, note)
    assert "No board map: the sources give 3 territories only" in html and "<svg" not in html


def test_warhammer_reference_sheet_draws_the_board_and_marks_the_unofficial_source() -> None:
    from scarbook.compiler.boardmap import board_svg, legend, map_withheld
    from scarbook.compiler.render.html import reference_html
    from scarbook.compiler.validate import cached_game

    warhammer = cached_game("risk-warhammer-40k")
    assert map_withheld(warhammer) is None
    svg = board_svg(warhammer)
    assert svg.count("<circle") == 42 and svg.count("<line") == 72
    html = reference_html(warhammer, rule_tables(warhammer), "a4", svg, legend(warhammer))
    assert "belongs to both regions" in html
    assert "‡ from one unofficial source (low confidence): the 72 borders" in html
    assert "<h2>Region bonuses ‡</h2>" in html
