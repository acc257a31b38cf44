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
