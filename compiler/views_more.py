"""The typed views the tracker's tables and sheet read of one content: the items pieces and places are (a faction
with its powers, a character card with its stats, a region with its bonus: `compiler/items.py::Place`, which this
module called `Item`), and what a sticker founds.

Built once per content, lazily (`more(content)` keeps them on the content): the sections' places are the content's
own (`Content.places_in`), so both readers share one build. A value of the wrong type is absent (None), and a name
stays as written (`Place.printed_name`: an unknown name stays unknown, the reader decides how to show it).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, Protocol

from scarbook.compiler.items import Place, Power
from scarbook.compiler.model import Game, as_dict

__all__ = ["Item", "MoreViews", "Place", "Power", "items_of", "more"]


class Content(Protocol):
    """What the views are built from (`campaign/content.py::Content`)."""

    factions: dict[str, dict[str, Any]]
    territories: dict[str, dict[str, Any]]
    regions: dict[str, dict[str, Any]]
    cards: dict[str, dict[str, Any]]
    stickers: dict[str, dict[str, Any]]
    game: Game

    def pieces_of(self, kind: str) -> dict[str, dict[str, Any]]: ...

    def places_in(self, section: str) -> dict[str, Place]: ...


#: The items pieces and places are: one view of them (`compiler/items.py::Place`), under the name this module gave it.
Item = Place


def items_of(section: Mapping[str, dict[str, Any]]) -> dict[str, Place]:
    return {iid: Place.of(iid, raw) for iid, raw in section.items()}


class MoreViews:
    """The views of one content, each built on first use."""

    def __init__(self, content: Content) -> None:
        self.content = content

    @cached_property
    def factions(self) -> dict[str, Place]:
        return self.content.places_in("factions")

    @cached_property
    def territories(self) -> dict[str, Place]:
        return self.content.places_in("territories")

    @cached_property
    def regions(self) -> dict[str, Place]:
        return self.content.places_in("regions")

    @cached_property
    def cards(self) -> dict[str, Place]:
        return self.content.places_in("cards")

    @cached_property
    def population(self) -> dict[str, Any]:
        """Sticker -> the population of what it founds (None: it founds nothing, or gives none)."""
        return {sid: as_dict(st.get("founds")).get("population") for sid, st in self.content.stickers.items()}

    def section(self, name: str) -> dict[str, Place]:
        """Any section's items (those that are mappings), by id."""
        found = self._sections.get(name)
        if found is None:
            raw = self.content.game.section(name)
            found = self._sections[name] = {iid: Place.of(iid, it) for iid, it in raw.items() if isinstance(it, dict)}
        return found

    @cached_property
    def _sections(self) -> dict[str, dict[str, Place]]:
        return {}

    def pieces_of(self, kind: str) -> dict[str, Place]:
        found = self._pieces.get(kind)
        if found is None:
            found = self._pieces[kind] = items_of(self.content.pieces_of(kind))
        return found

    @cached_property
    def _pieces(self) -> dict[str, dict[str, Place]]:
        return {}


def more(content: Content) -> MoreViews:
    """The content's views, kept on the content (as its cached properties are): built once per content, and gone
    with it."""
    kept = vars(content)  # where its cached properties are too
    found = kept.get("_more_views")
    if not isinstance(found, MoreViews):
        found = kept["_more_views"] = MoreViews(content)
    return found
