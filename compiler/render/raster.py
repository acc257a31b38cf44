"""A small SVG picture drawn once into a PNG, for a picture that many cards show.

WeasyPrint draws an SVG image again every time a page shows it (each shape walked in Python: about
6.5 ms of CPU per territory card for the locator map), while a raster image is embedded once and
every use refers to it. `svg_png` draws the few shapes the locator map is made of (a `rect`, `path`s
of straight lines, `circle`s; solid colours, with antialiased edges) into PNG bytes, in pure Python
and reproducibly (the same SVG gives the same bytes). Anything else in the SVG (another element, a
curve, a transform, a gradient) gives None, and the caller keeps the SVG.
"""

from __future__ import annotations

import math
import re
import struct
import zlib
from typing import Any

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SVG_NS = "{http://www.w3.org/2000/svg}"


class _Unsupported(Exception):
    pass


def _colour(value: str | None) -> tuple[int, int, int] | None:
    """A colour of the form #rgb or #rrggbb; None for 'none'; anything else is unsupported."""
    if value is None or value == "none":
        return None
    if re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
    if re.fullmatch(r"#[0-9a-fA-F]{3}", value):
        return int(value[1] * 2, 16), int(value[2] * 2, 16), int(value[3] * 2, 16)
    raise _Unsupported(value)


def _float(node: Any, name: str, default: float | None = None) -> float:
    raw = node.get(name)
    if raw is None:
        if default is None:
            raise _Unsupported(name)
        return default
    if not _NUMBER.fullmatch(raw.strip()):
        raise _Unsupported(raw)
    return float(raw)


class _Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray(b"\xff" * (width * height * 3))

    def blend(self, x: int, y: int, colour: tuple[int, int, int], alpha: float) -> None:
        if alpha <= 0.0 or not (0 <= x < self.width and 0 <= y < self.height):
            return
        i = (y * self.width + x) * 3
        p = self.pixels
        if alpha >= 1.0:
            p[i], p[i + 1], p[i + 2] = colour
            return
        for k in range(3):
            p[i + k] = int(p[i + k] + (colour[k] - p[i + k]) * alpha + 0.5)

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: tuple[int, int, int]) -> None:
        xa, xb = max(0, round(x0)), min(self.width, round(x1))
        ya, yb = max(0, round(y0)), min(self.height, round(y1))
        if xa >= xb:
            return
        row = bytes(colour) * (xb - xa)
        for y in range(ya, yb):
            start = (y * self.width + xa) * 3
            self.pixels[start:start + len(row)] = row

    def disc(self, cx: float, cy: float, r: float, colour: tuple[int, int, int]) -> None:
        """A filled circle; edge pixels by how far their centre is inside (about one pixel of blur)."""
        for y in range(max(0, math.floor(cy - r - 1)), min(self.height, math.ceil(cy + r + 1))):
            dy = y + 0.5 - cy
            for x in range(max(0, math.floor(cx - r - 1)), min(self.width, math.ceil(cx + r + 1))):
                d = math.hypot(x + 0.5 - cx, dy)
                self.blend(x, y, colour, min(1.0, r - d + 0.5))

    def ring(self, cx: float, cy: float, r: float, width: float, colour: tuple[int, int, int]) -> None:
        half = width / 2
        for y in range(max(0, math.floor(cy - r - half - 1)), min(self.height, math.ceil(cy + r + half + 1))):
            dy = y + 0.5 - cy
            for x in range(max(0, math.floor(cx - r - half - 1)), min(self.width, math.ceil(cx + r + half + 1))):
                d = abs(math.hypot(x + 0.5 - cx, dy) - r)
                self.blend(x, y, colour, min(1.0, half - d + 0.5))

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float, colour: tuple[int, int, int]) -> None:
        """A straight stroke with butt ends: the pixels near the segment, by their distance to it (walked
        along the segment's longer axis, so a long line costs its length times its width)."""
        half = max(width, 1.0) / 2
        strength = min(1.0, width)  # a hairline thinner than a pixel is drawn a pixel wide, lighter
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        if length == 0:
            return
        steep = abs(dy) > abs(dx)
        if steep:  # walk rows: swap the axes, draw, swap back
            x1, y1, x2, y2, dx, dy = y1, x1, y2, x2, dy, dx
        if x2 < x1:
            x1, y1, x2, y2, dx, dy = x2, y2, x1, y1, -dx, -dy
        reach = (half + 0.5) * length / abs(dx)  # how far across the walked axis the band reaches
        limit_w, limit_h = (self.height, self.width) if steep else (self.width, self.height)
        for a in range(max(0, math.floor(x1 - half - 1)), min(limit_w, math.ceil(x2 + half + 1))):
            pa = a + 0.5
            centre = y1 + (pa - x1) * dy / dx
            for b in range(max(0, math.floor(centre - reach)), min(limit_h, math.ceil(centre + reach) + 1)):
                pb = b + 0.5
                t = ((pa - x1) * dx + (pb - y1) * dy) / (length * length)
                if t < 0.0 or t > 1.0:
                    continue
                d = abs((pa - x1) * dy - (pb - y1) * dx) / length
                if d < half + 0.5:
                    alpha = strength * min(1.0, half - d + 0.5)
                    self.blend(b, a, colour, alpha) if steep else self.blend(a, b, colour, alpha)

    def png(self) -> bytes:
        stride = self.width * 3
        raw = b"".join(b"\x00" + bytes(self.pixels[y * stride:(y + 1) * stride]) for y in range(self.height))

        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
                + chunk(b"IEND", b""))


def _segments(d: str) -> list[tuple[float, float, float, float]]:
    """The straight segments of a path made of absolute M and L commands only."""
    tokens = re.findall(r"[A-Za-z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", d)
    out: list[tuple[float, float, float, float]] = []
    i, command = 0, ""
    x = y = 0.0
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command not in ("M", "L"):
                raise _Unsupported(command)
            continue
        if i + 1 >= len(tokens) or not command:
            raise _Unsupported(d[:40])
        nx, ny = float(tokens[i]), float(tokens[i + 1])
        i += 2
        if command == "L":
            out.append((x, y, nx, ny))
        x, y = nx, ny
        command = "L" if command == "M" else command  # further pairs after M are lines
    return out


def svg_png(svg: str, width_px: int) -> bytes | None:
    """The SVG drawn `width_px` pixels wide (its height in proportion) as PNG bytes; None when it holds
    anything but a viewBox from 0 0, `rect`, `path` (M/L) and `circle` with plain colours."""
    from xml.etree import ElementTree

    try:
        root = ElementTree.fromstring(svg)
        if root.tag != f"{_SVG_NS}svg":
            raise _Unsupported(root.tag)
        box = [float(v) for v in _NUMBER.findall(root.get("viewBox", ""))]
        if len(box) != 4 or box[0] or box[1] or box[2] <= 0 or box[3] <= 0:
            raise _Unsupported("viewBox")
        scale = width_px / box[2]
        canvas = _Canvas(width_px, max(1, round(box[3] * scale)))
        for node in root:
            if set(node.attrib) - {"x", "y", "width", "height", "fill", "stroke", "stroke-width", "d", "cx", "cy",
                                   "r"}:
                raise _Unsupported(str(node.attrib))
            fill, stroke = _colour(node.get("fill", "#000000")), _colour(node.get("stroke"))
            stroke_width = _float(node, "stroke-width", 1.0) * scale
            if node.tag == f"{_SVG_NS}rect":
                if stroke is not None:
                    raise _Unsupported("stroked rect")
                if fill is not None:
                    x, y = _float(node, "x", 0.0) * scale, _float(node, "y", 0.0) * scale
                    canvas.rect(x, y, x + _float(node, "width") * scale, y + _float(node, "height") * scale, fill)
            elif node.tag == f"{_SVG_NS}path":
                if node.get("fill") != "none":  # (a path is filled black unless it says otherwise)
                    raise _Unsupported("filled path")
                for x1, y1, x2, y2 in _segments(node.get("d", "")):
                    if stroke is not None:
                        canvas.line(x1 * scale, y1 * scale, x2 * scale, y2 * scale, stroke_width, stroke)
            elif node.tag == f"{_SVG_NS}circle":
                cx, cy, r = _float(node, "cx") * scale, _float(node, "cy") * scale, _float(node, "r") * scale
                if fill is not None:
                    canvas.disc(cx, cy, r, fill)
                if stroke is not None:
                    canvas.ring(cx, cy, r, stroke_width, stroke)
            else:
                raise _Unsupported(node.tag)
    except (_Unsupported, ValueError, ElementTree.ParseError):
        return None
    return canvas.png()
