"""The card-sheet planner (`compiler/sheets.py`) in process, no rendering: grids, cut marks, fronts
and mirrored backs, bleed, pages laid out once, parts, stickers.

Expected positions are worked out here from the paper and card sizes (in the comments), not read
back from the planner; the properties hold for any card sizes and counts hypothesis tries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_build_fixtures import tiny_game

from scarbook.compiler.sheets import (
    BLEED_MM,
    CARDS_PER_PART,
    INK_MARGIN_MM,
    MIN_BLEED_MM,
    PAPER_MM,
    Sheet,
    card_sheets,
    cut_lines,
    cut_marks,
    distinct_pages,
    grid_for,
    page_key,
    part_count,
    split_sheets,
    sticker_items,
    sticker_sheets,
)

POKER = (63.0, 88.0)
approx = pytest.approx


def card(i: int, size: tuple[float, float] = POKER, **more: Any) -> dict[str, Any]:
    return {"id": f"c{i}", "name": f"Card {i}", "back": "Back", "color": "#123456", "game": "G", "size": size, **more}


def kinds(sheets: list[Sheet]) -> list[str]:
    return [s.kind for s in sheets]


# --- grid_for ------------------------------------------------------------------------------------
def test_poker_cards_nine_a_page_on_a4_and_letter_inside_the_ink_margin() -> None:
    # A4: 3 × 63 = 189 of 210 mm: 10.5 each side; 3 × 88 = 264 of 297 mm: 16.5 above and below.
    a4 = grid_for(POKER, "a4")
    assert (a4.cols, a4.rows, a4.x0, a4.y0) == (3, 3, approx(10.5), approx(16.5))
    assert (a4.bleed_x, a4.bleed_y) == (BLEED_MM, BLEED_MM)
    # the side marks: 10.5 - 5.3 = 5.2 mm of room, less the bleed: no 2 mm mark fits outside it, so it
    # runs over the bleed from 1 mm off the trim out to 5.3 mm from the edge
    assert a4.marks_x == (approx(1.0), approx(5.2))
    assert a4.marks_y == (approx(4.0), approx(10.0))  # 16.5: outside the bleed, 6 mm long
    # Letter: 215.9 - 189 = 26.9 → 13.45 each side; 279.4 - 264 = 15.4 → 7.7 above and below, so the
    # top and bottom bleed is what the ink margin leaves (7.7 - 5.3 = 2.4 mm) and the marks run over it
    letter = grid_for(POKER, "letter")
    assert (letter.cols, letter.rows, letter.x0, letter.y0) == (3, 3, approx(13.45), approx(7.7))
    assert (letter.bleed_x, letter.bleed_y) == (BLEED_MM, approx(2.4))
    assert letter.marks_y == (approx(1.0), approx(2.4))
    assert letter.marks_x == (approx(4.0), approx(8.15))


def test_a_gutter_gives_every_card_its_own_bleed_and_may_cost_a_column() -> None:
    grid = grid_for(POKER, "a4", 6.0)
    # 3 × 63 + 2 × 6 = 201 leaves 4.5 mm a side: not the 5.3 + 2 mm needed, so two columns
    assert (grid.cols, grid.rows, grid.gutter, grid.inner_bleed) == (2, 3, 6.0, BLEED_MM)
    assert grid.x0 == approx((210 - 2 * 63 - 6) / 2) and grid.y0 == approx((297 - 3 * 88 - 12) / 2)
    assert grid_for(POKER, "a4", 2.0).inner_bleed == 1.0
    assert grid_for(POKER, "a4").inner_bleed == 0.0


def test_a_card_larger_than_the_page_is_one_per_page_without_marks() -> None:
    grid = grid_for((205.0, 295.0), "a4")
    assert (grid.cols, grid.rows) == (1, 1)
    assert (grid.x0, grid.y0) == (approx(2.5), approx(1.0))
    assert (grid.bleed_x, grid.bleed_y) == (0.0, 0.0)
    assert cut_marks(grid) == []


def _ink_boxes(sheet: Sheet) -> list[tuple[float, float, float, float]]:
    """Every box a sheet inks: each card with its bleed, and each cut mark."""
    boxes = [(s.x - s.bleed[3], s.y - s.bleed[0], s.x + s.w + s.bleed[1], s.y + s.h + s.bleed[2]) for s in sheet.slots]
    return boxes + [(min(m.x1, m.x2), min(m.y1, m.y2), max(m.x1, m.x2), max(m.y1, m.y2)) for m in sheet.marks]


@settings(max_examples=80, deadline=None, derandomize=True)
@given(w=st.floats(20, 190), h=st.floats(20, 260), paper=st.sampled_from(sorted(PAPER_MM)),
       gutter=st.sampled_from([0.0, 2.0, 6.0, 10.0]))
def test_the_grid_is_the_most_cards_that_fit_inside_the_ink_margin(w: float, h: float, paper: str,
                                                                    gutter: float) -> None:
    pw, ph = PAPER_MM[paper]
    grid = grid_for((w, h), paper, gutter)
    room = 2 * (INK_MARGIN_MM + 0.3 + MIN_BLEED_MM)
    assert grid.cols == max(1, max(n for n in range(0, 20) if n * w + max(0, n - 1) * gutter <= pw - room + 1e-9))
    assert grid.rows == max(1, max(n for n in range(0, 20) if n * h + max(0, n - 1) * gutter <= ph - room + 1e-9))
    assert grid.x0 == approx((pw - grid.cols * w - (grid.cols - 1) * gutter) / 2)
    assert MIN_BLEED_MM <= grid.bleed_x <= BLEED_MM and MIN_BLEED_MM <= grid.bleed_y <= BLEED_MM
    front = card_sheets([card(i, (w, h)) for i in range(max(1, grid.cols * grid.rows - 1))], paper, gutter)[2]
    for x1, y1, x2, y2 in _ink_boxes(front):  # nothing within 5 mm of an edge
        assert x1 >= INK_MARGIN_MM and y1 >= INK_MARGIN_MM and x2 <= pw - INK_MARGIN_MM and y2 <= ph - INK_MARGIN_MM
    assert len(cut_marks(grid)) == 2 * len(cut_lines(grid.x0, w, grid.cols, gutter)) + \
        2 * len(cut_lines(grid.y0, h, grid.rows, gutter))


# --- cut marks ------------------------------------------------------------------------------------
def test_cut_marks_on_every_cut_line_in_the_margins() -> None:
    grid = grid_for(POKER, "a4")  # x0 10.5, y0 16.5
    xs = [10.5, 73.5, 136.5, 199.5]
    ys = [16.5, 104.5, 192.5, 280.5]
    want = []
    for x in xs:
        want.append((x, 16.5 - 10, x, 16.5 - 4))  # above the grid, past the bleed and a 1 mm gap
        want.append((x, 280.5 + 4, x, 280.5 + 10))  # below
    for y in ys:
        want.append((10.5 - 5.2, y, 10.5 - 1, y))  # left, over the bleed
        want.append((199.5 + 1, y, 199.5 + 5.2, y))  # right
    got = [(m.x1, m.y1, m.x2, m.y2) for m in cut_marks(grid)]
    assert len(got) == 16
    assert sorted(got) == [approx(t) for t in sorted(want)]


def test_with_a_gutter_each_card_edge_is_a_cut_line() -> None:
    assert cut_lines(10.0, 63.0, 3, 0.0) == [10.0, 73.0, 136.0, 199.0]
    assert cut_lines(10.0, 63.0, 3, 6.0) == [10.0, 73.0, 79.0, 142.0, 148.0, 211.0]


# --- fronts, mirrored backs, bleed ---------------------------------------------------------------
def test_calibration_pair_first_then_fronts_and_backs_page_by_page() -> None:
    sheets = card_sheets([card(i) for i in range(20)], "a4")  # 9 a page: 9, 9, 2
    assert kinds(sheets) == ["calibration-front", "calibration-back"] + ["front", "back"] * 3
    assert [s.title for s in sheets[:2]] == ["Calibration (front)", "Calibration (back)"]
    assert all(s.title == "" for s in sheets[2:])
    assert [len(s.slots) for s in sheets] == [9, 9, 9, 9, 9, 9, 2, 2]
    assert [[s.number for s in sh.slots] for sh in sheets[6:]] == [[1, 2], [1, 2]]
    assert [s.card["id"] for sh in sheets[2::2] for s in sh.slots] == [f"c{i}" for i in range(20)]
    blank = {"name": "", "back": "", "color": "#ffffff", "deck_color": "#ffffff"}
    assert all(s.card == blank for sh in sheets[:2] for s in sh.slots)
    assert [s.number for s in sheets[0].slots] == list(range(1, 10))


def test_calibration_backs_are_mirrored_like_card_backs() -> None:
    cal_front, cal_back, front, back = card_sheets([card(i) for i in range(9)], "a4")
    assert [(s.x, s.y, s.bleed) for s in cal_front.slots] == [(s.x, s.y, s.bleed) for s in front.slots]
    assert [(s.x, s.y, s.bleed) for s in cal_back.slots] == [(s.x, s.y, s.bleed) for s in back.slots]
    assert cal_front.marks == front.marks == cut_marks(grid_for(POKER, "a4"))


def test_slots_in_reading_order_and_backs_mirrored_with_their_bleed() -> None:
    front, back = card_sheets([card(i) for i in range(9)], "a4")[2:]
    cols = [10.5, 73.5, 136.5]
    rows = [16.5, 104.5, 192.5]
    b = BLEED_MM
    for i in range(9):
        r, c = divmod(i, 3)
        f, k = front.slots[i], back.slots[i]
        assert (f.x, f.y, f.w, f.h, f.number) == (approx(cols[c]), approx(rows[r]), 63.0, 88.0, i + 1)
        assert (k.x, k.y, k.w, k.h, k.number) == (approx(cols[2 - c]), approx(rows[r]), 63.0, 88.0, i + 1)
        assert f.card is k.card
        top, bottom = (b if r == 0 else 0.0), (b if r == 2 else 0.0)
        assert f.bleed == (top, b if c == 2 else 0.0, bottom, b if c == 0 else 0.0)
        assert k.bleed == (top, b if c == 0 else 0.0, bottom, b if c == 2 else 0.0)


def test_a_card_beside_or_above_an_empty_slot_bleeds_into_it() -> None:
    front, back = card_sheets([card(i) for i in range(5)], "a4")[2:]  # row 1: slots 4, 5; 6-9 empty
    b = BLEED_MM
    assert [f.bleed for f in front.slots] == [
        (b, 0.0, 0.0, b), (b, 0.0, 0.0, 0.0), (b, b, b, 0.0),  # slot 3 is above the empty slot 6
        (0.0, 0.0, b, b), (0.0, b, b, 0.0)]  # slots 4 and 5 above empty slots, 5 beside one
    for f, k in zip(front.slots, back.slots, strict=True):
        t, r, bottom, left = f.bleed
        assert k.bleed == (t, left, bottom, r)


def test_with_a_gutter_every_inner_edge_bleeds_half_of_it() -> None:
    front = card_sheets([card(i) for i in range(6)], "a4", 4.0)[2]
    grid = grid_for(POKER, "a4", 4.0)
    for s in front.slots:
        t, r, bottom, left = s.bleed
        assert min(t, r, bottom, left) >= 2.0, s.bleed
        assert s.x == approx(grid.x0 + round((s.x - grid.x0) / 67.0) * 67.0)


def test_each_deck_on_sheets_of_its_own_in_order_of_first_appearance() -> None:
    big = (70.0, 120.0)  # (210 - 14) // 70 = 2 across, (297 - 14) // 120 = 2 down: 4 a page
    cards = [card(0, big, deck_id="b"), card(1, deck_id="p"), card(2, big, deck_id="b"), card(3, big, deck_id="b"),
             card(4, big, deck_id="b"), card(5, big, deck_id="b"), card(6, deck_id="p"), card(7, deck_id="q")]
    sheets = card_sheets(cards, "a4")
    assert kinds(sheets) == ["calibration-front", "calibration-back"] + ["front", "back"] * 4
    # the calibration pair is laid out for the first size met
    assert len(sheets[0].slots) == 4 and (sheets[0].slots[0].w, sheets[0].slots[0].h) == big
    assert sheets[0].marks == cut_marks(grid_for(big, "a4"))
    assert [[s.card["id"] for s in sh.slots] for sh in sheets[2::2]] == [
        ["c0", "c2", "c3", "c4"], ["c5"], ["c1", "c6"], ["c7"]]
    assert [s.x for s in sheets[3].slots] == [approx(105.0), approx(35.0), approx(105.0), approx(35.0)]
    assert sheets[6].marks == cut_marks(grid_for(POKER, "a4"))
    assert sheets[4].marks == cut_marks(grid_for(big, "a4"))


def test_no_cards_no_sheets() -> None:
    assert card_sheets([], "a4") == []


sizes = st.sampled_from([POKER, (70.0, 120.0), (44.0, 68.0), (120.0, 180.0), (205.0, 290.0)])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(chosen=st.lists(sizes, min_size=1, max_size=40), paper=st.sampled_from(sorted(PAPER_MM)),
       gutter=st.sampled_from([0.0, 3.0, 6.0]))
def test_every_card_once_on_the_fronts_and_its_back_behind_it(chosen: list[tuple[float, float]], paper: str,
                                                              gutter: float) -> None:
    """Every card is on exactly one fronts page; the next page holds its back at the mirror image of its
    slot across the page's vertical centre line (long-edge duplex), with the bleed mirrored too."""
    pw, _ph = PAPER_MM[paper]
    cards = [card(i, size, deck_id=str(size)) for i, size in enumerate(chosen)]
    sheets = card_sheets(cards, paper, gutter)
    assert kinds(sheets[:2]) == ["calibration-front", "calibration-back"]
    assert kinds(sheets[2:]) == ["front", "back"] * ((len(sheets) - 2) // 2)
    on_fronts = [s.card["id"] for sh in sheets[2::2] for s in sh.slots]
    assert sorted(on_fronts) == sorted(c["id"] for c in cards)
    for front, back in zip(sheets[0::2], sheets[1::2], strict=True):
        assert len(front.slots) == len(back.slots) > 0
        assert front.marks == back.marks
        for f, k in zip(front.slots, back.slots, strict=True):
            assert k.card is f.card and k.number == f.number
            assert (k.y, k.w, k.h) == (f.y, f.w, f.h)
            assert k.x == approx(pw - f.x - f.w)
            t, r, b, left = f.bleed
            assert k.bleed == (t, left, b, r)
        if front.kind == "front":
            assert all(s.card["size"] == (s.w, s.h) for s in front.slots)
            assert len({s.card["deck_id"] for s in front.slots}) == 1
            assert [s.number for s in front.slots] == list(range(1, len(front.slots) + 1))
    for sheet in sheets:  # bleed past every edge that has room for it
        grid = grid_for((sheet.slots[0].w, sheet.slots[0].h), paper, gutter)
        for s in sheet.slots:
            assert all(v >= min(grid.bleed_x, grid.bleed_y, grid.inner_bleed) for v in s.bleed)
            if grid.cols * grid.rows > 1 and gutter >= 2 * BLEED_MM:
                assert min(s.bleed) >= MIN_BLEED_MM - 0.3


# --- parts and pages printed again ---------------------------------------------------------------
def test_part_count_is_one_part_per_2500_cards() -> None:
    assert CARDS_PER_PART == 2500
    assert [part_count(n) for n in (0, 1, 2499, 2500, 2501, 5000, 5001)] == [1, 1, 1, 1, 2, 2, 3]


def pairs_of(n: int) -> list[Sheet]:
    return [Sheet(kind, title=f"{i}") for i in range(n) for kind in ("front", "back")]


@pytest.mark.parametrize(("pairs", "parts", "lengths"), [
    (7, 3, [3, 2, 2]), (6, 3, [2, 2, 2]), (8, 3, [3, 3, 2]), (2, 5, [1, 1]), (5, 1, [5]), (5, 0, [5]), (4, -2, [4]),
])
def test_split_sheets_in_nearly_equal_runs_of_whole_pairs(pairs: int, parts: int, lengths: list[int]) -> None:
    sheets = pairs_of(pairs)
    got = split_sheets(sheets, parts)
    assert [len(p) // 2 for p in got] == lengths
    assert all(len(p) % 2 == 0 for p in got)
    assert [s for p in got for s in p] == sheets


def test_split_sheets_of_nothing() -> None:
    assert split_sheets([], 3) == [[]]


def test_a_backs_page_is_keyed_by_what_the_back_shows() -> None:
    one = card_sheets([card(0, text="one"), card(1, text="two")], "a4")
    other = card_sheets([card(0, text="uno"), card(1, text="dos")], "a4")
    assert page_key(one[3]) == page_key(other[3])  # same backs: same page
    assert page_key(one[2]) != page_key(other[2])  # fronts differ
    for field_name, value in (("back", "Other"), ("deck_color", "#000000"), ("game", "H")):
        changed = card_sheets([card(0, **{field_name: value}), card(1)], "a4")
        assert page_key(changed[3]) != page_key(one[3]), field_name
    assert page_key(one[0]) != page_key(one[1])  # calibration front and back: different titles and slots
    moved = card_sheets([card(0), card(1)], "letter")
    assert page_key(moved[3]) != page_key(one[3])


def test_page_key_tells_apart_kind_title_marks_and_numbers() -> None:
    base = card_sheets([card(0)], "a4")[2]
    assert page_key(Sheet("front", base.slots, base.marks)) == page_key(base)
    assert page_key(Sheet("stickers", base.slots, base.marks)) != page_key(base)
    assert page_key(Sheet("front", base.slots, base.marks, "T")) != page_key(base)
    assert page_key(Sheet("front", base.slots, base.marks[1:])) != page_key(base)
    renumbered = [type(s)(s.x, s.y, s.w, s.h, s.bleed, s.card, 5) for s in base.slots]
    assert page_key(Sheet("front", renumbered, base.marks)) != page_key(base)


def test_distinct_pages_lays_out_each_page_once_and_maps_every_page() -> None:
    cards = [card(i) for i in range(30)] + [card(30, back="Other")]  # 4 pages: 9, 9, 9, 4
    sheets = card_sheets(cards, "a4")
    unique, order = distinct_pages(sheets)
    # cal front 0, cal back 1, fronts 2 4 6 8, full backs 3 (three times), the last backs 5 (they differ)
    assert order == [0, 1, 2, 3, 4, 3, 5, 3, 6, 7]
    assert unique == [sheets[0], sheets[1], sheets[2], sheets[3], sheets[4], sheets[6], sheets[8], sheets[9]]
    assert unique[3] is sheets[3]  # the first of the same pages is the one kept
    assert distinct_pages([]) == ([], [])


# --- stickers -----------------------------------------------------------------------------------
def sticker_game(tmp_path: Path, *stickers: dict[str, Any]) -> Any:
    return tiny_game(tmp_path, stickers=list(stickers))


def test_sticker_items_one_per_sticker_in_the_supply(tmp_path: Path) -> None:
    game = sticker_game(
        tmp_path,
        {"id": "a", "name": "Alpha", "size": {"width": 20, "height": 20}, "supply": 3, "effect": "Roll less."},
        {"id": "b", "size": {"width": 30, "height": 15}, "text": "Short.", "effect": "A long effect.",
         "supply": [{"count": 2}, {"count": 1, "side": "x"}, {"side": "y"}, {"count": "4"}, "junk"]},
        {"id": "c", "name": {"unknown": "not printed"}, "size": {"width": 10, "height": 14.9}, "effect": "Hidden."},
        {"id": "d", "name": "No size", "supply": 5},
        {"id": "e", "name": "Zero", "size": {"width": 10, "height": 30}, "supply": 0, "text": None,
         "effect": {"unknown": "lost"}},
        {"id": "f", "name": "Many", "size": {"width": 5, "height": 5}, "supply": 500},
        {"id": "g", "name": "Odd supply", "size": {"width": 5, "height": 5}, "supply": "lots"},
    )
    items = sticker_items(game)
    counts: dict[str, int] = {}
    for it in items:
        counts[it["id"]] = counts.get(it["id"], 0) + 1
    # a sticker without a size is printed at the default size, one when the number is not given
    assert counts == {"a": 3, "b": 3, "c": 1, "d": 5, "e": 1, "f": 200, "g": 1}
    first = {it["id"]: it for it in reversed(items)}
    given = {"sized": True, "basis": "given", "boxes": 0, "write": False, "token": False}
    assert first["a"] == {"id": "a", "name": "Alpha", "text": "Roll less.", "w": 20.0, "h": 20.0, "counted": True,
                          **given}
    assert first["b"] == {"id": "b", "name": "b", "text": "Short.", "w": 30.0, "h": 15.0,  # text before effect
                          "counted": True, **given}
    assert first["c"] == {"id": "c", "name": "c", "text": "Hidden.", "w": 10.0, "h": 14.9,  # part fits: B304
                          "counted": False, **given}
    # no size: sized for where it goes (no targets: a territory), as high as its name needs
    assert first["d"] == {"id": "d", "name": "No size", "text": "", "w": 36.0, "h": 8.0, "sized": False,
                          "basis": "a territory", "boxes": 0, "write": False, "token": False, "counted": True}
    assert first["e"]["text"] == "?"  # an unknown effect prints as "?"
    assert [it["id"] for it in items[:4]] == ["a", "a", "a", "b"]


def test_sticker_items_without_stickers(tmp_path: Path) -> None:
    assert sticker_items(sticker_game(tmp_path)) == []


def sticker(w: float, h: float, n: int = 0) -> dict[str, Any]:
    return {"id": f"s{n}", "name": f"S{n}", "text": "", "w": w, "h": h}


def test_stickers_in_shelves_with_gaps_inside_the_margins() -> None:
    # a4 210 wide, 12 mm margins: 186 mm per shelf; 50 mm stickers + 4 mm gaps: 12, 66, 120 (174 ≤ 198), then a
    # new shelf under the tallest sticker of the last one.
    stickers = [sticker(50, 20, 1), sticker(50, 30, 2), sticker(50, 10, 3), sticker(50, 20, 4), sticker(30, 5, 5)]
    (sheet,) = sticker_sheets(stickers, "a4")
    assert sheet.kind == "stickers" and sheet.marks == [] and sheet.title == ""
    assert [(s.x, s.y, s.w, s.h, s.number) for s in sheet.slots] == [
        (12.0, 23.0, 50, 20, 1), (66.0, 23.0, 50, 30, 2), (120.0, 23.0, 50, 10, 3),
        (12.0, 57.0, 50, 20, 4), (66.0, 57.0, 30, 5, 5)]
    assert all(s.bleed == (0, 0, 0, 0) for s in sheet.slots)
    assert [s.card for s in sheet.slots] == stickers


def test_a_sticker_that_just_fits_stays_on_the_shelf() -> None:
    # 12 + 90 + 4 = 106; 106 + 92 = 198 = 210 - 12: fits exactly
    (sheet,) = sticker_sheets([sticker(90, 10), sticker(92, 10)], "a4")
    assert [(s.x, s.y) for s in sheet.slots] == [(12.0, 23.0), (106.0, 23.0)]
    (sheet,) = sticker_sheets([sticker(90, 10), sticker(92.5, 10)], "a4")
    assert [(s.x, s.y) for s in sheet.slots] == [(12.0, 23.0), (12.0, 37.0)]


def test_stickers_go_on_to_a_new_page_when_the_page_is_full() -> None:
    # a4 297 high: shelves from y 23, 100 mm tall with 4 mm gaps: 23, 127 (227 ≤ 285), then 231 + 100 > 285
    stickers = [sticker(186, 100, n) for n in range(1, 5)]
    pages = sticker_sheets(stickers, "a4")
    assert [[(s.x, s.y, s.number) for s in p.slots] for p in pages] == [
        [(12.0, 23.0, 1), (12.0, 127.0, 2)], [(12.0, 23.0, 3), (12.0, 127.0, 4)]]
    assert [(p.kind, p.title, p.marks) for p in pages] == [("stickers", "", [])] * 2
    # one that just fits: 23 + 104 + 158 = 285 = 297 - 12
    pages = sticker_sheets([sticker(186, 100), sticker(186, 158)], "a4")
    assert len(pages) == 1 and pages[0].slots[1].y == 127.0


def test_stickers_larger_than_the_page_are_cut_to_its_margins() -> None:
    pages = sticker_sheets([sticker(400, 500), sticker(10, 10)], "letter")
    big = pages[0].slots[0]
    assert (big.x, big.y, big.w, big.h) == (12.0, 23.0, approx(215.9 - 24), approx(279.4 - 24 - 11))
    assert len(pages) == 2 and (pages[1].slots[0].x, pages[1].slots[0].y) == (12.0, 23.0)


def test_no_stickers_no_sheets() -> None:
    assert sticker_sheets([], "a4") == []


# --- what each card face shows -------------------------------------------------------------------
DECKS = [
    {"id": "d-a", "name": "Alpha deck", "back": "Alpha back", "card_type": "mission-card"},
    {"id": "d-b", "name": {"unknown": "not printed"}, "card_size": {"width": 70, "height": 120}},
    {"id": "d-hidden", "name": "Hidden", "printable": False},
    {"id": "d-c", "name": "Gamma", "back": {"unknown": "not printed"}},
]
STICKERS = [
    {"id": "boost", "name": "Boost", "kind": "scar", "adds": {"resources": 1}, "effect": "Plus one."},
    {"id": "troops", "name": "Troops", "adds": {"troops": 1}},
    {"id": "odd", "name": "Odd", "adds": "resources"},
]
CARDS = [
    {"id": "c-terr", "deck": "d-a", "name": "Terr", "territory": "east", "type": "hq-card", "zone": "reef",
     "stats": {"max_troops": 5, "skill": {"unknown": "not printed"}}, "resources": 2, "text": "Hold.",
     "image": "art.png", "copies": 2,
     "marks": [{"sticker": "boost"}, {"sticker": "boost"}, {"sticker": "troops"}, {"sticker": "odd"}, "junk",
               {"sticker": "boost"}]},
    {"id": "c-plain", "deck": "d-b", "resources": {"unknown": "lost"}, "text": {"unknown": "lost"},
     "zone": "far-away-zone", "copies": 0},
    {"id": "c-hidden", "deck": "d-hidden", "name": "Never printed"},
    {"id": "c-scar", "deck": "d-c", "name": "Scar", "stickers": ["boost", "missing"], "destroyed": True,
     "zone": "north", "stats": {"a": None}},
    {"id": "c-south", "deck": "d-c", "name": "South", "territory": "south", "resources": 0},
    {"id": "c-loose", "name": "Loose", "territory": "nowhere"},
    {"id": "c-west", "deck": "d-c", "name": "West", "territory": "west", "zone": "deep", "resources": "3"},
]


def faced_game(tmp_path: Path, **changes: Any) -> Any:
    parts: dict[str, Any] = {"decks": DECKS, "stickers": STICKERS, "cards": CARDS, **changes}
    game = tiny_game(tmp_path, **parts)
    game.section("territories")["south"]["destroyed"] = True
    # a territory whose name is not known, in a region the game does not list; a region of unknown name
    game.section("territories")["west"] = {"id": "west", "name": {"unknown": "x"}, "regions": ["reef", "ghost"]}
    game.section("regions")["deep"] = {"id": "deep", "name": {"unknown": "x"}}
    return game


def base_face(**fields: Any) -> dict[str, Any]:
    face = {"type": "", "zone": None, "where": None, "stats": [], "resources": None, "text": None, "unknown": False,
            "image": None, "image_url": None, "size": POKER, "game": "Tiny Isles", "alias": None,
            "upgraded_stats": False}
    return {**face, "deck_color": fields.get("color"), **fields}


def test_printable_cards_show_what_each_card_says(tmp_path: Path) -> None:
    from scarbook.compiler.boardmap import card_stickers, locator_spots
    from scarbook.compiler.sheets import PALETTE, printable_cards

    game = faced_game(tmp_path)
    spots = locator_spots(game)
    faces = printable_cards(game)
    terr = base_face(id="c-terr", name="Terr", deck="Alpha deck", deck_id="d-a", type="hq card", zone="Reef",
                     where="Isles, Reef", stats=[("max\u00a0troops", "5", False), ("skill", "?", False)],
                     resources=2, text="Hold.",
                     unknown=True, image="art.png", color=PALETTE[0], back="Alpha back", upgraded=3,
                     spot=spots["east"], territory="east", stuck=["Troops", "Odd"])  # troops: no stat printed
    plain = base_face(id="c-plain", name="c-plain", deck="d-b", deck_id="d-b", zone="far away zone", text="?",
                      unknown=True, color=PALETTE[1], back="", size=(70.0, 120.0))
    scar = base_face(id="c-scar", name="Scar", deck="Gamma", deck_id="d-c", zone="North Isle", stats=[("a", "", False)],
                     color=PALETTE[2], back="Gamma", destroyed=True,
                     stickers=card_stickers(game, {"stickers": ["boost"]}))
    west = base_face(id="c-west", name="West", deck="Gamma", deck_id="d-c", zone="deep", where="Reef, ghost",
                     color=PALETTE[2], back="Gamma", spot=spots["west"], territory="west")  # resources "3": none
    south = base_face(id="c-south", name="South", deck="Gamma", deck_id="d-c", where="Reef", resources=0,
                      color=PALETTE[2], back="Gamma", destroyed=True, spot=spots["south"], territory="south")
    loose = base_face(id="c-loose", name="Loose", deck="", deck_id="", color=PALETTE[-1], back="")
    # a deck colour each for the decks that print (a deck not printed takes none)
    assert faces == [terr, terr, plain, scar, south, loose, west]
    assert faces[0] is faces[1]  # copies are the same face
    assert [s["id"] for s in scar["stickers"]] == ["boost"]


def test_a_card_type_comes_from_its_deck_when_the_card_names_none(tmp_path: Path) -> None:
    from scarbook.compiler.sheets import printable_cards

    game = faced_game(tmp_path, cards=[{"id": "m", "deck": "d-a", "name": "M"}, {"id": "n", "deck": "d-a",
                                                                                    "type": "own-type"}])
    assert [f["type"] for f in printable_cards(game)] == ["mission card", "own type"]


def test_every_deck_gets_a_colour_no_other_deck_has(tmp_path: Path) -> None:
    from scarbook.compiler.sheets import BACK_FLOORS, PALETTE, colour_distance, printable_cards

    decks = [{"id": f"d{i}", "name": f"D{i}"} for i in range(16)]
    decks[2]["color"] = "green"  # the content's colour, as printed
    decks[3]["color"] = PALETTE[0]  # taken by the content: the others skip it
    cards = [{"id": f"c{i}", "deck": f"d{i}", "name": f"C{i}"} for i in range(16)]
    faces = printable_cards(tiny_game(tmp_path, decks=decks, cards=cards))
    colours = [f["color"] for f in faces]
    # the content's own colours stand (d2 green, d3 the palette's first); the others take the palette in order
    # where a colour stays apart from every other deck's (issue 34 P16), so d0 gets the first one free
    assert colours[0] == PALETTE[1] and colours[2] == "#2e7d32" and colours[3] == PALETTE[0]
    assert PALETTE[0] not in colours[:3] + colours[4:]
    assert len(set(colours)) == 16  # past the palette, more colours, never one twice
    chosen = [c for i, c in enumerate(colours) if i not in (2, 3)]
    assert min(colour_distance(a, b) for n, a in enumerate(chosen) for b in chosen[n + 1:]) >= BACK_FLOORS[-2]
    assert all(f["deck_color"] == f["color"] for f in faces)
    assert [f["back"] for f in faces] == [f"D{i}" for i in range(16)]  # a deck without a back shows its name


def test_content_colours_by_name_or_hex() -> None:
    from scarbook.compiler.sheets import colour

    assert colour("Green") == "#2e7d32" and colour("#AbC") == "#aabbcc" and colour("#123456") == "#123456"
    assert colour("chartreuse-ish") is None and colour(None) is None and colour("#12345") is None


def test_a_game_without_territories_prints_its_cards_without_spots(tmp_path: Path) -> None:
    from scarbook.compiler.sheets import printable_cards

    game = tiny_game(tmp_path, territories=[], regions=[], cards=[{"id": "x", "deck": "isle-cards",
                                                                   "territory": "north", "name": "X"}])
    game.edges = []
    (face,) = printable_cards(game)
    assert "spot" not in face and "territory" not in face and face["where"] is None


FACTIONS = [
    {"id": "red", "name": "Red", "power": "p1", "choose_powers": 2, "text": "Not shown: the powers are",
     "powers": [{"id": "p1", "name": "One", "text": "First."}, {"id": "p2", "name": {"unknown": "x"},
                "text": {"unknown": "x"}}, "junk", {"id": "p3", "name": "Three", "destroyed": True}],
     "leader": {"name": "Boss", "ability": "Leads."}},
    {"id": "blue", "text": "Blue text.", "leader": {"name": ""}, "choose_powers": "2"},
    {"id": "green", "name": "Green", "powers": [{"id": "g1", "name": "G", "text": "Gee."},
                                               {"id": "g2", "name": "H", "destroyed": True}, {"text": "Nameless."}],
     "leader": {"name": "Chief"}},
    {"id": "f4", "name": "F4", "leader": {"name": {"unknown": "not printed"}}},
    {"id": "f5", "name": "F5", "leader": "not a mapping"}, {"id": "f6", "name": "F6"},
]


def faction_base(fid: str, colour: str, deck_colour: str) -> dict[str, Any]:
    return {"id": fid, "deck": "Factions", "deck_id": "factions", "type": "faction", "zone": None, "where": None,
            "stats": [], "resources": None, "unknown": False, "image": None, "image_url": None, "color": colour,
            "deck_color": deck_colour, "back": "Faction", "size": POKER, "game": "Tiny Isles"}


def test_faction_cards_show_powers_the_chosen_one_and_the_leader(tmp_path: Path) -> None:
    from scarbook.compiler.sheets import PALETTE, faction_cards, printable_cards

    factions = [dict(f) for f in FACTIONS]
    factions[1]["color"] = "blue"
    game = tiny_game(tmp_path, cards=[], factions=factions)
    cards = faction_cards(game)
    assert printable_cards(game) == cards  # no other cards: only the faction cards
    deck = PALETTE[len([d for d in game.section("decks").values() if d.get("printable") is not False])]
    assert {c["deck_color"] for c in cards} == {deck}  # one deck, one back
    red, blue, green, f4, f5, f6 = cards
    assert red == {**faction_base("red", deck, deck), "name": "Red", "text": "Not shown: the powers are",
                   "choose": 2, "unknown": True, "powers": [
        {"name": "One", "text": "First.", "why": "", "chosen": True, "destroyed": False},
        {"name": "Power 2", "text": "", "why": "x", "chosen": False, "destroyed": True},  # no id printed
        {"name": "Three", "text": "", "why": "", "chosen": False, "destroyed": True},
        {"name": "Leader: Boss", "text": "Leads.", "why": "", "chosen": False, "destroyed": False}]}
    assert blue == {**faction_base("blue", "#1565c0", deck), "name": "blue", "text": "Blue text.", "choose": None,
                    "powers": []}  # the faction's own colour on its front
    assert green["powers"] == [{"name": "G", "text": "Gee.", "why": "", "chosen": False, "destroyed": False},
                               {"name": "H", "text": "", "why": "", "chosen": False, "destroyed": True},
                               {"name": "Power 3", "text": "Nameless.", "why": "", "chosen": False,
                                "destroyed": False},
                               {"name": "Leader: Chief", "text": "", "why": "", "chosen": False, "destroyed": False}]
    assert green["text"] is None and green["color"] == deck
    assert f4["powers"] == [{"name": "Leader: ", "text": "", "why": "", "chosen": False, "destroyed": False}]
    assert f5["powers"] == [] and f5["text"] is None
    assert not any("record" in c for c in cards)  # not a legacy game


def test_a_leader_with_a_card_of_its_own_is_named_not_repeated_and_units_are_listed(tmp_path: Path) -> None:
    from scarbook.compiler.sheets import faction_cards

    game = tiny_game(tmp_path, factions=[{"id": "ultra", "name": "Ultra", "leader": {"name": "Tiny"},
                                          "units": [{"name": "Squad", "value": 1, "text": "Single unit."},
                                                    {"name": "Tank", "value": 3}]}])
    game.section("cards")["tiny-leader"] = {"id": "tiny-leader", "name": "Tiny", "deck": "d-a"}
    (card,) = faction_cards(game)
    assert card["powers"][0]["name"] == "Leader: Tiny" and card["powers"][0]["text"] == "(its own card)"
    assert card["units"] == ["Squad: Single unit.", "Tank"]


def legacy(tmp_path: Path, campaign: Any = None, record: Any = None, legacy_flag: Any = True) -> list[dict[str, Any]]:
    from scarbook.compiler.sheets import faction_cards

    game = tiny_game(tmp_path, cards=[], factions=[{"id": "red", "name": "Red", "record": record}])
    game.meta["legacy"] = legacy_flag
    if campaign is not None:
        game.meta["campaign"] = campaign
    return faction_cards(game)


def empty_rows(n: int) -> list[dict[str, Any]]:
    return [{"game": i + 1, "player": "", "start": "", "result": ""} for i in range(n)]


def test_a_legacy_game_adds_a_record_card_per_faction(tmp_path: Path) -> None:
    from scarbook.compiler.sheets import PALETTE

    faction, record = legacy(tmp_path)
    deck = faction["deck_color"]
    assert record == {**faction_base("red-record", deck, record["deck_color"]), "name": "Red",
                      "deck": "Faction record", "deck_id": "faction-records", "back": "Faction record",
                      "text": None, "record": empty_rows(10)}
    assert record["deck_color"] not in (deck, *PALETTE[:1])  # a deck of its own, with a back of its own
    assert faction["id"] == "red"
    assert len(legacy(tmp_path, legacy_flag="yes")) == 1  # only `legacy: true`


@pytest.mark.parametrize(("campaign", "rows"), [
    ({}, 10), ({"games": 3}, 3), ({"games": 20}, 15), ({"games": 15}, 15),
    ({"games": 0, "rewards_in_first_games": 7}, 7),
    ({"rewards_in_first_games": 12}, 12), ({"games": 4, "rewards_in_first_games": 12}, 4), ({"games": True}, 10),
    ({"games": "5"}, 10), ({"games": -2}, 10), ({"games": 1}, 1), (None, 10),
])
def test_record_rows_follow_the_campaign(tmp_path: Path, campaign: Any, rows: int) -> None:
    record = legacy(tmp_path, campaign={} if campaign is None else campaign)[1]["record"]
    assert record == empty_rows(rows)


def test_record_rows_filled_from_the_campaign_and_enough_for_every_game_played(tmp_path: Path) -> None:
    played = [{"game": 1, "player": "Ann", "start": "North", "result": "won"}, "junk",
              {"game": 3, "player": None, "result": 2}, {"game": "2", "player": "Bob"}, {"game": 0, "player": "Z"},
              {"game": 4, "player": "Dee"}]
    rows = legacy(tmp_path, campaign={"games": 3}, record=played)[1]["record"]
    assert rows == [{"game": 1, "player": "Ann", "start": "North", "result": "won"},
                    {"game": 2, "player": "", "start": "", "result": ""},
                    {"game": 3, "player": "", "start": "", "result": "2"},
                    {"game": 4, "player": "Dee", "start": "", "result": ""},
                    {"game": 5, "player": "", "start": "", "result": ""}]  # a row for each of the 5 entries
    many = [{"game": n, "player": f"P{n}"} for n in range(1, 13)]
    rows = legacy(tmp_path, campaign={"games": 3}, record=many)[1]["record"]
    assert [r["player"] for r in rows] == [f"P{n}" for n in range(1, 13)]  # more games played than planned
    too_many = [{"game": n, "player": f"P{n}"} for n in range(1, 20)]
    rows = legacy(tmp_path, campaign={"games": 3}, record=too_many)[1]["record"]
    assert [r["player"] for r in rows] == [f"P{n}" for n in range(1, 16)]  # at most 15 rows


def test_a_shelf_is_as_tall_as_its_tallest_sticker_however_thin() -> None:
    # three shelves of 0.5 mm stickers (186 mm across: one a shelf): 23, 27.5, 32, then a new page
    thin = [sticker(186, 0.5, n) for n in range(3)]
    (sheet,) = sticker_sheets(thin, "a4")
    assert [s.y for s in sheet.slots] == [23.0, 27.5, 32.0]
    pages = sticker_sheets([sticker(186, 262, 0), *thin], "a4")
    assert [[s.y for s in p.slots] for p in pages] == [[23.0], [23.0, 27.5, 32.0]]


def test_the_same_card_in_another_key_order_is_the_same_page() -> None:
    one = card_sheets([card(0, text="t")], "a4")[2]
    other = card_sheets([dict(reversed(card(0, text="t").items()))], "a4")[2]
    assert page_key(one) == page_key(other)
    assert distinct_pages([one, other]) == ([one], [0, 0])


def test_what_is_stuck_on_a_card_is_counted_after_the_stickers_whole_name() -> None:
    """Two alike stickers are 'NAME ×2 (PLAYER)', a name with brackets of its own kept whole (it read 'Scar Cancel
    ×2 (white sticker) (Ann)'); a sticker the face shows otherwise (resources added) is not listed."""
    from scarbook.compiler.sheets import stuck_on

    class Stickers:
        def section(self, name: str) -> dict[str, Any]:
            return {"stickers": {"sc": {"name": "Scar Cancel (white sticker)"}, "cr": {"name": "Crest"},
                                 "coin": {"name": "Coin", "adds": {"resources": 1}}}}.get(name, {})

    marks = [{"sticker": "sc", "by": "Ann"}, {"sticker": "sc", "by": "Ann"}, {"sticker": "cr"}, {"sticker": "cr"},
             {"sticker": "cr", "by": "Bo"}, {"sticker": "coin", "by": "Ann"}]
    assert stuck_on(Stickers(), {"marks": marks}) == [  # type: ignore[arg-type]
        "Scar Cancel (white sticker) ×2 (Ann)", "Crest ×2", "Crest (Bo)"]
