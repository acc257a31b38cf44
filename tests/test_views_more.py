"""compiler/views_more.py: the typed views of pieces and places the tables and sheet read."""

from __future__ import annotations

from types import SimpleNamespace

from scarbook.compiler.items import places_of
from scarbook.compiler.views_more import Item, Power, more


def test_an_item_reads_what_it_finds_and_nothing_else() -> None:
    item = Item.of("f1", {"name": None, "stats": [1], "bonus": "2", "resources": 3,
                          "powers": ["not one", {"id": "p1", "name": "Strong"}, {"id": 7}, {"name": "no id"}]})
    assert item.printed_name is None and item.name == "" and item.has_name and item.name_or("f1") is None
    assert item.stats is None and item.bonus is None and item.resources == 3
    # a power is numbered by its place in the list, entries that are not options counted
    assert item.powers == (Power(2, "p1", "Strong"),)
    bare = Item.of("t1", {})
    assert bare.name_or("t1") == "t1" and not bare.has_name and bare.powers == ()


def test_the_views_are_built_once_per_content() -> None:
    stats = {"grit": 1}
    pieces = {"hero": {"h1": {"name": "Ann", "stats": stats}}}
    content = SimpleNamespace(factions={}, territories={}, regions={"r": {"bonus": 2}}, cards={},
                              stickers={"city": {"founds": {"population": 3}}, "fort": {}},
                              pieces_of=lambda kind: pieces[kind])
    content.places_in = lambda section: places_of(getattr(content, section))
    other = SimpleNamespace(**vars(content))
    views = more(content)
    assert more(content) is views and views.pieces_of("hero") is views.pieces_of("hero")
    assert views.pieces_of("hero")["h1"].stats is stats  # the item's own mapping, as the readers had it
    assert views.regions["r"].bonus == 2
    assert views.population == {"city": 3, "fort": None}
    assert more(other) is not views
