"""The ledger's events: frozen records, read from and written to plain mappings.

Each event keeps the line and column where it stands in the campaign file so that a later
check can point at it. Parsing never raises: a malformed entry becomes a `ParseProblem`.
The parsed-ledger cache keeps events as `event_fields` lists and rebuilds them unchecked.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from scarbook.kernel.diagnostics import Span


@dataclass(frozen=True)
class Event:
    """What every event has: its position in the ledger."""

    span: Span = field(default=Span("campaign.yaml"), compare=False, kw_only=True)
    index: int = field(default=-1, compare=False, kw_only=True)

    kind = "event"

    def to_dict(self) -> dict[str, Any]:
        """`{event: KIND, field: value …}`: required fields always, optional ones only when set."""
        out: dict[str, Any] = {"event": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if not f.kw_only and (f.default is MISSING or value != f.default):
                out[f.name] = value
        return out


@dataclass(frozen=True)
class GameStarted(Event):
    """A game begins: what each player plays (one piece per kind the game records: a faction, a
    character …), optionally where each started, and the type of game when the schedule has none."""

    plays: tuple[tuple[str, tuple[str, ...]], ...]  # (player, (piece, ...))
    starts: tuple[tuple[str, str], ...] = ()  # (player, territory)
    type: str = ""
    seating: tuple[str, ...] = ()  # the players clockwise around the table ('': the last game's seating)
    scenario: str = ""  # the scenario chosen (a scenario graph, `game.campaign.scenarios`)

    kind = "game-start"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind,
                               "play": {p: ids[0] if len(ids) == 1 else list(ids) for p, ids in self.plays}}
        if self.starts:
            out["start"] = dict(self.starts)
        if self.type:
            out["type"] = self.type
        if self.seating:
            out["seating"] = list(self.seating)
        if self.scenario:
            out["scenario"] = self.scenario
        return out


@dataclass(frozen=True)
class GameEnded(Event):
    """A game ends: the winner, who held on, who was eliminated, and what each controlled; in a co-operative
    game, the team's result (`team`: won or lost) instead of a winner."""

    winner: str
    held_on: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()
    controlled: tuple[tuple[str, tuple[str, ...]], ...] = ()
    date: str = ""
    lost: tuple[str, ...] = ()  # pieces lost for good in this game (a character killed …)
    team: str = ""  # a co-operative game's result: won, lost
    scores: tuple[tuple[str, int], ...] = ()  # (player, score) in this game (`--score NAME=N`)

    kind = "game-end"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        if self.team:
            out["team"] = self.team
        if self.winner or not self.team:
            out["winner"] = self.winner
        out.update({"held_on": list(self.held_on), "eliminated": list(self.eliminated)})
        if self.controlled:
            out["controlled"] = {p: list(ts) for p, ts in self.controlled}
        if self.lost:
            out["lost"] = list(self.lost)
        if self.date:
            out["date"] = self.date
        if self.scores:
            out["scores"] = dict(self.scores)
        return out


@dataclass(frozen=True)
class Placed(Event):
    """A sticker or mark placed for good on a target (territory, continent, card, faction card)."""

    sticker: str
    target: str
    by: str = ""
    name: str = ""
    value: int | None = None  # the number a sticker sets (a stat's new value)
    to: str = ""  # the second territory a sticker that brings a line joins its target to (a bridge)

    kind = "place"


@dataclass(frozen=True)
class Destroyed(Event):
    """A card destroyed for good (recorded as its own event; legality comes from a `destroyed` mark)."""

    card: str
    by: str = ""

    kind = "destroy"


@dataclass(frozen=True)
class Opened(Event):
    """A sealed envelope opened; `pack` is the folder where the players transcribed its contents."""

    envelope: str
    pack: str = ""

    kind = "open"


@dataclass(frozen=True)
class PackAdded(Event):
    """A house-rule pack joins the campaign (from game 1, or between games): its folder or file
    relative to the ledger, and a fingerprint of its files when it was added."""

    pack: str
    fingerprint: str = ""

    kind = "add-pack"


@dataclass(frozen=True)
class Linked(Event):
    """A line drawn between two territories because of a placed sticker (a new continent's lines, a bridge):
    from then on the two are neighbours."""

    sticker: str
    a: str
    b: str
    by: str = ""

    kind = "link"


@dataclass(frozen=True)
class Ticked(Event):
    """Boxes ticked on a fortification (one per attack made on it with 3 troops)."""

    target: str
    boxes: int = 1

    kind = "tick"

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.kind, "target": self.target, "boxes": self.boxes}


@dataclass(frozen=True)
class Passed(Event):
    """A player forgoes an end-of-game step (for a piece, when the step is taken per piece)."""

    step: str
    by: str
    piece: str = ""
    why: str = ""

    kind = "pass"


@dataclass(frozen=True)
class Joined(Event):
    """A newcomer joins the campaign between games (the game's player count allowing); `replaces`: a player who
    leaves in the same step, handing their holdings to the newcomer (a seat taken over at the most players)."""

    player: str
    replaces: str = ""

    kind = "join"


@dataclass(frozen=True)
class Left(Event):
    """A player leaves the campaign between games; `to`: the player who takes over their holdings (every mark
    they placed or own, the pieces and regions they claimed, their score total)."""

    player: str
    to: str = ""

    kind = "leave"


@dataclass(frozen=True)
class Retired(Event):
    """A mark (a character, a piece's claim …) retires or is lost for good: it stays on the sheet with that
    status (`retired`, `lost`) and no longer counts as active."""

    sticker: str
    target: str
    status: str = "retired"
    by: str = ""

    kind = "retire"


#: The statuses a retired mark may take (`campaign retire --as`), beside active and cancelled.
RETIRED_STATUSES = ("retired", "lost")


EVENT_TYPES: dict[str, type[Event]] = {
    c.kind: c for c in (GameStarted, GameEnded, Placed, Destroyed, Opened, PackAdded, Linked, Ticked, Passed,
                        Joined, Left, Retired)
}


# --- the parsed-ledger cache's form: [kind, field values in order] (JSON; no checks on the way back) ---
def event_fields(event: Event) -> list[Any]:
    """A read event as `[kind, value, ...]`, its fields in declaration order."""
    return [event.kind, *(getattr(event, f.name) for f in fields(event) if not f.kw_only)]


def event_from_fields(data: list[Any], span: Span, index: int) -> Event:
    """The event `event_fields` gave (trusted input, so nothing is checked; JSON lists become tuples)."""
    return EVENT_TYPES[data[0]](*[_frozen(v) if type(v) is list else v for v in data[1:]], span=span, index=index)


def _frozen(values: list[Any]) -> tuple[Any, ...]:
    return tuple([_frozen(v) if type(v) is list else v for v in values])


@dataclass(frozen=True)
class ParseProblem:
    """An entry that does not read as an event: where, and why."""

    span: Span
    message: str


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def _names(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return ()
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return (str(value),)
    if isinstance(value, list) and all(_text(v) is not None for v in value):
        return tuple(str(v) for v in value)
    return None


def _plays(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """`{player: piece}` or `{player: [piece, ...]}`."""
    if not isinstance(value, dict):
        return None
    out = []
    for k, v in value.items():
        names = _names(v)
        if not names:
            return None
        out.append((str(k), names))
    return tuple(out)


def _pairs(value: Any) -> tuple[tuple[str, str], ...] | None:
    if value is None:
        return ()
    if isinstance(value, dict) and all(_text(v) is not None for v in value.values()):
        return tuple((str(k), str(v)) for k, v in value.items())
    return None


def _scores(value: Any) -> tuple[tuple[str, int], ...] | None:
    """`{player: number}`."""
    if value is None:
        return ()
    if isinstance(value, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        return tuple((str(k), int(v)) for k, v in value.items())
    return None


_FIELDS: dict[str, dict[str, bool]] = {  # event -> field -> required
    "game-start": {"play": True, "start": False, "type": False, "seating": False, "scenario": False},
    "game-end": {"winner": False, "team": False, "held_on": False, "eliminated": False, "controlled": False,
                 "date": False, "lost": False, "scores": False},
    "place": {"sticker": True, "target": True, "by": False, "name": False, "value": False, "to": False},
    "destroy": {"card": True, "by": False},
    "open": {"envelope": True, "pack": False},
    "add-pack": {"pack": True, "fingerprint": False},
    "link": {"sticker": True, "a": True, "b": True, "by": False},
    "tick": {"target": True, "boxes": False},
    "pass": {"step": True, "by": True, "piece": False, "why": False},
    "join": {"player": True, "replaces": False},
    "leave": {"player": True, "to": False},
    "retire": {"sticker": True, "target": True, "status": False, "by": False},
}


def parse_event(data: Any, span: Span, index: int) -> Event | ParseProblem:
    """One ledger entry to an event, or the reason it cannot be read."""
    if not isinstance(data, dict):
        return ParseProblem(span, "an event is a mapping like {event: place, sticker: STICKER, target: TARGET}")
    kind = data.get("event")
    if kind not in EVENT_TYPES:
        return ParseProblem(span, f"unknown event {kind!r}; events are: {', '.join(EVENT_TYPES)}")
    fields = _FIELDS[kind]
    for key in data:
        if key != "event" and key not in fields:
            return ParseProblem(span, f"a '{kind}' event has no field '{key}'; its fields: {', '.join(fields)}")
    for key, required in fields.items():
        if required and data.get(key) in (None, "", [], {}):
            return ParseProblem(span, f"a '{kind}' event needs '{key}'")
    where: dict[str, Any] = {"span": span, "index": index}
    bad = ParseProblem(span, f"a '{kind}' event has a malformed field")
    if kind == "game-start":
        plays, starts = _plays(data.get("play")), _pairs(data.get("start"))
        gtype = _text(data.get("type")) if data.get("type") is not None else ""
        seating = _names(data.get("seating"))
        scenario = _text(data.get("scenario")) if data.get("scenario") is not None else ""
        if plays is None or starts is None or gtype is None or seating is None or scenario is None:
            return bad
        return GameStarted(plays, starts, gtype, seating, scenario, **where)
    if kind == "game-end":
        if data.get("winner") in (None, "") and data.get("team") in (None, ""):
            return ParseProblem(span, "a 'game-end' event needs 'winner' (or 'team' in a co-operative "
                                "game)")
        winner = _text(data.get("winner")) if data.get("winner") is not None else ""
        team = _text(data.get("team")) if data.get("team") is not None else ""
        held, elim, lost = _names(data.get("held_on")), _names(data.get("eliminated")), _names(data.get("lost"))
        ctrl_raw = data.get("controlled")
        controlled: list[tuple[str, tuple[str, ...]]] = []
        if isinstance(ctrl_raw, dict):
            for p, ts in ctrl_raw.items():
                names = _names(ts)
                if names is None:
                    return bad
                controlled.append((str(p), names))
        elif ctrl_raw is not None:
            return bad
        scores = _scores(data.get("scores"))
        if winner is None or team is None or held is None or elim is None or lost is None or scores is None:
            return bad
        return GameEnded(winner, held, elim, tuple(controlled), _text(data.get("date")) or "", lost, team, scores,
                         **where)
    number = data.get("value") if kind == "place" else None
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        return bad
    values = {k: _text(data.get(k)) for k in fields if k != "value"}
    if any(values[k] is None for k, req in fields.items() if req) or any(
            data.get(k) is not None and values[k] is None for k in values):
        return bad
    if kind == "place":
        return Placed(values["sticker"] or "", values["target"] or "", values["by"] or "", values["name"] or "",
                      number, values["to"] or "", **where)
    if kind == "destroy":
        return Destroyed(values["card"] or "", values["by"] or "", **where)
    if kind == "open":
        return Opened(values["envelope"] or "", values["pack"] or "", **where)
    if kind == "link":
        return Linked(values["sticker"] or "", values["a"] or "", values["b"] or "", values["by"] or "", **where)
    if kind == "add-pack":
        return PackAdded(values["pack"] or "", values["fingerprint"] or "", **where)
    if kind == "join":
        return Joined(values["player"] or "", values["replaces"] or "", **where)
    if kind == "leave":
        return Left(values["player"] or "", values["to"] or "", **where)
    if kind == "retire":
        return Retired(values["sticker"] or "", values["target"] or "", values["status"] or "retired",
                       values["by"] or "", **where)
    if kind == "pass":
        return Passed(values["step"] or "", values["by"] or "", values["piece"] or "", values["why"] or "", **where)
    boxes = data.get("boxes", 1)
    if not isinstance(boxes, int) or isinstance(boxes, bool) or boxes < 1:
        return bad
    return Ticked(values["target"] or "", boxes, **where)
