"""Changing a campaign file: recording one new event, undoing the last one, creating a campaign.

A write is one transaction: take the ledger's lock, read it (through the cache), replay it (from the
cache's verified state when it vouches for these bytes), check the new event, render the new text,
write it atomically (`ledger.write`), fold the event and update the cache. A refusal or a failure
leaves the file byte for byte as it was. Results are values; nothing here prints.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scarbook import __version__
from scarbook.campaign import replaycache, unknowns
from scarbook.campaign.engine import Campaign, Replay
from scarbook.campaign.events import Event, GameStarted, Opened, PackAdded, clean_note, note_problem
from scarbook.campaign.eventspecs import describe, pack_of
from scarbook.campaign.ledger.cache import placed_at, raw_sha256, read, remember_appended, remember_undone
from scarbook.campaign.ledger.file import LedgerError, recorded_path
from scarbook.campaign.ledger.stretches import new_stretch
from scarbook.campaign.ledger.text import render, with_event, with_stretch, without_last
from scarbook.campaign.ledger.write import locked, write_atomic
from scarbook.campaign.links import cuts
from scarbook.campaign.rules import model_cite, player_count_problem, starts_asked
from scarbook.campaign.service.reading import Owed, pack_fingerprint
from scarbook.kernel.diagnostics import Diagnostic, Span, error, refusal
from scarbook.kernel.sha import hexdigest

#: Why a write from a page built on other bytes of the campaign file is refused (L012).
STALE_PAGE = ("the campaign changed since you opened this page (another device or the command line wrote to it); "
              "nothing was written: look at it again and redo what you meant")

#: What a command turns its options into, given the campaign as it stands: the event, or why not.
MakeEvent = Callable[[Campaign, Replay], "Event | list[Diagnostic]"]


def from_page(expected_sha256: str, make: MakeEvent) -> MakeEvent:
    """`make` for a write from a page built on the file's bytes with this sha256: refused (L012, nothing
    written) when the file, read under the lock by `record`, holds other bytes (fava's check on every save)."""

    def checked(campaign: Campaign, replay: Replay) -> Event | list[Diagnostic]:
        if hexdigest(campaign.ledger.raw) != expected_sha256:
            return [error(Span(campaign.ledger.display, 1, 1), "L012", STALE_PAGE)]
        return make(campaign, replay)

    return checked


@dataclass(frozen=True)
class Packet:
    """A sealed packet a recorded event makes due: open it now."""

    id: str
    name: str
    trigger: str


@dataclass
class Recorded:
    """What `record` did: the event as recorded (or, with a dry run, as it would be), told as `log` tells it;
    or the problems that refused it (then nothing was written)."""

    problems: list[Diagnostic] = field(default_factory=list)
    event: Event | None = None
    said: str = ""
    dry_run: bool = False
    note: str = ""  # what the write noticed and mended on the way (a late hand edit kept, ...)
    to_open: list[Packet] = field(default_factory=list)
    owed: Owed | None = None  # asked for (`owed=True`): what is owed now, from the state the write made


@dataclass(frozen=True)
class Undone:
    """The event `undo` removed (or `redo` would record again): its line and how `log` told it, and its note."""

    line: int
    said: str
    note: str = ""


@dataclass(frozen=True)
class Created:
    """A new campaign file: what it records, and the command that starts game 1."""

    file: Path
    title: str
    players: list[str]
    packs: list[str]
    first_game: str  # the --play options of game 1 for these players


def record(path: Path, make: MakeEvent, dry_run: bool = False, note: str = "", owed: bool = False) -> Recorded:
    """Check one new event against the campaign and append it (with `dry_run`, only answer). `note`: the players'
    free text the event carries (`--note`; else the note the event was made with); L020 when it is too long or
    not text, nothing written. `owed`: also say what is owed now (as `reading.owed` would, without reading the
    campaign again: the state the write folded is the one the file now holds)."""
    note = clean_note(note)
    why = note_problem(note)
    if why:
        return Recorded([refusal("L020", why)])
    with locked(path):
        campaign = Campaign(read(path))
        replay = replaycache.for_state(campaign)
        bad = replay.first_problem
        # a recorded pack that is not one, or has errors (L010 in `check`) is as bad as an illegal event: the
        # campaign cannot be replayed as recorded, so nothing more is written onto it
        broken = min((p.span.line for p in replay.pack_problems), default=0)
        if bad is not None or campaign.ledger.problems or broken:
            where = (f"{campaign.ledger.problems[0].span}" if campaign.ledger.problems
                     else f"line {min(bad[0].span.line, broken or bad[0].span.line)}" if bad
                     else f"line {broken}: a pack with errors")
            return Recorded([refusal("L007", f"the campaign file already has an illegal or unreadable event "
                                     f"({where}); see 'scarbook campaign check', then fix it by hand or "
                                     "'scarbook campaign undo'")])
        event = make(campaign, replay)
        if isinstance(event, list):
            return Recorded(event)
        if note:
            event = dataclasses.replace(event, note=note)
        problems, fixed = campaign.check_event(replay, event)
        if problems or fixed is None:
            return Recorded(problems or [refusal("L003", "this event cannot be recorded")])
        if fixed.note != event.note:  # the canonical form keeps the players' note
            fixed = dataclasses.replace(fixed, note=event.note)
        cutting = frozenset(sid for sid, st in replay.content.sticker_views.items() if cuts(st))
        asked = starts_asked(replay.content, replay.state, fixed) if isinstance(fixed, GameStarted) else ""
        unknown = unknowns.note(replay.content, replay.state, fixed)
        if dry_run:
            return Recorded(event=fixed, said=describe(fixed, cutting), dry_run=True, note=unknown)
        text = with_event(campaign.ledger, fixed)
        stretch = new_stretch(campaign.ledger, campaign.game(()).fingerprint, __version__)
        if stretch is not None:  # the first event under other content: the header says from where (once)
            text = with_stretch(text, stretch)
        fixed = placed_at(campaign.ledger, text, fixed)  # the state keeps each mark's line
        triggered = campaign.fold_new(replay, fixed)
        mended = write_atomic(path, text, expected=campaign.ledger.raw, expected_sha256=raw_sha256(campaign.ledger))
        keeps = not pack_of(fixed)  # a new pack: a new content key
        if stretch is None:  # a changed header: the next read parses the file and caches it again
            remember_appended(campaign.ledger, text, fixed, replay.verified, replay.state if keeps else None,
                              replay.packs)
        now_owed = owed_now(campaign, replay) if owed and keeps else None
    packets = []
    for env in triggered:
        info = replay.content.envelopes.get(env, {})
        packets.append(Packet(env, info.get("name", env), (info.get("trigger") or {}).get("text", "")))
    return Recorded(event=fixed, said=describe(fixed, cutting),
                    note="\n".join(filter(None, [mended, asked, unknown])),
                    to_open=packets, owed=now_owed)


def owed_now(campaign: Campaign, replay: Replay) -> Owed:
    """What is owed before the next game in the state `replay` holds, with the content as played then."""
    from scarbook.campaign.todo import todo

    state = replay.state
    content = campaign.content_for(replay.packs, list(state.opened), state)
    return Owed([t.to_json() for t in todo(content, state)], state.started + 1)


def undo(path: Path, dry_run: bool = False, expected_sha256: str = "") -> Undone:
    """Remove the last event from the campaign file (the previous file is kept as .bak); with `dry_run`, only
    say which event that would be. With `expected_sha256` (a page built on those bytes), refused with L012 when
    the file holds other bytes now."""
    with locked(path):
        ledger = read(path)
        if expected_sha256 and hexdigest(ledger.raw) != expected_sha256:
            raise LedgerError([error(Span(ledger.display, 1, 1), "L012", STALE_PAGE)])
        text, last = without_last(ledger)
        if dry_run:
            return Undone(last.span.line, describe(last), last.note)
        write_atomic(path, text, expected=ledger.raw)
        remember_undone(ledger, text)
    return Undone(last.span.line, describe(last), last.note)


def redo(path: Path, dry_run: bool = False, expected_sha256: str = "") -> Recorded:
    """Record again the event the last `undo` removed (with its note), checked like any new event: the kept .bak
    must be this file plus that one event (nothing recorded since the undo); else L019, nothing written. With
    `expected_sha256` (a page built on those bytes), refused with L012 when the file holds other bytes now."""
    if expected_sha256 and path.is_file() and hexdigest(path.read_bytes()) != expected_sha256:
        raise LedgerError([error(Span(str(path), 1, 1), "L012", STALE_PAGE)])
    backup = path.with_name(path.name + ".bak")
    nothing = LedgerError([error(Span(str(path), 1, 1), "L019", "there is nothing to redo: the last change was not "
                                 "an undo (or something was recorded since); nothing was written")])
    if not backup.is_file() or not path.is_file():
        raise nothing
    text, event = without_last(read(backup))
    now = path.read_bytes()
    if text.encode("utf-8") != now:
        raise nothing

    def again(campaign: Campaign, replay: Replay) -> Event | list[Diagnostic]:
        if campaign.ledger.raw != now:  # changed between the look and the lock
            raise nothing
        return event

    return record(path, from_page(expected_sha256, again) if expected_sha256 else again, dry_run)


def redoable(path: Path) -> Undone | None:
    """The event `redo` would record again, as `log` tells it (None when there is nothing to redo)."""
    backup = path.with_name(path.name + ".bak")
    try:
        if not backup.is_file() or not path.is_file():
            return None
        text, event = without_last(read(backup))
        if text.encode("utf-8") != path.read_bytes():
            return None
    except (LedgerError, OSError):
        return None
    return Undone(event.span.line, describe(event), event.note)


def add_pack(path: Path, pack: Path, note: str = "", dry_run: bool = False,
             make: Callable[[MakeEvent], MakeEvent] | None = None) -> Recorded:
    """Add a house-rule pack between games (validated with the campaign's game first). `make` wraps the event's
    maker (a page's `from_page`)."""
    from scarbook.compiler.validate import cached_game

    cached_game(Campaign(read(path)).game_ref, [pack])  # a pack with errors (or for another game): ContentError
    stored = recorded_path(path, pack)
    added: MakeEvent = lambda c, r: PackAdded(stored, pack_fingerprint(pack))  # noqa: E731
    return record(path, make(added) if make else added, dry_run, note)


def open_packet(path: Path, envelope: str, pack: Path | None = None, dry_run: bool = False, note: str = "",
                make: Callable[[MakeEvent], MakeEvent] | None = None) -> Recorded:
    """Record that a sealed packet was opened, with the pack where the players transcribed what it holds."""
    stored = ""
    if pack is not None:
        from scarbook.compiler.validate import cached_game

        cached_game(Campaign(read(path)).game_ref, [pack])  # a pack with errors: ContentError
        stored = recorded_path(path, pack)
    opened: MakeEvent = lambda c, r: Opened(envelope, stored)  # noqa: E731
    return record(path, make(opened) if make else opened, dry_run, note)


def create(file: Path, game: str, players: list[str], packs: list[Path], name: str = "") -> Created | Diagnostic:
    """Create a campaign file: the game, a fingerprint of its content, the players and the packs played from
    game 1 (a homebrew game and the packs recorded relative to the file). A file that exists is refused."""
    from scarbook.campaign.model import CampaignModel
    from scarbook.compiler.validate import cached_game

    if file.exists():
        return refusal("L008", f"{file} already exists (choose another file, or delete it)")
    content = cached_game(game)  # UnknownGame: the command line is wrong
    if packs:
        cached_game(game, packs)  # a pack with errors (or for another game): ContentError
    model = CampaignModel.of(content)
    too = player_count_problem(content, len(players), model_cite(model))
    if too is not None:
        return too
    if str(file.parent):
        file.parent.mkdir(parents=True, exist_ok=True)
    recorded = content.id
    if Path(game).exists():  # a homebrew game: its folder (or file) relative to the ledger
        recorded = recorded_path(file, Path(game))
        recorded = recorded if "/" in recorded or recorded.endswith((".yaml", ".yml")) else f"./{recorded}"
    added = [PackAdded(recorded_path(file, p), pack_fingerprint(p)).to_dict() for p in packs]
    write_atomic(file, render(name, recorded, content.fingerprint, players, added), backup=False)
    plays = " ".join(f"--play {model.play_form(1, n)}" for n in players)
    return Created(file, content.title, players, [str(a["pack"]) for a in added], plays)
