"""Safe YAML loading that keeps every node's source position: files in, `Document`s out.

`loads` parses with `yamlparse` (PyYAML's events, libyaml when present), imported on the first
file that must be parsed: this module never imports PyYAML, so a command whose ledger and content
come from the caches does not pay for it. Reading bytes (`read_capped`, `decode`) needs no YAML.
Never raises on bad input: problems come back as diagnostics.
"""

from __future__ import annotations

from pathlib import Path

from scarbook.kernel.diagnostics import Diagnostic, Span, error
from scarbook.kernel.yamldoc import Document, escape

__all__ = ["Document", "escape", "MAX_FILE_BYTES", "decode", "load_file", "loads", "read_capped"]

MAX_FILE_BYTES = 16 * 1024 * 1024


def loads(text: str, file: str) -> Document:
    """Load one YAML document from text; problems become diagnostics."""
    from scarbook.kernel.yamlparse import loads as parse

    return parse(text, file)


def decode(raw: bytes, file: str) -> tuple[str | None, list[Diagnostic]]:
    """UTF-8 (with or without BOM) to text, or a diagnostic at the first bad byte."""
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        return None, [error(Span(file, line, col), "Y002", f"byte 0x{raw[exc.start]:02x} is not UTF-8; "
                            "save the file as UTF-8 text")]


def read_capped(path: Path, limit: int) -> bytes:
    """A regular file's bytes, at most `limit` + 1 of them; OSError (EINVAL) for anything else.

    Stat before open, open with O_NONBLOCK, fstat after: a FIFO never blocks, a device is never read.
    """
    import errno
    import os
    import stat

    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a FIFO, device, socket or folder)")
    if st.st_size > limit:  # refused by its size before a byte is read
        return b"\0" * (limit + 1)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a FIFO, device, socket or folder)")
        chunks, size = [], 0
        step = max(1 << 20, st.st_size + 1)  # the whole file in one read as a rule (no copy to join chunks)
        while size <= limit:
            chunk = os.read(fd, min(step, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def load_file(path: Path, display: str) -> Document:
    """Load a YAML file, refusing oversized or non-regular files before reading them whole."""
    try:
        raw = read_capped(path, MAX_FILE_BYTES)
        if len(raw) > MAX_FILE_BYTES:
            doc = Document(display)
            doc.diagnostics.append(error(Span(display, 1, 1), "Y009", f"file is larger than "
                                         f"{MAX_FILE_BYTES // (1024 * 1024)} MiB, the limit: split it into "
                                         "several files"))
            return doc
    except OSError as exc:
        doc = Document(display)
        doc.diagnostics.append(error(Span(display), "Y010", f"cannot read file: {exc.strerror}"))
        return doc
    text, problems = decode(raw, display)
    if text is None:
        doc = Document(display)
        doc.diagnostics.extend(problems)
        return doc
    return loads(text, display)

