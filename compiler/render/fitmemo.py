"""Which version of a player aid fits its pages, remembered: the aid is laid out once, not once per version tried.

`render_fitting` lays out the aid's versions, from the fullest to the shortest, until one fits on its pages:
the Shadow Forces aid took three layouts (2.5 of its 3.7 s) to print the third. The answer depends only on the
versions' HTML and on the renderer (WeasyPrint, and the Pango that sets its text), so it is kept under a key of
the full version's HTML, with a digest of every version up to the one that fit and the renderer's versions: a
later build whose versions are the same bytes, laid out by the same renderer, lays that one out at once. Nothing
else is ever trusted: the versions are compared by digest, and a version that no longer fits is followed by the
next.

Answers are kept in the cache folder (`fits/`), and the release ships those of the shipped games' default aids
(`compiler/generated/aid-fits.json`, written by `tools/generate_fits.py`), so a first build needs no more
layouts than a later one. A stale or damaged entry only costs the layouts it would have saved.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

SHIPPED = Path(__file__).resolve().parent.parent / "generated" / "aid-fits.json"
FOLDER = "fits"


class Hint(NamedTuple):
    """The version that fit (its index), the digest of every version up to it, and the renderer that laid it
    out."""

    level: int
    digest: str
    renderer: str


def renderer() -> str:
    """The versions of what lays the aid out: WeasyPrint's and Pango's."""
    import weasyprint
    from weasyprint.text.ffi import pango

    return f"weasyprint {weasyprint.__version__}, pango {pango.pango_version()}"


def _blake(*parts: str) -> str:
    from scarbook.kernel.sha import key

    h = key()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def key_of(first: str) -> str:
    """The key of an aid whose fullest version is `first`."""
    return _blake(first)


def digest_of(versions: list[str]) -> str:
    """The digest of the versions up to one (the fullest first)."""
    return _blake(*versions)


def _shipped() -> dict[str, list[object]]:
    try:
        found = json.loads(SHIPPED.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _entry(key: str) -> Path:
    from scarbook.kernel.cachedir import cache_dir

    return cache_dir() / FOLDER / key


def hint(first: str) -> Hint | None:
    """What a build of the same versions, with this renderer, learned: the version that fit and the digest up to
    it; None if nothing is known."""
    key = key_of(first)
    raw: object = _shipped().get(key)
    if raw is None:
        try:
            raw = json.loads(_entry(key).read_text("utf-8"))
        except (OSError, ValueError):
            return None
    if (isinstance(raw, list) and len(raw) == 3 and isinstance(raw[0], int) and not isinstance(raw[0], bool)
            and raw[0] >= 0 and isinstance(raw[1], str) and raw[2] == renderer()):
        return Hint(raw[0], raw[1], raw[2])
    return None


def remember(versions: list[str]) -> None:
    """The last of `versions` (the fullest first) is the first that fit: keep it for the next build. Never fails."""
    from scarbook.kernel.atomic import replace_file
    from scarbook.kernel.cachedir import cache_stored

    entry = _entry(key_of(versions[0]))
    text = json.dumps(shipped_entry(versions)[1])
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        replace_file(entry, text.encode())
        os.chmod(entry, 0o600)
        cache_stored(entry)
    except OSError:
        pass


def shipped_entry(versions: list[str]) -> tuple[str, list[object]]:
    """The shipped file's entry for an aid whose versions up to the one that fit are `versions`."""
    return key_of(versions[0]), [len(versions) - 1, digest_of(versions), renderer()]
