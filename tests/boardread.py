"""Read a board picture (`compiler.boardmap.board_svg`) back as what a player sees, one territory at a time.

The SVG is a flat list of shapes; `read_board(svg)` walks it in order (each territory is drawn as its circle, then
its hatching, its code, a leader line, its name, and one icon (and text) per mark, then its far-neighbour note;
then the region titles; then the legend under the board) and `board_text` writes it as a stable, readable text
for a golden file: positions rounded to whole units, every icon named by its shape.

Icons are named from the letters of their path (a table written here by hand, not taken from boardmap.py), so a
changed icon reads as `?` followed by its path's letters and shows in the diff.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

SVG = "{http://www.w3.org/2000/svg}"

#: The command letters of an icon's path -> the icon's name (one path per icon; see ICON_PARTS for the others).
PATH_ICONS = {
    "MLLVHZ": "house",
    "MLLL": "slash",  # a stroked zig-zag, not filled
    "MhvhvhvhvhVHZ": "tower",
    "MLML": "cross",
    "MaaZ": "circle",
    "MLHZ": "triangle",
    "MLLLLLLLLLZ": "star",
    "MLLLZ": "diamond",
}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def letters(d: str) -> str:
    return "".join(re.findall(r"[A-Za-z]", d))


def path_box(d: str) -> tuple[float, float, float, float]:
    """The box of a path's end points (absolute M L H V, relative h v a, as boardmap writes them)."""
    xs: list[float] = []
    ys: list[float] = []
    x = y = 0.0
    for cmd, args in re.findall(r"([A-Za-z])([^A-Za-z]*)", d):
        nums = [float(n) for n in NUMBER.findall(args)]
        if cmd in "ML":
            for i in range(0, len(nums) - 1, 2):
                x, y = nums[i], nums[i + 1]
                xs.append(x)
                ys.append(y)
        elif cmd == "H":
            x = nums[0]
        elif cmd == "V":
            y = nums[0]
        elif cmd == "h":
            x += nums[0]
        elif cmd == "v":
            y += nums[0]
        elif cmd == "l":
            for i in range(0, len(nums) - 1, 2):
                x, y = x + nums[i], y + nums[i + 1]
                xs.append(x)
                ys.append(y)
        elif cmd == "a":  # rx ry rotation large sweep dx dy: the end, and the half circle's top and bottom
            cx, cy = x + nums[5] / 2, y + nums[6] / 2
            x, y = x + nums[5], y + nums[6]
            xs += [cx, cx]
            ys += [cy - nums[1], cy + nums[1]]
        else:
            continue
        xs.append(x)
        ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


def _f(el: ET.Element, name: str) -> float:
    return float(el.get(name, "0"))


def _r(v: float) -> int:
    return round(v)


@dataclass
class Mark:
    icon: str
    color: str
    at: tuple[float, float]  # the icon's top left
    size: tuple[float, float]
    dots: int = 0
    text: str = ""
    text_at: tuple[float, float] | None = None

    def line(self) -> str:
        dots = f" with {self.dots} dot{'s' if self.dots != 1 else ''}" if self.icon == "house" else ""
        shown = f' "{self.text}"' if self.text else ""
        w, h = self.size  # an icon is 9 units square, give or take the rounding of a star's points
        size = "" if 7.5 <= w <= 9.5 and 7.5 <= h <= 9.5 else f" ({w:.1f}x{h:.1f})"
        placed = f" at {_r(self.at[0])},{_r(self.at[1])}{size}"
        gap = "" if self.text_at is None else \
            f", text {self.text_at[0] - self.at[0]:+.0f},{self.text_at[1] - self.at[1]:+.0f}"
        return f"{self.icon}{dots} {self.color}{shown}{placed}{gap}"


@dataclass
class Territory:
    """One territory as drawn: its circle, what is printed in and beside it, and its marks in order."""

    circle: tuple[int, int, int]
    fill: str
    stroke: str
    stroke_width: str
    dashed: bool = False
    hatched: bool = False
    code: str = ""
    code_size: str = ""
    code_backed: bool = False
    name: str = ""
    name_at: tuple[int, int] | None = None
    leader: tuple[int, int, int, int] | None = None
    marks: list[Mark] = field(default_factory=list)
    far: str = ""
    far_at: tuple[int, int] | None = None

    @property
    def title(self) -> str:
        return self.name or self.code

    def lines(self) -> list[str]:
        x, y, r = self.circle
        ring = f", ring {self.stroke} {self.stroke_width}" if self.stroke != "#444" else ""
        head = f"{self.title}: circle {x},{y} r{r} {self.fill}{ring}"
        head += " dashed (placed by the drawing)" if self.dashed else ""
        head += " hatched" if self.hatched else ""
        out = [head]
        if self.code and self.name:
            out.append(f"  code {self.code} ({self.code_size})")
        elif self.code:
            out.append(f"  code in the circle ({self.code_size}{', on a backing' if self.code_backed else ''})")
        if self.name_at is not None:
            out.append(f"  name at {self.name_at[0]},{self.name_at[1]}")
        if self.leader is not None:
            out.append("  leader {},{} -> {},{}".format(*self.leader))
        out += [f"  mark {m.line()}" for m in self.marks]
        if self.far:
            out.append(f"  note \"{self.far}\" at {self.far_at[0]},{self.far_at[1]}" if self.far_at else "")
        return out


@dataclass
class Board:
    width: int
    height: int
    board_height: int
    lines: int = 0
    dashed_lines: dict[str, int] = field(default_factory=dict)
    arrows: int = 0
    territories: list[Territory] = field(default_factory=list)
    titles: list[tuple[str, int, int]] = field(default_factory=list)
    legend: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # shapes this reader does not know (shown in the text)

    def territory(self, title: str) -> Territory:
        found = [t for t in self.territories if t.title == title]
        assert len(found) == 1, (title, [t.title for t in self.territories])
        return found[0]


def _icon(els: list[ET.Element]) -> tuple[str, str, tuple[float, float, float, float], int]:
    """(name, colour, box, dots) of the shapes of one icon."""
    first = els[0]
    tag = first.tag.removeprefix(SVG)
    if tag == "rect":
        x, y = _f(first, "x"), _f(first, "y")
        box = (x, y, x + _f(first, "width"), y + _f(first, "height"))
        if first.get("fill") == "white" and len(els) == 2:
            return "hatched", first.get("stroke", "?"), box, 0
        return ("square" if len(els) == 1 else "?rect+" + str(len(els) - 1)), first.get("fill", "?"), box, 0
    d = first.get("d", "")
    name = PATH_ICONS.get(letters(d), "?" + letters(d))
    color = first.get("fill") if first.get("fill") not in (None, "none") else first.get("stroke", "?")
    if name == "slash" and first.get("fill") != "none":
        name = "?filled-slash"
    dots = sum(1 for e in els[1:] if e.tag == f"{SVG}rect" and e.get("fill") == "white")
    if len(els) - 1 != dots:
        name += f"+{len(els) - 1 - dots}"
    return name, str(color), path_box(d), dots


def read_board(svg: str) -> Board:
    root = ET.fromstring(svg)
    width, height = (int(float(v)) for v in root.get("viewBox", "0 0 0 0").split()[2:])
    children = list(root)
    background = children[0]
    board_h = _r(_f(background, "height"))
    board = Board(width, height, board_h)
    current: Territory | None = None
    pending: list[ET.Element] = []  # the shapes of the icon being read

    def top(el: ET.Element) -> float:
        if el.tag == f"{SVG}path":
            return path_box(el.get("d", ""))[1]
        if el.tag == f"{SVG}circle":
            return _f(el, "cy")
        return _f(el, "y")

    def flush(text: ET.Element | None = None) -> None:
        if not pending:
            return
        name, color, box, dots = _icon(pending)
        target = current.marks if current is not None else None
        mark = Mark(name, color, (box[0], box[1]), (box[2] - box[0], box[3] - box[1]), dots)
        if text is not None:
            mark.text = text.text or ""
            mark.text_at = (_f(text, "x"), _f(text, "y"))
            if text.get("fill") != color:
                mark.text += f" (in {text.get('fill')})"
        if target is None:
            board.unread.append(f"icon outside a territory: {mark.line()}")
        else:
            target.append(mark)
        pending.clear()

    legend_icon: list[str] = []
    legend_dots = 0
    for el in children[1:]:
        tag = el.tag.removeprefix(SVG)
        if top(el) >= board_h - 0.01 and tag != "line":  # under the board: the legend strip
            flush()
            current = None
            if tag == "text":
                if legend_dots:
                    legend_icon[-1] += f" with {legend_dots} dot{'s' if legend_dots != 1 else ''}"
                    legend_dots = 0
                board.legend.append(f"{' '.join(legend_icon) or '?'} \"{el.text}\" at {_r(_f(el, 'x'))},"
                                    f"{_r(_f(el, 'y'))}")
                legend_icon = []
            elif tag == "rect" and el.get("stroke-width") == "0.6":
                legend_icon.append(f"swatch {el.get('fill')}")
            elif tag == "circle":
                legend_icon.append("dashed circle" if el.get("stroke-dasharray") else "?circle")
            elif tag == "path" and el.get("stroke") == "#777" and letters(el.get("d", "")) == "Mh":
                legend_icon.append("arrow")
            elif tag == "path" and el.get("fill") == "#777" and legend_icon == ["arrow"]:
                legend_icon[-1] = "arrow with head"
            else:
                if tag == "rect" and el.get("fill") == "white" and legend_icon and legend_icon[-1].startswith("house"):
                    legend_dots += 1
                    continue
                if tag == "path" and legend_icon and legend_icon[-1].startswith("hatched"):
                    continue
                if tag == "rect" and el.get("fill") == "white":
                    legend_icon.append(f"hatched {el.get('stroke')}")
                    continue
                name, color, _box, _dots = _icon([el])
                legend_icon.append(f"{name} {color}")
            continue
        if tag == "line":
            board.lines += 1
            dash = el.get("stroke-dasharray") or "solid"
            board.dashed_lines[dash] = board.dashed_lines.get(dash, 0) + 1
            continue
        if tag == "path" and el.get("fill") == "#777" and current is None:
            board.arrows += 1
            continue
        if tag == "circle":
            flush()
            current = Territory((_r(_f(el, "cx")), _r(_f(el, "cy")), _r(_f(el, "r"))), el.get("fill", ""),
                                el.get("stroke", ""), el.get("stroke-width", ""), bool(el.get("stroke-dasharray")))
            board.territories.append(current)
            continue
        if tag == "text" and el.get("font-size") == "15":
            flush()
            current = None
            board.titles.append((el.text or "", _r(_f(el, "x")), _r(_f(el, "y"))))
            continue
        if current is None:
            board.unread.append(f"{tag} {el.attrib}")
            continue
        if tag == "path" and el.get("stroke") == "#555" and el.get("fill") == "none" and not pending:
            current.hatched = True
        elif tag == "rect" and el.get("opacity"):
            current.code_backed = True
        elif tag == "path" and el.get("stroke") == "#999":
            nums = [float(n) for n in NUMBER.findall(el.get("d", ""))]
            current.leader = (_r(nums[0]), _r(nums[1]), _r(nums[2]), _r(nums[3]))
        elif tag == "text" and el.get("text-anchor") == "middle" and el.get("font-weight") == "bold":
            current.code, current.code_size = el.text or "", el.get("font-size", "")
        elif tag == "text" and el.get("fill") == "#222" and current.name:  # the name's second row
            current.name += f" / {el.text or ''}"
        elif tag == "text" and el.get("fill") == "#222":
            current.name = el.text or ""
            current.name_at = (_r(_f(el, "x")), _r(_f(el, "y")))
        elif tag == "text" and el.get("fill") == "#555":
            flush()
            current.far, current.far_at = el.text or "", (_r(_f(el, "x")), _r(_f(el, "y")))
        elif tag == "text":  # a mark's text, after its icon
            if pending:
                flush(el)
            else:
                board.unread.append(f"text without an icon in {current.title}: {el.text}")
        elif tag == "rect" and el.get("fill") == "white" and pending and pending[0].tag == f"{SVG}path":
            pending.append(el)  # a house's dot
        elif tag == "path" and pending and pending[0].tag == f"{SVG}rect" and pending[0].get("fill") == "white" \
                and len(pending) == 1:
            pending.append(el)  # the hatched icon's stripes
        else:
            flush()
            pending.append(el)
    flush()
    return board


def board_text(svg: str, notes: dict[str, list[str]] | None = None) -> str:
    """The board as readable lines: size, edges, each territory with its marks, region titles, legend.
    `notes` adds lines under a territory (by its printed name or code), such as the marks not drawn."""
    board = read_board(svg)
    notes = dict(notes or {})
    styles = ", ".join(f"{n} {k if k == 'solid' else 'dashed ' + k}" for k, n in sorted(board.dashed_lines.items()))
    out = [f"picture {board.width}x{board.height}, board {board.width}x{board.board_height}",
           f"edges: {board.lines} lines ({styles}), {board.arrows} arrowheads", ""]
    for terr in board.territories:
        out += terr.lines()
        out += [f"  {line}" for line in notes.pop(terr.title, [])]
    for title, lines in notes.items():
        out += [f"{title}: NOT ON THE BOARD", *[f"  {line}" for line in lines]]
    out += ["", "region titles:"] + [f"  {t} at {x},{y}" for t, x, y in board.titles]
    out += ["", "legend:"] + [f"  {line}" for line in board.legend]
    if board.unread:
        out += ["", "not understood:"] + [f"  {u}" for u in board.unread]
    return "\n".join(out) + "\n"
