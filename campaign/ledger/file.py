"""The campaign file: one plain-text YAML ledger per campaign, parsed with every event's line.

`Ledger` (header, events, problems), `parse` (via `scarbook.kernel.yamlload.loads`; PyYAML is
imported only when a file must be parsed), the capped raw read, line breaks. Every command reads a
ledger through `ledgercache.read` (the cache when it verifies, else `parse`, never half an event a
killed write left: `ledgerjournal`); changing the file is `ledgertext` (the new text) and
`ledgerwrite` (the lock, in-place appends, renames). This module never decides what is legal.
"""

from __future__ import annotations

import errno
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.campaign.events import Event, ParseProblem, parse_event
from scarbook.kernel.diagnostics import Diagnostic, Span, error
from scarbook.kernel.paths import display_path
from scarbook.kernel.yamlload import loads, read_capped

HEADER_COMMENT = (
    "# scarbook campaign ledger: the game, a fingerprint of its content when the campaign began,\n"
    "# the players, then every permanent change in order, one event per line. You may edit it by\n"
    "# hand; `scarbook campaign check` re-checks every event against the rules.\n"
)
#: The format of the campaign file this scarbook writes: 1 (no `format:` key) the first releases', 2 adds `format`
#: and `recorded_under` (which stretch of events was recorded under which content) to the header. Every later
#: release reads every earlier format; a file of a newer format is refused (L017) rather than misread.
LEDGER_FORMAT = 2
MAX_LEDGER_BYTES = 64 * 1024 * 1024
#: No campaign needs more in one field of an event or of the header: ids, names, notes and dates are words or a
#: sentence (the longest shipped id is 40 characters); lists name players, pieces or territories (a board has
#: ~50). Larger ones are refused at their line (L003, L002) before any rule looks at them: a 10 MB target
#: would otherwise make every suggestion ("did you mean") and every check compare megabytes.
MAX_FIELD_CHARS = 1000
MAX_FIELD_ITEMS = 1000


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
    format: int = 1  # the file's format (`format:` in the header; none: 1)
    #: Where the content changed under the campaign: from the event numbered `from` (1-based) on, events were
    #: recorded under content `fingerprint`; the events before it hash to `digest` (`campaign.ledger.stretches`).
    recorded_under: list[dict[str, Any]] = field(default_factory=list)

    def player(self, name: str) -> str | None:
        """The recorded spelling of a player's name, matched case-insensitively."""
        low = name.strip().lower()
        for p in self.players:
            if p.lower() == low:
                return p
        return None


def recorded_path(ledger_path: Path, target: Path) -> str:
    """A file's path as a ledger records it (a homebrew game, a pack): relative to the ledger's folder, in
    '/' form, so every command finds it from any folder (`resolved_path` reads it back)."""
    return Path(os.path.relpath(target.resolve(), ledger_path.resolve().parent)).as_posix()


def resolved_path(ledger_path: Path, recorded: str) -> Path:
    """Where a path the ledger records (`recorded_path`) is now."""
    path = Path(recorded)
    return path if path.is_absolute() else ledger_path.parent / path


def parse(text: str, path: Path, display: str | None = None) -> Ledger:
    """Text of a campaign file to a `Ledger`; raises LedgerError when the file is not a ledger."""
    shown = display or display_path(path)
    if "<<<<<<<" in text:
        conflict = merge_conflict(text, shown)
        if conflict is not None:
            raise LedgerError([conflict])
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
    too_big = oversized(players, "a player's name")
    if too_big is not None:
        raise LedgerError([error(doc.span("/campaign/players"), "L002", too_big)])
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
    ledger.format, ledger.recorded_under = header_format(head, doc.span)
    ledger.problems.extend(d for d in doc.diagnostics)
    ledger.entries = len(raw_events)
    ledger.raw = text.encode("utf-8")
    spans = doc.spans
    for i, raw in enumerate(raw_events):
        span = spans.get(f"/events/{i}") or doc.span(f"/events/{i}")
        refused = _oversized_entry(raw, spans, i)
        if refused is not None:
            ledger.problems.append(error(refused[0], "L003", refused[1], f"/events/{i}"))
            continue
        ev = parse_event(raw, span, i)
        if isinstance(ev, ParseProblem):
            ledger.problems.append(error(ev.span, "L003", ev.message, f"/events/{i}"))
        else:
            ledger.events.append(ev)
    ledger.appendable, ledger.indent = _layout(text, doc.key_spans, raw_events, spans)
    return ledger


def header_format(head: dict[str, Any], span: Any) -> tuple[int, list[dict[str, Any]]]:
    """The header's `format` (none: 1) and `recorded_under` entries; LedgerError for a newer format (L017) or
    an entry that is not `{from: N, fingerprint: F, digest: D}`."""
    version = head.get("format", 1)
    if type(version) is not int or version < 1:
        raise LedgerError([error(span("/campaign/format"), "L002", "'format' must be a whole number (1, 2 ...)")])
    if version > LEDGER_FORMAT:
        raise LedgerError([error(span("/campaign/format"), "L017", f"this campaign file is in format {version}, "
                                 f"written by a newer scarbook; this one reads formats 1 to {LEDGER_FORMAT}: "
                                 "upgrade scarbook (pip install -U scarbook)")])
    stretches = head.get("recorded_under") or []
    ok = isinstance(stretches, list) and all(
        isinstance(s, dict) and type(s.get("from")) is int and s["from"] >= 1
        and isinstance(s.get("fingerprint"), str) and isinstance(s.get("digest"), str) for s in stretches)
    if not ok:
        raise LedgerError([error(span("/campaign/recorded_under"), "L002", "'recorded_under' must list "
                                 "{from: EVENT_NUMBER, fingerprint: F, digest: D} as scarbook wrote them")])
    return version, [dict(s) for s in stretches]


_MARKER = re.compile(r"^(<{7}|\|{7}|={7}|>{7})(?:[ \t](.*))?$")


def merge_conflict(text: str, shown: str) -> Diagnostic | None:
    """L015 at the first git conflict marker (`<<<<<<<`) when the text still holds an unresolved merge, naming
    which side holds which events and how to resolve it; None when it holds no whole conflict."""
    lines = LINE_BREAK.split(text)
    start = next((i for i, ln in enumerate(lines) if ln.startswith("<<<<<<<") and _MARKER.match(ln)), None)
    if start is None:
        return None
    sides: list[tuple[str, int, list[str]]] = []  # (name, first line, lines)
    name = (_MARKER.match(lines[start]).group(2) or "").strip() or "one side"  # type: ignore[union-attr]
    current: tuple[str, int, list[str]] | None = (name, start + 2, [])
    end = None
    for i in range(start + 1, len(lines)):
        found = _MARKER.match(lines[i])
        if found is None:
            if current is not None:
                current[2].append(lines[i])
            continue
        mark = found.group(1)
        if mark.startswith("<"):
            break
        if current is not None:
            sides.append(current)
        if mark.startswith("|"):
            current = None  # the common ancestor's lines (diff3 style): neither side's
        elif mark.startswith("="):
            current = ("", i + 2, [])
        else:
            end = i
            other = (found.group(2) or "").strip() or "the other side"
            sides = [(n or other, at, body) for n, at, body in sides]
            break
    if end is None:
        return None
    told = []
    for side, at, body in sides:
        kinds = [m.group(1) for m in (re.search(r"\bevent:\s*([\w-]+)", ln) for ln in body) if m]
        where = f"line {at}" if len(body) == 1 else f"lines {at}-{at + len(body) - 1}"
        what = (f"{len(kinds)} event{'s' if len(kinds) != 1 else ''} ({', '.join(kinds[:6])}"
                f"{', ...' if len(kinds) > 6 else ''})" if kinds else "no event")
        told.append(f"{side} holds {what} at {where}" if body else f"{side} holds nothing")
    return error(Span(shown, start + 1, 1), "L015", f"unresolved git merge conflict (lines {start + 1}-{end + 1}): "
                 f"{'; '.join(told)}. Resolve it by keeping both sides' events, in the order they were played, "
                 "and deleting the marker lines (<<<<<<<, =======, >>>>>>>); then run 'scarbook campaign check', "
                 "which names the first event that is illegal in that order")


def oversized(value: Any, what: str) -> str | None:
    """Why `value` (a field of an event or of the header) is larger than any campaign needs (None: it is not):
    a text over MAX_FIELD_CHARS characters, or a list or mapping of over MAX_FIELD_ITEMS items, at any depth."""
    todo, seen = [value], 0
    while todo:
        item = todo.pop()
        seen += 1
        if isinstance(item, str) and len(item) > MAX_FIELD_CHARS:
            return (f"{what} is {len(item):,} characters long; no campaign needs more than {MAX_FIELD_CHARS:,}: "
                    "shorten it")
        if isinstance(item, (list, dict)):
            if len(item) > MAX_FIELD_ITEMS or seen > MAX_FIELD_ITEMS * 4:
                return (f"{what} holds {len(item):,} items; no campaign needs more than {MAX_FIELD_ITEMS:,}: "
                        "remove the extra ones")
            todo.extend(item.items() if isinstance(item, dict) else item)
        elif isinstance(item, tuple):
            todo.extend(item)
    return None


def _oversized_entry(raw: Any, spans: dict[str, Span], i: int) -> tuple[Span, str] | None:
    """(where, why) when a field of the ledger's i-th entry is larger than any campaign needs."""
    if not isinstance(raw, dict):
        return None
    for key, value in raw.items():
        if type(value) is str and len(value) <= MAX_FIELD_CHARS and type(key) is str and len(key) <= MAX_FIELD_CHARS:
            continue  # the usual field, at the cost of a type check (10,000 events are parsed in well under a second)
        name = str(key)[:40]
        why = oversized(key, "a field's name") or oversized(value, f"the event's '{name}'")
        if why is not None:
            return spans.get(f"/events/{i}/{key}") or spans.get(f"/events/{i}") or Span(""), why
    return None


def _layout(text: str, key_spans: dict[str, Span], raw_events: list[Any],
            spans: dict[str, Span]) -> tuple[bool, str]:
    """Can a new event be appended as one more `- {...}` line at the end of the file?"""
    ev_key = key_spans.get("/events")
    if ev_key is None:
        return False, ""
    if any(s.line > ev_key.line for k, s in key_spans.items() if k.count("/") == 1 and k != "/events"):
        return False, ""
    lines = LINE_BREAK.split(text)
    if any(ln.startswith(("---", "...")) for ln in lines):
        return False, ""  # document markers: only the checked (slow) paths may touch such a file
    after = lines[ev_key.line - 1][ev_key.column - 1:].split(":", 1)[-1].strip()
    if not raw_events:
        rest = [ln for ln in lines[ev_key.line:] if ln.strip()]
        if after == "[]":  # `with_event` drops the `[]`, which must end the file: a comment after it would
            return not rest, ""  # leave the new `- {...}` line under `events: []` (no longer YAML)
        return after == "" and all(ln.lstrip().startswith("#") for ln in rest), ""
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


BOM = b"\xef\xbb\xbf"


def as_written(text: str, read: bytes | None) -> bytes:
    """The bytes a write puts in the ledger for `text` when the file held `read`: UTF-8, after the byte-order
    mark the file started with (decoding the text dropped it). The write and the cache entry both use this."""
    data = text.encode("utf-8")
    if read is not None and read.startswith(BOM) and not data.startswith(BOM):
        data = BOM + data
    return data


LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the line breaks a text editor shows (NEL, LS and PS are not)


def line_starts(text: str) -> list[int]:
    """Offsets where each line (as an editor counts them, as the ledger's spans count them) starts."""
    if "\r" in text:
        return [0, *(m.end() for m in LINE_BREAK.finditer(text))]
    starts = [0]  # LF only (what scarbook writes): str.find is three times faster than the regular expression
    add, find = starts.append, text.find
    at = find("\n")
    while at >= 0:
        add(at + 1)
        at = find("\n", at + 1)
    return starts


def line_count(text: str) -> int:
    """How many lines an editor shows (LF, CRLF and CR-only breaks): `len(line_starts(text))`, without listing them."""
    return text.count("\n") + text.count("\r") - text.count("\r\n") + 1


def line_start(text: str, line: int, lines: int) -> int:
    """`line_starts(text)[line - 1]`, found by scanning back from the end of the text, given `lines`, the text's
    `line_count`: the cost is that of the lines after `line`, not of the whole text (`undo` of a 50,000-event
    ledger looks at its last line only). ValueError when the text has fewer line breaks than `lines` says."""
    if not 1 <= line <= lines:
        raise ValueError(f"line {line} of {lines}")
    if line == 1:
        return 0
    at = len(text)  # every break found so far starts at or after `at`
    start = -1
    no_lf = False  # no "\n" before `at` (a CR-only text): never look for one again
    for _ in range(lines - line + 1):
        lf = -1 if no_lf else text.rfind("\n", 0, at)
        no_lf = lf < 0
        cr = text.rfind("\r", lf + 1, at)
        if cr >= 0:  # a CR-only break after the last LF (a CR just before an LF is found with that LF below)
            start, at = cr + 1, cr
        elif lf >= 0:
            start, at = lf + 1, (lf - 1 if lf and text[lf - 1] == "\r" else lf)  # CRLF is one break
        else:
            raise ValueError(f"fewer than {lines} lines")
    return start


def newline_of(text: str) -> str:
    """The file's own line break (LF, CRLF or CR-only), LF for a file without one."""
    found = LINE_BREAK.search(text)
    return found.group() if found else "\n"
