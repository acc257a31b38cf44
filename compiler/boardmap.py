"""An SVG schematic of a game's board: territories, edges, regions, labels and marks.

`board_svg(game, marks)` is a pure function of the content (territory `layout: {x, y}` in the
board's `layout: {width, height}` units); territories without a layout are placed on a ring.
Used by the reference sheets and by the tracker's campaign sheet. It draws only what the content
says and never reads files, fetches URLs or imports anything heavy; every text is XML-escaped.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from .model import Game, is_unknown, known

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


def board_svg(game: Game, marks: dict[str, list[str]] | None = None) -> str:
    """The board as a standalone SVG document (a string)."""
    marks = marks or {}
    width, height = _board_size(game)
    scale = VIEW_WIDTH / width
    view_h = height * scale
    pos = {tid: (x * scale, y * scale) for tid, (x, y) in positions(game).items()}
    colors = region_colors(game)
    territories = game.section("territories")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {VIEW_WIDTH:.0f} {view_h:.0f}" '
        f'width="{VIEW_WIDTH:.0f}" height="{view_h:.0f}" font-family="DejaVu Sans, sans-serif">',
        f'<rect x="0" y="0" width="{VIEW_WIDTH:.0f}" height="{view_h:.0f}" fill="#fbfaf6" stroke="#888"/>',
    ]
    seen: set[frozenset[str]] = set()
    for a, b, kind in game.edges:
        key = frozenset((a, b))
        if a not in pos or b not in pos or key in seen or a == b:
            continue
        seen.add(key)
        (x1, y1), (x2, y2) = pos[a], pos[b]
        if abs(x1 - x2) > VIEW_WIDTH / 2:  # wraps around the board's edge (alaska-kamchatka)
            left, right = ((x1, y1), (x2, y2)) if x1 < x2 else ((x2, y2), (x1, y1))
            mid_y = (left[1] + right[1]) / 2
            out.append(f'<line x1="{left[0]:.1f}" y1="{left[1]:.1f}" x2="0" y2="{mid_y:.1f}" stroke="#777" '
                       f'stroke-width="1.5"{EDGE_STYLE.get(kind, "")}/>')
            out.append(f'<line x1="{right[0]:.1f}" y1="{right[1]:.1f}" x2="{VIEW_WIDTH:.0f}" y2="{mid_y:.1f}" '
                       f'stroke="#777" stroke-width="1.5"{EDGE_STYLE.get(kind, "")}/>')
            continue
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#777" '
                   f'stroke-width="1.5"{EDGE_STYLE.get(kind, "")}/>')
    radius = max(7.0, min(16.0, 380.0 / max(1, math.sqrt(len(territories) or 1))))
    for tid, terr in territories.items():
        if tid not in pos:
            continue
        x, y = pos[tid]
        regions = [r for r in terr.get("regions", []) if isinstance(r, str)]
        fill = colors.get(regions[0], NO_REGION) if regions else NO_REGION
        stroke = colors.get(regions[1], "#444") if len(regions) > 1 else "#444"
        stroke_w = 4 if len(regions) > 1 else 1.2
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{stroke_w}"/>')
        code = terr.get("code")
        if code:
            out.append(f'<text x="{x:.1f}" y="{y + 3.5:.1f}" font-size="9" text-anchor="middle" '
                       f'font-weight="bold">{escape(str(code))}</text>')
        out.append(f'<text x="{x:.1f}" y="{y + radius + 10:.1f}" font-size="10" text-anchor="middle" '
                   f'fill="#222">{escape(_label(terr, tid))}</text>')
        for i, mark in enumerate(marks.get(tid, [])):
            out.append(f'<text x="{x:.1f}" y="{y + radius + 22 + 11 * i:.1f}" font-size="10" '
                       f'text-anchor="middle" font-weight="bold" fill="#b01818">{escape(str(mark))}</text>')
    members = game.region_members()
    for rid, region in game.section("regions").items():
        layout = region.get("layout")
        if isinstance(layout, dict) and isinstance(layout.get("x"), int | float):
            rx, ry = float(layout["x"]) * scale, float(layout["y"]) * scale
        else:
            points = [pos[t] for t in members.get(rid, []) if t in pos]
            if not points:
                continue
            rx = sum(p[0] for p in points) / len(points)
            ry = min(p[1] for p in points) - radius - 8
        bonus = known(region.get("bonus"))
        text = _label(region, rid) + (f" +{bonus}" if isinstance(bonus, int) and bonus >= 0 else
                                      f" {bonus}" if isinstance(bonus, int) else " +?")
        out.append(f'<text x="{rx:.1f}" y="{max(14.0, ry):.1f}" font-size="15" text-anchor="middle" '
                   f'font-weight="bold" fill="#555" font-style="italic">'
                   f'{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def legend(game: Game) -> list[tuple[str, str]]:
    """(colour, region label) pairs, in region order: for a legend beside the map."""
    colors = region_colors(game)
    return [(colors[rid], _label(r, rid)) for rid, r in game.section("regions").items()]

