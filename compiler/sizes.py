"""Physical sizes, in millimetres, shared by the sheet planner (`sheets`) and the checks of what fits on a
card or sticker (`printable`): kept apart so that validating content does not import the planner."""

from __future__ import annotations

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
POKER_MM = (63.0, 88.0)
BLEED_MM = 3.0
#: The least bleed an outer edge of a card sheet's grid keeps when the paper is short of room (Letter's
#: 279.4 mm hold three 88 mm rows with 2.7 mm of bleed inside the ink margin, not 3 mm).
MIN_BLEED_MM = 2.0
#: No ink this close to any paper edge: common home printers cannot print there.
INK_MARGIN_MM = 5.0
#: The space between the cards of a card sheet unless `build --gutter` says otherwise: none, so that
#: neighbouring cards (always of one deck, with one frame colour) share their cut lines.
DEFAULT_GUTTER_MM = 0.0
#: The widest gutter `build --gutter` takes.
MAX_GUTTER_MM = 20.0
#: A sticker without a `size` is sized for where it goes: `compiler.stickerfit`.
