"""The ledger's text, edited as text: an event appended (`with_event`), the last one removed (`without_last`).

Nothing is re-rendered: comments, blank lines, key order and unknown keys of a hand-edited ledger are
kept; where the layout cannot take the change, the edit is refused with how to do it by hand.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import Any

from scarbook.campaign.events import Event
from scarbook.campaign.ledger.file import (
    HEADER_COMMENT,
    LEDGER_FORMAT,
    LINE_BREAK,
    Ledger,
    LedgerError,
    line_count,
    line_start,
    line_starts,
    newline_of,
)
from scarbook.kernel.diagnostics import Diagnostic, Span, error
from scarbook.kernel.yamlload import loads

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


# A plain word (or words) PyYAML writes as it is in a flow collection, and reads back as the same string: ASCII
# letters first (so never a number, a date or `.inf`), then letters, digits, `-`, `_`, single inner spaces; not
# a word its resolver reads as a bool or null (`yes`, `Off`, `null` ...: left to PyYAML, whatever the case).
_PLAIN_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9_-]*(?: [A-Za-z0-9_-]+)*\Z")
_NOT_PLAIN = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n"})
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")  # `game end`'s date: PyYAML quotes it ('2026-11-30')


def _plain_flow(value: Any) -> str | None:
    """`value` (str, int, list, dict of those) as PyYAML's flow style writes it, when it is made of plain words
    and ints only: what `dump_event` gives, without importing PyYAML (None: anything else, left to PyYAML)."""
    kind = type(value)
    if kind is str:
        if _DATE.match(value):
            return f"'{value}'"
        return value if len(value) <= 100 and _PLAIN_WORDS.match(value) and value.lower() not in _NOT_PLAIN \
            else None
    if kind is int:
        return str(value)
    if kind is list:
        items = [_plain_flow(v) for v in value]
        return None if None in items else "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
    if kind is dict:
        parts = []
        for k, v in value.items():
            key, val = _plain_flow(k) if type(k) is str else None, _plain_flow(v)
            if key is None or val is None:
                return None
            parts.append(f"{key}: {val}")
        return "{" + ", ".join(parts) + "}"
    return None


def dump_event(data: dict[str, Any]) -> str:
    """One event as a single flow-style YAML line (no trailing newline). An event of plain words and numbers (the
    usual one) is written without PyYAML, exactly as PyYAML writes it (tests/test_ledger_text.py compares them)."""
    plain = _plain_flow(data)
    if plain is not None:
        return plain
    import yaml

    out = yaml.dump(data, Dumper=_one_line_dumper(), default_flow_style=True, sort_keys=False, width=1_000_000,
                    allow_unicode=True)
    return out.strip().removesuffix("...").strip()


def render(name: str, game: str, fingerprint: str, players: list[str], events: list[dict[str, Any]]) -> str:
    """A whole campaign file in the canonical layout."""
    import yaml

    head: dict[str, Any] = {"format": LEDGER_FORMAT, "name": name, "game": game, "fingerprint": fingerprint,
                            "players": players}
    if not name:
        del head["name"]
    text = HEADER_COMMENT + yaml.safe_dump({"campaign": head}, sort_keys=False, allow_unicode=True,
                                           default_flow_style=None, width=100)
    if not events:
        return text + "events:\n"
    return text + "events:\n" + "".join(f"- {dump_event(e)}\n" for e in events)


def with_stretch(text: str, entry: dict[str, Any]) -> str:
    """`text` whose header records one more stretch (`recorded_under`, and `format` when missing), edited in
    place: the `recorded_under` list rewritten on its line, or new lines after the header's last key. A header
    the edit cannot find (not a block mapping) is left as it is: the events are still written."""
    import re

    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    events = re.search(r"^events[ \t]*:", text, re.MULTILINE)  # the header alone, when it comes first: the events'
    head = None  # nodes are never needed (composing 10,000 of them cost ~1 s)
    for part in ([text[:events.start()]] if events else []) + [text]:
        try:
            root = yaml.compose(part, Loader=loader)
        except yaml.YAMLError:
            continue
        head = next((v for k, v in getattr(root, "value", []) if getattr(k, "value", None) == "campaign"), None)
        if head is not None:
            break
    if not isinstance(head, yaml.MappingNode) or head.flow_style or not head.value:
        return text
    pairs = {str(k.value): (k, v) for k, v in head.value}
    # the stretches recorded so far, built from their node alone (loading the whole file again with PyYAML's
    # Python loader cost ~0.2 s at 200 events on the first write after an upgrade, seconds on a long campaign)
    before = yaml.SafeLoader("").construct_object(pairs["recorded_under"][1], deep=True) \
        if "recorded_under" in pairs else None
    entries = [*(before if isinstance(before, list) else []), entry]
    listed = "[" + ", ".join(dump_event(e) for e in entries) + "]"
    line_break = newline_of(text)
    indent = " " * head.value[0][0].start_mark.column
    if "recorded_under" in pairs:
        key, value = pairs["recorded_under"]
        end = value.end_mark.index
        if isinstance(value, yaml.SequenceNode) and not value.flow_style:  # a block list (written by hand) ends
            found = text.rfind(line_break, key.end_mark.index, end)  # where the next key begins: keep its line
            end = found if found >= 0 else end
        return text[:key.end_mark.index] + ": " + listed + text[end:]
    last = head.value[-1][1].end_mark.index
    at = text.find(line_break, last)
    at = len(text) if at < 0 else at + len(line_break)
    more = "" if "format" in pairs else f"{indent}format: {LEDGER_FORMAT}{line_break}"
    return text[:at] + more + f"{indent}recorded_under: {listed}{line_break}" + text[at:]


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
        if not _blank_or_comment(LINE_BREAK.sub("", text[starts[n]:line_end])):
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
    from scarbook.campaign.ledger.file import oversized

    nl = newline_of(ledger.text)
    data = event.to_dict()
    for key, value in data.items():
        why = oversized(value, f"the event's '{key}'")
        if why is not None:  # refused before it is written: the next read would refuse the ledger at its line
            where = Span(ledger.display, line_count(ledger.text.rstrip("\r\n")) + 1, 1)  # where it would have gone
            raise LedgerError([error(where, "L003", f"{why}; nothing was written")])
    line = dump_event(data)
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


def _comma_between(text: str, start: int, end: int) -> int:
    """Where the comma between two flow entries is (`text[start:end]` holds only it, blanks and comments):
    a comma inside a comment before it is not the one (`[a  # x, y` newline `, b]`); -1 when there is none."""
    at = start
    while at < end:
        char = text[at]
        if char == ",":
            return at
        if char == "#" and (at == 0 or text[at - 1] in " \t\r\n"):  # a comment runs to the end of its line
            ends = [n for n in (text.find("\n", at, end), text.find("\r", at, end)) if n >= 0]
            at = min(ends) if ends else end
            continue
        at += 1
    return -1


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
    if ledger.appendable:  # the common case: the entry is the file's last line (found from the end of the text)
        start = _last_entry_start(ledger, last)
        if start is not None and _is_last_line(text, start, last):
            return text[:start], last  # one line, read back as this very event: no need to parse 10,000 events
    starts = line_starts(text)
    node = _events_node(text)
    new = None
    if node is not None and node.items and node.kind == "block":
        begin = starts[bisect.bisect_right(starts, node.items[-1][0]) - 1]
        end = _after_last_content(text, starts, node.items[-1][0], node.end)
        new = text[:begin] + text[end:]
    elif node is not None and node.items and node.kind == "flow":
        begin, end = node.items[-1]
        if len(node.items) > 1:  # drop the comma after the entry before it, keep any comment there
            comma = _comma_between(text, node.items[-2][1], begin)
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


def _last_entry_start(ledger: Ledger, last: Event) -> int | None:
    """Where the line of the ledger's last event starts, scanning back from the end of the text (None: the
    text has fewer lines than its line count says, which never happens with a line count of this very text).

    The line count comes from the cache entry of these very bytes (`ledgercache`: recorded with their
    sha256), else it is counted: either way the text is never split into its 50,000 lines."""
    text = ledger.text
    known = ledger.cache.get("head", {}).get("lines") if ledger.cache else None
    lines = known if type(known) is int and known >= last.span.line else line_count(text)
    try:
        return line_start(text, last.span.line, lines)
    except ValueError:
        return None


def _is_last_line(text: str, start: int, event: Event) -> bool:
    """Whether `event` is all of the line that starts at `start` (a one-line `- {...}` entry) and only blank
    lines follow."""
    brk = LINE_BREAK.search(text, start)
    end = brk.end() if brk else len(text)
    entry = LINE_BREAK.sub("", text[start:end]).lstrip(" ")
    if not entry.startswith("- {") or text[end:].strip():
        return False
    if entry[2:] == _plain_flow(event.to_dict()):  # as `dump_event` writes it: it reads back as this very event
        return True
    import yaml

    try:
        return bool(yaml.load(entry[2:], Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) == event.to_dict())
    except yaml.YAMLError:
        return False
