"""What the tools that write generated files share: write a file only when its text changed, and say which."""

from __future__ import annotations

from pathlib import Path


def write_if_changed(target: Path, text: str, root: Path) -> None:
    """Write `text` to `target` unless it already holds it; print what was done, the path relative to `root`."""
    current = target.read_text("utf-8") if target.exists() else ""
    if current != text:
        target.write_text(text, "utf-8")
        print(f"wrote {target.relative_to(root)} ({len(text):,} characters)")
    else:
        print(f"{target.relative_to(root)} is up to date")
