"""Which files beside a ledger or in the cache folder scarbook may use: only the user's own, private ones.

The tracker reads files it did not ask the user for: the append journal, the lock and the backup beside a
ledger, and every file of the cache folder (pickled states, compiled code, compiled templates, generated
validators, cached games). Someone who can create a file in a shared, group-writable or synced folder must
not be able to steer a command through them (cut acknowledged events, run code, hang a command). So each is
used only when it is a *regular file owned by the user running scarbook that nobody else may write* (no
group or other write bit): `trusted`. It is opened without following a symlink and without blocking
(O_NOFOLLOW | O_NONBLOCK: a FIFO never hangs, a device is never read), then checked on the open descriptor
(`fstat`), so a file swapped between a check and the open is never used. Anything else raises `Untrusted`
(an OSError: callers that treat a cache file as a miss need no second `except`).

Imports nothing beyond the standard library: every command's start-up goes through it.
"""

from __future__ import annotations

import os
import stat

OPEN_FLAGS = (getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
              | getattr(os, "O_NONBLOCK", 0))


class Untrusted(PermissionError):
    """A file scarbook will not use: not a regular file, another user's, or writable by others."""


def why_untrusted(st: os.stat_result) -> str | None:
    """Why a file with this `stat` may not be used (None: it may): what it is, whose, or who may write it."""
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                else "a symbolic link" if stat.S_ISLNK(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode)
                else "a device")
        return f"it is {kind}, not a regular file"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o022:
        return f"others may write it (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def trusted(st: os.stat_result) -> bool:
    """Whether a file with this `stat` is a regular file of the user running scarbook that nobody else may write."""
    return why_untrusted(st) is None


def private_like() -> os.stat_result | None:
    """A `like` for `scarbook.kernel.atomic.replace_file` that makes a cache file mode 0600 and the user's own,
    whatever the umask (so that `trusted` accepts it when it is read back)."""
    if not hasattr(os, "getuid"):
        return None
    return os.stat_result((0o100600, 0, 0, 0, os.getuid(), os.getgid(), 0, 0, 0, 0))


def open_trusted(path: str | os.PathLike[str], flags: int = os.O_RDONLY, mode: int = 0o600) -> int:
    """A descriptor of `path` opened with `flags` (never through a symlink, never blocking), when it is a
    trusted file (`trusted`, checked on the descriptor); Untrusted (or the open's OSError) otherwise.

    With O_CREAT a new file gets `mode` (0600: the cache's files are private)."""
    try:
        fd = os.open(path, flags | OPEN_FLAGS, mode)
    except OSError as exc:
        import errno

        if exc.errno == errno.ELOOP:
            raise Untrusted(errno.EPERM, "it is a symbolic link", str(path)) from None
        raise
    try:
        why = why_untrusted(os.fstat(fd))
    except OSError:
        os.close(fd)
        raise
    if why is not None:
        os.close(fd)
        raise Untrusted(1, why, str(path))
    return fd


def read_trusted(path: str | os.PathLike[str], length: int = -1) -> bytes:
    """The bytes of a trusted file (its first `length` when given: a cache part reads only what it
    recorded); Untrusted or OSError otherwise."""
    fd = open_trusted(path)
    try:
        chunks, got = [], 0
        want = os.fstat(fd).st_size + 1 if length < 0 else length
        while length < 0 or got < length:
            chunk = os.read(fd, max(want - got, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        return data if length < 0 else data[:length]
    finally:
        os.close(fd)
