"""The cache folder shared by the content cache (`validate.cached_game`) and the ledger cache
(`campaign.ledger`): where it is, and its size cap with least-recently-used eviction.

Imports nothing beyond the standard library, so reading a cached ledger stays cheap. Deleting any
entry is always safe: the next command is only slower.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

CACHE_LIMIT_MB = 64  # the whole cache folder; $SCARBOOK_CACHE_MB overrides it


def cache_dir() -> Path:
    root = os.environ.get("SCARBOOK_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "scarbook")
    return Path(root)


def cache_limit() -> int:
    """The cache folder's size cap in bytes."""
    try:
        return max(0, int(float(os.environ.get("SCARBOOK_CACHE_MB", CACHE_LIMIT_MB)) * 1024 * 1024))
    except ValueError:
        return CACHE_LIMIT_MB * 1024 * 1024


def cache_used(entry: Path) -> None:
    """Mark a cache entry as just used (its mtime is its place in the least-recently-used order)."""
    with contextlib.suppress(OSError):
        os.utime(entry)


def cache_stored(entry: Path) -> None:
    """After writing `entry`: while the cache folder holds more than its cap, delete the least recently used
    entries (games and ledgers alike; never `entry` itself). Never fails; deleting an entry is always safe."""
    limit = cache_limit()
    root = cache_dir()
    found: list[tuple[float, int, str]] = []
    for folder in (root, root / "ledgers"):
        with contextlib.suppress(OSError), os.scandir(folder) as it:
            for item in it:
                if item.name.endswith(".json"):
                    with contextlib.suppress(OSError):
                        st = item.stat(follow_symlinks=False)
                        found.append((st.st_mtime, st.st_size, item.path))
    total = sum(size for _, size, _ in found)
    for _, size, path in sorted(found):
        if total <= limit:
            break
        if path == str(entry):
            continue
        with contextlib.suppress(OSError):
            os.unlink(path)
            total -= size
