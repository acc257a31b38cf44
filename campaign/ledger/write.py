"""Writing the ledger safely: the lock, in-place appends with their journal, truncation, replace by rename.

`write_atomic` compares the file with the bytes the command read (L012 when someone saved meanwhile),
keeps `FILE.bak`, then appends in place (O_APPEND, one write, fsync) behind a journal that lets the
next write cut an append torn by a kill; `undo` of the last line truncates in place; anything else is
a temporary file (O_EXCL) fsynced and renamed over the ledger. `locked` is the campaign's lock.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

from scarbook.campaign.ledger.file import (
    LINE_BREAK,
    MAX_LEDGER_BYTES,
    LedgerBusy,
    LedgerError,
    as_written,
    line_starts,
    not_a_ledger_file,
    read_raw,
    real_path,
)
from scarbook.campaign.ledger.journal import (
    _OPEN_FLAGS,
    Unproven,
    _drop_journal,
    _holds,
    _pread_all,
    _read_journal,
    _torn_part,
    _write_journal,
    journal_path,
    unproven_journal,
    untrusted_journal,
)
from scarbook.campaign.ledger.text import _blank_or_comment
from scarbook.kernel.diagnostics import Span, error
from scarbook.kernel.paths import display_path

LOCK_WAIT_SECONDS = float(os.environ.get("SCARBOOK_LOCK_WAIT", "3"))


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class LedgerChanged(LedgerError):
    """The file's bytes are not those the command read (a hand edit, another program)."""


def _changed(shown: str) -> LedgerChanged:
    return LedgerChanged([error(Span(shown, 1, 1), "L012", "the file changed while this command ran (saved by hand "
                                "or by another program); nothing was written: run the command again")])


def _open_ledger(target: Path, shown: str, flags: int) -> int:
    """The real ledger file opened with `flags` (never through a symlink planted since `real_path`)."""
    import stat

    try:
        fd = os.open(target, flags | _OPEN_FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the file became a symlink after it was resolved: someone changed it
            raise _changed(shown) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise not_a_ledger_file(shown)
    return fd


def _write_bak(target: Path, current: bytes, st: os.stat_result | None) -> None:
    """`FILE.bak` := `current` through its own temporary file, fsynced, and a rename."""
    from scarbook.kernel.atomic import fault

    _rename_in(target.with_name(target.name + ".bak"), current, st)
    fault("ledger-after-bak")


def _rename_in(path: Path, data: bytes, st: os.stat_result | None) -> None:
    """`path` := `data` through a temporary file beside it (O_EXCL, fsynced, mode of `st`) and a rename;
    the temporary file never outlives a failure."""
    from scarbook.kernel.atomic import write_temp

    tmp = write_temp(path.parent, path.name, data, durable=True, like=st)
    try:
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def write_atomic(path: Path, text: str, backup: bool = True, expected: bytes | None = None,
                 expected_sha256: str | None = None) -> str | None:
    """Make the ledger hold `text`, keeping the previous version as FILE.bak; returns a note to show, or None.

    Through a symlink, the target is written (the link stays a link); `.bak`, the journal, the
    temporary files and the lock are beside the target. With `expected` (the bytes the command read;
    the caller holds the lock), the write is refused with L012 when the file no longer holds them;
    `expected_sha256`, when the caller knows it (`ledgercache.raw_sha256`), spares hashing them again for
    the append journal.
    `.bak` is written by its own temporary file and rename, before the ledger changes.

    When the new text is the old one plus a suffix (an event appended to a block list: the common
    case), the suffix is appended *in place* (`_append_in_place`): the file is never replaced, so a
    hand `>>` racing the write is never lost, and mode, owner and hard links stay. When it is the old
    text minus its tail (`undo` of the last line), the file is truncated in place (`_cut_in_place`).
    Anything else (a flow list, a hand-edited layout, a new file) replaces the file: a temporary file
    with the ledger's mode and owner, fsynced, compared again, `os.replace`d; a kill at any point
    leaves the ledger old or new, and `.bak` its earlier content or the ledger's previous version.
    """
    import stat

    from scarbook.kernel.atomic import clean_orphans, fault, write_temp

    shown = display_path(path)
    target = real_path(path)
    folder = target.parent
    clean_orphans(folder, target.name)
    clean_orphans(folder, target.name + ".bak")
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise not_a_ledger_file(shown)
    data = as_written(text, expected)  # the text was decoded without the file's byte-order mark: keep it
    if expected is not None and st is not None:
        finish_interrupted_append(target, shown)  # a no-op under `locked`, which did it already
        # both compare the file's bytes with `expected` themselves, through the descriptor they write
        if len(data) > len(expected) and data.startswith(expected):
            return _append_in_place(target, shown, st, expected, data[len(expected):], backup, expected_sha256)
        if len(data) < len(expected) and expected.startswith(data):
            _cut_in_place(target, shown, st, expected, len(data), backup)
            return None
    current = read_raw(target, shown) if st is not None else None
    if expected is not None and current != expected:
        raise _changed(shown)
    if backup and current is not None:
        _write_bak(target, current, st)
    tmp = write_temp(folder, target.name, data, durable=True, like=st)
    old_fd = -1
    try:
        fault("ledger-before-replace")
        if expected is not None:
            with contextlib.suppress(OSError):
                old_fd = os.open(target, os.O_RDONLY | _OPEN_FLAGS)
            if read_raw(target, shown) != expected:
                raise _changed(shown)
        fault("ledger-after-check")
        os.replace(tmp, target)
        if old_fd >= 0:
            fault("ledger-after-rename")
            _put_back_a_late_edit(target, shown, old_fd, expected or b"", data, st)
    finally:
        if old_fd >= 0:
            os.close(old_fd)
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    _fsync_dir(folder)
    return None


def _compare_and_back_up(fd: int, target: Path, shown: str, st: os.stat_result, expected: bytes, backup: bool,
                         point: str) -> None:
    """Before an in-place change: the ledger (read through `fd`, the descriptor about to be written) still
    holds exactly the bytes the command read (else L012); `.bak` gets them; then, at fault point `point`,
    it is compared once more, its size first, right before the change."""
    from scarbook.kernel.atomic import fault

    if not _holds(fd, expected):
        raise _changed(shown)
    if backup:
        _write_bak(target, expected, st)
    fault(point)
    if os.fstat(fd).st_size != len(expected) or not _holds(fd, expected):
        raise _changed(shown)


def _append_in_place(target: Path, shown: str, st: os.stat_result, expected: bytes, suffix: bytes,
                     backup: bool, expected_sha256: str | None = None) -> str | None:
    """Append `suffix` to the ledger's own inode with O_APPEND, under the lock.

    The bytes are compared (through the very descriptor written to) with those the command read;
    `.bak` gets them; a journal (`.FILE.append`: offset, sha256 of the bytes before it, the suffix)
    is written and fsynced; the suffix goes in ONE write (looped on a short write) and is fsynced;
    the journal is removed. O_APPEND writes to one inode are serialised by the kernel, so a hand `>>`
    racing this lands before or after the event, never inside it, and is never lost. A kill that
    tears the write (it can, between pages) leaves the journal: the next locked write cuts the half
    event (`finish_interrupted_append`), and readers never see it (`read`).
    """
    from scarbook.kernel.atomic import die, fault, fault_action

    fd = _open_ledger(target, shown, os.O_RDWR | os.O_APPEND)
    journal = journal_path(target)
    journaled = False
    try:
        _compare_and_back_up(fd, target, shown, st, expected, backup, "ledger-before-replace")
        fault("ledger-after-check")
        _write_journal(journal, len(expected), expected, suffix, expected_sha256, os.fstat(fd))
        journaled = True
        if fault_action("ledger-append") == "torn":
            os.write(fd, suffix[: len(suffix) // 2])
            die()
        done = 0
        while done < len(suffix):  # one write; a short one (a signal, a full disk) is continued
            done += os.write(fd, suffix[done:])
        end = os.lseek(fd, 0, os.SEEK_CUR)  # O_APPEND leaves the offset at the end of *our* bytes
        os.fsync(fd)
        fault("ledger-after-append")
        note = None
        with contextlib.suppress(FileNotFoundError):
            now = os.stat(target)
            if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):  # renamed over meanwhile (an editor's save)
                raise _changed(shown)  # theirs stands; our event went with the file it replaced
        start = end - len(suffix)
        if start == len(expected) and not _starts_with(fd, expected):
            # rewritten in place (same size) after our last comparison: our event was checked against bytes that
            # are gone. Take it back out (when nothing came after it) and refuse, as if the edit came earlier.
            if os.fstat(fd).st_size == end:
                os.ftruncate(fd, start)
                os.fsync(fd)
                raise _changed(shown)
            note = _typed_meanwhile(fd, len(expected), end, expected)
        elif start > len(expected):  # hand appends landed between our last comparison and our write
            note = _typed_meanwhile(fd, len(expected), start, expected)
            if suffix[:1] not in (b"\n", b"\r") and os.pread(fd, 1, start - 1) not in (b"\n", b"\r"):
                note = _break_a_glued_line(target, shown, fd, start, suffix, st)
        _drop_journal(journal)
        journaled = False
        return note
    except BaseException:
        if journaled:  # the append failed cleanly (an exception, not a kill): undo what we may have written
            with contextlib.suppress(OSError, LedgerError):
                now = os.stat(target)
                if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):  # saved over: our bytes went with the old file
                    _drop_journal(journal)
                else:
                    finish_interrupted_append(target, shown)
        raise
    finally:
        os.close(fd)


def _starts_with(fd: int, expected: bytes) -> bool:
    """Whether an open file's first bytes are exactly `expected` (whatever follows them)."""
    return os.pread(fd, len(expected), 0) == expected


def _typed_meanwhile(fd: int, begin: int, end: int, expected: bytes | None = None) -> str | None:
    """A note when text added by hand just before our event is more than comments and blank lines
    (perhaps an event typed by hand: ours was checked without it, so `check` should look again).

    The file grew from `begin` to `end` bytes before our event. With `expected` (the bytes the command read),
    an edit that rewrote the file in place (an editor saving into the same file) is told from an append: the
    note names the first line that differs from what was read, not the end of the file."""
    if expected is not None:
        now = os.pread(fd, end, 0)
        same = _common_prefix(now, expected)
        if same < len(expected):  # not an append: the file's own bytes changed, from this line on
            line = len(line_starts(now[:same].decode("utf-8", "replace")))
            return (f"note: the file was changed by hand at line {line} while this event was being written; "
                    "the event was checked without that change: run 'scarbook campaign check'")
    typed = os.pread(fd, end - begin, begin).decode("utf-8", "replace")
    if all(_blank_or_comment(line) for line in LINE_BREAK.split(typed)):
        return None
    line = len(line_starts(os.pread(fd, begin, 0).decode("utf-8", "replace")))
    return (f"note: lines were added by hand at line {line} while this event was being written, just before it; "
            "the event was checked without them: run 'scarbook campaign check'")


def _common_prefix(a: bytes, b: bytes) -> int:
    """How many bytes `a` and `b` share from their start (in 64 KiB steps, then byte by byte)."""
    n, step = 0, 1 << 16
    limit = min(len(a), len(b))
    while n + step <= limit and a[n:n + step] == b[n:n + step]:
        n += step
    while n < limit and a[n] == b[n]:
        n += 1
    return n


def _break_a_glued_line(target: Path, shown: str, fd: int, start: int, suffix: bytes,
                        st: os.stat_result) -> str:
    """A hand append without a final line break (`printf '# x' >> FILE`) landed between our last comparison
    and our write, so our event was glued onto its line (inside a comment, or making the line invalid).
    Insert the file's line break before our event, by the replace path (appends made meanwhile are kept)."""
    raw = _pread_all(fd)
    nl = re.search(rb"\r\n|\r|\n", suffix)
    fixed = raw[:start] + (nl.group() if nl else b"\n") + raw[start:]
    _replace_carrying(target, fixed, fd, len(raw), st)
    line = raw[:start].count(b"\n") + 1
    return (f"note: a line added by hand without a line break (line {line}) ended where this event was "
            "appended; a line break was inserted before the event")


def _cut_in_place(target: Path, shown: str, st: os.stat_result, expected: bytes, keep: int, backup: bool) -> None:
    """`undo` of the file's tail: truncate the ledger's own inode to `keep` bytes, under the lock.

    The file is compared with what the command read, `.bak` gets it, then the size is checked once more
    right before `ftruncate` (L012 if it grew). A hand `>>` after the truncation lands after it (the
    inode stays). What remains: an append landing in the microseconds between that last size check and
    the truncation is cut off with the event (no system call truncates only if the size is still N).
    """
    fd = _open_ledger(target, shown, os.O_RDWR)
    try:
        _compare_and_back_up(fd, target, shown, st, expected, backup, "ledger-before-truncate")
        os.ftruncate(fd, keep)
        os.fsync(fd)  # the inode stays: no folder entry changes, so the folder needs no fsync
        now, ours = os.stat(target), os.fstat(fd)
        if (now.st_dev, now.st_ino) != (ours.st_dev, ours.st_ino):  # saved over by rename meanwhile (an editor)
            raise _changed(shown)  # theirs stands: what we cut went with the file it replaced
    finally:
        os.close(fd)


def _put_back_a_late_edit(target: Path, shown: str, old_fd: int, expected: bytes, data: bytes,
                          st: os.stat_result | None) -> None:
    """After the rename: an append (`echo >> FILE`) that reached the old file after the last comparison
    would be lost with it. Then the edited old version is put back, with whatever was appended to the
    new file meanwhile after it, and the command refuses with L012, as if the edit had come a moment
    earlier. A file replaced by someone else since (not ours plus appends) is left alone."""
    try:
        if os.fstat(old_fd).st_size == len(expected):
            return
        late = _pread_all(old_fd)
    except OSError:
        return
    if late == expected or len(late) > MAX_LEDGER_BYTES:
        return
    try:
        new_fd = os.open(target, os.O_RDONLY | _OPEN_FLAGS)
    except OSError:
        return
    try:
        now = _pread_all(new_fd)
        if not now.startswith(data):
            return
        _replace_carrying(target, late + now[len(data):], new_fd, len(now), st)
    finally:
        os.close(new_fd)
    raise _changed(shown)


def _replace_carrying(target: Path, new: bytes, prev_fd: int, prev_len: int, st: os.stat_result | None) -> None:
    """Rename `new` over the ledger, whose inode `prev_fd` holds and of which `prev_len` bytes were read;
    bytes appended to that inode until after the rename are appended to `new` (again, up to 16 times).

    What no rename can close: an appender that opened the old file before the rename and writes after
    the last look at it. That is why appending events never goes this way (`_append_in_place`)."""
    opened: list[int] = []
    try:
        for _ in range(16):
            _rename_in(target, new, st)
            grown = _pread_all(prev_fd, prev_len)
            if not grown:
                break
            try:
                fd = os.open(target, os.O_RDONLY | _OPEN_FLAGS)
            except OSError:
                break
            opened.append(fd)
            now = _pread_all(fd)
            if not now.startswith(new):
                break
            prev_fd, prev_len, new = fd, len(now), now + grown
    finally:
        for fd in opened:
            os.close(fd)
    _fsync_dir(target.parent)


def finish_interrupted_append(target: Path, shown: str) -> None:
    """Under the lock: a journal left by a writer killed during its append is settled. Half an event is
    cut out (hand appends after it kept): truncated in place when it is the file's tail, else by the
    replace path; a complete append, or one that never began, only loses its journal. When where the
    half event ends cannot be told (see `_torn_part`), refuses with L014 and leaves everything as is."""
    from scarbook.kernel.trust import Untrusted

    journal = journal_path(target)
    try:
        entry = _read_journal(journal)
    except Unproven as exc:
        raise unproven_journal(journal, shown, exc.strerror or "it proves nothing") from None
    except Untrusted as exc:
        raise untrusted_journal(journal, shown, exc.strerror or "not trusted") from None
    if entry is None:
        return
    if entry is False:
        _drop_journal(journal)
        return
    assert not isinstance(entry, bool)
    offset, digest, suffix = entry
    fd = _open_ledger(target, shown, os.O_RDWR)
    try:
        for _ in range(16):
            raw = _pread_all(fd)
            kind, a, b = _torn_part(raw, offset, digest, suffix)
            if kind == "unclear":
                line = raw[:a].count(b"\n") + 1
                raise LedgerError([error(Span(shown, line, 1), "L014", "a scarbook write was killed halfway through "
                                         f"appending an event at line {line}, and text was added after it since; "
                                         "nothing was written: delete the unfinished event on that line by hand, "
                                         f"then the file {display_path(journal)}")])
            if kind == "none":
                break
            if b == len(raw):
                if os.fstat(fd).st_size != len(raw):
                    continue  # a hand append meanwhile: look again
                os.ftruncate(fd, a)
                os.fsync(fd)
            else:
                st = os.fstat(fd)
                _replace_carrying(target, raw[:a] + raw[b:], fd, len(raw), st)
            break
    finally:
        os.close(fd)
    _drop_journal(journal)


def _flock(fd: int, deadline: float, shown: str) -> None:
    """Take the exclusive flock of `fd`, waiting until `deadline` (LedgerBusy after it)."""
    import fcntl

    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            if time.monotonic() >= deadline:
                raise LedgerBusy(f"{shown} is being changed by another scarbook command; "
                                 "nothing was written: retry in a moment") from None
            time.sleep(0.02)


def _lock_the_file(target: Path, shown: str, deadline: float) -> int:
    """The ledger's own inode, opened and flocked: hard-linked names of one ledger (each with its own
    `.lock`) are serialised too. If the file was replaced by a rename while we waited, the new one is
    locked instead (the name's `.lock`, held already, keeps newcomers out of a rename in progress)."""
    for _ in range(64):
        fd = _open_ledger(target, shown, os.O_RDONLY)
        try:
            _flock(fd, deadline, shown)
            st, now = os.fstat(fd), os.stat(target)
        except BaseException:
            os.close(fd)
            raise
        if (st.st_dev, st.st_ino) == (now.st_dev, now.st_ino):
            return fd
        os.close(fd)
    raise LedgerBusy(f"{shown} keeps being replaced by another program; nothing was written: retry in a moment")


@contextlib.contextmanager
def locked(path: Path, wait: float | None = None) -> Iterator[None]:
    """Hold the campaign's exclusive lock; raise LedgerBusy after `wait` seconds.

    Two locks, always in this order: `FILE.lock` beside the real file (the name: it outlives a rename of a
    new version over the ledger), then the ledger's inode itself (the file: hard-linked names share it).
    The lock file is used only when it is the user's own regular file that nobody else may write (L006
    otherwise: a planted or shared one could let two writers in at once). Refuses (L001) a ledger that
    does not exist or is not a regular file, and any file that does not read as a ledger, creating nothing.
    """
    import stat

    from scarbook.kernel.trust import Untrusted, open_trusted

    shown = display_path(path)
    target = real_path(path)
    try:
        if not stat.S_ISREG(os.stat(target).st_mode):
            raise not_a_ledger_file(shown)
    except FileNotFoundError:
        read_raw(path, shown)  # raises the usual L001 'no campaign file here'
    from scarbook.campaign.ledger.cache import read_and_hand_on

    try:
        # nothing is created beside a file until it is known to be a ledger (no passwd.lock); the write that
        # takes the lock reads it again only if it changed meanwhile
        read_and_hand_on(path, shown)
    except LedgerError:
        if not os.path.lexists(journal_path(target)):
            raise
        # a write died appending here (a journal): the lock is taken to settle it (L014 when unclear)
    lock_path = target.with_name(target.name + ".lock")
    try:
        fd = open_trusted(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except Untrusted as exc:
        raise LedgerError([error(Span(shown, 1, 1), "L006", f"{display_path(lock_path)} cannot be the campaign's "
                                 f"lock: {exc.strerror}; nothing was written: remove it")]) from None
    deadline = time.monotonic() + (LOCK_WAIT_SECONDS if wait is None else wait)
    inode = -1
    try:
        _flock(fd, deadline, shown)
        inode = _lock_the_file(target, shown, deadline)
        finish_interrupted_append(target, shown)
        yield
    finally:
        if inode >= 0:
            os.close(inode)
        os.close(fd)  # closing releases the locks
