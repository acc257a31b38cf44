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
    entries (games, ledgers, compiled templates, validators and the compiled-code file alike; never `entry`
    itself). A ledger's entry is every file of `ledgers/` that shares its name up to the first dot
    (`KEY.head`, `KEY.events`, `KEY.games`): its parts go together, at the time the most recently used of
    them was. Every other file, in the folder or one level below it (`templates/`, `validators/`), is an
    entry of its own. Hidden files (a writer's temporary file) are left alone. Never fails; deleting an
    entry is always safe."""
    import stat

    limit = cache_limit()
    root = cache_dir()
    groups: dict[str, list[tuple[float, int, str]]] = {}

    def scan(folder: Path, grouped: bool, depth: int) -> None:
        with contextlib.suppress(OSError), os.scandir(folder) as it:
            for item in it:
                if item.name.startswith("."):
                    continue
                with contextlib.suppress(OSError):
                    st = item.stat(follow_symlinks=False)
                    if stat.S_ISDIR(st.st_mode):
                        if depth == 0:
                            scan(Path(item.path), item.name == "ledgers", 1)
                        continue
                    name = os.path.join(folder, item.name.split(".", 1)[0]) if grouped else item.path
                    groups.setdefault(name, []).append((st.st_mtime, st.st_size, item.path))

    scan(root, False, 0)
    total = sum(size for parts in groups.values() for _, size, _ in parts)
    mine = str(entry)
    for parts in sorted(groups.values(), key=lambda ps: max(p[0] for p in ps)):
        if total <= limit:
            break
        if any(path == mine for _, _, path in parts):
            continue
        for _, size, path in parts:
            with contextlib.suppress(OSError):
                os.unlink(path)
                total -= size
