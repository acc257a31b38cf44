"""Reading a ledger (`read`) through the cache of parsed ledgers and of their folded state.

One entry per ledger, never trusted unverified: `read` asks `_recall` before parsing; the engine
stores the folded state with its verdict (`remember_state`) and each write or undo updates the
entry (`remember_appended`, `remember_undone`) so that the next command checks only what is new.
A part that does not verify is a cache miss.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scarbook.campaign.events import Event, event_fields, event_from_fields
from scarbook.campaign.ledger.file import (
    Ledger,
    LedgerError,
    as_written,
    line_count,
    parse,
    read_raw,
    real_path,
)
from scarbook.campaign.ledger.journal import journal_path
from scarbook.campaign.ledger.lazylist import LazyList
from scarbook.kernel.diagnostics import Span, error
from scarbook.kernel.paths import display_path
from scarbook.kernel.sha import Hasher, key, sha256
from scarbook.kernel.yamlload import decode

# --- a cache of parsed ledgers: one entry per ledger file, for its last bytes ---------------------
# Parsing a 10,000-event ledger with source positions takes most of a second, folding it a few
# tenths more. The cache keeps, per ledger (files named by a hash of its real path, replaced or
# appended to by each write, never accumulated), valid only for the bytes whose sha256 it records:
# - `KEY.head`: the CRC-32 of the JSON header that follows on the same line (the ledger's sha256
#   and line count, the event count, the last event, and the verdict: the content key under which
#   every event was found legal, see `replaycache.checked` and `replaycache.content_key`), then, once a verdict is
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
# 7: `events: []` followed by a comment is no longer appendable; 8: the state's mark index; 9: the header's format
# and recorded_under (the ledger's stretches)
LEDGER_CACHE_VERSION = "10"  # 10: an event's note
UNDO_DEPTH = 8  # consecutive undos served from stored states; more fold the events again (unchecked)
RECENT_GAMES = 2  # games kept in the cached state itself; no event changes older ones (see `state.apply_*`)


class CacheMiss(Exception):
    """A cache part did not verify: the caller takes the slow path."""


def _cache_file(path: Path, part: str = "head") -> Path:
    from scarbook.kernel.cachedir import cache_dir

    return cache_dir() / "ledgers" / f"{_cache_key(str(real_path(path)))}.{part}"


@functools.cache
def _cache_key(where: str) -> str:
    return key(f"{LEDGER_CACHE_VERSION}\0{where}".encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _sha256(data: bytes) -> str:
    return _hasher(data).hexdigest()


def _hasher(data: bytes) -> Hasher:
    return sha256(data)


def fast_pickle() -> Any:
    """The C pickler (`_pickle`: what `pickle.loads`, `dumps` and `load` are in CPython), without importing
    `pickle.py` itself (its pure-Python pickler: 0.8 ms of every command's start-up); `pickle` elsewhere."""
    import importlib

    try:
        return importlib.import_module("_pickle")
    except ImportError:  # pragma: no cover - an interpreter without the C pickler
        return importlib.import_module("pickle")


def _crc(data: bytes, start: int = 0) -> int:
    import zlib

    return zlib.crc32(data, start)


def _own_bytes(path: Path, length: int = -1) -> bytes:
    """A cache file's bytes (the first `length`), when it is a regular file of the user running scarbook that
    nobody else may write (the cache holds pickles: a shared or planted folder is never trusted), opened
    without following a symlink or blocking on a FIFO (`scarbook.kernel.trust`). OSError else."""
    from scarbook.kernel.trust import read_trusted

    return read_trusted(path, length)


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
    """Write `data` at offset `at` of a cache part (cutting anything after it): its new (length, crc).
    A part that is not the user's own private regular file (a planted FIFO, symlink or foreign file) is
    removed and made anew, never written through."""
    from scarbook.kernel.trust import open_trusted

    flags = os.O_WRONLY | os.O_CREAT
    try:
        fd = open_trusted(path, flags)
    except OSError:  # untrusted, or a FIFO nobody reads (ENXIO): replace it; no folder: raise
        if not os.path.lexists(path):
            raise
        os.unlink(path)
        fd = open_trusted(path, flags | os.O_EXCL)
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


_line_count = line_count  # how many lines an editor shows (LF, CRLF and CR-only breaks), without listing them


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
        if not (type(head["ledger_format"]) is int and isinstance(head["recorded_under"], list)):
            raise ValueError("bad header")
        ledger = Ledger(path, shown, text, head["name"], head["game"], head["fingerprint"], players,
                        appendable=head["appendable"], indent=head["indent"], verified=head["verified"], raw=raw,
                        entries=entries, format=head["ledger_format"], recorded_under=head["recorded_under"])
        ledger.events = LazyList(last, entries - len(last), functools.partial(_cached_events, ledger, head))
        ledger.cache = {"head": head, "tail": tail, "hasher": hasher}
        from scarbook.kernel.cachedir import cache_used

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

    from scarbook.kernel.atomic import replace_file
    from scarbook.kernel.cachedir import cache_stored

    head["tail"] = [len(tail), _crc(tail)]
    entry = _cache_file(ledger.path)
    from scarbook.kernel.trust import private_like

    private = private_like()  # mode 0600 whatever the umask: `_own_bytes` trusts nothing others may write
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
            "indent": ledger.indent, "verified": verified, "entries": entries, "ledger_format": ledger.format,
            "recorded_under": ledger.recorded_under,
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
    pickle = fast_pickle()

    light = copy.copy(state)
    light.games = _since(state.games, archived)
    return pickle.dumps({"state": light, "packs": list(packs), "games": games, "archived": archived}, protocol=5)


def _since(items: list[Any], start: int) -> list[Any]:
    """items[start:] as a plain list, without loading a LazyList's head."""
    return items.since(start) if isinstance(items, LazyList) else list(items[start:])


def _archive(ledger: Ledger, state: Any, games: list[int], archived: int,
             marks: list[tuple[int, list[int]]] | None = None) -> tuple[list[int], int]:
    """Append the state's games that no longer change (all but the last RECENT_GAMES) to KEY.games."""
    pickle = fast_pickle()

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


def holds_state(ledger: Ledger, verified: str) -> bool:
    """Whether the cache entry these very bytes were read from already records a state under the verdict
    `verified` (`check` of an unchanged campaign then has nothing to store: the fold of the same bytes under
    the same key is the same state, and the entry keeps its undo steps)."""
    return bool(verified) and ledger.verified == verified and not ledger.problems and bool(
        ledger.cache.get("tail") if ledger.cache else None)


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


# --- the verdict on a ledger with illegal events ---------------------------------------------------
# `KEY.judged`: the CRC-32 of a pickle, then the pickle: the sha256 of the ledger bytes it was made from, the
# content key they were checked under, the problems found and the state they fold to. Such a ledger is never
# "verified" (no write goes onto it: L007), but reading it again (`status`, `check`, `where`, the web page)
# takes the verdict from here instead of checking every event once more (D6: 11 s of CPU per `status` at
# 100,000 events). The same trust and verification as the head's: a part that does not verify is a miss.
def remember_judged(ledger: Ledger, key: str, state: Any, packs: tuple[str, ...], problems: list[Any]) -> None:
    """Keep the verdict on these very bytes (illegal events and where) under content key `key`; never fails."""
    digest = raw_sha256(ledger)
    if not key or not digest or ledger.problems:
        return
    from scarbook.kernel.atomic import replace_file
    from scarbook.kernel.cachedir import cache_stored
    from scarbook.kernel.trust import private_like

    pickle = fast_pickle()
    with contextlib.suppress(Exception):  # a state or problem that does not pickle is simply not kept
        blob = pickle.dumps({"sha256": digest, "key": key, "state": state, "packs": list(packs),
                             "problems": problems}, protocol=5)
        entry = _cache_file(ledger.path, "judged")
        replace_file(entry, b"%08x\n%s" % (_crc(blob), blob), like=private_like())
        cache_stored(entry)


def recall_judged(ledger: Ledger) -> tuple[str, Any, tuple[str, ...], list[Any]] | None:
    """(content key, state, packs, problems) of the verdict kept for these very bytes; None: none kept."""
    digest = raw_sha256(ledger)
    if not digest or ledger.problems or ledger.verified:
        return None
    pickle = fast_pickle()
    try:
        raw = _own_bytes(_cache_file(ledger.path, "judged"))
        crc, _, blob = raw.partition(b"\n")
        if int(crc, 16) != _crc(blob):
            return None
        found = pickle.loads(blob)
        if found["sha256"] != digest or not isinstance(found["key"], str):
            return None
        return found["key"], found["state"], tuple(found["packs"]), list(found["problems"])
    except Exception:  # noqa: BLE001 - missing, foreign, torn or tampered: a miss, never a traceback
        return None


def _json_list(event: Event) -> list[Any]:
    import json

    return list(json.loads(_event_line(event)))


def _tail(current: bytes, stack: list[dict[str, Any]]) -> bytes:
    pickle = fast_pickle()

    return pickle.dumps({"current": current, "stack": stack[:UNDO_DEPTH]}, protocol=5)


def _tail_of(ledger: Ledger) -> dict[str, Any] | None:
    pickle = fast_pickle()

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
    pickle = fast_pickle()

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
    pickle = fast_pickle()

    try:
        data = io.BytesIO(_verified_part(_cache_file(ledger.path, "games"), *games))
        found = [pickle.load(data) for _ in range(archived)]
        if data.read(1):
            raise CacheMiss("games")
        return found
    except Exception:  # noqa: BLE001 - a part that does not verify: fold again
        return games_again()[:archived]


def raw_sha256(ledger: Ledger) -> str | None:
    """sha256 of `ledger.raw`, when the cache entry of these very bytes records it (verified against them when
    they were read, or computed from them when they were parsed); None otherwise."""
    head = ledger.cache.get("head") if ledger.cache else None
    digest = head.get("sha256") if isinstance(head, dict) else None
    return digest if isinstance(digest, str) and len(digest) == 64 else None


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
    return _sha256(as_written(text, ledger.raw))


def _only_adds(ledger: Ledger, text: str) -> bool:
    """Whether `text`, as written, is the bytes read with more bytes after them."""
    old = ledger.text
    return len(text) >= len(old) and text.startswith(old)


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
    pickle = fast_pickle()

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
                digest = _sha256(as_written(text, ledger.raw))
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
                             verified=ledger.verified, raw=as_written(text, ledger.raw), entries=len(events),
                             format=ledger.format, recorded_under=ledger.recorded_under)
            remember(shorter)
            return
        previous = ledger.events[-2] if ledger.entries > 1 else None
        new = _header(ledger, _sha256(as_written(text, ledger.raw)), _lines_after_undo(ledger, text),
                      ledger.entries - 1, previous, before, ledger.verified)
        _write_head(ledger, new, b"")


# --- reading a ledger as every command sees it -----------------------------------------------------
#: The ledger `locked` read to know the file is one before taking the lock, handed to the next `read` of that file
#: (the write's own, under the lock) while the file is unchanged: (real path, its stat before reading, ledger).
#: At 50,000 events reading and verifying the file twice cost ~8 ms of a ~100 ms append. One use only.
_HANDED: list[tuple[Path, tuple[int, ...], Ledger]] = []


def _signature(target: Path) -> tuple[int, ...] | None:
    """What changes when a file is written, replaced or touched (ctime: no one can set it back)."""
    try:
        st = os.stat(target)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def read_and_hand_on(path: Path, display: str | None = None) -> Ledger:
    """`read`, keeping the ledger for the next `read` of the same file if the file is unchanged by then."""
    target = real_path(path)
    before = _signature(target)
    ledger = read(path, display)
    _HANDED[:] = [(target, before, ledger)] if before is not None else []
    return ledger


def read(path: Path, display: str | None = None) -> Ledger:
    shown = display or display_path(path)
    if _HANDED:
        (handed_path, before, handed), = _HANDED
        _HANDED.clear()
        if handed_path == real_path(path) and handed.display == shown and _signature(handed_path) == before:
            return handed
    raw = read_raw(path, shown)
    target = real_path(path)
    if os.path.lexists(journal_path(target)):  # a write is appending, or died doing so
        from scarbook.campaign.ledger.journal import _without_a_half_append

        raw = _without_a_half_append(raw, target)
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
