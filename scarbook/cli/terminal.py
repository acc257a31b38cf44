"""Terminal-safe output: every line a command prints goes through `echo`.

Content (homebrew packs, ledgers) is untrusted: a pack's name could hold terminal escape sequences
(ESC, the 8-bit CSI U+009B, OSC titles, bidi overrides) that would repaint or retitle the user's
terminal. `echo` shows every control character except LF, TAB and the CR of a CRLF as a `\\uXXXX`
escape, which is also a valid escape inside a JSON string, so `--format json` stays valid JSON.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections.abc import Callable
from typing import IO, Any

_CONTROL = re.compile("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029"
                      "\\u202a-\\u202e\\u2066-\\u2069]|\\r(?!\\n)")


def terminal_safe(text: str) -> str:
    """`text` with every control character (but LF, TAB, CRLF) shown as `\\uXXXX`."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _Unclosed(io.TextIOWrapper):
    """A text face on a standard stream's bytes that never closes the stream under it."""

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # already detached or closed: nothing to give back
            self.detach()


_REWRAPPED: dict[int, IO[str]] = {}


def _stream(err: bool) -> IO[str] | None:
    """Standard output (or error) as `typer.echo` writes to it: a stream whose encoding is ASCII (a misconfigured
    locale) is written as UTF-8 with replacement characters instead of failing on the first accent."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return None
    encoding = getattr(stream, "encoding", None) or "ascii"
    buffer = getattr(stream, "buffer", None)
    if buffer is None or not _is_ascii(encoding):
        return stream
    made = _REWRAPPED.get(id(stream))
    if made is None:
        made = _REWRAPPED[id(stream)] = _Unclosed(buffer, "utf-8", "replace", line_buffering=True)
    return made


def _is_ascii(encoding: str) -> bool:
    import codecs

    try:
        return codecs.lookup(encoding).name == "ascii"
    except LookupError:
        return False


def echo(message: Any = None, err: bool = False, nl: bool = True) -> None:
    """Print `message` (text with its control characters escaped: see the module) and a newline to standard
    output, or standard error with `err`, and flush: what `typer.echo` does, without importing Typer."""
    stream = _stream(err)
    if stream is None:
        return
    if message is not None and not isinstance(message, (str, bytes, bytearray)):
        message = str(message)
    if isinstance(message, (bytes, bytearray)):
        stream.flush()
        stream.buffer.write(bytes(message) + (b"\n" if nl else b""))  # type: ignore[attr-defined]
        stream.buffer.flush()  # type: ignore[attr-defined]
        return
    text = terminal_safe(message or "") + ("\n" if nl else "")
    if text:
        stream.write(text)
    stream.flush()


def width() -> int | None:
    """The width to wrap prose to on a terminal (its width, or $COLUMNS); None when output goes to a pipe or a file
    (then lines stay whole, for scripts, greps and diffs)."""
    import shutil
    import sys

    if sys.stdout.isatty():
        return max(shutil.get_terminal_size().columns, 40)
    return None


def wrapped(text: str, columns: int | None) -> str:
    """Each line of `text` wrapped to `columns`, continuation lines indented two more than the line (a line
    that is a command to type, `$ ...`, is continued with a backslash, so it can still be copied to a shell)."""
    if not columns:
        return text
    import textwrap

    out = []
    for line in text.splitlines():
        indent = line[:len(line) - len(line.lstrip())]
        if len(line) <= columns:
            out.append(line)
            continue
        if line.lstrip().startswith("$ "):
            parts = textwrap.wrap(line, columns - 2, subsequent_indent=indent + "    ", break_on_hyphens=False,
                                  break_long_words=False)
            out.extend(f"{p} \\" if i < len(parts) - 1 else p for i, p in enumerate(parts))
            continue
        out.extend(textwrap.wrap(line, columns, subsequent_indent=indent + "  ", break_on_hyphens=False,
                                 break_long_words=False))
    return "\n".join(out)


def progress(task: str) -> Callable[[str], None] | None:
    """On a terminal, a callback that shows each stage of a long `task` on stderr ('chronicle: game 3 of 16 ...',
    one line redrawn); None elsewhere (pipes, files and tests see only the result)."""
    import sys

    if not sys.stderr.isatty():
        return None

    def show(stage: str) -> None:  # '' ends it: the line is cleared
        sys.stderr.write(f"\r\x1b[K{task}: {stage} ..." if stage else "\r\x1b[K")
        sys.stderr.flush()

    return show
