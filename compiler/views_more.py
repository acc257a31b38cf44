"""More typed views of the content for the tracker's tables and sheet: the items pieces and places are
(a faction with its powers, a character card with its stats, a region with its bonus), and what a sticker founds.

As `compiler/items.py`: NamedTuples built once per content, lazily (`more(content)` keeps them on the content),
from the merged, effective content. The raw mapping reads are here; a reader sees typed attributes that mypy
checks. A value of the wrong type is absent (None), and a name stays as written (an unknown name stays unknown:
the reader decides how to show it).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, NamedTuple, Protocol

from scarbook.compiler.model import Game, as_dict


class Content(Protocol):
    """What the views are built from (`campaign/content.py::Content`)."""

    factions: dict[str, dict[str, Any]]
    territories: dict[str, dict[str, Any]]
    regions: dict[str, dict[str, Any]]
    cards: dict[str, dict[str, Any]]
    stickers: dict[str, dict[str, Any]]
    game: Game

    def pieces_of(self, kind: str) -> dict[str, dict[str, Any]]: ...


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) else None


class Power(NamedTuple):
    """One of a faction's options (`powers[]`) that has an id."""

    number: int  # its place in the faction's list, from 1 (entries that are not options count too)
    id: str
    name: Any  # as written (None: none given; an unknown name stays unknown)


class Item(NamedTuple):
    """A piece or place of the content (a faction, a character card, a territory, a region, a card)."""

    id: str
    name: Any  # as written (None: none given)
    has_name: bool  # the item gives a `name` key (even a null one)
    stats: dict[str, Any] | None  # the printed stats, the item's own mapping (None: not a mapping)
    powers: tuple[Power, ...]
    bonus: int | None  # a region's bonus (an int, bools included as the content's readers took them)
    resources: int | None
    code: Any = None  # the code printed beside its name (a territory's), as written

    @classmethod
    def of(cls, iid: str, raw: dict[str, Any]) -> Item:
        stats = raw.get("stats")
        powers = tuple(Power(i, p["id"], p.get("name")) for i, p in enumerate(raw.get("powers", []) or [], 1)
                       if isinstance(p, dict) and isinstance(p.get("id"), str))
        return cls(iid, raw.get("name"), "name" in raw, stats if isinstance(stats, dict) else None, powers,
                   _int(raw.get("bonus")), _int(raw.get("resources")), raw.get("code"))

    def name_or(self, default: Any) -> Any:
        """The name as `item.get('name', default)` gives it."""
        return self.name if self.has_name else default


def items_of(section: Mapping[str, dict[str, Any]]) -> dict[str, Item]:
    return {iid: Item.of(iid, raw) for iid, raw in section.items()}


class MoreViews:
    """The views of one content, each built on first use."""

    def __init__(self, content: Content) -> None:
        self.content = content

    @cached_property
    def factions(self) -> dict[str, Item]:
        return items_of(self.content.factions)

    @cached_property
    def territories(self) -> dict[str, Item]:
        return items_of(self.content.territories)

    @cached_property
    def regions(self) -> dict[str, Item]:
        return items_of(self.content.regions)

    @cached_property
    def cards(self) -> dict[str, Item]:
        return items_of(self.content.cards)

    @cached_property
    def population(self) -> dict[str, Any]:
        """Sticker -> the population of what it founds (None: it founds nothing, or gives none)."""
        return {sid: as_dict(st.get("founds")).get("population") for sid, st in self.content.stickers.items()}

    def section(self, name: str) -> dict[str, Item]:
        """Any section's items (those that are mappings), by id."""
        found = self._sections.get(name)
        if found is None:
            raw = self.content.game.section(name)
            found = self._sections[name] = {iid: Item.of(iid, it) for iid, it in raw.items() if isinstance(it, dict)}
        return found

    @cached_property
    def _sections(self) -> dict[str, dict[str, Item]]:
        return {}

    def pieces_of(self, kind: str) -> dict[str, Item]:
        found = self._pieces.get(kind)
        if found is None:
            found = self._pieces[kind] = items_of(self.content.pieces_of(kind))
        return found

    @cached_property
    def _pieces(self) -> dict[str, dict[str, Item]]:
        return {}


def more(content: Content) -> MoreViews:
    """The content's views, kept on the content (as its cached properties are): built once per content, and gone
    with it."""
    kept = vars(content)  # where its cached properties are too
    found = kept.get("_more_views")
    if not isinstance(found, MoreViews):
        found = kept["_more_views"] = MoreViews(content)
    return found
