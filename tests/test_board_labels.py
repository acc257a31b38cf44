"""Each territory's label sits by its own circle (issue 34 P4), and few lines cross label words (P5), on every shipped
board plain and on the end states of the scripted 15-game campaigns (tests/campaigns/), at every width a board is
printed: the player aid (A4: at most 112 mm tall, then the 88 mm fallback; icons only), the reference sheet (A4
less 13 mm margins), the full view; for a campaign also the campaign sheet and the chronicle, laid out as
`campaign sheet` draws them.

A reader takes a label for the circle nearest to it. So the circle nearest to a label block's middle must be its own;
a label that stands away from its circle has a leader line, which makes it read right as long as the line passes
through no other circle and crosses no other leader line, and the label stands by no other circle either (within
the distance at which its own would need no leader line). Two neighbours whose labels each sit nearer the other's
circle (swapped) are wrong even with leader lines (the Risk Legacy sheet had Western Australia's label under the
Eastern Australia circle and Eastern Australia's far to the left of it, on a leader line).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from campaigns.helpers import play_once, script

from scarbook.compiler import boardmap as bm
from scarbook.compiler.boardmap import VIEW_WIDTH, BoardLayout, Box, effective_marks, text_width, view_width_for
from scarbook.compiler.load import shipped_games
from scarbook.compiler.model import Game
from scarbook.compiler.spoilers import for_players
from scarbook.compiler.validate import cached_game

Line = tuple[tuple[float, float], tuple[float, float]]


def _through(line: Line, centre: tuple[float, float], r: float) -> bool:
    """Does the segment pass within `r` of `centre`?"""
    (x1, y1), (x2, y2) = line
    length2 = (x2 - x1) ** 2 + (y2 - y1) ** 2
    k = 0.0 if not length2 else max(0.0, min(1.0, ((centre[0] - x1) * (x2 - x1) + (centre[1] - y1) * (y2 - y1))
                                              / length2))
    return math.dist(centre, (x1 + k * (x2 - x1), y1 + k * (y2 - y1))) < r


def _segments_cross(a: Line, b: Line) -> bool:
    """Do two segments cross (a proper crossing, not a shared end)?"""
    def side(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = side(*b, a[0]), side(*b, a[1])
    d3, d4 = side(*a, b[0]), side(*a, b[1])
    return d1 * d2 < 0 and d3 * d4 < 0


def _gap(box: Box, x: float, y: float) -> float:
    """How far the point is from the box (0 inside it)."""
    return math.dist((x, y), (min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1)))


def nearest_circle(lay: BoardLayout, box: Box) -> str:
    """The territory whose circle's centre is nearest to the middle of `box`."""
    middle = ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
    return min(lay.pos, key=lambda t: math.dist(lay.pos[t], middle))


def misread_labels(lay: BoardLayout) -> list[tuple[str, str]]:
    """Labels a reader takes for another territory's: (territory, why)."""
    out = []
    boxes = lay.label_boxes()
    leaders = {t: lay.leader(t) for t in boxes}
    nearer = {t: nearest_circle(lay, box) for t, box in boxes.items()}
    for tid, near in nearer.items():
        line = leaders[tid]
        if near != tid and line is None:
            out.append((tid, f"nearer {near}'s circle, no leader line"))
        if line is not None:
            out += [(tid, f"by {o}'s circle") for o, (x, y) in lay.pos.items()
                    if o != tid and _gap(boxes[tid], x, y) <= lay.radius + bm.LEADER_FROM]
            out += [(tid, f"leader line through {o}'s circle") for o, p in lay.pos.items()
                    if o != tid and _through(line, p, lay.radius)]
            out += [(tid, f"leader line across {o}'s") for o, other in leaders.items()
                    if o > tid and other is not None and _segments_cross(line, other)]
        if near != tid and nearer.get(near) == tid and tid < near:
            out.append((tid, f"swapped with {near}"))
    return out


def crossed_words(lay: BoardLayout) -> tuple[int, int]:
    """(label words crossed by an edge or by another label's leader line, label words): each word of a label's
    name as the picture prints it (each row of the name centred on its block, from its top, a row every
    LABEL_SIZE + 2)."""
    crossed = total = 0
    leaders = {t: lay.leader(t) for t in lay.label_boxes()}
    lines = [(a, b) for _kind, a, b, _style in lay.segments]
    space = text_width(" ", bm.LABEL_SIZE)
    for tid, box in lay.label_boxes().items():
        across = lines + [line for o, line in leaders.items() if line is not None and o != tid]
        for k, row in enumerate(lay.labels[tid].name_rows()):
            x = (box.x0 + box.x1) / 2 - text_width(row, bm.LABEL_SIZE) / 2
            top = box.y0 + k * (bm.LABEL_SIZE + 2)
            for word in row.split():
                w = text_width(word, bm.LABEL_SIZE)
                word_box = Box(x, top + 1, x + w, top + bm.LABEL_SIZE + 1)
                x += w + space
                total += 1
                crossed += any(word_box.hits_segment(a, b) for a, b in across)
    return crossed, total


def views(game: Game) -> dict[str, tuple[float, bool]]:
    """The widths a board is printed at without a campaign sheet: (view width, icons only)."""
    return {"aid": (view_width_for(game, 188, 112), True), "aid-88": (view_width_for(game, 188, 88), True),
            "reference": (view_width_for(game, 184), False), "full": (VIEW_WIDTH, False)}


def layouts(game: Game) -> dict[str, BoardLayout]:
    from scarbook.compiler.aid import map_marks

    return {name: BoardLayout(game, map_marks(game) if compact else effective_marks(game), width, compact)
            for name, (width, compact) in views(game).items()}


def drawn(monkeypatch: pytest.MonkeyPatch, draw: Callable[[], Any]) -> BoardLayout:
    """The layout `draw()` draws its board with."""
    made: list[BoardLayout] = []
    real = bm.layout_of

    def keep(*args: Any, **kwargs: Any) -> BoardLayout:
        made.append(real(*args, **kwargs))
        return made[-1]

    with monkeypatch.context() as m:
        m.setattr(bm, "layout_of", keep)
        draw()
    assert made
    return made[-1]


def plain(game_id: str) -> Game:
    full = cached_game(game_id)
    return for_players(full.effective(), full)


#: Labels still misread (territories) per board and view; none elsewhere. Where the aid falls back to a board 88 mm
#: tall, the Warhammer 40k board has too little room for every long name; the Shadow Forces campaign's warlord labels
#: crowd Europe on the reference sheet and the chronicle. 2026-12-04, before: 231 over the 24 views, then 19, then 10;
#: 2026-12-05 (BoardLayout._polish): 7 (Shadow Forces 15 aid-88 1 -> 0, chronicle 4 -> 2). A ceiling: lower it when
#: the layout improves.
MISREAD_AT_MOST = {("risk-warhammer-40k", "aid-88"): 1,
                   ("risk-shadow-forces-15", "reference"): 4, ("risk-shadow-forces-15", "chronicle"): 2}

#: The leader lines' length in all (view units) over every view of a 15-game campaign's board (issue 34 P3-P5: a label
#: stands close to its circle; a long leader line reads badly). 2026-12-05, before: Risk Legacy 15 2949, Shadow Forces
#: 15 3860 (the longest 125 on each, as on every board: FAR_GAPS); now as below. A ceiling: lower it when the layout
#: improves. (Over their four views Risk Legacy 1831, 1823 before, and Warhammer 40k 2587, as before: not bounded.)
LEADERS_AT_MOST = {"risk-legacy-15": 2776, "risk-shadow-forces-15": 3702}


def leader_lengths(lay: BoardLayout) -> list[float]:
    """The length of each leader line drawn."""
    return [math.dist(*line) for tid in lay.label_boxes() if (line := lay.leader(tid)) is not None]


def assert_read_right(board: str, found: dict[str, BoardLayout]) -> None:
    wrong = {view: misread_labels(lay) for view, lay in found.items()}
    over = {view: w for view, w in wrong.items() if len({t for t, _why in w}) > MISREAD_AT_MOST.get((board, view), 0)}
    assert not over, (board, over)
    leaders = {view: leader_lengths(lay) for view, lay in found.items()}
    assert sum(sum(lengths) for lengths in leaders.values()) <= LEADERS_AT_MOST.get(board, math.inf), \
        (board, {view: (round(max(lengths, default=0)), round(sum(lengths))) for view, lengths in leaders.items()})


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_every_label_of_a_shipped_board_reads_as_its_own_territorys(game_id: str) -> None:
    game = plain(game_id)
    if not game.section("territories"):
        pytest.skip("no board")
    assert_read_right(game_id, layouts(game))


@pytest.mark.parametrize("name", ["risk-legacy-15", "risk-shadow-forces-15"])
def test_every_label_of_a_fifteen_game_board_reads_as_its_own_territorys(name: str, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.history import CHRONICLE_BOARD_MM
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.service.reading import campaign_game
    from scarbook.campaign.sheet import sheet_svg

    file = tmp_path / "c.yaml"
    assert not play_once(script(f"{name}.txt"), file)
    campaign = Campaign(read(file), [])
    replay = campaign.replay(check=False)
    found = layouts(campaign_game(file, []))  # build --campaign: the aid and the reference sheet
    found["sheet"] = drawn(monkeypatch, lambda: sheet_svg(campaign.ledger, replay))
    found["chronicle"] = drawn(monkeypatch, lambda: sheet_svg(campaign.ledger, replay, None, CHRONICLE_BOARD_MM))
    assert_read_right(name, found)


#: Label words an edge or a leader line crosses on the Warhammer 40k board, per view (issue 34 P5; before, on
#: 2026-12-04: aid 28, aid-88 31, reference 18, full 2 of 96; then 10, 24, 5, 0; 2026-12-05 with BoardLayout._polish
#: as below). A ceiling: lower it when the layout improves.
CROSSED_WORDS_AT_MOST = {"aid": 7, "aid-88": 24, "reference": 1, "full": 0}


def test_few_lines_cross_the_words_of_the_warhammer_40k_board() -> None:
    crossed = {name: crossed_words(lay) for name, lay in layouts(plain("risk-warhammer-40k")).items()}
    assert all(crossed[name][0] <= most for name, most in CROSSED_WORDS_AT_MOST.items()), crossed
    assert all(total == 96 for _n, total in crossed.values())  # every name's every word was looked at


def test_the_checks_find_a_label_by_another_circle_and_crossed_words() -> None:
    """Each check can fail: Western Australia's label moved under, then over, the Eastern Australia circle (with
    no leader line, then with one), and laid over an edge, is found."""
    lay = layouts(plain("risk-legacy"))["full"]
    a, b = "western-australia", "eastern-australia"
    box = lay.labels[a].box
    w, h, r = box.x1 - box.x0, box.y1 - box.y0, lay.radius
    (ax, ay), (bx, by) = lay.pos[a], lay.pos[b]
    lay.labels[a].box = Box(ax - w / 2, ay + r + 1.5, ax + w / 2, ay + r + 1.5 + h)  # under its own circle
    assert lay.leader(a) is None and a not in dict(misread_labels(lay))
    lay.labels[a].box = Box(bx - w / 2, by + r + 1.5, bx + w / 2, by + r + 1.5 + h)  # under b's
    assert lay.leader(a) is None and (a, f"nearer {b}'s circle, no leader line") in misread_labels(lay)
    lay.labels[a].box = Box(bx - w / 2, by - r - 1.5 - h, bx + w / 2, by - r - 1.5)  # over b's: a leader line
    assert lay.leader(a) is not None and (a, f"by {b}'s circle") in misread_labels(lay)
    lay.labels[a].box = Box(ax - w / 2, ay + r + 1.5, ax + w / 2, ay + r + 1.5 + h)
    before, _total = crossed_words(lay)
    _kind, (x1, y1), (x2, y2), _style = lay.segments[0]
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    lay.labels[a].box = Box(mx - w / 2, my - 6, mx + w / 2, my - 6 + h)
    assert crossed_words(lay)[0] > before


def test_a_label_read_as_another_territorys_costs_more_than_a_line_across_it() -> None:
    """The layout's own cost (BoardLayout._collisions) counts what misread_labels finds: a label nearer another circle
    without a leader line, one standing by another circle, one whose line runs through another circle."""
    from test_boardmap import at, made

    lay = BoardLayout(made([at("a", 100, 300), at("b", 150, 300)], edges=[],
                           board={"layout": {"width": 1000, "height": 600}}))
    assert bm.LINE_CROSSED < bm.OTHER_CIRCLE < bm.MISREAD < bm.TEXT_OVER
    under_a = Box(80, 320, 120, 332)
    assert lay._leader_to("a", under_a) is None and lay._collisions(under_a, "a", []) == 0
    towards_b = Box(115, 320, 155, 332)  # no leader line (23 from a's centre), its middle nearer b's
    assert lay._leader_to("a", towards_b) is None and lay._collisions(towards_b, "a", []) == bm.MISREAD
    assert lay._collisions(towards_b, "b", []) == 0
    by_b = Box(130, 270, 170, 282)  # led to from a, 18 from b's centre
    assert lay._leader_to("a", by_b) is not None and lay._collisions(by_b, "a", []) == bm.MISREAD
    beyond_b = Box(190, 294, 230, 306)  # led to from a through b's circle
    assert lay._leader_to("a", beyond_b) is not None and lay._collisions(beyond_b, "a", []) == bm.MISREAD
    clear = Box(60, 240, 100, 252)  # led to from a, away from b
    assert lay._leader_to("a", clear) is not None and lay._collisions(clear, "a", []) == 0
    for box in (under_a, towards_b, by_b, beyond_b, clear):
        lay.labels["a"].name, lay.labels["a"].box = "A", box
        assert bool(misread_labels(lay)) == (lay._collisions(box, "a", []) > 0), box


def test_a_crowded_board_keeps_the_cheaper_of_two_greedy_orders(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the Warhammer 40k aid's board 88 mm tall, the largest-first order leaves a label misread or overprinted; the
    layout then tries the most-crowded-first order too, and keeps the one that costs less in all (then polished:
    here left out)."""
    from scarbook.compiler.aid import map_marks

    monkeypatch.setattr(BoardLayout, "_polish", lambda *_args: None)

    game = plain("risk-warhammer-40k")
    width, compact = views(game)["aid-88"]
    tried: list[tuple[tuple[float, float], dict[str, Box]]] = []
    real = BoardLayout._total

    def total(self: BoardLayout, shown: list[bm.Label]) -> tuple[float, float]:
        tried.append((real(self, shown), {lab.tid: lab.box for lab in shown}))
        return tried[-1][0]

    monkeypatch.setattr(BoardLayout, "_total", total)
    lay = BoardLayout(game, map_marks(game), width, compact)
    assert len(tried) == 2 and tried[0][0][1] >= bm.MISREAD and tried[0][0][0] != tried[1][0][0]
    assert lay.label_boxes() == min(tried, key=lambda t: t[0][0])[1]


@pytest.mark.parametrize("game_id", ["risk-warhammer-40k", "risk-legacy"])
def test_the_search_counts_what_collisions_counts(game_id: str) -> None:
    """The label search's own costing (fixed parts once per candidate, from the cells a box can touch; the other labels
    pair by pair) comes to what `_collisions` counts over the whole board, for every candidate of every label laid
    against the others where the layout put them; and `_best` keeps the candidate `_collisions` finds cheapest."""
    for name, lay in layouts(plain(game_id)).items():
        shown = [lab for lab in lay.labels.values() if lab.name or lab.marks or lab.far]
        rooms = lay._rooms(shown)
        for lab in shown[::3]:
            room = rooms[lab.tid]
            others = [lay._spot(o.tid, o.box) for o in shown if o is not lab]
            boxes = [o.box for o in shown if o is not lab]
            lay._owner = {o.box: o.tid for o in shown}
            spots = [lay._spot_in(room, i) for i in range(len(room.boxes))]
            costs = [lay._collisions(s.box, lab.tid, boxes) for s in spots]
            assert [lay._cost(room, s, others) for s in spots] == costs, (name, lab.tid)
            cheapest = min(range(len(costs)), key=lambda i: costs[i] + spots[i].far)
            assert lay._best(room, others) is spots[cheapest], (name, lab.tid)
