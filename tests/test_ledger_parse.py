"""Reading a campaign file (campaign/ledger/file.py), in-process: what `parse` accepts and refuses word for word,
the fields and spans it reads, whether a new event may be appended as one more line (`appendable`),
the capped raw read, and how lines and line breaks are counted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scarbook.campaign.ledger import file as ledger_mod
from scarbook.campaign.ledger.file import (
    LedgerError,
    line_starts,
    newline_of,
    parse,
    read_raw,
    real_path,
)
from scarbook.kernel.diagnostics import Span, error
from scarbook.kernel.paths import display_path

NOT_A_CAMPAIGN = ("not a campaign file: it needs 'campaign: {game: ..., players: [...]}' and 'events:'; create one "
                  "with 'scarbook campaign new FILE --game GAME --player NAME ...'")
NO_GAME = "the campaign has no 'game: GAME_ID'"
NO_PLAYERS = "the campaign needs 'players: [NAME, ...]'"
NOT_A_LIST = "'events' must be a list of events"

REFUSED = {
    "a list": ("- a\n", "c.yaml:1:1", "L002", NOT_A_CAMPAIGN),
    "no campaign": ("x: 1\n", "c.yaml:1:1", "L002", NOT_A_CAMPAIGN),
    "campaign not a mapping": ("campaign: x\n", "c.yaml:1:1", "L002", NOT_A_CAMPAIGN),
    "empty file": ("", "c.yaml:1:1", "L002", NOT_A_CAMPAIGN),
    "no game": ("campaign: {players: [A]}\n", "c.yaml:1:11", "L002", NO_GAME),
    "empty game": ("campaign: {game: '', players: [A]}\n", "c.yaml:1:11", "L002", NO_GAME),
    "game a number": ("campaign: {game: 5, players: [A]}\n", "c.yaml:1:11", "L002", NO_GAME),
    "no players": ("campaign: {game: g}\n", "c.yaml:1:11", "L002", NO_PLAYERS),
    "no player": ("campaign: {game: g, players: []}\n", "c.yaml:1:30", "L002", NO_PLAYERS),
    "players not a list": ("campaign: {game: g, players: A}\n", "c.yaml:1:30", "L002", NO_PLAYERS),
    "a player a mapping": ("campaign: {game: g, players: [A, {b: 1}]}\n", "c.yaml:1:30", "L002", NO_PLAYERS),
    "the same player twice": ("campaign: {game: g, players: [Ann, ann]}\n", "c.yaml:1:30", "L002",
                              "two players have the same name"),
    "the same player twice, block": ("campaign:\n  game: g\n  players:\n    - A\n    - a\n", "c.yaml:4:5", "L002",
                                     "two players have the same name"),
    "events a mapping": ("campaign: {game: g, players: [A]}\nevents: {a: 1}\n", "c.yaml:2:9", "L002", NOT_A_LIST),
    "events a word": ("campaign:\n  game: g\n  players: [A]\n\nevents: x\n", "c.yaml:5:9", "L002", NOT_A_LIST),
    "YAML syntax": ("campaign: [\n", "c.yaml:2:1", "Y001", "YAML syntax: did not find expected node content"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_parse_refuses_what_is_not_a_ledger_word_for_word(case: str) -> None:
    text, span, code, message = REFUSED[case]
    with pytest.raises(LedgerError) as caught:
        parse(text, Path("/nowhere/c.yaml"), "c.yaml")
    assert [(str(d.span), d.code, d.severity.value, d.message) for d in caught.value.diagnostics] == [
        (span, code, "error", message)]
    assert str(caught.value) == message


def test_a_ledger_error_says_every_diagnostic() -> None:
    first, second = error(Span("c.yaml", 1, 1), "L001", "one"), error(Span("c.yaml", 2, 1), "L002", "two")
    raised = LedgerError([first, second])
    assert (str(raised), raised.diagnostics) == ("one; two", [first, second])


def test_parse_reads_the_header_the_events_and_the_unreadable_entries() -> None:
    text = ("campaign: {name: 5, game: g, fingerprint: 7, players: [1, Bo]}\nevents:\n"
            "- {event: place, sticker: coin, target: x}\n- {event: place}\n- [1]\n")
    ledger = parse(text, Path("/nowhere/c.yaml"), "c.yaml")
    assert (ledger.display, ledger.path, ledger.text, ledger.raw) == ("c.yaml", Path("/nowhere/c.yaml"), text,
                                                                       text.encode())
    assert (ledger.name, ledger.game, ledger.fingerprint, ledger.players) == ("5", "g", "7", ["1", "Bo"])
    assert ledger.entries == 3
    assert [(e.to_dict(), str(e.span), e.index) for e in ledger.events] == [
        ({"event": "place", "sticker": "coin", "target": "x"}, "c.yaml:3:3", 0)]
    assert [(str(p.span), p.code, p.path, p.message) for p in ledger.problems] == [
        ("c.yaml:4:3", "L003", "/events/1", "a 'place' event needs 'sticker'"),
        ("c.yaml:5:3", "L003", "/events/2",
         "an event is a mapping like {event: place, sticker: STICKER, target: TARGET}")]
    assert (ledger.verified, ledger.cache) == ("", {})


def test_parse_of_a_ledger_without_events_or_name() -> None:
    for text in ("campaign: {game: g, players: [A]}\n", "campaign: {game: g, players: [A]}\nevents: ~\n"):
        ledger = parse(text, Path("c.yaml"))
        assert (ledger.name, ledger.fingerprint, ledger.events, ledger.problems, ledger.entries) == ("", "", [], [], 0)


def test_parse_keeps_the_yaml_warnings_of_a_ledger_it_reads() -> None:
    ledger = parse("campaign: {game: g, players: [A]}\nevents: []\nx: 1\nx: 2\n", Path("c.yaml"))
    assert [(str(p.span), p.code, p.message) for p in ledger.problems] == [
        ("c.yaml:4:1", "Y003", "duplicate key 'x' (first at line 3); remove one of them")]


def test_the_display_name_defaults_to_the_path_as_given_or_relative() -> None:
    assert parse("campaign: {game: g, players: [A]}\n", Path("sub/c.yaml")).display == "sub/c.yaml"
    here = Path.cwd() / "sub" / "c.yaml"
    assert display_path(here) == os.path.join("sub", "c.yaml")
    assert parse("campaign: {game: g, players: [A]}\n", here).display == "sub/c.yaml"


def test_a_player_is_found_whatever_the_case_and_spaces() -> None:
    ledger = parse("campaign: {game: g, players: [Ann, Zoë]}\n", Path("c.yaml"))
    assert [ledger.player(n) for n in ("ann", " ZOË ", "Bob", "")] == ["Ann", "Zoë", None, None]


# --- appendable: may a new event be one more `- {...}` line at the end of the file? -------------------------
H = "campaign: {game: g, players: [A]}\n"
E = "{event: place, sticker: coin, target: x}"
LAYOUTS = {  # text: (appendable, indent)
    H + f"events:\n- {E}\n": (True, ""),
    H + f"events:\n   - {E}\n# end\n\n": (True, "   "),
    H + "events:\n- event: place\n  sticker: coin\n  target: x\n": (True, ""),  # keys inside the entry come later
    H + f"events:  \n- {E}\n": (True, ""),
    H + "events:\n": (True, ""),
    H + "events:\n# none yet\n\n  # really\n": (True, ""),
    H + "events: []\n\n": (True, ""),
    H + "events: []": (True, ""),
    H + "events: []\n# a comment after\n": (False, ""),  # the `[]` must end the file: with_event drops it
    H + "events: ~\n": (False, ""),
    H + "events:  # none\n": (False, ""),
    H + "events:\nnotes: x\n": (False, ""),
    H + f"events:\n- {E}\nnotes: x\n": (False, ""),
    H + f"events: [{E}]\n": (False, ""),
    H: (False, ""),
    f"events:\n- {E}\n" + H: (False, ""),
    "---\n" + H + f"events:\n- {E}\n": (False, ""),
    H + f"events:\n- {E}\n...\n": (False, ""),
    H + f"events:\n- {E}\n# --- the end ---\n": (True, ""),  # a marker starts a line: this is a comment
    H + "events:\n-\n  event: place\n  sticker: coin\n  target: x\n": (False, ""),
}


@pytest.mark.parametrize("text", LAYOUTS, ids=[repr(t[len(H):]) for t in LAYOUTS])
def test_appendable_layouts(text: str) -> None:
    ledger = parse(text, Path("c.yaml"))
    assert (ledger.appendable, ledger.indent) == LAYOUTS[text]


# --- the raw read ------------------------------------------------------------------------------------------
def test_read_raw_reads_the_bytes(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_bytes(b"\xef\xbb\xbfcampaign: x\r\n")
    assert read_raw(tmp_path / "c.yaml", "c.yaml") == b"\xef\xbb\xbfcampaign: x\r\n"


def _refused(path: Path) -> tuple[str, str, str]:
    with pytest.raises(LedgerError) as caught:
        read_raw(path, "shown.yaml")
    [d] = caught.value.diagnostics
    return str(d.span), d.code, d.message


def test_read_raw_refuses_a_missing_file_a_folder_and_an_unreadable_path(tmp_path: Path) -> None:
    assert _refused(tmp_path / "none.yaml") == (
        "shown.yaml", "L001", "no campaign file here; create one with 'scarbook campaign new FILE --game GAME "
        "--player NAME ...' or pass --campaign FILE")
    assert _refused(tmp_path) == ("shown.yaml:1:1", "L001", "the campaign file is not a regular file (a folder, "
                                  "FIFO, device or socket); give the campaign's YAML file")
    (tmp_path / "file").write_text("x")
    assert _refused(tmp_path / "file" / "c.yaml") == ("shown.yaml", "L001",
                                                      "cannot read the campaign file: Not a directory")


def test_read_raw_refuses_a_file_over_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ledger_mod, "MAX_LEDGER_BYTES", 8)
    (tmp_path / "c.yaml").write_bytes(b"x" * 8)
    assert read_raw(tmp_path / "c.yaml", "c.yaml") == b"x" * 8  # at the cap: read
    (tmp_path / "c.yaml").write_bytes(b"x" * 9)
    assert _refused(tmp_path / "c.yaml") == ("shown.yaml:1:1", "L001", "the campaign file is larger than 64 MiB")


def test_the_cap_is_64_mib() -> None:
    assert ledger_mod.MAX_LEDGER_BYTES == 64 * 1024 * 1024


def test_real_path_follows_a_symlink(tmp_path: Path) -> None:
    (tmp_path / "real.yaml").write_text("x")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "real.yaml")
    assert real_path(tmp_path / "link.yaml") == (tmp_path / "real.yaml").resolve()


# --- lines as an editor counts them -------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "starts"), [
    ("", [0]), ("a", [0]), ("a\n", [0, 2]), ("a\nbc\n\nd", [0, 2, 5, 6]), ("a\r\nb\rc\nd", [0, 3, 5, 7]),
    ("\r\r\n\n", [0, 1, 3, 4]), ("a\u2028b\x85c", [0]),
])
def test_line_starts(text: str, starts: list[int]) -> None:
    assert line_starts(text) == starts


@pytest.mark.parametrize(("text", "nl"), [("a\nb\r\n", "\n"), ("a\r\nb\n", "\r\n"), ("a\rb\n", "\r"), ("ab", "\n"),
                                          ("a\u2028b", "\n")])
def test_newline_of_is_the_first_line_break(text: str, nl: str) -> None:
    assert newline_of(text) == nl
