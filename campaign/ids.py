"""Reading ids typed by people: case-insensitive, `AS12` -> `as-12`, `Eastern Canada` -> `eastern-canada`.

Pure string work; it never looks at content.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CODE = re.compile(r"^([a-z]+)-?(\d+)$")


@lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """The kebab-case id a person most likely meant."""
    s = text.strip().lower()
    s = re.sub(r"[\s_]+", "-", s)
    s = re.sub(r"[^a-z0-9-]", "", s)
    s = re.sub(r"-+", "-", s).strip("-")
    m = _CODE.match(s)
    if m and len(m.group(1)) <= 3:
        return f"{m.group(1)}-{m.group(2)}"
    return s
