"""The content model: one game's merged, validated content, as plain JSON-able data.

A `Game` is built by `compiler.load` from YAML files and is the only thing later stages see
(rule tables, renderers, the campaign tracker). It is JSON-serialisable so the tracker can
read it from a cache without importing the validator. It never imports jsonschema or Jinja2.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from scarbook.kernel.diagnostics import Span

#: Sections whose items are lists of objects with an `id`, in display order.
ITEM_SECTIONS = (
    "regions", "territories", "decks", "cards", "components", "stickers", "factions", "rewards",
    "envelopes", "rulebook", "rules", "tables", "schedule",
)

Item = dict[str, Any]

#: One item of a section, in words ("territories" -> "territory", "rulebook" -> "rulebook section").
SINGULAR = {
    "regions": "region", "territories": "territory", "edges": "edge", "decks": "deck", "cards": "card",
    "components": "component", "stickers": "sticker", "factions": "faction", "rewards": "reward",
    "envelopes": "envelope", "rulebook": "rulebook section", "rules": "rule", "tables": "table",
    "schedule": "scheduled game", "checks": "check", "powers": "power", "units": "unit", "slots": "slot",
}


def singular(section: str) -> str:
    """What one item of `section` is called."""
    return SINGULAR.get(section, section[:-1] if section.endswith("s") else section)


@dataclass
class Game:
    """One game (a shipped one, or a pack merged with the game it extends)."""

    id: str
    meta: dict[str, Any] = field(default_factory=dict)
    board: dict[str, Any] = field(default_factory=dict)
    sections: dict[str, dict[str, Item]] = field(default_factory=lambda: {s: {} for s in ITEM_SECTIONS})
    edges: list[tuple[str, str, str]] = field(default_factory=list)
    spans: dict[str, Span] = field(default_factory=dict)  # item id (or "edge:a:b") -> span of its id
    files: list[str] = field(default_factory=list)
    packs: list[str] = field(default_factory=list)
    fingerprint: str = ""
    file_cites: dict[str, list[str]] = field(default_factory=dict)  # file -> the cites of its top-level `source`
    #: The game of the campaign schedule players have reached (1 without a campaign; `spoilers.for_players`).
    reached: int = 1
    #: The campaign is over (its end condition holds, or every chapter is played): outputs say "as it ended".
    over: bool = False
    #: Where a campaign of a shape beyond the board stands, in the lines `status` prints (tracks and levels,
    #: scenarios played and open, chapters, the result): the aid's "The world now" (`reading.as_players_see`).
    standing: tuple[str, ...] = ()

    # --- lookups -------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return str(self.meta.get("title", self.id))

    def section(self, name: str) -> dict[str, Item]:
        return self.sections.setdefault(name, {})

    def item(self, item_id: str) -> tuple[str, Item] | None:
        for name, items in self.sections.items():
            if item_id in items:
                return name, items[item_id]
        return None

    def all_ids(self) -> Iterator[str]:
        for items in self.sections.values():
            yield from items

    def span(self, item_id: str) -> Span:
        return self.spans.get(item_id, Span(self.files[0] if self.files else self.id))

    def sources_of(self, items: dict[str, Item]) -> list[str]:
        """The cites of these items, in order, once each: an item's own `source`, else its file's."""
        out: list[str] = []
        for item_id, item in items.items():
            for c in cites(item) or self.file_cites.get(self.span(item_id).file, []):
                if c not in out:
                    out.append(c)
        return out

    # --- board ---------------------------------------------------------------------------
    def neighbors(self) -> dict[str, list[str]]:
        """Symmetric adjacency from `edges` and territories' `neighbors` lists, every territory
        present, neighbours in the order they are given."""
        adj: dict[str, list[str]] = {t: [] for t in self.section("territories")}
        listed = [(tid, n) for tid, t in self.section("territories").items() for n in as_list(t.get("neighbors"))
                  if isinstance(n, str)]
        for a, b in [(a, b) for a, b, _kind in self.edges] + listed:
            if a in adj and b in adj and a != b:
                if b not in adj[a]:
                    adj[a].append(b)
                if a not in adj[b]:
                    adj[b].append(a)
        return adj

    def region_members(self) -> dict[str, list[str]]:
        members: dict[str, list[str]] = {r: [] for r in self.section("regions")}
        for tid, terr in self.section("territories").items():
            for r in as_list(terr.get("regions")):
                members.setdefault(r, []).append(tid)
        return members

    # --- sealed content ------------------------------------------------------------------
    def sealed_ids(self, opened: Iterable[str] = ()) -> set[str]:
        """Ids listed in envelopes that are not opened (recursively: an envelope inside one)."""
        opened = set(opened)
        sealed: set[str] = set()
        for env_id, env in self.section("envelopes").items():
            if env_id in opened or env.get("opened_at_start"):
                continue
            contents = env.get("contents")
            if isinstance(contents, list):
                sealed.update(contents)
        return sealed

    def has_sealed_slots(self) -> bool:
        return any(isinstance(v, dict) and "sealed_slots" in v for items in self.sections.values()
                   for v in items.values())

    def effective(self, opened: Iterable[str] = ()) -> Game:
        """This game as players may see it: everything sealed (and unopened) left out; an item's sealed slots
        (`sealed_slots`) joined to its `slots` once their envelope is opened, and out of sight until then."""
        opened = set(opened) | {eid for eid, env in self.section("envelopes").items() if env.get("opened_at_start")}
        sealed = self.sealed_ids(opened)
        if not sealed and not self.has_sealed_slots() and not any(
                "sealed_count" in d for d in self.section("decks").values()):
            return self
        sections = {name: {i: with_opened_slots(v, opened) for i, v in items.items() if i not in sealed}
                    for name, items in self.sections.items()}
        for did, deck in sections.get("decks", {}).items():
            if "sealed_count" in deck:
                sections["decks"][did] = with_opened_count(deck, opened)
        territories = sections["territories"]
        edges = [e for e in self.edges if e[0] in territories and e[1] in territories]
        board = self.board
        declared = board.get("territory_count")
        ever_sealed = self.sealed_ids()
        unsealed = [t for t in self.section("territories") if t in ever_sealed and t not in sealed]
        if isinstance(declared, int) and unsealed:  # the declared count is the board's as the game starts
            board = {**board, "territory_count": declared + len(unsealed)}
        return Game(self.id, self.meta, board, sections, edges, self.spans, self.files, self.packs,
                    self.fingerprint, self.file_cites)

    # --- serialisation (the tracker's cache) ---------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "meta": self.meta, "board": self.board, "sections": self.sections,
            "edges": [list(e) for e in self.edges],
            "spans": {k: [s.file, s.line, s.column] for k, s in self.spans.items()},
            "files": self.files, "packs": self.packs, "fingerprint": self.fingerprint, "file_cites": self.file_cites,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        return cls(
            data["id"], data["meta"], data["board"], data["sections"],
            [(a, b, k) for a, b, k in data["edges"]],
            {k: Span(f, line, col) for k, (f, line, col) in data["spans"].items()},
            data["files"], data["packs"], data["fingerprint"], data.get("file_cites", {}),
        )


def with_opened_slots(item: Item, opened: set[str]) -> Item:
    """The item as players see it: each of its `sealed_slots` whose envelope is opened added to its `slots`;
    the sealed ones (and the `sealed_slots` key itself) left out, so nothing names a slot still sealed."""
    sealed_slots = item.get("sealed_slots") if isinstance(item, dict) else None
    if sealed_slots is None:
        return item
    out = {k: v for k, v in item.items() if k != "sealed_slots"}
    slots = dict(as_dict(out.get("slots")))
    for slot, spec in as_dict(sealed_slots).items():
        spec = as_dict(spec)
        if spec.get("envelope") in opened:
            slots[slot] = int(spec.get("count", 1))
    if slots or "slots" in out:
        out["slots"] = slots
    return out


def with_opened_count(deck: Item, opened: set[str]) -> Item:
    """A deck as players see it: its `count` (as the game starts) plus the cards each opened envelope of its
    `sealed_count` (envelope -> cards it adds) brought; the `sealed_count` key left out."""
    out = {k: v for k, v in deck.items() if k != "sealed_count"}
    if isinstance(out.get("count"), int):
        out["count"] += sum(int(n) for env, n in as_dict(deck.get("sealed_count")).items()
                            if env in opened and isinstance(n, int))
    return out


def sealed_slot_envelopes(item: Item) -> dict[str, str]:
    """Slot -> the envelope that keeps it sealed, for an item's `sealed_slots`."""
    return {slot: str(as_dict(spec).get("envelope")) for slot, spec in as_dict(item.get("sealed_slots")).items()}


def components(adj: dict[str, list[str]]) -> list[list[str]]:
    """Connected parts of a graph, each in first-seen order, parts ordered by their first member."""
    seen: set[str] = set()
    parts = []
    for start in adj:
        if start in seen:
            continue
        seen.add(start)
        part, stack = [start], [start]
        while stack:
            for n in adj.get(stack.pop(), []):
                if n not in seen:
                    seen.add(n)
                    part.append(n)
                    stack.append(n)
        parts.append(part)
    return parts


def cites(item: Item | None) -> list[str]:
    """The cites of an item's (or a file's) `source` (a string or a list), in order."""
    source = (item or {}).get("source")
    if not isinstance(source, dict):
        return []
    cite = source.get("cite")
    if isinstance(cite, str):
        return [cite]
    return [c for c in cite or [] if isinstance(c, str)] if isinstance(cite, list) else []


def is_unknown(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"unknown"}


def known(value: Any, default: Any = None) -> Any:
    """The value, or `default` where the content marks it unknown."""
    return default if value is None or is_unknown(value) else value


def place_name(title: str, label: str) -> str:
    """A rulebook place (a slot stickers go in) in words: 'Rules additions B and C: Rules addition B', or the
    label alone where the section is titled after its one place ('Rules addition E', not 'Rules addition E:
    Rules addition E'), or the title alone where the place has no label."""
    title, label = title.strip(), label.strip()
    if not label or label.casefold() == title.casefold():
        return title or label
    return f"{title}: {label}" if title else label


def as_list(value: Any) -> list[Any]:
    """The value when it is a list, else an empty list (content that failed its schema is still merged)."""
    return value if isinstance(value, list) else []


def as_dict(value: Any) -> dict[str, Any]:
    """The value when it is a mapping, else an empty one."""
    return value if isinstance(value, dict) else {}


#: Footnote marks the outputs put on data the rulebooks do not print: inferred, or resting on one
#: unofficial source (`source: {confidence: L}`).
INFERRED_MARK = "†"
LOW_CONFIDENCE_MARK = "‡"


def low_confidence(item: Any) -> dict[str, Any] | None:
    """The item's `source` when it says `confidence: L` (one unofficial source), else None."""
    source = item.get("source") if isinstance(item, dict) else None
    return source if isinstance(source, dict) and source.get("confidence") == "L" else None


