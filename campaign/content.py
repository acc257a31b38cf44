"""Lookups over a game's effective content that the tracker needs: stickers, targets, rewards.

Knows the content model's shapes (sections, `targets` kinds, slots) and nothing about any one
game. Built once per command from a `Game`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from scarbook.campaign import checks as checks  # registers the named checks with the language
from scarbook.campaign.ids import normalize, pick
from scarbook.campaign.lang import Library
from scarbook.campaign.model import CampaignModel
from scarbook.compiler.items import (
    Card,
    Envelope,
    Place,
    Reward,
    Sticker,
    cards_of,
    envelopes_of,
    places_of,
    sticker_views,
)
from scarbook.compiler.model import Game

#: The sections whose items stickers go on and whose lists a `choice-of` check may pick from.
PLACE_SECTIONS = ("territories", "regions", "cards", "factions")

#: Target kinds of the sticker schema -> the section whose items they name. Any other kind
#: ending in `-card` (`territory-card`, a card type the content declares) names the cards of
#: that type (`card_kind`).
TARGET_SECTIONS = {
    "territory": "territories", "continent": "regions", "region": "regions", "card": "cards",
    "faction-card": "factions",
}


#: The target kind that names the sticker places (`slots`) of the rulebook's sections.
RULEBOOK_SLOT = "rulebook-slot"

#: The target kind (and its one id) that names the gameboard as a whole (a sticker for the board's legend).
BOARD = "board"


def section_of(kind: str) -> str | None:
    """The content section a target kind names (None: not a kind the tracker can resolve)."""
    if kind == RULEBOOK_SLOT:
        return "rulebook"
    if kind == BOARD:
        return "board"
    if kind in TARGET_SECTIONS:
        return TARGET_SECTIONS[kind]
    return "cards" if kind.endswith("-card") else None


def is_card_kind(kind: str) -> bool:
    return section_of(kind) == "cards"


@dataclass(frozen=True)
class Target:
    """What a sticker can go on: its kind, its id and the content item."""

    kind: str  # a target kind from the sticker schema (territory, continent, territory-card …)
    id: str
    item: dict[str, Any]


class Content:
    """A game's effective content (nothing sealed), indexed for the tracker."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.stickers: dict[str, dict[str, Any]] = game.section("stickers")
        self.territories = game.section("territories")
        self.regions = game.section("regions")
        self.cards = game.section("cards")
        self.factions = game.section("factions")
        self.envelopes = game.section("envelopes")
        self.rewards = game.section("rewards")
        self._pieces: dict[str, dict[str, dict[str, Any]]] = {}
        self._places: dict[str, dict[str, Place]] = {}

    @cached_property
    def model(self) -> CampaignModel:
        return CampaignModel.of(self.game)

    @cached_property
    def sticker_views(self) -> dict[str, Sticker]:
        """The stickers as typed views (compiler/items.py), built on first use, once per game (`as_played` keeps
        those of the game it changes)."""
        return sticker_views(self.game)

    def sticker_view(self, sid: str) -> Sticker:
        """A sticker's view; one the content does not list reads as a sticker of nothing (no adds, no checks)."""
        found = self.sticker_views.get(sid)
        return found if found is not None else Sticker.of(sid, {})

    @cached_property
    def card_views(self) -> dict[str, Card]:
        """The cards as typed views, built on first use, once per content."""
        return cards_of(self.cards)

    @cached_property
    def envelope_views(self) -> dict[str, Envelope]:
        """The sealed packets as typed views, built on first use, once per content."""
        return envelopes_of(self.envelopes)

    def places_in(self, section: str) -> dict[str, Place]:
        """A section's items as places (compiler/items.py::Place), built on first use, once per content."""
        found = self._places.get(section)
        if found is None:
            found = self._places[section] = places_of(self.game.section(section))
        return found

    def places_for(self, kind: str) -> dict[str, Place]:
        """The items a target kind names (`items_of`) as places, built on first use, once per content."""
        if kind in (RULEBOOK_SLOT, BOARD):
            key = "@" + kind  # not a section's name
            found = self._places.get(key)
            if found is None:
                found = self._places[key] = places_of(self.items_of(kind))
            return found
        section = section_of(kind)
        return self.places_in(section) if section else {}

    def place(self, target: Target) -> Place:
        """The target's item as a place (a deck standing for its cards, or an item not of its kind's section, is
        read from the target itself)."""
        found = self.places_for(target.kind).get(target.id)
        if found is None or self.items_of(target.kind).get(target.id) is not target.item:
            return Place.of(target.id, target.item)
        return found

    @cached_property
    def conditions(self) -> Library:
        """The content's conditions and queries, compiled once (campaign/lang.py)."""
        return Library(self.model.conditions)

    def pieces_of(self, kind: str) -> dict[str, dict[str, Any]]:
        """The items a player may play as this piece kind (a section, or one deck of cards); do not change it."""
        found = self._pieces.get(kind)
        if found is None:
            pk = self.model.pieces.get(kind)
            items = self.game.section(pk.section) if pk is not None else {}
            places = self.places_in(pk.section) if pk is not None else {}
            found = {i: v for i, v in items.items() if pk is not None and (not pk.deck or places[i].deck == pk.deck)}
            self._pieces[kind] = found  # every game start and end asks: the replay's hot path
        return found

    def options_of(self, faction: str, field: str) -> list[Any]:
        """The ids of a faction's options in its list `field` (its powers …) that a `choice-of` check offers."""
        place = self.places_in("factions").get(faction)
        return list(place.options.get(field, ())) if field and place is not None else []

    def piece_kind_of(self, item_id: str) -> str | None:
        for kind in self.model.pieces:
            if item_id in self.pieces_of(kind):
                return kind
        return None

    @cached_property
    def line_stickers(self) -> frozenset[str]:
        """The stickers that bring lines to draw (`links.each`): a game start asks whether any is placed."""
        from scarbook.campaign.links import lines_of

        return frozenset(sid for sid, st in self.sticker_views.items() if lines_of(st)[0])

    @cached_property
    def belongs_to(self) -> dict[str, str]:
        """Sticker or deck id -> the piece it belongs to (a character's own stickers and cards)."""
        out = {}
        for views in (self.sticker_views, self.places_in("decks")):
            for iid, item in views.items():
                if item.belongs_to is not None:
                    out[iid] = item.belongs_to
        return out

    def piece_of(self, sticker_id: str, target: Target) -> str | None:
        """The piece a placement concerns: the sticker's own, the target itself, or its deck's."""
        if sticker_id in self.belongs_to:
            return self.belongs_to[sticker_id]
        if target.id in self.belongs_to:
            return self.belongs_to[target.id]
        if self.piece_kind_of(target.id):
            return target.id
        deck = self.place(target).deck
        return self.belongs_to.get(deck) if isinstance(deck, str) else None

    @cached_property
    def card_of_territory(self) -> dict[str, str]:
        return {c.territory: cid for cid, c in self.card_views.items() if c.territory is not None}

    @cached_property
    def deck_types(self) -> dict[str, str]:
        return {did: d.card_type for did, d in self.places_in("decks").items()}

    @cached_property
    def rewards_limit(self) -> int | None:
        """The last game that gives rewards (None: every game does)."""
        model = self.model
        return model.rewards_until if model.rewards_until is not None else model.games

    @cached_property
    def reward_stickers(self) -> dict[str, list[str]]:
        """Sticker id -> the roles (winner, held-on …) whose rewards place it."""
        out: dict[str, list[str]] = {}
        for rid, raw in self.rewards.items():
            rew = Reward.of(rid, raw)
            for sid in rew.place:
                out.setdefault(sid, []).append(rew.role)
        return out

    @cached_property
    def destroy_stickers(self) -> list[str]:
        return [sid for sid, st in self.sticker_views.items() if st.kind == "destroyed"]

    @cached_property
    def choice_fields(self) -> tuple[str, ...]:
        """The lists of options a sticker's `choice-of` check picks from (its `field`: a faction's `powers` …)."""
        found = {c.field or "powers" for st in self.sticker_views.values() for c in st.checks_named("choice-of")}
        return tuple(sorted(found))

    @cached_property
    def powers(self) -> dict[str, str]:
        """Candidate option id (one of a faction's options a `choice-of` check offers: its powers …) -> the faction
        it belongs to."""
        out = {}
        for fid, fac in self.places_in("factions").items():
            for field in self.choice_fields:
                for pid in fac.options.get(field, ()):
                    if isinstance(pid, str):
                        out[pid] = fid
        return out

    @cached_property
    def option_names(self) -> dict[str, str]:
        """Each option a `choice-of` check offers, by id -> how it is told: its printed name, else its place in its
        item's list in the game's word for one of them (the list's singular: "chosen power 2 (its name is not
        known)"), as the sheet, the history and the chronicle tell it."""
        from scarbook.compiler.model import known, singular
        from scarbook.compiler.words import words

        said = words(self.game)
        out: dict[str, str] = {}
        for field in self.choice_fields:
            word = said[singular(field)].one if singular(field) in said else singular(field)
            for section in PLACE_SECTIONS:
                for item in self.game.section(section).values():
                    options = item.get(field) if isinstance(item, dict) else None
                    for number, option in enumerate(options if isinstance(options, list) else [], 1):
                        if isinstance(option, dict) and isinstance(option.get("id"), str):
                            out.setdefault(option["id"], str(known(option.get("name"))
                                                             or f"{word} {number} (its name is not known)"))
        return out

    @cached_property
    def rulebook_slots(self) -> dict[str, dict[str, Any]]:
        """Every place for a sticker in the rulebook (slot id -> the slot, with `section`: its section's id)."""
        out: dict[str, dict[str, Any]] = {}
        for sec_id, sec in self.game.section("rulebook").items():
            for slot in sec.get("slots", []) or []:
                if isinstance(slot, dict) and isinstance(slot.get("id"), str):
                    out[slot["id"]] = {**slot, "name": slot.get("label", slot["id"]), "section": sec_id}
        return out

    def items_of(self, kind: str) -> dict[str, dict[str, Any]]:
        """The items a target kind names (a section's items, or the rulebook's sticker places)."""
        if kind == RULEBOOK_SLOT:
            return self.rulebook_slots
        if kind == BOARD:  # the gameboard itself, one target (a sticker for its printed legend)
            return {BOARD: {"name": "the gameboard"}}
        section = section_of(kind)
        return self.game.section(section) if section else {}

    def decks_of(self, card_type: str) -> list[str]:
        """Decks of this card type whose cards the content does not list: the deck stands for 'one of its
        cards' (a sticker goes on one of eight cards whose texts are unknown)."""
        listed = {c.deck for c in self.card_views.values()}
        return [d for d, t in self.deck_types.items() if t == card_type and d not in listed]

    def card_kind(self, card: Card) -> str:
        return card.type or self.deck_types.get(str(card.deck), "")

    def added_regions(self, sticker: Sticker) -> list[str] | None:
        """For a sticker that adds territories (a new continent): the regions they form; else None."""
        added = list(sticker.adds_territories)
        if not added:
            return None
        land = {**self.places_in("off_board"), **self.places_in("territories")}
        return list(dict.fromkeys(str(r) for t in added if t in land for r in land[t].regions))

    def target_ids(self, kind: str, sticker: Sticker) -> list[str]:
        """Every id a sticker could name as a target of this kind."""
        added = self.added_regions(sticker) if section_of(kind) == "regions" else None
        if added is not None:
            return [r for r in added if r in self.regions]
        if kind == "card":
            deck = sticker.deck
            return [cid for cid, c in self.card_views.items() if not deck or c.deck == deck]
        if kind not in TARGET_SECTIONS and kind.endswith("-card"):
            wanted = kind.removesuffix("-card")
            return [cid for cid, c in self.card_views.items() if self.card_kind(c) == wanted] + self.decks_of(wanted)
        return list(self.items_of(kind))

    def resolve(self, sticker: Sticker, raw: str) -> Target | None:
        """The target a person means by `raw` for this sticker (a territory's id names its territory card
        for a sticker that goes on territory cards)."""
        for kind in sticker.targets:
            section = section_of(kind)
            if section is None:
                continue
            items, places = self.items_of(kind), self.places_for(kind)
            wanted = pick(raw, items)  # `s02` as typed when there is such an id, else `AS12` -> `as-12`
            added = self.added_regions(sticker) if section == "regions" else None
            if added is not None:
                items = {r: v for r, v in items.items() if r in added}
            candidates = [wanted]
            if is_card_kind(kind):
                candidates += [self.card_of_territory.get(wanted, ""), f"{wanted}-card"]
            for cid in candidates:  # any card: a check (target-deck) says why a wrong one is refused
                if cid and cid in items:
                    return Target(kind, cid, items[cid])
            if section == "cards" and wanted in self.target_ids(kind, sticker):  # a deck standing for its cards
                return Target(kind, wanted, self.game.section("decks")[wanted])
            for iid, item in items.items():  # a printed name or code
                if iid in self.target_ids(kind, sticker) and wanted in (
                        normalize(places[iid].name), normalize(places[iid].code)):
                    return Target(kind, iid, item)
        return None

    def target_of_kind(self, kind: str, tid: str) -> Target:
        """The item `tid` as a target of this kind (a deck standing for its unlisted cards included)."""
        items = self.items_of(kind)
        item = items.get(tid) if tid in items else self.game.section("decks").get(tid, {})
        return Target(kind, tid, item or {})

    def target(self, sticker: Sticker, tid: str) -> Target:
        """A canonical target id (as the ledger records it) back to its target, by the sticker's kinds."""
        for kind in sticker.targets:
            if tid in self.target_ids(kind, sticker):
                return self.target_of_kind(kind, tid)
        return Target("", tid, {})

    def target_names(self, sticker: Sticker) -> list[str]:
        """Every id a person may type as this sticker's target (for a 'did you mean')."""
        names: list[str] = []
        for kind in sticker.targets:
            added = self.added_regions(sticker) if section_of(kind) == "regions" else None
            names.extend(r for r in self.items_of(kind) if added is None or r in added)  # as `resolve` takes them
            if is_card_kind(kind):
                names.extend(self.card_of_territory)
        return names

    def label(self, item_id: str) -> str:
        found = self.game.item(item_id)
        if found and isinstance(found[1].get("name"), str):
            return f"{found[1]['name']}"
        return item_id

    def slot_capacity(self, target: Target, slot: str) -> int | None:
        """How many marks of a slot the target holds (None: no limit declared).

        A slot that some territories declare (`slots`) and the board's `default_slots` does not is
        offered only by those territories: every other territory holds none (0). Any other item that declares
        its `slots` (a faction card) holds only those: a slot still sealed (`sealed_slots` of a packet not yet
        opened, left out of the effective content) is not one of them until its packet is opened.
        """
        slots = self.place(target).slots
        if slots is not None and slot in slots:
            return int(slots[slot])
        if target.kind != "territory" and slots is not None:
            return 0
        if target.kind == "territory":
            default = self.game.board.get("default_slots") or {}
            if slot in default:
                return int(default[slot])
            if self.offered_by(target.kind, slot):
                return 0
        return None

    def declared_places(self, sticker: Sticker) -> dict[str, list[str]]:
        """The territories that offer this sticker's slot (when only some do) and that carry each tag its
        `target-tagged` checks name (`"lighthouse slot": [...]`, `"coastal": [...]`, `"not mountain": [...]`)."""
        out: dict[str, list[str]] = {}
        slot = sticker.slot
        if slot and "territory" in sticker.targets \
                and slot not in (self.game.board.get("default_slots") or {}) and self.offered_by("territory", slot):
            out[f"{slot} slot"] = self.offered_by("territory", slot)
        for chk in sticker.checks_named("target-tagged"):
            if chk.tag:
                tagged = [tid for tid, terr in self.places_in("territories").items() if chk.tag in terr.tags]
                if chk.absent:
                    tagged = [tid for tid in self.game.section("territories") if tid not in tagged]
                out[("not " if chk.absent else "") + chk.tag] = tagged
        return out

    def offered_by(self, kind: str, slot: str) -> list[str]:
        """The items of a target kind's section that declare this slot themselves (with room for one or more)."""
        section = section_of(kind)
        if section is None:
            return []
        return [iid for iid, item in self.places_in(section).items()
                if item.slots is not None and int(item.slots.get(slot) or 0) > 0]
