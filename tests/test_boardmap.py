"""compiler/boardmap.py, fast: the board picture of each shipped game as printed (golden files read back by
`tests/boardread.py`), a board with every icon, and the geometry, overlap avoidance, legend and mark styles
function by function on boards made up in the test.

Golden files `tests/golden/*.board.txt`: written only by
`SCARBOOK_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_board_picture.py tests/test_boardmap.py`; review the diff.
"""

from __future__ import annotations

import base64
import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from boardread import board_text, read_board

from conftest import EXAMPLES, check_golden
from scarbook.compiler import boardmap as bm
from scarbook.compiler.boardmap import DESTROYED, Box, Label, MapMark, board_svg
from scarbook.compiler.model import ITEM_SECTIONS, Game

SVG = "{http://www.w3.org/2000/svg}"
SHIPPED = ("risk-legacy", "risk-shadow-forces", "risk-warhammer-40k", "shadow-blades")


def printed(game_id: str) -> Game:
    """The game as `scarbook build` draws it without a campaign."""
    from scarbook.compiler.spoilers import for_players
    from scarbook.compiler.validate import cached_game

    full = cached_game(game_id)
    return for_players(full.effective(), full)


def made(territories: list[dict[str, Any]], regions: list[dict[str, Any]] | None = None,
         edges: list[tuple[str, str, str]] | None = None, board: dict[str, Any] | None = None,
         **sections: list[dict[str, Any]]) -> Game:
    """A board made up in the test (no validation)."""
    game = Game(id="made", meta={"id": "made", "title": "Made"}, board=dict(board or {}))
    game.sections = {s: {} for s in ITEM_SECTIONS}
    for name, items in {"territories": territories, "regions": regions or [], **sections}.items():
        for item in items:
            game.sections.setdefault(name, {})[item["id"]] = item
    game.edges = list(edges or [])
    return game


def at(tid: str, x: float, y: float, name: str | None = None, **more: Any) -> dict[str, Any]:
    return {"id": tid, "name": name if name is not None else tid.title(), "regions": more.pop("regions", []),
            "layout": {"x": x, "y": y, **more.pop("layout", {})}, **more}


# --- golden files: the boards as printed, and one with every icon ------------------------------------------------
@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_printed_board_of_each_shipped_game(game_id: str) -> None:
    game = printed(game_id)
    withheld = bm.map_withheld(game)
    text = f"no board picture: {withheld}\n" if withheld else board_text(board_svg(game))
    assert "not understood:" not in text, text
    check_golden(f"{game_id}.board.txt", text)


EVERY_ICON = {
    "alaska": [MapMark("city", "Anchorage", 3, None, "house", "#1f4e79", "city (dots: its size)"),
               MapMark("fort", "", 4, 10, "tower", "#6b4b12", "fortification (boxes left)")],
    "greenland": [MapMark("scar", "Bunker", icon="slash", color="#b01818", legend="scar")],
    "iceland": [MapMark("devastation", "Devastated", icon="hatched", color="#333333", legend="devastated")],
    "japan": [DESTROYED],
    "peru": ["a plain <mark> & more"],
    "egypt": [MapMark("warlord", "A warlord with a long name", icon="star", color="#5b2a86", legend="warlord")],
    "china": [MapMark("box", "Boxed", icon="square", color="#225522", legend="square mark"),
              MapMark("tri", "Tri", icon="triangle", color="#552222", legend="triangle mark"),
              MapMark("dot", "Dot", icon="circle", color="#222255", legend="circle mark"),
              MapMark("big", "Metropolis", 9, None, "house", "#1f4e79", "city (dots: its size)"),
              MapMark("zero", "", 0, 3, "tower", "#6b4b12", "fortification (boxes left)")],
}


def test_a_board_with_every_icon_and_its_legend() -> None:
    svg = board_svg(printed("risk-legacy"), EVERY_ICON, legend_kinds=True)  # type: ignore[arg-type]
    text = board_text(svg)
    assert "not understood:" not in text, text
    check_golden("risk-legacy.every-icon.board.txt", text)


# --- geometry: the board's size, positions, boxes ----------------------------------------------------------------
def test_board_size_from_the_layout_else_the_points_else_a_default() -> None:
    assert bm._board_size(made([], board={"layout": {"width": 200, "height": 100}})) == (200.0, 100.0)
    points = [at("a", 100, 50), at("b", 20, 10)]
    assert bm._board_size(made(points, board={"layout": {"width": 200}})) == (106.0, 53.5)
    assert bm._board_size(made(points, board={"layout": {"width": "wide", "height": 100}})) == (106.0, 53.5)
    assert bm._board_size(made(points, board={"layout": {"width": 0, "height": 100}})) == (106.0, 53.5)
    assert bm._board_size(made([{"id": "a"}])) == (100.0, 60.0)
    assert bm.locator_spots(made(points, board={"layout": {"width": 200, "height": 100}})) == {
        "a": (50.0, 50.0), "b": (10.0, 10.0)}
    assert bm.locator_spots(made([at("a", 1, 2)], board={"layout": {"width": 3, "height": 3}})) == {
        "a": (33.33, 66.67)}


def test_territories_without_a_layout_go_on_a_ring_grouped_by_region() -> None:
    regions = [{"id": "r1"}, {"id": "r2"}]
    ring = made([{"id": "w", "regions": ["r2"]}, {"id": "x"}, {"id": "y", "regions": ["r1"]},
                 {"id": "z", "regions": ["r2"]}], regions)
    pos = bm.positions(ring)
    assert list(pos) == ["y", "w", "z", "x"]  # region order, then those of no region
    radius = 60 * 0.42
    assert pos["y"] == pytest.approx((50.0, 30 - radius))  # the first at the top
    assert pos["w"] == pytest.approx((50 + radius * 100 / 60 * 0.9, 30.0))  # a quarter turn on, widened
    assert pos["z"] == pytest.approx((50.0, 30 + radius))
    assert pos["x"] == pytest.approx((50 - radius * 100 / 60 * 0.9, 30.0))
    mixed = bm.positions(made([at("a", 10, 5), {"id": "b"}], board={"layout": {"width": 100, "height": 60}}))
    assert mixed == {"a": (10.0, 5.0), "b": pytest.approx((50.0, 30 - 60 * 0.47))}


def test_box_hits_touching_is_not_hitting_unless_padded() -> None:
    box = Box(0, 0, 10, 10)
    for other in (Box(10, 0, 20, 10), Box(-10, 0, 0, 10), Box(0, 10, 10, 20), Box(0, -10, 10, 0)):
        assert not box.hits(other) and not other.hits(box)
        assert box.hits(other, 0.1) and other.hits(box, 0.1)
    assert box.hits(Box(9, 9, 20, 20)) and box.hits(Box(2, 2, 3, 3)) and Box(2, 2, 3, 3).hits(box)
    assert not box.hits(Box(5, 11, 6, 12)) and not box.hits(Box(11, 5, 12, 6))
    assert not box.hits(Box(5, -12, 6, -11)) and not box.hits(Box(-12, 5, -11, 6))


def test_box_hits_circle_only_closer_than_its_radius() -> None:
    box = Box(0, 0, 10, 10)
    assert not box.hits_circle(15, 5, 5) and box.hits_circle(15, 5, 5.01)  # tangent on the right
    assert not box.hits_circle(-5, 5, 5) and box.hits_circle(-5, 5, 5.01)
    assert not box.hits_circle(5, 15, 5) and box.hits_circle(5, -4.99, 5)
    assert box.hits_circle(5, 5, 1)  # inside
    assert not box.hits_circle(13, 14, 5) and box.hits_circle(13, 13, 5)  # near a corner: the corner counts


@pytest.mark.parametrize(("a", "b", "hit"), [
    ((-5, 5), (15, 5), True),   # straight through
    ((-5, -5), (15, 15), True),  # the diagonal
    ((-5, 5), (-1, 5), False),  # stops before it
    ((11, 5), (20, 5), False),  # starts after it
    ((5, -5), (5, -1), False),  # stops above
    ((5, 11), (5, 20), False),  # starts below
    ((5, -5), (5, 15), True),   # vertical, through
    ((12, -5), (12, 15), False),  # vertical, beside it
    ((-2, -5), (-2, 15), False),  # vertical, on the other side
    ((-5, 12), (15, 12), False),  # horizontal, under it
    ((-5, -2), (15, -2), False),  # horizontal, over it
    ((-5, 20), (20, -5), True),  # across a corner region
    ((-5, 30), (30, -5), False),  # passes the corner outside
    ((2, 2), (3, 3), True),     # wholly inside
    ((20, 0), (0, 30), False),  # passes outside, slanting back
])
def test_box_hits_segment(a: tuple[float, float], b: tuple[float, float], hit: bool) -> None:
    assert Box(0, 0, 10, 10).hits_segment(a, b) is hit
    assert Box(0, 0, 10, 10).hits_segment(b, a) is hit


# --- labels and mark rows -----------------------------------------------------------------------------------------
def test_text_widths_and_mark_texts() -> None:
    assert bm.text_width("abcd", 10) == pytest.approx(24.0) and bm.text_width("abcd", 10, True) == pytest.approx(25.6)
    assert bm._mark_text(MapMark("f", "", 4, 10)) == "4/10"
    assert bm._mark_text(MapMark("f", "Fort", 4, 10)) == "4/10 Fort"
    assert bm._mark_text(MapMark("f", "Fort", 0, 3)) == "0/3 Fort"
    assert bm._mark_text(MapMark("c", "Town", 3)) == "Town"  # a size is dots, not text
    assert bm._mark_text(MapMark("c", "Town", 3, 0)) == "Town"
    assert bm._mark_width(MapMark("x", "")) == bm.ICON
    assert bm._mark_width(MapMark("x", "ab")) == pytest.approx(bm.ICON + 2 + 2 * bm.MARK_SIZE * 0.6)


def test_a_label_is_as_wide_as_its_widest_row_and_as_tall_as_its_rows() -> None:
    name = Label("t", "abcd", [])
    assert name.width == pytest.approx(24 + 2) and name.height == pytest.approx(bm.LABEL_SIZE + 2 + 1)
    long_mark = Label("t", "ab", [MapMark("x", "abcdefghij"), MapMark("y", "")])
    assert long_mark.width == pytest.approx(bm.ICON + 2 + 10 * bm.MARK_SIZE * 0.6 + 2)
    assert long_mark.height == pytest.approx(bm.LABEL_SIZE + 2 + 2 * (bm.ICON + 2) + 1)
    far = Label("t", "", [], far="to AB-01, CD-02")
    assert far.width == pytest.approx(15 * bm.MARK_SIZE * 0.6 + 2)
    assert far.height == pytest.approx(1 + bm.MARK_SIZE + 2)
    assert Label("t", "", [MapMark("x", "")]).height == pytest.approx(bm.ICON + 2 + 1)


def test_plain_strings_become_generic_marks_and_a_destroyed_card_is_a_red_cross() -> None:
    assert bm._as_mark("Kraken") == MapMark("marks", "Kraken")
    assert bm._as_mark(MapMark("destroyed")) is DESTROYED
    own = MapMark("destroyed", "", icon="star", color="#000000")
    assert bm._as_mark(own) is own
    city = MapMark("city", "Town", 2, icon="house")
    assert bm._as_mark(city) is city
    assert (DESTROYED.icon, DESTROYED.color, DESTROYED.legend) == ("cross", "#b01818", "territory card destroyed")
    assert (MapMark("x").icon, MapMark("x").color, MapMark("x").legend) == ("diamond", "#5b2a86", "other mark")


def test_short_labels_drop_the_group_word_and_sticker() -> None:
    assert bm.short_label("Kai Weller warlord sticker", "warlord sticker") == "Kai Weller"
    assert bm.short_label("Kai Weller Warlord", "warlord") == "Kai Weller"
    assert bm.short_label("Fortification sticker", "fortification") == "Fortification"
    assert bm.short_label("Scar", "scar") == "Scar"  # never nothing
    assert bm.short_label("Bunker", "scar") == "Bunker"
    assert bm.short_label("Big (city)", "(city)") == "Big"  # the word is matched as text, not a pattern
    assert bm.short_label("Townscar", "scar") == "Townscar"  # a whole word only


# --- the layout: circles apart, edges, titles, labels clear of everything ---------------------------------------
def test_scale_and_circle_radius_follow_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    four = bm.BoardLayout(made([at("a", 10, 10), at("b", 190, 10), at("c", 10, 90), at("d", 190, 90)],
                               board={"layout": {"width": 200, "height": 100}}))
    assert four.scale == 5.0 and four.view_h == 500.0 and four.radius == 16.0
    assert four.pos["d"] == (950.0, 450.0)
    monkeypatch.setattr(bm.BoardLayout, "_separate", lambda self: None)
    monkeypatch.setattr(bm.BoardLayout, "_place", lambda self: None)
    many = [{"id": f"t{i}"} for i in range(625)]
    assert bm.BoardLayout(made(many)).radius == pytest.approx(380 / 25)
    assert bm.BoardLayout(made([{"id": f"t{i}"} for i in range(3600)])).radius == 7.0


def test_circles_that_would_overlap_are_moved_apart_the_later_one_or_the_drawn_one() -> None:
    size = {"layout": {"width": 1000, "height": 600}}
    same = bm.BoardLayout(made([at("a", 500, 300), at("b", 500, 300)], board=size))
    gap = 2 * same.radius + 4
    assert same.pos["a"] == (500.0, 300.0) and same.pos["b"] == (500.0, 300 + gap + 0.5)
    near = bm.BoardLayout(made([at("a", 500, 300, layout={"drawing_choice": True}), at("b", 510, 300)], board=size))
    assert near.pos["b"] == (510.0, 300.0) and near.pos["a"] == pytest.approx((510 - gap - 0.5, 300.0))
    later = bm.BoardLayout(made([at("a", 500, 300), at("b", 510, 300, layout={"drawing_choice": True})], board=size))
    assert later.pos["a"] == (500.0, 300.0) and later.pos["b"] == pytest.approx((500 + gap + 0.5, 300.0))
    apart = bm.BoardLayout(made([at("a", 500, 300), at("b", 500 + gap, 300)], board=size))
    assert apart.pos["b"] == (500 + gap, 300.0)
    edge = bm.BoardLayout(made([at("a", 995, 595), at("b", 995, 595)], board=size))
    low = bm.BoardLayout(made([at("a", 5, 5), at("b", 5, 5)], board=size))
    for lay in (edge, low):  # the one moved is never put off the board, and ends apart
        x, y = lay.pos["b"]
        assert lay.radius + 2 <= x <= 1000 - lay.radius - 2 and lay.radius + 2 <= y <= 600 - lay.radius - 2
        assert math.dist(lay.pos["a"], lay.pos["b"]) >= gap
    assert low.pos["b"] == (low.radius + 2, 5 + gap + 0.5)  # pushed straight down, then into the board
    crowd = bm.BoardLayout(made([at(f"t{i}", 500 + i, 300 + (i % 3)) for i in range(6)], board=size))
    for a, b in ((a, b) for a in crowd.pos for b in crowd.pos if a < b):
        assert math.dist(crowd.pos[a], crowd.pos[b]) >= gap - 0.01, (a, b)
    for x, y in crowd.pos.values():
        assert crowd.radius + 2 <= x <= 1000 - crowd.radius - 2 and crowd.radius + 2 <= y <= 600 - crowd.radius - 2
