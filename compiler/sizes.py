"""Physical sizes, in millimetres, shared by the sheet planner (`sheets`) and the checks of what fits on a
card or sticker (`printable`): kept apart so that validating content does not import the planner."""

from __future__ import annotations

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
POKER_MM = (63.0, 88.0)
BLEED_MM = 3.0
#: Stickers lower than this print only their name; `build` warns (B304) when text is left off or cut.
STICKER_TEXT_MIN_MM = 15.0
