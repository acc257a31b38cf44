"""Long card sheets: repeated pages laid out once, parts laid out in parallel and joined."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_build import pdfinfo, pdftotext
from test_build_fixtures import tiny_game

from scarbook.compiler import sheets as sheetmod
from scarbook.compiler.build import build
from scarbook.compiler.sheets import CARDS_PER_PART, card_sheets, distinct_pages, part_count, split_sheets


def many_cards(n: int) -> list[dict]:
    return [{"id": f"c{i}", "deck": "isle-cards", "name": f"Card {i}", "text": f"Text of card {i}."} for i in range(n)]


def test_backs_of_one_deck_are_laid_out_once(tmp_path: Path) -> None:
    from scarbook.compiler.sheets import printable_cards

    cards = printable_cards(tiny_game(tmp_path, cards=many_cards(40)))
    sheets = card_sheets(cards, "a4")
    unique, order = distinct_pages(sheets)
    assert len(order) == len(sheets) == 2 + 2 * 5  # calibration pair + 5 fronts/backs pairs
    backs = [order[i] for i, s in enumerate(sheets) if s.kind == "back"]
    assert len(set(backs[:4])) == 1 and backs[4] != backs[0]  # four full backs pages, one partial
    fronts = [order[i] for i, s in enumerate(sheets) if s.kind == "front"]
    assert len(set(fronts)) == 5  # fronts differ
    assert [unique[i].kind for i in order] == [s.kind for s in sheets]


def test_split_sheets_keeps_fronts_with_their_backs() -> None:
    sheets = card_sheets([{"name": str(i), "back": "b", "color": "#000", "size": (63.0, 88.0)}
                          for i in range(100)], "a4")
    parts = split_sheets(sheets, 3)
    assert [s for part in parts for s in part] == sheets
    assert all(len(part) % 2 == 0 for part in parts)
    assert max(map(len, parts)) - min(map(len, parts)) <= 2
    assert parts[0][0].kind == "calibration-front" and all(p[0].kind == "front" for p in parts[1:])
    assert part_count(CARDS_PER_PART) == 1 and part_count(CARDS_PER_PART + 1) == 2


@pytest.mark.slow
def test_a_long_sheet_in_parts_is_whole_in_order_and_the_same_for_any_workers(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Slow (a card sheet of 70 cards rendered in parts, with one and with several workers): the parts make the
    whole sheet, in order, the same whatever the workers."""
    monkeypatch.setattr(sheetmod, "CARDS_PER_PART", 60)  # parts of 60 cards: a short test of the same code
    n = sheetmod.CARDS_PER_PART + 10
    game = tiny_game(tmp_path, cards=many_cards(n), stickers=[], tables=[], rewards=[], envelopes=[])
    lines: list[str] = []
    steps: list[tuple[int, int]] = []
    one = build([game], tmp_path / "one", jobs=1, only={"cards"}, progress=lines.append,
                step=lambda done, total: steps.append((done, total)))
    two = build([game], tmp_path / "two", jobs=2, only={"cards"})
    assert one.rendered == two.rendered == ["tiny-isles/cards"] and not one.diagnostics
    assert steps == [(1, 2), (2, 2)]  # two parts, each a step of the progress bar
    pdf = tmp_path / "one" / "tiny-isles" / "cards.pdf"
    assert pdf.read_bytes() == (tmp_path / "two" / "tiny-isles" / "cards.pdf").read_bytes()
    pages = -(-n // 9)
    assert pdfinfo(pdf)["Pages"] == str(2 + 2 * pages)
    text = pdftotext(pdf).split("\f")
    assert "Card 0" in text[2] and f"Card {n - 1}" in text[2 + 2 * (pages - 1)]
    assert all(f"Card {i}" in "".join(text) for i in range(n))


def test_the_longest_tasks_are_estimated_longest(tmp_path: Path) -> None:
    from scarbook.compiler.build import estimated_seconds, plan_game

    def by_name(game: object) -> dict[str, float]:
        return {o.name: estimated_seconds(o) for o in plan_game(game, "a4", None, "t")}  # type: ignore[arg-type]

    small, big = by_name(tiny_game(tmp_path)), by_name(tiny_game(tmp_path, cards=many_cards(200)))
    assert big["cards"] > small["cards"] > 0 and small["tables"] == 0
    assert big["digest"] > small["digest"]  # the deck's card list is a longer table
    assert big["reference"] == small["reference"] > 0  # the player aid does not list the cards


@pytest.mark.slow
def test_a_page_printed_again_is_painted_once_and_looks_the_same(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """`render_pdf` with pages repeated replays the first paint of a page (`pdf.paint_once`): every page
    renders to the same pixels as when each is painted again, and the PDF is smaller."""
    import shutil
    import subprocess

    from scarbook.compiler.render import pdf as pdfmod
    from scarbook.templates import TEMPLATE_DIR

    if shutil.which("pdftoppm") is None:
        if os.environ.get("SCARBOOK_REQUIRE_POPPLER"):
            pytest.fail("pdftoppm (poppler-utils) is not installed and SCARBOOK_REQUIRE_POPPLER is set")
        pytest.skip("pdftoppm not installed")
    game = tiny_game(tmp_path, cards=many_cards(40), stickers=[], tables=[], rewards=[], envelopes=[])
    from scarbook.compiler import sheets as sheetmod_
    from scarbook.compiler.render.html import card_sheets_html

    html, pages = card_sheets_html(game.title, sheetmod_.card_sheets(sheetmod_.printable_cards(game), "a4"), "a4")
    assert len(set(pages)) < len(pages)  # backs pages repeat
    calls: list[int] = []
    once = pdfmod.paint_once
    monkeypatch.setattr(pdfmod, "paint_once", lambda pages: (calls.append(len(pages)), once(pages)))
    replayed = pdfmod.render_pdf(html, [TEMPLATE_DIR], TEMPLATE_DIR, pages)
    monkeypatch.setattr(pdfmod, "paint_once", lambda pages: None)
    painted = pdfmod.render_pdf(html, [TEMPLATE_DIR], TEMPLATE_DIR, pages)
    assert calls and len(replayed) < len(painted)
    images = []
    for name, data in (("replayed", replayed), ("painted", painted)):
        (tmp_path / f"{name}.pdf").write_bytes(data)
        subprocess.run(["pdftoppm", "-r", "30", "-png", str(tmp_path / f"{name}.pdf"), str(tmp_path / name)],
                       check=True, timeout=120)
        images.append(sorted(tmp_path.glob(f"{name}-*.png")))
    assert len(images[0]) == len(images[1]) == len(pages)
    assert [p.read_bytes() for p in images[0]] == [p.read_bytes() for p in images[1]]


def test_the_fonts_temporary_folder_is_removed_even_by_a_worker_that_never_collects(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """WeasyPrint writes each document's @font-face files to a temporary folder it removes only when the
    font configuration is garbage-collected; a render worker ends without collecting, so `render_pdf`
    removes it itself."""
    from weasyprint.text import fonts as wfonts

    from scarbook.compiler.render import pdf as pdfmod
    from scarbook.templates import TEMPLATE_DIR

    made: list[object] = []
    real = wfonts.FontConfiguration

    class Spy(real):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(wfonts, "FontConfiguration", Spy)
    css = (TEMPLATE_DIR / "fonts.css").read_text()
    data = pdfmod.render_pdf(f"<style>{css} p {{ font-family: 'Sheet Sans' }}</style><p>Hello <b>there</b></p>",
                             [TEMPLATE_DIR], TEMPLATE_DIR)
    assert data.startswith(b"%PDF") and made
    assert all(getattr(f, "_folder", None) is None for f in made)
