"""The sources a game declares once, and citations that name them.

A game (or a pack) declares its sources under `sources:` (id, the title a player knows, kind,
publisher, year, where the transcription came from). A fact cites a source by its id and a
section, `rulebook § If you won`; every output prints the title instead of the id,
`Risk Legacy rulebook § If you won`. `resolve_game` rewrites a loaded game's citations that way
(building new dicts: the loaded documents stay as they were read, for the checks and the next
load); `check_citations` is the semantic check that a cite names a declared source.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from scarbook.compiler.model import ITEM_SECTIONS, Game, as_dict, as_list

#: Between a source and its section in a cite.
SECTION_MARK = " § "
#: A cite that names a file (a transcription, a notes file, a data table) rather than a declared source.
FILE_NAME = re.compile(r"\.(txt|md|csv|json|ya?ml|map)\b|(^|[\s/])reference/|^[\w.-]+/[\w./-]+$")


@dataclass(frozen=True)
class Source:
    id: str
    title: str
    kind: str


def declared(meta: dict[str, Any]) -> dict[str, Source]:
    """Source id -> the source, from a `game:` (or `pack:`) block's `sources`."""
    out: dict[str, Source] = {}
    for s in as_list(meta.get("sources")):
        if isinstance(s, dict) and isinstance(s.get("id"), str):
            out[s["id"]] = Source(s["id"], str(s.get("title") or s["id"]), str(s.get("kind") or ""))
    return out


def source_part(cite: str) -> str:
    """What a cite names before its section: 'rulebook' of 'rulebook § If you won'."""
    return cite.split(SECTION_MARK, 1)[0].strip()


def readable(cite: str, sources: dict[str, Source]) -> str:
    """The cite as a player reads it: its source's title, then its section."""
    head, sep, rest = cite.partition(SECTION_MARK)
    found = sources.get(head.strip())
    return f"{found.title}{sep}{rest}" if found else cite


def _resolved(value: Any, sources: dict[str, Source]) -> Any:
    """`value` with every `cite` (a string or a list) readable; the same object where nothing changes."""
    if isinstance(value, dict):
        out: dict[str, Any] | None = None
        for k, v in value.items():
            if k == "cite" and isinstance(v, str):
                new: Any = readable(v, sources)
            elif k == "cite" and isinstance(v, list):
                new = [readable(c, sources) if isinstance(c, str) else c for c in v]
                new = v if new == v else new
            else:
                new = _resolved(v, sources)
            if new is not v:
                out = dict(value) if out is None else out
                out[k] = new
        return value if out is None else out
    if isinstance(value, list):
        items = [_resolved(v, sources) for v in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value


def resolve_game(game: Game) -> None:
    """Every citation of the merged game printed by its source's title (the game's and its packs' sources)."""
    sources = declared(game.meta)
    if not sources:
        return
    game.meta = _resolved(game.meta, sources)
    game.board = _resolved(game.board, sources)
    for section in ITEM_SECTIONS:
        items = game.sections.get(section) or {}
        for item_id, item in list(items.items()):
            items[item_id] = _resolved(item, sources)
    game.file_cites = {f: [readable(c, sources) for c in cs] for f, cs in game.file_cites.items()}


def kind_of(cite: str, game_meta: dict[str, Any]) -> str:
    """The kind of source a cite names (by id or, once resolved, by title); '' when it names none declared."""
    head = source_part(cite)
    for s in declared(game_meta).values():
        if head in (s.id, s.title):
            return s.kind
    return ""


def walk_cites(value: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """(JSON pointer, cite) for every cite string anywhere in a document."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "cite" and isinstance(v, str):
                yield f"{pointer}/{k}", v
            elif k == "cite" and isinstance(v, list):
                yield from ((f"{pointer}/{k}/{i}", c) for i, c in enumerate(v) if isinstance(c, str))
            else:
                yield from walk_cites(v, f"{pointer}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_cites(v, f"{pointer}/{i}")


def declares_sources(data: Any) -> bool:
    """Does this document declare sources (in its `game:` or `pack:` block)?"""
    data = as_dict(data)
    return bool(declared(as_dict(data.get("game"))) or declared(as_dict(data.get("pack"))))


def low_confidence_text(source: dict[str, Any], meta: dict[str, Any] | None = None) -> str:
    """What rests on a low-confidence source and where it comes from: 'NOTE (CITE; CITE)', each cite by its
    source's title (`meta`: the game's block, with its `sources`)."""
    cite = source.get("cite")
    every = [c for c in ([cite] if isinstance(cite, str) else as_list(cite)) if isinstance(c, str)]
    meta = meta or {}
    every = [readable(c, declared(meta)) for c in every]
    # a source beside the rulebooks (a community map, notes on scans): name those, not the rulebook
    cites = "; ".join([c for c in every if kind_of(c, meta) not in ("rulebook", "")] or every)
    note = str(source.get("note") or "").strip().rstrip(".")
    return f"{note} ({cites})" if note else cites
