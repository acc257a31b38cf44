"""The append journal (campaign/ledger/journal.py), in-process: its exact bytes, what reads as a whole
journal and what does not, and where half an event torn by a kill is in the ledger's bytes. The
process tests (`test_ledger_append.py`, `test_faults.py`) kill real writers; these call the functions."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from scarbook.campaign.ledger import journal as ledgerjournal
from scarbook.campaign.ledger.journal import (
    Unproven,
    _drop_journal,
    _pread_all,
    _read_journal,
    _torn_part,
    _without_a_half_append,
    _write_journal,
    journal_path,
)

OLD = b"events:\n- {a: 1}\n"
LINE = b"- {event: place, sticker: coin, target: x}\n"
DIGEST = hashlib.sha256(OLD).hexdigest()
AT = len(OLD)


def _beside_a_ledger(tmp_path: Path) -> Path:
    """The journal path of a ledger `c.yaml` made in `tmp_path` (a journal names its ledger's inode)."""
    (tmp_path / "c.yaml").write_bytes(OLD)
    return journal_path(tmp_path / "c.yaml")


def _ids(journal: Path) -> bytes:
    """The identities a journal written now would name: the ledger's device and inode, then its own."""
    ledger, own = os.stat(journal.with_name(journal.name[1:-7])), os.stat(journal)
    return b"%d %d %d %d" % (ledger.st_dev, ledger.st_ino, own.st_dev, own.st_ino)


def test_the_journal_is_beside_the_ledger_and_hidden(tmp_path: Path) -> None:
    assert journal_path(tmp_path / "c.yaml") == tmp_path / ".c.yaml.append"


def test_a_journal_is_written_exactly_once_private_and_read_back(tmp_path: Path) -> None:
    journal = _beside_a_ledger(tmp_path)
    _write_journal(journal, AT, OLD, LINE)
    assert journal.read_bytes() == b"scarbook-append 2 %d %d %s %s\n%s" % (AT, len(LINE), DIGEST.encode(),
                                                                        _ids(journal), LINE)
    assert stat.S_IMODE(journal.stat().st_mode) == 0o600
    assert _read_journal(journal) == (AT, DIGEST, LINE)
    with pytest.raises(FileExistsError):  # O_EXCL: never over another writer's journal
        _write_journal(journal, 0, b"", b"x")
    _drop_journal(journal)
    assert not journal.exists() and _read_journal(journal) is None
    _drop_journal(journal)  # a journal already gone is fine


def test_a_short_write_of_the_journal_is_continued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data[:7])))  # 7 bytes at a time
    journal = _beside_a_ledger(tmp_path)
    _write_journal(journal, AT, OLD, LINE)
    monkeypatch.undo()
    assert _read_journal(journal) == (AT, DIGEST, LINE)


def test_a_large_suffix_is_written_whole(tmp_path: Path) -> None:
    suffix = b"- {event: pass}\n" * 100_000  # 1.6 MB: more than one write may take
    journal = _beside_a_ledger(tmp_path)
    _write_journal(journal, 3, b"abc", suffix)
    assert _read_journal(journal) == (3, hashlib.sha256(b"abc").hexdigest(), suffix)


@pytest.mark.parametrize("blob", [
    b"",
    b"scarbook-append 2 17 3 abc IDS\n",  # no suffix: the kill came before it was written
    b"scarbook-append 2 17 0 abc IDS\n",
    b"scarbook-append 2 17 3 abc IDS\nab",  # shorter than it says
    b"scarbook-append 2 17 3 abc IDS\nabcd",  # longer
    b"scarbook-append  17 3 abc IDS\nabc",
    b"scarbook-append 2 x17 3 abc IDS\nabc",
    b"scarbook-append 2 -17 3 abc IDS\nabc",
    b"scarbook-append 2 17 three abc IDS\nabc",
    b"scarbook-append 2 17 3 IDS\nabc",
    b"scarbook-append 2 17 3 abc def IDS\nabc",
    b"scarbook-append 2 17 3 abc 1 2 3\nabc",
    b"scarbook-append 2 17 3 abc 1 2 3 x\nabc",
    b"scarbook-append 2 17 3 abc IDS",
], ids=repr)
def test_what_is_not_a_whole_journal(tmp_path: Path, blob: bytes) -> None:
    journal = _beside_a_ledger(tmp_path)
    journal.write_bytes(b"")
    journal.write_bytes(blob.replace(b"IDS", _ids(journal)))
    assert _read_journal(journal) is False


@pytest.mark.parametrize("blob", [b"scarbook-append 1 17 3 abc\nabc", b"scarbook-append 3 17 3 abc 1 2 3 4\nabc",
                                  b"scarbook-append 1 17 5 abc\nabcde"], ids=repr)
def test_an_old_or_unknown_version_proves_nothing(tmp_path: Path, blob: bytes) -> None:
    journal = _beside_a_ledger(tmp_path)
    journal.write_bytes(blob)
    with pytest.raises(Unproven, match="names neither this ledger nor itself"):
        _read_journal(journal)


def test_a_copy_or_a_journal_of_another_ledger_proves_nothing(tmp_path: Path) -> None:
    journal = _beside_a_ledger(tmp_path)
    _write_journal(journal, AT, OLD, LINE)
    blob = journal.read_bytes()
    journal.rename(tmp_path / "kept")  # kept: its inode is not free to be reused by the copy
    journal.write_bytes(blob)  # the same bytes, another inode: a copy
    os.chmod(journal, 0o600)
    with pytest.raises(Unproven, match="a copy"):
        _read_journal(journal)
    journal.unlink()
    _write_journal(journal, AT, OLD, LINE)
    assert _read_journal(journal) == (AT, DIGEST, LINE)  # the control: the journal scarbook wrote
    ledger = tmp_path / "c.yaml"
    ledger.rename(tmp_path / "old.yaml")
    ledger.write_bytes(OLD)  # the ledger replaced (an editor's save, a checkout): another inode
    with pytest.raises(Unproven, match="another file"):
        _read_journal(journal)
    ledger.unlink()
    with pytest.raises(Unproven, match="gone"):
        _read_journal(journal)


def test_the_suffix_may_hold_line_breaks_and_the_digest_is_text(tmp_path: Path) -> None:
    journal = _beside_a_ledger(tmp_path)
    journal.write_bytes(b"")
    journal.write_bytes(b"scarbook-append 2 0 5 \xffab %s\n\n- x\n" % _ids(journal))
    assert _read_journal(journal) == (0, "\ufffdab", b"\n- x\n")


def test_a_journal_that_is_not_a_regular_file_is_not_one(tmp_path: Path) -> None:
    real = _beside_a_ledger(tmp_path)
    real.write_bytes(b"")
    os.chmod(real, 0o600)
    real.write_bytes(b"scarbook-append 2 0 1 abc %s\nx" % _ids(real))
    assert _read_journal(real) == (0, "abc", b"x")
    (tmp_path / "dir").mkdir()
    assert _read_journal(tmp_path / "dir") is False
    (tmp_path / "link").symlink_to(real)
    assert _read_journal(tmp_path / "link") is False  # never followed
    os.mkfifo(tmp_path / "fifo")
    assert _read_journal(tmp_path / "fifo") is False  # and never blocks


def test_pread_all_reads_from_an_offset_to_the_end(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"0123456789")
    fd = os.open(tmp_path / "f", os.O_RDONLY)
    try:
        assert (_pread_all(fd), _pread_all(fd, 4), _pread_all(fd, 10), _pread_all(fd, 11)) == (
            b"0123456789", b"456789", b"", b"")
    finally:
        os.close(fd)


def test_pread_all_stops_one_read_past_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mib = 1 << 20
    (tmp_path / "f").write_bytes(bytes(range(256)) * (3 * mib // 256 + 1))
    monkeypatch.setattr(ledgerjournal, "MAX_LEDGER_BYTES", mib)
    fd = os.open(tmp_path / "f", os.O_RDONLY)
    try:
        assert _pread_all(fd) == (tmp_path / "f").read_bytes()[:mib + 1]  # one byte past the cap says "too big"
        assert _pread_all(fd, 5) == (tmp_path / "f").read_bytes()[5:5 + mib + 1]
    finally:
        os.close(fd)


# --- where the half event is --------------------------------------------------------------------------------
@pytest.mark.parametrize(("raw", "found"), [
    (OLD[:-1], ("none", 0, 0)),  # shorter than the offset: rewritten since
    (b"X" + OLD[1:] + LINE[:9], ("none", 0, 0)),  # other bytes before the offset: rewritten since
    (OLD + LINE[:9] + b"X# c\n", ("unclear", AT, AT + 9)),  # glued text, even if a comment follows it
    (OLD + LINE[:9] + b"\r\n- next\n", ("cut", AT, AT + 9)),  # what follows starts a line of its own
    (OLD + LINE[:9] + b"\r", ("cut", AT, AT + 9)),
    (OLD + LINE[:9] + b"\t # hand\n", ("cut", AT, AT + 9)),  # LINE[9] is a space: a tab first
    (OLD + LINE[:9] + b"\t - {event: pass}\n", ("cut", AT, AT + 9)),
    (OLD + LINE[:9] + b"-x\n", ("unclear", AT, AT + 9)),
    (OLD + LINE[:9] + b"\t-\n", ("unclear", AT, AT + 9)),
    (OLD + b"zz", ("none", 0, 0)),  # nothing of the event: no candidate
    (OLD + LINE[:5] + b"\n" + LINE[:12], ("cut", AT + 6, AT + 18)),  # the longest trusted half wins
    (OLD + LINE[:5] + b"\n" + LINE[:5], ("cut", AT, AT + 5)),  # of equal ones, the first
    (OLD + LINE[:5] + b"x\n" + LINE[:3] + b"y\n", ("unclear", AT, AT + 5)),  # of unclear ones, the first
    (OLD + LINE[:5] + b"x\n" + LINE[:3] + b"\n", ("cut", AT + 7, AT + 10)),  # a trusted one beats an unclear one
    (OLD + LINE[:5] + b"\n" + LINE, ("none", 0, 0)),  # the whole event is there (after a hand line)
])
def test_where_the_half_event_is(raw: bytes, found: tuple[str, int, int]) -> None:
    assert _torn_part(raw, AT, DIGEST, LINE) == found


def test_the_line_break_a_file_without_a_final_one_needed_is_kept() -> None:
    bare = OLD.rstrip(b"\n")
    digest, suffix = hashlib.sha256(bare).hexdigest(), b"\r\n" + LINE
    assert _torn_part(bare + b"\r\n", len(bare), digest, suffix) == ("none", 0, 0)  # only the line break: keep it
    assert _torn_part(bare + b"\r", len(bare), digest, suffix) == ("none", 0, 0)
    assert _torn_part(bare + b"\r\n- {e", len(bare), digest, suffix) == ("cut", len(bare) + 2, len(bare) + 6)
    # a line break typed first: the half event starts a line later, its own line break goes with it
    suffix = b"\n" + LINE
    assert _torn_part(bare + b"\n\n- {e", len(bare), digest, suffix) == ("cut", len(bare) + 1, len(bare) + 6)
    # hand lines, the last without a line break either, landed before the append: its line break ends them
    hand = bare + b"\n- {event: pass, by: Bo}"
    assert _torn_part(hand + b"\n- {e", len(bare), digest, suffix) == ("cut", len(hand) + 1, len(hand) + 5)
    assert _torn_part(hand + b"\n- {e\n# typed after\n", len(bare), digest, suffix) == \
        ("cut", len(hand) + 1, len(hand) + 5)
    # only the append's line break: but "\n- {event: p" at OFFSET may as well be a half event with "ass, by:
    # Bo}" typed onto it after the kill, so this one is for the user to look at
    assert _torn_part(hand + b"\n", len(bare), digest, suffix) == ("unclear", len(bare) + 1, len(bare) + 12)
    assert _torn_part(hand + b"\n" + LINE, len(bare), digest, suffix) == ("none", 0, 0)  # the whole append
    assert _torn_part(hand + b"\n" + LINE + b"- {typed: after}\n", len(bare), digest, suffix) == ("none", 0, 0)
    # a line typed in another line-break style than the append's is not the append's: it stays
    assert _torn_part(bare + b"\n- {e", len(bare), digest, b"\r\n" + LINE) == ("none", 0, 0)
    # ...and with their own line break: the append's line break is a blank line, cut with the half
    hand += b"\n"
    assert _torn_part(hand + b"\n- {e", len(bare), digest, suffix) == ("cut", len(hand), len(hand) + 5)


def test_a_reader_sees_the_bytes_without_the_half_event(tmp_path: Path) -> None:
    target = tmp_path / "c.yaml"
    target.write_bytes(OLD + LINE[:9])
    torn = OLD + LINE[:9]
    assert _without_a_half_append(torn, target) == torn  # no journal: as they are
    journal_path(target).write_bytes(b"not a journal")
    assert _without_a_half_append(torn, target) == torn
    journal_path(target).unlink()
    _write_journal(journal_path(target), AT, OLD, LINE)
    assert _without_a_half_append(torn, target) == OLD
    assert _without_a_half_append(torn + b"# later\n", target) == OLD + b"# later\n"
    assert _without_a_half_append(torn + b"oops\n", target) == torn + b"oops\n"  # unclear: shown as is
    assert _without_a_half_append(OLD + LINE, target) == OLD + LINE
    assert journal_path(target).exists()  # reading changes nothing on disk
