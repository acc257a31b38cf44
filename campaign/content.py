"""Lookups over a game's effective content that the tracker needs: stickers, targets, rewards.

Knows the content model's shapes (sections, `targets` kinds, slots) and nothing about any one
game. Built once per command from a `Game`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from scarbook.compiler.model import Game, known

from .ids import normalize

#: Target kinds of the sticker schema -> the section whose items they name.
TARGET_SECTIONS = {
    "territory": "territories", "continent": "regions", "region": "regions", "card": "cards",
    "territory-card": "cards", "faction-card": "factions", "warlord-card": "cards",
}


@dataclass(frozen=True)
class Target:
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

    @cached_property
    def card_of_territory(self) -> dict[str, str]:
        return {c["territory"]: cid for cid, c in self.cards.items() if isinstance(c.get("territory"), str)}

    @cached_property
    def deck_types(self) -> dict[str, str]:
        return {did: str(d.get("card_type", "")) for did, d in self.game.section("decks").items()}

    @cached_property
    def rewards_limit(self) -> int | None:
        camp = self.game.meta.get("campaign")
        value = known(camp.get("rewards_in_first_games")) if isinstance(camp, dict) else None
        return value if isinstance(value, int) else None

    @cached_property
    def reward_stickers(self) -> dict[str, list[str]]:
        """Sticker id -> the roles (winner, held-on …) whose rewards place it."""
        out: dict[str, list[str]] = {}
        for rew in self.rewards.values():
            for sid in rew.get("place", []) or []:
                out.setdefault(sid, []).append(str(rew.get("for")))
        return out

    @cached_property
    def destroy_stickers(self) -> list[str]:
        return [sid for sid, st in self.stickers.items() if st.get("kind") == "destroyed"]

    @cached_property
    def powers(self) -> dict[str, str]:
        """Candidate option id (a faction's power) -> the faction it belongs to."""
        out = {}
        for fid, fac in self.factions.items():
            for p in fac.get("powers", []) or []:
                if isinstance(p, dict) and isinstance(p.get("id"), str):
                    out[p["id"]] = fid
        return out

    def card_kind(self, card: dict[str, Any]) -> str:
        return str(card.get("type") or self.deck_types.get(str(card.get("deck")), ""))

    def target_ids(self, kind: str, sticker: dict[str, Any]) -> list[str]:
        """Every id a sticker could name as a target of this kind."""
        if kind == "territory-card":
            return [cid for cid, c in self.cards.items() if self.card_kind(c) == "territory"]
        if kind == "warlord-card":
            return [cid for cid, c in self.cards.items() if self.card_kind(c) == "warlord"]
        if kind == "card":
            deck = sticker.get("deck")
            return [cid for cid, c in self.cards.items() if not deck or c.get("deck") == deck]
        section = TARGET_SECTIONS.get(kind)
        return list(self.game.section(section)) if section else []

    def resolve(self, sticker: dict[str, Any], raw: str) -> Target | None:
        """The target a person means by `raw` for this sticker (`alaska` is the Alaska card for a coin)."""
        wanted = normalize(raw)
        for kind in sticker.get("targets", []):
            section = TARGET_SECTIONS.get(kind)
            if section is None:
                continue
            items = self.game.section(section)
            candidates = [wanted]
            if kind in ("territory-card", "card", "warlord-card"):
                candidates += [self.card_of_territory.get(wanted, ""), f"{wanted}-card"]
            for cid in candidates:  # any card: a check (target-deck) says why a wrong one is refused
                if cid and cid in items:
                    return Target(kind, cid, items[cid])
            for iid, item in items.items():  # a printed name or code
                if iid in self.target_ids(kind, sticker) and wanted in (
                        normalize(str(item.get("name", ""))), normalize(str(item.get("code", "")))):
                    return Target(kind, iid, item)
        return None

    def target_names(self, sticker: dict[str, Any]) -> list[str]:
        """Every id a person may type as this sticker's target (for a 'did you mean')."""
        names: list[str] = []
        for kind in sticker.get("targets", []):
            section = TARGET_SECTIONS.get(kind)
            if section is not None:
                names.extend(self.game.section(section))
            if kind in ("territory-card", "card", "warlord-card"):
                names.extend(self.card_of_territory)
        return names

    def label(self, item_id: str) -> str:
        found = self.game.item(item_id)
        if found and isinstance(found[1].get("name"), str):
            return f"{found[1]['name']}"
        return item_id

    def slot_capacity(self, target: Target, slot: str) -> int | None:
        """How many marks of a slot the target holds (None: no limit declared)."""
        slots = target.item.get("slots")
        if isinstance(slots, dict) and slot in slots:
            return int(slots[slot])
        if target.kind == "territory":
            default = self.game.board.get("default_slots") or {}
            if slot in default:
                return int(default[slot])
        return None
