"""The campaign file: one plain-text YAML ledger per campaign, and safe ways to change it.

Reads keep every event's line (via `scarbook.compiler.yamlload.loads`; PyYAML is imported only when a file
must be parsed or an event written, never for a ledger served from the cache). Writes take an exclusive
lock on a side `.lock` file and keep the previous version as `FILE.bak`. An event is appended in
place (O_APPEND, one write, fsync; a journal `.FILE.append` lets the next write cut an append torn
by a kill), so hand `>>` appends racing it are never lost; `undo` of the last line truncates in
place; any other change writes a temporary file in the same folder, fsyncs it and `os.replace`s it
over the ledger. A crash never leaves half an event that anyone reads. This module never decides
what is legal.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import functools
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.compiler.diagnostics import Diagnostic, Span, error
from scarbook.compiler.yamlload import decode, loads, read_capped

from .events import Event, ParseProblem, event_fields, event_from_fields, parse_event
from .lazylist import LazyList

HEADER_COMMENT = (
    "# scarbook campaign ledger: the game, a fingerprint of its content when the campaign began,\n"
    "# the players, then every permanent change in order, one event per line. You may edit it by\n"
    "# hand; `scarbook campaign check` re-checks every event against the rules.\n"
)
LOCK_WAIT_SECONDS = float(os.environ.get("SCARBOOK_LOCK_WAIT", "3"))
MAX_LEDGER_BYTES = 64 * 1024 * 1024


class LedgerError(Exception):
    """The campaign file cannot be used: the diagnostics say why (exit 1)."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


class LedgerBusy(Exception):
    """Another scarbook command holds the lock (exit 1, retry)."""


@dataclass
class Ledger:
    """A parsed campaign file: header fields, events (with their spans) and the raw text."""

    path: Path
    display: str
    text: str
    name: str
    game: str
    fingerprint: str
    players: list[str]
    events: list[Event] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)  # entries that cannot be read
    appendable: bool = True  # the events are a block list at the end of the file
    indent: str = ""
    verified: str = ""  # from the cache: the key under which every event was found legal ('' none)
    cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # the cache entry as read
    raw: bytes = field(default=b"", repr=False, compare=False)  # the bytes read (a write checks they are still there)
    entries: int = 0  # entries in the events list, readable or not

    def player(self, name: str) -> str | None:
        """The recorded spelling of a player's name, matched case-insensitively."""
        low = name.strip().lower()
        for p in self.players:
            if p.lower() == low:
                return p
        return None


def display_path(path: Path) -> str:
    try:
        return os.path.relpath(path) if path.is_absolute() else str(path)
    except ValueError:
        return str(path)


def parse(text: str, path: Path, display: str | None = None) -> Ledger:
    """Text of a campaign file to a `Ledger`; raises LedgerError when the file is not a ledger."""
    shown = display or display_path(path)
    doc = loads(text, shown)
    if doc.diagnostics and doc.data is None:
        raise LedgerError([Diagnostic(d.span, d.severity, d.code, d.message) for d in doc.diagnostics])
    data = doc.data
    top = Span(shown, 1, 1)
    if not isinstance(data, dict) or not isinstance(data.get("campaign"), dict):
        raise LedgerError([error(top, "L002", "not a campaign file: it needs 'campaign: {game: ..., players: "
                                 "[...]}' and 'events:'; create one with 'scarbook campaign new FILE --game GAME "
                                 "--player NAME ...'")])
    head = data["campaign"]
    game = head.get("game")
    players = head.get("players")
    if not isinstance(game, str) or not game:
        raise LedgerError([error(doc.span("/campaign"), "L002", "the campaign has no 'game: GAME_ID'")])
    if not isinstance(players, list) or not players or not all(isinstance(p, (str, int)) for p in players):
        raise LedgerError([error(doc.span("/campaign/players"), "L002", "the campaign needs 'players: [NAME, ...]'")])
    names = [str(p) for p in players]
    lowered = [p.lower() for p in names]
    if len(set(lowered)) != len(lowered):
        raise LedgerError([error(doc.span("/campaign/players"), "L002", "two players have the same name")])
    raw_events = data.get("events")
    if raw_events is None:
        raw_events = []
    if not isinstance(raw_events, list):
        raise LedgerError([error(doc.span("/events"), "L002", "'events' must be a list of events")])
    ledger = Ledger(path, shown, text, str(head.get("name") or ""), game, str(head.get("fingerprint") or ""),
                    names)
    ledger.problems.extend(d for d in doc.diagnostics)
    ledger.entries = len(raw_events)
    ledger.raw = text.encode("utf-8")
    spans = doc.spans
    for i, raw in enumerate(raw_events):
        span = spans.get(f"/events/{i}") or doc.span(f"/events/{i}")
        ev = parse_event(raw, span, i)
        if isinstance(ev, ParseProblem):
            ledger.problems.append(error(ev.span, "L003", ev.message, f"/events/{i}"))
        else:
            ledger.events.append(ev)
    ledger.appendable, ledger.indent = _layout(text, doc.key_spans, raw_events, spans)
    return ledger


def _layout(text: str, key_spans: dict[str, Span], raw_events: list[Any],
            spans: dict[str, Span]) -> tuple[bool, str]:
    """Can a new event be appended as one more `- {...}` line at the end of the file?"""
    ev_key = key_spans.get("/events")
    if ev_key is None:
        return False, ""
    if any(s.line > ev_key.line for k, s in key_spans.items() if k.count("/") == 1 and k != "/events"):
        return False, ""
    lines = _BREAK.split(text)
    if any(ln.startswith(("---", "...")) for ln in lines):
        return False, ""  # document markers: only the checked (slow) paths may touch such a file
    after = lines[ev_key.line - 1][ev_key.column - 1:].split(":", 1)[-1].strip()
    if not raw_events:
        return after in ("", "[]") and not any(ln.strip() and not ln.lstrip().startswith("#")
                                              for ln in lines[ev_key.line:]), ""
    if after:
        return False, ""
    first = spans.get("/events/0")
    if first is None:
        return False, ""
    line = lines[first.line - 1]
    stripped = line.lstrip(" ")
    if not stripped.startswith("- "):
        return False, ""
    return True, line[: len(line) - len(stripped)]


def real_path(path: Path) -> Path:
    """The file a (possibly symlinked) ledger path names: writes, the lock and `.bak` go beside it."""
    return Path(os.path.realpath(path))


def not_a_ledger_file(shown: str) -> LedgerError:
    return LedgerError([error(Span(shown, 1, 1), "L001", "the campaign file is not a regular file (a folder, FIFO, "
                              "device or socket); give the campaign's YAML file")])


def read_raw(path: Path, shown: str) -> bytes:
    """The ledger's bytes: refuses non-regular files before opening them and caps the read (L001)."""
    try:
        raw = read_capped(path, MAX_LEDGER_BYTES)
    except FileNotFoundError:
        raise LedgerError([error(Span(shown), "L001", "no campaign file here; create one with 'scarbook campaign "
                                 "new FILE --game GAME --player NAME ...' or pass --campaign FILE")]) from None
    except OSError as exc:
        if exc.errno == errno.EINVAL:
            raise not_a_ledger_file(shown) from None
        raise LedgerError([error(Span(shown), "L001", f"cannot read the campaign file: {exc.strerror}")]) from None
    if len(raw) > MAX_LEDGER_BYTES:
        raise LedgerError([error(Span(shown, 1, 1), "L001", "the campaign file is larger than 64 MiB")])
    return raw


def read(path: Path, display: str | None = None) -> Ledger:
    shown = display or display_path(path)
    raw = _without_a_half_append(read_raw(path, shown), real_path(path))
    cached = _recall(raw, path, shown)
    if cached is not None:
        return cached
    text, problems = decode(raw, shown)
    if text is None:
        raise LedgerError(problems)
    ledger = parse(text, path, shown)
    ledger.raw = raw
    remember(ledger)
    return ledger

# --- a cache of parsed ledgers: one entry per ledger file, for its last bytes ---------------------
# Parsing a 10,000-event ledger with source positions takes most of a second, folding it a few
# tenths more. The cache keeps, per ledger (files named by a hash of its real path, replaced or
# appended to by each write, never accumulated), valid only for the bytes whose sha256 it records:
# - `KEY.head`: the CRC-32 of the JSON header that follows on the same line (the ledger's sha256
#   and line count, the event count, the last event, and the verdict: the content key under which
#   every event was found legal, see `engine.Campaign.checked_replay`), then, once a verdict is
#   recorded, a pickle of the folded state with the packs it ends with, and up to `UNDO_DEPTH`
#   earlier states, one per event back, for `undo`;
# - `KEY.events`: the events, one JSON line each (`[line, column, *event_fields(event)]`), appended
#   to by each write and only read when something needs the events themselves (`log`, `check`);
# - `KEY.games`: the games older than the state's last two, one pickle each, appended as they age
#   (a 50,000-event campaign's state would otherwise be 25,000 games to unpickle on every write).
# The header records the length and CRC-32 of every part it relies on, and of its own pickle: a
# part that does not verify (torn, evicted, changed by a concurrent rebuild, tampered with) is a
# cache miss, and the ledger is parsed or folded again; nothing read from the cache ever raises.
# The pickles are local and per-user: the entries are written 0600 and read only when they are
# regular files of the user running scarbook that nobody else may write (`_own_bytes`), and only
# unpickled after their CRC matched. The cache folder as a whole is capped, least recently used
# entries first (`compiler.cachedir`).
LEDGER_CACHE_VERSION = "6"
UNDO_DEPTH = 8  # consecutive undos served from stored states; more fold the events again (unchecked)
RECENT_GAMES = 2  # games kept in the cached state itself; no event changes older ones (see `state.apply`)


class CacheMiss(Exception):
    """A cache part did not verify: the caller takes the slow path."""


def _cache_file(path: Path, part: str = "head") -> Path:
    from scarbook.compiler.cachedir import cache_dir

    return cache_dir() / "ledgers" / f"{_cache_key(str(real_path(path)))}.{part}"


@functools.cache
def _cache_key(where: str) -> str:
    return _sha256(f"{LEDGER_CACHE_VERSION}\0{where}".encode("utf-8", "surrogateescape"))[:32]


def _sha256(data: bytes) -> str:
    return _hasher(data).hexdigest()


def _hasher(data: bytes) -> Any:
    import hashlib

    return hashlib.sha256(data)


def _crc(data: bytes, start: int = 0) -> int:
    import zlib

    return zlib.crc32(data, start)


def _own_bytes(path: Path, length: int = -1) -> bytes:
    """A cache file's bytes (the first `length`), when it is a regular file of the user running scarbook that
    nobody else may write (the cache holds pickles: a shared or planted folder is never trusted). OSError else."""
    import stat

    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            raise PermissionError(f"{path.name}: not a private cache file")
        return f.read(length)


def _verified_part(path: Path, length: int, crc: int) -> bytes:
    """The first `length` bytes of a cache part, when their CRC-32 is `crc` (else CacheMiss)."""
    try:
        data = _own_bytes(path, length)
    except OSError:
        raise CacheMiss(path.name) from None
    if len(data) != length or _crc(data) != crc:
        raise CacheMiss(path.name)
    return data


def _append_part(path: Path, at: int, crc: int, data: bytes) -> tuple[int, int]:
    """Write `data` at offset `at` of a cache part (cutting anything after it): its new (length, crc)."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        if at == 0 or os.fstat(fd).st_size != at:
            os.ftruncate(fd, at)
        os.lseek(fd, at, os.SEEK_SET)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
    return at + len(data), _crc(data, crc)


def _event_line(event: Event) -> bytes:
    import json

    return (json.dumps([event.span.line, event.span.column, *event_fields(event)]) + "\n").encode("utf-8")


def _event_of(item: Any, shown: str, index: int, lines: int) -> Event:
    line, column, *values = item
    if not (type(line) is int and type(column) is int and 1 <= line <= lines and column >= 1):
        raise ValueError("bad position")
    return event_from_fields(values, Span(shown, line, column), index)


def _line_count(text: str) -> int:
    """How many lines an editor shows (LF, CRLF and CR-only breaks), without listing them."""
    return text.count("\n") + text.count("\r") - text.count("\r\n") + 1


def _recall(raw: bytes, path: Path, shown: str) -> Ledger | None:
    """The cached parse of these very bytes, or None; an entry that does not verify is deleted."""
    import json

    entry = _cache_file(path)
    try:
        blob = _own_bytes(entry)
    except OSError:
        return None
    try:
        head_line, _, tail = blob.partition(b"\n")
        crc_hex, _, head_json = head_line.partition(b" ")
        if int(crc_hex, 16) != _crc(head_json):
            raise ValueError("the header does not verify")
        head = json.loads(head_json)
        hasher = _hasher(raw)
        if head.get("format") == LEDGER_CACHE_VERSION and head.get("sha256") != hasher.hexdigest():
            return None  # the entry of this ledger's earlier bytes: the next store replaces it
        if head.get("format") != LEDGER_CACHE_VERSION:
            raise ValueError("stale entry")
        players, entries, lines, (length, crc) = head["players"], head["entries"], head["lines"], head["tail"]
        if not (isinstance(head["name"], str) and isinstance(head["game"], str) and isinstance(head["fingerprint"], str)
                and isinstance(players, list) and all(isinstance(p, str) for p in players)
                and isinstance(head["appendable"], bool) and isinstance(head["indent"], str)
                and isinstance(head["verified"], str) and type(entries) is int and entries >= 0 and type(lines) is int
                and len(tail) == length and _crc(tail) == crc and (head["last"] is None) == (entries == 0)):
            raise ValueError("bad header")
        text = raw.decode("utf-8-sig")
        last = [] if head["last"] is None else [_event_of(head["last"], shown, entries - 1, lines)]
        ledger = Ledger(path, shown, text, head["name"], head["game"], head["fingerprint"], players,
                        appendable=head["appendable"], indent=head["indent"], verified=head["verified"], raw=raw,
                        entries=entries)
        ledger.events = LazyList(last, entries - len(last), functools.partial(_cached_events, ledger, head))
        ledger.cache = {"head": head, "tail": tail, "hasher": hasher}
        from scarbook.compiler.cachedir import cache_used

        cache_used(entry)
        return ledger
    except Exception:  # noqa: BLE001 - any bad entry is discarded and rebuilt, never trusted
        with contextlib.suppress(OSError):
            entry.unlink()
        return None


def _cached_events(ledger: Ledger, head: dict[str, Any]) -> list[Event]:
    """All events but the last, from `KEY.events`; if that part does not verify, from parsing the text."""
    import json

    count = head["entries"] - 1
    try:
        data = _verified_part(_cache_file(ledger.path, "events"), *head["events"]).decode("utf-8")
        items = json.loads("[" + data.rstrip("\n").replace("\n", ",") + "]")
        lines = head["lines"]
        events = [_event_of(item, ledger.display, i, lines) for i, item in enumerate(items)]
        if len(events) != count + 1 or events[-1] != ledger.events[-1]:
            raise ValueError("events and header disagree")
        return events[:count]
    except Exception:  # noqa: BLE001 - a part that does not verify: read the file itself
        fresh = parse(ledger.text, ledger.path, ledger.display)
        if fresh.problems or len(fresh.events) != count + 1:
            raise LedgerError(fresh.problems or [error(Span(ledger.display, 1, 1), "L012", "the file changed while "
                                                        "this command ran; run the command again")]) from None
        return fresh.events[:count]


def _write_head(ledger: Ledger, head: dict[str, Any], tail: bytes) -> None:
    import json

    from scarbook.compiler.atomic import replace_file
    from scarbook.compiler.cachedir import cache_stored

    head["tail"] = [len(tail), _crc(tail)]
    entry = _cache_file(ledger.path)
    private = os.stat_result((0o100600, 0, 0, 0, os.getuid(), os.getgid(), 0, 0, 0, 0)) if hasattr(os, "getuid") \
        else None  # mode 0600 whatever the umask: `_own_bytes` trusts nothing others may write
    with contextlib.suppress(OSError):
        body = json.dumps(head).encode("utf-8")
        replace_file(entry, b"%08x %s\n%s" % (_crc(body), body, tail), like=private)
        cache_stored(entry)
    ledger.cache = {"head": head, "tail": tail}


def _header(ledger: Ledger, digest: str, lines: int, entries: int, last: Event | None, events: list[int],
            verified: str) -> dict[str, Any]:
    """The header of a cache entry for the ledger's bytes with this sha256 and this many lines."""
    import json

    return {"format": LEDGER_CACHE_VERSION, "sha256": digest, "lines": lines, "name": ledger.name, "game": ledger.game,
            "fingerprint": ledger.fingerprint, "players": ledger.players, "appendable": ledger.appendable,
            "indent": ledger.indent, "verified": verified, "entries": entries,
            "last": None if last is None else json.loads(_event_line(last)), "events": events}


def remember(ledger: Ledger) -> None:
    """Keep a parsed ledger (without problems) in the cache, without a state; never fails."""
    if ledger.problems:
        return
    with contextlib.suppress(OSError):
        _cache_file(ledger.path).parent.mkdir(parents=True, exist_ok=True)
        lines = [_event_line(e) for e in ledger.events]
        body = b"".join(lines)
        before = len(body) - len(lines[-1]) if lines else 0
        events = list(_append_part(_cache_file(ledger.path, "events"), 0, 0, body))
        head = _header(ledger, _sha256(ledger.raw or ledger.text.encode("utf-8")), _line_count(ledger.text),
                       len(ledger.events),
                       ledger.events[-1] if ledger.events else None, events, ledger.verified)
        head["events_before"] = [before, _crc(body[:before])]
        _write_head(ledger, head, b"")


# --- the folded state, with the verdict ------------------------------------------------------------
def _state_blob(state: Any, packs: tuple[str, ...], games: list[int], archived: int) -> bytes:
    """The state (its games from `archived` on; the older ones are in KEY.games) as a pickle."""
    import copy
    import pickle

    light = copy.copy(state)
    light.games = _since(state.games, archived)
    return pickle.dumps({"state": light, "packs": list(packs), "games": games, "archived": archived}, protocol=5)


def _since(items: list[Any], start: int) -> list[Any]:
    """items[start:] as a plain list, without loading a LazyList's head."""
    return items.since(start) if isinstance(items, LazyList) else list(items[start:])


def _archive(ledger: Ledger, state: Any, games: list[int], archived: int,
             marks: list[tuple[int, list[int]]] | None = None) -> tuple[list[int], int]:
    """Append the state's games that no longer change (all but the last RECENT_GAMES) to KEY.games."""
    import pickle

    upto = max(archived, len(state.games) - RECENT_GAMES)
    if upto == archived:
        return games, archived
    length, crc = games
    frames = []
    for n, game in enumerate(_since(state.games, archived)[:upto - archived], archived):
        frame = pickle.dumps(game, protocol=5)
        frames.append(frame)
        length, crc = length + len(frame), _crc(frame, crc)
        if marks is not None:
            marks.append((n + 1, [length, crc]))
    _append_part(_cache_file(ledger.path, "games"), games[0], games[1], b"".join(frames))
    return [length, crc], upto


def remember_state(ledger: Ledger, verified: str, state: Any, packs: tuple[str, ...],
                   before_last: tuple[Any, tuple[str, ...]] | None = None) -> None:
    """Record that every event of these very bytes is legal under `verified`, with the state they fold to
    (and, when given, the state before the last event, for `undo`); never fails."""
    ledger.verified = verified
    if ledger.problems or not ledger.cache:
        return
    with contextlib.suppress(OSError):
        head = dict(ledger.cache["head"])
        head["verified"] = verified
        snapshots: list[dict[str, Any]] = []
        marks: list[tuple[int, list[int]]] = []
        games, archived = _archive(ledger, state, [0, 0], 0, marks)
        if before_last is not None and ledger.entries and head.get("events_before", [None])[0] is not None:
            prior, prior_packs = before_last
            keep = max(0, len(prior.games) - RECENT_GAMES)
            prior_games = next((m for n, m in marks if n == keep), [0, 0]) if keep else [0, 0]
            if keep <= archived and (keep == 0 or prior_games != [0, 0]):
                previous = ledger.events[-2] if ledger.entries > 1 else None
                snapshots.append({"state": _state_blob(prior, prior_packs, prior_games, keep),
                                  "events": head["events_before"], "entries": ledger.entries - 1,
                                  "last": None if previous is None else _json_list(previous)})
        current = _state_blob(state, packs, games, archived)
        _write_head(ledger, head, _tail(current, snapshots))


def _json_list(event: Event) -> list[Any]:
    import json

    return list(json.loads(_event_line(event)))


def _tail(current: bytes, stack: list[dict[str, Any]]) -> bytes:
    import pickle

    return pickle.dumps({"current": current, "stack": stack[:UNDO_DEPTH]}, protocol=5)


def _tail_of(ledger: Ledger) -> dict[str, Any] | None:
    import pickle

    tail = ledger.cache.get("tail") if ledger.cache else None
    if not tail:
        return None
    try:
        found = pickle.loads(tail)
        return found if isinstance(found, dict) and isinstance(found.get("current"), bytes) else None
    except Exception:  # noqa: BLE001 - verified by its CRC already; anything odd is a miss
        return None


def recall_state(ledger: Ledger, games_again: Callable[[], list[Any]]) -> tuple[Any, tuple[str, ...]] | None:
    """The state these very bytes fold to and the packs merged after the last event, from the cache (None: not
    cached). Its older games load from KEY.games only when something reads them; if that part no longer
    verifies then, they come from `games_again()` (the engine folds the events again)."""
    import pickle

    if not ledger.verified or ledger.problems:
        return None
    tail = _tail_of(ledger)
    if tail is None:
        return None
    try:
        snap = pickle.loads(tail["current"])
        state, packs, games, archived = snap["state"], tuple(snap["packs"]), snap["games"], snap["archived"]
    except Exception:  # noqa: BLE001 - a miss, never a traceback
        return None
    if archived:
        state.games = LazyList(state.games, archived,
                               functools.partial(_archived_games, ledger, games, archived, games_again))
    return state, packs


def _archived_games(ledger: Ledger, games: list[int], archived: int,
                    games_again: Callable[[], list[Any]]) -> list[Any]:
    import io
    import pickle

    try:
        data = io.BytesIO(_verified_part(_cache_file(ledger.path, "games"), *games))
        found = [pickle.load(data) for _ in range(archived)]
        if data.read(1):
            raise CacheMiss("games")
        return found
    except Exception:  # noqa: BLE001 - a part that does not verify: fold again
        return games_again()[:archived]


def placed_at(ledger: Ledger, text: str, event: Event) -> Event:
    """The event as `with_event` appended it to an appendable ledger, giving `text`: with its line there."""
    if not ledger.appendable:
        return event
    import dataclasses

    line = _lines_after_append(ledger, text.rstrip("\r\n"))
    return dataclasses.replace(event, span=Span(ledger.display, line, len(ledger.indent) + 3), index=ledger.entries)


def _lines_after_append(ledger: Ledger, text: str) -> int:
    """`_line_count(text)` for a text that starts with the ledger's, counting only what was added when the
    cache knows the ledger's line count (a 50,000-line ledger is not counted again)."""
    old = ledger.text
    known = ledger.cache.get("head", {}).get("lines") if ledger.cache else None
    if (isinstance(known, int) and len(text) >= len(old) and text.startswith(old)
            and not (old.endswith("\r") and text[len(old):].startswith("\n"))):
        return known - 1 + _line_count(text[len(old):])
    return _line_count(text)


def _digest_after_append(ledger: Ledger, text: str) -> str:
    """sha256 of `text` as written (UTF-8), continuing the hash of the bytes read when `text` only adds to them."""
    hasher = ledger.cache.get("hasher") if ledger.cache else None
    if hasher is not None and _only_adds(ledger, text):
        more = hasher.copy()
        more.update(text[len(ledger.text):].encode("utf-8"))
        return str(more.hexdigest())
    return _sha256(text.encode("utf-8"))


def _only_adds(ledger: Ledger, text: str) -> bool:
    """Whether `text`, written as UTF-8, is the bytes read with more bytes after them."""
    old = ledger.text
    return not ledger.raw.startswith(b"\xef\xbb\xbf") and len(text) >= len(old) and text.startswith(old)


def remember_appended(ledger: Ledger, text: str, event: Event, verified: str = "",
                      state: Any = None, packs: tuple[str, ...] = ()) -> None:
    """After `with_event` appended one line: cache the new ledger without parsing or re-serialising it.

    `verified` is the key under which the old events and the new one were all found legal ('' when not);
    `state` (with `packs`) what they fold to. The state before the new event becomes the first undo step.
    """
    if not ledger.appendable or ledger.problems or not ledger.cache:
        return
    head = ledger.cache["head"]
    placed = event if event.index == ledger.entries else placed_at(ledger, text, event)  # (the write placed it)
    with contextlib.suppress(OSError):
        line = _event_line(placed)
        at, crc = head["events"]
        events = list(_append_part(_cache_file(ledger.path, "events"), at, crc, line))
        new = _header(ledger, _digest_after_append(ledger, text), _lines_after_append(ledger, text),
                      ledger.entries + 1, placed, events, verified)
        new["events_before"] = head["events"]
        tail = _tail_of(ledger)
        snap = _unpickled(tail["current"]) if tail and verified and state is not None else None
        if tail is None or snap is None:
            _write_head(ledger, new, b"")
            return
        current = tail["current"]
        games, archived = _archive(ledger, state, snap["games"], snap["archived"])
        undo = {"state": current, "events": head["events"], "entries": ledger.entries, "last": head["last"]}
        if _only_adds(ledger, text):  # the undo that cuts this line back gives the bytes read, with this sha256
            undo["text"] = [len(ledger.text), head["sha256"]]
        _write_head(ledger, new, _tail(_state_blob(state, packs, games, archived), [undo, *tail["stack"]]))


def _unpickled(blob: bytes) -> dict[str, Any] | None:
    import pickle

    try:
        found = pickle.loads(blob)
        return found if isinstance(found, dict) else None
    except Exception:  # noqa: BLE001
        return None


def _lines_after_undo(ledger: Ledger, text: str) -> int:
    """`_line_count(text)` for a prefix of the ledger's text, counting only what was cut."""
    known = ledger.cache.get("head", {}).get("lines") if ledger.cache else None
    cut = ledger.text[len(text):]
    if isinstance(known, int) and not (text.endswith("\r") and cut.startswith("\n")):
        return known - _line_count(cut) + 1
    return _line_count(text)


def remember_undone(ledger: Ledger, text: str) -> None:
    """After `without_last` cut the last line: cache the shorter ledger without parsing or re-serialising it.

    The verdict is kept: each event is checked against the events before it only, so what was legal in the
    longer file is legal in its prefix under the same key (the next fold still compares the key it ends with).
    The state before the last event, when stored, becomes the state; otherwise the next command folds again.
    Any other way the entry was removed (a flow list, a hand-edited layout): the next read parses the file.
    """
    if not (ledger.appendable and not ledger.problems and ledger.cache and ledger.entries
            and len(text) < len(ledger.text) and ledger.text.startswith(text)):
        return
    head = ledger.cache["head"]
    tail = _tail_of(ledger)
    stack = tail["stack"] if tail else []
    with contextlib.suppress(OSError):
        if stack:
            top = stack[0]
            chars, digest = top.get("text") or [-1, ""]
            if chars != len(text):  # `text` is a prefix of the verified file, as long as the one before the append
                digest = _sha256(text.encode("utf-8"))
            new = _header(ledger, digest, _lines_after_undo(ledger, text), top["entries"], None, top["events"],
                          ledger.verified)
            new["last"] = top["last"]
            _write_head(ledger, new, _tail(top["state"], stack[1:]))
            return
        before = head.get("events_before")
        if before is None:  # two undos past what is stored: the events again, from the events part
            events = ledger.events[:-1]
            shorter = Ledger(ledger.path, ledger.display, text, ledger.name, ledger.game, ledger.fingerprint,
                             ledger.players, list(events), appendable=True, indent=ledger.indent,
                             verified=ledger.verified, raw=text.encode("utf-8"), entries=len(events))
            remember(shorter)
            return
        previous = ledger.events[-2] if ledger.entries > 1 else None
        new = _header(ledger, _sha256(text.encode("utf-8")), _lines_after_undo(ledger, text), ledger.entries - 1,
                      previous, before, ledger.verified)
        _write_head(ledger, new, b"")


# --- writing ----------------------------------------------------------------------------------
_ODD = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]")


@functools.cache
def _one_line_dumper() -> type:
    """A SafeDumper whose strings with line breaks or control characters are double-quoted (escaped), so an
    event stays one line. Made on the first write: reading a ledger never imports PyYAML."""
    import yaml

    class OneLineDumper(yaml.SafeDumper):
        pass

    def represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = '"' if _ODD.search(value) else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    OneLineDumper.add_representer(str, represent_str)
    return OneLineDumper


def dump_event(data: dict[str, Any]) -> str:
    """One event as a single flow-style YAML line (no trailing newline)."""
    import yaml

    out = yaml.dump(data, Dumper=_one_line_dumper(), default_flow_style=True, sort_keys=False, width=1_000_000,
                    allow_unicode=True)
    return out.strip().removesuffix("...").strip()


def render(name: str, game: str, fingerprint: str, players: list[str], events: list[dict[str, Any]]) -> str:
    """A whole campaign file in the canonical layout."""
    import yaml

    head = {"name": name, "game": game, "fingerprint": fingerprint, "players": players}
    if not name:
        del head["name"]
    text = HEADER_COMMENT + yaml.safe_dump({"campaign": head}, sort_keys=False, allow_unicode=True,
                                           default_flow_style=None, width=100)
    if not events:
        return text + "events:\n"
    return text + "events:\n" + "".join(f"- {dump_event(e)}\n" for e in events)


_BREAK = re.compile(r"\r\n|\r|\n")  # the line breaks a text editor shows (NEL, LS and PS are not)


def line_starts(text: str) -> list[int]:
    """Offsets where each line (as an editor counts them, as the ledger's spans count them) starts."""
    if "\r" in text:
        return [0, *(m.end() for m in _BREAK.finditer(text))]
    starts = [0]  # LF only (what scarbook writes): str.find is three times faster than the regular expression
    add, find = starts.append, text.find
    at = find("\n")
    while at >= 0:
        add(at + 1)
        at = find("\n", at + 1)
    return starts


def newline_of(text: str) -> str:
    """The file's own line break (LF, CRLF or CR-only), LF for a file without one."""
    found = _BREAK.search(text)
    return found.group() if found else "\n"


class _EventsNode:
    """Where the `events:` list is in the text (character offsets), from the YAML parser's marks."""

    def __init__(self) -> None:
        self.key_end = -1       # end of the `events` key (-1: no such key)
        self.kind = ""          # "block", "flow", "scalar" (null or empty), "" (no key)
        self.start = -1         # offset of the value
        self.end = -1           # offset of the sequence's end (`]`, or the next token after a block list)
        self.items: list[tuple[int, int]] = []  # (start, end) of each entry


def _events_node(text: str) -> _EventsNode | None:
    """Locate the top-level `events` value; None when the text is not one YAML mapping the parser reads."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    node = _EventsNode()
    depth = 0
    expecting_key = False
    in_events = False
    item_start = -1
    try:
        while loader.check_event():
            ev = loader.get_event()
            cls = type(ev)
            opens = cls in (yaml.MappingStartEvent, yaml.SequenceStartEvent)
            closes = cls in (yaml.MappingEndEvent, yaml.SequenceEndEvent)
            if not (opens or closes or cls in (yaml.ScalarEvent, yaml.AliasEvent)):
                continue
            if in_events:
                if depth == 2 and (opens or cls in (yaml.ScalarEvent, yaml.AliasEvent)):
                    item_start = ev.start_mark.index
                if closes:
                    depth -= 1
                    if depth == 1:
                        node.end = ev.start_mark.index
                        in_events = False
                        expecting_key = True
                        continue
                if opens:
                    depth += 1
                if depth == 2 and not opens:
                    node.items.append((item_start, ev.end_mark.index))
                continue
            if closes:
                depth -= 1
                if depth == 1:
                    expecting_key = True
                continue
            if depth == 1 and expecting_key:
                expecting_key = False
                if cls is yaml.ScalarEvent and ev.value == "events" and node.key_end < 0:
                    node.key_end = ev.end_mark.index
                    value = loader.peek_event()
                    node.start = value.start_mark.index
                    if isinstance(value, yaml.SequenceStartEvent):
                        node.kind = "flow" if value.flow_style else "block"
                        loader.get_event()
                        depth += 1
                        in_events = True
                        continue
                    if isinstance(value, yaml.ScalarEvent) and value.value in ("", "~", "null", "Null", "NULL") \
                            and not value.style:
                        node.kind = "scalar"
                        node.end = value.end_mark.index if value.end_mark is not None else node.end
                    else:
                        node.kind = "other"
                if opens:
                    depth += 1  # a complex key: never a ledger, verification refuses
                continue
            if depth == 1:
                expecting_key = True
            if opens:
                depth += 1
                if depth == 1:
                    expecting_key = True
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return node


def _blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _after_last_content(text: str, starts: list[int], begin: int, end: int) -> int:
    """The offset just after the last line in [begin, end) that is neither blank nor a comment."""
    first = bisect.bisect_right(starts, begin) - 1
    last = bisect.bisect_right(starts, max(begin, end - 1)) - 1
    for n in range(last, first - 1, -1):
        line_end = starts[n + 1] if n + 1 < len(starts) else len(text)
        if not _blank_or_comment(_BREAK.sub("", text[starts[n]:line_end])):
            return line_end
    return starts[first]


def _unchanged_but_events(old: str, new: str, events: list[Any]) -> bool:
    """Whether `new` reads as `old` with exactly `events` as its events, and nothing else different."""
    before, after = loads(old, "old"), loads(new, "new")
    if after.data is None or not isinstance(after.data, dict) or not isinstance(before.data, dict):
        return False
    if len(after.diagnostics) > len(before.diagnostics):
        return False
    rest_old = {k: v for k, v in before.data.items() if k != "events"}
    rest_new = {k: v for k, v in after.data.items() if k != "events"}
    return rest_old == rest_new and (after.data.get("events") or []) == events


def _cannot(ledger: Ledger, what: str, how: str) -> LedgerError:
    return LedgerError([error(Span(ledger.display, 1, 1), "L011", f"cannot {what} without rewriting the hand-edited "
                              f"file; nothing was written ({how})")])


def with_event(ledger: Ledger, event: Event) -> str:
    """The ledger's text with one more event at its end, appended as text: nothing else changes.

    A block list at the end of the file (as scarbook writes it) gets one more line; any other layout
    (a flow list, keys after the events, no events yet) gets the entry inserted where the list ends,
    checked by reading the result back. Where even that is impossible it refuses (L011).
    """
    nl = newline_of(ledger.text)
    line = dump_event(event.to_dict())
    if ledger.appendable:
        text = ledger.text
        if text and not text.endswith(("\n", "\r")):
            text += nl
        if not ledger.events and not ledger.problems:
            stripped = text.rstrip("\r\n")
            if stripped.rstrip().endswith("[]"):
                text = stripped.rstrip()[:-2].rstrip() + nl
        return text + f"{ledger.indent}- {line}{nl}"
    text = ledger.text
    node = _events_node(text)
    new = None
    if node is not None:
        starts = line_starts(text)
        if node.kind == "" and node.key_end < 0:
            sep = "" if not text or text.endswith(("\n", "\r")) else nl
            new = f"{text}{sep}events:{nl}- {line}{nl}"
        elif node.kind == "scalar" and node.start == node.end:  # `events:` with nothing under it
            at = _after_last_content(text, starts, node.key_end, node.key_end + 1)
            if at == len(text) and not text.endswith(("\n", "\r")):
                new = f"{text}{nl}- {line}{nl}"
            else:
                new = f"{text[:at]}- {line}{nl}{text[at:]}"
        elif node.kind == "scalar":
            new = f"{text[:node.start]}[{line}]{text[node.end:]}"
        elif node.kind == "flow":
            at = node.items[-1][1] if node.items else node.end
            new = f"{text[:at]}{', ' if node.items else ''}{line}{text[at:]}"
        elif node.kind == "block" and node.items:
            first_line = starts[bisect.bisect_right(starts, node.items[0][0]) - 1]
            indent = text[first_line:node.items[0][0]].split("-", 1)[0]
            at = _after_last_content(text, starts, node.items[-1][0], node.end)
            if at == len(text) and not text.endswith(("\n", "\r")):
                new = f"{text}{nl}{indent}- {line}{nl}"
            else:
                new = f"{text[:at]}{indent}- {line}{nl}{text[at:]}"
    if new is not None:
        old_raw = loads(text, "old").data
        old_events = old_raw.get("events") or [] if isinstance(old_raw, dict) else None
        if old_events is not None and _unchanged_but_events(text, new, [*old_events, event.to_dict()]):
            return new
    raise _cannot(ledger, "append the event", "keep the events as a list under 'events:' with one '- {...}' entry "
                  "per event, or add the event by hand")


def without_last(ledger: Ledger) -> tuple[str, Event]:
    """The ledger's text with exactly its last entry removed, and that entry's event.

    Refuses (LedgerError) when the last entry does not read as an event (a typo, a tag, a duplicate
    key): it says which line, and guesses nothing. The rest of the file (comments, other keys) is kept.
    """
    if ledger.entries == 0:
        raise LedgerError([error(Span(ledger.display, 1, 1), "L009", "there is no event to undo; nothing was "
                                 "written")])
    last = ledger.events[-1] if ledger.events else None
    if last is None or last.index != ledger.entries - 1:
        bad = [p for p in ledger.problems if p.path == f"/events/{ledger.entries - 1}"] or ledger.problems
        raise LedgerError([_refused_undo(bad[-1].span, bad[-1])])
    late = [p for p in ledger.problems if (p.span.line, p.span.column) >= (last.span.line, last.span.column)]
    if late:
        raise LedgerError([_refused_undo(last.span, late[0])])
    text = ledger.text
    starts = line_starts(text)
    start = starts[last.span.line - 1]
    if ledger.appendable and _is_last_line(text, starts, last.span.line - 1, last):
        return text[:start], last  # one line, read back as this very event: no need to parse 10,000 events
    node = _events_node(text)
    new = None
    if node is not None and node.items and node.kind == "block":
        begin = starts[bisect.bisect_right(starts, node.items[-1][0]) - 1]
        end = _after_last_content(text, starts, node.items[-1][0], node.end)
        new = text[:begin] + text[end:]
    elif node is not None and node.items and node.kind == "flow":
        begin, end = node.items[-1]
        if len(node.items) > 1:  # drop the comma after the entry before it, keep any comment there
            comma = text.find(",", node.items[-2][1], begin)
            if comma < 0:
                raise _cannot(ledger, "remove the last event", f"delete the entry at line {last.span.line} by hand")
            text_ = text[:comma] + text[comma + 1:begin]
        else:
            text_ = text[:begin]
        line_start = max(text_.rfind("\n"), text_.rfind("\r")) + 1
        rest_end = end
        while rest_end < len(text) and text[rest_end] in " \t":
            rest_end += 1
        if not text_[line_start:].strip() and text[rest_end:rest_end + 1] in ("\n", "\r"):
            text_ = text_[:line_start]  # the entry was alone on its line: remove the line
            rest_end += 2 if text[rest_end:rest_end + 2] == "\r\n" else 1
        new = text_ + text[rest_end:]
    if new is not None:
        old_raw = loads(text, "old").data
        if _unchanged_but_events(text, new, (old_raw.get("events") or [])[:-1]):
            return new, last
    raise _cannot(ledger, "remove the last event", f"delete the entry at line {last.span.line} by hand")


def _refused_undo(entry: Span, problem: Diagnostic) -> Diagnostic:
    where = "" if problem.span == entry else f"line {problem.span.line}: "
    return Diagnostic(entry, problem.severity, problem.code,
                      f"the last entry (line {entry.line}) cannot be read, so undo will not guess what to remove: "
                      f"{where}{problem.message}; nothing was written (fix or delete that entry by hand)")


def _is_last_line(text: str, starts: list[int], n: int, event: Event) -> bool:
    """Whether `event` is all of line `n` (a one-line `- {...}` entry) and only blank lines follow."""
    end = starts[n + 1] if n + 1 < len(starts) else len(text)
    entry = _BREAK.sub("", text[starts[n]:end]).lstrip(" ")
    if not entry.startswith("- {") or text[end:].strip():
        return False
    import yaml

    try:
        return bool(yaml.load(entry[2:], Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) == event.to_dict())
    except yaml.YAMLError:
        return False


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class LedgerChanged(LedgerError):
    """The file's bytes are not those the command read (a hand edit, another program)."""


def _changed(shown: str) -> LedgerChanged:
    return LedgerChanged([error(Span(shown, 1, 1), "L012", "the file changed while this command ran (saved by hand "
                                "or by another program); nothing was written: run the command again")])


_BOM = b"\xef\xbb\xbf"
_OPEN_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | os.O_NONBLOCK


def _pread_all(fd: int, start: int = 0) -> bytes:
    """The bytes of an open file from `start` to its end (capped just above MAX_LEDGER_BYTES)."""
    chunks, at = [], start
    while at - start <= MAX_LEDGER_BYTES:
        chunk = os.pread(fd, 1 << 20, at)
        if not chunk:
            break
        chunks.append(chunk)
        at += len(chunk)
    return b"".join(chunks)


def _open_ledger(target: Path, shown: str, flags: int) -> int:
    """The real ledger file opened with `flags` (never through a symlink planted since `real_path`)."""
    import stat

    try:
        fd = os.open(target, flags | _OPEN_FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the file became a symlink after it was resolved: someone changed it
            raise _changed(shown) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise not_a_ledger_file(shown)
    return fd


def _write_bak(target: Path, current: bytes, st: os.stat_result | None) -> None:
    """`FILE.bak` := `current` through its own temporary file, fsynced, and a rename."""
    from scarbook.compiler.atomic import fault, write_temp

    bak = target.with_name(target.name + ".bak")
    tmp = write_temp(target.parent, bak.name, current, durable=True, like=st)
    try:
        os.replace(tmp, bak)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    fault("ledger-after-bak")


def write_atomic(path: Path, text: str, backup: bool = True, expected: bytes | None = None) -> str | None:
    """Make the ledger hold `text`, keeping the previous version as FILE.bak; returns a note to show, or None.

    Through a symlink, the target is written (the link stays a link); `.bak`, the journal, the
    temporary files and the lock are beside the target. With `expected` (the bytes the command read;
    the caller holds the lock), the write is refused with L012 when the file no longer holds them.
    `.bak` is written by its own temporary file and rename, before the ledger changes.

    When the new text is the old one plus a suffix (an event appended to a block list: the common
    case), the suffix is appended *in place* (`_append_in_place`): the file is never replaced, so a
    hand `>>` racing the write is never lost, and mode, owner and hard links stay. When it is the old
    text minus its tail (`undo` of the last line), the file is truncated in place (`_cut_in_place`).
    Anything else (a flow list, a hand-edited layout, a new file) replaces the file: a temporary file
    with the ledger's mode and owner, fsynced, compared again, `os.replace`d; a kill at any point
    leaves the ledger old or new, and `.bak` its earlier content or the ledger's previous version.
    """
    import stat

    from scarbook.compiler.atomic import clean_orphans, fault, write_temp

    shown = display_path(path)
    target = real_path(path)
    folder = target.parent
    clean_orphans(folder, target.name)
    clean_orphans(folder, target.name + ".bak")
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise not_a_ledger_file(shown)
    data = text.encode("utf-8")
    if expected is not None and expected.startswith(_BOM) and not data.startswith(_BOM):
        data = _BOM + data  # the text was decoded without the file's byte-order mark: keep it
    if expected is not None and st is not None:
        finish_interrupted_append(target, shown)  # a no-op under `locked`, which did it already
        # both compare the file's bytes with `expected` themselves, through the descriptor they write
        if len(data) > len(expected) and data.startswith(expected):
            return _append_in_place(target, shown, st, expected, data[len(expected):], backup)
        if len(data) < len(expected) and expected.startswith(data):
            _cut_in_place(target, shown, st, expected, len(data), backup)
            return None
    current = read_raw(target, shown) if st is not None else None
    if expected is not None and current != expected:
        raise _changed(shown)
    if backup and current is not None:
        _write_bak(target, current, st)
    tmp = write_temp(folder, target.name, data, durable=True, like=st)
    old_fd = -1
    try:
        fault("ledger-before-replace")
        if expected is not None:
            with contextlib.suppress(OSError):
                old_fd = os.open(target, os.O_RDONLY | _OPEN_FLAGS)
            if read_raw(target, shown) != expected:
                raise _changed(shown)
        fault("ledger-after-check")
        os.replace(tmp, target)
        if old_fd >= 0:
            fault("ledger-after-rename")
            _put_back_a_late_edit(target, shown, old_fd, expected or b"", data, st)
    finally:
        if old_fd >= 0:
            os.close(old_fd)
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    _fsync_dir(folder)
    return None


def _append_in_place(target: Path, shown: str, st: os.stat_result, expected: bytes, suffix: bytes,
                     backup: bool) -> str | None:
    """Append `suffix` to the ledger's own inode with O_APPEND, under the lock.

    The bytes are compared (through the very descriptor written to) with those the command read;
    `.bak` gets them; a journal (`.FILE.append`: offset, sha256 of the bytes before it, the suffix)
    is written and fsynced; the suffix goes in ONE write (looped on a short write) and is fsynced;
    the journal is removed. O_APPEND writes to one inode are serialised by the kernel, so a hand `>>`
    racing this lands before or after the event, never inside it, and is never lost. A kill that
    tears the write (it can, between pages) leaves the journal: the next locked write cuts the half
    event (`finish_interrupted_append`), and readers never see it (`read`).
    """
    from scarbook.compiler.atomic import die, fault, fault_action

    fd = _open_ledger(target, shown, os.O_RDWR | os.O_APPEND)
    journal = _journal_path(target)
    journaled = False
    try:
        if _pread_all(fd) != expected:
            raise _changed(shown)
        if backup:
            _write_bak(target, expected, st)
        fault("ledger-before-replace")
        if os.fstat(fd).st_size != len(expected) or _pread_all(fd) != expected:
            raise _changed(shown)
        fault("ledger-after-check")
        _write_journal(journal, len(expected), expected, suffix)
        journaled = True
        if fault_action("ledger-append") == "torn":
            os.write(fd, suffix[: len(suffix) // 2])
            die()
        done = 0
        while done < len(suffix):  # one write; a short one (a signal, a full disk) is continued
            done += os.write(fd, suffix[done:])
        end = os.lseek(fd, 0, os.SEEK_CUR)  # O_APPEND leaves the offset at the end of *our* bytes
        os.fsync(fd)
        fault("ledger-after-append")
        note = None
        with contextlib.suppress(FileNotFoundError):
            now = os.stat(target)
            if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):  # renamed over meanwhile (an editor's save)
                raise _changed(shown)  # theirs stands; our event went with the file it replaced
        start = end - len(suffix)
        if start > len(expected):  # hand appends landed between our last comparison and our write
            note = _typed_meanwhile(fd, len(expected), start)
            if suffix[:1] not in (b"\n", b"\r") and os.pread(fd, 1, start - 1) not in (b"\n", b"\r"):
                note = _break_a_glued_line(target, shown, fd, start, suffix, st)
        _drop_journal(journal)
        journaled = False
        return note
    except BaseException:
        if journaled:  # the append failed cleanly (an exception, not a kill): undo what we may have written
            with contextlib.suppress(OSError, LedgerError):
                finish_interrupted_append(target, shown)
        raise
    finally:
        os.close(fd)


def _typed_meanwhile(fd: int, begin: int, end: int) -> str | None:
    """A note when text appended by hand just before our event is more than comments and blank lines
    (perhaps an event typed by hand: ours was checked without it, so `check` should look again)."""
    typed = os.pread(fd, end - begin, begin).decode("utf-8", "replace")
    if all(_blank_or_comment(line) for line in _BREAK.split(typed)):
        return None
    line = len(line_starts(os.pread(fd, begin, 0).decode("utf-8", "replace")))
    return (f"note: lines were added by hand at line {line} while this event was being written, just before it; "
            "the event was checked without them: run 'scarbook campaign check'")


def _break_a_glued_line(target: Path, shown: str, fd: int, start: int, suffix: bytes,
                        st: os.stat_result) -> str:
    """A hand append without a final line break (`printf '# x' >> FILE`) landed between our last comparison
    and our write, so our event was glued onto its line (inside a comment, or making the line invalid).
    Insert the file's line break before our event, by the replace path (appends made meanwhile are kept)."""
    raw = _pread_all(fd)
    nl = re.search(rb"\r\n|\r|\n", suffix)
    fixed = raw[:start] + (nl.group() if nl else b"\n") + raw[start:]
    _replace_carrying(target, fixed, fd, len(raw), st)
    line = raw[:start].count(b"\n") + 1
    return (f"note: a line added by hand without a line break (line {line}) ended where this event was "
            "appended; a line break was inserted before the event")


def _cut_in_place(target: Path, shown: str, st: os.stat_result, expected: bytes, keep: int, backup: bool) -> None:
    """`undo` of the file's tail: truncate the ledger's own inode to `keep` bytes, under the lock.

    The file is compared with what the command read, `.bak` gets it, then the size is checked once more
    right before `ftruncate` (L012 if it grew). A hand `>>` after the truncation lands after it (the
    inode stays). What remains: an append landing in the microseconds between that last size check and
    the truncation is cut off with the event (no system call truncates only if the size is still N).
    """
    from scarbook.compiler.atomic import fault

    fd = _open_ledger(target, shown, os.O_RDWR)
    try:
        if _pread_all(fd) != expected:
            raise _changed(shown)
        if backup:
            _write_bak(target, expected, st)
        fault("ledger-before-truncate")
        if _pread_all(fd) != expected or os.fstat(fd).st_size != len(expected):
            raise _changed(shown)
        os.ftruncate(fd, keep)
        os.fsync(fd)  # the inode stays: no folder entry changes, so the folder needs no fsync
    finally:
        os.close(fd)


def _put_back_a_late_edit(target: Path, shown: str, old_fd: int, expected: bytes, data: bytes,
                          st: os.stat_result | None) -> None:
    """After the rename: an append (`echo >> FILE`) that reached the old file after the last comparison
    would be lost with it. Then the edited old version is put back, with whatever was appended to the
    new file meanwhile after it, and the command refuses with L012, as if the edit had come a moment
    earlier. A file replaced by someone else since (not ours plus appends) is left alone."""
    try:
        if os.fstat(old_fd).st_size == len(expected):
            return
        late = _pread_all(old_fd)
    except OSError:
        return
    if late == expected or len(late) > MAX_LEDGER_BYTES:
        return
    try:
        new_fd = os.open(target, os.O_RDONLY | _OPEN_FLAGS)
    except OSError:
        return
    try:
        now = _pread_all(new_fd)
        if not now.startswith(data):
            return
        _replace_carrying(target, late + now[len(data):], new_fd, len(now), st)
    finally:
        os.close(new_fd)
    raise _changed(shown)


def _replace_carrying(target: Path, new: bytes, prev_fd: int, prev_len: int, st: os.stat_result | None) -> None:
    """Rename `new` over the ledger, whose inode `prev_fd` holds and of which `prev_len` bytes were read;
    bytes appended to that inode until after the rename are appended to `new` (again, up to 16 times).

    What no rename can close: an appender that opened the old file before the rename and writes after
    the last look at it. That is why appending events never goes this way (`_append_in_place`)."""
    from scarbook.compiler.atomic import write_temp

    opened: list[int] = []
    try:
        for _ in range(16):
            tmp = write_temp(target.parent, target.name, new, durable=True, like=st)
            try:
                os.replace(tmp, target)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()
            grown = _pread_all(prev_fd, prev_len)
            if not grown:
                break
            try:
                fd = os.open(target, os.O_RDONLY | _OPEN_FLAGS)
            except OSError:
                break
            opened.append(fd)
            now = _pread_all(fd)
            if not now.startswith(new):
                break
            prev_fd, prev_len, new = fd, len(now), now + grown
    finally:
        for fd in opened:
            os.close(fd)
    _fsync_dir(target.parent)


# --- the append journal: undoing an append torn by a kill --------------------------------------------
# `.FILE.append` beside the ledger, created (O_EXCL) and fsynced before the append, removed after its
# fsync: `scarbook-append 1 OFFSET LENGTH SHA256\n` then the LENGTH bytes appended at OFFSET, SHA256 being
# that of the file's first OFFSET bytes. Left behind, it means the writer died during the append.
_JOURNAL_MAGIC = b"scarbook-append 1"
_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")


def _journal_path(target: Path) -> Path:
    return target.with_name(f".{target.name}.append")


def _write_journal(journal: Path, offset: int, before: bytes, suffix: bytes) -> None:
    import hashlib

    digest = hashlib.sha256(before).hexdigest().encode()
    blob = b"%s %d %d %s\n%s" % (_JOURNAL_MAGIC, offset, len(suffix), digest, suffix)
    fd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _OPEN_FLAGS, 0o600)
    try:
        done = 0
        while done < len(blob):
            done += os.write(fd, blob[done:])
        os.fsync(fd)
    finally:
        os.close(fd)


def _drop_journal(journal: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal)


def _read_journal(journal: Path) -> tuple[int, str, bytes] | None | bool:
    """(offset, sha256, suffix); None when there is no journal; False when it is not a whole journal
    (a kill while writing it: the append had not begun) or not a regular file (remove it)."""
    import stat

    try:
        fd = os.open(journal, os.O_RDONLY | _OPEN_FLAGS)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        blob = _pread_all(fd)
    finally:
        os.close(fd)
    head, _, suffix = blob.partition(b"\n")
    words = head.split(b" ")
    if len(words) != 5 or b" ".join(words[:2]) != _JOURNAL_MAGIC or not (words[2].isdigit() and words[3].isdigit()):
        return False
    if len(suffix) != int(words[3]) or not suffix:
        return False
    return int(words[2]), words[4].decode("ascii", "replace"), suffix


def _torn_part(raw: bytes, offset: int, digest: str, suffix: bytes) -> tuple[str, int, int]:
    """Where, in the ledger's bytes `raw`, the half of a journaled append is: ("cut", a, b) to remove
    raw[a:b]; ("none", 0, 0) when nothing of it needs removing (the append never began, it completed,
    or the file was rewritten since); ("unclear", a, b) when half an event may be there but where it
    ends cannot be told for sure.

    OFFSET is the file's size when the writer last compared it; hand appends may have landed between
    that comparison and the write, so the append starts at OFFSET or at a later line start. At each,
    the longest common prefix with the journal's suffix is a candidate half; one is trusted only when
    what follows it starts a line of its own (a line break, a comment, a list entry) or nothing follows:
    bytes after the half are hand appends made after the crash and are kept. Of trusted candidates the
    longest wins; with none trusted and some untrusted, "unclear". (A real SIGKILL tears a write at a
    page boundary or before its first byte.)"""
    import hashlib

    if len(raw) < offset or hashlib.sha256(raw[:offset]).hexdigest() != digest:
        return "none", 0, 0
    lead = len(suffix) - len(suffix.lstrip(b"\r\n"))  # the line break a file without a final one needed: keep it
    best: tuple[int, int] | None = None
    unclear: tuple[int, int] | None = None
    at = offset
    while at <= len(raw):
        k = 0
        limit = min(len(raw) - at, len(suffix))
        while k < limit and raw[at + k] == suffix[k]:
            k += 1
        if k == len(suffix):
            return "none", 0, 0  # the whole append is there
        begin = at + (lead if at == offset else 0)
        if at + k > begin and (at > offset or k > lead):
            after = raw[at + k:].lstrip(b" \t")
            if at + k == len(raw) or after[:1] in (b"\n", b"\r", b"#") or after.startswith(b"- "):
                if best is None or at + k - begin > best[1] - best[0]:
                    best = (begin, at + k)
            elif unclear is None:
                unclear = (begin, at + k)
        found = _BREAK_BYTES.search(raw, at)
        if found is None:
            break
        at = found.end()
    if best is not None:
        return ("cut", *best)
    if unclear is not None:
        return ("unclear", *unclear)
    return "none", 0, 0


def finish_interrupted_append(target: Path, shown: str) -> None:
    """Under the lock: a journal left by a writer killed during its append is settled. Half an event is
    cut out (hand appends after it kept): truncated in place when it is the file's tail, else by the
    replace path; a complete append, or one that never began, only loses its journal. When where the
    half event ends cannot be told (see `_torn_part`), refuses with L014 and leaves everything as is."""
    journal = _journal_path(target)
    entry = _read_journal(journal)
    if entry is None:
        return
    if entry is False:
        _drop_journal(journal)
        return
    assert not isinstance(entry, bool)
    offset, digest, suffix = entry
    fd = _open_ledger(target, shown, os.O_RDWR)
    try:
        for _ in range(16):
            raw = _pread_all(fd)
            kind, a, b = _torn_part(raw, offset, digest, suffix)
            if kind == "unclear":
                line = raw[:a].count(b"\n") + 1
                raise LedgerError([error(Span(shown, line, 1), "L014", "a scarbook write was killed halfway through "
                                         f"appending an event at line {line}, and text was added after it since; "
                                         "nothing was written: delete the unfinished event on that line by hand, "
                                         f"then the file {display_path(journal)}")])
            if kind == "none":
                break
            if b == len(raw):
                if os.fstat(fd).st_size != len(raw):
                    continue  # a hand append meanwhile: look again
                os.ftruncate(fd, a)
                os.fsync(fd)
            else:
                st = os.fstat(fd)
                _replace_carrying(target, raw[:a] + raw[b:], fd, len(raw), st)
            break
    finally:
        os.close(fd)
    _drop_journal(journal)


def _without_a_half_append(raw: bytes, target: Path) -> bytes:
    """What a reader should see: the bytes, minus half an event whose writer is still appending it or
    died doing so (the journal says). Changes nothing on disk; one failed `open` when there is no journal."""
    entry = _read_journal(_journal_path(target))
    if not entry or isinstance(entry, bool):
        return raw
    kind, a, b = _torn_part(raw, *entry)
    return raw[:a] + raw[b:] if kind == "cut" else raw


@contextlib.contextmanager
def locked(path: Path, wait: float | None = None) -> Iterator[None]:
    """Hold the campaign's exclusive lock (beside the real file); raise LedgerBusy after `wait` seconds.

    Refuses (L001) a ledger that does not exist or is not a regular file, creating nothing.
    """
    import fcntl
    import stat

    shown = display_path(path)
    target = real_path(path)
    try:
        if not stat.S_ISREG(os.stat(target).st_mode):
            raise not_a_ledger_file(shown)
    except FileNotFoundError:
        read_raw(path, shown)  # raises the usual L001 'no campaign file here'
    lock_path = target.with_name(target.name + ".lock")
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(lock_path, flags | os.O_NONBLOCK, 0o644)
    deadline = time.monotonic() + (LOCK_WAIT_SECONDS if wait is None else wait)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LedgerError([error(Span(shown, 1, 1), "L006", f"{display_path(lock_path)} is not a regular file; "
                                     "remove it")])
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                if time.monotonic() >= deadline:
                    raise LedgerBusy(f"{shown} is being changed by another scarbook command; "
                                     "nothing was written: retry in a moment") from None
                time.sleep(0.02)
        finish_interrupted_append(target, shown)
        yield
    finally:
        os.close(fd)  # closing releases the lock
