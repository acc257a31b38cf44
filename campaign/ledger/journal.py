"""The append journal: how a reader and the next write recognise an append torn by a kill.

Before appending an event in place, `ledgerwrite` writes `.FILE.append` (O_EXCL, fsynced): the offset,
a sha256 of the bytes before it, the ledger's identity and its own, and the event's bytes; it removes it
after the append's fsync. A journal left behind means the writer died: readers see the file without the
half event (`_without_a_half_append`), and the next write cuts it (`ledgerwrite.finish_interrupted_append`).

A journal is used only when it proves it is the journal of an unfinished write of *this* ledger
(`_unproven`): it names its own device and inode and the ledger's, and both still match, so a copy made by
git, a sync tool, `cp` or `unzip` (a new inode) proves nothing, nor does one whose ledger was replaced since;
and it must extend the ledger's exact bytes (the sha256 of those before its offset). Anything else is ignored
and reported (`report_ignored`), never applied; a write refuses (L006) until it is removed.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any

from scarbook.campaign.ledger.file import MAX_LEDGER_BYTES

_OPEN_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | os.O_NONBLOCK


def _pread_all(fd: int, start: int = 0) -> bytes:
    """The bytes of an open file from `start` to its end (capped just above MAX_LEDGER_BYTES)."""
    chunks, at = [], start
    size = min(max(1 << 20, os.fstat(fd).st_size - start + 1), MAX_LEDGER_BYTES + 1)  # usually one read, no copy
    while at - start <= MAX_LEDGER_BYTES:
        chunk = os.pread(fd, size, at)
        if not chunk:
            break
        chunks.append(chunk)
        at += len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)



def _holds(fd: int, expected: bytes, chunk: int = 1 << 20) -> bool:
    """Whether an open file's bytes (from its start to its end) are exactly `expected`: `_pread_all(fd) ==
    expected`, read into one reused buffer and compared in place (no copy of a 4 MB ledger: 0.4 ms, not 2.5)."""
    if not hasattr(os, "preadv"):  # pragma: no cover - platforms without preadv
        return _pread_all(fd) == expected
    view = memoryview(bytearray(min(chunk, len(expected) + 1)))
    at, size = 0, len(expected)
    while True:
        got = os.preadv(fd, [view], at)
        if not got:
            return at == size
        if at + got > size or not expected.startswith(view[:got], at):
            return False
        at += got


def journal_path(target: Path) -> Path:
    """The append journal of a ledger (`ledgerwrite`): present only while an append is made, or after a kill."""
    return target.with_name(f".{target.name}.append")


# --- the append journal: undoing an append torn by a kill --------------------------------------------
# `.FILE.append` beside the ledger, created (O_EXCL) and fsynced before the append, removed after its
# fsync: `scarbook-append 2 OFFSET LENGTH SHA256 LEDGER_DEV LEDGER_INO JOURNAL_DEV JOURNAL_INO\n` then the
# LENGTH bytes appended at OFFSET, SHA256 being that of the file's first OFFSET bytes. Left behind, it means
# the writer died during the append. (Version 1, without the identities, is never applied: it proves nothing.)
_JOURNAL_MAGIC = b"scarbook-append 2"
_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")


def ledger_of(journal: Path) -> Path:
    """The ledger a journal path belongs to (`.c.yaml.append` -> `c.yaml`)."""
    name = journal.name
    if name.startswith(".") and name.endswith(".append"):
        name = name[1:-len(".append")]
    return journal.with_name(name)


def _write_journal(journal: Path, offset: int, before: bytes, suffix: bytes, before_sha256: str | None = None,
                   ledger: os.stat_result | None = None) -> None:
    """Write `.FILE.append` for appending `suffix` at `offset` after the bytes `before` (whose sha256 the caller
    may know already: the ledger cache verified it when the command read them), O_EXCL and fsynced. It names
    the ledger's device and inode (`ledger`, its stat; else the file `ledger_of(journal)`'s) and its own."""
    if before_sha256 is None:
        import hashlib

        before_sha256 = hashlib.sha256(before).hexdigest()
    digest = before_sha256.encode()
    if ledger is None:
        ledger = os.stat(ledger_of(journal))
    fd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _OPEN_FLAGS, 0o600)
    try:
        own = os.fstat(fd)
        blob = b"%s %d %d %s %d %d %d %d\n%s" % (_JOURNAL_MAGIC, offset, len(suffix), digest, ledger.st_dev,
                                                  ledger.st_ino, own.st_dev, own.st_ino, suffix)
        done = 0
        while done < len(blob):
            done += os.write(fd, blob[done:])
        os.fsync(fd)
    finally:
        os.close(fd)


def _drop_journal(journal: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal)


class Unproven(PermissionError):
    """A journal that does not prove it is the journal of an unfinished write of this ledger: never applied."""


def _read_journal(journal: Path) -> tuple[int, str, bytes] | None | bool:
    """(offset, sha256, suffix); None when there is no journal; False when it is not a whole journal
    (a kill while writing it: the append had not begun) or not a regular file (remove it, never follow it).

    A regular file that is not the user's own, or that others may write, raises `Untrusted`; one that does not
    prove it belongs to an unfinished write of this ledger raises `Unproven` (`_unproven`). Neither is ever
    used (anyone who can create a file beside a ledger, git and sync tools included, could otherwise make
    readers hide, and the next write cut, acknowledged events), nor removed (it may be a teammate's).
    """
    import stat

    from scarbook.kernel.trust import Untrusted, open_trusted, why_untrusted

    try:
        fd = open_trusted(journal)
    except FileNotFoundError:
        return None
    except Untrusted:
        try:
            st = os.lstat(journal)
        except OSError:
            return False
        if stat.S_ISREG(st.st_mode):
            raise Untrusted(1, why_untrusted(st) or "not trusted", str(journal)) from None
        return False
    except OSError:
        return False
    try:
        own = os.fstat(fd)
        blob = _pread_all(fd)
    finally:
        os.close(fd)
    head, _, suffix = blob.partition(b"\n")
    words = head.split(b" ")
    if (words[:1] == [b"scarbook-append"] and len(words) >= 4 and words[1].isdigit() and words[1] != b"2"
            and words[3].isdigit() and suffix and len(suffix) == int(words[3])):  # whole, of another version
        raise Unproven(1, "it names neither this ledger nor itself (an old or a foreign journal)", str(journal))
    numbers = words[2:4] + words[5:]
    if len(words) != 9 or b" ".join(words[:2]) != _JOURNAL_MAGIC or not all(w.isdigit() for w in numbers):
        return False
    if len(suffix) != int(words[3]) or not suffix:
        return False
    why = _unproven(journal, own, *(int(w) for w in words[5:]))
    if why is not None:
        raise Unproven(1, why, str(journal))
    return int(words[2]), words[4].decode("ascii", "replace"), suffix


def _unproven(journal: Path, own: os.stat_result, ledger_dev: int, ledger_ino: int, dev: int,
              ino: int) -> str | None:
    """Why a whole journal does not prove it belongs to an unfinished write of its ledger (None: it does).

    It must be the very file scarbook wrote (its own device and inode: a copy by git, a sync tool or `cp` is a
    new file), beside the very ledger it was written for (the ledger's device and inode). (That it extends the
    ledger's exact bytes is `_torn_part`'s first test: else nothing is cut.)"""
    if (own.st_dev, own.st_ino) != (dev, ino):
        return "it is a copy, not the file scarbook wrote (brought by git, a sync tool or a copy?)"
    try:
        ledger = os.stat(ledger_of(journal))
    except OSError:
        return "its ledger is gone"
    if (ledger.st_dev, ledger.st_ino) != (ledger_dev, ledger_ino):
        return "it was written for another file (the ledger was replaced or copied since)"
    return None


def report_ignored(journal: Path, why: str) -> None:
    """Tell the user (once per process, on standard error) that a journal beside the ledger was ignored."""
    import sys

    from scarbook.kernel.paths import display_path

    if str(journal) in _REPORTED:
        return
    _REPORTED.add(str(journal))
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"note: {display_path(journal)} was ignored: {why}; it is not the journal of an unfinished "
                         "scarbook write of this ledger, and nothing in it was applied: remove it\n")


_REPORTED: set[str] = set()


def untrusted_journal(journal: Path, shown: str, why: str) -> Any:
    """The LedgerError a write gives when the append journal beside the ledger is not the user's own private file."""
    from scarbook.campaign.ledger.file import LedgerError, display_path
    from scarbook.kernel.diagnostics import Span, error

    return LedgerError([error(Span(shown, 1, 1), "L006", f"{display_path(journal)} is not scarbook's journal of "
                              f"your own writes ({why}); it was ignored and nothing was written: if it is yours, "
                              "make it private (chmod 600), else remove it, then run the command again")])


def unproven_journal(journal: Path, shown: str, why: str) -> Any:
    """The LedgerError a write gives when the journal beside the ledger does not prove it is one of this ledger."""
    from scarbook.campaign.ledger.file import LedgerError, display_path
    from scarbook.kernel.diagnostics import Span, error

    return LedgerError([error(Span(shown, 1, 1), "L006", f"{display_path(journal)} is not the journal of an "
                              f"unfinished scarbook write of this ledger ({why}); it was ignored and nothing was "
                              "written: remove it (and from git or the sync tool that brought it), then run the "
                              "command again")])


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
    longest wins; with none trusted and some untrusted, "unclear". When the file lacked a final line break,
    the append starts with one; if hand lines (the last one without a line break too) came first, that
    line break ends them and the half event is what follows it. (A real SIGKILL tears a write at a page
    boundary or before its first byte.)"""
    import hashlib

    if len(raw) < offset or hashlib.sha256(raw[:offset]).hexdigest() != digest:
        return "none", 0, 0
    lead = len(suffix) - len(suffix.lstrip(b"\r\n"))  # the line break a file without a final one needed: keep it
    best: tuple[int, int] | None = None
    unclear: tuple[int, int] | None = None
    at = offset
    while at <= len(raw):
        part = suffix
        k = _matched(raw, at, part)
        begin = at + (lead if at == offset else 0)
        if at > offset and lead and k == 0 and raw[at - lead:at] == suffix[:lead]:
            # Hand lines without a final line break landed first: the append's own line break ended the last
            # of them, so the half event starts here, after it (kept, as at OFFSET).
            part = suffix[lead:]
            k = _matched(raw, at, part)
        if k == len(part):
            return "none", 0, 0  # the whole append is there
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


def _matched(raw: bytes, at: int, part: bytes) -> int:
    """How many bytes of `part` stand in `raw` from `at` on (the longest common prefix)."""
    k, limit = 0, min(len(raw) - at, len(part))
    while k < limit and raw[at + k] == part[k]:
        k += 1
    return k


def _without_a_half_append(raw: bytes, target: Path) -> bytes:
    """What a reader should see: the bytes, minus half an event whose writer is still appending it or
    died doing so (the journal says). Changes nothing on disk; one failed `open` when there is no journal."""
    from scarbook.kernel.trust import Untrusted

    try:
        entry = _read_journal(journal_path(target))
    except Unproven as exc:
        report_ignored(journal_path(target), exc.strerror or "it proves nothing")
        return raw
    except Untrusted:
        return raw  # another user's file (or one others may write): never used
    if not entry or isinstance(entry, bool):
        return raw
    kind, a, b = _torn_part(raw, *entry)
    return raw[:a] + raw[b:] if kind == "cut" else raw
