"""Fixes found by playing the new example shapes (issue 38: a branching scenario campaign, a deck that grows):
rules the content already said but the tracker did not keep, and outputs that spoke only Risk's shape.

Each test fails without its fix.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_homebrew_options import CITE, PLAY, campaign, do, no, run, status


def test_a_setup_each_player_places_its_count(tmp_path: Path) -> None:
    """`setup: {each: player, count: 2}` asks two of every player, not one."""
    def setup(data: dict[str, Any]) -> None:
        data["game"]["campaign"]["setup"] = [{"id": "coins", "place": "coin", "each": "player", "count": 2,
                                              "before_game": 1, "text": "two coins from every player", "cite": CITE}]

    file = campaign(tmp_path, setup)
    do(file, "place coin a-isle --by Ann", "place coin b-isle --by Bob", "place coin c-isle --by Ann")
    no(file, PLAY, "R221", "Bob still to place")
    assert "two coins from every player (1 still to place)" in run(file, "status").output
    do(file, "place coin a-isle --by Bob", PLAY)
    assert status(file)["games_played"] == 0
