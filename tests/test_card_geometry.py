"""Card sheets as printed: where each back lands relative to its front, the bleed edge, the page size.

Duplex printing flips a sheet on its long edge, so the back of the card in column c of a fronts page
must be in column (cols - 1 - c) of the backs page; the fronts stay in reading order. These tests
read the rendered PDF (word boxes from `pdftotext -bbox`, page boxes from pypdf) and compute the
expected boxes from the page and card sizes, not from the planner under test.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import pdftotext
from scarbook.compiler.sheets import BLEED_MM, PAPER_MM, card_sheets, grid_for

PT_PER_MM = 72 / 25.4
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
SIZE = (63.0, 88.0)


def cards(n: int) -> list[dict[str, object]]:
    return [{"id": f"c{i}", "name": f"Front{i}", "deck": "D", "deck_id": "d", "type": "", "zone": None, "where": None,
             "stats": [], "resources": None, "text": None, "unknown": False, "image": None, "image_url": None,
             "color": "#1f4e79", "back": f"Back{i}", "size": SIZE, "game": "G"} for i in range(n)]


def words_by_page(pdf: Path) -> list[tuple[float, float, dict[str, tuple[float, ...]]]]:
    pdftotext(pdf)  # skips (or fails in CI) when poppler is missing
    assert shutil.which("pdftotext")
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for w, h, body in PAGE.findall(out):
        words = {html.unescape(m[4]).lower(): tuple(float(v) for v in m[:4]) for m in WORD.findall(body)}
        pages.append((float(w), float(h), words))
    return pages


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    from scarbook.compiler.render.html import card_sheets_html
    from scarbook.compiler.render.pdf import render_pdf
    from scarbook.templates import TEMPLATE_DIR

    paper = "letter"  # not the default: the page size must follow the paper asked for
    page_html, pages = card_sheets_html("G", card_sheets(cards(9), paper), paper)
    pdf = tmp_path_factory.mktemp("geometry") / "cards.pdf"
    pdf.write_bytes(render_pdf(page_html, [TEMPLATE_DIR], TEMPLATE_DIR, pages))
    return paper, pdf


def test_page_size_is_the_paper_asked_for(rendered: tuple[str, Path]) -> None:
    from pypdf import PdfReader

    paper, pdf = rendered
    want = tuple(round(v * PT_PER_MM) for v in PAPER_MM[paper])
    reader = PdfReader(pdf)
    assert len(reader.pages) == 4  # calibration pair, one fronts page, one backs page
    for page in reader.pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == want


def test_each_back_lies_behind_its_front_on_the_long_edge_flipped_page(rendered: tuple[str, Path]) -> None:
    paper, pdf = rendered
    grid = grid_for(SIZE, paper)
    assert (grid.cols, grid.rows) == (3, 3)
    pages = words_by_page(pdf)
    (_, _, fronts), (page_w, _, backs) = pages[2], pages[3]
    for i in range(9):
        row, col = divmod(i, grid.cols)
        top, bottom = (grid.y0 + row * SIZE[1]) * PT_PER_MM, (grid.y0 + (row + 1) * SIZE[1]) * PT_PER_MM
        # fronts in reading order: card i in column `col` from the left
        left, right = (grid.x0 + col * SIZE[0]) * PT_PER_MM, (grid.x0 + (col + 1) * SIZE[0]) * PT_PER_MM
        x1, y1, x2, y2 = fronts[f"front{i}"]
        assert left <= x1 and x2 <= right and top <= y1 and y2 <= bottom, (i, "front", fronts[f"front{i}"])
        # its back: the mirror image of that box across the page's vertical centre line, same row
        b_left, b_right = page_w - right, page_w - left
        x1, y1, x2, y2 = backs[f"back{i}"]
        assert b_left <= x1 and x2 <= b_right and top <= y1 and y2 <= bottom, (i, "back", backs[f"back{i}"])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_art_bleeds_past_the_outer_edges_of_the_grid_as_far_as_the_ink_margin_lets_it(paper: str) -> None:
    grid = grid_for(SIZE, paper)
    left_edge, right_edge = grid.x0, grid.x0 + grid.cols * SIZE[0]
    top_edge, bottom_edge = grid.y0, grid.y0 + grid.rows * SIZE[1]
    sheets = card_sheets(cards(9), paper)
    assert [s.kind for s in sheets] == ["calibration-front", "calibration-back", "front", "back"]
    assert grid.bleed_x == BLEED_MM and grid.bleed_y == (BLEED_MM if paper == "a4" else pytest.approx(2.4))
    for sheet in sheets:
        for s in sheet.slots:
            top, right, bottom, left = s.bleed
            assert left == (grid.bleed_x if s.x == pytest.approx(left_edge) else 0.0), (sheet.kind, s.number)
            assert right == (grid.bleed_x if s.x + s.w == pytest.approx(right_edge) else 0.0), (sheet.kind, s.number)
            assert top == (grid.bleed_y if s.y == pytest.approx(top_edge) else 0.0), (sheet.kind, s.number)
            assert bottom == (grid.bleed_y if s.y + s.h == pytest.approx(bottom_edge) else 0.0), (sheet.kind, s.number)


def test_a_short_last_row_keeps_fronts_left_and_backs_right() -> None:
    """Two cards on a 3-wide grid: fronts in columns 1-2, backs in columns 3-2 (behind them)."""
    grid = grid_for(SIZE, "a4")
    front, back = card_sheets(cards(2), "a4")[2:]
    assert [s.x for s in front.slots] == [pytest.approx(grid.x0 + c * SIZE[0]) for c in (0, 1)]
    assert [s.x for s in back.slots] == [pytest.approx(grid.x0 + c * SIZE[0]) for c in (2, 1)]
    assert [s.card["name"] for s in back.slots] == ["Front0", "Front1"]
