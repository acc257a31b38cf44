"""Replaying a ledger: the content it starts from, the fold, and every problem at its line.

`Campaign` ties a `Ledger` to its game's validated content (from the compiler's hash-keyed content
cache, so jsonschema is not imported when that cache is warm), adds the packs opened envelopes
brought, and folds the events, checking each before it is applied (one pass per event: `rules.admit`
resolves what was typed once, for the check and the canonical form that is folded). It is pure: it
never writes, and knows no ledger cache (`replaycache` wraps `Campaign.replay` to answer from it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scarbook.campaign.content import Content
from scarbook.campaign.events import Event
from scarbook.campaign.eventspecs import admit, apply, canonical, spec_of
from scarbook.campaign.ledger.file import Ledger, LedgerError, resolved_path
from scarbook.campaign.links import adds, as_played
from scarbook.campaign.rules import pending, trigger_met
from scarbook.campaign.state import CampaignState, new_state
from scarbook.compiler.items import sticker_views
from scarbook.compiler.model import Game
from scarbook.kernel.diagnostics import Diagnostic, Span, error


@dataclass
class Replay:
    """A fold of the events: the state, the content as played, the problems found, the packs merged."""

    state: CampaignState
    content: Content
    problems: list[tuple[Event, Diagnostic]] = field(default_factory=list)
    pack_problems: list[Diagnostic] = field(default_factory=list)
    packs: tuple[str, ...] = ()  # the packs merged after the last event (paths as the ledger gives them)
    checked: int = 0  # how many events were checked (the others were only folded)
    verified: str = ""  # the content key under which every event is known legal ('' when not known)
    before_last: tuple[CampaignState, tuple[str, ...]] | None = None  # (state, packs) before the last event
    #: Events scarbook recorded under earlier content that today's rules refuse: kept, folded, warned (L016).
    earlier: list[tuple[Event, Diagnostic]] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)  # about the stretches themselves (L018)

    @property
    def first_problem(self) -> tuple[Event, Diagnostic] | None:
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
        return resolved_path(self.ledger.path, pack)

    @property
    def game_ref(self) -> str:
        """The ledger's game: a shipped game's id, or a homebrew game's folder/file relative to the ledger."""
        game = self.ledger.game
        return str(self.pack_path(game)) if "/" in game or game.endswith((".yaml", ".yml")) else game

    def game(self, packs: tuple[str, ...] = ()) -> Game:
        """The validated game with these packs (relative to the ledger) and the extra packs merged."""
        if packs not in self._games:
            from scarbook.compiler.load import has_section, system_folder
            from scarbook.compiler.validate import ContentError, UnknownGame, cached_game

            for pack in packs:  # a recorded pack must look like one: never walk /usr or read a stranger's files
                where = self.pack_path(pack)
                if not where.exists() or system_folder(where) or not has_section(where, "pack"):
                    raise ContentError([error(Span(self.ledger.display, 1, 1), "X508", f"{pack} is not a pack "
                                              "(a folder or YAML file with a 'pack:' section)")])
            try:
                self._games[packs] = cached_game(self.game_ref, self.extra_packs + [self.pack_path(p) for p in packs])
            except UnknownGame as exc:
                raise LedgerError([error(Span(self.ledger.display, 1, 1), "L002", str(exc))]) from None
        return self._games[packs]

    def content_for(self, packs: tuple[str, ...], opened: list[str], state: CampaignState | None = None) -> Content:
        """The content as played: sealed content left out, the board as the placed stickers changed it."""
        game = self.game(packs).effective(opened)
        if state is not None or any(adds(st) for st in sticker_views(game).values()):
            game = as_played(game, dict(state.placed) if state else {}, list(state.links) if state else [])
        return Content(game)

    def replay(self, events: list[Event] | None = None, check: bool = True,
               copy_before_last: Callable[[CampaignState], CampaignState] | None = None) -> Replay:
        """Fold the events (default: the ledger's), checking each first unless `check` is false
        (`copy_before_last`: also keep a copy of the state before the last event, made by it)."""
        from scarbook.compiler.validate import ContentError

        events = self.ledger.events if events is None else events
        packs: tuple[str, ...] = ()
        content = self.content_for(packs, [])
        state = new_state(self.ledger.players)
        result = Replay(state, content, checked=len(events) if check else 0)
        kept: frozenset[int] = frozenset()
        if check:
            kept, result.notes = self.recorded_earlier()
        last = len(events) - 1
        for n, ev in enumerate(events):
            if check:
                problems, fixed = admit(content, state, ev)
                if problems and ev.index in kept:  # on the board since an earlier release: it stays
                    result.earlier.extend((ev, problem) for problem in problems)
                    fixed = fixed if fixed is not None else canonical(content, state, ev)
                else:
                    result.problems.extend((ev, problem) for problem in problems)
            else:
                fixed = canonical(content, state, ev)
            if n == last and copy_before_last is not None:
                result.before_last = (copy_before_last(state), packs)
            if fixed is None:
                continue
            apply(state, content, fixed)
            spec = spec_of(fixed)
            if spec.pack is not None:  # a packet opened or a pack added: the content as played changes
                pack, whose = spec.pack(fixed)
                if pack:
                    try:
                        self.game((*packs, pack))
                        packs = (*packs, pack)
                    except ContentError as exc:
                        result.pack_problems.append(error(ev.span, "L010", f"the pack {pack} {whose} has errors: "
                                                          f"{exc.diagnostics[0].render() if exc.diagnostics else ''}"))
                content = self.content_for(packs, list(state.opened), state)
            elif spec.reshapes(fixed, content):
                content = self.content_for(packs, list(state.opened), state)
        result.content, result.packs = content, packs
        return result

    def recorded_earlier(self) -> tuple[frozenset[int], list[Diagnostic]]:
        """The events scarbook recorded under content other than today's (`ledger.stretches.earlier`)."""
        from scarbook.campaign.ledger.stretches import earlier
        from scarbook.compiler.validate import ContentError

        try:
            now = self.game(()).fingerprint
        except (ContentError, LedgerError):
            return frozenset(), []
        return earlier(self.ledger, now)

    def check_event(self, replay: Replay, event: Event) -> tuple[list[Diagnostic], Event | None]:
        """Problems with appending `event` now, and its canonical form (nothing is folded)."""
        return admit(replay.content, replay.state, event)

    def fold_new(self, replay: Replay, fixed: Event) -> list[str]:
        """Fold a new event (checked, canonical, with the span it has in the file) into the replay in place: the
        command ends after this write. The packets it makes pending."""
        before = set(replay.pending)
        state = replay.state
        apply(state, replay.content, fixed)
        if spec_of(fixed).reshapes(fixed, replay.content):
            replay.content = self.content_for(replay.packs, list(state.opened), state)
        after = [e for e, env in replay.content.envelope_views.items()
                 if e not in state.opened and trigger_met(replay.content, state, env)]
        return [e for e in after if e not in before]
