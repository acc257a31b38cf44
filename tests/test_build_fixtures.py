"""A tiny game built in Python (no validation) for fast build and render tests; no tests here."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from scarbook.compiler.model import ITEM_SECTIONS, Game
from scarbook.kernel.diagnostics import Span

TINY: dict[str, Any] = {
    "regions": [{"id": "isles", "name": "Isles", "bonus": 2},
                {"id": "reef", "name": "Reef", "bonus": {"unknown": "not printed"}}],
    "territories": [{"id": "north", "name": "North Isle", "regions": ["isles"], "layout": {"x": 10, "y": 10}},
                    {"id": "east", "name": "East Isle", "regions": ["isles", "reef"]},
                    {"id": "south", "name": "South Isle", "regions": ["reef"]}],
    "decks": [{"id": "isle-cards", "name": "Isle cards", "count": 4, "back": "Isles"},
              {"id": "big-cards", "name": "Big cards", "card_size": {"width": 70, "height": 120}}],
    "cards": [{"id": "north-card", "deck": "isle-cards", "name": "North Card", "resources": 2,
               "text": "Sail & conquer if 3 < 4"},
              {"id": "east-card", "deck": "isle-cards", "name": "East Card", "copies": 2,
               "stats": {"strength": 3, "skill": {"unknown": "not printed"}}},
              {"id": "giant-card", "deck": "big-cards", "name": "Giant Card", "text": "Huge."}],
    "stickers": [{"id": "kraken", "name": "Kraken", "kind": "scar", "targets": ["territory"], "supply": 3,
                  "size": {"width": 20, "height": 20}, "effect": "Defender rolls one die less."}],
    "envelopes": [{"id": "sealed-one", "name": "Sealed one", "trigger": {"text": "Open after game 2."},
                   "contents": ["secret-card"]}],
    "rewards": [{"id": "found-port", "name": "Found a port", "for": "winner", "text": "Put a port."}],
    "tables": [{"id": "recruit", "title": "Recruit", "columns": [{"id": "t", "title": "Territories"},
                {"id": "n", "title": "Troops"}], "formula": {"sum": ["territories"], "divide_by": 3,
                "minimum": 3, "range": [1, 15]}}],
}


def tiny_game(folder: Path, **changes: Any) -> Game:
    """The tiny game, its 'file' in `folder`; `changes` replace whole sections."""
    data = copy.deepcopy(TINY)
    data.update(changes)
    game = Game(id="tiny-isles", meta={"id": "tiny-isles", "title": "Tiny Isles", "summary": "Three islands."})
    game.sections = {s: {} for s in ITEM_SECTIONS}
    yaml_file = folder / "game.yaml"
    yaml_file.write_text("# stands for the content file\n")
    game.files = [str(yaml_file)]
    for line, (section, items) in enumerate(data.items(), start=2):
        for item in items:
            game.sections[section][item["id"]] = item
            game.spans[item["id"]] = Span(str(yaml_file), line, 5)
    game.edges = [("north", "east", "sea"), ("east", "south", "land")]
    return game.effective()
