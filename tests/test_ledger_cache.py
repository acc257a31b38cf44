"""The parsed-ledger cache (campaign/ledger/cache.py), in-process and without the engine: a ledger read
from the cache is the parsed one, field for field; appends and undos update the entry without parsing;
a state (any picklable object with `games`) comes back as stored; a damaged or foreign entry is a miss.
The campaign tests (`test_campaign_state_cache.py`, `test_cache.py`) cover the same through commands."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scarbook.campaign.events import parse_event
from scarbook.campaign.ledger import cache as ledgercache
from scarbook.campaign.ledger.cache import (
    _cache_file,
    _event_of,
    _line_count,
    _own_bytes,
    placed_at,
    read,
    recall_state,
    remember_appended,
    remember_state,
    remember_undone,
)
from scarbook.campaign.ledger.file import Ledger, LedgerError, parse
from scarbook.campaign.ledger.journal import _write_journal, journal_path
from scarbook.campaign.ledger.text import with_event, without_last
from scarbook.kernel.diagnostics import Span

HEAD = "# mine\ncampaign: {name: War, game: risk-legacy, fingerprint: f1, players: [Ann, Bob]}\nevents:\n"
EVENTS = ["{event: place, sticker: coin, target: alaska-card}", "{event: place, sticker: coin, target: peru-card}",
          "{event: place, sticker: bunker, target: peru, by: Ann}"]


@dataclass
class State:
    games: list[Any] = field(default_factory=list)
    note: str = ""


def event(target: str) -> Any:
    return parse_event({"event": "place", "sticker": "coin", "target": target}, Span("x"), 0)


@pytest.fixture
def file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "c.yaml"
    path.write_text(HEAD + "".join(f"  - {e}\n" for e in EVENTS))
    return path


@pytest.fixture
def no_parsing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the parses `read` does (the cache answers without one)."""
    calls: list[str] = []
    real = ledgercache.parse

    def counting(text: str, path: Path, display: str | None = None) -> Ledger:
        calls.append(text)
        return real(text, path, display)

    monkeypatch.setattr(ledgercache, "parse", counting)
    return calls


def fields(ledger: Ledger) -> tuple[Any, ...]:
    return (ledger.display, ledger.text, ledger.raw, ledger.name, ledger.game, ledger.fingerprint, ledger.players,
            ledger.appendable, ledger.indent, ledger.entries, ledger.verified,
            [(e.to_dict(), str(e.span), e.index) for e in ledger.events], ledger.problems)


def test_a_second_read_comes_from_the_cache_and_equals_the_parse(file: Path, no_parsing: list[str]) -> None:
    first = read(Path("c.yaml"))
    assert len(no_parsing) == 1
    again = read(Path("c.yaml"))
    assert len(no_parsing) == 1, "parsed again"
    assert fields(again) == fields(first) == fields(parse(file.read_text(), Path("c.yaml"), "c.yaml"))
    assert [str(e.span) for e in again.events] == ["c.yaml:4:5", "c.yaml:5:5", "c.yaml:6:5"]
    assert sorted(p.name.split(".")[1] for p in _cache_file(file).parent.iterdir()) == ["events", "head"]
    assert _cache_file(file).stat().st_mode & 0o777 == 0o600


def test_the_display_name_is_the_one_asked_for(file: Path, no_parsing: list[str]) -> None:
    assert read(file, "first.yaml").display == "first.yaml"  # parsed
    assert read(file, "shown.yaml").display == "shown.yaml"
    assert [str(e.span) for e in read(file, "shown.yaml").events][-1] == "shown.yaml:6:5"
    assert len(no_parsing) == 1


def test_a_ledger_without_events_and_one_with_a_bom(file: Path, no_parsing: list[str]) -> None:
    file.write_bytes(b"\xef\xbb\xbf" + HEAD.encode())
    first = read(file)
    again = read(file)
    assert len(no_parsing) == 1
    assert (again.text, again.raw, list(again.events), again.entries) == (HEAD, b"\xef\xbb\xbf" + HEAD.encode(), [], 0)
    assert fields(again) == fields(first)


def test_other_bytes_are_parsed_again(file: Path, no_parsing: list[str]) -> None:
    read(file)
    file.write_text(file.read_text().replace("peru-card", "egypt-card"))
    assert read(file).events[1].to_dict()["target"] == "egypt-card"
    assert len(no_parsing) == 2
    read(file)
    assert len(no_parsing) == 2  # and that is cached now


def test_a_ledger_with_problems_is_never_cached(file: Path, no_parsing: list[str]) -> None:
    file.write_text(HEAD + "- {event: bogus}\n")
    assert [p.code for p in read(file).problems] == ["L003"]
    assert [p.code for p in read(file).problems] == ["L003"]
    assert len(no_parsing) == 2
    assert not _cache_file(file).exists()


def test_a_file_that_is_not_utf8_is_refused(file: Path) -> None:
    file.write_bytes(HEAD.encode() + b"- \xff\n")
    with pytest.raises(LedgerError) as caught:
        read(Path("c.yaml"))
    assert [(str(d.span), d.code) for d in caught.value.diagnostics] == [("c.yaml:4:3", "Y002")]


def test_a_reader_never_sees_half_an_event(file: Path) -> None:
    before = file.read_bytes()
    line = b"  - {event: place, sticker: coin, target: egypt-card}\n"
    _write_journal(journal_path(file), len(before), before, line)
    file.write_bytes(before + line[:20])
    assert len(read(file).events) == 3 and read(file).raw == before


def test_a_damaged_head_is_deleted_and_rebuilt(file: Path, no_parsing: list[str]) -> None:
    read(file)
    entry = _cache_file(file)
    blob = entry.read_bytes()
    entry.write_bytes(blob.replace(b'"game": "risk-legacy"', b'"game": "risk-legacy2"'))
    assert read(file).game == "risk-legacy"
    assert len(no_parsing) == 2
    assert entry.read_bytes() == blob  # rebuilt as it was


@pytest.mark.parametrize("change", [
    ("format", "6"), ("name", 5), ("game", None), ("fingerprint", 1), ("players", "Ann"), ("players", [1]),
    ("appendable", 1), ("indent", None), ("verified", None), ("entries", -1), ("entries", 2.0), ("lines", "9"),
    ("last", None), ("tail", [1, 0]),
], ids=repr)
def test_a_header_that_does_not_verify_is_a_miss(file: Path, no_parsing: list[str], change: tuple[str, Any]) -> None:
    import json
    import zlib

    read(file)
    entry = _cache_file(file)
    line, _, tail = entry.read_bytes().partition(b"\n")
    head = json.loads(line.partition(b" ")[2])
    head[change[0]] = change[1]
    body = json.dumps(head).encode()
    entry.write_bytes(b"%08x %s\n%s" % (zlib.crc32(body), body, tail))
    assert fields(read(file)) == fields(parse(file.read_text(), file, "c.yaml"))
    assert len(no_parsing) == 2
    read(file)
    assert len(no_parsing) == 2  # rebuilt


def test_an_entry_of_the_earlier_bytes_is_kept_for_the_next_store(file: Path) -> None:
    read(file)
    entry = _cache_file(file)
    blob = entry.read_bytes()
    file.write_text(HEAD)
    ledgercache._recall(file.read_bytes(), file, "c.yaml")
    assert entry.read_bytes() == blob


def test_a_cache_file_others_may_write_is_not_trusted(file: Path, no_parsing: list[str]) -> None:
    read(file)
    entry = _cache_file(file)
    entry.chmod(0o620)
    read(file)
    assert len(no_parsing) == 2
    with pytest.raises(PermissionError):
        entry.chmod(0o602)
        _own_bytes(entry)
    entry.chmod(0o600)
    assert _own_bytes(entry, 8) == entry.read_bytes()[:8]


def test_a_damaged_events_part_is_read_from_the_file(file: Path, no_parsing: list[str]) -> None:
    first = read(file)
    part = _cache_file(file, "events")
    part.write_bytes(part.read_bytes().replace(b"peru-card", b"peru-cart"))
    again = read(file)
    assert len(no_parsing) == 1  # the head still verifies
    assert fields(again) == fields(first)  # the events come from parsing the text
    assert len(no_parsing) == 2


def test_events_missing_from_the_text_are_refused(file: Path) -> None:
    read(file)
    ledger = read(file)
    _cache_file(file, "events").unlink()
    ledger.text = HEAD + f"  - {EVENTS[0]}\n"
    with pytest.raises(LedgerError) as caught:
        list(ledger.events)
    assert [(str(d.span), d.code, d.message) for d in caught.value.diagnostics] == [
        ("c.yaml:1:1", "L012", "the file changed while this command ran; run the command again")]


def test_a_cached_position_must_be_in_the_file() -> None:
    values = ["place", "coin", "x", "", "", "", ""]
    assert str(_event_of([3, 2, *values], "c.yaml", 0, 3).span) == "c.yaml:3:2"
    for line, column in ((0, 1), (4, 1), (1, 0), (True, 1), (1.0, 1), (1, "1")):
        with pytest.raises(ValueError, match="bad position"):
            _event_of([line, column, *values], "c.yaml", 0, 3)


@pytest.mark.parametrize(("text", "lines"), [("", 1), ("a", 1), ("a\n", 2), ("a\r\nb\rc\n", 4), ("\r\r\n\n", 4)])
def test_line_count_is_an_editors(text: str, lines: int) -> None:
    assert _line_count(text) == lines


# --- appends and undos update the entry ----------------------------------------------------------------------
def as_written(ledger: Ledger, text: str) -> bytes:
    """What ledgerwrite puts in the file: the text, after the byte-order mark the file had."""
    return (b"\xef\xbb\xbf" if ledger.raw.startswith(b"\xef\xbb\xbf") else b"") + text.encode()


def append(file: Path, target: str, verified: str = "", state: Any = None) -> Ledger:
    ledger = read(file)
    new = with_event(ledger, event(target))
    placed = placed_at(ledger, new, event(target))
    file.write_bytes(as_written(ledger, new))
    remember_appended(ledger, new, placed, verified, state, ("pack",) if state is not None else ())
    return ledger


def test_placed_at_gives_the_new_line_and_column(file: Path) -> None:
    ledger = read(file)
    new = with_event(ledger, event("egypt-card"))
    placed = placed_at(ledger, new, event("egypt-card"))
    assert (str(placed.span), placed.index) == ("c.yaml:7:5", 3)
    file.write_text(HEAD + "  # none yet\n\n")
    ledger = read(file)
    placed = placed_at(ledger, with_event(ledger, event("x")), event("x"))
    assert (str(placed.span), placed.index) == ("c.yaml:6:3", 0)  # indent of a list without entries: none


def test_placed_at_leaves_an_event_of_another_layout_alone(file: Path) -> None:
    file.write_text(HEAD.replace("events:\n", "events: [] \nnotes: x\n"))
    ledger = read(file)
    assert not ledger.appendable
    e = event("x")
    assert placed_at(ledger, with_event(ledger, e), e) is e


@pytest.mark.parametrize("nl", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_an_append_is_cached_without_parsing(file: Path, no_parsing: list[str], nl: str) -> None:
    file.write_text(file.read_text().replace("\n", nl), newline="")
    read(file)
    append(file, "egypt-card")
    appended = read(file)
    assert len(no_parsing) == 1
    assert fields(appended) == fields(parse(file.read_bytes().decode(), file, "c.yaml"))


def test_an_append_to_a_file_without_final_newline_is_cached(file: Path, no_parsing: list[str]) -> None:
    file.write_text(file.read_text().rstrip("\n"))
    read(file)
    append(file, "egypt-card")
    assert fields(read(file)) == fields(parse(file.read_text(), file, "c.yaml"))
    assert len(no_parsing) == 1


def test_an_append_to_a_file_ending_in_cr_then_lf_is_counted_again(file: Path, no_parsing: list[str]) -> None:
    file.write_bytes(file.read_bytes().rstrip(b"\n") + b"\r")
    ledger = read(file)
    new = ledger.text + "\n  - {event: place, sticker: coin, target: egypt-card}\n"  # the CR becomes CRLF
    placed = placed_at(ledger, new, event("egypt-card"))
    assert str(placed.span) == "c.yaml:7:5"
    file.write_text(new, newline="")
    remember_appended(ledger, new, placed)
    assert fields(read(file)) == fields(parse(file.read_bytes().decode(), file, "c.yaml"))


def test_an_append_to_a_bom_file_is_cached(file: Path, no_parsing: list[str]) -> None:
    file.write_bytes(b"\xef\xbb\xbf" + file.read_bytes())
    ledger = read(file)
    new = with_event(ledger, event("egypt-card"))
    file.write_bytes(b"\xef\xbb\xbf" + new.encode())  # as ledgerwrite writes it: the byte-order mark kept
    remember_appended(ledger, new, placed_at(ledger, new, event("egypt-card")))
    got = read(file)
    assert len(no_parsing) == 1, "parsed again after the append"  # (it was, after every append to such a file)
    assert fields(got) == parsed_with_bom(file, got.display) and len(got.events) == 4


def parsed_with_bom(file: Path, display: str) -> tuple[Any, ...]:
    """The fields of a parse of a file that starts with a byte-order mark, its bytes as read (BOM included)."""
    raw = file.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    parsed = parse(raw.decode("utf-8-sig"), file, display)
    parsed.raw = raw
    return fields(parsed)


def test_an_undo_of_a_bom_file_is_cached(file: Path, no_parsing: list[str]) -> None:
    file.write_bytes(b"\xef\xbb\xbf" + file.read_bytes())
    append(file, "egypt-card", "key-1", State([0, 1], "4 events"))
    undo(file)
    got = read(file)
    assert len(no_parsing) == 1, "parsed again after the append or the undo"
    assert got.verified == "key-1"  # the verdict stays with the shorter file
    expected = parsed_with_bom(file, got.display)
    assert fields(got)[:10] + fields(got)[11:] == expected[:10] + expected[11:] and len(got.events) == 3


def test_an_undo_is_cached_without_parsing(file: Path, no_parsing: list[str]) -> None:
    read(file)
    for _ in range(3):
        ledger = read(file)
        text, _ = without_last(ledger)
        file.write_text(text)
        remember_undone(ledger, text)
        cached, parsed = read(file), parse(text, file, "c.yaml")
        if cached.entries == 0:  # the cache keeps the list's indent for the next append; a parse has none to see
            assert (cached.indent, parsed.indent) == ("  ", "")
            cached.indent = ""
        assert fields(cached) == fields(parsed)
    assert len(no_parsing) == 1
    assert read(file).entries == 0


def test_an_undo_of_another_layout_is_parsed_again(file: Path, no_parsing: list[str]) -> None:
    file.write_text(HEAD.replace("events:\n", "events: [{event: place, sticker: coin, target: x}]\nnotes: y\n"))
    ledger = read(file)
    text, _ = without_last(ledger)
    file.write_bytes(as_written(ledger, text))
    remember_undone(ledger, text)
    assert read(file).entries == 0 and len(no_parsing) == 2


# --- the folded state, with its verdict ----------------------------------------------------------------------
def test_a_state_is_recalled_with_its_packs_and_archived_games(file: Path) -> None:
    ledger = read(file)
    state = State([f"game {n}" for n in range(5)], "five games")
    remember_state(ledger, "key-1", state, ("p1", "p2"))
    again = read(file)
    assert again.verified == "key-1"
    got = recall_state(again, lambda: pytest.fail("folded again"))
    assert got is not None
    recalled, packs = got
    assert (recalled.note, list(recalled.games), packs) == ("five games", state.games, ("p1", "p2"))
    assert sorted(p.name.split(".")[1] for p in _cache_file(file).parent.iterdir()) == ["events", "games", "head"]


def test_damaged_archived_games_are_folded_again(file: Path) -> None:
    remember_state(read(file), "key-1", State([1, 2, 3, 4]), ())
    part = _cache_file(file, "games")
    part.write_bytes(part.read_bytes()[:-1] + b"x")
    got = recall_state(read(file), lambda: [10, 20, 30, 40])
    assert got is not None and list(got[0].games) == [10, 20, 3, 4]


def test_no_state_without_a_verdict_or_with_a_damaged_tail(file: Path) -> None:
    assert recall_state(read(file), list) is None  # none stored
    remember_state(read(file), "", State([1]), ())
    assert recall_state(read(file), list) is None  # no verdict
    ledger = read(file)
    ledger.cache["tail"] = b"not a pickle"
    ledger.verified = "key"
    assert recall_state(ledger, list) is None


def test_appends_then_undos_walk_the_stored_states_back(file: Path, no_parsing: list[str]) -> None:
    remember_state(read(file), "key-1", State([0], "3 events"), ("p",))
    append(file, "egypt-card", "key-1", State([0, 1], "4 events"))
    append(file, "china-card", "key-1", State([0, 1, 2], "5 events"))
    assert read(file).verified == "key-1"
    got = recall_state(read(file), list)
    assert got is not None and (got[0].note, list(got[0].games), got[1]) == ("5 events", [0, 1, 2], ("pack",))
    notes = []
    for _ in range(2):
        ledger = read(file)
        text, _ = without_last(ledger)
        file.write_text(text)
        remember_undone(ledger, text)
        back = read(file)
        assert back.verified == "key-1"  # the verdict holds for a prefix (a parse has none)
        assert fields(back)[:10] + fields(back)[11:] == fields(parse(text, file, "c.yaml"))[:10] + fields(
            parse(text, file, "c.yaml"))[11:]
        got = recall_state(back, list)
        assert got is not None
        notes.append((got[0].note, list(got[0].games)))
    assert notes == [("4 events", [0, 1]), ("3 events", [0])]
    assert len(no_parsing) == 1


def test_an_append_without_a_verdict_drops_the_state(file: Path) -> None:
    remember_state(read(file), "key-1", State([0]), ())
    append(file, "egypt-card")
    assert read(file).verified == "" and recall_state(read(file), list) is None


def test_an_undo_past_the_stored_states_keeps_the_events_cached(file: Path, no_parsing: list[str]) -> None:
    file.write_text(HEAD + "".join(f"  - {e}\n" for e in EVENTS * 2))
    read(file)
    for _ in range(5):  # no state was stored: each undo re-caches the events it keeps
        ledger = read(file)
        text, _ = without_last(ledger)
        file.write_text(text)
        remember_undone(ledger, text)
        assert fields(read(file)) == fields(parse(text, file, "c.yaml"))
    assert len(no_parsing) == 1


def test_the_cache_entry_names_the_real_file(file: Path) -> None:
    (file.parent / "link.yaml").symlink_to(file)
    assert _cache_file(file.parent / "link.yaml") == _cache_file(file)
    assert _cache_file(file).parent == Path(os.environ["SCARBOOK_CACHE"]) / "ledgers"
    assert _cache_file(file, "events").name == _cache_file(file).name.replace(".head", ".events")


def test_a_ledger_that_cannot_be_appended_to_is_cached_as_such(file: Path, no_parsing: list[str]) -> None:
    file.write_text(HEAD.replace("events:\n", f"events: [{EVENTS[0]}]\nnotes: x\n"))
    first = read(file)
    assert not first.appendable
    assert fields(read(file)) == fields(first) and len(no_parsing) == 1


def test_the_cache_parts_are_private(file: Path) -> None:
    remember_state(read(file), "key-1", State([1, 2, 3, 4]), ())
    folder = _cache_file(file).parent
    assert {p.name.split(".")[1]: p.stat().st_mode & 0o777 for p in folder.iterdir()} == {
        "head": 0o600, "events": 0o600, "games": 0o600}


def test_an_event_not_yet_placed_is_placed_when_cached(file: Path, no_parsing: list[str]) -> None:
    ledger = read(file)
    new = with_event(ledger, event("egypt-card"))
    file.write_text(new)
    remember_appended(ledger, new, event("egypt-card"))  # index -1: placed from the text
    assert fields(read(file)) == fields(parse(new, file, "c.yaml")) and len(no_parsing) == 1


def undo(file: Path) -> str:
    ledger = read(file)
    text, _ = without_last(ledger)
    file.write_bytes(as_written(ledger, text))
    remember_undone(ledger, text)
    return text


def recalled(file: Path) -> tuple[str, list[Any], tuple[str, ...]] | None:
    got = recall_state(read(file), lambda: pytest.fail("the archived games were folded again"))
    return None if got is None else (got[0].note, list(got[0].games), got[1])


@pytest.mark.parametrize("after_append", [False, True], ids=["after a parse", "after an append"])
def test_the_state_before_the_last_event_serves_the_next_undo(file: Path, no_parsing: list[str],
                                                              after_append: bool) -> None:
    if after_append:
        read(file)
        append(file, "egypt-card")
    ledger = read(file)
    games = [f"game {n}" for n in range(6)]
    remember_state(ledger, "key-1", State(games, "now"), ("p",), before_last=(State(games[:5], "before"), ("q",)))
    assert recalled(file) == ("now", games, ("p",))
    text = undo(file)
    assert recalled(file) == ("before", games[:5], ("q",))
    assert read(file).verified == "key-1" and len(no_parsing) == 1
    assert fields(read(file))[:10] == fields(parse(text, file, "c.yaml"))[:10]
    assert [str(e.span) for e in read(file).events] == [str(e.span) for e in parse(text, file, "c.yaml").events]


@pytest.mark.parametrize("prior_games", [0, 1, 2, 3, 4, 5, 6], ids=lambda n: f"{n} games before")
def test_the_state_before_the_last_event_with_any_number_of_games(file: Path, prior_games: int) -> None:
    games = list(range(5))  # 3 archived, the last 2 kept in the state
    prior = State(list(range(prior_games)), "before")
    remember_state(read(file), "key-1", State(games, "now"), (), before_last=(prior, ()))
    undo(file)
    stored = prior_games - 2 <= 3  # a prior state with more archived games than the current one is not stored
    assert recalled(file) == (("before", list(range(prior_games)), ()) if stored else None)


def test_archived_games_grow_with_each_append(file: Path, no_parsing: list[str]) -> None:
    remember_state(read(file), "key-1", State([0, 1, 2], "3 games"), ())
    append(file, "egypt-card", "key-1", State([0, 1, 2, 3], "4 games"))
    append(file, "china-card", "key-1", State([0, 1, 2, 3, 4], "5 games"))
    assert recalled(file) == ("5 games", [0, 1, 2, 3, 4], ("pack",))
    undo(file)
    assert recalled(file) == ("4 games", [0, 1, 2, 3], ("pack",))
    assert len(no_parsing) == 1


def test_an_undo_of_a_file_without_final_newline_keeps_the_cached_state(file: Path, no_parsing: list[str]) -> None:
    file.write_text(file.read_text().rstrip("\n"))
    remember_state(read(file), "key-1", State([0], "3 events"), ("p",))
    append(file, "egypt-card", "key-1", State([0, 1], "4 events"))
    text = undo(file)  # one more character than before the append: its final line break
    assert text == file.read_text() and not text.endswith("egypt-card}\n")
    assert recalled(file) == ("3 events", [0], ("p",))
    assert fields(read(file))[:10] == fields(parse(text, file, "c.yaml"))[:10]
    assert len(no_parsing) == 1


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[int]]:
    """The length of every text whose lines are counted and of all bytes hashed whole."""
    seen: dict[str, list[int]] = {"lines": [], "sha256": []}
    real_count, real_sha = ledgercache._line_count, ledgercache._sha256

    def count(text: str) -> int:
        seen["lines"].append(len(text))
        return real_count(text)

    def sha(data: bytes) -> str:
        seen["sha256"].append(len(data))
        return real_sha(data)

    monkeypatch.setattr(ledgercache, "_line_count", count)
    monkeypatch.setattr(ledgercache, "_sha256", sha)
    return seen


@pytest.mark.parametrize("nl", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_an_append_and_its_undo_count_and_hash_only_what_changed(file: Path, nl: str,
                                                                 counted: dict[str, list[int]]) -> None:
    file.write_bytes(HEAD.replace("\n", nl).encode() + b"".join(f"  - {e}{nl}".encode() for e in EVENTS * 50))
    remember_state(read(file), "key-1", State([0], "150 events"), ())
    size = file.stat().st_size
    counted["lines"].clear()
    counted["sha256"].clear()
    append(file, "egypt-card", "key-1", State([0, 1], "151 events"))
    undo(file)
    assert max(counted["lines"]) < 100 and counted["sha256"] == [], counted  # never the whole ledger
    got = read(file)
    assert fields(got)[:10] == fields(parse(file.read_bytes().decode(), file, "c.yaml"))[:10]
    assert file.stat().st_size == size and recalled(file) == ("150 events", [0], ())


def test_an_append_after_an_undo_is_placed_on_its_line(file: Path, no_parsing: list[str]) -> None:
    read(file)
    undo(file)
    append(file, "egypt-card")
    append(file, "china-card")
    assert fields(read(file)) == fields(parse(file.read_text(), file, "c.yaml")) and len(no_parsing) == 1


def test_a_cr_file_whose_undo_leaves_a_cr_before_a_lf_counts_its_lines_again(file: Path) -> None:
    # the last event ends in CR LF and the one before it in CR: cutting the CR LF line leaves "...\r"
    file.write_bytes(HEAD.encode() + f"  - {EVENTS[0]}\r  - {EVENTS[1]}\r\n".encode())
    read(file)
    text = undo(file)
    assert text.endswith("\r")
    assert fields(read(file)) == fields(parse(text, file, "c.yaml"))


def test_a_missing_ledger_is_refused_by_its_name(file: Path) -> None:
    file.unlink()
    with pytest.raises(LedgerError) as caught:
        read(Path("c.yaml"))
    assert [(str(d.span), d.code) for d in caught.value.diagnostics] == [("c.yaml", "L001")]


def test_a_ledger_read_without_the_cache_is_never_cached(file: Path) -> None:
    ledger = parse(file.read_text(), file, "c.yaml")  # no cache entry behind it
    remember_state(ledger, "key-1", State([1]), ())
    assert ledger.verified == "key-1"
    new = with_event(ledger, event("egypt-card"))
    remember_appended(ledger, new, placed_at(ledger, new, event("egypt-card")), "key-1", State([1]), ())
    text, _ = without_last(ledger)
    remember_undone(ledger, text)
    assert not _cache_file(file).parent.exists()


def test_a_cache_that_cannot_be_written_is_never_an_error(file: Path, no_parsing: list[str]) -> None:
    import shutil

    ledger = read(file)
    folder = _cache_file(file).parent
    shutil.rmtree(folder)
    folder.write_text("not a folder")  # every write into it fails (OSError), even as root
    remember_state(ledger, "key-1", State([0, 1, 2, 3]), (), before_last=(State([0, 1, 2]), ()))
    new = with_event(ledger, event("egypt-card"))
    remember_appended(ledger, new, placed_at(ledger, new, event("egypt-card")), "key-1", State([1]), ())
    text, _ = without_last(ledger)
    remember_undone(ledger, text)
    assert fields(read(file))[:10] == fields(parse(file.read_text(), file, "c.yaml"))[:10]
    assert len(no_parsing) == 2


def test_each_ledger_has_its_own_entry(file: Path) -> None:
    assert _cache_file(file) != _cache_file(file.parent / "other.yaml")


def test_a_cache_file_of_another_user_is_not_trusted(file: Path, no_parsing: list[str]) -> None:
    if os.getuid() != 0:
        pytest.skip("needs root to give a file to another user")
    read(file)
    os.chown(_cache_file(file), 12345, -1)
    read(file)
    assert len(no_parsing) == 2


def test_events_at_line_1_and_column_1_are_cached(file: Path, no_parsing: list[str]) -> None:
    file.write_text(f"events: [{EVENTS[0]},\n{EVENTS[1]},\n{EVENTS[2]}]\n" + HEAD.replace("events:\n", ""))
    first = [str(e.span) for e in read(file).events]
    again = read(file)
    assert [str(e.span) for e in again.events] == first == ["c.yaml:1:10", "c.yaml:2:1", "c.yaml:3:1"]
    assert len(no_parsing) == 1


def test_a_damaged_events_part_is_read_from_the_file_under_the_name_asked_for(file: Path) -> None:
    read(file)
    _cache_file(file, "events").write_bytes(b"damaged")
    assert [str(e.span) for e in read(file, "shown.yaml").events] == ["shown.yaml:4:5", "shown.yaml:5:5",
                                                                       "shown.yaml:6:5"]


def test_a_recalled_state_with_archived_games_can_be_appended_to(file: Path) -> None:
    remember_state(read(file), "key-1", State([0, 1, 2, 3], "4 games"), ())
    got = recall_state(read(file), lambda: pytest.fail("folded again"))
    assert got is not None
    state = got[0]
    state.games.append(4)  # without loading the archived games
    state.note = "5 games"
    append(file, "egypt-card", "key-1", state)
    assert recalled(file) == ("5 games", [0, 1, 2, 3, 4], ("pack",))


@pytest.mark.parametrize("events", [1, 2], ids=["one event", "two events"])
def test_the_state_before_the_only_or_second_event_serves_the_undo(file: Path, no_parsing: list[str],
                                                                   events: int) -> None:
    file.write_text(HEAD + "".join(f"  - {e}\n" for e in EVENTS[:events]))
    remember_state(read(file), "key-1", State([0], "now"), (), before_last=(State([], "before"), ()))
    text = undo(file)
    assert recalled(file) == ("before", [], ())
    assert [e.to_dict() for e in read(file).events] == [e.to_dict() for e in parse(text, file, "c.yaml").events]
    assert len(no_parsing) == 1


def test_a_write_reads_the_campaign_once_when_nothing_changes_it_meanwhile(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """`locked` reads the file to know it is a ledger before taking the lock; the write under the lock takes that
    very ledger when the file is unchanged (one read and one verification of a 50,000-event file, not two), and
    reads again when anything touched it in between."""
    import os

    from scarbook.campaign.ledger import cache

    ledger = tmp_path / "c.yaml"
    ledger.write_text("campaign: {game: risk-legacy, players: [Ann, Bob]}\nevents: []\n")
    raws: list[Path] = []
    real = cache.read_raw
    monkeypatch.setattr(cache, "read_raw", lambda p, shown: raws.append(p) or real(p, shown))
    first = cache.read_and_hand_on(ledger)
    assert cache.read(ledger) is first and len(raws) == 1  # handed on: not read again
    assert cache.read(ledger) is not first and len(raws) == 2  # one use only
    cache.read_and_hand_on(ledger)
    os.utime(ledger, ns=(1, 1))  # touched in between (its change time moves too)
    assert cache.read(ledger) is not first and len(raws) == 4
