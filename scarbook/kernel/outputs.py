"""Writing a user-named output file (`--out`): onto a new file, a previous output, a stream, or refused.

- `-` is standard output.
- A FIFO or a character device is written as a stream: opened without blocking (a FIFO nobody reads is
  refused at once, never a hang), then written; it is never renamed over (a rename would replace the node).
- An existing regular file is replaced (atomically) only when it is empty or a previous output of scarbook
  (`is_scarbook_output`), or with `--force`; anything else is refused, nothing written.
- A folder, a socket or a block device is refused.

`check_output` says, before any rendering, whether a path may be written; `write_output` writes it.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

#: Every HTML, SVG and PDF output of scarbook carries this mark (a `generator` meta, an XML comment, the
#: PDF's Creator), so that writing it again needs no --force while an unrelated file is never overwritten.
MARK = b"scarbook"
_LOOK = 1 << 16  # how much of each end of an existing file is looked at for the mark


class OutputRefused(Exception):
    """The output path may not be written: the message says why and what to do; nothing was written."""


def is_stdout(path: Path) -> bool:
    return str(path) == "-"


def is_scarbook_output(path: Path) -> bool:
    """Whether a regular file is empty or carries scarbook's mark near its start or end (a previous output)."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size == 0:
                return True
            head = fh.read(_LOOK)
            fh.seek(max(0, size - _LOOK))
            tail = fh.read(_LOOK)
    except OSError:
        return False
    return MARK in head or MARK in tail or b"s\x00c\x00a\x00r\x00b\x00o\x00o\x00k" in tail


def check_output(path: Path, force: bool = False) -> None:
    """OutputRefused unless `path` may be written by `write_output` (see the module)."""
    if is_stdout(path):
        return
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputRefused(f"{path}: {exc.strerror}; nothing was written: choose another --out FILE") from None
    if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise OutputRefused(f"{path} is a folder; nothing was written: give a file name, e.g. --out {path}/sheet.pdf")
    if not stat.S_ISREG(st.st_mode):
        raise OutputRefused(f"{path} is not a regular file (a socket or a block device); nothing was written: "
                            "choose another --out FILE")
    if not force and not is_scarbook_output(path):
        raise OutputRefused(f"{path} exists and is not a previous output of scarbook; nothing was written: choose "
                            "another --out FILE, or add --force to replace it")


def write_output(path: Path, data: bytes) -> None:
    """Write `data` to `path` (after `check_output`): standard output, a stream, or a new or replaced file."""
    if is_stdout(path):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and (stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode)):
        _write_stream(path, data)
        return
    from scarbook.kernel.atomic import replace_file

    replace_file(path, data)


def _write_stream(path: Path, data: bytes) -> None:
    """Write to a FIFO or a character device in place: never block on a FIFO nobody reads (refused)."""
    import errno
    import fcntl

    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputRefused(f"{path} is a FIFO that no program is reading; nothing was written: start the "
                                "reader first, or choose another --out FILE") from None
        raise
    try:
        if not stat.S_ISFIFO(os.fstat(fd).st_mode) and not stat.S_ISCHR(os.fstat(fd).st_mode):
            raise OutputRefused(f"{path} changed while it was written to; nothing was written: run it again")
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        view, done = memoryview(data), 0
        while done < len(data):
            done += os.write(fd, view[done:])
    finally:
        os.close(fd)
