"""Changing a campaign file: recording one new event, undoing the last one, creating a campaign.

A write is one transaction: take the ledger's lock, read it (through the cache), replay it (from the
cache's verified state when it vouches for these bytes), check the new event, render the new text,
write it atomically (`ledger.write`), fold the event and update the cache. A refusal or a failure
leaves the file byte for byte as it was. Results are values; nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.campaign import replaycache
from scarbook.campaign.engine import Campaign, Replay
from scarbook.campaign.events import Event, GameStarted, Opened, PackAdded
from scarbook.campaign.ledger.cache import placed_at, raw_sha256, read, remember_appended, remember_undone
from scarbook.campaign.ledger.file import recorded_path
from scarbook.campaign.ledger.text import render, with_event, without_last
from scarbook.campaign.ledger.write import locked, write_atomic
from scarbook.campaign.links import cuts
from scarbook.campaign.report import describe
from scarbook.campaign.rules import starts_asked
from scarbook.campaign.service.reading import pack_fingerprint
from scarbook.kernel.diagnostics import Diagnostic, refusal

#: What a command turns its options into, given the campaign as it stands: the event, or why not.
MakeEvent = Callable[[Campaign, Replay], "Event | list[Diagnostic]"]


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


@dataclass(frozen=True)
class Undone:
    """The event `undo` removed: its line and how `log` told it."""

    line: int
    said: str


@dataclass(frozen=True)
class Created:
    """A new campaign file: what it records, and the command that starts game 1."""

    file: Path
    title: str
    players: list[str]
    packs: list[str]
    first_game: str  # the --play options of game 1 for these players


def record(path: Path, make: MakeEvent, dry_run: bool = False) -> Recorded:
    """Check one new event against the campaign and append it (with `dry_run`, only answer)."""
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
        problems, fixed = campaign.check_event(replay, event)
        if problems or fixed is None:
            return Recorded(problems or [refusal("L003", "this event cannot be recorded")])
        cutting = frozenset(sid for sid, st in replay.content.stickers.items() if cuts(st))
        asked = starts_asked(replay.content, replay.state, fixed) if isinstance(fixed, GameStarted) else ""
        if dry_run:
            return Recorded(event=fixed, said=describe(fixed, cutting), dry_run=True)
        text = with_event(campaign.ledger, fixed)
        fixed = placed_at(campaign.ledger, text, fixed)  # the state keeps each mark's line
        triggered = campaign.fold_new(replay, fixed)
        note = write_atomic(path, text, expected=campaign.ledger.raw, expected_sha256=raw_sha256(campaign.ledger))
        keeps = not isinstance(fixed, (Opened, PackAdded)) or not fixed.pack  # a new pack: a new content key
        remember_appended(campaign.ledger, text, fixed, replay.verified, replay.state if keeps else None,
                          replay.packs)
    packets = []
    for env in triggered:
        info = replay.content.envelopes.get(env, {})
        packets.append(Packet(env, info.get("name", env), (info.get("trigger") or {}).get("text", "")))
    return Recorded(event=fixed, said=describe(fixed, cutting), note="\n".join(filter(None, [note, asked])),
                    to_open=packets)


def undo(path: Path) -> Undone:
    """Remove the last event from the campaign file (the previous file is kept as .bak)."""
    with locked(path):
        ledger = read(path)
        text, last = without_last(ledger)
        write_atomic(path, text, expected=ledger.raw)
        remember_undone(ledger, text)
    return Undone(last.span.line, describe(last))


def add_pack(path: Path, pack: Path) -> Recorded:
    """Add a house-rule pack between games (validated with the campaign's game first)."""
    from scarbook.compiler.validate import cached_game

    cached_game(Campaign(read(path)).game_ref, [pack])  # a pack with errors (or for another game): ContentError
    stored = recorded_path(path, pack)
    return record(path, lambda c, r: PackAdded(stored, pack_fingerprint(pack)))


def open_packet(path: Path, envelope: str, pack: Path | None = None) -> Recorded:
    """Record that a sealed packet was opened, with the pack where the players transcribed what it holds."""
    stored = ""
    if pack is not None:
        from scarbook.compiler.validate import cached_game

        cached_game(Campaign(read(path)).game_ref, [pack])  # a pack with errors: ContentError
        stored = recorded_path(path, pack)
    return record(path, lambda c, r: Opened(envelope, stored))


def _player_count(content: Any, players: list[str]) -> Diagnostic | None:
    """R306: a campaign of fewer players than the game's least, or more than its most, is refused at creation
    (issue 38 item 11): no game of it could start with everyone."""
    from scarbook.compiler.model import as_dict

    declared = as_dict(content.meta.get("players"))
    low, high = declared.get("min"), declared.get("max")
    cite = str(as_dict(content.meta.get("source")).get("cite") or "")
    said = f"{content.title} is for {low} to {high} players" if isinstance(low, int) and isinstance(high, int) \
        else f"{content.title}'s player count"
    if isinstance(low, int) and len(players) < low:
        return refusal("R306", f"{len(players)} player{'' if len(players) == 1 else 's'}; {content.title} needs at "
                       f"least {low} (give each with --player NAME)", said, cite)
    if isinstance(high, int) and len(players) > high:
        return refusal("R306", f"{len(players)} players; {content.title} takes at most {high}", said, cite)
    return None


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
    wrong = _player_count(content, players)
    if wrong is not None:
        return wrong
    if str(file.parent):
        file.parent.mkdir(parents=True, exist_ok=True)
    recorded = content.id
    if Path(game).exists():  # a homebrew game: its folder (or file) relative to the ledger
        recorded = recorded_path(file, Path(game))
        recorded = recorded if "/" in recorded or recorded.endswith((".yaml", ".yml")) else f"./{recorded}"
    added = [PackAdded(recorded_path(file, p), pack_fingerprint(p)).to_dict() for p in packs]
    write_atomic(file, render(name, recorded, content.fingerprint, players, added), backup=False)
    model = CampaignModel.of(content)
    plays = " ".join(f"--play {model.play_form(1, n)}" for n in players)
    return Created(file, content.title, players, [str(a["pack"]) for a in added], plays)
