"""Stickers that change the board: the lines (edges) a placed sticker lets its placer draw.

A sticker's `links: {each, optional, kind}` says how many lines it brings: with
`adds_territories`, every added territory is joined to `each` different territories, then up to
`optional` more lines touch an added territory; without, `each` lines (plus `optional`) start at a
territory that carries the sticker (a bridge). The added territories are out of play until the
sticker is placed. `as_played` gives the board a campaign plays on (hidden territories out, drawn
lines in), so every check, `where`, `show --campaign`, the tables and the sheet read the same board.
Nothing here names a game.
"""

from __future__ import annotations

from typing import Any

from scarbook.campaign.ids import normalize
from scarbook.compiler.items import Links, Place, Sticker, keep_sticker_views, sticker_views
from scarbook.compiler.model import Game, components


def adds(sticker: Sticker) -> tuple[str, ...]:
    return sticker.adds_territories


def lines_of(sticker: Sticker) -> tuple[int, int]:
    """(lines owed from each added territory or placed sticker, optional lines more)."""
    return sticker.links.each, sticker.links.optional


def hidden_territories(game: Game, placed: dict[str, int]) -> set[str]:
    """Territories a sticker adds to the board that is not placed yet (out of play)."""
    return {t for sid, st in sticker_views(game).items() if not placed.get(sid) for t in st.adds_territories}


def cuts(sticker: Sticker) -> bool:
    """Whether the sticker's lines remove edges (`links.cuts: true`) instead of drawing them."""
    return sticker.links.cuts


def as_played(game: Game, placed: dict[str, int], links: list[tuple[str, str, str]]) -> Game:
    """The game with unplaced stickers' territories left out and the lines (sticker, a, b) applied in order:
    drawn (an edge added), or cut (the edge between two neighbours removed) for a sticker whose lines cut."""
    hidden = hidden_territories(game, placed)
    if not hidden and not links:
        return game
    sections = dict(game.sections)
    territories = {t: v for t, v in game.sections.get("territories", {}).items() if t not in hidden}
    if hidden:
        sections["off_board"] = {t: v for t, v in game.sections["territories"].items() if t in hidden}
    stickers = sticker_views(game)
    edges = [e for e in game.edges if e[0] not in hidden and e[1] not in hidden]
    removed: set[frozenset[str]] = set()
    for sid, a, b in links:
        pair = frozenset((a, b))
        st = stickers.get(sid)
        if st is not None and st.links.cuts:
            edges = [e for e in edges if frozenset(e[:2]) != pair]
            removed.add(pair)
        else:
            edges.append((a, b, st.links.kind if st is not None else "unknown"))
            removed.discard(pair)
    if removed:  # a neighbour a territory lists goes with the edge
        territories = {t: without_neighbours(t, v, removed) for t, v in territories.items()}
    sections["territories"] = territories
    return keep_sticker_views(game, Game(game.id, game.meta, game.board, sections, edges, game.spans, game.files,
                                         game.packs, game.fingerprint, game.file_cites))


def without_neighbours(tid: str, territory: Any, removed: set[frozenset[str]]) -> Any:
    """The territory without the neighbours it lists across a removed edge."""
    if not isinstance(territory, dict) or not territory.get("neighbors"):
        return territory
    listed = territory["neighbors"]  # a raw territory: the board as played is built from the raw sections
    kept = [n for n in listed if frozenset((tid, n)) not in removed] if isinstance(listed, list) else []
    return {**territory, "neighbors": kept}


def owed_lines(game: Game, placed: dict[str, int], links: list[tuple[str, str, str]],
               carriers: dict[str, list[str]]) -> list[tuple[str, str, int]]:
    """(sticker, territory, lines still owed) for every placed sticker whose added territories (or, for a
    sticker that adds none, the territories that carry it) lack lines."""
    out = []
    for sid, st in sticker_views(game).items():
        if not placed.get(sid):
            continue
        each, _ = lines_of(st)
        if not each:
            continue
        for t in adds(st) or carriers.get(sid, []):
            drawn = sum(1 for s, a, b in links if s == sid and t in (a, b))
            if drawn < each:
                out.append((sid, t, each - drawn))
    return out


def link_problem(game: Game, sticker_id: str, a: str, b: str, placed: dict[str, int],
                 links: list[tuple[str, str, str]], carriers: list[str],
                 impassable: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """(code, message) when drawing (or cutting) the line a-b for this sticker is not allowed now; None when it is.

    `game` is the board as played; `carriers` the territories that carry the sticker; `impassable` the
    territories out of the board's connections (a cut must leave the rest connected).
    """
    st = sticker_views(game).get(sticker_id)
    if st is None:
        return "R101", f"unknown sticker '{sticker_id}'"
    each, optional = lines_of(st)
    if not each and not optional:
        return "R340", f"a {sticker_id} draws no lines (its content has no 'links')"
    if not placed.get(sticker_id):
        return "R340", f"place the {sticker_id} first: its lines are drawn when it is placed"
    territories = game.section("territories")
    for t in (a, b):
        if t not in territories:
            return "R102", f"'{t}' is not a territory in play"
    if a == b:
        return "R341", f"a line joins two different territories, not {a} to itself"
    adjacent = b in game.neighbors().get(a, [])
    if cuts(st) and not adjacent:
        return "R341", f"{a} and {b} are not neighbours: the {sticker_id} cuts the edge between two neighbours"
    if adjacent and not cuts(st):
        return "R341", f"{a} and {b} are already neighbours"
    ends = adds(st) or carriers
    if a not in ends and b not in ends:
        return "R342", f"a line of the {sticker_id} starts at {' or '.join(ends) or 'where it is placed'}"
    pair = pair_problem(game, st.links, a, b)
    if pair is not None:
        return "R345", pair
    mine = [(x, y) for s, x, y in links if s == sticker_id]
    allowed = each * max(1, len(adds(st)) or len(carriers)) + optional
    if len(mine) >= allowed:
        return "R343", f"the {sticker_id} has all its {allowed} line{'' if allowed == 1 else 's'} already"
    owed = [t for t in ends if sum(1 for x, y in mine if t in (x, y)) < each]
    if owed and not any(t in owed for t in (a, b)):
        return "R343", (f"draw the owed lines first: {', '.join(owed)} need{'s' if len(owed) == 1 else ''} "
                        f"{each} line{'' if each == 1 else 's'}{' each' if len(owed) > 1 else ''}")
    if cuts(st):
        split = split_off(game, a, b, impassable)
        if split:
            return "R217", f"cutting {a} - {b} would cut {', '.join(split)} off the rest of the board"
    return None


def split_off(game: Game, a: str, b: str, impassable: frozenset[str] = frozenset()) -> list[str]:
    """The territories a board without the edge a-b (and without impassable territories) leaves apart from
    the rest (the smallest part); [] when it stays connected."""
    left = {t: [n for n in ns if n not in impassable and {t, n} != {a, b}]
            for t, ns in game.neighbors().items() if t not in impassable}
    parts = sorted(components(left), key=len)
    return sorted(parts[0]) if len(parts) > 1 else []


def steps_apart(game: Game, a: str, b: str, limit: int) -> int | None:
    """The fewest steps from a to b on the board as played (None when more than `limit`)."""
    adjacency = game.neighbors()
    seen, frontier = {a}, [a]
    for step in range(1, limit + 1):
        reached = [n for t in frontier for n in adjacency.get(t, []) if n not in seen]
        if b in reached:
            return step
        seen.update(reached)
        frontier = list(dict.fromkeys(reached))
    return None


def pair_problem(game: Game, links: Links, a: str, b: str) -> str | None:
    """Why the pair a-b may not be joined under the sticker's `links` (`within: N` steps on the board before the
    line, `same_region: true|false`); None when it may."""
    within = links.within
    if within is not None and steps_apart(game, a, b, within) is None:
        return f"{a} and {b} are more than {within} step{'' if within == 1 else 's'} apart"
    same = links.same_region
    if same is not None:
        territories = game.section("territories")
        shared = set(Place.of(a, territories[a]).regions) & set(Place.of(b, territories[b]).regions)
        if same and not shared:
            return f"{a} and {b} are not in the same region"
        if not same and shared:
            return f"{a} and {b} are both in {', '.join(sorted(map(str, shared)))}"
    return None


def parse_pair(a: str, b: str) -> tuple[str, str]:
    return normalize(a), normalize(b)
