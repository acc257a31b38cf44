"""Reading a campaign file: its state, its events, the whole re-check, and the game as it stands.

Nothing here writes the campaign file; the ledger cache may be updated with a verdict (`replaycache`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from scarbook.campaign import replaycache, rules
from scarbook.campaign.effective import applied
from scarbook.campaign.engine import Campaign, Replay
from scarbook.campaign.events import GameStarted, PackAdded
from scarbook.campaign.eventspecs import describe
from scarbook.campaign.ids import normalize
from scarbook.campaign.ledger.cache import read
from scarbook.campaign.ledger.file import Ledger
from scarbook.campaign.ledger.stretches import recording
from scarbook.campaign.report import status as status_rows
from scarbook.campaign.status_rows import Status as StatusRows
from scarbook.compiler.model import Game
from scarbook.kernel.diagnostics import Diagnostic, Span, warning


def events(path: Path) -> Ledger:
    """The parsed ledger (`log`): its events with their lines, and what could not be read."""
    return read(path)


def state(path: Path) -> tuple[Campaign, Replay]:
    """The campaign and the state it stands in now (`status`, `where`, `sheet`): from the cache when it
    vouches for these very bytes under the same content, else replayed with every event checked."""
    campaign = Campaign(read(path))
    return campaign, replaycache.for_state(campaign)


def checked(path: Path) -> tuple[Campaign, Replay]:
    """The campaign replayed with every event checked again."""
    campaign = Campaign(read(path))
    return campaign, replaycache.checked(campaign)


def check(path: Path) -> tuple[Ledger, list[Diagnostic]]:
    """Every problem of the campaign file (`check`): unreadable events, the first illegal one at its line,
    packs with errors, and warnings where the game's content or an added pack changed since."""
    campaign, replay = checked(path)
    ledger = campaign.ledger
    found = list(ledger.problems) + list(replay.pack_problems)
    first = replay.first_problem
    if first is not None:
        ev = first[0]
        found += [problem.at(ev.span, f"/events/{ev.index}") for e, problem in replay.problems if e is ev]
    found += earlier_warnings(replay)
    now = campaign.game(()).fingerprint
    latest = recording(ledger)
    if latest and now and latest != now:
        affected = sorted({e.span.line for e, _ in replay.problems} | {e.span.line for e, _ in replay.earlier})
        which = (f"events now refused at lines {', '.join(map(str, affected))}" if affected
                 else "every recorded event is still legal")
        since = "this campaign began" if latest == ledger.fingerprint else "its latest events were recorded"
        found.append(warning(Span(ledger.display, 1, 1), "L004", f"the {ledger.game} content changed since "
                             f"{since} (fingerprint {latest[:12]}, now {now[:12]}); {which}; the next event "
                             "recorded starts a stretch under today's content"))
    return ledger, found + changed_packs(campaign, replay)


def earlier_warnings(replay: Replay) -> list[Diagnostic]:
    """L016 at each event scarbook recorded under earlier content that today's rules refuse (it stays: it is
    on the board), naming the rule; and L018 for a stretch changed by hand since it was recorded."""
    out = list(replay.notes)
    for ev, problem in replay.earlier:
        out.append(warning(ev.span, "L016", f"recorded under an earlier release; today's rules would refuse it: "
                           f"{problem.code} {problem.explained}. It stays (it is on the board) and later events "
                           "are recorded with it in place", f"/events/{ev.index}"))
    return out


def changed_packs(campaign: Campaign, replay: Replay) -> list[Diagnostic]:
    """L013 for every added pack whose files changed since it was added, naming the events now refused."""
    out = []
    for ev in campaign.ledger.events:
        if not isinstance(ev, PackAdded) or not ev.fingerprint:
            continue
        where = campaign.pack_path(ev.pack)
        now = pack_fingerprint(where) if where.exists() else "missing"
        if now != ev.fingerprint:
            later = sorted({e.span.line for e, _ in replay.problems if e.span.line > ev.span.line})
            which = (f"events now refused at lines {', '.join(map(str, later))}" if later
                     else "every recorded event is still legal")
            out.append(warning(ev.span, "L013", f"the pack {ev.pack} changed since it was added (fingerprint "
                               f"{ev.fingerprint[:12]}, now {now[:12]}); {which}"))
    return out


def pack_fingerprint(pack: Path) -> str:
    """A fingerprint of a pack's files (as `campaign add-pack` records it)."""
    from scarbook.compiler.load import fingerprint, pack_paths

    files, _ = pack_paths(pack)
    return fingerprint(files, pack.resolve() if pack.is_dir() else None)


def campaign_game(path: Path, packs: list[Path]) -> Game:
    """The game as it stands in the campaign in `path` (with extra `packs` merged), for `show`, `tables`
    and `build --campaign`: opened packets visible, nothing sealed, the board and cards as changed; the
    schedule's games not reached yet left out and nothing that names a sealed item (`compiler.spoilers`)."""
    campaign = Campaign(read(Path(path)), list(packs))
    return as_players_see(campaign, campaign.replay(check=False))


def as_players_see(campaign: Campaign, replay: Replay) -> Game:
    """The replayed campaign's game as every output may show it: the campaign applied (what it wrote located
    at the ledger's lines), later games of the schedule and whatever names a sealed item left out."""
    from scarbook.compiler.spoilers import for_players

    state = replay.state
    reached = state.started if state.in_progress else state.started + 1  # the game being played, or the next
    from scarbook.campaign.shape import campaign_over, end_verdict, status_data, status_lines

    game = applied(replay, campaign.ledger.display)
    content = replay.content
    over = end_verdict(content, state) is not None or campaign_over(content, state)
    standing = status_lines(status_data(content, state, lambda sid, t: rules.legal_now(content, state, sid, t)))
    return for_players(game, campaign.game(replay.packs), list(state.opened), reached, over, tuple(standing))


@dataclass(frozen=True)
class Status:
    """Where the campaign stands (typed rows, `report.status`), and a warning when the file has a bad event."""

    rows: StatusRows
    warning: str = ""

    @cached_property
    def data(self) -> dict[str, Any]:
        """`status --format json` (`report.status_data`)."""
        return self.rows.json()


def status(path: Path) -> Status:
    """The campaign's state as `status` shows it (text or JSON), with a warning for an unreadable or
    illegal event (the state then stops before it)."""
    campaign, replay = state(path)
    data = status_rows(campaign.ledger, replay)
    bad = replay.first_problem
    if campaign.ledger.problems:
        return Status(data, f"the campaign file has an unreadable event ({campaign.ledger.problems[0].render()}); "
                            "run 'scarbook campaign check'")
    broken = min((p.span.line for p in replay.pack_problems), default=0)
    if bad is not None and not (broken and broken < bad[0].span.line):
        return Status(data, f"the campaign file has an illegal event at line {bad[0].span.line}; "
                            "run 'scarbook campaign check'")
    if broken:
        return Status(data, f"the campaign file records a pack with errors at line {broken}; "
                            "run 'scarbook campaign check'")
    return Status(data, earlier_summary(replay))


def earlier_summary(replay: Replay) -> str:
    """One line on the events recorded under an earlier release that today's rules refuse ('' when none)."""
    if not replay.earlier:
        return ""
    ev, problem = replay.earlier[0]
    lines = sorted({e.span.line for e, _ in replay.earlier})
    more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
    return (f"line {ev.span.line}{more} was recorded under an earlier release; today's rules would refuse it: "
            f"{problem.code} {problem.message}. It stays; run 'scarbook campaign check' for the list")


def log(path: Path) -> tuple[Ledger, list[tuple[int, str]]]:
    """The recorded events in order, each with its line and as a group would say it (`log`); the ledger's
    own problems are in the returned ledger."""
    ledger = read(path)
    lines, game = [], 0
    for ev in ledger.events:
        if isinstance(ev, GameStarted):
            game += 1
            lines.append((ev.span.line, f"game {game} " + describe(ev).removeprefix("game ")))
        else:
            lines.append((ev.span.line, describe(ev)))
    return ledger, lines


def told(path: Path) -> tuple[Ledger, list[tuple[int, str]]]:
    """Every recorded event in order, with its line, as the story tells it (`diff`, the chronicle: the content's
    names and the names players gave, "Ann founds 'Toronto' (Minor City) in Ontario"); `log`'s short line where
    the ledger has problems of its own."""
    from scarbook.campaign.history import Words, story

    ledger = read(path)
    if ledger.problems:
        return log(path)
    words = Words(replaycache.for_state(Campaign(ledger)))
    return ledger, [(t.event.span.line, t.text) for t in story(list(ledger.events), 0, len(ledger.events), words)]


@dataclass(frozen=True)
class Where:
    """Every target where a sticker could legally go now, for a player (or anyone)."""

    sticker: str
    actor: str
    targets: list[str]
    offered_by: Any


def where(path: Path, sticker: str, by: str = "") -> Where | list[Diagnostic]:
    """Where `sticker` could legally go now (for the player `by`), or why the question is wrong."""
    _, replay = state(path)
    content, now = replay.content, replay.state
    sid = normalize(sticker)
    actor = ""
    if by:
        actor = rules.player_name(now, by) or ""
        if not actor:
            return [rules.unknown_player(content, now, by)]
    if sid not in content.stickers:
        first = next(iter(content.territories), "x")
        problem = rules.resolve(content, now, sid, first, by)
        return [problem] if isinstance(problem, Diagnostic) else [rules.unknown_sticker(content, sticker)]
    return Where(sid, actor, rules.where(content, now, sid, actor), content.declared_places(content.sticker_views[sid]))


def sheet(path: Path, target: Path, fmt: str, paper: str = "a4") -> Path:
    """Write the campaign sheet (pdf, html or svg) to `target` on `paper` (a4, letter); ValueError when it
    cannot be made."""
    return sheet_noted(path, target, fmt, paper)[0]


def sheet_noted(path: Path, target: Path, fmt: str, paper: str = "a4") -> tuple[Path, str]:
    """`sheet`, and a warning for events recorded under an earlier release that today's rules refuse."""
    from scarbook.campaign.sheet import write_sheet

    campaign, replay = state(path)
    return write_sheet(campaign.ledger, replay, target, fmt, paper), earlier_summary(replay)


@dataclass(frozen=True)
class Owed:
    """What is owed before the next game (`todo`'s entries as dicts), and that game's number."""

    items: list[dict[str, Any]]
    next_game: int


def owed(path: Path) -> Owed:
    """Everything owed before the next game, in order, each with its command (`game end`, `open`, `status`)."""
    from scarbook.campaign.todo import todo

    _, replay = state(path)
    return Owed([t.to_json() for t in todo(replay.content, replay.state)], replay.state.started + 1)


@dataclass(frozen=True)
class Added:
    """What an opened packet added, as players see it: its name, the notes on it and each item's name."""

    name: str
    notes: str
    items: list[str]


def packet_added(path: Path, envelope: str) -> Added:
    """What the (opened) packet `envelope` holds, by the campaign's content now."""
    _, replay = state(path)
    content = replay.content
    env = content.envelopes.get(normalize(envelope), {})
    names = []
    for item in env.get("contents", []) or []:
        found = (content.stickers.get(item) or content.cards.get(item) or content.regions.get(item)
                 or content.territories.get(item) or {})
        names.append(str(found.get("name") or item) if isinstance(found, dict) else str(item))
    return Added(str(env.get("name") or envelope), str(env.get("notes") or ""), names)
