"""The board picture of each shipped game as `scarbook build` prints it without a campaign, and a board with every
icon and its legend, read back territory by territory (`tests/boardread.py`) as golden files (issue 29).

Golden files `tests/golden/*.board.txt`: written only by
`SCARBOOK_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_board_picture.py tests/test_board_printed.py`; review the
diff. The campaign states are in test_board_picture.py (slow); boardmap.py's functions in test_boardmap.py.
"""

from __future__ import annotations

import pytest
from boardread import board_text

from conftest import check_golden
from scarbook.compiler import boardmap as bm
from scarbook.compiler.boardmap import DESTROYED, MapMark, board_svg
from scarbook.compiler.model import Game

SHIPPED = ("risk-legacy", "risk-shadow-forces", "risk-warhammer-40k", "shadow-blades")


def printed(game_id: str) -> Game:
    """The game as `scarbook build` draws it without a campaign."""
    from scarbook.compiler.spoilers import for_players
    from scarbook.compiler.validate import cached_game

    full = cached_game(game_id)
    return for_players(full.effective(), full)



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
