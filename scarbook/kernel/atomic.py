"""Atomic file replacement: a temporary file beside the target, then a rename.

Readers see the old file or the new one, never half of one. `durable=True` also forces the data to
disk before the rename (the campaign ledger needs that; caches and build outputs do not).

The temporary file has an unpredictable name (`tempfile.mkstemp`: O_CREAT|O_EXCL|O_NOFOLLOW), so
a symlink planted beside the target can never redirect a write to another file; the rename
replaces a symlink at the target itself, never what it points to. Temporary files left by a
process that was killed are removed by the next write of the same file. The new file gets the
mode (and, where allowed, the owner) of the file it replaces.

`SCARBOOK_FAULT=POINT:kill|pause` (tests and `bench/soak.py` only) makes a writer SIGKILL itself,
or print `paused POINT` on stderr and wait for a line on stdin, at a named point of a write. A point
may know other actions (`ledger-append:torn` writes half the event, then SIGKILLs): `fault_action`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

TMP_SUFFIX = ".tmp"


def fault_action(point: str) -> str:
    """The action SCARBOOK_FAULT asks for at `point` ('' when it names another point or is unset)."""
    wanted = os.environ.get("SCARBOOK_FAULT")
    if not wanted:
        return ""
    name, _, action = wanted.partition(":")
    return action if name == point else ""


def die() -> None:
    """SIGKILL this very process (fault injection): no cleanup, no `finally`, like `kill -9`."""
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def fault(point: str) -> None:
    """A deterministic fault-injection point (a no-op unless SCARBOOK_FAULT names it)."""
    action = fault_action(point)
    if action == "kill":
        die()
    elif action == "pause":
        import sys

        sys.stderr.write(f"paused {point}\n")
        sys.stderr.flush()
        sys.stdin.readline()


def _umask_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _temp_prefix(name: str) -> str:
    return f".{name}."


def clean_orphans(folder: Path, name: str) -> None:
    """Remove temporary files of `name` left in `folder` by processes that no longer run; never fails."""
    prefix = _temp_prefix(name)
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for entry in entries:
        if not (entry.startswith(prefix) and entry.endswith(TMP_SUFFIX)):
            continue
        pid_text = entry[len(prefix):].split(".", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            from scarbook.kernel.trust import trusted

            if trusted(os.lstat(folder / entry)):  # our own dead writer's file; another user's is not ours to remove
                os.unlink(folder / entry)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process, or not ours to ask: leave its file alone
    return True


def write_temp(folder: Path, name: str, data: bytes, durable: bool = False,
               like: os.stat_result | None = None) -> Path:
    """A new temporary file beside `folder/name` holding `data` (mode/owner of `like`); its path."""
    fd, tmp = tempfile.mkstemp(prefix=f"{_temp_prefix(name)}{os.getpid()}.", suffix=TMP_SUFFIX, dir=folder)
    try:
        with open(fd, "wb", closefd=True) as fh:
            fh.write(data)
            if like is not None:
                os.fchmod(fh.fileno(), stat.S_IMODE(like.st_mode))
                if (like.st_uid, like.st_gid) != (os.getuid(), os.getgid()):
                    with contextlib.suppress(OSError):
                        os.fchown(fh.fileno(), like.st_uid, like.st_gid)
            else:
                os.fchmod(fh.fileno(), _umask_mode())
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def replace_file(path: Path, data: bytes, durable: bool = False, like: os.stat_result | None = None) -> None:
    """Write `data` to `path` atomically; the temporary file never outlives a failure.

    The new file keeps the mode of the file it replaces (or of `like`); a new one gets 0666 & ~umask.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    clean_orphans(path.parent, path.name)
    if like is None:
        with contextlib.suppress(OSError):
            old = os.lstat(path)
            if stat.S_ISREG(old.st_mode):
                like = old
    tmp = write_temp(path.parent, path.name, data, durable, like)
    try:
        fault("atomic-before-replace")
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
