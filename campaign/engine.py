"""Replaying a ledger: the content it starts from, the fold, and every problem at its line.

`Campaign` ties a `Ledger` to its game's validated content (from the compiler's hash-keyed cache,
so jsonschema is not imported when the cache is warm), adds the packs opened envelopes brought,
and folds the events, checking each before it is applied. It never writes the ledger; the one
thing it records is a verdict in the parsed-ledger cache: "these very bytes were all legal under
this content key" (`content_key`), which lets the next write fold them without checking them
again (`replay_for_write`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from scarbook.compiler.diagnostics import Diagnostic, Span, error
from scarbook.compiler.model import Game

from .content import Content
from .events import Event, Linked, Opened, PackAdded, Placed
from .ledger import Ledger, LedgerError, remember_verified
from .links import adds, as_played
from .rules import Problem, canonical, event_problems, pending, trigger_met
from .state import CampaignState, apply, new_state


@dataclass
class Replay:
    state: CampaignState
    content: Content
    problems: list[tuple[Event, Problem]] = field(default_factory=list)
    pack_problems: list[Diagnostic] = field(default_factory=list)
    packs: tuple[str, ...] = ()  # the packs merged after the last event (paths as the ledger gives them)
    checked: int = 0  # how many events were checked (the others were only folded)
    verified: str = ""  # the content key under which every event is known legal ('' when not known)

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
        if state is not None or any(adds(st) for st in game.section("stickers").values()):
            game = as_played(game, dict(state.placed) if state else {}, list(state.links) if state else [])
        return Content(game)

    def replay(self, events: list[Event] | None = None, check: bool = True) -> Replay:
        """Fold the events (default: the ledger's), checking each first unless `check` is false."""
        from scarbook.compiler.validate import ContentError

        events = self.ledger.events if events is None else events
        packs: tuple[str, ...] = ()
        content = self.content_for(packs, [])
        state = new_state(self.ledger.players)
        result = Replay(state, content, checked=len(events) if check else 0)
        for ev in events:
            if check:
                for problem in event_problems(content, state, ev):
                    result.problems.append((ev, problem))
            fixed = canonical(content, state, ev)
            if fixed is None:
                continue
            apply(state, content, fixed)
            if isinstance(fixed, (Opened, PackAdded)):
                if fixed.pack:
                    try:
                        self.game((*packs, fixed.pack))
                        packs = (*packs, fixed.pack)
                    except ContentError as exc:
                        whose = (f"of packet {fixed.envelope}" if isinstance(fixed, Opened) else "added")
                        result.pack_problems.append(error(ev.span, "L010", f"the pack {fixed.pack} {whose} has "
                                                          f"errors: "
                                                          f"{exc.diagnostics[0].render() if exc.diagnostics else ''}"))
                content = self.content_for(packs, list(state.opened), state)
            elif isinstance(fixed, Linked) or (isinstance(fixed, Placed)
                                               and (fixed.to or adds(content.stickers.get(fixed.sticker, {})))):
                content = self.content_for(packs, list(state.opened), state)
        result.content, result.packs = content, packs
        return result

    def checked_replay(self) -> Replay:
        """`replay` checking every event; when all are legal, the verdict is cached for the next write."""
        result = self.replay()
        if not (result.problems or result.pack_problems or self.ledger.problems):
            result.verified = self.content_key(result)
            if result.verified and result.verified != self.ledger.verified:
                remember_verified(self.ledger, result.verified)
        return result

    def replay_for_write(self) -> Replay:
        """The replay a write checks its new event against.

        When the cache says these very bytes were all found legal under the content key this fold
        ends with (same code, game, packs), the events are only folded; otherwise all are checked.
        """
        if self.ledger.verified and not self.ledger.problems:
            folded = self.replay(check=False)
            if not folded.pack_problems and self.content_key(folded) == self.ledger.verified:
                folded.verified = self.ledger.verified
                return folded
        return self.checked_replay()

    def content_key(self, replay: Replay) -> str:
        """What a full check's verdict depends on besides the ledger's bytes ('' when unknown).

        The tracker's version and source, the game, the fingerprint of every content file merged
        (the game's and its packs' bytes), and where those packs are.
        """
        from scarbook import __version__

        fingerprint = self.game(replay.packs).fingerprint
        code = code_fingerprint()
        if not fingerprint or not code:
            return ""
        places = [str(p.resolve()) for p in self.extra_packs + [self.pack_path(p) for p in replay.packs]]
        parts = [__version__, code, self.ledger.game, fingerprint, places]
        return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()[:32]

    def try_event(self, replay: Replay, event: Event) -> tuple[list[Problem], Event | None, list[str]]:
        """Problems with appending `event`; its canonical form; the packets it makes pending."""
        problems = event_problems(replay.content, replay.state, event)
        fixed = canonical(replay.content, replay.state, event)
        if problems or fixed is None:
            return problems, fixed, []
        before = set(replay.pending)
        state = replay.state  # the command ends after this write: fold the new event in place
        apply(state, replay.content, fixed)
        adding = isinstance(fixed, Placed) and bool(fixed.to or adds(replay.content.stickers.get(fixed.sticker, {})))
        if isinstance(fixed, Linked) or adding:
            replay.content = self.content_for(replay.packs, list(state.opened), state)
        after = [e for e, env in replay.content.envelopes.items()
                 if e not in state.opened and trigger_met(replay.content, state, env)]
        return [], fixed, [e for e in after if e not in before]


@functools.cache
def code_fingerprint() -> str:
    """sha256 of the tracker's and the content model's source files: a changed rule, or a changed
    reading of the content (the board's adjacency, say), voids every cached verdict ('' if unreadable)."""
    import scarbook.compiler

    digest = hashlib.sha256()
    try:
        for folder in (Path(__file__).parent, Path(scarbook.compiler.__file__).parent):
            for path in sorted(folder.glob("*.py")):
                digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return ""
    return digest.hexdigest()[:16]
