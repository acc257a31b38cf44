"""The campaign file: one plain-text YAML ledger per campaign, and safe ways to change it.

Reads keep every event's line (via `scarbook.compiler.yamlload.loads`). Writes take an exclusive
lock on a side `.lock` file, keep the previous version as `FILE.bak`, write a temporary file in
the same folder, flush and fsync it, and `os.replace` it over the ledger: a crash leaves the old
file or the new one, never half of either. This module never decides what is legal.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from scarbook.compiler.atomic import replace_file
from scarbook.compiler.diagnostics import Diagnostic, Span, error
from scarbook.compiler.yamlload import decode, loads

from .events import Event, ParseProblem, event_fields, event_from_fields, parse_event

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
    cached_events: str = field(default="", repr=False, compare=False)  # the events as cached (JSON text)

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
    lines = text.split("\n")
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


def read(path: Path, display: str | None = None) -> Ledger:
    shown = display or display_path(path)
    try:
        if path.stat().st_size > MAX_LEDGER_BYTES:
            raise LedgerError([error(Span(shown, 1, 1), "L001", "the campaign file is larger than 64 MiB")])
        raw = path.read_bytes()
    except FileNotFoundError:
        raise LedgerError([error(Span(shown), "L001", "no campaign file here; create one with 'scarbook campaign "
                                 "new FILE --game GAME --player NAME ...' or pass --campaign FILE")]) from None
    except OSError as exc:
        raise LedgerError([error(Span(shown), "L001", f"cannot read the campaign file: {exc.strerror}")]) from None
    cached = _recall(raw, path, shown)
    if cached is not None:
        return cached
    text, problems = decode(raw, shown)
    if text is None:
        raise LedgerError(problems)
    ledger = parse(text, path, shown)
    remember(ledger)
    return ledger


# --- a cache of parsed ledgers, keyed by the file's bytes -------------------------------------
# Parsing a 10,000-event ledger with source positions takes most of a second; the parsed events
# (with their lines) are kept as JSON under the compiler's cache folder, keyed by a hash of the
# file's bytes, so an unchanged (or just appended by scarbook) ledger is read in milliseconds.
# An entry is two lines: the header (with `verified`, see `engine.Campaign.replay_for_write`),
# then the events as one JSON list of [line, column, *event_fields(event)], rebuilt without being
# checked again. Appending an event or recording a verdict copies that list's text instead of
# serialising every event again.
LEDGER_CACHE_VERSION = "3"


def _cache_file(raw: bytes) -> Path:
    import hashlib

    from scarbook.compiler.validate import cache_dir

    key = hashlib.sha256(LEDGER_CACHE_VERSION.encode() + b"\0" + raw).hexdigest()[:32]
    return cache_dir() / "ledgers" / f"{key}.json"


def _recall(raw: bytes, path: Path, shown: str) -> Ledger | None:
    import json

    try:
        head_json, events_json = _cache_file(raw).read_text("utf-8").split("\n", 1)
        head = json.loads(head_json)
        text = raw.decode("utf-8-sig")
        ledger = Ledger(path, shown, text, head["name"], head["game"], head["fingerprint"], head["players"],
                        appendable=head["appendable"], indent=head["indent"], verified=head["verified"],
                        cached_events=events_json.rstrip())
        ledger.events = [event_from_fields(values, Span(shown, line, column), index)
                         for index, (line, column, *values) in enumerate(json.loads(events_json))]
        return ledger
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _store(ledger: Ledger) -> None:
    """Write the ledger's cache entry from its header and `cached_events`; never fails."""
    import json

    head = {"name": ledger.name, "game": ledger.game, "fingerprint": ledger.fingerprint, "players": ledger.players,
            "appendable": ledger.appendable, "indent": ledger.indent, "verified": ledger.verified}
    with contextlib.suppress(OSError):
        replace_file(_cache_file(ledger.text.encode("utf-8")),
                     f"{json.dumps(head)}\n{ledger.cached_events}".encode())


def _event_json(event: Event) -> str:
    import json

    return json.dumps([event.span.line, event.span.column, *event_fields(event)])


def remember(ledger: Ledger) -> None:
    """Keep a parsed ledger (without problems) in the cache; never fails."""
    if ledger.problems:
        return
    ledger.cached_events = f"[{', '.join(_event_json(e) for e in ledger.events)}]"
    _store(ledger)


def remember_verified(ledger: Ledger, key: str) -> None:
    """Record in the cache that every event of these very bytes is legal under `key` (see the engine)."""
    ledger.verified = key
    if ledger.cached_events and not ledger.problems:
        _store(ledger)


def remember_appended(ledger: Ledger, text: str, event: Event, verified: str = "") -> None:
    """After `with_event` appended one line: cache the new ledger without parsing or re-serialising it.

    `verified` is the key under which the old events and the new one were all found legal ('' when not).
    """
    if not ledger.appendable or ledger.problems:
        return
    line = text.count("\n")
    placed = type(event)(**{k: getattr(event, k) for k in event.__dataclass_fields__ if k not in ("span", "index")},
                         span=Span(ledger.display, line, len(ledger.indent) + 3), index=len(ledger.events))
    new = Ledger(ledger.path, ledger.display, text, ledger.name, ledger.game, ledger.fingerprint, ledger.players,
                 [*ledger.events, placed], appendable=True, indent=ledger.indent, verified=verified)
    if not ledger.cached_events:
        remember(new)
        return
    head = ledger.cached_events[:-1] + (", " if ledger.events else "")
    new.cached_events = f"{head}{_event_json(placed)}]"
    _store(new)


# --- writing ----------------------------------------------------------------------------------
def dump_event(data: dict[str, Any]) -> str:
    """One event as a single flow-style YAML line (no trailing newline)."""
    out = yaml.safe_dump(data, default_flow_style=True, sort_keys=False, width=1_000_000, allow_unicode=True)
    return out.strip().removesuffix("...").strip()


def render(name: str, game: str, fingerprint: str, players: list[str], events: list[dict[str, Any]]) -> str:
    """A whole campaign file in the canonical layout."""
    head = {"name": name, "game": game, "fingerprint": fingerprint, "players": players}
    if not name:
        del head["name"]
    text = HEADER_COMMENT + yaml.safe_dump({"campaign": head}, sort_keys=False, allow_unicode=True,
                                           default_flow_style=None, width=100)
    if not events:
        return text + "events:\n"
    return text + "events:\n" + "".join(f"- {dump_event(e)}\n" for e in events)


def with_event(ledger: Ledger, event: Event) -> str:
    """The ledger's text with one more event at the end (the rest of the file untouched)."""
    if ledger.appendable:
        text = ledger.text if ledger.text.endswith("\n") else ledger.text + "\n"
        if not ledger.events and not ledger.problems:
            lines = text.rstrip("\n").split("\n")
            if lines and lines[-1].rstrip().endswith("[]"):
                lines[-1] = lines[-1].rstrip()[:-2].rstrip()
                text = "\n".join(lines) + "\n"
        return text + f"{ledger.indent}- {dump_event(event.to_dict())}\n"
    return render(ledger.name, ledger.game, ledger.fingerprint, ledger.players,
                  [e.to_dict() for e in ledger.events] + [event.to_dict()])


def without_last(ledger: Ledger) -> str:
    """The ledger's text with its last event removed.

    When that event is the file's last line, in one line (as scarbook writes them), the line is cut
    off once it reads back as that very event; otherwise the cut is checked by parsing the whole
    text again, and when even that differs the file is written anew in the canonical layout.
    """
    last = ledger.events[-1]
    if ledger.appendable and last.index == len(ledger.events) + len(ledger.problems) - 1:
        lines = ledger.text.split("\n")
        start = last.span.line - 1
        text = "\n".join(lines[:start]) + "\n"
        if _is_last_line(lines, start, last):  # no need to parse 10,000 events again
            return text
        if lines[start].lstrip(" ").startswith("-"):
            try:
                again = parse(text, ledger.path, ledger.display)
                if [e.to_dict() for e in again.events] == [e.to_dict() for e in ledger.events[:-1]]:
                    return text
            except LedgerError:
                pass
    return render(ledger.name, ledger.game, ledger.fingerprint, ledger.players,
                  [e.to_dict() for e in ledger.events[:-1]])


def _is_last_line(lines: list[str], start: int, event: Event) -> bool:
    """Whether `event` is all of line `start` (a one-line `- {...}` entry) and only blank lines follow."""
    entry = lines[start].lstrip(" ")
    if not entry.startswith("- {") or any(line.strip() for line in lines[start + 1:]):
        return False
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


def write_atomic(path: Path, text: str, backup: bool = True) -> None:
    """Replace the file with `text`, keeping the previous version as FILE.bak."""
    if backup and path.exists():
        replace_file(path.with_name(path.name + ".bak"), path.read_bytes(), durable=True)
    replace_file(path, text.encode("utf-8"), durable=True)
    _fsync_dir(path.parent if str(path.parent) else Path("."))


@contextlib.contextmanager
def locked(path: Path, wait: float | None = None) -> Iterator[None]:
    """Hold the campaign's exclusive lock; raise LedgerBusy after waiting `wait` seconds."""
    import fcntl

    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + (LOCK_WAIT_SECONDS if wait is None else wait)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                if time.monotonic() >= deadline:
                    raise LedgerBusy(f"{display_path(path)} is being changed by another scarbook command; "
                                     "nothing was written: retry in a moment") from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)  # closing releases the lock
