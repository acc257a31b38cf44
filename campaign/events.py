"""The ledger's events: frozen records, read from and written to plain mappings.

Each event keeps the line and column where it stands in the campaign file so that a later
check can point at it. Parsing never raises: a malformed entry becomes a `ParseProblem`.
The parsed-ledger cache keeps events as `event_fields` lists and rebuilds them unchecked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

from scarbook.kernel.diagnostics import Span

#: The longest note an event may carry (`--note`; the ledger's reader refuses any longer field, L003).
MAX_NOTE_CHARS = 1000


@dataclass(frozen=True)
class Event:
    """What every event has: its position in the ledger, and the players' free-text note on it (`note`, any
    kind of event, optional: who agreed to what, the story; it changes nothing the rules see)."""

    span: Span = field(default=Span("campaign.yaml"), compare=False, kw_only=True)
    index: int = field(default=-1, compare=False, kw_only=True)
    note: str = field(default="", kw_only=True)

    kind = "event"
    #: The kind's fields as the ledger writes them, each with whether it is required (`note` aside).
    ledger_fields: ClassVar[dict[str, bool]] = {}

    @classmethod
    def read(cls, data: dict[Any, Any], where: dict[str, Any]) -> Event | str:
        """The event from its ledger mapping, whose keys `parse_event` checked (known, the required ones set, the
        note read into `where`), or why not ('' for a malformed field). Here each field is text named as in the
        class (unset: the class's default); a kind with other fields reads them itself."""
        kwargs = _texts(cls, data)
        return "" if kwargs is None else cls(**kwargs, **where)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A kind's own `to_dict` also writes the note (last, when there is one): every kind gets it."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("to_dict")
        if own is not None and not getattr(own, "noted", False):
            cls.to_dict = _noted(own)  # type: ignore[method-assign, assignment]

    def to_dict(self) -> dict[str, Any]:
        """`{event: KIND, field: value …, note: TEXT}`: required fields always, optional ones only when set."""
        out: dict[str, Any] = {"event": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if not f.kw_only and (f.default is MISSING or value != f.default):
                out[f.name] = value
        if self.note:
            out["note"] = self.note
        return out

    to_dict.noted = True  # type: ignore[attr-defined]


def _noted(to_dict: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    @functools.wraps(to_dict)
    def with_note(self: Event) -> dict[str, Any]:
        out = to_dict(self)
        if self.note:
            out["note"] = self.note
        return out

    with_note.noted = True  # type: ignore[attr-defined]
    return with_note


def note_problem(note: str) -> str:
    """Why a note cannot be recorded ('' when it can): at most MAX_NOTE_CHARS characters, text only (line
    breaks and tabs are kept; other control characters would reach every terminal that shows the log)."""
    if len(note) > MAX_NOTE_CHARS:
        return f"a note holds at most {MAX_NOTE_CHARS} characters, this one {len(note)}: shorten it"
    odd = next((c for c in note if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f
                or c in "\u2028\u2029\ufeff"), None)
    if odd is not None:
        return f"a note is text: it may not hold the control character U+{ord(odd):04X} (line breaks and tabs may)"
    return ""


def clean_note(note: str) -> str:
    """A note as typed (a form's CRLF line breaks, spaces around it) as the ledger keeps it."""
    return note.replace("\r\n", "\n").replace("\r", "\n").strip()


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
    ledger_fields: ClassVar[dict[str, bool]] = {"play": True, "start": False, "type": False, "seating": False,
                                                  "scenario": False}

    @classmethod
    def read(cls, data: dict[Any, Any], where: dict[str, Any]) -> Event | str:
        plays, starts = _plays(data.get("play")), _pairs(data.get("start"))
        gtype = _text(data.get("type")) if data.get("type") is not None else ""
        seating = _names(data.get("seating"))
        scenario = _text(data.get("scenario")) if data.get("scenario") is not None else ""
        if plays is None or starts is None or gtype is None or seating is None or scenario is None:
            return ""
        return cls(plays, starts, gtype, seating, scenario, **where)

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
    ledger_fields: ClassVar[dict[str, bool]] = {"winner": False, "team": False, "held_on": False, "eliminated": False,
                                                  "controlled": False, "date": False, "lost": False, "scores": False}

    @classmethod
    def read(cls, data: dict[Any, Any], where: dict[str, Any]) -> Event | str:
        if data.get("winner") in (None, "") and data.get("team") in (None, ""):
            return "a 'game-end' event needs 'winner' (or 'team' in a co-operative game)"
        winner = _text(data.get("winner")) if data.get("winner") is not None else ""
        team = _text(data.get("team")) if data.get("team") is not None else ""
        held, elim, lost = _names(data.get("held_on")), _names(data.get("eliminated")), _names(data.get("lost"))
        ctrl_raw = data.get("controlled")
        controlled: list[tuple[str, tuple[str, ...]]] = []
        if isinstance(ctrl_raw, dict):
            for p, ts in ctrl_raw.items():
                names = _names(ts)
                if names is None:
                    return ""
                controlled.append((str(p), names))
        elif ctrl_raw is not None:
            return ""
        scores = _scores(data.get("scores"))
        if winner is None or team is None or held is None or elim is None or lost is None or scores is None:
            return ""
        return cls(winner, held, elim, tuple(controlled), _text(data.get("date")) or "", lost, team, scores,
                   **where)

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
    ledger_fields: ClassVar[dict[str, bool]] = {"sticker": True, "target": True, "by": False, "name": False,
                                                  "value": False, "to": False}

    @classmethod
    def read(cls, data: dict[Any, Any], where: dict[str, Any]) -> Event | str:
        number = data.get("value")
        if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
            return ""
        kwargs = _texts(cls, data, skip="value")
        return "" if kwargs is None else cls(**kwargs, value=number, **where)


@dataclass(frozen=True)
class Destroyed(Event):
    """A card destroyed for good (recorded as its own event; legality comes from a `destroyed` mark)."""

    card: str
    by: str = ""

    kind = "destroy"
    ledger_fields: ClassVar[dict[str, bool]] = {"card": True, "by": False}


@dataclass(frozen=True)
class Opened(Event):
    """A sealed envelope opened; `pack` is the folder where the players transcribed its contents."""

    envelope: str
    pack: str = ""

    kind = "open"
    ledger_fields: ClassVar[dict[str, bool]] = {"envelope": True, "pack": False}


@dataclass(frozen=True)
class PackAdded(Event):
    """A house-rule pack joins the campaign (from game 1, or between games): its folder or file
    relative to the ledger, and a fingerprint of its files when it was added."""

    pack: str
    fingerprint: str = ""

    kind = "add-pack"
    ledger_fields: ClassVar[dict[str, bool]] = {"pack": True, "fingerprint": False}


@dataclass(frozen=True)
class Linked(Event):
    """A line drawn between two territories because of a placed sticker (a new continent's lines, a bridge):
    from then on the two are neighbours."""

    sticker: str
    a: str
    b: str
    by: str = ""

    kind = "link"
    ledger_fields: ClassVar[dict[str, bool]] = {"sticker": True, "a": True, "b": True, "by": False}


@dataclass(frozen=True)
class Ticked(Event):
    """Boxes ticked on a fortification (one per attack made on it with 3 troops)."""

    target: str
    boxes: int = 1

    kind = "tick"
    ledger_fields: ClassVar[dict[str, bool]] = {"target": True, "boxes": False}

    @classmethod
    def read(cls, data: dict[Any, Any], where: dict[str, Any]) -> Event | str:
        target, boxes = _text(data.get("target")), data.get("boxes", 1)
        if target is None or not isinstance(boxes, int) or isinstance(boxes, bool) or boxes < 1:
            return ""
        return cls(target, boxes, **where)

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
    ledger_fields: ClassVar[dict[str, bool]] = {"step": True, "by": True, "piece": False, "why": False}


@dataclass(frozen=True)
class Joined(Event):
    """A newcomer joins the campaign between games (the game's player count allowing); `replaces`: a player who
    leaves in the same step, handing their holdings to the newcomer (a seat taken over at the most players)."""

    player: str
    replaces: str = ""

    kind = "join"
    ledger_fields: ClassVar[dict[str, bool]] = {"player": True, "replaces": False}


@dataclass(frozen=True)
class Left(Event):
    """A player leaves the campaign between games; `to`: the player who takes over their holdings (every mark
    they placed or own, the pieces and regions they claimed, their score total)."""

    player: str
    to: str = ""

    kind = "leave"
    ledger_fields: ClassVar[dict[str, bool]] = {"player": True, "to": False}


@dataclass(frozen=True)
class Retired(Event):
    """A mark (a character, a piece's claim …) retires or is lost for good: it stays on the sheet with that
    status (`retired`, `lost`) and no longer counts as active."""

    sticker: str
    target: str
    status: str = "retired"
    by: str = ""

    kind = "retire"
    ledger_fields: ClassVar[dict[str, bool]] = {"sticker": True, "target": True, "status": False, "by": False}


#: The statuses a retired mark may take (`campaign retire --as`), beside active and cancelled.
RETIRED_STATUSES = ("retired", "lost")


EVENT_TYPES: dict[str, type[Event]] = {
    c.kind: c for c in (GameStarted, GameEnded, Placed, Destroyed, Opened, PackAdded, Linked, Ticked, Passed,
                        Joined, Left, Retired)
}


# --- the parsed-ledger cache's form: [kind, field values in order] (JSON; no checks on the way back) ---
def event_fields(event: Event) -> list[Any]:
    """A read event as `[kind, value, ...]`, its fields in declaration order, then `{"note": TEXT}` when it has
    a note (no field's value is a mapping)."""
    out = [event.kind, *(getattr(event, f.name) for f in fields(event) if not f.kw_only)]
    return [*out, {"note": event.note}] if event.note else out


def event_from_fields(data: list[Any], span: Span, index: int) -> Event:
    """The event `event_fields` gave (trusted input, so nothing is checked; JSON lists become tuples)."""
    extra = data[-1] if type(data[-1]) is dict else {}
    values = data[1:-1] if extra else data[1:]
    return EVENT_TYPES[data[0]](*[_frozen(v) if type(v) is list else v for v in values], span=span, index=index,
                                note=extra.get("note", ""))


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


def _texts(cls: type[Event], data: dict[Any, Any], skip: str = "") -> dict[str, Any] | None:
    """The kind's ledger fields but `skip` as text, by name (an unset one: the class's default); None when one
    is not text."""
    values = {k: _text(data.get(k)) for k in cls.ledger_fields if k != skip}
    if any(data.get(k) is not None and v is None for k, v in values.items()):
        return None
    defaults = _text_defaults(cls)
    return {k: v or defaults.get(k, "") for k, v in values.items()}


_DEFAULTS: dict[type[Event], dict[str, str]] = {}


def _text_defaults(cls: type[Event]) -> dict[str, str]:
    """A kind's text fields' defaults (`retire`'s status: retired), read once per kind."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = {f.name: f.default for f in fields(cls) if isinstance(f.default, str)}
    return found


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


def parse_event(data: Any, span: Span, index: int) -> Event | ParseProblem:
    """One ledger entry to an event, or the reason it cannot be read (never an exception: any value YAML gives,
    of any shape, is one or the other; the kind's own `read` turns its fields into the event)."""
    if not isinstance(data, dict):
        return ParseProblem(span, "an event is a mapping like {event: place, sticker: STICKER, target: TARGET}")
    kind = data.get("event")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        return ParseProblem(span, f"unknown event {kind!r}; events are: {', '.join(EVENT_TYPES)}")
    fields = cls.ledger_fields
    for key in data:
        if key not in ("event", "note") and key not in fields:
            return ParseProblem(span, f"a '{kind}' event has no field '{key}'; its fields: {', '.join(fields)}, "
                                "note")
    for key, required in fields.items():
        if required and data.get(key) in (None, "", [], {}):
            return ParseProblem(span, f"a '{kind}' event needs '{key}'")
    note = _text(data.get("note")) if data.get("note") is not None else ""
    if note is None:
        return ParseProblem(span, f"a '{kind}' event's note is text (a word, a sentence), not a list or mapping")
    read = cls.read(data, {"span": span, "index": index, "note": note})
    if isinstance(read, Event):
        return read
    return ParseProblem(span, read or f"a '{kind}' event has a malformed field")
