"""One spec per kind of event, in one table (`SPECS`): how the ledger reads and writes it, how it is said, how the
rules check it and how it folds into the state.

Everything done per kind of event dispatches through `SPECS` by the event's type, as beancount dispatches its
directives by type: `admit` (the rules' check and the canonical form), `apply` (the fold), `describe` and `tell`
(the two registers of `narrate`), and what a kind means to the replay (a game's start or end, a pack it brings,
a board it reshapes). A new kind is its dataclass in `events` (with its ledger fields, and its own `read` only
when a field is not text), its functions (`rules`: check and canonical form; `state`: fold; `narrate`: line and
sentence) and one `EventSpec` below; no chain elsewhere needs a branch. `tests/test_event_specs.py` fails until
every kind has exactly one spec whose narration and JSON form run, and on an `isinstance` chain over event kinds
outside `events` and this module.

Parsing and the JSON form live on the dataclass (`Event.read`, `Event.to_dict`): the ledger reader, below the
rules, reads `events` at every command's start; the spec names them (`parse`, `to_json`) so that the table says
everything about a kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from scarbook.campaign import events, narrate, rules
from scarbook.campaign import state as fold
from scarbook.campaign.events import Event
from scarbook.campaign.links import adds
from scarbook.kernel.diagnostics import Diagnostic, refusal

if TYPE_CHECKING:
    from scarbook.campaign.content import Content
    from scarbook.campaign.history import Words
    from scarbook.campaign.state import CampaignState

E = TypeVar("E", bound=Event)
Admitted = tuple[list[Diagnostic], Event | None]


def _by(ev: Any) -> list[str]:
    """The player a kind's `by` names, if any."""
    return [ev.by] if ev.by else []


def _nobody(ev: Event) -> list[str]:
    return []


def _never(ev: Event, content: Content) -> bool:
    return False


@dataclass(frozen=True)
class EventSpec(Generic[E]):
    """Everything the tracker does with one kind of event."""

    cls: type[E]
    line: Callable[[E, frozenset[str]], str]  # `log`'s line, ids as the ledger spells them (`narrate.line_*`)
    tell: Callable[[E, Words, int], str]  # the story's sentence in the content's names (`narrate.tell_*`)
    apply: Callable[[CampaignState, Content, E], None]  # the fold (`state.apply_*`), legality checked before
    canonical: Callable[[Content, CampaignState, E], Event | None]  # ids and names as spelled (None: unreadable)
    check: Callable[[Content, CampaignState, E], list[Diagnostic]] | None = None  # what is wrong with it now
    admit: Callable[[Content, CampaignState, E], Admitted] | None = None  # check and canonical form in one pass
    actors: Callable[[E], list[str]] = _nobody  # the players it has act: one who left may not (as typed)
    game: str = ""  # "start" or "end" where this kind starts or ends a game
    #: a kind that opens sealed content or adds a pack: (the pack it brings into play or '', whose it is); the
    #: replay builds the content as played again after each such event
    pack: Callable[[E], tuple[str, str]] | None = None
    reshapes: Callable[[E, Content], bool] = _never  # it changes the board's shape: the content is built again

    def __post_init__(self) -> None:
        if (self.check is None) == (self.admit is None):
            raise TypeError(f"the spec of '{self.cls.kind}' needs a check or an admit, not both")

    @property
    def kind(self) -> str:
        return self.cls.kind

    @property
    def fields(self) -> dict[str, bool]:
        """Its fields as the ledger writes them, each with whether it is required."""
        return self.cls.ledger_fields

    def parse(self, data: dict[Any, Any], where: dict[str, Any]) -> Event | str:
        """`events.parse_event`'s last step for this kind (the checks common to every kind done)."""
        return self.cls.read(data, where)

    def to_json(self, ev: E) -> dict[str, Any]:
        """Its ledger mapping, also its JSON form (`log --format json`, `diff`, the cache's text)."""
        return ev.to_dict()


def _players_of_start(ev: events.GameStarted) -> list[str]:
    return [p for p, _ in ev.plays]


def _reshapes_place(ev: events.Placed, content: Content) -> bool:
    return bool(ev.to or adds(content.sticker_view(ev.sticker)))


def _always(ev: Event, content: Content) -> bool:
    return True


SPECS: dict[type[Event], EventSpec[Any]] = {spec.cls: spec for spec in (
    EventSpec(events.GameStarted, narrate.line_game_start, narrate.tell_game_start, fold.apply_game_start,
              rules.canonical_game_start, check=rules.game_start_problems, actors=_players_of_start, game="start"),
    EventSpec(events.GameEnded, narrate.line_game_end, narrate.tell_game_end, fold.apply_game_end,
              rules.canonical_game_end, check=rules.game_end_problems, game="end"),
    EventSpec(events.Placed, narrate.line_place, narrate.tell_place, fold.apply_place, rules.canonical_place,
              admit=rules.admit_place, actors=_by, reshapes=_reshapes_place),
    EventSpec(events.Destroyed, narrate.line_destroy, narrate.tell_destroy, fold.apply_destroy, rules.canonical_destroy,
              admit=rules.admit_destroy, actors=_by),
    EventSpec(events.Opened, narrate.line_open, narrate.tell_open, fold.apply_open, rules.canonical_open,
              check=rules.open_problems, pack=lambda ev: (ev.pack, f"of packet {ev.envelope}")),
    EventSpec(events.PackAdded, narrate.line_add_pack, narrate.tell_add_pack, fold.apply_add_pack,
              rules.canonical_add_pack, check=rules.add_pack_problems, pack=lambda ev: (ev.pack, "added")),
    EventSpec(events.Linked, narrate.line_link, narrate.tell_link, fold.apply_link, rules.canonical_link,
              check=rules.link_problems, actors=_by, reshapes=_always),
    EventSpec(events.Ticked, narrate.line_tick, narrate.tell_tick, fold.apply_tick, rules.canonical_tick,
              check=rules.tick_problems),
    EventSpec(events.Passed, narrate.line_pass, narrate.tell_pass, fold.apply_pass, rules.canonical_pass,
              check=rules.pass_problems, actors=_by),
    EventSpec(events.Joined, narrate.line_join, narrate.tell_join, fold.apply_join, rules.canonical_join,
              check=rules.join_problems),
    EventSpec(events.Left, narrate.line_leave, narrate.tell_leave, fold.apply_leave, rules.canonical_leave,
              check=rules.leave_problems),
    # a departed player's mark may still be retired: its `by` is not refused for having left
    EventSpec(events.Retired, narrate.line_retire, narrate.tell_retire, fold.apply_retire, rules.canonical_retire,
              check=rules.retire_problems),
)}


def spec_of(ev: Event) -> EventSpec[Any]:
    """The spec of an event's kind (LookupError for an event of no registered kind: a programming error)."""
    spec = SPECS.get(type(ev))
    if spec is None:
        raise LookupError(f"no spec for the event kind {ev.kind!r} ({type(ev).__name__}); register it in SPECS")
    return spec


# --- the dispatch points ----------------------------------------------------------------------------
def admit(content: Content, state: CampaignState, ev: Event) -> Admitted:
    """Everything wrong with recording `ev` now, and `ev` as the content and the ledger spell it (None: it names
    nothing that exists). What was typed is resolved once, for both: the replay's one pass per event."""
    spec = SPECS.get(type(ev))
    if spec is None:
        return [refusal("L003", "unknown event")], ev
    gone = rules.left_problem(content, state, spec.actors(ev))
    if gone is not None:
        return [gone], spec.canonical(content, state, ev)
    if spec.admit is not None:
        return spec.admit(content, state, ev)
    assert spec.check is not None  # one of the two, as the spec's own check says
    return spec.check(content, state, ev), spec.canonical(content, state, ev)


def canonical(content: Content, state: CampaignState, ev: Event) -> Event | None:
    """The event with ids and names as the content and the ledger spell them (None: unreadable), unchecked."""
    return spec_of(ev).canonical(content, state, ev)


def apply(state: CampaignState, content: Content, event: Event) -> None:
    """Fold one event into the state (legality was checked before)."""
    state.events += 1
    spec_of(event).apply(state, content, event)


def describe(ev: Event, cutting: frozenset[str] = frozenset()) -> str:
    """One line for an event (`log`, a recorded event's confirmation, `undo`); `cutting`: the stickers whose lines
    cut edges (when the content is at hand)."""
    return spec_of(ev).line(ev, cutting)


def tell(ev: Event, words: Words, game: int = 0) -> str:
    """One sentence for one event, named as printed (the game number for a start or an end)."""
    return spec_of(ev).tell(ev, words, game)


def pack_of(ev: Event) -> str:
    """The house-rule pack an event brings into play ('' for none)."""
    spec = spec_of(ev)
    return spec.pack(ev)[0] if spec.pack is not None else ""

