"""Jinja2 templates to HTML: reference sheets, card sheets, sticker sheets.

One environment with autoescape on for every template and `StrictUndefined`, so content text is
always escaped and a missing value fails the build instead of printing an empty cell. The view
models handed to templates are built here from pure data (`compiler.tables`, `compiler.sheets`);
templates never compute game data. Jinja2 is imported inside functions only.
"""

from __future__ import annotations

import base64
import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from scarbook.compiler.model import Game, is_unknown
from scarbook.compiler.sheets import PAPER_MM, Sheet, distinct_pages
from scarbook.compiler.tables import LOW_CONFIDENCE_NOTE, Table, board_low_confidence, cell_text

#: Rows of a table per unsplittable block; a longer table is shown in parts.
MAX_LINES_PER_BLOCK = 44
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
    folder that cannot be read or written only means compiling."""
    import contextlib
    import hashlib
    import os

    import jinja2
    from jinja2 import FileSystemBytecodeCache

    from scarbook.kernel.cachedir import cache_dir

    class Kept(FileSystemBytecodeCache):
        def load_bytecode(self, bucket: Any) -> None:
            with contextlib.suppress(OSError):
                super().load_bytecode(bucket)

        def dump_bytecode(self, bucket: Any) -> None:
            with contextlib.suppress(OSError):
                os.makedirs(self.directory, exist_ok=True)
                super().dump_bytecode(bucket)

    key = hashlib.sha256(repr((jinja2.__version__, sorted(options.items()))).encode()).hexdigest()[:12]
    return Kept(str(cache_dir() / "templates"), f"{key}-%s.jinja")


@lru_cache(maxsize=1)
def environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    from scarbook.templates import TEMPLATE_DIR

    options: dict[str, Any] = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True}
    env = Environment(loader=FileSystemLoader(str(TEMPLATE_DIR)), undefined=StrictUndefined,
                      bytecode_cache=_bytecode_cache(options), **options)
    env.filters["mm"] = lambda v: f"{float(v):.2f}mm"
    env.filters["mm_line"] = lambda v: f"{max(float(v), 0.2):.2f}mm"
    env.filters["css_string"] = css_string
    return env


def _row_lines(row: list[Any], widths: int) -> int:
    longest = max((len(cell_text(v)) for v in row), default=0)
    return max(1, math.ceil(longest / max(20, 150 // max(1, widths))))


def table_parts(table: Table) -> list[dict[str, Any]]:
    """A table as one or more blocks that each fit on a page, cells ready to print."""
    unknowns: list[str] = []
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
                cls = "num" if isinstance(value, int | float) and not isinstance(value, bool) else \
                    ("long" if len(text) > 60 else "")
                cells.append({"unknown": False, "note": 0, "text": text, "cls": cls})
        rows.append(cells)
    wide = not (len(table.columns) <= 3 and not any(c["cls"] == "long" for r in rows for c in r))
    cols = column_widths(table, rows) if wide else []
    chunks: list[list[list[dict[str, Any]]]] = [[]]
    lines = 0
    for raw, cells in zip(table.rows, rows, strict=True):
        n = _row_lines(raw, len(table.columns))
        if chunks[-1] and lines + n > MAX_LINES_PER_BLOCK:
            chunks.append([])
            lines = 0
        chunks[-1].append(cells)
        lines += n
    return [{
        "id": table.id if i == 0 else f"{table.id}-{i + 1}", "title": table.title, "text": table.text,
        "columns": [c.title for c in table.columns], "rows": chunk, "notes": table.notes, "unknowns": unknowns,
        "inferred": table.inferred, "low_confidence": table.low_confidence, "marks": table.marks,
        "sources": table.sources, "index": i + 1, "of": len(chunks),
        "width": ("wide fixed" if cols else "wide") if wide else "narrow", "cols": cols,
    } for i, chunk in enumerate(chunks)]


#: About how many characters of table text fit across a page (10 pt on A4 or Letter less the margins).
TABLE_CHARS = 84


def column_widths(table: Table, rows: list[list[dict[str, Any]]]) -> list[str]:
    """Widths (percent) of a wide table's columns, so it is laid out with `table-layout: fixed` (automatic
    layout measures every cell's smallest and largest width first: a sixth of a long reference sheet).

    The same idea in characters, from the texts (the header's and every row's, so a table's parts line
    up): each column first gets its longest word (and padding), so no word is broken; the room left goes
    to the columns whose longest text is longer than that, in proportion to how much longer."""
    least, most = [], []
    for i, column in enumerate(table.columns):
        texts = [column.title, *(r[i]["text"] for r in rows if i < len(r))]
        word = max([1.2 * len(w) for w in column.title.split()]  # the header is bold
                   + [float(len(w)) for t in texts[1:] for w in t.split()], default=1.0)
        least.append(min(word + 2.5, 30.0))
        most.append(float(max(len(t) for t in texts)) + 2.5)
    room = TABLE_CHARS - sum(least)
    if room < 0:  # crowded: automatic layout, which measures the words, decides
        return []
    wants = [max(0.0, m - w) for m, w in zip(most, least, strict=True)]
    share = min(1.0, room / sum(wants)) if sum(wants) > 0 else 0.0
    widths = [w + share * want for w, want in zip(least, wants, strict=True)]
    total = sum(widths) or 1.0
    return [f"{100 * w / total:.2f}" for w in widths]


def reference_html(game: Game, tables: list[Table], paper: str, map_svg: str | None,
                   legend: list[tuple[str, str]], campaign: str | None = None, map_note: str | None = None) -> str:
    """The reference sheets; `map_note` says why a board has no map (see `boardmap.map_withheld`)."""
    parts = [p for t in tables for p in table_parts(t)]
    summary = game.meta.get("summary")
    return str(environment().get_template("reference.html.j2").render(
        game={"id": game.id, "title": game.title}, packs=list(game.packs),
        campaign=Path(campaign).name if campaign else None,  # the ledger's name, never a machine's path
        summary=summary if isinstance(summary, str) else None, map_svg=map_svg, legend=legend, parts=parts,
        map_note=map_note, map_low_confidence=board_low_confidence(game) if map_svg else [],
        map_shared=bool(map_svg) and any(len(t.get("regions") or []) > 1 for t in game.section("territories").values()),
        low_confidence_note=LOW_CONFIDENCE_NOTE, paper=PAPER_CSS[paper],
    ))


def sheets_html(template: str, title: str, sheets: list[Sheet], paper: str) -> str:
    page_w, page_h = PAPER_MM[paper]
    return str(environment().get_template(template).render(
        title=title, sheets=sheets, paper=PAPER_CSS[paper], page_w=page_w, page_h=page_h,
    ))


def _mm(value: float) -> str:
    return f"{value:.2f}mm"


def marks_url(sheet: Sheet, page_w: float, page_h: float) -> str:
    """The cut marks of a sheet as an SVG `data:` URL (a page background, drawn once per layout)."""
    path = "".join(f"M{m.x1:.2f} {m.y1:.2f}L{m.x2:.2f} {m.y2:.2f}" for m in sheet.marks)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{page_w}mm" height="{page_h}mm" '
           f'viewBox="0 0 {page_w} {page_h}"><path d="{path}" stroke="#000" stroke-width="0.2"/></svg>')
    return "data:image/svg+xml," + quote(svg, safe="")


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
            colour = s.card.get("color")
            if not (isinstance(colour, str) and COLOUR.fullmatch(colour)):
                colour = "#3d3d3d"
            spot = s.card.get("spot") if loc else None
            slots.append({"rect": rect, "colour": colours(f"background-color: {colour}; border-color: {colour}"),
                          "card": s.card, "number": s.number, "x": s.x, "y": s.y, "w": s.w, "h": s.h,
                          "spot": spots(f"left: {float(spot[0]):.2f}%; top: {float(spot[1]):.2f}%") if spot else None})
        view.append({"kind": sheet.kind, "title": sheet.title, "page": pages.setdefault(url, f"m{len(pages)}"),
                     "slots": slots})
    html = environment().get_template("cards.html.j2").render(
        title=title, sheets=view, paper=PAPER_CSS[paper], page_w=page_w, page_h=page_h, locator=loc,
        classes=rects.css() + colours.css() + spots.css(), marks=[{"name": n, "url": u} for u, n in pages.items()],
    )
    return str(html), order
