"""SHA-256 and BLAKE2b for the tracker's cache keys and byte checks, without loading OpenSSL on every command.

`import hashlib` loads OpenSSL (`_hashlib`): about 2.3 ms of CPU at the start of every command, more than a
warm `status` spends on anything else in its cache check. Python also builds SHA-256 in (`_sha256` up to
3.11, `_sha2` from 3.12), with the same digests and about a sixth of OpenSSL's speed on machines with SHA
instructions. `sha256(data)` takes the built-in one for the small inputs every command hashes (keys, the
ledger of a campaign in play) and OpenSSL's for a large input or when the caller says it will add much more,
where the speed wins; the digest is the same either way. `key(data)` is for what only names a cache entry
(never written into a file another release must read): BLAKE2b, built in and about as fast as OpenSSL's
SHA-256, whatever the size.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

#: From this many bytes on, OpenSSL's SHA-256 (its import paid once) is faster than the built-in one.
LARGE = 1 << 18


class Hasher(Protocol):
    """What both SHA-256 objects offer (`hashlib.sha256()` and the built-in one)."""

    def update(self, data: bytes, /) -> None: ...

    def digest(self) -> bytes: ...

    def hexdigest(self) -> str: ...

    def copy(self) -> Hasher: ...


def _builtin() -> Any:
    """The built-in SHA-256 constructor, or None when this Python has none."""
    for name in ("_sha2", "_sha256"):
        try:
            return import_module(name).sha256
        except (ImportError, AttributeError):
            continue
    return None


_BUILTIN = _builtin()


def sha256(data: bytes = b"", large: bool = False) -> Hasher:
    """A SHA-256 hasher fed `data`; `large` when much more will be added (then OpenSSL's, as for large `data`)."""
    if _BUILTIN is not None and not large and len(data) < LARGE:
        hasher: Hasher = _BUILTIN(data)
        return hasher
    import hashlib

    return hashlib.sha256(data)


def hexdigest(data: bytes) -> str:
    """The SHA-256 of `data` in hex."""
    return sha256(data).hexdigest()


def key(data: bytes = b"") -> Hasher:
    """A BLAKE2b hasher fed `data`, for cache keys: built in (no OpenSSL), fast on large inputs too."""
    try:
        from _blake2 import blake2b
    except ImportError:  # a Python built without it
        from hashlib import blake2b
    return blake2b(data)
