"""Sealed content is invisible: `Game.effective` leaves out sealed items and every edge that leads to one."""

from __future__ import annotations

from pathlib import Path

from test_build_fixtures import tiny_game


def test_edges_into_a_sealed_territory_are_left_out_until_it_is_opened(tmp_path: Path) -> None:
    game = tiny_game(tmp_path, envelopes=[])  # nothing sealed: the whole board
    assert len(game.edges) == 2
    game.sections["envelopes"]["hidden-isle"] = {"id": "hidden-isle", "name": "Hidden", "contents": ["south"]}
    seen = game.effective()
    assert "south" not in seen.section("territories")
    assert seen.edges == [("north", "east", "sea")]  # east–south led into the sealed territory
    assert all("south" not in edge[:2] for edge in seen.edges)
    opened = game.effective(["hidden-isle"])
    assert "south" in opened.section("territories") and len(opened.edges) == 2


def test_an_edge_from_a_sealed_territory_is_left_out_too(tmp_path: Path) -> None:
    game = tiny_game(tmp_path, envelopes=[])
    game.sections["envelopes"]["hidden-isle"] = {"id": "hidden-isle", "name": "Hidden", "contents": ["north"]}
    assert game.effective().edges == [("east", "south", "land")]
