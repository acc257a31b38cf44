"""The campaign board stays readable after 15 games (issue 25 items 6-7), measured on the end state of the
scripted campaigns of Risk Legacy and Risk: Shadow Forces, on A4 and on Letter.

From the SVG: no two territory circles overlap, every circle, label and legend lies inside the picture.
From the PDF (poppler's word boxes): no two words of the board overprint, none is smaller than 6 pt at 100 %,
none lies outside the page; no ink on any page of the sheet within 5 mm of the paper's edge (pixels); the
legend keys every region colour; the names the players gave are on the sheet.

Slow: two 15-game campaigns (their one play per run) and their sheets rendered to PDF and rasterised, on two papers.
"""

from __future__ import annotations

import itertools
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from campaigns.helpers import invoke, play_once, script

pytestmark = pytest.mark.slow

GAMES = ("risk-legacy-15", "risk-shadow-forces-15")
#: DejaVu Sans: a word's box is its ascent plus descent, 1.164 em.
EM_BOX = 1.164


@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each scripted campaign played to its end."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SCARBOOK_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
    out = {}
    for name in GAMES:
        file = tmp_path_factory.mktemp(name) / "world.yaml"
        failures = play_once(script(f"{name}.txt"), file)
        assert not failures, "\n".join(failures)
        out[name] = file
    mp.undo()
    return out


def words(pdf: Path, page: int = 1) -> tuple[tuple[float, float], list[tuple[float, float, float, float, str]]]:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-bbox", str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    size = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', text)
    assert size is not None
    found = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', text)]
    return (float(size.group(1)), float(size.group(2))), found


def overprints(boxes: list[tuple[float, float, float, float, str]]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap by more than a hairline each way."""
    return [(a[4], b[4]) for a, b in itertools.combinations(boxes, 2)
            if min(a[2], b[2]) - max(a[0], b[0]) > 0.3 and min(a[3], b[3]) - max(a[1], b[1]) > 0.3]


@pytest.mark.parametrize("name", GAMES)
def test_the_board_picture_has_no_overlapping_circles_and_stays_inside(ended: dict[str, Path], name: str,
                                                                      tmp_path: Path) -> None:
    svg_file = tmp_path / "board.svg"
    assert invoke(["sheet", "--format", "svg", "--out", str(svg_file)], ended[name]).exit_code == 0
    svg = svg_file.read_text("utf-8")
    width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())  # type: ignore[union-attr]
    circles = [(float(x), float(y), float(r)) for x, y, r in
               re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg)]
    assert len(circles) >= 42
    touching = [(a, b) for a, b in itertools.combinations(circles, 2) if math.dist(a[:2], b[:2]) < a[2] + b[2]]
    assert not touching, touching
    assert all(r <= x <= width - r and r <= y <= height - r for x, y, r in circles)
    for x, y in re.findall(r'<text x="(-?[\d.]+)" y="(-?[\d.]+)"', svg):
        assert 0 <= float(x) <= width and 0 <= float(y) <= height, (x, y)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", GAMES)
def test_the_sheet_board_is_readable_at_100_percent(ended: dict[str, Path], name: str, paper: str,
                                                    tmp_path: Path) -> None:
    pdf = tmp_path / "sheet.pdf"
    result = invoke(["sheet", "--paper", paper, "--out", str(pdf)], ended[name])
    assert result.exit_code == 0, result.output
    (pw, ph), found = words(pdf)
    assert (round(pw), round(ph)) == ((842, 595) if paper == "a4" else (792, 612))  # the board page: landscape
    title = next(w for w in found if w[4] in ("Test", "Shadow"))
    board = [w for w in found if w[1] > title[3] + 20]  # the picture: everything under the title lines
    assert len(board) > 100
    assert not overprints(board), overprints(board)[:10]
    smallest = min(w[3] - w[1] for w in board) / EM_BOX
    assert smallest >= 5.95, smallest  # 6 pt, with poppler's rounding
    assert all(w[0] >= 0 and w[2] <= pw and w[1] >= 0 and w[3] <= ph for w in found)
    from test_printed_sheets import assert_ink_inside

    assert_ink_inside(pdf, tmp_path)  # every page, the landscape board and the portrait tables: 5 mm of white


def test_the_legend_keys_every_region_colour_and_the_sheet_keeps_given_names(ended: dict[str, Path],
                                                                            tmp_path: Path) -> None:
    html = tmp_path / "sf.html"
    assert invoke(["sheet", "--format", "html", "--out", str(html)], ended["risk-shadow-forces-15"]).exit_code == 0
    page = html.read_text("utf-8")
    svg = page[page.index("<svg"):page.index("</svg>")]
    legend = svg[svg.index('fill="#fbfaf6"'):]
    for region in ("Catland 5", "Paradise", "Annland 6", "Bob&#x27;s continent-nb", "Annland 15"):
        assert region.replace("&#x27;", "'") in legend.replace("&#x27;", "'"), region
    for given in ("Verdant Cells", "Iron Ledger", "Tidewatch", "Sun Syndicate", "Crimson Hand", "Ghost", "Razor",
                  "Grit"):
        assert given in page, given
    assert "No card has changed yet" not in page
    assert "melee dice" in page  # the stat upgrades, by warlord
