"""What the tools that write generated files share: write a file only when its text changed, and say which."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def write_if_changed(target: Path, text: str, root: Path) -> None:
    """Write `text` to `target` unless it already holds it; print what was done, the path relative to `root`."""
    current = target.read_text("utf-8") if target.exists() else ""
    if current != text:
        target.write_text(text, "utf-8")
        print(f"wrote {target.relative_to(root)} ({len(text):,} characters)")
    else:
        print(f"{target.relative_to(root)} is up to date")


def check_or_write(doc: str, target: Path, make: Callable[[], str], root: Path, tool: str) -> int:
    """A generator's command line: `--check` exits 1 (saying so) when `target` does not hold `make()`, else the
    file is written when it changed. `doc` is the tool's docstring (its first line is the help)."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the generated file is current")
    args = parser.parse_args()
    text = make()
    if args.check:
        if not target.exists() or target.read_text("utf-8") != text:
            print(f"{target.relative_to(root)} is out of date: run python tools/{tool}", file=sys.stderr)
            return 1
        return 0
    write_if_changed(target, text, root)
    return 0
