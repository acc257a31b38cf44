"""Notes on events (issue 37): `--note TEXT` on every recording command, kept as the event's optional `note`
field in the ledger, shown by `log` (text and JSON), `diff` and `chronicle`; a ledger without notes reads as
before; a note with line breaks, YAML syntax and HTML round-trips; a note too long or with control characters is
refused (L020) and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from campaigns.helpers import invoke, playing_bytes, setup_bytes

from conftest import refused, snapshot
from scarbook.campaign.events import MAX_NOTE_CHARS, event_fields, event_from_fields, parse_event
from scarbook.campaign.ledger.cache import read
from scarbook.campaign.ledger.file import parse
from scarbook.campaign.ledger.stretches import digest
from scarbook.kernel.diagnostics import Span

HOSTILE = ('Bob agreed: "fine", we\'ll see\n- not a list item\n  # not a comment\n{event: destroy, card: x}\n'
           "<script>window.pwned=1</script> & &amp; *alias !tag %YAML 'q' \\ back\ttab: ünïcödé ✓")


@pytest.fixture
def playing(tmp_path: Path) -> Path:
    file = tmp_path / "c.yaml"
    file.write_bytes(playing_bytes())
    return file


def _json_log(file: Path) -> list[dict]:
    done = invoke(["log", "--format", "json"], file)
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def test_a_hostile_note_round_trips_through_the_ledger_the_cache_and_log(playing: Path) -> None:
    done = invoke(["place", "bunker", "peru", "--by", "Ann", "--note", HOSTILE], playing)
    assert done.exit_code == 0, done.output
    text = playing.read_text("utf-8")
    last = text.rstrip("\n").splitlines()[-1]
    assert last.startswith("- {event: place, sticker: bunker") and "note: " in last  # still one line
    fresh = parse(text, playing).events[-1]
    assert fresh.note == HOSTILE and not parse(text, playing).problems
    assert read(playing).events[-1].note == HOSTILE  # through the cache (written by the command)
    assert read(playing).events[-1].note == HOSTILE  # and read back from it
    assert _json_log(playing)[-1]["event"]["note"] == HOSTILE
    shown = invoke(["log"], playing).output.splitlines()
    at = next(i for i, line in enumerate(shown) if "bunker" in line)
    assert shown[at + 1] == '    note: Bob agreed: "fine", we\'ll see'
    assert shown[at + 2] == "          - not a list item"
    assert invoke(["check"], playing).exit_code == 0


def test_a_ledger_without_notes_reads_as_before() -> None:
    """An old event: no `note` key in its dict, nothing more in its cache form, the stretch digest as it was."""
    data = {"event": "place", "sticker": "coin", "target": "alaska-card"}
    event = parse_event(data, Span("x"), 0)
    assert not isinstance(event, type(None)) and event.note == ""  # type: ignore[union-attr]
    assert event.to_dict() == data  # type: ignore[union-attr]
    assert event_fields(event) == ["place", "coin", "alaska-card", "", "", None, ""]  # type: ignore[arg-type]
    noted = parse_event({**data, "note": "ours"}, Span("x"), 0)
    assert event_from_fields(event_fields(noted), Span("x"), 0) == noted  # type: ignore[arg-type]
    assert event_from_fields(event_fields(event), Span("x"), 0) == event  # type: ignore[arg-type]
    # a note added or edited by hand later does not make an earlier stretch look changed (L018)
    assert digest([noted]) == digest([event])  # type: ignore[list-item]


def test_every_kind_of_event_takes_a_note_and_writes_it_last() -> None:
    from scarbook.campaign.events import EVENT_TYPES

    samples = {"game-start": {"play": {"Ann": "x"}}, "game-end": {"winner": "Ann"}, "place": {"sticker": "s",
               "target": "t"}, "destroy": {"card": "c"}, "open": {"envelope": "e"}, "add-pack": {"pack": "p"},
               "link": {"sticker": "s", "a": "a", "b": "b"}, "tick": {"target": "t"}, "pass": {"step": "s", "by": "A"},
               "join": {"player": "Dan"}, "leave": {"player": "Bob"}, "retire": {"sticker": "s", "target": "t"}}
    for kind in EVENT_TYPES:
        required = samples.get(kind)
        if required is None:  # a kind added later: it takes a note through the common path all the same
            continue
        event = parse_event({"event": kind, **required, "note": "why"}, Span("x"), 0)
        assert getattr(event, "note", None) == "why", (kind, event)
        assert list(event.to_dict())[-1] == "note" and event.to_dict()["note"] == "why", kind  # type: ignore[union-attr]
    bad = parse_event({"event": "place", "sticker": "s", "target": "t", "note": ["a", "b"]}, Span("x"), 0)
    assert "note is text" in getattr(bad, "message", "")


def test_a_note_too_long_or_with_control_characters_is_refused_and_nothing_written(playing: Path) -> None:
    before = snapshot(playing)
    refused(invoke(["place", "bunker", "peru", "--by", "Ann", "--note", "x" * (MAX_NOTE_CHARS + 1)], playing),
            "L020", file_before=before)
    refused(invoke(["place", "bunker", "peru", "--by", "Ann", "--note", "a\x1b[31mred"], playing), "L020",
            file_before=before)
    assert invoke(["place", "bunker", "peru", "--by", "Ann", "--note", "x" * MAX_NOTE_CHARS], playing).exit_code == 0
    assert len(_json_log(playing)[-1]["event"]["note"]) == MAX_NOTE_CHARS


#: The campaign commands that record nothing (every other one records an event and must take --note).
READ_OR_OTHER = {"new", "where", "undo", "redo", "status", "log", "check", "sheet", "diff", "chronicle"}


def test_every_recording_command_takes_note() -> None:
    from scarbook.cli.campaign import CampaignGroup

    missing = []
    for name in CampaignGroup.commands_to_load:
        if name in READ_OR_OTHER:
            continue
        commands = ["game start", "game end"] if name == "game" else [name]
        for command in commands:
            helped = invoke([*command.split(), "--help"])
            if "--note" not in helped.output:
                missing.append(command)
    assert missing == [], f"recording commands without --note: {missing}"


def test_notes_on_every_command_and_in_diff_and_chronicle(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_bytes(setup_bytes())
    plays = "--play Ann=khan-industries --play Bob=saharan-republic --play Cat=die-mechaniker"
    for line, note in [(f"game start {plays}", "at Bob's"), ("game end --winner Ann --eliminated Cat", "close one"),
                       ("place major-city alaska --by Ann --name Ankh", "Ann <b>insisted</b>"),
                       ("place minor-city peru --by Bob --name Lima", "")]:
        done = invoke([*line.split(), *(["--note", note] if note else [])], file)
        assert done.exit_code == 0, (line, done.output)
    events = _json_log(file)
    assert [e["event"].get("note", "") for e in events[-4:]] == ["at Bob's", "close one", "Ann <b>insisted</b>", ""]
    diff = invoke(["diff", "0"], file).output
    assert "  note: at Bob's" in diff and "  note: Ann <b>insisted</b>" in diff, diff
    as_json = json.loads(invoke(["diff", "0", "--format", "json"], file).output)
    assert [e["note"] for e in as_json["events"]][-4:] == ["at Bob's", "close one", "Ann <b>insisted</b>", ""]
    out = tmp_path / "chronicle.html"
    assert invoke(["chronicle", "--format", "html", "--out", str(out)], file).exit_code == 0
    html = out.read_text("utf-8")
    assert '<span class="note">Ann &lt;b&gt;insisted&lt;/b&gt;</span>' in html
    assert '<p class="note">at Bob&#39;s</p>' in html and '<p class="note">close one</p>' in html


def test_redo_records_the_undone_event_with_its_note(playing: Path) -> None:
    assert invoke(["place", "bunker", "peru", "--by", "Ann", "--note", "two\nlines"], playing).exit_code == 0
    noted = playing.read_bytes()
    assert invoke(["undo"], playing).exit_code == 0
    assert invoke(["redo"], playing).exit_code == 0
    assert playing.read_bytes() == noted


def test_the_campaign_file_reference_lists_every_event_and_field() -> None:
    """docs/reference/ledger.md has a row per event kind naming each of its fields, and says what `note` is."""
    from scarbook.campaign.events import EVENT_TYPES

    text = (Path(__file__).resolve().parents[1] / "docs" / "reference" / "ledger.md").read_text("utf-8")
    rows = {line.split("|")[1].strip().strip("`"): line for line in text.splitlines() if line.startswith("| `")}
    kinds = {kind: cls.ledger_fields for kind, cls in EVENT_TYPES.items()}
    missing = [f"{kind}.{name}" if kind in rows else kind for kind, fields in kinds.items()
               for name in (fields if kind in rows else [""]) if kind not in rows or f"`{name}" not in rows[kind]]
    assert sorted(set(missing)) == [], missing
    assert "### Every event: `note`" in text and "1000 characters" in text and "L020" in text


def _allowed(c: str) -> bool:
    from scarbook.campaign.events import note_problem

    return not note_problem(c)


from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=150, deadline=None)
@example('yes')
@example('No')
@example('12')
@example('1e3')
@example('0x1F')
@example('null')
@example('~')
@example('- x')
@example('a: b')
@example('#x')
@example("'")
@example('"')
@example('2026-12-02')
@example('[1, 2]')
@example('{a: 1}')
@example('&a *a')
@example('!!python/object x')
@example('a\n\nb')
@example('é')
@given(st.text(st.characters(codec="utf-8").filter(_allowed), max_size=60).map(lambda t: t.strip()))
def test_any_note_a_command_accepts_reads_back_the_same(note: str) -> None:
    """Whatever text `--note` accepts is written on one line and read back unchanged (YAML, HTML, quotes,
    line breaks, Unicode)."""
    from scarbook.campaign.events import clean_note, note_problem
    from scarbook.campaign.ledger.text import render

    note = clean_note(note)
    assert not note_problem(note)
    event = parse_event({"event": "place", "sticker": "coin", "target": "alaska-card", "note": note or None},
                        Span("x"), 0)
    text = render("", "risk-legacy", "0" * 16, ["Ann"], [event.to_dict()])  # type: ignore[union-attr]
    assert len(text.split("events:\n", 1)[1].splitlines()) == 1
    ledger = parse(text, Path("c.yaml"))
    assert not ledger.problems and [e.note for e in ledger.events] == [note]
