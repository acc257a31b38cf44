"""Reading ids typed by people: case-insensitive, `AS12` -> `as-12`, `Eastern Canada` -> `eastern-canada`.

Pure string work; it never looks at content.
"""

from __future__ import annotations

import re
from collections.abc import Container
from functools import lru_cache

_CODE = re.compile(r"^([a-z]+)-?(\d+)$")


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """The kebab-case form of what a person typed, as typed (`S02` -> `s02`)."""
    s = text.strip().lower()
    s = re.sub(r"[\s_]+", "-", s)
    s = re.sub(r"[^a-z0-9-]", "", s)
    return re.sub(r"-+", "-", s).strip("-")


def pick(text: str, known: Container[str]) -> str:
    """The id a person means among `known`: as typed when there is such an id (`s02`), else `normalize`d."""
    s = plain(text)
    return s if s in known else normalize(text)


@lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """The kebab-case id a person most likely meant (a short code gets its hyphen: `AS12` -> `as-12`)."""
    s = plain(text)
    m = _CODE.match(s)
    if m and len(m.group(1)) <= 3:
        return f"{m.group(1)}-{m.group(2)}"
    return s
