"""Jinja2 templates to HTML: reference sheets, card sheets, sticker sheets.

One environment with autoescape on for every template and `StrictUndefined`, so content text is
always escaped and a missing value fails the build instead of printing an empty cell. The view
models handed to templates are built here from pure data (`compiler.tables`, `compiler.sheets`);
templates never compute game data. Jinja2 is imported inside functions only.
"""

from __future__ import annotations

import base64
import re
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from scarbook.compiler.model import Game, is_unknown
from scarbook.compiler.sheets import PAPER_MM, Sheet, distinct_pages
from scarbook.compiler.tables import (
    GAPS_COMMAND,
    GAPS_HINT,
    LOW_CONFIDENCE_NOTE,
    Table,
    all_unknown,
    board_low_confidence,
    cell_text,
    copied_from,
    unknown_reasons,
    where_listed,
)

#: More columns than this are printed as records (one block per row), however short their texts.
MAX_COLUMNS = 8
PAPER_CSS = {"a4": "A4", "letter": "letter"}
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}")


def css_string(value: Any) -> Any:
    """A CSS string literal with every non-alphanumeric character escaped (safe in a <style>)."""
    from markupsafe import Markup

    text = "".join(ch if ch.isalnum() or ch == " " else f"\\{ord(ch):x} " for ch in str(value))
    return Markup(f'"{text}"')


def _bytecode_cache(options: dict[str, Any]) -> Any:
    """Compiled templates kept in the cache folder (`templates/`), so that a render does not compile its
    template again (about 15 ms of CPU for the card sheets). Jinja2 stores with each one the checksum of
    its template's source and compiles again when it differs; the file names carry Jinja2's version and
    the environment's options, which change the compiled code too. The cache is never needed: a
    folder that cannot be read or written only means compiling. A compiled template is code (Jinja2 loads it
    with `marshal`): it is loaded only from the user's own regular file that nobody else may write, opened
    without following a symlink or blocking (`scarbook.kernel.trust`); anything else is compiled again."""
    import contextlib
    import hashlib
    import os

    import jinja2
    from jinja2 import FileSystemBytecodeCache

    from scarbook.kernel.cachedir import cache_dir

    class Kept(FileSystemBytecodeCache):
        def load_bytecode(self, bucket: Any) -> None:
            from scarbook.kernel.trust import open_trusted

            try:
                fd = open_trusted(self._get_cache_filename(bucket))
            except OSError:
                return
            with contextlib.suppress(OSError, ValueError, EOFError, TypeError), os.fdopen(fd, "rb") as f:
                bucket.load_bytecode(f)

        def dump_bytecode(self, bucket: Any) -> None:
            from scarbook.kernel.cachedir import cache_stored

            with contextlib.suppress(OSError):
                os.makedirs(self.directory, exist_ok=True)
                super().dump_bytecode(bucket)
                cache_stored(Path(self._get_cache_filename(bucket)))  # within the cache folder's cap

    key = hashlib.sha256(repr((jinja2.__version__, sorted(options.items()))).encode()).hexdigest()[:12]
    return Kept(str(cache_dir() / "templates"), f"{key}-%s.jinja")


@lru_cache(maxsize=1)
def environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    from scarbook.compiler.aid import value_list
    from scarbook.templates import TEMPLATE_DIR

    options: dict[str, Any] = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True}
    env = Environment(loader=FileSystemLoader(str(TEMPLATE_DIR)), undefined=StrictUndefined,
                      bytecode_cache=_bytecode_cache(options), **options)
    env.filters["mm"] = lambda v: f"{float(v):.2f}mm"
    env.filters["mm_line"] = lambda v: f"{max(float(v), 0.2):.2f}mm"
    env.filters["css_string"] = css_string
    env.tests["value_list"] = value_list  # aid.html.j2: a short value list kept on one line
    return env


def _cells(table: Table, unknowns: list[str]) -> list[list[dict[str, Any]]]:
    rows: list[list[dict[str, Any]]] = []
    for row in table.rows:
        cells = []
        for value in row:
            if is_unknown(value):
                if value["unknown"] not in unknowns:
                    unknowns.append(value["unknown"])
                cells.append({"unknown": True, "note": unknowns.index(value["unknown"]) + 1, "text": "?", "cls": ""})
            else:
                text = cell_text(value)
                cls = "num" if isinstance(value, int | float) and not isinstance(value, bool) else ""
                cells.append({"unknown": False, "note": 0, "text": text, "cls": cls})
        rows.append(cells)
    return rows


def layout_of(table: Table, rows: list[list[dict[str, Any]]]) -> str:
    """How a table is printed so that it fits the page: `grid` (a table), `records` (one block per row, for
    a table too wide for the page), `list` (one column: its values in a line), `gap` (every cell unknown
    or empty: one line saying what is unknown, `tables.unknown_line`) or `note` (one row that says nothing but
    what is unknown beside its name)."""
    if all_unknown(table):
        return "gap"
    if len(table.columns) == 1:
        return "list"
    if len(rows) == 1 and all(c["unknown"] or not c["text"] for c in rows[0][1:]):
        return "note"
    least = [min(_longest_word(table, rows, i) + 2.5, 30.0) for i in range(len(table.columns))]
    if len(table.columns) > MAX_COLUMNS or sum(least) > TABLE_CHARS:
        return "records"
    return "grid"


def _longest_word(table: Table, rows: list[list[dict[str, Any]]], i: int) -> float:
    words = [1.2 * len(w) for w in table.columns[i].title.split()]  # the header is bold
    words += [float(len(w)) for r in rows if i < len(r) for w in r[i]["text"].split()]
    return max(words, default=1.0)


def table_parts(table: Table, same_as: list[tuple[str, str, str]] | None = None) -> list[dict[str, Any]]:
    """A table ready to print (one part): its cells, its layout (`layout_of`), the column widths of a grid.
    `same_as` (the title and id of each table that prints the same list in full, and 'above' or 'below':
    `tables.copied_from`) makes it a line pointing there; a table whose cells are all unknown is the line
    saying what is unknown (`tables.unknown_line`)."""
    from markupsafe import Markup

    unknowns: list[str] = []
    rows = _cells(table, unknowns)
    layout = layout_of(table, rows)
    if layout == "gap" or same_as:
        unknowns = []  # said in the line itself, or where the list is printed
    long = any(len(c["text"]) > 60 for r in rows for c in r)
    wide = layout == "grid" and (len(table.columns) > 3 or long)
    cols = column_widths(table, rows) if wide else []
    for i, r in enumerate(rows):  # the first two rows and the last two stay together (no row alone on a page)
        for c in r:
            c["keep"] = i == 1 or (i >= len(rows) - 2 and i > 0)
    return [{
        "id": table.id, "title": table.title, "text": table.text, "layout": layout,
        "same_as": Markup(where_listed(same_as, lambda t, i: str(Markup('<a href="#{}">“{}”</a>').format(i, t))))
        if same_as else None,
        "unknown_line": {"reasons": "; ".join(unknown_reasons(table)), "command": GAPS_COMMAND, "hint": GAPS_HINT}
        if layout == "gap" else None,
        "columns": [c.title for c in table.columns], "rows": rows, "notes": table.notes, "unknowns": unknowns,
        "inferred": table.inferred, "low_confidence": table.low_confidence, "marks": table.marks,
        "sources": table.sources, "index": 1, "of": 1,
        "width": ("wide fixed" if cols else "wide") if wide else ("narrow" if layout == "grid" else layout),
        "cols": cols,
    }]


#: About how many characters of table text fit across a page (10 pt on A4 or Letter less the margins).
TABLE_CHARS = 84
#: The digest's table on A4 (reference.css: 13 mm margins), in mm: a character of TABLE_CHARS is 2.19 mm.
TABLE_MM = 184.0
#: A cell's padding (reference.css: 1.8 mm a side) with a little to spare, and a space at 10.5 pt, in characters.
PAD = 4.0 * TABLE_CHARS / TABLE_MM
SPACE = 318 * 10.5 / 1000 * 25.4 / 72 * TABLE_CHARS / TABLE_MM


def _chars(word: str, bold: bool = False) -> float:
    """A word's printed width in a digest table (10.5 pt; a header's 10 pt bold), in characters of TABLE_CHARS,
    from the bundled font's own advances."""
    from scarbook.compiler.boardmap import text_width

    return text_width(word, 10.0 if bold else 10.5, bold) * 25.4 / 72 * TABLE_CHARS / TABLE_MM


def _lines(words: list[float], width: float, space: float = 1.0) -> int:
    """How many lines `words` (their widths in characters) take when wrapped at `width` characters."""
    lines, used = 1, -1.0
    for w in words:
        if used >= 0 and used + space + w <= width:
            used += space + w
            continue
        if used >= 0:
            lines += 1
        extra = int(w // width) if width > 0 and w > width else 0  # a word longer than the column breaks
        lines += extra
        used = w - extra * width
    return lines


@lru_cache(maxsize=4096)
def _lines_by_width(words: tuple[float, ...], width: float, room: int) -> tuple[int, ...]:
    """The lines of one cell at `width`, `width` + 1 ... `width` + `room` characters (one line from where the
    whole text fits on); kept, as the same text comes back in many rows and tables."""
    out: list[int] = []
    whole = sum(words) + SPACE * (len(words) - 1)
    for k in range(room + 1):
        if whole <= width + k:
            return (*out, *[1] * (room + 1 - k))
        out.append(_lines(list(words), width + k, SPACE))
    return tuple(out)


def _table_lines(cells: list[list[list[float]]], widths: list[float]) -> int:
    """How many lines a table takes at `widths` (characters): each row as tall as its tallest cell."""
    return sum(max(_lines(column[r], w - PAD, SPACE) for column, w in zip(cells, widths, strict=True))
               for r in range(len(cells[0])))


def _widen(least: list[float], cells: list[list[list[float]]], room: int) -> list[int]:
    """How many characters each column gets of `room`, one breakpoint at a time: each step widens the column
    where a few more characters take the most lines off the table per character (the rows' tallest cells
    first, then the lines of all cells, so two columns that must both widen before a row gets shorter are
    not stuck), until nothing saves a line."""
    columns, count = len(least), len(cells[0])
    # lines[i][k]: the lines of each row (0: the header) in column i widened by k characters
    lines = [list(zip(*(_lines_by_width(tuple(c), least[i] - PAD, room) for c in cells[i]), strict=True))
             for i in range(columns)]
    breaks = [[k for k in range(1, room + 1) if lines[i][k] != lines[i][k - 1]] for i in range(columns)]
    given, left = [0] * columns, room
    while left > 0:
        now = [lines[i][given[i]] for i in range(columns)]
        tall = sum(max(col[r] for col in now) for r in range(count))
        best: tuple[float, int, int] | None = None  # (lines saved per character, column, characters)
        for i in range(columns):
            others = [max((now[j][r] for j in range(columns) if j != i), default=0) for r in range(count)]
            here = sum(now[i])
            for k in breaks[i]:
                if k <= given[i]:
                    continue
                if k - given[i] > left:
                    break
                saved = 1000 * (tall - sum(map(max, others, lines[i][k]))) + here - sum(lines[i][k])
                gain = saved / (k - given[i])
                if saved > 0 and (best is None or gain > best[0]):
                    best = (gain, i, k)
        if best is None:
            break
        _, i, k = best
        left -= k - given[i]
        given[i] = k
    return given


def column_widths(table: Table, rows: list[list[dict[str, Any]]]) -> list[str]:
    """Widths (percent) of a wide table's columns, so it is laid out with `table-layout: fixed` (automatic
    layout measures every cell's smallest and largest width first: a sixth of a long reference sheet).

    The same idea in characters of TABLE_CHARS, from the texts' printed widths (`_chars`: the header's and
    every row's, so a table's parts line up): each column first gets its longest word (and padding), so no
    word is broken; the room left is given
    a character at a time where it saves the most lines: each step widens the column whose widening takes
    the most lines off the table (the rows' tallest cells, the header's too) per character, so a
    one-line column (a kind, a count) never grows past its longest text and the prose gets what it needs to
    shorten its rows, not an even share (issue 34 P11); what saves no line goes to the column of longest text.
    Where that gets stuck (two columns that must widen together), the older share in proportion to how much
    longer each column's longest text is than its longest word is used when it takes fewer lines."""
    least, most, cells = [], [], []
    for i, column in enumerate(table.columns):
        cell = [[_chars(w, bold=True) for w in column.title.split()]]  # the header is bold
        cell += [[_chars(w) for w in (r[i]["text"] if i < len(r) else "").split()] for r in rows]
        cells.append(cell)
        least.append(min(max((w for c in cell for w in c), default=1.0) + PAD, 30.0))
        most.append(max(sum(c) + SPACE * max(0, len(c) - 1) for c in cell) + PAD)
    room = TABLE_CHARS - sum(least)
    if room < 0:  # crowded: automatic layout, which measures the words, decides
        return []
    prose = max(range(len(most)), key=lambda i: most[i])
    # a whole character at a time may pass a column's longest text: never wider than that
    widened = [max(w, min(w + k, m)) for w, k, m in zip(least, _widen(least, cells, int(room)), most, strict=True)]
    # the room shared in proportion to how much longer than its longest word each column's longest text is
    wants = [max(0.0, m - w) for m, w in zip(most, least, strict=True)]
    share = min(1.0, room / sum(wants)) if sum(wants) > 0 else 0.0
    shared = [w + share * want for w, want in zip(least, wants, strict=True)]
    candidates = []
    for widths in (widened, shared):
        widths[prose] += max(0.0, TABLE_CHARS - sum(widths))  # what saves no line: to the prose
        candidates.append((_table_lines(cells, widths), widths))
    widths = min(candidates, key=lambda c: c[0])[1]  # the widening, unless sharing is shorter where it gets stuck
    total = sum(widths) or 1.0
    return [f"{100 * w / total:.2f}" for w in widths]


def reference_html(game: Game, tables: list[Table], paper: str, map_svg: str | None,
                   legend: list[tuple[str, str]], campaign: str | None = None, map_note: str | None = None) -> str:
    """The reference sheets; `map_note` says why a board has no map (see `boardmap.map_withheld`)."""
    from scarbook.compiler.aid import campaign_label

    copies = copied_from(tables)  # a list printed twice: once in full, the copy points to it (issue 34 D16)
    parts = [p for t in tables for p in table_parts(t, copies.get(t.id))]
    summary = game.meta.get("summary")
    return str(environment().get_template("reference.html.j2").render(
        game={"id": game.id, "title": game.title}, packs=list(game.packs), campaign=campaign_label(campaign),
        summary=summary if isinstance(summary, str) else None, map_svg=map_svg, legend=legend, parts=parts,
        map_note=map_note, map_low_confidence=board_low_confidence(game) if map_svg else [],
        map_shared=bool(map_svg) and any(len(t.get("regions") or []) > 1 for t in game.section("territories").values()),
        low_confidence_note=LOW_CONFIDENCE_NOTE, paper=PAPER_CSS[paper],
    ))


def aid_html(game: Game, paper: str, map_svg: str | None, legend: list[tuple[str, str]],
             campaign: str | None = None, level: int = 0, map_note: str | None = None,
             mark_keys: list[tuple[str, str]] | None = None) -> str:
    """The player aid (`compiler.aid`) at shortening `level`; `map_note` says why a board has no map;
    `mark_keys` (icon URL, meaning) key the marks drawn on the board."""
    from scarbook.compiler.aid import aid_view

    view = aid_view(game, campaign, game.reached, level)
    return str(environment().get_template("aid.html.j2").render(
        **view, map_svg=map_svg, legend=legend, paper=PAPER_CSS[paper], map_note=map_note, mark_keys=mark_keys or []))


def sheets_html(template: str, title: str, sheets: list[Sheet], paper: str) -> str:
    """A sticker sheet: what the sources do not give (a size, a number) is said on every page; each sticker
    is drawn with the fonts, padding and tick boxes `stickerfit` sized it for."""
    from scarbook.compiler import stickerfit as fit

    page_w, page_h = PAPER_MM[paper]
    items = {s.card.get("id"): s.card for sheet in sheets for s in sheet.slots}
    unsized = [c for c in items.values() if c.get("sized") is False]
    widths: dict[str, set[float]] = {}
    for c in unsized:
        widths.setdefault(str(c["basis"]), set()).add(float(c["w"]))
    bases = [f"{basis} {min(ws):g}{'' if len(ws) == 1 else f'–{max(ws):g}'} mm" for basis, ws in sorted(widths.items())]
    return str(environment().get_template(template).render(
        title=title, sheets=sheets, paper=PAPER_CSS[paper], page_w=page_w, page_h=page_h,
        unsized=("any of them" if len(unsized) == len(items) else
                 f"{len(unsized)} of the {len(items)} stickers") if unsized else "",
        bases="; ".join(bases), uncounted=any(c.get("counted") is False for c in items.values()),
        pad=fit.PAD_MM, name_pt=fit.NAME_PT, text_pt=fit.TEXT_PT, token_name_pt=fit.TOKEN_NAME_PT,
        token_value_pt=fit.TOKEN_VALUE_PT, box=fit.BOX_MM, box_gap=fit.BOX_GAP_MM, boxes_top=fit.BOXES_TOP_MM,
    ))


def _mm(value: float) -> str:
    return f"{value:.2f}mm"


def marks_url(sheet: Sheet, page_w: float, page_h: float) -> str:
    """The cut marks of a sheet as an SVG `data:` URL (a page background, drawn once per layout): black
    lines in a white casing, so that a mark drawn over a card's bleed shows on any colour."""
    path = "".join(f"M{m.x1:.2f} {m.y1:.2f}L{m.x2:.2f} {m.y2:.2f}" for m in sheet.marks)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{page_w}mm" height="{page_h}mm" '
           f'viewBox="0 0 {page_w} {page_h}"><path d="{path}" stroke="#fff" stroke-width="0.7"/>'
           f'<path d="{path}" stroke="#000" stroke-width="0.25"/></svg>')
    return "data:image/svg+xml," + quote(svg, safe="")


def ink_on(colour: str) -> str:
    """The text colour that reads on `colour` (#rrggbb): near black on light colours, else white."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#fff"


def _colour(value: Any) -> str:
    if isinstance(value, str) and COLOUR.fullmatch(value):
        return value if len(value) == 7 else "#" + "".join(ch * 2 for ch in value[1:4])
    return "#3d3d3d"


class _Classes:
    """Gives each distinct CSS declaration block one class name (`prefix` + number)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.rules: dict[str, str] = {}

    def __call__(self, declarations: str) -> str:
        return self.rules.setdefault(declarations, f"{self.prefix}{len(self.rules)}")

    def css(self) -> list[str]:
        return [f".{name} {{ {decl} }}" for decl, name in self.rules.items()]


#: The most a territory card's locator map may take of the card's height and width (mm).
LOCATOR_MAX_MM = (30.0, 54.0)
#: The locator map's resolution as printed: 12 pixels a millimetre, about 300 dpi.
LOCATOR_PX_PER_MM = 12


def locator_view(svg: str | None) -> dict[str, Any] | None:
    """The locator map of a game as one `data:` URL every territory card shows (WeasyPrint loads
    it once), and the size of its box so that a card's highlight, placed in percent, sits on its dot.
    The picture is a PNG drawn once (`raster.svg_png`), embedded once and only referred to by each card;
    an SVG WeasyPrint would draw again on every card (kept only when the map holds shapes the raster
    drawing does not know)."""
    if not svg:
        return None
    match = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    ratio = float(match[2]) / float(match[1]) if match and float(match[1]) else 0.6
    max_h, max_w = LOCATOR_MAX_MM
    width = min(max_w, max_h / ratio) if ratio else max_w
    from scarbook.compiler.render.raster import svg_png

    png = svg_png(svg, round(width * LOCATOR_PX_PER_MM))  # drawn once; WeasyPrint draws an SVG at every use
    url = "data:image/png;base64," + base64.b64encode(png).decode("ascii") if png else \
        "data:image/svg+xml," + quote(svg, safe="")
    return {"url": url, "w": f"{width:.2f}mm", "h": f"{width * ratio:.2f}mm"}


def _grid_box(sheet: Sheet) -> dict[str, float]:
    """Where the slots of a sheet lie (mm), and the first slot's size: the calibration page prints its
    instructions and ruler inside the grid, so that they keep to the ink margin on any paper."""
    if not sheet.slots:
        return {"x": 0.0, "y": 0.0, "w": 0.0, "h": 0.0, "slot_w": 0.0, "slot_h": 0.0}
    x = min(s.x for s in sheet.slots)
    y = min(s.y for s in sheet.slots)
    return {"x": x, "y": y, "w": max(s.x + s.w for s in sheet.slots) - x, "h": max(s.y + s.h for s in sheet.slots) - y,
            "slot_w": sheet.slots[0].w, "slot_h": sheet.slots[0].h}


def card_sheets_html(title: str, sheets: list[Sheet], paper: str, locator: str | None = None) -> tuple[str, list[int]]:
    """The HTML of the distinct card sheets, and which of them every printed page shows.

    Positions, deck colours and cut marks become a few CSS classes and page backgrounds instead
    of a style attribute per element, which WeasyPrint lays out several times faster. `locator`
    is the game's locator map (`boardmap.locator_svg`): a territory card shows it with its own
    territory highlighted (a class per place, `q…`, over the one shared picture).
    """
    page_w, page_h = PAPER_MM[paper]
    unique, order = distinct_pages(sheets)
    rects, colours, spots = _Classes("r"), _Classes("k"), _Classes("q")
    loc = locator_view(locator)
    pages: dict[str, str] = {}
    view = []
    for sheet in unique:
        url = marks_url(sheet, page_w, page_h)
        slots = []
        for s in sheet.slots:
            top, right, bottom, left = s.bleed
            rect = rects(f"left: {_mm(s.x - left)}; top: {_mm(s.y - top)}; width: {_mm(s.w + left + right)}; "
                         f"height: {_mm(s.h + top + bottom)}; border-width: {_mm(top + 2)} {_mm(right + 2)} "
                         f"{_mm(bottom + 2)} {_mm(left + 2)}")
            # the frame (and the back) in the deck's colour, the header in the card's own (a faction's)
            frame, header = _colour(s.card.get("deck_color", s.card.get("color"))), _colour(s.card.get("color"))
            spot = s.card.get("spot") if loc else None
            slots.append({"rect": rect,
                          "colour": colours(f"background-color: {frame}; border-color: {frame}; "
                                            f"color: {ink_on(frame)}"),
                          "header": colours(f"background-color: {header}; border-color: {header}; "
                                            f"color: {ink_on(header)}"),
                          "card": s.card, "number": s.number, "x": s.x, "y": s.y, "w": s.w, "h": s.h,
                          "spot": spots(f"left: {float(spot[0]):.2f}%; top: {float(spot[1]):.2f}%") if spot else None})
        view.append({"kind": sheet.kind, "title": sheet.title, "page": pages.setdefault(url, f"m{len(pages)}"),
                     "slots": slots, "grid": _grid_box(sheet)})
    html = environment().get_template("cards.html.j2").render(
        title=title, sheets=view, paper=PAPER_CSS[paper], page_w=page_w, page_h=page_h, locator=loc,
        classes=rects.css() + colours.css() + spots.css(), marks=[{"name": n, "url": u} for u, n in pages.items()],
    )
    return str(html), order
