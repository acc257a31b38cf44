"""The ledger's text edited as text (campaign/ledgertext.py), in every layout a hand may leave it.

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

from scarbook.campaign.events import parse_event
from scarbook.campaign.ledger import Ledger, LedgerError, parse
from scarbook.campaign.ledgertext import with_event, without_last
from scarbook.compiler.diagnostics import Span

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

    from scarbook.campaign.ledger import LINE_BREAK, line_starts

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

    from scarbook.campaign import ledgertext

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
    from scarbook.campaign.ledgercache import read

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
    from scarbook.campaign.ledger import line_count, line_start, line_starts

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

    from scarbook.campaign.ledgertext import _one_line_dumper, _plain_flow

    fast = _plain_flow(data)
    if fast is None:
        return  # left to PyYAML
    out = yaml.dump(data, Dumper=_one_line_dumper(), default_flow_style=True, sort_keys=False, width=1_000_000,
                    allow_unicode=True)
    assert fast == out.strip().removesuffix("...").strip()
    assert yaml.safe_load(fast) == data  # so undo may recognise the line without reading it


def test_the_usual_events_are_written_without_pyyaml() -> None:
    from scarbook.campaign.ledgertext import _plain_flow

    for event in ({"event": "game-end", "winner": "Ann", "held_on": ["Bob"], "eliminated": [], "date": "2026-11-30"},
                  {"event": "place", "sticker": "major-city", "target": "great-britain", "by": "Ann",
                   "name": "Sunny Glasgow"},
                  {"event": "game-start", "play": {"Ann": "khan-industries", "Bob": ["a", "b"]}},
                  {"event": "tick", "target": "as-12", "boxes": 2}):
        assert _plain_flow(event) is not None, event
    for odd in ({"event": "place", "name": "Zoë"}, {"event": "place", "name": "yes"}, {"event": "x", "v": True}):
        assert _plain_flow(odd) is None, odd
