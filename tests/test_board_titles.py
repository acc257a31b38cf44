"""Region titles sit inside or beside their own region (issue 34 P3-P4), on every shipped board and on the
end states of the scripted 15-game campaigns (tests/campaigns/), at the widths the aid and the campaign
sheet draw them: the territory whose circle's centre is nearest to a title's box belongs to the title's region."""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import play_once, script

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
    assert not play_once(script(f"{name}.txt"), file)  # the end state, played once per run
    game = campaign_game(file, [])
    for width, compact in widths(game):
        assert not misplaced_titles(game, width, compact), (name, width)


def crossed_labels(lay: BoardLayout) -> list[tuple[str, str]]:
    """Label blocks crossed by an edge or by another label's leader line (issue 34 P5), as the picture draws
    them: (territory, what crosses it)."""
    out = []
    leaders = {t: lay.leader(t) for t in lay.label_boxes()}
    for tid, box in lay.label_boxes().items():
        out += [(tid, "edge") for _k, a, b, _s in lay.segments if box.hits_segment(a, b)]
        out += [(tid, f"leader of {o}") for o, line in leaders.items() if line and o != tid and box.hits_segment(*line)]
    return out


#: Label blocks still crossed at the aid's widths (A4: 112 mm tall, then the 88 mm fallback) and full width, per
#: shipped board: the Warhammer 40k board's long names among its many edges do not all find a clear place yet
#: (issue 34 P5, 51 and 101 before); the others must stay clear. A ceiling: lower it when the layout improves.
#: A label over another territory's circle, or one read as another's (test_board_labels.py), costs more than a line
#: across it, so where one of the two must give, the line does (2026-12-04: Risk Legacy 5, 4, 0; Warhammer 40k 30,
#: 54, 3).
CROSSED_AT_MOST = {"risk-legacy": (5, 10, 0), "risk-warhammer-40k": (30, 54, 3)}


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_no_line_crosses_a_label_on_a_shipped_board(game_id: str) -> None:
    from scarbook.compiler.aid import map_marks

    full = cached_game(game_id)
    game = for_players(full.effective(), full)
    if not game.section("territories"):
        pytest.skip("no board")
    views = [(view_width_for(game, 188, 112), True), (view_width_for(game, 188, 88), True), (VIEW_WIDTH, False)]
    for (width, compact), most in zip(views, CROSSED_AT_MOST.get(game_id, (0, 0, 0)), strict=True):
        lay = BoardLayout(game, map_marks(game) if compact else effective_marks(game), width, compact)
        crossed = crossed_labels(lay)
        assert len(crossed) <= most, (game_id, round(width), crossed)
    # the check can fail: a label laid across an edge on purpose is found
    lay = BoardLayout(game, {}, VIEW_WIDTH, False)
    _kind, a, b, _style = lay.segments[0]
    tid = next(iter(lay.labels))
    lay.labels[tid].name = lay.labels[tid].name or "x"
    lay.labels[tid].box = type(lay.labels[tid].box)(min(a[0], b[0]) - 1, min(a[1], b[1]) - 1,
                                                    max(a[0], b[0]) + 1, max(a[1], b[1]) + 1)
    assert (tid, "edge") in crossed_labels(lay)
