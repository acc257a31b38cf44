"""Atomic file replacement: a temporary file beside the target, then a rename.

Readers see the old file or the new one, never half of one. `durable=True` also forces the data to
disk before the rename (the campaign ledger needs that; caches and build outputs do not).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def replace_file(path: Path, data: bytes, durable: bool = False) -> None:
    """Write `data` to `path` atomically; the temporary file never outlives a failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
