"""Where a campaign stands, typed: the rows `report.status` builds and the sheet reads by attribute.

`Status.json()` is `scarbook campaign status --format json` (`report.status_data`): the same keys in the
same order. NamedTuples, not dataclasses: a status builds hundreds of rows and start-up time counts. Keys
a row only has in some games (a player's `score_total`, a region's `owner`, a game's `scores`) are None on
the row and left out of its JSON, as before.
"""

from typing import Any, NamedTuple


class MarkRow(NamedTuple):
    """One placed sticker, as `status` lists it (`marks`)."""

    target: str
    sticker: str
    kind: str
    slot: str | None
    name: str | None
    by: str | None
    game: int
    during_game: int | None
    active: bool
    covered_by: str | None
    status: str | None
    placed_by: str | None
    cancels: bool
    boxes: int | None
    left: int | None

    def json(self) -> dict[str, Any]:
        return self._asdict()


class GroupedMark(NamedTuple):
    """A mark in its mark group: cancelled or not, and where else it is shown (a power, a value, a name)."""

    mark: MarkRow
    cancelled: bool
    shown_as: str | None  # "choice", "value", "name", "destroyed" or None
    population: int | None

    def json(self) -> dict[str, Any]:
        return {**self.mark._asdict(), "cancelled": self.cancelled, "shown_as": self.shown_as,
                "population": self.population}


class MarkGroupRow(NamedTuple):
    id: str
    title: str
    plural: str
    board: bool
    declared: bool
    marks: list[GroupedMark]

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "plural": self.plural, "board": self.board,
                "declared": self.declared, "marks": [m.json() for m in self.marks]}


class PlayerRow(NamedTuple):
    name: str
    signatures: int
    tokens: dict[str, int]
    owns: dict[str, list[str]]
    legal_starts: list[str]
    may_take: list[str]
    score_total: int | None = None  # where the game keeps scores
    claimed: list[str] | None = None  # where the game has claims

    def json(self) -> dict[str, Any]:
        out = {"name": self.name, "signatures": self.signatures, "tokens": self.tokens, "owns": self.owns,
               "legal_starts": self.legal_starts, "may_take": self.may_take}
        if self.score_total is not None:
            out["score_total"] = self.score_total
        if self.claimed is not None:
            out["claimed"] = self.claimed
        return out


class RegionRow(NamedTuple):
    owner: str | None  # where the game has claims and a player's claim is on it
    id: str
    name: str | None
    named_by: str | None
    named_with: str | None
    printed_bonus: int | None
    bonus: int | None
    changes: list[str]

    def json(self) -> dict[str, Any]:
        out = self._asdict()
        if not self.owner:
            del out["owner"]
        return out


class ResourceRow(NamedTuple):
    card: str
    resources: int
    printed: int

    def json(self) -> dict[str, Any]:
        return self._asdict()


class StickerRow(NamedTuple):
    sticker: str
    placed: int
    pool: str | None
    left: int | None

    def json(self) -> dict[str, Any]:
        return self._asdict()


class FactionGame(NamedTuple):
    game: int
    player: str | None
    start: str | None
    result: str

    def json(self) -> dict[str, Any]:
        return self._asdict()


class FactionRow(NamedTuple):
    id: str
    name: str
    given_name: str | None
    power: str | None
    marks: list[str]
    history: list[FactionGame]

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "given_name": self.given_name, "power": self.power,
                "marks": self.marks, "history": [h.json() for h in self.history]}


class GameRow(NamedTuple):
    game: int
    type: str
    plays: dict[str, str]
    pieces: dict[str, dict[str, str]]
    starts: dict[str, str]
    seating: list[str]
    ended: bool
    winner: str | None
    held_on: list[str]
    eliminated: list[str]
    lost: list[str]
    returned: dict[str, str]
    signed: bool
    date: str | None
    team: str | None
    chapter: str | None
    scenario: str | None = None  # where a scenario was played
    scenario_name: str | None = None
    scores: dict[str, int] | None = None  # where the game keeps scores

    def json(self) -> dict[str, Any]:
        out = self._asdict()
        if self.scenario is None:
            del out["scenario"], out["scenario_name"]
        if self.scores is None:
            del out["scores"]
        return out


class PieceRow(NamedTuple):
    piece: str
    name: str
    given_name: str | None
    owner: str | None
    stats: dict[str, Any]
    printed: dict[str, int | None]
    raised: dict[str, int]
    lost: bool
    retired: str | None

    def json(self) -> dict[str, Any]:
        return self._asdict()


class SignatureRow(NamedTuple):
    player: str
    game: int

    def json(self) -> dict[str, Any]:
        return self._asdict()


class OwedReward(NamedTuple):
    """A step a player still owes (`owed_rewards`): who, and the role it is for."""

    player: str
    role: str

    def json(self) -> dict[str, Any]:
        return self._asdict()


#: The keys of the status JSON kept as printed in `Status.rest`, in their order.
REST = ("cities", "fortifications", "scores_kept", "to_put_in_place", "packs", "lines", "cuts", "todo", "steps",
        "passes", "joined", "left", "next_game", "events", "campaign_games", "on_territories")


def _grouped(m: dict[str, Any]) -> GroupedMark:
    return GroupedMark(MarkRow(*(m[k] for k in MarkRow._fields)), m["cancelled"], m["shown_as"], m["population"])


class Status(NamedTuple):
    """Where the campaign stands. The rows the sheet reads are typed; `rest` holds the other keys of the JSON
    (steps, passes, to-do, links...) and `shape` what the campaign's shape adds (chapters, tracks, a team's
    result), both as they are printed."""

    campaign: str | None
    game: str
    players: list[PlayerRow]
    signatures: list[SignatureRow]
    games_played: int
    game_in_progress: int | None
    games: list[GameRow]
    continents: list[RegionRow]
    words: dict[str, dict[str, str]]
    signs: bool
    regions_named: bool
    starts_used: bool
    mark_groups: list[MarkGroupRow]
    resources: list[ResourceRow]
    destroyed_cards: list[str]
    stickers: list[StickerRow]
    factions: list[FactionRow]
    pending_packets: list[str]
    opened_packets: list[str]
    owed_rewards: list[OwedReward]
    token_names: dict[str, dict[str, str]]
    pieces: list[PieceRow]
    marks: list[MarkRow]
    overall_winner: dict[str, Any] | None
    rest: dict[str, Any]
    shape: dict[str, Any]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Status":
        """The status `json()` printed, typed again (the status text reads the JSON a test or a caller hands it)."""
        plain = ("campaign", "game", "games_played", "game_in_progress", "words", "signs", "regions_named",
                 "starts_used", "destroyed_cards", "pending_packets", "opened_packets", "token_names",
                 "overall_winner")
        rest = {k: d[k] for k in REST}
        rest["on_territories"] = [MarkRow(**m) for m in d["on_territories"]]
        known = {*cls._fields, *REST}
        return cls(
            **{k: d[k] for k in plain},
            players=[PlayerRow(**p) for p in d["players"]], signatures=[SignatureRow(**x) for x in d["signatures"]],
            games=[GameRow(**g) for g in d["games"]], continents=[RegionRow(**{"owner": None, **r})
                                                                  for r in d["continents"]],
            mark_groups=[MarkGroupRow(**{**g, "marks": [_grouped(m) for m in g["marks"]]}) for g in d["mark_groups"]],
            resources=[ResourceRow(**c) for c in d["resources"]], stickers=[StickerRow(**x) for x in d["stickers"]],
            factions=[FactionRow(**{**f, "history": [FactionGame(**h) for h in f["history"]]})
                      for f in d["factions"]],
            owed_rewards=[OwedReward(**o) for o in d["owed_rewards"]], pieces=[PieceRow(**p) for p in d["pieces"]],
            marks=[MarkRow(**m) for m in d["marks"]], rest=rest, shape={k: v for k, v in d.items() if k not in known})

    def word(self, key: str, n: int = 1) -> str:
        """The game's word for `key` ('signature', 'continent' …), singular or plural by `n`."""
        w = self.words[key] if key in self.words else {"one": key, "many": key + "s"}
        return str(w["one"] if n == 1 else w["many"])

    def json(self) -> dict[str, Any]:
        """`status --format json`: every key, in the order it has always had."""
        r = self.rest
        marks = [m.json() for m in self.marks]
        return {
            "campaign": self.campaign, "game": self.game, "players": [p.json() for p in self.players],
            "games_played": self.games_played, "game_in_progress": self.game_in_progress,
            "games": [g.json() for g in self.games], "signatures": [s.json() for s in self.signatures],
            "continents": [c.json() for c in self.continents], "cities": r["cities"],
            "fortifications": r["fortifications"], "words": self.words, "signs": self.signs,
            "regions_named": self.regions_named, "starts_used": self.starts_used, "scores_kept": r["scores_kept"],
            "mark_groups": [g.json() for g in self.mark_groups],
            "resources": [c.json() for c in self.resources], "destroyed_cards": self.destroyed_cards,
            "stickers": [s.json() for s in self.stickers], "factions": [f.json() for f in self.factions],
            "pending_packets": self.pending_packets, "opened_packets": self.opened_packets,
            "to_put_in_place": r["to_put_in_place"], "packs": r["packs"], "lines": r["lines"], "cuts": r["cuts"],
            "owed_rewards": [o.json() for o in self.owed_rewards], "todo": r["todo"], "steps": r["steps"],
            "passes": r["passes"],
            "token_names": self.token_names, "pieces": [p.json() for p in self.pieces], "joined": r["joined"],
            "left": r["left"], "next_game": r["next_game"], "overall_winner": self.overall_winner,
            "marks": marks, "events": r["events"], "campaign_games": r["campaign_games"],
            "on_territories": [m.json() for m in r["on_territories"]],
            **self.shape,
        }
