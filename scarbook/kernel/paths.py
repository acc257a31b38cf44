"""How a file is named in messages: as the user typed it, or relative to the current folder.

One rule for the compiler's diagnostics and the tracker's: a path given relative is shown as given; an
absolute one relative to the current folder when it lies inside it, else whole (never a '../../' walk).
"""

from __future__ import annotations

import os
from pathlib import Path


def display_path(path: Path) -> str:
    """FILE as the user would type it: as given when relative; relative to the current folder when inside it."""
    if not path.is_absolute():
        return str(path)
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return str(path) if rel.startswith("..") else rel
