"""Terminal-safe output: every line a command prints goes through `echo`.

Content (homebrew packs, ledgers) is untrusted: a pack's name could hold terminal escape sequences
(ESC, the 8-bit CSI U+009B, OSC titles, bidi overrides) that would repaint or retitle the user's
terminal. `echo` shows every control character except LF, TAB and the CR of a CRLF as a `\\uXXXX`
escape, which is also a valid escape inside a JSON string, so `--format json` stays valid JSON.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import typer

_CONTROL = re.compile("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029"
                      "\\u202a-\\u202e\\u2066-\\u2069]|\\r(?!\\n)")


def terminal_safe(text: str) -> str:
    """`text` with every control character (but LF, TAB, CRLF) shown as `\\uXXXX`."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def echo(message: Any = None, err: bool = False, nl: bool = True, **kwargs: Any) -> None:
    """`typer.echo` for text from anywhere: control characters escaped (see the module)."""
    if isinstance(message, str):
        message = terminal_safe(message)
    typer.echo(message, err=err, nl=nl, **kwargs)


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
