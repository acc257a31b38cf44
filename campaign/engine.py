"""Replaying a ledger: the content it starts from, the fold, and every problem at its line.

`Campaign` ties a `Ledger` to its game's validated content (from the compiler's hash-keyed cache,
so jsonschema is not imported when the cache is warm), adds the packs opened envelopes brought,
and folds the events, checking each before it is applied (one pass per event: `rules.admit`
resolves what was typed once, for the check and the canonical form that is folded). It never
writes the ledger; the one thing it records is a verdict in the parsed-ledger cache: "these very
bytes were all legal under this content key" (`content_key`), with the state they fold to. The
next command on the same bytes, under the same key (same tracker, game, packs), starts from that
state: a write checks only its new event, `where` and `status` fold nothing (`cached_replay`).
A hand edit (other bytes), a changed pack or a changed tracker voids it, and `check` always
re-checks every event.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from scarbook.campaign.content import Content
from scarbook.campaign.events import Event, Linked, Opened, PackAdded, Placed
from scarbook.campaign.ledger.cache import holds_state, recall_state, remember_state
from scarbook.campaign.ledger.file import Ledger, LedgerError
from scarbook.campaign.links import adds, as_played
from scarbook.campaign.rules import Problem, admit, canonical, pending, trigger_met
from scarbook.campaign.state import CampaignState, GameRecord, apply, copy_state, new_state
from scarbook.compiler.model import Game
from scarbook.kernel.diagnostics import Diagnostic, Span, error


@dataclass
class Replay:
    """A fold of the events: the state, the content as played, the problems found, the packs merged."""

    state: CampaignState
    content: Content
    problems: list[tuple[Event, Problem]] = field(default_factory=list)
    pack_problems: list[Diagnostic] = field(default_factory=list)
    packs: tuple[str, ...] = ()  # the packs merged after the last event (paths as the ledger gives them)
    checked: int = 0  # how many events were checked (the others were only folded)
    verified: str = ""  # the content key under which every event is known legal ('' when not known)
    before_last: tuple[CampaignState, tuple[str, ...]] | None = None  # (state, packs) before the last event

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

    def replay(self, events: list[Event] | None = None, check: bool = True, keep_before_last: bool = False) -> Replay:
        """Fold the events (default: the ledger's), checking each first unless `check` is false
        (`keep_before_last`: also keep a copy of the state before the last event, for the cache's undo)."""
        from scarbook.compiler.validate import ContentError

        events = self.ledger.events if events is None else events
        packs: tuple[str, ...] = ()
        content = self.content_for(packs, [])
        state = new_state(self.ledger.players)
        result = Replay(state, content, checked=len(events) if check else 0)
        last = len(events) - 1
        for n, ev in enumerate(events):
            if check:
                problems, fixed = admit(content, state, ev)
                result.problems.extend((ev, problem) for problem in problems)
            else:
                fixed = canonical(content, state, ev)
            if n == last and keep_before_last:
                result.before_last = (copy_state(state), packs)
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
        """`replay` checking every event; when all are legal, the verdict and the state are cached."""
        result = self.replay(keep_before_last=True)
        self._vouch(result)
        return result

    def _vouch(self, result: Replay) -> None:
        if not (result.problems or result.pack_problems or self.ledger.problems):
            result.verified = self.content_key(result)
            if result.verified and not holds_state(self.ledger, result.verified):
                remember_state(self.ledger, result.verified, result.state, result.packs, result.before_last)

    def cached_replay(self) -> Replay | None:
        """The replay the cache holds for these very bytes, when its verdict holds under the content key the
        state ends with (same tracker, game, packs and their bytes); None otherwise."""
        if not self.ledger.verified or self.ledger.problems:
            return None
        found = recall_state(self.ledger, self._games_again)
        if found is None:
            return None
        state, packs = found
        from scarbook.compiler.validate import ContentError

        try:
            if self.key_for(packs) != self.ledger.verified:
                return None
            result = Replay(state, self.content_for(packs, list(state.opened), state), packs=packs)
        except (ContentError, LedgerError):
            return None  # a recorded pack is gone or broken now: the full replay reports it
        result.verified = self.ledger.verified
        return result

    def _games_again(self) -> list[GameRecord]:
        """The games, folded again (when the cache's archive of old games no longer verifies)."""
        return list(self.replay(check=False).state.games)

    def replay_for_write(self) -> Replay:
        """The replay a write checks its new event against (and `where`, `status` answer from).

        The cached state when the cache vouches for these very bytes under the content key it ends with;
        else, with a verdict but no state, the events only folded (and the state cached); else all checked.
        """
        cached = self.cached_replay()
        if cached is not None:
            return cached
        if self.ledger.verified and not self.ledger.problems:
            folded = self.replay(check=False, keep_before_last=True)
            if not folded.pack_problems and self.content_key(folded) == self.ledger.verified:
                remember_state(self.ledger, self.ledger.verified, folded.state, folded.packs, folded.before_last)
                folded.verified = self.ledger.verified
                return folded
        return self.checked_replay()

    def content_key(self, replay: Replay) -> str:
        """What a full check's verdict depends on besides the ledger's bytes ('' when unknown)."""
        return self.key_for(replay.packs)

    def key_for(self, packs: tuple[str, ...]) -> str:
        """The content key of a fold that ends with these packs merged: the tracker's version and source, the
        game, the fingerprint of every content file merged (the game's and its packs' bytes), and where those
        packs are ('' when unknown)."""
        from scarbook import __version__

        fingerprint = self.game(packs).fingerprint
        code = code_fingerprint()
        if not fingerprint or not code:
            return ""
        places = [str(p.resolve()) for p in self.extra_packs + [self.pack_path(p) for p in packs]]
        parts = [__version__, code, self.ledger.game, fingerprint, places]
        return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()[:32]

    def check_event(self, replay: Replay, event: Event) -> tuple[list[Problem], Event | None]:
        """Problems with appending `event` now, and its canonical form (nothing is folded)."""
        return admit(replay.content, replay.state, event)

    def try_event(self, replay: Replay, event: Event) -> tuple[list[Problem], Event | None, list[str]]:
        """Problems with appending `event`; its canonical form; the packets it makes pending (folded in place)."""
        problems, fixed = self.check_event(replay, event)
        if problems or fixed is None:
            return problems, fixed, []
        return [], fixed, self.fold_new(replay, fixed)

    def fold_new(self, replay: Replay, fixed: Event) -> list[str]:
        """Fold a new event (checked, canonical, with the span it has in the file) into the replay in place: the
        command ends after this write. The packets it makes pending."""
        before = set(replay.pending)
        state = replay.state
        apply(state, replay.content, fixed)
        adding = isinstance(fixed, Placed) and bool(fixed.to or adds(replay.content.stickers.get(fixed.sticker, {})))
        if isinstance(fixed, Linked) or adding:
            replay.content = self.content_for(replay.packs, list(state.opened), state)
        after = [e for e, env in replay.content.envelopes.items()
                 if e not in state.opened and trigger_met(replay.content, state, env)]
        return [e for e in after if e not in before]


@functools.cache
def code_fingerprint() -> str:
    """sha256 of the tracker's and the content model's source files: a changed rule, or a changed
    reading of the content (the board's adjacency, say), voids every cached verdict ('' if unreadable)."""
    import scarbook.compiler
    import scarbook.kernel

    digest = hashlib.sha256()
    try:
        for package in (scarbook.campaign, scarbook.compiler, scarbook.kernel):
            folder = Path(str(package.__file__)).parent
            for path in sorted(folder.rglob("*.py")):
                name = path.relative_to(folder).as_posix()
                digest.update(name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return ""
    return digest.hexdigest()[:16]
