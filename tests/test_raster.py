"""The locator map drawn once as a PNG (`render.raster`): what it draws, what it refuses, the same bytes each time."""

from __future__ import annotations

import struct
import zlib

from scarbook.compiler.render.html import locator_view
from scarbook.compiler.render.raster import svg_png

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="100" height="50">'
       '<rect x="0" y="0" width="100" height="50" fill="#f4f1e6"/>'
       '<path d="M10 10L90 40M10 40L90 10" stroke="#aaa" stroke-width="0.6" fill="none"/>'
       '<circle cx="50" cy="25" r="4" fill="#d01010" stroke="#777" stroke-width="0.4"/></svg>')


def pixels(png: bytes) -> tuple[int, int, bytes]:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    start = png.index(b"IDAT") + 4
    length = struct.unpack(">I", png[start - 8:start - 4])[0]
    return width, height, zlib.decompress(png[start:start + length])


def at(raw: bytes, width: int, x: int, y: int) -> tuple[int, ...]:
    row = raw[y * (width * 3 + 1) + 1:(y + 1) * (width * 3 + 1)]
    return tuple(row[x * 3:x * 3 + 3])


def test_the_shapes_are_drawn_where_the_svg_puts_them() -> None:
    png = svg_png(SVG, 200)
    assert png is not None and png == svg_png(SVG, 200)  # reproducible
    width, height, raw = pixels(png)
    assert (width, height) == (200, 100)
    assert at(raw, width, 100, 50) == (0xD0, 0x10, 0x10)  # the circle's centre
    assert at(raw, width, 5, 95) == (0xF4, 0xF1, 0xE6)  # the background
    assert at(raw, width, 40, 28) != (0xF4, 0xF1, 0xE6)  # on the line from (10,10) to (90,40), scaled 2 x


def test_anything_else_keeps_the_svg() -> None:
    for other in (SVG.replace("<rect", "<ellipse"), SVG.replace("M10 10L90 40", "M10 10C20 20 30 30 90 40"),
                  SVG.replace('fill="#f4f1e6"', 'fill="url(#g)"'), SVG.replace('viewBox="0 0', 'viewBox="5 0'),
                  SVG.replace("<circle", '<circle transform="scale(2)"'), "<svg", "not svg at all"):
        assert svg_png(other, 200) is None, other


def test_the_locator_is_a_png_every_card_shares() -> None:
    view = locator_view(SVG)
    assert view is not None and view["url"].startswith("data:image/png;base64,")
    fallback = locator_view(SVG.replace("<rect", "<ellipse"))
    assert fallback is not None and fallback["url"].startswith("data:image/svg+xml,")
