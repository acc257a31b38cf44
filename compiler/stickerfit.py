"""A sticker's printed size and what it draws, from where it goes (its `targets`) when the sources give no `size`.

A sticker goes on a card (63 × 88 mm, whose free area is about 59 × 40 mm), on a territory of the board, on a
continent's name field or in a slot of the rulebook; a sticker that adds to a value on a card (a coin: the card
holds up to six) is a small token. The width comes from the target, the height from what the sticker prints:
its name, its text wrapped at the sticker's font size, a row of tick boxes (`boxes`), a line to write a name
on (`named`), with `PAD_MM` of paper between any text and the cut line. Pure arithmetic: imports no renderer;
the sheet planner (`sheets.sticker_items`) and the B304 check (`printable`) both ask it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: Paper between the cut line and any text or drawing (the 0.25 mm dashed line is inside it).
PAD_MM = 2.5
#: Font sizes (pt) of a sticker's name and text, and their line heights (mm) on the sheet (stickers.html.j2).
NAME_PT, TEXT_PT = 7.0, 6.5
NAME_LINE_MM, TEXT_LINE_MM = NAME_PT * 1.15 * 25.4 / 72, TEXT_PT * 1.2 * 25.4 / 72
#: An average DejaVu Sans character is about 0.56 em wide (bold: 0.62); a little over, so the wrap is safe.
CHAR_EM, BOLD_EM = 0.6, 0.68
#: A row of tick boxes: each box's side, the gap between boxes and the row's space above it (mm).
BOX_MM, BOX_GAP_MM, BOXES_TOP_MM = 3.2, 1.0, 1.2
#: The line a player writes a name on: its height with the space above it (mm).
WRITE_MM = 6.0

#: Width and the most height per kind of target (mm), and the side of a token (six fit a card's free area)
#: with its name's and value's font sizes (pt).
TOKEN_MM, TOKEN_NAME_PT, TOKEN_VALUE_PT = 19.0, 5.5, 8.0
CARD_W, CARD_MAX_H = 55.0, 40.0
TERRITORY_W, TERRITORY_MAX_H = 36.0, 40.0
CONTINENT_W, CONTINENT_MAX_H = 44.0, 24.0
RULEBOOK_W, RULEBOOK_MAX_H = 80.0, 120.0


@dataclass(frozen=True)
class Fit:
    """How a sticker prints: its size (mm), what the size is made for (`basis`: "given" when the content
    gives a `size`, else the target), the line its text prints (`text`: "" for none), tick boxes and a
    writing line, how many characters of text the size holds (`capacity`), and whether it is a token (its
    name small, its `text` the value it adds)."""

    w: float
    h: float
    basis: str
    text: str
    boxes: int
    write: bool
    capacity: int
    token: bool = False


def _wrap(text: str, width_mm: float, pt: float, em: float) -> int:
    """Lines `text` takes when wrapped at word breaks in `width_mm` at `pt` (a word wider than a line is split)."""
    per_line = max(1, int(width_mm / (pt * em * 25.4 / 72)))
    lines, used = 1, 0
    for word in text.split():
        n = len(word)
        if used and used + 1 + n > per_line:
            lines, used = lines + 1, 0
        if not used and n > per_line:
            lines += (n - 1) // per_line
            n = (n - 1) % per_line + 1
        used = n if not used else used + 1 + n
    return lines if text.strip() else 0


def _target(sticker: dict[str, Any]) -> str:
    """The kind of place the sticker goes: "card", "territory", "continent" or "rulebook"."""
    targets = [str(t) for t in sticker.get("targets") or [] if isinstance(t, str)]
    first = targets[0] if targets else "territory"
    if first == "card" or first.endswith("-card"):
        return "card"
    if first.startswith("rulebook"):
        return "rulebook"
    if first in ("continent", "region"):
        return "continent"
    return "territory"


def _adds_phrase(sticker: dict[str, Any]) -> str:
    """What a token adds, as its number ("+1", "-1"; the name says to what)."""
    adds = sticker.get("adds")
    if not isinstance(adds, dict):
        return ""
    return " ".join(f"{v:+d}" for v in adds.values() if isinstance(v, int) and not isinstance(v, bool))


def _body(sticker: dict[str, Any]) -> str:
    value = sticker.get("text") if sticker.get("text") is not None else sticker.get("effect")
    return value.strip() if isinstance(value, str) else ""


def _height(name: str, text: str, boxes: int, write: bool, width: float) -> float:
    inner = width - 2 * PAD_MM
    h = 2 * PAD_MM + _wrap(name, inner, NAME_PT, BOLD_EM) * NAME_LINE_MM
    if text:
        h += 0.5 + _wrap(text, inner, TEXT_PT, CHAR_EM) * TEXT_LINE_MM
    if boxes:
        per_row = max(1, int((inner + BOX_GAP_MM) / (BOX_MM + BOX_GAP_MM)))
        h += BOXES_TOP_MM + math.ceil(boxes / per_row) * (BOX_MM + BOX_GAP_MM)
    if write:
        h += WRITE_MM
    return h


def _capacity(width: float, height: float, name: str, boxes: int, write: bool) -> int:
    """About how many characters of text fit below the name and above the boxes and writing line."""
    room = height - _height(name, "", boxes, write, width) - 0.5
    per_line = int((width - 2 * PAD_MM) / (TEXT_PT * CHAR_EM * 25.4 / 72))
    return max(0, int(room / TEXT_LINE_MM + 1e-6)) * per_line


def fit(sticker: dict[str, Any], name: str) -> Fit:
    """The sticker's printed size and contents (see the module's docstring)."""
    raw_boxes = sticker.get("boxes")
    boxes = raw_boxes if isinstance(raw_boxes, int) and not isinstance(raw_boxes, bool) and 0 < raw_boxes <= 40 else 0
    write = sticker.get("named") is True
    text = _body(sticker)
    size = sticker.get("size")
    if isinstance(size, dict):
        w, h = float(size.get("width", 0)), float(size.get("height", 0))
        return Fit(w, h, "given", text, boxes, write, _capacity(w, h, name, boxes, write))
    target = _target(sticker)
    adds = _adds_phrase(sticker)
    if adds and target in ("card", "continent") and not boxes and not write:
        # a token: its name and what it adds (unless the name says it); its effect is the target's own rule
        value = "" if adds in name else adds
        return Fit(TOKEN_MM, TOKEN_MM, f"a {target} token", value, 0, False, len(value), token=True)
    width, most = {"card": (CARD_W, CARD_MAX_H), "continent": (CONTINENT_W, CONTINENT_MAX_H),
                   "rulebook": (RULEBOOK_W, RULEBOOK_MAX_H)}.get(target, (TERRITORY_W, TERRITORY_MAX_H))
    if write:  # a blank to write a name on: the rule it follows is the rulebook's, not printed on it
        h = float(math.ceil(_height(name, "", boxes, write, width)))
        return Fit(width, h, f"a {target}", "", boxes, write, 0)
    for wider in (width, width + 8, width + 16):  # a long text widens the sticker before it is cut
        wanted = _height(name, text, boxes, write, wider)
        if wanted <= most:
            break
    h = float(min(most, math.ceil(wanted)))
    return Fit(wider, h, f"a {target}", text, boxes, write, _capacity(wider, h, name, boxes, write))
