"""What no campaign needs is refused at its line (issue 26, item 5): an event field of megabytes, a list of
thousands. Real processes on real files; the timing of long ledgers is a benchmark (bench/bench_replay.py),
not a test."""

from __future__ import annotations

import time
from pathlib import Path

from campaigns.procs import sb

from scarbook.campaign.ledger.file import MAX_FIELD_CHARS, MAX_FIELD_ITEMS, oversized


def test_an_event_with_a_10_mb_target_is_refused_at_its_line_at_once(ledger: Path) -> None:
    lines = ledger.read_bytes().count(b"\n")
    with ledger.open("a") as fh:
        fh.write("- {event: place, sticker: coin, target: " + "x" * 10_000_000 + "}\n")
    started = time.monotonic()
    check = sb("campaign", "check", "-c", str(ledger), timeout=120)
    assert check.returncode == 1
    assert f"c.yaml:{lines + 1}:41: error L003: the event's 'target' is 10,000,000 characters long; no campaign " \
        f"needs more than {MAX_FIELD_CHARS:,}: shorten it" in check.stdout + check.stderr
    before = ledger.read_bytes()
    start = sb("campaign", "game", "start", "--play", "Ann=die-mechaniker", "--play", "Bob=khan-industries",
               "--play", "Cat=saharan-republic", "-c", str(ledger), timeout=120)
    assert start.returncode == 1 and "L007" in start.stderr and ledger.read_bytes() == before
    assert time.monotonic() - started < 60  # it hung past 10 s per command before (the audit's limit)


def test_a_huge_list_in_an_event_is_refused(ledger: Path) -> None:
    lines = ledger.read_bytes().count(b"\n")
    with ledger.open("a") as fh:
        fh.write("- {event: game-end, winner: Ann, eliminated: [" + ", ".join(["Bob"] * 5000) + "]}\n")
    check = sb("campaign", "check", "-c", str(ledger), timeout=120)
    assert check.returncode == 1
    assert f"c.yaml:{lines + 1}:" in check.stdout and "holds 5,000 items" in check.stdout


def test_a_write_refuses_an_oversized_field_before_writing(ledger: Path) -> None:
    """The text of a write (`with_event`) never holds a field the next read would refuse."""
    import pytest

    from scarbook.campaign.events import Placed
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.ledger.file import LedgerError
    from scarbook.campaign.ledger.text import with_event

    lines = ledger.read_bytes().count(b"\n")
    with pytest.raises(LedgerError) as caught:
        with_event(read(ledger), Placed("minor-city", "peru", name="N" * 5000))
    found = caught.value.diagnostics[0]
    assert (found.code, found.span.line) == ("L003", lines + 1)
    assert found.message == (f"the event's 'name' is 5,000 characters long; no campaign needs more than "
                             f"{MAX_FIELD_CHARS:,}: shorten it; nothing was written")


def test_oversized_names_what_is_too_big() -> None:
    assert oversized("x" * MAX_FIELD_CHARS, "t") is None
    assert oversized(["a"] * MAX_FIELD_ITEMS, "t") is None
    assert "1,001 characters" in (oversized({"k": ["x" * (MAX_FIELD_CHARS + 1)]}, "t") or "")
    assert "1,001 items" in (oversized([["a"]] * (MAX_FIELD_ITEMS + 1), "t") or "")
