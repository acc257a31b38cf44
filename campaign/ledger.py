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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.compiler.atomic import replace_file
from scarbook.compiler.diagnostics import Diagnostic, Span, error
from scarbook.compiler.yamlload import decode, loads, read_capped

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
# Parsing a 10,000-event ledger with source positions takes most of a second; the parsed events
# (with their lines) are kept as JSON under the compiler's cache folder, one entry per ledger
# (named by a hash of the file's absolute path, replaced by each write, never accumulated), valid
# for the bytes whose sha256 it records: an unchanged (or just appended by scarbook) ledger is read
# in milliseconds, any other bytes are parsed again. An entry is two lines: the header (with
# `verified`, see `engine.Campaign.replay_for_write`), then the events as one JSON list of
# [line, column, *event_fields(event)], rebuilt without being checked again. Appending an event or
# recording a verdict copies that list's text instead of serialising every event again. The cache
# folder as a whole is capped, least recently used entries first (`compiler.cachedir`).
LEDGER_CACHE_VERSION = "4"


def _cache_file(path: Path) -> Path:
    import hashlib

    from scarbook.compiler.cachedir import cache_dir

    where = str(real_path(path))
    key = hashlib.sha256(f"{LEDGER_CACHE_VERSION}\0{where}".encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return cache_dir() / "ledgers" / f"{key}.json"


def _recall(raw: bytes, path: Path, shown: str) -> Ledger | None:
    """The cached parse of these very bytes, or None; an entry that does not verify is deleted."""
    import hashlib
    import json

    entry = _cache_file(path)
    try:
        blob = entry.read_bytes()
    except OSError:
        return None
    try:
        head_json, events_json = blob.decode("utf-8").split("\n", 1)
        head = json.loads(head_json)
        if head.get("format") == LEDGER_CACHE_VERSION and head.get("sha256") != hashlib.sha256(raw).hexdigest():
            return None  # the entry of this ledger's earlier bytes: the next store replaces it
        events_json = events_json.rstrip()
        if (head.get("format") != LEDGER_CACHE_VERSION
                or head.get("body") != hashlib.sha256(events_json.encode("utf-8")).hexdigest()):
            raise ValueError("stale or forged entry")
        text = raw.decode("utf-8-sig")
        players = head["players"]
        if not (isinstance(head["name"], str) and isinstance(head["game"], str) and isinstance(head["fingerprint"], str)
                and isinstance(players, list) and all(isinstance(p, str) for p in players)
                and isinstance(head["appendable"], bool) and isinstance(head["indent"], str)
                and isinstance(head["verified"], str)):
            raise ValueError("bad header")
        ledger = Ledger(path, shown, text, head["name"], head["game"], head["fingerprint"], players,
                        appendable=head["appendable"], indent=head["indent"], verified=head["verified"],
                        cached_events=events_json, raw=raw)
        lines = len(line_starts(text))
        items = json.loads(events_json)
        for index, (line, column, *values) in enumerate(items):
            if not (isinstance(line, int) and isinstance(column, int) and 1 <= line <= lines and column >= 1):
                raise ValueError("bad position")
            ledger.events.append(event_from_fields(values, Span(shown, line, column), index))
        ledger.entries = len(ledger.events)
        from scarbook.compiler.cachedir import cache_used

        cache_used(entry)
        return ledger
    except Exception:  # noqa: BLE001 - any bad entry is discarded and rebuilt, never trusted
        with contextlib.suppress(OSError):
            entry.unlink()
        return None


def _store(ledger: Ledger) -> None:
    """Write the ledger's cache entry from its header and `cached_events`; never fails."""
    import hashlib
    import json

    raw = ledger.raw or ledger.text.encode("utf-8")
    head = {"format": LEDGER_CACHE_VERSION, "sha256": hashlib.sha256(raw).hexdigest(),
            "body": hashlib.sha256(ledger.cached_events.encode("utf-8")).hexdigest(),
            "name": ledger.name, "game": ledger.game, "fingerprint": ledger.fingerprint, "players": ledger.players,
            "appendable": ledger.appendable, "indent": ledger.indent, "verified": ledger.verified}
    from scarbook.compiler.cachedir import cache_stored

    entry = _cache_file(ledger.path)
    with contextlib.suppress(OSError):
        replace_file(entry, f"{json.dumps(head)}\n{ledger.cached_events}".encode())
        cache_stored(entry)


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
    line = len(line_starts(text.rstrip("\r\n")))
    placed = type(event)(**{k: getattr(event, k) for k in event.__dataclass_fields__ if k not in ("span", "index")},
                         span=Span(ledger.display, line, len(ledger.indent) + 3), index=len(ledger.events))
    new = Ledger(ledger.path, ledger.display, text, ledger.name, ledger.game, ledger.fingerprint, ledger.players,
                 [*ledger.events, placed], appendable=True, indent=ledger.indent, verified=verified,
                 raw=text.encode("utf-8"), entries=len(ledger.events) + 1)
    if not ledger.cached_events:
        remember(new)
        return
    head = ledger.cached_events[:-1] + (", " if ledger.events else "")
    new.cached_events = f"{head}{_event_json(placed)}]"
    _store(new)


def remember_undone(ledger: Ledger, text: str) -> None:
    """After `without_last` cut the last line: cache the shorter ledger without parsing or re-serialising it.

    The verdict is kept: each event is checked against the events before it only, so what was legal in the
    longer file is legal in its prefix under the same key (the next fold still compares the key it ends with).
    Any other way the entry was removed (a flow list, a hand-edited layout): the next read parses the file.
    """
    if not (ledger.appendable and not ledger.problems and ledger.cached_events and ledger.events
            and len(text) < len(ledger.text) and ledger.text.startswith(text)):
        return
    last = _event_json(ledger.events[-1])
    body = ledger.cached_events
    if not body.endswith(last + "]"):
        return
    head = body[: -len(last) - 1].removesuffix(", ")
    new = Ledger(ledger.path, ledger.display, text, ledger.name, ledger.game, ledger.fingerprint, ledger.players,
                 ledger.events[:-1], appendable=True, indent=ledger.indent, verified=ledger.verified,
                 raw=text.encode("utf-8"), entries=len(ledger.events) - 1)
    new.cached_events = head + "]" if head != "[" else "[]"
    _store(new)


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
    return [0, *(m.end() for m in _BREAK.finditer(text))]


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
