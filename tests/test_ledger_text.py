"""The ledger's text edited as text (campaign/ledger/text.py), in every layout a hand may leave it.

`with_event` appends one event and `without_last` removes it again; the rest of the file (comments,
other keys, their order) must come through untouched, and the result must read back as the same
events plus (or minus) the one. These run in-process: the process tests cover the writes.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scarbook.campaign.events import ParseProblem, parse_event
from scarbook.campaign.ledger import text as ledgertext
from scarbook.campaign.ledger.file import HEADER_COMMENT, Ledger, LedgerError, newline_of, parse
from scarbook.campaign.ledger.text import dump_event, render, with_event, without_last
from scarbook.kernel.diagnostics import Span

HEAD = "# our campaign\ncampaign: {game: risk-legacy, fingerprint: x, players: [A, B, C]}\n"
FIRST = "{event: place, sticker: coin, target: alaska-card}"
NEW = parse_event({"event": "place", "sticker": "coin", "target": "peru-card"}, Span("x"), 0)

LAYOUTS = {
    "no events key": HEAD,
    "no events key, no final newline": HEAD.rstrip("\n"),
    "events: with nothing under it": HEAD + "events:\n",
    "events: then a comment and another key": HEAD + "events:\n# nothing yet\nnotes: keep this\n",
    "empty flow list": HEAD + "events: []\n",
    "flow list with one event": HEAD + f"events: [{FIRST}]  # typed by hand\n",
    "block list then another key": HEAD + f"events:\n  - {FIRST}\n# the end\nnotes: keep this\n",
    "block list, CRLF": (HEAD + f"events:\n- {FIRST}\n").replace("\n", "\r\n"),
    "block list, no final newline": HEAD + f"events:\n- {FIRST}",
    "empty flow list, no final newline": HEAD + "events: []",
    "null events": HEAD + "events: ~\n",
}


def _events(text: str) -> list[dict]:
    return [e.to_dict() for e in parse(text, Path("c.yaml")).events]


@pytest.mark.parametrize("layout", LAYOUTS, ids=list(LAYOUTS))
def test_an_event_is_appended_and_removed_keeping_everything_else(layout: str) -> None:
    text = LAYOUTS[layout]
    before = _events(text)
    ledger = parse(text, Path("c.yaml"))
    assert not ledger.problems, ledger.problems
    added = with_event(ledger, NEW)
    assert _events(added) == [*before, NEW.to_dict()]
    for kept in ("# our campaign", "# nothing yet", "notes: keep this", "# typed by hand", "# the end"):
        assert (kept in added) == (kept in text), (layout, kept, added)
    if "\r\n" in text:
        assert "\n" not in added.replace("\r\n", ""), "a CRLF file keeps CRLF"
    removed, event = without_last(parse(added, Path("c.yaml")))
    assert event.to_dict() == NEW.to_dict()
    assert _events(removed) == before
    for kept in ("# our campaign", "# nothing yet", "notes: keep this", "# typed by hand", "# the end"):
        assert (kept in removed) == (kept in text), (layout, kept, removed)


def test_undo_of_an_empty_ledger_is_refused() -> None:
    with pytest.raises(LedgerError) as caught:
        without_last(parse(HEAD + "events: []\n", Path("c.yaml")))
    assert caught.value.diagnostics[0].code == "L009"


def test_undo_refuses_an_unreadable_last_entry_and_names_its_line() -> None:
    text = HEAD + f"events:\n- {FIRST}\n- {{event: place, sticker: coin}}\n"
    with pytest.raises(LedgerError) as caught:
        without_last(parse(text, Path("c.yaml")))
    message = caught.value.diagnostics[0].message
    assert "the last entry (line 5) cannot be read, so undo will not guess what to remove" in message, message


# --- undo finds the last entry from the end of the text ---------------------------------------------
# `without_last` no longer lists every line start of the file (50,000 lines for the last one): it scans back
# from the end (`ledger.line_start`), given the line count (the cache's, or counted). The result must be
# exactly what the full scan gave, in every layout a hand may leave: comments and blank lines after the
# last event, no final line break, CRLF, CR-only or mixed breaks, a byte-order mark, an indented list, a
# last entry over several lines.
ENTRIES = [FIRST, "{event: place, sticker: coin, target: peru-card}", "{event: tick, target: alaska, boxes: 1}",
           "event: place\n{i}  sticker: coin\n{i}  target: brazil-card"]
TAILS = ["", "   ", "\t", "# a comment", "  # an indented comment", "- {event: place, sticker: coin} # no"]


def _full_scan_undo(ledger: Ledger) -> tuple[str, dict] | None:
    """What `without_last` returned before the tail scan, on its fast path (None: it took the parsing path)."""
    import yaml

    from scarbook.campaign.ledger.file import LINE_BREAK, line_starts

    text, last = ledger.text, ledger.events[-1]
    starts = line_starts(text)
    n = last.span.line - 1
    end = starts[n + 1] if n + 1 < len(starts) else len(text)
    entry = LINE_BREAK.sub("", text[starts[n]:end]).lstrip(" ")
    if not ledger.appendable or not entry.startswith("- {") or text[end:].strip():
        return None
    try:
        if yaml.safe_load(entry[2:]) != last.to_dict():
            return None
    except yaml.YAMLError:
        return None
    return text[:starts[n]], last.to_dict()


def _undone(ledger: Ledger, *, parsing: bool = False) -> tuple[str, dict] | str:
    """`without_last` as (text, event), or the code it refused with; `parsing`: as if no tail scan existed."""
    from unittest import mock

    from scarbook.campaign.ledger import text as ledgertext

    try:
        with mock.patch.object(ledgertext, "_last_entry_start", lambda *_: None) if parsing else nullcontext():
            text, event = without_last(ledger)
    except LedgerError as exc:
        return exc.diagnostics[0].code
    return text, event.to_dict()


@st.composite
def _ledgers(draw: st.DrawFn) -> str:
    breaks = st.sampled_from(["\n", "\r\n", "\r"])
    indent = draw(st.sampled_from(["", "  "]))
    lines = ["# our campaign", "campaign: {game: risk-legacy, fingerprint: x, players: [A, B, C]}", "events:"]
    lines += [indent + "- " + draw(st.sampled_from(ENTRIES)).replace("{i}", indent)
              for _ in range(draw(st.integers(1, 3)))]
    lines += draw(st.lists(st.sampled_from(TAILS), max_size=3))
    text = "".join(line + draw(breaks) for line in "\n".join(lines).split("\n"))
    return text if draw(st.booleans()) else text.rstrip("\r\n")


@given(_ledgers())
def test_undo_scans_from_the_end_as_the_full_scan_did(text: str) -> None:
    try:
        ledger = parse(text, Path("c.yaml"))
    except LedgerError:
        return
    if not ledger.events:
        return
    expected = _full_scan_undo(ledger) or _undone(ledger, parsing=True)
    assert _undone(ledger) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_ledgers(), st.booleans())
def test_undo_scans_from_the_end_through_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str,
                                                   bom: bool) -> None:
    """Read through the ledger cache (its line count, not a count of the text), with or without a BOM."""
    from scarbook.campaign.ledger.cache import read

    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "cache"))
    file = tmp_path / "c.yaml"
    file.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    try:
        ledger = parse(text, file)
        read(file)
        cached = read(file)
    except LedgerError:
        return
    if not ledger.events:
        return
    assert cached.cache.get("head", {}).get("lines") or ledger.problems
    assert _undone(cached) == (_full_scan_undo(ledger) or _undone(ledger, parsing=True))


@given(st.text(alphabet="ab \n\r", max_size=40))
def test_a_line_start_from_the_end_is_the_full_scan_s(text: str) -> None:
    from scarbook.campaign.ledger.file import line_count, line_start, line_starts

    starts = line_starts(text)
    assert line_count(text) == len(starts)
    for line in range(1, len(starts) + 1):
        assert line_start(text, line, len(starts)) == starts[line - 1]
    with pytest.raises(ValueError):
        line_start(text, 2, len(starts) + 1)  # a count the text does not have
    with pytest.raises(ValueError):
        line_start(text, len(starts) + 1, len(starts))


# --- an event line written without PyYAML is the line PyYAML writes ---------------------------------
_PLAIN = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,5}( [A-Za-z0-9_-]{1,3}){0,2}", fullmatch=True)
_DATES = st.from_regex(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,3}[ T]?", fullmatch=True)
_WORDS = st.one_of(_PLAIN, _PLAIN, _PLAIN, _DATES, st.text(alphabet="aZ09-_ :#.é'\"", max_size=8),
                   st.sampled_from(["yes", "No", "OFF", "null", "y", "N", "true", "~", "Sunny Glasgow", "as-12",
                                    "1e3", "0x1f", "2026-11-30", ".inf", "a" * 101, "a" * 100, "-a", "a-", "a  b"]))
_VALUES = st.recursive(st.one_of(_WORDS, _WORDS, st.integers(-10**12, 10**12), st.booleans(), st.none()),
                       lambda inner: st.one_of(st.lists(inner, max_size=3),
                                               st.dictionaries(_WORDS, inner, max_size=3)), max_leaves=8)


@settings(max_examples=300)
@given(st.dictionaries(_WORDS, _VALUES, min_size=1, max_size=5))
def test_an_event_of_plain_words_is_written_as_pyyaml_writes_it(data: dict) -> None:
    import yaml

    from scarbook.campaign.ledger.text import _one_line_dumper, _plain_flow

    fast = _plain_flow(data)
    if fast is None:
        return  # left to PyYAML
    out = yaml.dump(data, Dumper=_one_line_dumper(), default_flow_style=True, sort_keys=False, width=1_000_000,
                    allow_unicode=True)
    assert fast == out.strip().removesuffix("...").strip()
    assert yaml.safe_load(fast) == data  # so undo may recognise the line without reading it


def test_the_usual_events_are_written_without_pyyaml() -> None:
    from scarbook.campaign.ledger.text import _plain_flow

    for event in ({"event": "game-end", "winner": "Ann", "held_on": ["Bob"], "eliminated": [], "date": "2026-11-30"},
                  {"event": "place", "sticker": "major-city", "target": "great-britain", "by": "Ann",
                   "name": "Sunny Glasgow"},
                  {"event": "game-start", "play": {"Ann": "khan-industries", "Bob": ["a", "b"]}},
                  {"event": "tick", "target": "as-12", "boxes": 2}):
        assert _plain_flow(event) is not None, event
    for odd in ({"event": "place", "name": "Zoë"}, {"event": "place", "name": "yes"}, {"event": "x", "v": True}):
        assert _plain_flow(odd) is None, odd


# --- every layout, the exact text: appended, that removed again, and the original's last entry removed ---
C = "campaign: {game: risk-legacy, players: [A, B]}"
H = C + "\n"
E1 = "{event: place, sticker: coin, target: alaska-card}"
GS = "{event: game-start, play: {A: [f1, f2], B: f3}}"
N = "{event: place, sticker: coin, target: peru-card}"  # NEW as with_event writes it
TEXTS = {
    # appendable: one more `- {...}` line at the end
    "block at end": H + f"events:\n- {E1}\n",
    "block at end, indented, no final newline": H + f"events:\n    - {E1}",
    "block at end, CRLF": (H + f"events:\n  - {E1}\n").replace("\n", "\r\n"),
    "block at end, CR only": (H + f"events:\n- {E1}\n").replace("\n", "\r"),
    "block at end, comments after it": H + f"events:\n- {E1}  # mine\n# later\n\n",
    "block, two-line flow entry": H + "events:\n- {event: place,\n   sticker: coin, target: alaska-card}\n",
    "block, hand-typed entry at end": H + "events:\n- event: place\n  sticker: coin\n  target: alaska-card\n",
    "block, an unreadable entry before": H + f"events:\n- {{event: bogus}}\n- {E1}\n",
    "events: [] at end": H + "events: []\n",
    "events: [] CRLF": (H + "events: []\n").replace("\n", "\r\n"),
    "events: [] then blank lines": H + "events: [] \n\n",
    "events: [] no final newline": H + "events: []",
    "events: then a comment": H + "events:\n# none yet\n",
    # the checked paths: the entry goes where the list ends
    "no events key": H,
    "no events key, CRLF": H.replace("\n", "\r\n"),
    "no events key, no final newline": H.rstrip("\n"),
    "no top-level events key, one nested": "campaign:\n  game: risk-legacy\n  players: [A, B]\n  events: nested\n",
    "document marker, events: at end": "---\n" + H + "events:\n",
    "document marker, events: at end, no final newline": "---\n" + H + "events:",
    "events: then comments and a key": H + "events:  # none\n  # c\n\nnotes: x\n",
    "events: ~ then a key": H + "events: ~  # c\nnotes: x\n",
    "events: null, no final newline": "---\n" + H + "events: null",
    "events: [] then a comment": H + "events: []   \n# c\n",
    "events: [ ] then a key": H + "events: [ ]\nnotes: x\n",
    "nested events key, top-level []": ("---\ncampaign:\n  game: risk-legacy\n  players: [A, B]\n"
                                        "  events: [x]\nevents: []\n"),
    "flow, one entry then a key": H + f"events: [{E1}]  # typed by hand\nnotes: x\n",
    "flow, two entries one line": H + f"events: [{GS}, {E1}]\n",
    "flow, entries on their own lines": H + f"events: [\n  {GS},\n  {E1}  # two\n]\n",
    "flow, entry alone on its line, CRLF": (H + f"events: [\n  {E1} \t\n]\n").replace("\n", "\r\n"),
    "flow, entry alone on its line, CR only": (H + f"events: [\n  {E1}\n]\n").replace("\n", "\r"),
    "flow, comment after the comma": H + f"events: [{E1},  # first\n  {E1}]\n",
    "flow, aliases": H + f"events: [&a {E1}, *a]\nnotes: x\n",
    "flow, tagged": H + f"events: !!seq [{E1}]\n",
    "block then a key": H + f"events:\n  - {E1}\n\n  # c\nnotes: x\n",
    "block, nested entries, then a key": H + f"events:\n- {GS}\n- {E1}\nnotes: x\n",
    "block, hand-typed nested entry last": H + (f"events:\n- {E1}\n- event: game-start\n  play:\n"
                                                 "    A: [f1, f2]\n    B: f3\nnotes: x\n"),
    "block, aliases": H + f"events:\n- &a {E1}\n- *a\nnotes: x\n",
    "block, events first": f"events:\n- {E1}\n" + H,
    "block, a value named events before": ("notes: [events, {events: 1}]\nother: events\n" + H
                                           + f"events:\n- {E1}\nlast: 1\n"),
    "block, document marker, no final newline": "---\n" + H + f"events:\n- {E1}",
    "block, document marker, comment at end": "---\n" + H + f"events:\n- {E1}\n# end\n",
    "block, complex key before": "? [a, b]\n: c\n" + H + f"events:\n- {E1}\n",
    # the scanner (`_events_node`) finds the top-level key after a plain value, a complex key, null spellings
    "block after a plain value, then a key": H + f"notes: x\nevents:\n- {E1}\nlast: 1\n",
    "block, complex key before, document marker": "---\n? [a, b]\n: c\n" + H + f"events:\n- {E1}\n",
    "events: Null then a key": H + "events: Null\nnotes: x\n",
    "events: NULL then a key": H + "events: NULL\nnotes: x\n",
    "flow, a comma in the comment after the comma": H + f"events: [{E1},  # x, y\n  {E1}]\n",
    "flow, a space before the bracket": H + f"events: [{E1}, {E1} ]\n",
    "flow, entry alone on its line": H + f"events: [\n  {E1}\n]\n",
    "block, hand-typed entry ending in []": H + "events:\n- event: game-end\n  winner: A\n  eliminated: []\n",
    "events: [] after a blank first line": "\n" + H + "events: []\n",
    "no events key, CR only": H.replace("\n", "\r"),
    "document marker, events: at end, CR only": ("---\n" + H + "events:\n").replace("\n", "\r"),
}
SAME = "the text appended to"
C_X_Y = "  # x, y\n  "
EXPECTED = {  # layout: (with NEW appended, that undone, the original undone ("ERR L009": nothing to undo))
    "block after a plain value, then a key": (
        f"{C}\nnotes: x\nevents:\n- {E1}\n- {N}\nlast: 1\n",
        SAME,
        f"{C}\nnotes: x\nevents:\nlast: 1\n",
    ),
    "block, complex key before, document marker": (
        f"---\n? [a, b]\n: c\n{C}\nevents:\n- {E1}\n- {N}\n",
        SAME,
        f"---\n? [a, b]\n: c\n{C}\nevents:\n",
    ),
    "flow, a space before the bracket": (
        f"{C}\nevents: [{E1}, {E1}, {N} ]\n",
        SAME,
        f"{C}\nevents: [{E1} ]\n",
    ),
    "flow, entry alone on its line": (
        f"{C}\nevents: [\n  {E1}, {N}\n]\n",
        f"{C}\nevents: [\n  {E1} \n]\n",
        f"{C}\nevents: [\n]\n",
    ),
    "block, hand-typed entry ending in []": (  # the `[]` of an entry is not the empty list `events: []`
        f"{C}\nevents:\n- event: game-end\n  winner: A\n  eliminated: []\n- {N}\n",
        SAME,
        f"{C}\nevents:\n",
    ),
    "events: [] after a blank first line": (f"\n{C}\nevents:\n- {N}\n", f"\n{C}\nevents:\n", "ERR L009"),
    "no events key, CR only": (f"{C}\revents:\r- {N}\r", f"{C}\revents:\r", "ERR L009"),
    "document marker, events: at end, CR only": (f"---\r{C}\revents:\r- {N}\r", SAME, "ERR L009"),
    "events: Null then a key": (f"{C}\nevents: [{N}]\nnotes: x\n", f"{C}\nevents: []\nnotes: x\n", "ERR L009"),
    "events: NULL then a key": (f"{C}\nevents: [{N}]\nnotes: x\n", f"{C}\nevents: []\nnotes: x\n", "ERR L009"),
    "flow, a comma in the comment after the comma": (  # the comma removed is the first one after the entry
        f"{C}\nevents: [{E1},{C_X_Y}{E1}, {N}]\n",
        f"{C}\nevents: [{E1},{C_X_Y}{E1} ]\n",
        f"{C}\nevents: [{E1}{C_X_Y}]\n",
    ),
    "block at end": (
        f"{C}\nevents:\n- {E1}\n- {N}\n",
        SAME,
        f"{C}\nevents:\n",
    ),
    "block at end, indented, no final newline": (
        f"{C}\nevents:\n    - {E1}\n    - {N}\n",
        f"{C}\nevents:\n    - {E1}\n",
        f"{C}\nevents:\n",
    ),
    "block at end, CRLF": (
        f"{C}\r\nevents:\r\n  - {E1}\r\n  - {N}\r\n",
        SAME,
        f"{C}\r\nevents:\r\n",
    ),
    "block at end, CR only": (
        f"{C}\revents:\r- {E1}\r- {N}\r",
        SAME,
        f"{C}\revents:\r",
    ),
    "block at end, comments after it": (
        f"{C}\nevents:\n- {E1}  # mine\n# later\n\n- {N}\n",
        SAME,
        f"{C}\nevents:\n# later\n\n",
    ),
    "block, two-line flow entry": (
        f"{C}\nevents:\n- {{event: place,\n   sticker: coin, target: alaska-card}}\n- {N}\n",
        SAME,
        f"{C}\nevents:\n",
    ),
    "block, hand-typed entry at end": (
        f"{C}\nevents:\n- event: place\n  sticker: coin\n  target: alaska-card\n- {N}\n",
        SAME,
        f"{C}\nevents:\n",
    ),
    "block, an unreadable entry before": (
        f"{C}\nevents:\n- {{event: bogus}}\n- {E1}\n- {N}\n",
        SAME,
        f"{C}\nevents:\n- {{event: bogus}}\n",
    ),
    "events: [] at end": (
        f"{C}\nevents:\n- {N}\n",
        f"{C}\nevents:\n",
        "ERR L009",
    ),
    "events: [] CRLF": (
        f"{C}\r\nevents:\r\n- {N}\r\n",
        f"{C}\r\nevents:\r\n",
        "ERR L009",
    ),
    "events: [] then blank lines": (
        f"{C}\nevents:\n- {N}\n",
        f"{C}\nevents:\n",
        "ERR L009",
    ),
    "events: [] no final newline": (
        f"{C}\nevents:\n- {N}\n",
        f"{C}\nevents:\n",
        "ERR L009",
    ),
    "events: then a comment": (
        f"{C}\nevents:\n# none yet\n- {N}\n",
        SAME,
        "ERR L009",
    ),
    "no events key": (
        f"{C}\nevents:\n- {N}\n",
        f"{C}\nevents:\n",
        "ERR L009",
    ),
    "no events key, CRLF": (
        f"{C}\r\nevents:\r\n- {N}\r\n",
        f"{C}\r\nevents:\r\n",
        "ERR L009",
    ),
    "no events key, no final newline": (
        f"{C}\nevents:\n- {N}\n",
        f"{C}\nevents:\n",
        "ERR L009",
    ),
    "no top-level events key, one nested": (
        f"campaign:\n  game: risk-legacy\n  players: [A, B]\n  events: nested\nevents:\n- {N}\n",
        "campaign:\n  game: risk-legacy\n  players: [A, B]\n  events: nested\nevents:\n",
        "ERR L009",
    ),
    "document marker, events: at end": (
        f"---\n{C}\nevents:\n- {N}\n",
        SAME,
        "ERR L009",
    ),
    "document marker, events: at end, no final newline": (
        f"---\n{C}\nevents:\n- {N}\n",
        f"---\n{C}\nevents:\n",
        "ERR L009",
    ),
    "events: then comments and a key": (
        f"{C}\nevents:  # none\n- {N}\n  # c\n\nnotes: x\n",
        SAME,
        "ERR L009",
    ),
    "events: ~ then a key": (
        f"{C}\nevents: [{N}]  # c\nnotes: x\n",
        f"{C}\nevents: []  # c\nnotes: x\n",
        "ERR L009",
    ),
    "events: null, no final newline": (
        f"---\n{C}\nevents: [{N}]",
        f"---\n{C}\nevents: []",
        "ERR L009",
    ),
    "events: [] then a comment": (
        f"{C}\nevents: [{N}]   \n# c\n",
        SAME,
        "ERR L009",
    ),
    "events: [ ] then a key": (
        f"{C}\nevents: [ {N}]\nnotes: x\n",
        SAME,
        "ERR L009",
    ),
    "nested events key, top-level []": (
        f"---\ncampaign:\n  game: risk-legacy\n  players: [A, B]\n  events: [x]\nevents: [{N}]\n",
        SAME,
        "ERR L009",
    ),
    "flow, one entry then a key": (
        f"{C}\nevents: [{E1}, {N}]  # typed by hand\nnotes: x\n",
        f"{C}\nevents: [{E1} ]  # typed by hand\nnotes: x\n",
        f"{C}\nevents: []  # typed by hand\nnotes: x\n",
    ),
    "flow, two entries one line": (
        f"{C}\nevents: [{GS}, {E1}, {N}]\n",
        f"{C}\nevents: [{GS}, {E1} ]\n",
        f"{C}\nevents: [{GS} ]\n",
    ),
    "flow, entries on their own lines": (
        f"{C}\nevents: [\n  {GS},\n  {E1}, {N}  # two\n]\n",
        f"{C}\nevents: [\n  {GS},\n  {E1} # two\n]\n",
        f"{C}\nevents: [\n  {GS}\n  # two\n]\n",
    ),
    "flow, entry alone on its line, CRLF": (
        f"{C}\r\nevents: [\r\n  {E1}, {N} \t\r\n]\r\n",
        f"{C}\r\nevents: [\r\n  {E1} \r\n]\r\n",
        f"{C}\r\nevents: [\r\n]\r\n",
    ),
    "flow, entry alone on its line, CR only": (
        f"{C}\revents: [\r  {E1}, {N}\r]\r",
        f"{C}\revents: [\r  {E1} \r]\r",
        f"{C}\revents: [\r]\r",
    ),
    "flow, comment after the comma": (
        f"{C}\nevents: [{E1},  # first\n  {E1}, {N}]\n",
        f"{C}\nevents: [{E1},  # first\n  {E1} ]\n",
        f"{C}\nevents: [{E1}  # first\n  ]\n",
    ),
    "flow, aliases": (
        f"{C}\nevents: [&a {E1}, *a, {N}]\nnotes: x\n",
        f"{C}\nevents: [&a {E1}, *a ]\nnotes: x\n",
        f"{C}\nevents: [&a {E1} ]\nnotes: x\n",
    ),
    "flow, tagged": (
        f"{C}\nevents: !!seq [{E1}, {N}]\n",
        f"{C}\nevents: !!seq [{E1} ]\n",
        f"{C}\nevents: !!seq []\n",
    ),
    "block then a key": (
        f"{C}\nevents:\n  - {E1}\n  - {N}\n\n  # c\nnotes: x\n",
        SAME,
        f"{C}\nevents:\n\n  # c\nnotes: x\n",
    ),
    "block, nested entries, then a key": (
        f"{C}\nevents:\n- {GS}\n- {E1}\n- {N}\nnotes: x\n",
        SAME,
        f"{C}\nevents:\n- {GS}\nnotes: x\n",
    ),
    "block, hand-typed nested entry last": (
        (f"{C}\nevents:\n- {E1}\n- event: game-start\n  play:\n    A: [f1, f2]\n    B: f3\n- {N}\n"
         "notes: x\n"),
        SAME,
        f"{C}\nevents:\n- {E1}\nnotes: x\n",
    ),
    "block, aliases": (
        f"{C}\nevents:\n- &a {E1}\n- *a\n- {N}\nnotes: x\n",
        SAME,
        f"{C}\nevents:\n- &a {E1}\nnotes: x\n",
    ),
    "block, events first": (
        f"events:\n- {E1}\n- {N}\n{C}\n",
        SAME,
        f"events:\n{C}\n",
    ),
    "block, a value named events before": (
        f"notes: [events, {{events: 1}}]\nother: events\n{C}\nevents:\n- {E1}\n- {N}\nlast: 1\n",
        SAME,
        f"notes: [events, {{events: 1}}]\nother: events\n{C}\nevents:\nlast: 1\n",
    ),
    "block, document marker, no final newline": (
        f"---\n{C}\nevents:\n- {E1}\n- {N}\n",
        f"---\n{C}\nevents:\n- {E1}\n",
        f"---\n{C}\nevents:\n",
    ),
    "block, document marker, comment at end": (
        f"---\n{C}\nevents:\n- {E1}\n- {N}\n# end\n",
        SAME,
        f"---\n{C}\nevents:\n# end\n",
    ),
    "block, complex key before": (
        f"? [a, b]\n: c\n{C}\nevents:\n- {E1}\n- {N}\n",
        SAME,
        f"? [a, b]\n: c\n{C}\nevents:\n",
    ),
}


@pytest.mark.parametrize("layout", TEXTS, ids=list(TEXTS))
def test_the_exact_text_of_append_and_undo(layout: str) -> None:
    text = TEXTS[layout]
    appended, back, undone = EXPECTED[layout]
    assert with_event(parse(text, Path("c.yaml")), NEW) == appended
    again, event = without_last(parse(appended, Path("c.yaml")))
    assert (again, event.to_dict()) == (text if back is SAME else back, NEW.to_dict())
    if undone == "ERR L009":
        with pytest.raises(LedgerError) as caught:
            without_last(parse(text, Path("c.yaml")))
        assert [(str(d.span), d.code, d.message) for d in caught.value.diagnostics] == [
            ("c.yaml:1:1", "L009", "there is no event to undo; nothing was written")]
    else:
        ledger = parse(text, Path("c.yaml"))
        cut, last = without_last(ledger)
        assert (cut, last.to_dict()) == (undone, ledger.events[-1].to_dict())


def test_append_after_events_brackets_and_a_comment_still_reads_back() -> None:
    # `place` on `events: []` followed by a comment line appended `- {...}` under `events: []`: the file
    # no longer parsed (hidden while the cache vouched for it; a cold `check` said Y001)
    text = H + "events: []\n# nothing yet\n"
    appended = with_event(parse(text, Path("c.yaml")), NEW)
    assert appended == H + "events: [{event: place, sticker: coin, target: peru-card}]\n# nothing yet\n"
    assert _events(appended) == [NEW.to_dict()]


@pytest.mark.parametrize(("value", "written"), [
    ("plain", "plain"), ("Zoë", "Zoë"), ("\xa0", "\xa0"), ("", "''"), (" ", "' '"), ("yes", "'yes'"),
    ("a: b", "'a: b'"), ("a\nb", '"a\\nb"'), ("\x00", '"\\0"'), ("\x1f", '"\\x1F"'), ("\x7f", '"\\x7F"'),
    ("\x80", '"\\x80"'), ("\x9f", '"\\x9F"'), ("\u2028", '"\\L"'), ("\u2029", '"\\P"'), ("\ufeff", '"\\uFEFF"'),
    ("x" * 200, "x" * 200), ("a b " * 40 + "c", "a b " * 40 + "c"),  # never wrapped, not even at spaces
])
def test_dump_event_writes_one_line_escaping_line_breaks_and_control_characters(value: str, written: str) -> None:
    assert dump_event({"event": "place", "name": value}) == f"{{event: place, name: {written}}}"


def test_dump_event_keeps_the_key_order_and_nests_in_flow_style() -> None:
    assert dump_event({"z": 1, "a": [1, 2], "m": {"k": "v"}}) == "{z: 1, a: [1, 2], m: {k: v}}"


def test_render_wraps_the_players_at_100_columns() -> None:
    players = ["p" * 11] + [f"player-{i:02d}" for i in range(8)]
    assert render("", "g", "f", players[1:], []).splitlines()[-2] == "  players: [" + ", ".join(players[1:]) + "]"
    assert render("", "g", "f", players, []).splitlines()[-3:-1] == [
        "  players: [" + ", ".join(players[:-1]) + ",", "    player-07]"]


def test_render_writes_the_canonical_layout() -> None:
    assert render("", "risk-legacy", "abc", ["Ann", "Bob"], []) == (
        HEADER_COMMENT + "campaign:\n  format: 2\n  game: risk-legacy\n  fingerprint: abc\n  players: [Ann, Bob]\n"
        "events:\n")
    events = [{"event": "place", "sticker": "coin", "target": "peru-card", "name": "a\nb"}, {"event": "pass"}]
    assert render("Our war", "risk-legacy", "abc", ["Ann", "Zoë"], events) == (
        HEADER_COMMENT + "campaign:\n  format: 2\n  name: Our war\n  game: risk-legacy\n  fingerprint: abc\n"
        "  players: [Ann, Zoë]\n"
        'events:\n- {event: place, sticker: coin, target: peru-card, name: "a\\nb"}\n- {event: pass}\n')


APPEND_REFUSED = ("L011", "cannot append the event without rewriting the hand-edited file; nothing was written (keep "
                  "the events as a list under 'events:' with one '- {...}' entry per event, or add the event by hand)")


@pytest.mark.parametrize("text", [
    H + "events: &e []\ncopy: *e\n",  # the list is also `copy`: appending would change it too
    H + f"events: &e\n- {E1}\ncopy: *e\n",
    H + f"events: &e [{E1}]\ncopy: *e\n",
    H + "x: &n ~\nevents: *n\n",  # an alias to null: inserting there would change `x` or the anchor
    H + "? events\n:\nnotes: x\n",  # an entry after `? events` would not be YAML: never written
], ids=["empty flow", "block", "flow", "alias to null", "complex-key syntax"])
def test_append_refuses_where_the_text_cannot_take_the_event_alone(text: str) -> None:
    with pytest.raises(LedgerError) as caught:
        with_event(parse(text, Path("c.yaml")), NEW)
    assert [(str(d.span), d.code, d.message) for d in caught.value.diagnostics] == [("c.yaml:1:1", *APPEND_REFUSED)]


@pytest.mark.parametrize(("text", "line"), [(H + f"events: &e\n- {E1}\ncopy: *e\n", 3),
                                            (H + f"events: &e [{E1}]\ncopy: *e\n", 2)], ids=["block", "flow"])
def test_undo_refuses_where_the_text_cannot_lose_the_event_alone(text: str, line: int) -> None:
    with pytest.raises(LedgerError) as caught:
        without_last(parse(text, Path("c.yaml")))
    assert [(str(d.span), d.code, d.message) for d in caught.value.diagnostics] == [
        ("c.yaml:1:1", "L011", "cannot remove the last event without rewriting the hand-edited file; nothing was "
         f"written (delete the entry at line {line} by hand)")]


REFUSED = "the last entry (line {}) cannot be read, so undo will not guess what to remove: "
UNDO_REFUSALS = {
    "last entry unreadable": (H + "events:\n- {event: bogus}\n- {event: place}\n", "c.yaml:4:3", "L003",
                              REFUSED.format(4) + "a 'place' event needs 'sticker'"),
    "only entry unreadable": (H + "events: [{event: place}]\n", "c.yaml:2:10", "L003",
                              REFUSED.format(2) + "a 'place' event needs 'sticker'"),
    "duplicate key in the last entry": (
        H + f"events:\n- {E1}\n- {{event: place, sticker: coin, target: peru-card, target: peru-card}}\n",
        "c.yaml:4:3", "Y003",
        REFUSED.format(4) + "line 4: duplicate key 'target' (first at line 4); remove one of them"),
    "duplicate key after the events": (
        H + f"events:\n- {E1}\nx: 1\nx: 2\n", "c.yaml:3:3", "Y003",
        REFUSED.format(3) + "line 5: duplicate key 'x' (first at line 4); remove one of them"),
}


@pytest.mark.parametrize("case", UNDO_REFUSALS, ids=list(UNDO_REFUSALS))
def test_undo_refuses_an_unreadable_last_entry_word_for_word(case: str) -> None:
    text, span, code, message = UNDO_REFUSALS[case]
    with pytest.raises(LedgerError) as caught:
        without_last(parse(text, Path("c.yaml")))
    assert [(str(d.span), d.severity.value, d.code, d.message) for d in caught.value.diagnostics] == [
        (span, "error", code, message + "; nothing was written (fix or delete that entry by hand)")]


def test_undo_keeps_an_unreadable_entry_before_the_last() -> None:
    text = H + f"events:\n- {{event: bogus}}\n- {E1}  # kept? no: this line goes\n# a comment stays\n"
    cut, last = without_last(parse(text, Path("c.yaml")))
    assert cut == H + "events:\n- {event: bogus}\n# a comment stays\n"
    assert last.to_dict() == {"event": "place", "sticker": "coin", "target": "alaska-card"}


# --- a property: in any block layout a hand may leave, appending then undoing gives the text back ---
ONE_LINE = [E1, GS, "{event: place, sticker: bunker, target: peru}",
            "{event: place, sticker: bunker, target: peru, name: 'x # y'}"]


@st.composite
def block_ledgers(draw: st.DrawFn) -> str:
    nl = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    indent = draw(st.sampled_from(["", "  ", "    "]))
    filler = st.sampled_from(["", "# a note", "  # indented note", "   "])
    lines = [draw(st.sampled_from(["", "---", "# our campaign"])), H.rstrip("\n"), "events:"]
    for _ in range(draw(st.integers(0, 4))):
        lines += draw(st.lists(filler, max_size=2))
        if draw(st.booleans()):
            lines.append(f"{indent}- {draw(st.sampled_from(ONE_LINE))}")
        else:
            lines += [f"{indent}- event: place", f"{indent}  sticker: coin", f"{indent}  target: alaska-card"]
    lines += draw(st.lists(filler, max_size=2))
    if draw(st.booleans()):
        lines.append("notes: {kept: true}")
    return nl.join(lines) + draw(st.sampled_from([nl, ""]))


@given(text=block_ledgers(), name=st.text(max_size=12))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_append_then_undo_gives_back_the_text(text: str, name: str) -> None:
    new = parse_event({"event": "place", "sticker": "coin", "target": "peru-card", "name": name}, Span("x"), 0)
    assert not isinstance(new, ParseProblem)
    ledger = parse(text, Path("c.yaml"))
    before = [e.to_dict() for e in ledger.events]
    appended = with_event(ledger, new)
    assert _events(appended) == [*before, new.to_dict()]
    again, event = without_last(parse(appended, Path("c.yaml")))
    nl = newline_of(text)  # an entry appended at the very end brings a final line break the text lacked
    assert again == text if text.endswith(nl) else again in (text, text + nl)
    assert event.to_dict() == new.to_dict()
    if before:
        cut, last = without_last(ledger)
        assert _events(cut) == before[:-1] and last.to_dict() == before[-1]
        assert ("notes: {kept: true}" in cut) == ("notes: {kept: true}" in text)


# --- speed: appending to or undoing the last line of a scarbook-written ledger reads no more than that line ---
@pytest.fixture
def parsed_lengths(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text a YAML loader is given from now on (libyaml's loader, which scarbook uses)."""
    import yaml

    seen: list[int] = []
    real = yaml.CSafeLoader.__init__

    def init(self: object, stream: str) -> None:
        seen.append(len(stream))
        real(self, stream)  # type: ignore[arg-type]

    monkeypatch.setattr(yaml.CSafeLoader, "__init__", init)
    return seen


@pytest.mark.parametrize(("indent", "nl"), [("", "\n"), ("  ", "\n"), ("    ", "\r\n")], ids=["LF", "indented", "CRLF"])
def test_undo_of_the_last_line_parses_only_that_line(indent: str, nl: str, parsed_lengths: list[int]) -> None:
    entries = [f"{indent}- {{event: place, sticker: coin, target: t{n}}}" for n in range(300)]
    text = nl.join([*HEAD.splitlines(), "events:", *entries]) + nl
    ledger = parse(text, Path("c.yaml"))
    parsed_lengths.clear()
    cut, last = without_last(ledger)
    assert cut == text[: -len(entries[-1] + nl)] and last.to_dict()["target"] == "t299"
    assert all(n < 100 for n in parsed_lengths), parsed_lengths  # the last line at most (a plain one: none)
    parsed_lengths.clear()
    assert with_event(ledger, NEW) == text + f"{indent}- {N}{nl}"
    assert parsed_lengths == []


@pytest.mark.parametrize(("events", "left"), [
    ("[{event: open, envelope: a},  # x, y\n  {event: open, envelope: b}]", "[{event: open, envelope: a}  # x, y\n  ]"),
    ("[{event: open, envelope: a}  # x, y\n  , {event: open, envelope: b}]",
     "[{event: open, envelope: a}  # x, y\n   ]"),
    ("[{event: open, envelope: a}  #x,y\n,{event: open, envelope: b}]", "[{event: open, envelope: a}  #x,y\n]"),
])
def test_undo_in_a_flow_list_keeps_a_comma_of_a_comment(events: str, left: str) -> None:
    """The comma removed with the last flow entry is the one between the entries, never one in a comment
    before it (the comment used to lose its comma and the stray real one stayed)."""
    head = "campaign: {game: g, players: [A]}\nevents: "
    cut, last = without_last(parse(head + events + "\n", Path("c.yaml")))
    assert cut == head + left + "\n" and last.to_dict() == {"event": "open", "envelope": "b"}


@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_undo_of_a_plain_last_line_reads_no_yaml_and_takes_the_cached_line_count(
        nl: str, parsed_lengths: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15's O(1) undo: a last line as scarbook writes it (plain words) is recognised without YAML, and with
    a cache entry of these bytes its line count comes from there: the text is neither parsed nor counted."""
    from scarbook.campaign.ledger import text as ledgertext

    entries = [f"  - {{event: place, sticker: coin, target: t{n}}}" for n in range(300)]
    text = nl.join([*HEAD.splitlines(), "events:", *entries]) + nl
    ledger = parse(text, Path("c.yaml"))
    real = ledgertext.line_count
    lines = real(text)
    parsed_lengths.clear()
    counted: list[str] = []
    monkeypatch.setattr(ledgertext, "line_count", lambda t: counted.append(t) or real(t))
    for cache, counts in (({"head": {"lines": lines}}, 0), ({"head": {"lines": "x"}}, 1), ({"head": {}}, 1),
                          ({"head": {"lines": 3}}, 1), ({}, 1)):  # fewer lines than the last event's: not this text
        ledger.cache = cache
        counted.clear()
        cut, last = without_last(ledger)
        assert cut == text[: -len(entries[-1] + nl)] and last.to_dict()["target"] == "t299"
        assert len(counted) == counts, (cache, counted)
    assert parsed_lengths == []  # recognised as written: no YAML at all
    odd = text[: -len(entries[-1] + nl)] + "  - {event: place, sticker: coin, target: 'Zoë'}" + nl
    cut, last = without_last(parse(odd, Path("c.yaml")))
    assert cut == text[: -len(entries[-1] + nl)] and last.to_dict()["target"] == "Zoë"


# --- the comma between two flow entries, read directly -----------------------------------------------------
@pytest.mark.parametrize(("text", "start", "end", "found"), [
    (" , ", 0, 3, 1),
    ("  ", 0, 2, -1),  # none: -1 exactly
    (" ,", 0, 1, -1),  # the end is not searched (a comma there is past the gap)
    ("# c, x\n, y", 0, 10, 7),  # a comment at the very start of the text
    ("a #c, b\n, z", 1, 11, 8),  # a comment after a blank
    ("ab#c, b\n, z", 2, 11, 4),  # '#' glued to text is no comment
    ("aX#c, b\n, z", 2, 11, 4),
    ("a #c\n, b\n, z", 1, 12, 5),  # the comment ends at its own line's end, not a later one
    ("a #c\r, b\r, z", 1, 12, 5),  # ...ended by a CR alone
    ("a #c\r\n, b\r\n, z", 1, 14, 6),
    ("a\r #c\n, b", 1, 9, 6),  # a CR before the comment is not its end
    ("a #c, still the comment", 1, 23, -1),  # a comment up to the end
])
def test_the_comma_between_flow_entries(text: str, start: int, end: int, found: int) -> None:
    assert ledgertext._comma_between(text, start, end) == found


@pytest.mark.parametrize("earlier", ["", "  recorded_under: [{release: 0.1.0, fingerprint: 0123456789abcdef}]\n",
                                     "  recorded_under:\n  - {release: 0.1.0, fingerprint: 0123456789abcdef}\n",
                                     "  recorded_under:\n    - {release: 0.1.0, fingerprint: 0123456789abcdef}\n"
                                     "  name: The long war\n"])
def test_a_stretch_is_added_to_those_recorded_without_loading_the_file_again(
        earlier: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import yaml

    text = ("campaign:\n  game: risk-legacy\n  players: [Ann, Bob]\n" + earlier
            + "events:\n" + "".join(f"- {{event: game-start, n: {i}}}\n" for i in range(50)))
    entry = {"release": "0.3.0", "fingerprint": "fedcba9876543210"}

    def refused(*args: object, **kwargs: object) -> object:
        raise AssertionError("the whole file loaded again (PyYAML's Python loader: seconds on a long campaign)")

    monkeypatch.setattr(yaml, "safe_load", refused)
    out = ledgertext.with_stretch(text, entry)
    monkeypatch.undo()
    stretches = yaml.safe_load(out)["campaign"]["recorded_under"]
    assert stretches[-1] == entry and len(stretches) == (2 if earlier else 1)
    assert out.endswith(text[text.index("events:"):])  # the events untouched
    assert yaml.safe_load(out)["campaign"]["players"] == ["Ann", "Bob"]
    assert ("name: The long war\n" in out) == ("name:" in earlier)  # a key after a hand-written list keeps its line
