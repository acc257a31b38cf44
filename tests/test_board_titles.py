"""Region titles sit inside or beside their own region (issue 34 P3-P4), on every shipped board and on the
end states of the scripted 15-game campaigns (tests/campaigns/), at the widths the aid and the campaign
sheet draw them: the territory whose circle's centre is nearest to a title's box belongs to the title's region."""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import run_script, script

from scarbook.compiler.boardmap import VIEW_WIDTH, BoardLayout, effective_marks, view_width_for
from scarbook.compiler.load import shipped_games
from scarbook.compiler.model import Game
from scarbook.compiler.spoilers import for_players
from scarbook.compiler.validate import cached_game


def misplaced_titles(game: Game, view_width: float, compact: bool) -> list[tuple[str, str | None]]:
    lay = BoardLayout(game, effective_marks(game), view_width, compact)
    members = game.region_members()
    by_text = {}
    for rid in game.section("regions"):
        by_text.setdefault(rid, set(members.get(rid, [])))
    wrong = []
    titled = [rid for rid, r in game.section("regions").items()  # as BoardLayout._titles takes them, in order
              if ((isinstance(r.get("layout"), dict) and isinstance(r["layout"].get("x"), int | float))
                  or any(t in lay.pos for t in members.get(rid, []))) and rid not in lay.untitled]
    assert titled == lay.title_rids
    for rid, (text, _x, _y, box) in zip(titled, lay.titles, strict=True):
        near = lay.nearest(box)
        if by_text[rid] and near not in by_text[rid]:
            wrong.append((text, near))
    return wrong


def widths(game: Game) -> list[tuple[float, bool]]:
    """The aid's board (A4, 188 mm wide, at most 112 mm tall, compact marks) and the full-width picture."""
    return [(view_width_for(game, 188, 112), True), (VIEW_WIDTH, False)]


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_every_shipped_board_titles_its_regions_beside_them(game_id: str) -> None:
    full = cached_game(game_id)
    game = for_players(full.effective(), full)
    if not game.section("territories"):
        pytest.skip("no board")
    for width, compact in widths(game):
        assert not misplaced_titles(game, width, compact), (game_id, width)


@pytest.mark.parametrize("name", ["risk-legacy-15", "risk-shadow-forces-15"])
def test_fifteen_game_boards_title_their_regions_beside_them(name: str, tmp_path: Path) -> None:
    from scarbook.campaign.service.reading import campaign_game

    file = tmp_path / "c.yaml"
    assert not run_script(script(f"{name}.txt"), file)
    game = campaign_game(file, [])
    for width, compact in widths(game):
        assert not misplaced_titles(game, width, compact), (name, width)
