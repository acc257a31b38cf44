"""Replaying a ledger: the content it starts from, the fold, and every problem at its line.

`Campaign` ties a `Ledger` to its game's validated content (from the compiler's hash-keyed cache,
so jsonschema is not imported when the cache is warm), adds the packs opened envelopes brought,
and folds the events, checking each before it is applied. It never writes anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scarbook.compiler.diagnostics import Diagnostic, Span, error
from scarbook.compiler.model import Game

from .content import Content
from .events import Event, Opened
from .ledger import Ledger, LedgerError
from .rules import Problem, canonical, event_problems, pending, trigger_met
from .state import CampaignState, apply, new_state


@dataclass
class Replay:
    state: CampaignState
    content: Content
    problems: list[tuple[Event, Problem]] = field(default_factory=list)
    pack_problems: list[Diagnostic] = field(default_factory=list)
    triggered_by: dict[str, Event] = field(default_factory=dict)  # packet -> the event that met its trigger

    @property
    def first_problem(self) -> tuple[Event, Problem] | None:
        return self.problems[0] if self.problems else None

    @property
    def pending(self) -> list[str]:
        return pending(self.content, self.state)


class Campaign:
    """A ledger with its content: replay it, and check a new event against the result."""

    def __init__(self, ledger: Ledger, extra_packs: list[Path] | None = None) -> None:
        self.ledger = ledger
        self.extra_packs = list(extra_packs or [])
        self._games: dict[tuple[str, ...], Game] = {}

    def pack_path(self, pack: str) -> Path:
        path = Path(pack)
        return path if path.is_absolute() else self.ledger.path.parent / path

    def game(self, packs: tuple[str, ...] = ()) -> Game:
        """The validated game with these packs (relative to the ledger) and the extra packs merged."""
        if packs not in self._games:
            from scarbook.compiler.validate import UnknownGame, cached_game

            try:
                self._games[packs] = cached_game(self.ledger.game, self.extra_packs + [self.pack_path(p)
                                                                                       for p in packs])
            except UnknownGame as exc:
                raise LedgerError([error(Span(self.ledger.display, 1, 1), "L002", str(exc))]) from None
        return self._games[packs]

    def content_for(self, packs: tuple[str, ...], opened: list[str]) -> Content:
        return Content(self.game(packs).effective(opened))

    def replay(self, events: list[Event] | None = None, check: bool = True) -> Replay:
        from scarbook.compiler.validate import ContentError

        events = self.ledger.events if events is None else events
        packs: tuple[str, ...] = ()
        content = self.content_for(packs, [])
        state = new_state(self.ledger.players)
        result = Replay(state, content)
        was_pending = set(pending(content, state))
        for ev in events:
            if check:
                for problem in event_problems(content, state, ev):
                    result.problems.append((ev, problem))
            fixed = canonical(content, state, ev)
            if fixed is None:
                continue
            apply(state, content, fixed)
            if isinstance(fixed, Opened):
                if fixed.pack:
                    try:
                        self.game((*packs, fixed.pack))
                        packs = (*packs, fixed.pack)
                    except ContentError as exc:
                        result.pack_problems.append(error(ev.span, "L010", f"the pack {fixed.pack} of packet "
                                                          f"{fixed.envelope} has errors: "
                                                          f"{exc.diagnostics[0].render() if exc.diagnostics else ''}"))
                content = self.content_for(packs, list(state.opened))
            now = set(pending(content, state))
            for env in now - was_pending:
                result.triggered_by.setdefault(env, ev)
            was_pending = now
        result.content = content
        return result

    def try_event(self, replay: Replay, event: Event) -> tuple[list[Problem], Event | None, list[str]]:
        """Problems with appending `event`; its canonical form; the packets it makes pending."""
        problems = event_problems(replay.content, replay.state, event)
        fixed = canonical(replay.content, replay.state, event)
        if problems or fixed is None:
            return problems, fixed, []
        before = set(replay.pending)
        state = replay.state  # the command ends after this write: fold the new event in place
        apply(state, replay.content, fixed)
        after = [e for e, env in replay.content.envelopes.items()
                 if e not in state.opened and trigger_met(replay.content, state, env)]
        return [], fixed, [e for e in after if e not in before]
