"""An SVG schematic of a game's board: territories, edges, regions, labels and marks.

`board_svg(game, marks)` is a pure function of the content (territory `layout: {x, y}` in the
board's `layout: {width, height}` units); territories without a layout are placed on a ring.
Used by the reference sheets and by the tracker's campaign sheet. It draws only what the content
says and never reads files, fetches URLs or imports anything heavy; every text is XML-escaped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from scarbook.compiler.model import Game, as_list, is_unknown, known

#: Fill colours for regions, in region order (cycled); chosen to stay readable in greyscale.
PALETTE = (
    "#f4c7a1", "#b9d7a8", "#a9c8e8", "#f2e394", "#d9b3e0", "#f5a9a9", "#a8e0d8", "#d6c4a8",
    "#c8d0f0", "#e8c8b0", "#c0e0a0", "#f0c0d8",
)
NO_REGION = "#e0e0e0"
VIEW_WIDTH = 1000.0
EDGE_STYLE = {"land": "", "sea": ' stroke-dasharray="6 4"', "unknown": ' stroke-dasharray="2 3"'}


def _board_size(game: Game) -> tuple[float, float]:
    layout = game.board.get("layout") or {}
    width = layout.get("width") if isinstance(layout.get("width"), int | float) else None
    height = layout.get("height") if isinstance(layout.get("height"), int | float) else None
    if width and height:
        return float(width), float(height)
    points = [t["layout"] for t in game.section("territories").values() if isinstance(t.get("layout"), dict)]
    if points:
        return (max(p["x"] for p in points) * 1.05 + 1, max(p["y"] for p in points) * 1.05 + 1)
    return 100.0, 60.0


def positions(game: Game) -> dict[str, tuple[float, float]]:
    """Territory id -> (x, y) in board units; a ring for those without a layout."""
    width, height = _board_size(game)
    placed: dict[str, tuple[float, float]] = {}
    missing: list[str] = []
    for tid, terr in game.section("territories").items():
        layout = terr.get("layout")
        if isinstance(layout, dict) and isinstance(layout.get("x"), int | float):
            placed[tid] = (float(layout["x"]), float(layout["y"]))
        else:
            missing.append(tid)
    if missing:
        # beside the territories it is linked to when they sit together (an envelope's territory next to the
        # places its lines lead to); the circles are then moved apart (BoardLayout._separate)
        adjacent = game.neighbors()
        for tid in list(missing):
            near = [placed[n] for n in adjacent.get(tid, []) if n in placed]
            xs, ys = [p[0] for p in near], [p[1] for p in near]
            if near and max(xs) - min(xs) <= width * 0.35 and max(ys) - min(ys) <= height * 0.5:
                cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
                # a little outward from the board's middle, so it does not sit on its neighbours' own spot
                dx, dy = cx - width / 2, cy - height / 2
                norm = math.hypot(dx, dy) or 1.0
                placed[tid] = (cx + dx / norm * width * 0.04, cy + dy / norm * height * 0.06)
                missing.remove(tid)
    if missing:
        # grouped by first region so a region's territories sit together on the ring
        order = {r: i for i, r in enumerate(game.section("regions"))}
        territories = game.section("territories")
        missing.sort(key=lambda t: (order.get((territories[t].get("regions") or [""])[0], len(order)),))
        cx, cy = width / 2, height / 2
        radius = min(width, height) * (0.42 if not placed else 0.47)
        for i, tid in enumerate(missing):
            angle = 2 * math.pi * i / len(missing) - math.pi / 2
            placed[tid] = (cx + radius * math.cos(angle) * width / min(width, height) * 0.9,
                           cy + radius * math.sin(angle))
    return placed


def region_colors(game: Game) -> dict[str, str]:
    return {rid: PALETTE[i % len(PALETTE)] for i, rid in enumerate(game.section("regions"))}


def _label(item: dict, fallback: str) -> str:
    name = known(item.get("name"))
    return str(name) if name else fallback


def map_withheld(game: Game) -> str | None:
    """Why the reference sheet shows no board map (None: it shows one). A board the sources give
    only in part is not drawn: a few dots in an empty frame would look like the board."""
    territories = game.section("territories")
    if not territories:
        return "the game has no board of territories"
    complete = game.board.get("complete")
    if isinstance(complete, dict) and is_unknown(complete):
        return f"the sources give {len(territories)} territor{'y' if len(territories) == 1 else 'ies'} only " \
               f"({complete['unknown']})"
    return None


@dataclass(frozen=True)
class MapMark:
    """One permanent mark to draw in a territory: its group (`kind`, a mark group's id), a short text, and the
    group's icon, colour and legend (`game: marks:`; compiler.words). `value`: a founded place's size (dots
    under a house) or the boxes left of `total`; the `hatched` icon hatches the territory's circle too.
    A destroyed territory card is the group `destroyed` (a cross)."""

    kind: str
    text: str = ""
    value: int | None = None
    total: int | None = None
    icon: str = "diamond"
    color: str = "#5b2a86"
    legend: str = "other mark"


#: A territory card destroyed: not a sticker of any group, the tracker's own record.
DESTROYED = MapMark("destroyed", "", icon="cross", color="#b01818", legend="territory card destroyed")
LABEL_SIZE = 10.0
CODE_SIZE = 8.5
MARK_SIZE = 8.5
ICON = 9.0
#: Region titles: their size, and the smaller sizes tried where no place at full size keeps clear of every
#: circle and title (a title's text may not cover a territory's code); the places tried around its spot.
TITLE_SIZE = 15.0
TITLE_SIZES = (TITLE_SIZE, 13.0, 11.0)
TITLE_DY = (0, -14, 14, -28, 28, -42, 42, -56, 56, -70, 70, -84, 84)
TITLE_DX = (0, -30, 30, -60, 60, -90, 90, -120, 120)
#: What covering a code printed inside a circle costs a title or a label: as much as overprinting a label.
CODE_COVERED = 50.0
#: What a title nearer another region's territory than its own's costs: more than covering one circle.
ELSEWHERE = 15.0
#: What a label over another label or a title costs: overprinted text is worst (more than two lines across it).
TEXT_OVER = 100.0
#: What a line (an edge or another label's leader line) across a label's text costs.
LINE_CROSSED = 25.0
#: What a label over another territory's circle costs: more than a line across it (it reads as that one's label).
OTHER_CIRCLE = 30.0
#: A label whose block stands further than this from its circle's edge is drawn with a leader line to it.
LEADER_FROM = 10.0
#: What a label a reader could take for another territory's costs (the circle nearest to it is another's and no
#: leader line says otherwise, or it stands by another circle, or its leader line runs through another circle or across
#: another line): almost as much as overprinted text, far more than a line across it (a crossed label still reads
#: right; one read as another territory's misinforms).
MISREAD = 90.0
#: The gaps between a circle and its label tried all round it (after the 16 places of each of the first rings).
CANDIDATE_GAPS = (1.5, 5.0, 10.0, 14.0, 22.0, 34.0, 50.0)
#: Further out, on a leader line, where nothing nearer is clear: the gaps, and the places round each.
FAR_GAPS = (70.0, 95.0, 125.0)
FAR_STEPS = 36
#: Rounds of the repair (BoardLayout._repair), and the cheapest places it tries for a label in each.
_TURNS = tuple((math.cos(step * math.pi / 12), math.sin(step * math.pi / 12)) for step in range(24))
_FAR_TURNS = tuple((math.cos(step * 2 * math.pi / FAR_STEPS), math.sin(step * 2 * math.pi / FAR_STEPS))
                   for step in range(FAR_STEPS))
REPAIR_ROUNDS = 4
#: A name this wide or wider (of two words or more) may be printed on two rows (Label.wrapped), where that finds a
#: place clear of what one row runs into; at a cost (more than a long leader line, less than a line across it).
WRAP_FROM = 80.0
WRAPPED = 5.0
WRAPPED_GAPS = FAR_GAPS
REPAIR_TRIES = 30
REPAIR_BLOCKERS = 2
#: The last pass (BoardLayout._polish) counts what a reader sees: a line across a label by the words of its name it
#: crosses (as the picture prints them), and each label overprinted (on another label or a code), over another's
#: circle, read as another territory's or cut off, far above any crossed word (CIRCLE_MORE, TEXT_MORE, MISREAD_MORE as
#: much as one another, so that it trades none of them for another or for words; a title covered more, as the title
#: would then lose its place). It moves a label only to a place the layout's own cost counts at most POLISH_SLACK
#: more than where it stands, for POLISH_ROUNDS rounds at most.
POLISH_ROUNDS = 4
CIRCLE_MORE = 1000.0
TEXT_MORE = 1000.0
MISREAD_MORE = 1000.0
TITLE_MORE = 2000.0
OFF_MORE = 1e6
POLISH_SLACK = 50.0
#: The polish counts a label's distance from its circle this many times more (FAR_PER): a long leader line reads badly.
FAR_MORE = 1.0
#: A label clear of everything on a leader line this long or longer (view units) is moved nearer where it can be.
SHORTEN_FROM = 60.0
#: The polish also tries a label's place and its REFINE_TRIES cheapest places with a line across them, each shifted
#: just clear of such a line (by no more than REFINE_REACH, and no further from its circle than FAR_GAPS reach): the
#: places tried all round a circle are few.
REFINE_TRIES = 12
#: And for a label read as another territory's, places all round at these gaps.
MORE_GAPS = (40.0, 60.0, 85.0, 110.0)
MORE_STEPS = 48
REFINE_REACH = 20.0
#: A label's distance from its circle's edge that costs as much as 1 (a small cost: a place clear of lines and text is
#: worth a leader line, but a long one is harder to follow).
FAR_PER = 40.0
#: What a label over its own circle costs: as much as a line across it (it hides the circle's fill and ring).
OWN_CIRCLE = 25.0
#: What a label over a region title costs: more than over a label, as the title would have to move, and a title moved
#: for labels already placed finds a worse place (over circles and lines) than the one it had.
TITLE_COVERED = 250.0
#: What a title over another title costs: more than covering a code.
TITLE_OVER_TITLE = 100.0
#: An edge longer than this share of the board's width that passes through other circles is drawn as two
#: stubs, each label naming the other end (a territory an envelope adds far from its neighbours would
#: otherwise cross the whole board).
LONG_EDGE = 0.3
STUB = 26.0
#: An edge longer than this share of the board's width is drawn as two stubs even where it crosses no circle: a
#: line across the whole board reads as a border, not as a link (on a board laid out by its content; a ring
#: drawn for a board without positions keeps its lines).
ACROSS = 0.5


#: The side of a cell of the grid the label search looks circles and segments up in (BoardLayout._grid), in view units.
GRID_CELL = 32.0


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in view units: left, top, right, bottom."""

    x0: float
    y0: float
    x1: float
    y1: float

    def hits(self, other: Box, pad: float = 0.0) -> bool:
        return not (self.x1 + pad <= other.x0 or other.x1 + pad <= self.x0
                    or self.y1 + pad <= other.y0 or other.y1 + pad <= self.y0)

    def hits_circle(self, cx: float, cy: float, r: float) -> bool:
        nx, ny = min(max(cx, self.x0), self.x1), min(max(cy, self.y0), self.y1)
        return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r

    def hits_segment(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Does the segment a-b cross (or touch) this box? Their bounds meet, and the box's corners are not all on
        one side of the segment's line."""
        (x1, y1), (x2, y2) = a, b
        if (x1 if x1 > x2 else x2) < self.x0 or (x1 if x1 < x2 else x2) > self.x1 \
                or (y1 if y1 > y2 else y2) < self.y0 or (y1 if y1 < y2 else y2) > self.y1:
            return False
        dx, dy = x2 - x1, y2 - y1
        top, bottom, left, right = dx * (self.y0 - y1), dx * (self.y1 - y1), dy * (self.x0 - x1), dy * (self.x1 - x1)
        c1, c2, c3, c4 = top - left, top - right, bottom - left, bottom - right
        return not (c1 > 0 and c2 > 0 and c3 > 0 and c4 > 0 or c1 < 0 and c2 < 0 and c3 < 0 and c4 < 0)


#: The advance widths (thousandths of an em) of the bundled DejaVu Sans and DejaVu Sans Bold (templates/fonts)
#: for the printable ASCII characters from the space on, read from the font files; others count as wide.
_REGULAR = (318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636,
    636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295,
    656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613,
    635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592,
    592, 525, 636, 337, 636, 838)
_BOLD = (348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696,
    696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372,
    775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500,
    675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652,
    924, 645, 652, 582, 712, 365, 712, 838)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """A DejaVu Sans text's width from the bundled font's own advances, 3 % to spare (kerning only narrows),
    rounded up to an eighth of a unit."""
    table = _BOLD if bold else _REGULAR
    wide = 780 if bold else 720
    exact = sum(table[ord(c) - 32] if 32 <= ord(c) < 127 else wide for c in text) * size * 1.03 / 1000
    return math.ceil(exact * 8) / 8  # in eighths of a unit: sums and halves stay exact


def text_mm(text: str, size_pt: float, bold: bool = False) -> float:
    """The text's printed width in mm at `size_pt` points (`text_width`, the bundled font's advances)."""
    return text_width(text, size_pt, bold) * 25.4 / 72


_WORDS: dict[tuple[str, ...], tuple[tuple[float, float, float, float], ...]] = {}


def _word_offsets(rows: tuple[str, ...]) -> tuple[tuple[float, float, float, float], ...]:
    """Each word's box of a name printed on `rows`, from the middle of the block's top: each row centred on the
    block, a row every LABEL_SIZE + 2 from its top, the word from 1 under the row's top for LABEL_SIZE."""
    found = _WORDS.get(rows)
    if found is None:
        out = []
        space = text_width(" ", LABEL_SIZE)
        for k, row in enumerate(rows):
            x = -text_width(row, LABEL_SIZE) / 2
            top = k * (LABEL_SIZE + 2)
            for word in row.split():
                w = text_width(word, LABEL_SIZE)
                out.append((x, top + 1, x + w, top + LABEL_SIZE + 1))
                x += w + space
        found = _WORDS[rows] = tuple(out)
    return found


def _words_crossed(box: Box, rows: tuple[str, ...], a: tuple[float, float], b: tuple[float, float]) -> int:
    """How many words of a name printed on `rows` in the block `box` the segment a-b crosses (Box.hits_segment)."""
    mid, top = (box.x0 + box.x1) / 2, box.y0
    (ax, ay), (bx, by) = a, b
    lox, hix = (ax, bx) if ax < bx else (bx, ax)
    loy, hiy = (ay, by) if ay < by else (by, ay)
    dx, dy = bx - ax, by - ay
    crossed = 0
    for ox0, oy0, ox1, oy1 in _word_offsets(rows):
        x0, y0, x1, y1 = mid + ox0, top + oy0, mid + ox1, top + oy1
        if hix < x0 or lox > x1 or hiy < y0 or loy > y1:
            continue
        t, u, left, right = dx * (y0 - ay), dx * (y1 - ay), dy * (x0 - ax), dy * (x1 - ax)
        c1, c2, c3, c4 = t - left, t - right, u - left, u - right
        if not (c1 > 0 and c2 > 0 and c3 > 0 and c4 > 0 or c1 < 0 and c2 < 0 and c3 < 0 and c4 < 0):
            crossed += 1
    return crossed


def _mark_text(mark: MapMark) -> str:
    if mark.value is not None and mark.total:
        return f"{mark.value}/{mark.total}" + (f" {mark.text}" if mark.text else "")
    return mark.text


def _mark_width(mark: MapMark) -> float:
    text = _mark_text(mark)
    return ICON + (2 + text_width(text, MARK_SIZE, True) if text else 0)


#: A segment with its bounds: left, top, right, bottom, start, end.
_Bounded = tuple[float, float, float, float, tuple[float, float], tuple[float, float]]
_Line = tuple[tuple[float, float], tuple[float, float]]
_Rect = tuple[float, float, float, float]  # left, top, right, bottom


class _Spot:
    """A place for a label (BoardLayout._spot): its box, its leader line (None by its circle) and that line less its
    last unit, the bounds of both, its distance cost, its index among the label's candidates, and the rows of its
    name printed there."""

    __slots__ = ("box", "line", "short", "x0", "y0", "x1", "y1", "far", "index", "off", "rows")

    def __init__(self, box: Box, line: _Line | None, far: float, index: int, off: bool,
                 rows: tuple[str, ...] = ()) -> None:
        self.box, self.line, self.far, self.index, self.rows = box, line, far, index, rows
        self.off = off  # cut off by the picture's edge: it costs that alone (as `_collisions` counts)
        self.short = _shortened(line) if line is not None else None
        self.x0, self.y0, self.x1, self.y1 = box.x0, box.y0, box.x1, box.y1
        if line is not None:
            (ax, ay), (bx, by) = line
            self.x0, self.y0 = min(self.x0, ax, bx), min(self.y0, ay, by)
            self.x1, self.y1 = max(self.x1, ax, bx), max(self.y1, ay, by)


def _between(a: _Spot, b: _Spot) -> float:
    """What two labels' places cost each other (the same both ways): text over text, a leader line across the
    other's text, two leader lines across each other. Nothing where their bounds stand apart."""
    if a.x1 + 1.5 <= b.x0 or b.x1 + 1.5 <= a.x0 or a.y1 + 1.5 <= b.y0 or b.y1 + 1.5 <= a.y0:
        return 0.0
    hits = TEXT_OVER if a.box.hits(b.box, 1.5) else 0.0
    if b.short is not None and a.box.hits_segment(*b.short):
        hits += LINE_CROSSED
    if a.short is not None and b.box.hits_segment(*a.short):
        hits += LINE_CROSSED
    if a.line is not None and b.line is not None and _cross(a.line, b.line):
        hits += MISREAD
    return hits


def _crowded(spot: _Spot, others: list[_Spot], hits: float, bound: float, at_bound: bool = False) -> float:
    """`hits` plus what the other labels near `spot` cost it (`_between`, for those whose bounds meet its own),
    stopping once the sum passes `bound` (or reaches it, `at_bound`): enough to know the place loses."""
    x0, y0, x1, y1 = spot.x0 - 1.5, spot.y0 - 1.5, spot.x1 + 1.5, spot.y1 + 1.5
    for other in others:
        if other.x0 >= x1 or other.x1 <= x0 or other.y0 >= y1 or other.y1 <= y0:
            continue  # their bounds stand apart (as _between finds first)
        hits += _between(spot, other)
        if hits > bound or at_bound and hits >= bound:
            break
    return hits


@dataclass
class _Room:
    """A label's candidates (with the fixed part of each one's cost once counted), the titles near them, the bounds
    of them all, and the labels whose rooms touch this one."""

    tid: str
    boxes: list[_Rect]  # each candidate's left, top, right, bottom
    shapes: list[tuple[str, ...]]  # the name's rows in each candidate (Label.rows)
    far: list[float]  # what each candidate's distance from the circle costs (and its name on two rows)
    spots: list[_Spot | None]
    by_far: list[int]
    fixed: list[float | None]
    low: list[float]  # what a candidate whose fixed cost is not known yet costs at least
    titles: list[Box]
    extent: tuple[float, float, float, float]
    neighbours: list[str] = field(default_factory=list)
    refined: int = 0  # how many places it had before the polish added some shifted a little (BoardLayout._refine)


class _Grid:
    """The circles and segments of a board by the square cells (of `size` view units) they can touch, so that what a
    label's box may run into is looked for in its own cells only: a circle in the cell of its centre, a segment in
    every cell of its bounds."""

    def __init__(self, width: float, height: float, size: float, pos: dict[str, tuple[float, float]],
                 segments: list[_Bounded]) -> None:
        self.size = size
        self.cols, self.rows = int(width // size) + 1, int(height // size) + 1
        self.circles: list[list[tuple[str, float, float]]] = [[] for _ in range(self.cols * self.rows)]
        self.segments: list[list[tuple[int, int, *_Bounded]]] = [[] for _ in range(self.cols * self.rows)]
        for tid, (x, y) in pos.items():
            self.circles[self._row(y) * self.cols + self._col(x)].append((tid, x, y))
        for sx0, sy0, sx1, sy1, a, b in segments:
            c0, c1, r0, r1 = self._col(sx0), self._col(sx1), self._row(sy0), self._row(sy1)
            for row in range(r0, r1 + 1):
                for col in range(c0, c1 + 1):
                    self.segments[row * self.cols + col].append((c0, r0, sx0, sy0, sx1, sy1, a, b))

    def _col(self, x: float) -> int:
        return min(max(int(x // self.size), 0), self.cols - 1)

    def _row(self, y: float) -> int:
        return min(max(int(y // self.size), 0), self.rows - 1)


@dataclass
class Label:
    """A territory's label block: its printed name, then one row per mark."""

    tid: str
    name: str
    marks: list[MapMark]
    box: Box = Box(0, 0, 0, 0)
    far: str = ""  # the neighbours its long edges lead to ('to SA-02, TS-01'): the edges are drawn as stubs
    compact: bool = False  # the marks as one row of icons, without their texts (the player aid's board)
    rows: tuple[str, ...] = ()  # the name on two rows where the layout wraps it (BoardLayout._room); else on one

    def name_rows(self) -> tuple[str, ...]:
        """The name's rows as printed."""
        return self.rows or ((self.name,) if self.name else ())

    def wrapped(self, wide: float = WRAP_FROM) -> tuple[str, ...] | None:
        """A long name of two words or more (`wide` or wider) on two rows, split between words where the longer row
        is shortest; None for a name kept on one row."""
        words = self.name.split()
        if len(words) < 2 or text_width(self.name, LABEL_SIZE) < wide:
            return None
        splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
        return min(splits, key=lambda rows: max(text_width(row, LABEL_SIZE) for row in rows))

    @property
    def width(self) -> float:
        rows = [text_width(row, LABEL_SIZE) for row in self.name_rows()] or [0.0]
        rows += [len(self.marks) * (ICON + 1)] if self.compact else [_mark_width(m) for m in self.marks]
        rows += [text_width(self.far, MARK_SIZE)] if self.far else []
        return max(rows) + 2

    @property
    def height(self) -> float:
        rows = min(1, len(self.marks)) if self.compact else len(self.marks)
        return (len(self.name_rows()) * (LABEL_SIZE + 2) + rows * (ICON + 2) + 1
                + (MARK_SIZE + 2 if self.far else 0))


def _as_mark(mark: str | MapMark) -> MapMark:
    if isinstance(mark, MapMark):
        return DESTROYED if mark.kind == "destroyed" and mark.icon == "diamond" else mark
    return MapMark("marks", str(mark))


class BoardLayout:
    """Where everything goes in view units: circles, edge segments, region titles and labels.

    Labels are placed greedily (largest first; where that leaves a label misread or overprinted, also most crowded
    first) over candidate places around their circle (`_candidates`: near it, then further out on a leader line; a
    long name also on two rows), keeping clear of every circle, every edge segment, region titles and labels already
    placed; when no candidate is clear, the one with the fewest collisions is taken (`_collisions` weighs them). Then
    each label is moved on its own while that helps, then together with the one or two labels in its way
    (`_repair`). The search counts what `_collisions` counts, faster: each candidate's fixed part once per layout
    (`_fixed`, from a grid of the circles and segments), the other labels pair by pair (`_between`), only those
    whose candidates can touch (`_Room.neighbours`), nearest candidates first, none past the best so far.
    """

    def __init__(self, game: Game, marks: dict[str, list[str | MapMark]] | None = None,
                 view_width: float = VIEW_WIDTH, compact: bool = False) -> None:
        self.game = game
        self.width = view_width
        width, height = _board_size(game)
        self.scale = view_width / width
        self.view_h = height * self.scale
        self.pos = {tid: (x * self.scale, y * self.scale) for tid, (x, y) in positions(game).items()}
        territories = game.section("territories")
        self.radius = max(7.0, min(16.0, 380.0 / max(1, math.sqrt(len(territories) or 1))))
        if not any(t.get("code") for t in territories.values()):  # nothing printed inside: smaller on a narrow view
            self.radius = max(7.0, self.radius * view_width / VIEW_WIDTH)
        self._separate()
        #: territories with a code printed inside their circle: text no title or label may cover
        self.coded = {tid for tid, t in territories.items() if t.get("code") and tid in self.pos}
        self.title_rids: list[str] = []  # the region of each title, in order
        self.title_sizes: list[float] = []  # the font size of each title, in order
        self.untitled: list[str] = []  # regions whose title finds no place clear of codes and other text
        self.titles: list[tuple[str, float, float, Box]] = []
        self.segments = self._segments()
        # each segment with its bounds: a box far from a segment is passed over before the exact test (the
        # title and label searches try ~300,000 box-segment pairs on the Risk Legacy board)
        self._bounded = [(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]), a, b)
                         for _kind, a, b, _style in self.segments]
        self.titles = self._titles()
        self._grid = _Grid(self.width, self.view_h, GRID_CELL, self.pos, self._bounded)
        self.labels: dict[str, Label] = {}
        self._owner: dict[Box, str] = {}  # a placed label's box -> its territory (to draw its leader line)
        marks = marks or {}
        for tid, terr in territories.items():
            if tid not in self.pos:
                continue
            name = known(terr.get("name"))
            code = terr.get("code")
            text = str(name) if name else ("" if code else tid)
            self.labels[tid] = Label(tid, text, [_as_mark(m) for m in marks.get(tid, [])], compact=compact)
        for kind, (x1, y1), _end, _style in self.segments:  # each stub's far end, named in its label
            if kind.startswith("stub:"):
                start = next(t for t, p in self.pos.items() if p == (x1, y1))
                far = territories.get(kind[5:], {})
                code = str(far.get("code") or _label(far, kind[5:]))
                label = self.labels[start]
                label.far = f"{label.far}, {code}" if label.far else f"to {code}"
        self._place()
        boxes = tuple(self.label_boxes().values())
        if any(t[3].hits(b, 1.5) for t in self.titles for b in boxes):  # a label had to go over a title
            self.titles = self._titles(boxes)

    def _crosses(self, a: str, b: str) -> bool:
        """Does the straight edge a-b pass through another territory's circle?"""
        (x1, y1), (x2, y2) = self.pos[a], self.pos[b]
        length2 = (x2 - x1) ** 2 + (y2 - y1) ** 2
        for tid, (cx, cy) in self.pos.items():
            if tid in (a, b) or not length2:
                continue
            k = max(0.0, min(1.0, ((cx - x1) * (x2 - x1) + (cy - y1) * (y2 - y1)) / length2))
            if math.dist((cx, cy), (x1 + k * (x2 - x1), y1 + k * (y2 - y1))) < self.radius:
                return True
        return False

    def _separate(self) -> None:
        """Move circles that would overlap apart (a territory the drawing placed, else the later one), so every
        circle stands clear of every other; never off the board."""
        territories = self.game.section("territories")
        gap = 2 * self.radius + 4

        def movable(tid: str) -> int:
            layout = territories.get(tid, {}).get("layout")
            return 0 if isinstance(layout, dict) and layout.get("drawing_choice") else 1

        lo, right, bottom = self.radius + 2, self.width - self.radius - 2, self.view_h - self.radius - 2
        self.pos = {t: (x, y) if isinstance(territories.get(t, {}).get("layout"), dict) else  # placed here: inside
                    (min(max(x, lo), right), min(max(y, lo), bottom)) for t, (x, y) in self.pos.items()}
        ids = list(self.pos)
        for _ in range(60):
            moved = False
            for i, a in enumerate(ids):
                for b in ids[i + 1:]:
                    (ax, ay), (bx, by) = self.pos[a], self.pos[b]
                    d = math.dist((ax, ay), (bx, by))
                    if d >= gap:
                        continue
                    mover, other = (a, b) if movable(a) < movable(b) else (b, a)
                    (mx, my), (ox, oy) = self.pos[mover], self.pos[other]
                    ux, uy = ((mx - ox) / d, (my - oy) / d) if d > 0.01 else (0.0, 1.0)
                    push = gap - d + 0.5
                    nx = min(max(mx + ux * push, self.radius + 2), self.width - self.radius - 2)
                    ny = min(max(my + uy * push, self.radius + 2), self.view_h - self.radius - 2)
                    self.pos[mover] = (nx, ny)
                    moved = True
            if not moved:
                break

    def _segments(self) -> list[tuple[str, tuple[float, float], tuple[float, float], str]]:
        """(kind, start, end, style) of every edge; an edge that wraps around the board (Alaska -
        Kamchatka) is two segments, one leaving each side along the same straight line."""
        out = []
        seen: set[frozenset[str]] = set()
        territories = self.game.section("territories")
        default = str(self.game.board.get("edge_kind") or "land")
        listed = [(a, b, default) for a, ns in self.game.neighbors().items() for b in ns]  # `neighbors:` lists too
        for a, b, kind in [*self.game.edges, *listed]:
            key = frozenset((a, b))
            if a not in self.pos or b not in self.pos or key in seen or a == b:
                continue
            seen.add(key)
            (x1, y1), (x2, y2) = self.pos[a], self.pos[b]
            drawn = all(isinstance(territories[t].get("layout"), dict) for t in (a, b))
            if drawn and abs(x1 - x2) > self.width / 2:  # placed far apart by the board itself: it wraps
                (lx, ly), (rx, ry) = ((x1, y1), (x2, y2)) if x1 < x2 else ((x2, y2), (x1, y1))
                span = lx + (self.width - rx)  # the wrapped line's horizontal length
                cross_y = ly + (ry - ly) * (lx / span if span else 0.5)  # where it crosses the side
                out.append(("wrap", (lx, ly), (0.0, cross_y), kind))
                out.append(("wrap", (rx, ry), (self.width, cross_y), kind))
            elif math.dist((x1, y1), (x2, y2)) > LONG_EDGE * self.width and (
                    self._crosses(a, b) or drawn and math.dist((x1, y1), (x2, y2)) > ACROSS * self.width):  # stubs
                length = math.dist((x1, y1), (x2, y2))
                ux, uy = (x2 - x1) / length, (y2 - y1) / length
                reach = self.radius + STUB * 0.5
                out.append((f"stub:{b}", (x1, y1), (x1 + ux * reach, y1 + uy * reach), kind))
                out.append((f"stub:{a}", (x2, y2), (x2 - ux * reach, y2 - uy * reach), kind))
            else:
                out.append(("edge", (x1, y1), (x2, y2), kind))
        return out

    def _titles(self, labels: tuple[Box, ...] = ()) -> list[tuple[str, float, float, Box]]:
        """Each region's title (text, x, y, box), placed clear of codes and other titles (and of `labels`, the
        label blocks placed so far: a title already placed that overprints none of them stays where it is)."""
        out: list[tuple[str, float, float, Box]] = []
        before = dict(zip(self.title_rids, zip(self.titles, self.title_sizes, strict=True), strict=True)) \
            if labels else {}
        self.title_rids, self.title_sizes, self.untitled = [], [], []
        members = self.game.region_members()
        shown = bonuses_shown(self.game)
        for rid, region in self.game.section("regions").items():
            if rid in before and not any(before[rid][0][3].hits(b, 1.5) for b in labels):
                out.append(before[rid][0])
                self.title_rids.append(rid)
                self.title_sizes.append(before[rid][1])
                continue
            layout = region.get("layout")
            if isinstance(layout, dict) and isinstance(layout.get("x"), int | float):
                rx, ry = float(layout["x"]) * self.scale, float(layout["y"]) * self.scale
            else:
                points = [self.pos[t] for t in members.get(rid, []) if t in self.pos]
                if not points:
                    continue
                rx = sum(p[0] for p in points) / len(points)
                ry = min(p[1] for p in points) - self.radius - 8
            bonus = known(region.get("bonus"))
            name = _label(region, rid)
            text = name + ("" if not shown else f" +{bonus}" if isinstance(bonus, int) and bonus >= 0
                           else f" {bonus}" if isinstance(bonus, int) else " +?")
            own = set(members.get(rid, []))
            placed = [t[3] for t in out]
            chosen: tuple[float, float, float, float, str] | None = None  # cost, x, y, size, text
            # smaller only where the full size finds no clear place; an unknown bonus's '+?' left out last
            tries = [(size, text, 0.0) for size in TITLE_SIZES]
            tries += [(size, name, 2.0) for size in TITLE_SIZES[1:] if text != name and not isinstance(bonus, int)]
            for size, words, shorter in tries:
                w = text_width(words, size, True)
                up, down = size * 0.8, size * 4 / 15
                beside = [(mx + dx, max(14.0, my + dy)) for t in sorted(own) if t in self.pos
                          for mx, my in [self.pos[t]]
                          for dx, dy in ((0, -self.radius - 8), (0, self.radius + 18),
                                         (-self.radius - w / 2 - 4, 4), (self.radius + w / 2 + 4, 4))]
                spots = [*((rx + dx, max(14.0, ry + dy), 0.0) for dy in TITLE_DY for dx in TITLE_DX),
                         *((x, y, 0.0) for x, y in beside)]
                mine = [self.pos[t] for t in own if t in self.pos]
                if mine:  # then anywhere over its own territories and around them (a little dearer)
                    x0, x1 = min(p[0] for p in mine) - 40 - w / 2, max(p[0] for p in mine) + 40 + w / 2
                    y0, y1 = min(p[1] for p in mine) - 50, max(p[1] for p in mine) + 50
                    spots += [(x0 + i * 15.0, y0 + j * 10.0, 5.0) for i in range(int((x1 - x0) / 15) + 1)
                              for j in range(int((y1 - y0) / 10) + 1)]
                for x, y, dear in spots:
                    box = Box(x - w / 2, y - up, x + w / 2, y + down)
                    bound = math.inf if chosen is None else chosen[0]  # what a place must cost less than to count
                    clash = self._title_collisions(box, placed, bound)
                    if clash >= bound:
                        continue
                    clash += sum(CODE_COVERED for b in labels if box.hits(b, 1.5))
                    if clash >= bound:
                        continue
                    cost = clash + self._elsewhere(box, own) + abs(x - rx) / 1000 + (TITLE_SIZE - size) / 10 \
                        + dear + shorter
                    if chosen is None or cost < chosen[0]:
                        chosen = (cost, x, y, size, words)
                if chosen is not None and chosen[0] < 10:  # nothing covered but edges: no smaller size needed
                    break
            assert chosen is not None
            cost, bx, by, size, text = chosen
            if cost >= ELSEWHERE:  # it would cover text or stand by another region: the legend keys it alone
                self.untitled.append(rid)
                continue
            w = text_width(text, size, True)
            self.title_rids.append(rid)
            self.title_sizes.append(size)
            out.append((text, bx, by, Box(bx - w / 2, by - size * 0.8, bx + w / 2, by + size * 4 / 15)))
        return out

    def nearest(self, box: Box) -> str | None:
        """The territory whose circle's centre is nearest to `box` (0 inside it; the first of equals)."""
        x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
        best, best_gap = None, math.inf
        for t, (x, y) in self.pos.items():  # a plain loop: the title search asks ~500,000 times per board
            dx = x0 - x if x < x0 else x - x1 if x > x1 else 0.0
            dy = y0 - y if y < y0 else y - y1 if y > y1 else 0.0
            gap = dx * dx + dy * dy
            if gap < best_gap:
                best, best_gap = t, gap
        return best

    def _elsewhere(self, box: Box, own: set[str]) -> float:
        """What it costs to put a region's title in `box` when the territory nearest to it is another region's:
        more than covering one circle, so that a title sits inside or beside its own region."""
        return ELSEWHERE if own and self.nearest(box) not in own else 0.0

    def _title_collisions(self, box: Box, placed: list[Box], bound: float = math.inf) -> float:
        """What a title in `box` runs into (counting stops once it reaches `bound`)."""
        if box.x0 < 1 or box.y0 < 1 or box.x1 > self.width - 1 or box.y1 > self.view_h - 1:
            return 1000.0  # cut off by the picture's edge: worse than anything inside it
        r = self.radius + 3
        hits = sum(10.0 + (CODE_COVERED if tid in self.coded else 0.0) for tid, (cx, cy) in self.pos.items()
                   if box.x0 - r < cx < box.x1 + r and box.y0 - r < cy < box.y1 + r and box.hits_circle(cx, cy, r))
        if hits >= bound:
            return hits
        hits += self._segments_crossed(box)
        return hits + sum(TITLE_OVER_TITLE for other in placed if box.hits(other, 2))  # never over one another

    def _segments_crossed(self, box: Box) -> int:
        """How many of the board's segments (edges, stubs) cross `box`."""
        x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
        return sum(1 for sx0, sy0, sx1, sy1, a, b in self._bounded
                   if sx0 <= x1 and sx1 >= x0 and sy0 <= y1 and sy1 >= y0 and box.hits_segment(a, b))

    def _collisions(self, box: Box, own: str, placed: list[Box], bound: float = math.inf) -> float:
        """What `box` runs into, weighted (0: nothing); counting stops once it reaches `bound`."""
        if box.x0 < 1 or box.y0 < 1 or box.x1 > self.width - 1 or box.y1 > self.view_h - 1:
            return 1000.0
        hits = 0.0
        for other in placed:
            if box.hits(other, 1.5):
                hits += TEXT_OVER  # overprinted text is worst
        for *_, title in self.titles:
            if box.hits(title, 1.5):
                hits += TITLE_COVERED
        if hits >= bound:
            return hits
        for tid, (cx, cy) in self.pos.items():
            if box.hits_circle(cx, cy, self.radius + (0 if tid == own else 2)):
                hits += OWN_CIRCLE if tid == own else OTHER_CIRCLE  # over another's circle it reads as its label
                hits += CODE_COVERED if tid in self.coded else 0  # and over the code printed in it: overprinted
        mine = self._leader_to(own, box) if own in self.pos else None
        if own in self.pos:
            hits += self._misread(box, own, mine)
        if hits >= bound:
            return hits
        hits += LINE_CROSSED * self._segments_crossed(box)
        if hits >= bound or not placed:
            return hits
        for other in placed:  # a leader line across a label, this one's or another's, or across another line
            owner = self._owner.get(other)
            if owner is None or owner == own:
                continue
            line = self._leader_to(owner, other)
            if line is not None and box.hits_segment(*_shortened(line)):
                hits += LINE_CROSSED
            if mine is not None and other.hits_segment(*_shortened(mine)):
                hits += LINE_CROSSED
            if mine is not None and line is not None and _cross(mine, line):
                hits += MISREAD  # which line leads where: as unclear as a label by another circle
        return hits

    def _misread(self, box: Box, own: str, leader: tuple[tuple[float, float], tuple[float, float]] | None) -> float:
        """What it costs that a reader could take the label in `box` for another territory's: MISREAD when, without
        a leader line, the circle nearest to its middle is another's; with one, for each other circle it stands
        by (as near as its own would stand without a line) or its line runs through."""
        mx, my = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        ox, oy = self.pos[own]
        r = self.radius
        if leader is None:
            mine = (mx - ox) ** 2 + (my - oy) ** 2
            return MISREAD if any((mx - x) ** 2 + (my - y) ** 2 < mine for t, (x, y) in self.pos.items()
                                  if t != own) else 0.0
        (x1, y1), (x2, y2) = leader
        dx, dy = x2 - x1, y2 - y1
        length2 = dx * dx + dy * dy or 1.0
        by = (r + LEADER_FROM) ** 2
        cost = 0.0
        for t, (x, y) in self.pos.items():
            if t == own:
                continue
            nx, ny = min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1)
            k = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length2))
            if (nx - x) ** 2 + (ny - y) ** 2 <= by or (x1 + k * dx - x) ** 2 + (y1 + k * dy - y) ** 2 < r * r:
                cost += MISREAD
        return cost

    def _candidates(self, tid: str, label: Label, further: tuple[float, ...] = FAR_GAPS) -> list[Box]:
        """The places tried for a label: rings of 16 places, then all round at CANDIDATE_GAPS, then at `further`."""
        return [Box(*place) for place in self._places(tid, label.width, label.height, further)]

    def _places(self, tid: str, w: float, h: float, further: tuple[float, ...]) -> list[_Rect]:
        """`_candidates` as (left, top, right, bottom) of a block `w` by `h`."""
        x, y = self.pos[tid]
        r = self.radius
        out = []
        for gap in (1.5, 8.0, 18.0, 30.0, 45.0, 62.0, 80.0):
            d = r + gap
            for bx, by in ((x - w / 2, y + d), (x - w / 2, y - d - h), (x + d, y - h / 2), (x - d - w, y - h / 2),
                           (x + d * 0.7, y + d * 0.7), (x - d * 0.7 - w, y + d * 0.7),
                           (x + d * 0.7, y - d * 0.7 - h), (x - d * 0.7 - w, y - d * 0.7 - h),
                           # beside the circle but shifted along it: room between two neighbours
                           (x - w * 0.15, y + d), (x - w * 0.85, y + d), (x - w * 0.15, y - d - h),
                           (x - w * 0.85, y - d - h), (x + d, y - h * 0.9), (x + d, y - h * 0.1),
                           (x - d - w, y - h * 0.9), (x - d - w, y - h * 0.1)):
                out.append((bx, by, bx + w, by + h))
        for gaps, turns in ((CANDIDATE_GAPS, _TURNS), (further, _FAR_TURNS)):  # all round it, its edge facing it
            for gap in gaps:
                d = r + gap
                for c, s in turns:
                    bx, by = x + d * c - w * (1 - c) / 2, y + d * s - h * (1 - s) / 2
                    nx, ny = min(max(x, bx), bx + w), min(max(y, by), by + h)
                    short = d - math.dist((x, y), (nx, ny))  # a corner turned towards the circle: out to the gap
                    bx, by = bx + c * max(0.0, short), by + s * max(0.0, short)
                    out.append((bx, by, bx + w, by + h))
        return out

    def _spot(self, tid: str, box: Box, index: int = 0) -> _Spot:
        """A place for `tid`'s label: the box with its leader line (None when it stands by its circle)."""
        return _Spot(box, self._leader_to(tid, box), self._far(tid, box), index, self._off(box),
                     self.labels[tid].name_rows())

    def _off(self, box: Box) -> bool:
        """Is the box cut off by the picture's edge?"""
        return box.x0 < 1 or box.y0 < 1 or box.x1 > self.width - 1 or box.y1 > self.view_h - 1

    def _room(self, label: Label) -> _Room:
        """The label's candidates (each made a _Spot when first looked at), nearest first: its block as it is, then,
        for a long name, with the name on two rows (a little dearer: WRAPPED); the titles near any of them, and the
        bounds of them all and of its circle (which hold every leader line to them)."""
        tid = label.tid
        x, y = self.pos[tid]
        r = self.radius
        boxes: list[_Rect] = []
        shapes: list[tuple[str, ...]] = []
        far: list[float] = []
        kept = label.rows
        for rows, dearer, further in (((), 0.0, FAR_GAPS), (label.wrapped(), WRAPPED, WRAPPED_GAPS)):
            if rows is None:
                continue
            label.rows = rows
            for box in self._places(tid, label.width, label.height, further):
                bx0, by0, bx1, by1 = box
                nx = bx0 if x < bx0 else bx1 if x > bx1 else x
                ny = by0 if y < by0 else by1 if y > by1 else y
                boxes.append(box)
                shapes.append(rows)
                far.append(max(0.0, math.dist((x, y), (nx, ny)) - r) / FAR_PER + dearer)
        label.rows = kept
        x0, y0 = min(min(b[0] for b in boxes), x - r), min(min(b[1] for b in boxes), y - r)
        x1, y1 = max(max(b[2] for b in boxes), x + r), max(max(b[3] for b in boxes), y + r)
        titles = [t[3] for t in self.titles if t[3].hits(Box(x0, y0, x1, y1), 2)]
        by_far = sorted(range(len(boxes)), key=lambda i: (far[i], i))
        return _Room(tid, boxes, shapes, far, [None] * len(boxes), by_far, [None] * len(boxes), [0.0] * len(boxes),
                     titles, (x0, y0, x1, y1))

    def _spot_in(self, room: _Room, i: int) -> _Spot:
        """The room's candidate `i` as a _Spot (made once)."""
        spot = room.spots[i]
        if spot is None:
            box = Box(*room.boxes[i])
            name = self.labels[room.tid].name
            spot = room.spots[i] = _Spot(box, self._leader_to(room.tid, box), room.far[i], i, self._off(box),
                                         room.shapes[i] or ((name,) if name else ()))
        return spot

    def _fixed(self, spot: _Spot, own: str, room: _Room | None = None, bound: float = math.inf) -> float:
        """What a place costs whatever the other labels' places (the parts of `_collisions` that do not read them):
        off the picture, over a title, crossed by segments (`_early`), over circles, read as another territory's
        (`_circled`). `room`: its label's room (the titles near it). Past `bound` counting may stop: a cost over
        `bound` may be less than the whole."""
        if spot.off:
            return 1000.0
        box = spot.box
        hits = self._early(box.x0, box.y0, box.x1, box.y1, room.titles if room is not None else
                           [t[3] for t in self.titles])
        return hits if hits > bound else hits + self._circled(spot, own)

    def _early(self, x0: float, y0: float, x1: float, y1: float, titles: list[Box]) -> float:
        """What a block inside the picture costs for the titles it covers and the segments across it (looked up in
        the grid's cells it covers): the quick part of `_fixed`."""
        hits = 0.0
        for title in titles:
            if not (x1 + 1.5 <= title.x0 or title.x1 + 1.5 <= x0 or y1 + 1.5 <= title.y0 or title.y1 + 1.5 <= y0):
                hits += TITLE_COVERED
        crossed = 0
        grid = self._grid
        cols, last_col, last_row, size = grid.cols, grid.cols - 1, grid.rows - 1, grid.size
        c0, c1 = min(max(int(x0 // size), 0), last_col), min(max(int(x1 // size), 0), last_col)
        r0, r1 = min(max(int(y0 // size), 0), last_row), min(max(int(y1 // size), 0), last_row)
        for row in range(r0, r1 + 1):
            for col in range(c0, c1 + 1):
                for first_col, first_row, ex0, ey0, ex1, ey1, (ax, ay), (bx, by) in grid.segments[row * cols + col]:
                    # each segment counted once: in the first cell both it and the box cover
                    if (col != (first_col if first_col > c0 else c0) or row != (first_row if first_row > r0 else r0)
                            or ex0 > x1 or ex1 < x0 or ey0 > y1 or ey1 < y0):
                        continue
                    dx, dy = bx - ax, by - ay  # Box.hits_segment: are the corners on both sides of its line?
                    top, bottom, left, right = dx * (y0 - ay), dx * (y1 - ay), dy * (x0 - ax), dy * (x1 - ax)
                    k1, k2, k3, k4 = top - left, top - right, bottom - left, bottom - right
                    if not (k1 > 0 and k2 > 0 and k3 > 0 and k4 > 0 or k1 < 0 and k2 < 0 and k3 < 0 and k4 < 0):
                        crossed += 1
        return hits + LINE_CROSSED * crossed

    def _circled(self, spot: _Spot, own: str) -> float:
        """What a place inside the picture costs for the circles it covers or stands by, and for a reader taking it
        for another territory's label (looked up in the grid's cells it can touch): the slow part of `_fixed`."""
        box = spot.box
        x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
        hits = 0.0
        r = self.radius
        own_r, other_r = r * r, (r + 2) * (r + 2)  # over its own circle; over (or too near) another's
        coded = self.coded
        line = spot.line
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        ox, oy = self.pos[own]
        mine = (mx - ox) ** 2 + (my - oy) ** 2
        nx = x0 if ox < x0 else x1 if ox > x1 else ox
        ny = y0 if oy < y0 else y1 if oy > y1 else oy
        if (nx - ox) ** 2 + (ny - oy) ** 2 < own_r:
            hits += OWN_CIRCLE + (CODE_COVERED if own in coded else 0)
        # the circles that can count: by the label or its line, or (without a line) nearer its middle than its own
        reach = r + LEADER_FROM + 2
        qx0, qy0, qx1, qy1 = spot.x0 - reach, spot.y0 - reach, spot.x1 + reach, spot.y1 + reach
        lx, ly, dx, dy, length2 = 0.0, 0.0, 0.0, 0.0, 1.0
        if line is None:
            d = math.sqrt(mine) + 1
            qx0, qy0, qx1, qy1 = min(qx0, mx - d), min(qy0, my - d), max(qx1, mx + d), max(qy1, my + d)
        else:
            (lx, ly), (ex, ey) = line
            dx, dy = ex - lx, ey - ly
            length2 = dx * dx + dy * dy or 1.0
        by = (r + LEADER_FROM) ** 2
        sx0, sy0, sx1, sy1 = spot.x0, spot.y0, spot.x1, spot.y1  # the bounds of the label and its line
        misread = 0.0
        grid = self._grid
        cols, last_col, last_row, size = grid.cols, grid.cols - 1, grid.rows - 1, grid.size
        c0, c1 = min(max(int(qx0 // size), 0), last_col), min(max(int(qx1 // size), 0), last_col)
        for row in range(min(max(int(qy0 // size), 0), last_row), min(max(int(qy1 // size), 0), last_row) + 1):
            for cell in grid.circles[row * cols + c0:row * cols + c1 + 1]:
                for tid, cx, cy in cell:
                    if tid == own:
                        continue
                    nx = x0 if cx < x0 else x1 if cx > x1 else cx
                    ny = y0 if cy < y0 else y1 if cy > y1 else cy
                    gap = (nx - cx) ** 2 + (ny - cy) ** 2
                    if gap < other_r:  # over another's circle it reads as its label; over its code, overprinted
                        hits += OTHER_CIRCLE + (CODE_COVERED if tid in coded else 0)
                    if line is None:  # read as another's: its circle is nearer the label's middle (once)
                        if not misread and (mx - cx) ** 2 + (my - cy) ** 2 < mine:
                            misread = MISREAD
                    elif gap <= by:  # by another circle
                        misread += MISREAD
                    elif sx0 - r < cx < sx1 + r and sy0 - r < cy < sy1 + r:  # or its line runs through one
                        k = max(0.0, min(1.0, ((cx - lx) * dx + (cy - ly) * dy) / length2))
                        if (lx + k * dx - cx) ** 2 + (ly + k * dy - cy) ** 2 < r * r:
                            misread += MISREAD
        return hits + misread

    def _best(self, room: _Room, others: list[_Spot], limit: float = math.inf) -> _Spot:
        """The candidate with the least collisions plus distance from its circle, the first of equals (candidates are
        looked at nearest first, and none further than the best so far costs; the fixed part of a candidate's cost
        is counted once per layout)."""
        best: _Spot | None = None
        best_cost = limit
        spots, fixed, low = room.spots, room.fixed, room.low
        rects, fars, titles = room.boxes, room.far, room.titles
        right, bottom = self.width - 1, self.view_h - 1
        for i in room.by_far:
            far = fars[i]
            if far > best_cost:
                break
            hits = fixed[i]
            if hits is None:
                if low[i] + far > best_cost:
                    continue
                x0, y0, x1, y1 = rects[i]
                if x0 < 1 or y0 < 1 or x1 > right or y1 > bottom:
                    hits = fixed[i] = 1000.0
                else:
                    hits = self._early(x0, y0, x1, y1, titles)
                    if hits + far > best_cost:  # not all of it: what it costs at least
                        low[i] = hits
                        continue
                    hits = fixed[i] = hits + self._circled(spots[i] or self._spot_in(room, i), room.tid)
            if hits + far > best_cost:
                continue
            spot = spots[i] or self._spot_in(room, i)
            if not spot.off:
                hits = _crowded(spot, others, hits, best_cost - far)
            cost = hits + far
            if cost < best_cost or best is not None and cost == best_cost and i < best.index:
                best, best_cost = spot, cost
        return best if best is not None else room.spots[room.by_far[0]] or self._spot_in(room, room.by_far[0])

    def _cost(self, room: _Room, spot: _Spot, others: list[_Spot]) -> float:
        """`_collisions` of a candidate of `room` with the labels at `others`."""
        hits = room.fixed[spot.index]
        if hits is None:
            hits = room.fixed[spot.index] = self._fixed(spot, room.tid, room)
        return hits if spot.off else hits + sum(_between(spot, other) for other in others)

    def _place(self) -> None:
        """Each label greedily, the largest first, then improved one label at a time; where a label is still misread
        or overprinted, again with the most crowded first, and the layout with the least total cost is kept; then
        polished (`_polish`)."""
        shown = [lab for lab in self.labels.values() if lab.name or lab.marks or lab.far]
        crowd = {lab.tid: sum(1 for p in self.pos.values()
                              if math.dist(p, self.pos[lab.tid]) < 3 * self.radius + lab.width) for lab in shown}
        rooms = self._rooms(shown)
        best: tuple[float, dict[str, _Spot]] | None = None
        orders = (sorted(shown, key=lambda lab: -lab.width * lab.height),
                  sorted(shown, key=lambda lab: (-crowd[lab.tid], -lab.width * lab.height)))
        for order in orders:
            at = self._place_in(order, rooms)
            total, worst = self._total(shown)
            if best is None or total < best[0]:
                best = (total, at)
            if worst < MISREAD or len(shown) < 2:  # no label misread or overprinted: the first order will do
                break
        assert best is not None or not shown
        if best is not None:
            at = best[1]
            self._polish(orders[0], rooms, at)
            for lab in shown:
                lab.box, lab.rows = at[lab.tid].box, rooms[lab.tid].shapes[at[lab.tid].index]
        self._owner = {lab.box: lab.tid for lab in shown}

    def _rooms(self, shown: list[Label]) -> dict[str, _Room]:
        """Each shown label's room, with the labels whose rooms touch it (no other can cost it anything)."""
        rooms = {lab.tid: self._room(lab) for lab in shown}
        listed = list(rooms.values())
        for i, a in enumerate(listed):
            ax0, ay0, ax1, ay1 = a.extent
            for b in listed[i + 1:]:
                bx0, by0, bx1, by1 = b.extent
                if ax0 <= bx1 + 2 and bx0 <= ax1 + 2 and ay0 <= by1 + 2 and by0 <= ay1 + 2:
                    a.neighbours.append(b.tid)
                    b.neighbours.append(a.tid)
        return rooms

    def _total(self, shown: list[Label]) -> tuple[float, float]:
        """(every shown label's collisions with everything else and distance from its circle, the most any label's
        collisions cost)."""
        spots = [self._spot(lab.tid, lab.box) for lab in shown]
        costs = []
        for i, lab in enumerate(shown):
            hits = self._fixed(spots[i], lab.tid)
            costs.append(hits if spots[i].off else
                         hits + sum(_between(spots[i], other) for j, other in enumerate(spots) if j != i))
        return sum(costs) + sum(s.far for s in spots), max(costs, default=0.0)

    def _place_in(self, order: list[Label], rooms: dict[str, _Room] | None = None) -> dict[str, _Spot]:
        rooms = rooms if rooms is not None else self._rooms(order)
        at: dict[str, _Spot] = {}
        for label in order:
            room = rooms[label.tid]
            at[label.tid] = self._best(room, [at[n] for n in room.neighbours if n in at])
        for _ in range(6):  # then each label again, the others standing: clears what the greedy order left
            changed = False
            for label in order:
                room = rooms[label.tid]
                others = [at[n] for n in room.neighbours]
                now = self._cost(room, at[label.tid], others)
                if now == 0:
                    continue
                best = self._best(room, others)
                if self._cost(room, best, others) < now:
                    at[label.tid], changed = best, True
            if not changed:
                break
        self._repair(order, rooms, at)
        for label in order:
            label.box, label.rows = at[label.tid].box, rooms[label.tid].shapes[at[label.tid].index]
        return at

    def _energy(self, rooms: dict[str, _Room], at: dict[str, _Spot], moved: dict[str, _Spot]) -> float:
        """What the labels of `moved` cost at those places, the others standing in `at`: their fixed costs and
        distances, and each pair of labels once, at least one of them moved."""
        total = 0.0
        for tid, spot in moved.items():
            room = rooms[tid]
            hits = room.fixed[spot.index]
            if hits is None:
                hits = room.fixed[spot.index] = self._fixed(spot, tid, room)
            total += hits + spot.far
            for n in room.neighbours:
                if n not in moved:
                    total += _between(spot, at[n])
                elif n < tid:
                    total += _between(spot, moved[n])
        return total

    def _repair(self, order: list[Label], rooms: dict[str, _Room], at: dict[str, _Spot]) -> None:
        """Where a label still costs something, move it to one of its cheapest places that another label or two
        stand in the way of, and those to their best places then, when that costs less in all (what moving one label
        at a time cannot find)."""
        for _ in range(REPAIR_ROUNDS):
            changed = False
            for label in order:
                tid = label.tid
                room = rooms[tid]
                others = [at[n] for n in room.neighbours]
                now = self._cost(room, at[tid], others)
                if now == 0:
                    continue
                tried = sorted((f + room.far[i], i) for i, f in enumerate(room.fixed) if f is not None and f < now)
                for alone, i in tried[:REPAIR_TRIES]:
                    spot = self._spot_in(room, i)
                    if spot is at[tid]:
                        continue
                    blockers = [n for n in room.neighbours if _between(spot, at[n]) > 0]
                    if len(blockers) > REPAIR_BLOCKERS:
                        continue
                    moved = {tid: spot}
                    gain = now + at[tid].far - alone  # what the label's move saves, less what it runs into
                    for b in blockers:  # to a place that costs it less more than that (else nothing is gained)
                        room_b = rooms[b]
                        limit = self._cost(room_b, at[b], [at[n] for n in room_b.neighbours]) + at[b].far + gain
                        moved[b] = self._best(room_b, [moved.get(n, at[n]) for n in room_b.neighbours], limit)
                    before = self._energy(rooms, at, {t: at[t] for t in moved})
                    if self._energy(rooms, at, moved) < before - 1e-9:
                        at.update(moved)
                        changed = True
                        break
            if not changed:
                break

    def _more_words(self, box: Box, rows: tuple[str, ...], line: _Line) -> float:
        """What a line across a label's block costs beyond LINE_CROSSED: as much again for each further word of its
        name it crosses."""
        return LINE_CROSSED * max(0, _words_crossed(box, rows, *line) - 1) if rows else 0.0

    def _extra(self, rooms: dict[str, _Room], at: dict[str, _Spot], moved: dict[str, _Spot]) -> float:
        """What the labels of `moved` cost beyond `_energy` when a line across a label costs LINE_CROSSED for each
        word of its name it crosses (at least once), and a label over another's circle, over another label or read as
        another's CIRCLE_MORE, TEXT_MORE, MISREAD_MORE more: each edge
        across one of them, each leader line across a label, each pair of labels once."""
        extra = 0.0
        for tid, spot in moved.items():
            room = rooms[tid]
            rows = spot.rows
            box = spot.box
            if spot.off:  # cut off by the picture's edge: never
                extra += OFF_MORE
                continue
            extra += spot.far * FAR_MORE
            x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
            r = self.radius
            for t, (cx, cy) in self.pos.items():  # over another's circle (and its code)
                if t != tid and x0 - r < cx < x1 + r and y0 - r < cy < y1 + r and box.hits_circle(cx, cy, r):
                    extra += CIRCLE_MORE + (TEXT_MORE if t in self.coded else 0.0)
            extra += MISREAD_MORE if self._misread(box, tid, spot.line) else 0.0
            extra += sum(TITLE_MORE for title in room.titles if box.hits(title, 1.5))
            if rows:
                for sx0, sy0, sx1, sy1, a, b in self._bounded:
                    if sx0 <= x1 and sx1 >= x0 and sy0 <= y1 and sy1 >= y0 and box.hits_segment(a, b):
                        extra += self._more_words(box, rows, (a, b))
            for n in room.neighbours:
                if n in moved and n < tid:
                    continue
                other = moved[n] if n in moved else at[n]
                if other.off:
                    continue
                if box.hits(other.box):
                    extra += TEXT_MORE
                if spot.line is not None and other.line is not None and _cross(spot.line, other.line):
                    extra += MISREAD_MORE
                if other.short is not None and rows and box.hits_segment(*other.short):
                    extra += self._more_words(box, rows, other.short)
                if spot.short is not None and other.box.hits_segment(*spot.short):
                    extra += self._more_words(other.box, other.rows, spot.short)
        return extra

    def _exact(self, rooms: dict[str, _Room], at: dict[str, _Spot], moved: dict[str, _Spot]) -> float:
        """`_energy` with each line across a label counted by the words it crosses (`_extra`)."""
        return self._energy(rooms, at, moved) + self._extra(rooms, at, moved)

    def _best_exact(self, rooms: dict[str, _Room], room: _Room, at: dict[str, _Spot], limit: float,
                    near: float) -> _Spot | None:
        """The candidate of `room` that costs least (`_exact`, the others standing in `at`), if one costs less than
        `limit`, among those `_energy` counts less than `near` for. `_exact` is never less than `_energy`, which is
        looked at first (nearest first, the fixed part once)."""
        best: _Spot | None = None
        best_cost = limit
        tid = room.tid
        others = [at[n] for n in room.neighbours]
        fixed, fars, low = room.fixed, room.far, room.low
        for i in room.by_far:
            far = fars[i]
            cap = best_cost if best_cost < near else near
            if far >= cap:
                break
            hits = fixed[i]
            if hits is None:
                if low[i] + far >= cap:
                    continue
                spot = self._spot_in(room, i)
                hits = fixed[i] = self._fixed(spot, tid, room)
            if hits + far >= cap:
                continue
            spot = self._spot_in(room, i)
            if not spot.off:
                hits = _crowded(spot, others, hits, cap - far, at_bound=True)
            if hits + far >= cap:
                continue
            cost = hits + far + self._extra(rooms, at, {tid: spot})
            if cost < best_cost:
                best, best_cost = spot, cost
        return best

    def _refine(self, room: _Room, at: dict[str, _Spot]) -> None:
        """Add to a room, for a name of two words or more kept on one row, its places with the name on two rows (as
        dear as a long name's: WRAPPED); and its cheapest places with a line across them (and the one its label stands
        in) shifted each way just far enough to clear such a line (an edge, or a neighbour's leader line where it
        stands now; by no more than REFINE_REACH). Only places inside the room's bounds (no other label's room reaches
        further)."""
        room.refined = len(room.boxes)
        here = at[room.tid]
        known = sorted((f + room.far[i], i) for i, f in enumerate(room.fixed)
                       if f is not None and f >= LINE_CROSSED and i != here.index)
        x, y = self.pos[room.tid]
        ex0, ey0, ex1, ey1 = room.extent
        seen = set(room.boxes)

        def add(rect: _Rect, rows: tuple[str, ...], far: float) -> None:
            if rect in seen or rect[0] < ex0 or rect[1] < ey0 or rect[2] > ex1 or rect[3] > ey1:
                return
            seen.add(rect)
            room.boxes.append(rect)
            room.shapes.append(rows)
            room.far.append(far)
            room.spots.append(None)
            room.fixed.append(None)
            room.low.append(0.0)

        label = self.labels[room.tid]
        wrapped = label.wrapped(0.0) if not any(room.shapes) else None
        if wrapped is not None:
            kept, label.rows = label.rows, wrapped
            for rect in self._places(room.tid, label.width, label.height, WRAPPED_GAPS):
                add(rect, wrapped, self._far_of(rect, x, y) + WRAPPED)
            label.rows = kept
        furthest = FAR_GAPS[-1] / FAR_PER
        if here.line is not None and self._misread(here.box, room.tid, here.line) or \
                here.line is None and self._misread(here.box, room.tid, None):  # read as another's: more places
            lab = self.labels[room.tid]
            w, h = lab.width, lab.height
            for gap in MORE_GAPS:
                d = self.radius + gap
                for step in range(MORE_STEPS):
                    c, sn = math.cos(step * 2 * math.pi / MORE_STEPS), math.sin(step * 2 * math.pi / MORE_STEPS)
                    bx, by = x + d * c - w * (1 - c) / 2, y + d * sn - h * (1 - sn) / 2
                    rect = (bx, by, bx + w, by + h)
                    add(rect, room.shapes[here.index], self._far_of(rect, x, y)
                        + room.far[here.index] - self._far_of(room.boxes[here.index], x, y))
        lines = [(a, b) for *_, a, b in self._bounded]
        lines += [line for line in (at[n].line for n in room.neighbours) if line is not None]
        for i in [here.index, *(i for _c, i in known[:REFINE_TRIES])]:
            bx0, by0, bx1, by1 = room.boxes[i]
            box = Box(bx0, by0, bx1, by1)
            shifts: list[tuple[float, float]] = []
            for (ax, ay), (cx, cy) in lines:
                if not box.hits_segment((ax, ay), (cx, cy)):
                    continue
                dx, dy = cx - ax, cy - ay
                if abs(dy) > 1e-9:  # sideways: past where the line meets the block's top and bottom
                    xs = [ax + dx * (yy - ay) / dy for yy in (by0, by1)]
                    shifts += [(min(xs) - bx1 - 0.5, 0.0), (max(xs) - bx0 + 0.5, 0.0)]
                if abs(dx) > 1e-9:  # up or down: past where it meets the block's sides
                    ys = [ay + dy * (xx - ax) / dx for xx in (bx0, bx1)]
                    shifts += [(0.0, min(ys) - by1 - 0.5), (0.0, max(ys) - by0 + 0.5)]
            dearer = room.far[i] - self._far_of(room.boxes[i], x, y)  # a name on two rows
            for sx, sy in shifts:
                rect = (bx0 + sx, by0 + sy, bx1 + sx, by1 + sy)
                far = self._far_of(rect, x, y)
                if abs(sx) <= REFINE_REACH and abs(sy) <= REFINE_REACH and far <= furthest:  # no longer a line
                    add(rect, room.shapes[i], far + dearer)
        room.by_far = sorted(range(len(room.boxes)), key=lambda i: (room.far[i], i))

    def _far_of(self, box: _Rect, x: float, y: float) -> float:
        """A block's distance cost from the circle at (x, y) (without what a name on two rows adds)."""
        nx = box[0] if x < box[0] else box[2] if x > box[2] else x
        ny = box[1] if y < box[1] else box[3] if y > box[3] else y
        return max(0.0, math.dist((x, y), (nx, ny)) - self.radius) / FAR_PER

    def _polish(self, order: list[Label], rooms: dict[str, _Room], at: dict[str, _Spot]) -> None:
        """The last pass, where a line across a label costs LINE_CROSSED for each word of its name it crosses and a
        label misread, overprinted, over another's circle or a title far more (`_extra`): each label that still costs
        something moves to its cheapest place, among its places and those `_refine` adds, that `_energy` counts at
        most POLISH_SLACK more than where it stands; in order, until nothing changes (a label is tried again only once
        it or a label near it has moved)."""
        dirty = {label.tid for label in order}
        for _ in range(POLISH_ROUNDS):
            moved_now: set[str] = set()
            for label in order:
                tid = label.tid
                if tid not in dirty:
                    continue
                room = rooms[tid]
                here = at[tid]
                old = self._energy(rooms, at, {tid: here})
                now = old + self._extra(rooms, at, {tid: here})
                clear = now - here.far * (1 + FAR_MORE) <= 0
                if clear and here.far < SHORTEN_FROM / FAR_PER:  # by its circle, or on a short line
                    continue
                if not room.refined:
                    self._refine(room, at)
                # a label clear of everything on a leader line: only to a place nearer its circle
                best = self._best_exact(rooms, room, at, now - 1e-9, old + (WRAPPED + 1 if clear else POLISH_SLACK))
                if best is not None:
                    at[tid] = best
                    moved_now.add(tid)
            if not moved_now:
                break
            dirty = set(moved_now)
            for t in moved_now:
                dirty.update(rooms[t].neighbours)

    def _far(self, tid: str, box: Box) -> float:
        """A small cost for a label standing away from its circle (it is drawn with a leader line)."""
        x, y = self.pos[tid]
        nx, ny = min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1)
        return max(0.0, math.dist((x, y), (nx, ny)) - self.radius) / FAR_PER

    def leader(self, tid: str) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """A line from the circle's edge to its label when the label stands away from it (else None)."""
        return self._leader_to(tid, self.labels[tid].box)

    def _leader_to(self, tid: str, box: Box) -> tuple[tuple[float, float], tuple[float, float]] | None:
        x, y = self.pos[tid]
        nx, ny = min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1)
        d = math.dist((x, y), (nx, ny))
        if d <= self.radius + LEADER_FROM:
            return None
        return (x + (nx - x) * self.radius / d, y + (ny - y) * self.radius / d), (nx, ny)

    def label_boxes(self) -> dict[str, Box]:
        """Territory id -> the box of its label block (only territories with a label)."""
        return {tid: lab.box for tid, lab in self.labels.items() if lab.name or lab.marks or lab.far}


#: Layouts kept in this process, newest last: a build draws one board on several pages, `serve` on every request
#: (0.5-2 s of CPU each, most of it placing region titles and labels).
_LAYOUTS: dict[str, BoardLayout] = {}
LAYOUTS_KEPT = 8


def layout_of(game: Game, marks: dict[str, list[str | MapMark]] | None = None, view_width: float = VIEW_WIDTH,
              compact: bool = False) -> BoardLayout:
    """`BoardLayout(game, marks, view_width, compact)`, laid out once per process for the same board, marks and
    width. Keyed by everything a layout reads (the board, its edges, territories and regions, the marks); a
    layout is never changed once made, so the same one may be drawn again."""
    import hashlib

    key = hashlib.sha256(repr((game.board, game.edges, game.section("territories"), game.section("regions"),
                               marks or {}, view_width, compact)).encode("utf-8", "surrogateescape")).hexdigest()
    found = _LAYOUTS.pop(key, None)
    if found is None:
        found = BoardLayout(game, marks, view_width, compact)
    _LAYOUTS[key] = found  # newest last
    while len(_LAYOUTS) > LAYOUTS_KEPT:
        del _LAYOUTS[next(iter(_LAYOUTS))]
    return found


def _cross(a: tuple[tuple[float, float], tuple[float, float]], b: tuple[tuple[float, float], tuple[float, float]]
           ) -> bool:
    """Do two segments cross (not merely touch at an end)?"""
    def side(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(*b, a[0]) * side(*b, a[1]) < 0 and side(*a, b[0]) * side(*a, b[1]) < 0


def _shortened(line: tuple[tuple[float, float], tuple[float, float]]) -> tuple[tuple[float, float],
                                                                                 tuple[float, float]]:
    """A leader line less its last unit: it ends on its own label's edge, which it does not cross."""
    (x1, y1), (x2, y2) = line
    length = math.dist((x1, y1), (x2, y2)) or 1.0
    return (x1, y1), (x2 - (x2 - x1) / length, y2 - (y2 - y1) / length)


def _hatch(x: float, y: float, r: float) -> str:
    """Diagonal hatching over a circle (a devastated territory), as one path (no <line>)."""
    d = []
    step = r / 2.5
    k = -2 * r
    while k <= 2 * r:
        # the line y - cy = (x - cx) + k clipped to the circle
        disc = 2 * r * r - k * k
        if disc > 0:
            root = math.sqrt(disc)
            xa, xb = (-k - root) / 2, (-k + root) / 2
            d.append(f"M{x + xa:.1f},{y + xa + k:.1f}L{x + xb:.1f},{y + xb + k:.1f}")
        k += step
    return f'<path d="{"".join(d)}" stroke="#555" stroke-width="1.3" fill="none"/>'


def mark_icon(icon: str, x: float, y: float, value: int | None = None, color: str = "#5b2a86") -> str:
    """A small icon (ICON units square, top-left at x, y) of a mark group (`icon`, compiler.words.ICONS);
    no <circle>/<line>. A house shows `value` (a size) as dots."""
    s = ICON
    if icon == "house":
        body = (f'<path d="M{x:.1f},{y + s * 0.45:.1f}L{x + s / 2:.1f},{y:.1f}L{x + s:.1f},{y + s * 0.45:.1f}'
                f'V{y + s:.1f}H{x:.1f}Z" fill="{color}"/>')
        dots = min(value or 1, 5)
        for i in range(dots):
            body += (f'<rect x="{x + 1 + i * (s - 2) / max(dots, 1):.1f}" y="{y + s * 0.62:.1f}" width="1.4" '
                     f'height="1.4" fill="white"/>')
        return body
    if icon == "slash":
        return (f'<path d="M{x:.1f},{y + s:.1f}L{x + s * 0.35:.1f},{y + s * 0.45:.1f}L{x + s * 0.6:.1f},'
                f'{y + s * 0.6:.1f}L{x + s:.1f},{y:.1f}" stroke="{color}" stroke-width="2" fill="none"/>')
    if icon == "tower":
        return (f'<path d="M{x:.1f},{y:.1f}h2v2h1.5v-2h2v2h1.5v-2h2V{y + s:.1f}H{x:.1f}Z" fill="{color}"/>')
    if icon == "hatched":
        return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{s}" height="{s}" fill="white" stroke="{color}"/>'
                f'<path d="M{x:.1f},{y + s / 2:.1f}L{x + s / 2:.1f},{y:.1f}M{x:.1f},{y + s:.1f}L{x + s:.1f},{y:.1f}'
                f'M{x + s / 2:.1f},{y + s:.1f}L{x + s:.1f},{y + s / 2:.1f}" stroke="{color}"/>')
    if icon == "cross":
        return (f'<path d="M{x + 1:.1f},{y + 1:.1f}L{x + s - 1:.1f},{y + s - 1:.1f}M{x + s - 1:.1f},{y + 1:.1f}'
                f'L{x + 1:.1f},{y + s - 1:.1f}" stroke="{color}" stroke-width="2.2"/>')
    if icon == "square":
        return f'<rect x="{x + 0.5:.1f}" y="{y + 0.5:.1f}" width="{s - 1:.1f}" height="{s - 1:.1f}" fill="{color}"/>'
    if icon == "circle":
        r = s / 2
        return (f'<path d="M{x:.1f},{y + r:.1f}a{r:.1f},{r:.1f} 0 1,0 {s:.1f},0a{r:.1f},{r:.1f} 0 1,0 -{s:.1f},0Z" '
                f'fill="{color}"/>')
    if icon == "triangle":
        return f'<path d="M{x + s / 2:.1f},{y:.1f}L{x + s:.1f},{y + s:.1f}H{x:.1f}Z" fill="{color}"/>'
    if icon == "star":
        pts = []
        for i in range(10):
            rad = s / 2 if i % 2 == 0 else s / 5
            ang = -math.pi / 2 + i * math.pi / 5
            pts.append(f"{x + s / 2 + rad * math.cos(ang):.1f},{y + s / 2 + rad * math.sin(ang):.1f}")
        return f'<path d="M{"L".join(pts)}Z" fill="{color}"/>'
    return (f'<path d="M{x + s / 2:.1f},{y:.1f}L{x + s:.1f},{y + s / 2:.1f}L{x + s / 2:.1f},{y + s:.1f}'
            f'L{x:.1f},{y + s / 2:.1f}Z" fill="{color}"/>')  # a diamond badge


def badge_url(icon: str, color: str = "#5b2a86") -> str:
    """The icon of a mark group as a small self-contained SVG (a data: URL), for a printed card."""
    import base64

    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 {ICON + 2:.0f} {ICON + 2:.0f}">'
           f"{mark_icon(icon, 0, 0, 2 if icon == 'house' else None, color)}</svg>")
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def card_stickers(game: Game, card: dict) -> list[dict[str, str]]:
    """What a card shows of the stickers it names (`stickers`): icon, printed name, effect; each sticker once,
    only those the game shows (a sealed one is out of the effective content until its packet is opened)."""
    from scarbook.compiler.words import group_of, mark_groups

    stickers = game.section("stickers")
    groups = mark_groups(game)
    out = []
    for sid in card.get("stickers") or []:
        st = stickers.get(sid) if isinstance(sid, str) else None
        if st is None:
            continue
        effect = known(st.get("effect"), "") or known(st.get("text"), "")
        group = group_of(groups, sid, st)
        out.append({"id": sid, "name": _label(st, sid), "effect": str(effect).strip(), "kind": group.id,
                    "icon": badge_url(group.icon, group.color)})
    return out


#: The smallest text of the picture (codes, marks) in view units, and the size it must print at: 6 pt at 100 %.
SMALLEST_TEXT = 8.5
MIN_PRINTED_PT = 6.2


def view_width_for(game: Game, width_mm: float, max_height_mm: float | None = None) -> float:
    """The view width that prints the board's smallest text at MIN_PRINTED_PT or more when the picture is
    printed `width_mm` wide (narrower when its height is capped at `max_height_mm`): a narrow page gets a
    narrower view, so the text keeps its printed size and the territories stand closer together."""
    board_w, board_h = _board_size(game)
    printed = width_mm if max_height_mm is None else min(width_mm, max_height_mm * board_w / board_h)
    return min(VIEW_WIDTH, printed * SMALLEST_TEXT / (MIN_PRINTED_PT * 25.4 / 72))


def board_svg(game: Game, marks: dict[str, list[str | MapMark]] | None = None, legend_kinds: bool = False,
              view_width: float = VIEW_WIDTH, compact: bool = False) -> str:
    """The board as a standalone SVG document (a string).

    `marks` maps a territory id to what to draw in it (plain strings are generic badges);
    `legend_kinds` adds a strip under the board explaining the mark icons used and the regions;
    `view_width` (view_width_for) keeps the text readable where the picture prints narrow; `compact` draws a
    territory's marks as one row of icons without their texts (a legend beside the picture keys the icons).
    """
    lay = layout_of(game, effective_marks(game) if marks is None else marks, view_width, compact)
    colors = region_colors(game)
    territories = game.section("territories")
    used: dict[str, MapMark] = {}  # group id -> a mark of it (its icon, colour, legend), in order of first use
    for lab in sorted(lay.labels.values(), key=lambda lab: lab.tid):
        for m in lab.marks:
            used.setdefault(m.kind, m)
    chosen = drawing_choices(game)
    keys = _legend_rows(game, lay, list(used.values())) if legend_kinds else []
    strip = (8.0 + 14.0 * len(keys) + (14.0 if chosen else 0.0)) if legend_kinds else 0.0
    total_h = lay.view_h + strip
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {lay.width:.0f} {total_h:.0f}" '
        f'width="{lay.width:.0f}" height="{total_h:.0f}" font-family="Sheet Sans, DejaVu Sans, sans-serif">',
        f'<rect x="0" y="0" width="{lay.width:.0f}" height="{lay.view_h:.0f}" fill="#fbfaf6" stroke="#888"/>',
    ]
    for kind, (x1, y1), (x2, y2), style in lay.segments:
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#777" '
                   f'stroke-width="1.5"{EDGE_STYLE.get(style, "")}/>')
        if kind == "wrap":  # an arrowhead where the edge leaves the board
            direction = 1 if x2 > x1 else -1
            tip = x2 - direction * 1
            out.append(f'<path d="M{tip:.1f},{y2:.1f}L{tip - direction * 8:.1f},{y2 - 4:.1f}'
                       f'L{tip - direction * 8:.1f},{y2 + 4:.1f}Z" fill="#777"/>')
    r = lay.radius
    for tid, terr in territories.items():
        if tid not in lay.pos:
            continue
        x, y = lay.pos[tid]
        regions = [rg for rg in terr.get("regions", []) if isinstance(rg, str)]
        fill = colors.get(regions[0], NO_REGION) if regions else NO_REGION
        stroke = colors.get(regions[1], "#444") if len(regions) > 1 else "#444"
        stroke_w = 4 if len(regions) > 1 else 1.2
        dashed = ' stroke-dasharray="4 3"' if tid in chosen else ""  # placed by the drawing, not by a source
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{stroke_w}"{dashed}/>')
        label = lay.labels[tid]
        if any(m.icon == "hatched" for m in label.marks):
            out.append(_hatch(x, y, r))
        code = terr.get("code")
        if code:
            size = CODE_SIZE if label.name else max(SMALLEST_TEXT,
                                                    min(9.0, 2 * r * 0.9 / max(1, len(str(code)) * 0.62)))
            if any(m.icon == "hatched" for m in label.marks):  # keep the code readable over the hatching
                w = text_width(str(code), size, True)
                out.append(f'<rect x="{x - w / 2:.1f}" y="{y - size * 0.6:.1f}" width="{w:.1f}" '
                           f'height="{size * 1.2:.1f}" fill="#fbfaf6" opacity="0.9"/>')
            out.append(f'<text x="{x:.1f}" y="{y + size * 0.36:.1f}" font-size="{size:.1f}" text-anchor="middle" '
                       f'font-weight="bold">{escape(str(code))}</text>')
        box = label.box
        lead = lay.leader(tid) if (label.name or label.marks or label.far) else None
        if lead is not None:
            (lx1, ly1), (lx2, ly2) = lead
            out.append(f'<path d="M{lx1:.1f},{ly1:.1f}L{lx2:.1f},{ly2:.1f}" stroke="#999" stroke-width="0.7"/>')
        row = box.y0
        for text in label.name_rows():
            out.append(f'<text x="{(box.x0 + box.x1) / 2:.1f}" y="{row + LABEL_SIZE * 0.9:.1f}" '
                       f'font-size="{LABEL_SIZE:.0f}" text-anchor="middle" fill="#222">{escape(text)}</text>')
            row += LABEL_SIZE + 2
        if compact and label.marks:
            left = (box.x0 + box.x1) / 2 - len(label.marks) * (ICON + 1) / 2
            for i, mark in enumerate(label.marks):
                out.append(mark_icon(mark.icon, left + i * (ICON + 1), row + 0.5, mark.value, mark.color))
            row += ICON + 2
        for mark in [] if compact else label.marks:
            left = (box.x0 + box.x1) / 2 - _mark_width(mark) / 2
            out.append(mark_icon(mark.icon, left, row + 0.5, mark.value, mark.color))
            text = _mark_text(mark)
            if text:
                out.append(f'<text x="{left + ICON + 2:.1f}" y="{row + ICON - 0.5:.1f}" font-size="{MARK_SIZE}" '
                           f'font-weight="bold" fill="{mark.color}">{escape(text)}</text>')
            row += ICON + 2
        if label.far:  # where its long edges lead (drawn as stubs)
            out.append(f'<text x="{(box.x0 + box.x1) / 2:.1f}" y="{row + MARK_SIZE * 0.9:.1f}" font-size="{MARK_SIZE}" '
                       f'text-anchor="middle" fill="#555">{escape(label.far)}</text>')
    for i, (text, rx, ry, _box) in enumerate(lay.titles):
        size = lay.title_sizes[i]
        out.append(f'<text x="{rx:.1f}" y="{ry:.1f}" font-size="{size:g}" text-anchor="middle" '
                   f'font-weight="bold" fill="#555" font-style="italic">{escape(text)}</text>')
    if legend_kinds:
        y = lay.view_h + 7 - 14
        for line in keys:
            x, y = 6.0, y + 14
            for kind, payload, text in line:
                if isinstance(payload, MapMark):
                    out.append(mark_icon(payload.icon, x, y, 2 if payload.icon == "house" else None, payload.color))
                elif kind == "region":
                    out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{ICON}" height="{ICON}" fill="{payload}" '
                               f'stroke="#444" stroke-width="0.6"/>')
                else:  # the wrap arrow
                    out.append(f'<path d="M{x:.1f},{y + ICON / 2:.1f}h6" stroke="#777" stroke-width="1.5"/>'
                               f'<path d="M{x + ICON:.1f},{y + ICON / 2:.1f}l-5,-3.5v7Z" fill="#777"/>')
                out.append(f'<text x="{x + ICON + 3:.1f}" y="{y + ICON - 1:.1f}" font-size="{LEGEND_SIZE}" '
                           f'fill="#222">{escape(text)}</text>')
                x += ICON + 14 + text_width(text, LEGEND_SIZE)
        if chosen:  # on a line of its own under the icons
            x, y = 6.0, y + 14
            names = ", ".join(_label(territories[t], t) for t in chosen)
            note = f"{names}: no source gives {'its' if len(chosen) == 1 else 'their'} place; drawn where there is room"
            out.append(f'<circle cx="{x + ICON / 2:.1f}" cy="{y + ICON / 2:.1f}" r="{ICON / 2:.1f}" fill="none" '
                       f'stroke="#444" stroke-dasharray="3 2"/>')
            out.append(f'<text x="{x + ICON + 3:.1f}" y="{y + ICON - 1:.1f}" font-size="9" fill="#222">'
                       f'{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out)


LEGEND_SIZE = 9.0


def _legend_rows(game: Game, lay: BoardLayout, used: list[MapMark]) -> list[list[tuple[str, object, str]]]:
    """The legend's entries, wrapped into rows that fit the board's width: the mark groups' icons used,
    the edge that wraps round the board, then each region's colour with its name (as it stands now)."""
    entries: list[tuple[str, object, str]] = [("mark", m, m.legend) for m in used]
    if any(kind == "wrap" for kind, *_ in lay.segments):
        entries.append(("wrap", None, "leaves one side, enters the other"))
    entries += [("region", colour, label) for colour, label in legend(game)]
    rows: list[list[tuple[str, object, str]]] = [[]]
    x = 6.0
    for entry in entries:
        width = ICON + 14 + text_width(entry[2], LEGEND_SIZE)
        if rows[-1] and x + width > lay.width - 6:
            rows.append([])
            x = 6.0
        rows[-1].append(entry)
        x += width
    return [r for r in rows if r]


def effective_marks(game: Game) -> dict[str, list[str | MapMark]]:
    """The marks a campaign left on the territories of its effective game (`build --campaign`): each in its
    mark group's icon; a destroyed card as a cross. Empty for a game as printed."""
    from scarbook.compiler.words import group_of, mark_groups

    groups = mark_groups(game)
    stickers = game.section("stickers")
    out: dict[str, list[str | MapMark]] = {}
    for tid, terr in game.section("territories").items():
        for m in as_list(terr.get("marks")):
            if not isinstance(m, dict) or not isinstance(m.get("sticker"), str):
                continue
            st = stickers.get(m["sticker"], {})
            group = group_of(groups, m["sticker"], st)
            if not group.board:
                continue
            founds = st.get("founds") if isinstance(st.get("founds"), dict) else {}
            size = founds.get("population") if founds else None
            label = short_label(_label(st, m["sticker"]), group.word.one)
            value = size if isinstance(size, int) else m.get("boxes_left") if m.get("boxes") else None
            out.setdefault(tid, []).append(MapMark(group.id, "" if m.get("boxes") else str(m.get("name") or label),
                                                   value, m.get("boxes"), group.icon, group.color, group.legend_text))
    for card in game.section("cards").values():
        if card.get("destroyed") and card.get("territory") in game.section("territories"):
            out.setdefault(card["territory"], []).append(DESTROYED)
    return out


def short_label(name: str, group_word: str) -> str:
    """A sticker's printed name without its group's word at the end ('Kai Weller warlord sticker' in the group
    'warlord sticker' -> 'Kai Weller'), and without a trailing 'sticker': the legend says what the icon is."""
    import re

    for tail in (group_word, "sticker"):
        shorter = re.sub(rf"\s+{re.escape(tail)}$", "", name, flags=re.IGNORECASE)
        if shorter and shorter != name:
            name = shorter
    return name


def drawing_choices(game: Game) -> list[str]:
    """Territories whose position no source gives: the drawing placed them (`layout.drawing_choice`)."""
    return [tid for tid, terr in game.section("territories").items()
            if isinstance(terr.get("layout"), dict) and terr["layout"].get("drawing_choice")]


def mark_legend(marks: dict[str, list[MapMark]]) -> list[tuple[str, str]]:
    """(icon as a data: URL, what it means) of each mark group drawn, in order of first use: the key of a
    compact board (board_svg(compact=True))."""
    seen: dict[tuple[str, str, str], None] = {}
    for tid in sorted(marks):
        for m in marks[tid]:
            seen.setdefault((m.icon, m.color, m.legend), None)
    return [(badge_url(icon, color), text) for icon, color, text in seen]


def legend(game: Game) -> list[tuple[str, str]]:
    """(colour, region label) pairs, in region order: for a legend beside the map."""
    colors = region_colors(game)
    return [(colors[rid], _label(r, rid)) for rid, r in game.section("regions").items()]



#: Width of the locator map in its own view units (its height follows the board's proportions).
LOCATOR_WIDTH = 200.0


def locator_spots(game: Game) -> dict[str, tuple[float, float]]:
    """Where each territory sits on the locator map, in percent of its width and height (for the
    highlight a territory card draws over the shared map)."""
    width, height = _board_size(game)
    return {tid: (round(100 * x / width, 2), round(100 * y / height, 2)) for tid, (x, y) in positions(game).items()}


def locator_svg(game: Game) -> str:
    """The board in miniature for the territory cards: one dot per territory in its region's colour
    and the edges as hairlines, no text. One picture per game: every card shows the same one and
    draws its own highlight over it (`locator_spots`), so a deck of cards costs one picture."""
    width, height = _board_size(game)
    scale = LOCATOR_WIDTH / width
    view_h = height * scale
    pos = {tid: (x * scale, y * scale) for tid, (x, y) in positions(game).items()}
    colors = region_colors(game)
    territories = game.section("territories")
    r = max(1.6, min(4.0, 60.0 / max(1.0, math.sqrt(len(territories) or 1))))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {LOCATOR_WIDTH:.0f} {view_h:.1f}" '
           f'width="{LOCATOR_WIDTH:.0f}" height="{view_h:.1f}">',
           f'<rect x="0" y="0" width="{LOCATOR_WIDTH:.0f}" height="{view_h:.1f}" fill="#f4f1e6"/>']
    seen: set[frozenset[str]] = set()
    lines = []
    listed = [(a, b, "") for a, ns in game.neighbors().items() for b in ns]
    for a, b, _kind in [*game.edges, *listed]:
        key = frozenset((a, b))
        if a not in pos or b not in pos or key in seen or a == b:
            continue
        seen.add(key)
        (x1, y1), (x2, y2) = pos[a], pos[b]
        if abs(x1 - x2) > LOCATOR_WIDTH / 2:  # wraps round the board: not drawn across it
            continue
        lines.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
    if lines:
        out.append(f'<path d="{"".join(lines)}" stroke="#aaa" stroke-width="0.6" fill="none"/>')
    for tid, terr in territories.items():
        if tid not in pos:
            continue
        regions = [rg for rg in terr.get("regions", []) if isinstance(rg, str)]
        fill = colors.get(regions[0], NO_REGION) if regions else NO_REGION
        x, y = pos[tid]
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="#777" stroke-width="0.4"/>')
    out.append("</svg>")
    return "".join(out)


def bonuses_shown(game: Game) -> bool:
    """Whether the board names its regions' bonuses: not in a game whose every region is printed with bonus 0
    (a game without region bonuses says 0 for each)."""
    return any(known(r.get("bonus")) != 0 for r in game.section("regions").values())
