"""Print-and-play geometry: which card or sticker goes where on which sheet, in millimetres.

Pure data (no rendering). Cards are printed at real size (poker 63x88 mm unless a deck says
`card_size`), in a grid that fits the paper inside its ink margin (3x3 for poker cards on A4 and
Letter with no gutter). Each deck starts a sheet of its own, so neighbouring cards are always of one
deck. With no gutter (the default) neighbours share their cut lines; a gutter (`build --gutter MM`)
gives every card its own bleed on its inner edges too (half the gutter, up to 3 mm). A card's art
bleeds past every edge it has: the grid's outer edges (3 mm, or what the ink margin leaves, at
least 2 mm), the gutter, and an empty slot beside it. Cut marks extend every cut line into the
margin, never within 5 mm of the paper's edge (`INK_MARGIN_MM`): outside the bleed when there is
room, else over it. Every fronts page is followed by its backs page, mirrored left to right for
long-edge duplex printing; a calibration pair comes first.

Colours: a deck's `color`, else one of a set of colours no other deck of the game has, so that
two decks never share a back; a faction card's header is in its faction's `color`.
"""

from __future__ import annotations

import colorsys
import json
from dataclasses import astuple, dataclass, field
from typing import Any

from scarbook.compiler.model import Game, Item, is_unknown, known
from scarbook.compiler.sizes import (
    BLEED_MM,
    DEFAULT_GUTTER_MM,
    INK_MARGIN_MM,
    MIN_BLEED_MM,
    PAPER_MM,
    POKER_MM,
)

NBSP = "\u00a0"
MARK_GAP_MM = 1.0  # between the bleed and the start of a cut mark outside it
MARK_TRIM_GAP_MM = 1.0  # a cut mark drawn over the bleed stops this far before the trim line
MIN_MARK_MM = 2.0  # a mark outside the bleed at least this long, or it is drawn over the bleed
MAX_MARK_MM = 6.0
#: Art and marks stop this much further from the paper's edge than the ink margin, so that a shape's
#: anti-aliased edge stays out of it too.
EDGE_SAFETY_MM = 0.3
#: Deck colours, dark enough for white text and told apart from behind; a game with more decks gets
#: more from `deck_colour`.
PALETTE = ("#1f4e79", "#7a1f1f", "#2e6b30", "#6b4e16", "#4b2a6b", "#1f6b6b", "#6b1f4e", "#3d3d3d",
           "#a34a00", "#5c6b1f", "#2f3f99", "#8a6d00")
#: Colour names content gives (`color: green`), as printed: strong tones that print alike on home printers.
NAMED_COLOURS = {
    "red": "#c62828", "green": "#2e7d32", "blue": "#1565c0", "yellow": "#f4c20d", "white": "#ffffff",
    "black": "#212121", "purple": "#6a1b9a", "violet": "#6a1b9a", "orange": "#e65100", "brown": "#6d4c41",
    "grey": "#616161", "gray": "#616161", "pink": "#d81b60", "teal": "#00796b", "cyan": "#0097a7",
    "light blue": "#4fc3f7", "light-blue": "#4fc3f7", "gold": "#c9a227", "silver": "#bdbdbd",
    "tan": "#c8a97e", "beige": "#e8dcc0", "navy": "#1a237e", "dark green": "#1b5e20", "olive": "#6b6b1f",
}
HEX = "0123456789abcdef"


def colour(value: Any) -> str | None:
    """The printed colour (#rrggbb) of a content colour (`#rgb`, `#rrggbb` or a name), or None."""
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    if text.startswith("#") and len(text) in (4, 7) and all(ch in HEX for ch in text[1:]):
        return text if len(text) == 7 else "#" + "".join(ch * 2 for ch in text[1:])
    return NAMED_COLOURS.get(text)


def deck_colour(index: int) -> str:
    """The `index`-th colour for decks that name none: the palette, then hues a golden angle apart."""
    if index < len(PALETTE):
        return PALETTE[index]
    r, g, b = colorsys.hls_to_rgb(((index - len(PALETTE)) * 0.381966 + 0.05) % 1.0, 0.32, 0.55)
    return "#" + "".join(f"{round(c * 255):02x}" for c in (r, g, b))


#: Two decks' backs differ by at least this much (CIE76 colour difference in CIELAB), the first of these
#: floors every deck of a game can keep: 16 dark backs (white text on each) reach about 20 (issue 34 P16).
BACK_FLOORS = (30.0, 25.0, 20.0, 15.0, 10.0, 0.0)
#: Colours a deck may get when it names none: the palette, then hues a golden angle apart at three
#: lightnesses, each dark enough for white text (contrast 4.5 : 1 or more).
CANDIDATES = 72


def _linear(hex_colour: str) -> tuple[float, float, float]:
    def one(c: float) -> float:
        return ((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92
    r, g, b = (one(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return r, g, b


def lab(hex_colour: str) -> tuple[float, float, float]:
    """A #rrggbb colour (sRGB, D65) in CIELAB."""
    r, g, b = _linear(hex_colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def colour_distance(a: str, b: str) -> float:
    """CIE76 colour difference of two #rrggbb colours (about 2.3: just told apart; 20 and more: plainly)."""
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def _candidates() -> list[str]:
    out = list(PALETTE)
    for i in range(CANDIDATES):
        for light, sat in ((0.32, 0.55), (0.22, 0.6), (0.42, 0.5)):
            r, g, b = colorsys.hls_to_rgb((i * 0.381966 + 0.05) % 1.0, light, sat)
            out.append("#" + "".join(f"{round(c * 255):02x}" for c in (r, g, b)))
    dark = [c for c in out if 1.05 / (0.2126 * _linear(c)[0] + 0.7152 * _linear(c)[1] + 0.0722 * _linear(c)[2]
                                      + 0.05) >= 4.5]
    return list(dict.fromkeys(dark))


def deck_colours(game: Game) -> dict[str, str]:
    """A colour per deck that prints, the factions' and records' decks last: its own `color`, else the
    first candidate colour at least the first of `BACK_FLOORS` from every other deck's colour that every
    deck can keep (one pass per floor, no search beyond it)."""
    decks = game.section("decks")
    ids = [d for d, deck in decks.items() if deck.get("printable") is not False]
    if game.section("factions"):
        ids += [FACTION_DECK] + ([RECORD_DECK] if game.meta.get("legacy") is True else [])
    own = {d: c for d in ids if (c := colour(decks.get(d, {}).get("color")))}
    candidates = _candidates()
    for floor in BACK_FLOORS:
        taken = list(dict.fromkeys(own.values()))
        out: dict[str, str] = {}
        for d in ids:
            if d in own:
                out[d] = own[d]
                continue
            found = next((c for c in candidates if c not in taken
                          and all(colour_distance(c, t) >= floor for t in taken)), None)
            if found is None:
                break
            out[d] = found
            taken.append(found)
        else:
            return out
    n = 0  # more decks than candidates: every colour differs, however little
    out, taken = {}, list(own.values())
    for d in ids:
        if d in own:
            out[d] = own[d]
            continue
        while deck_colour(n) in taken:
            n += 1
        out[d] = deck_colour(n)
        taken.append(out[d])
    return out


#: The decks the faction cards and the record cards make up (no content deck has these ids printed).
FACTION_DECK = "factions"
RECORD_DECK = "faction-records"


@dataclass
class Slot:
    """One card (or back) on a sheet: its trim box, and how far its art bleeds on each side."""

    x: float
    y: float
    w: float
    h: float
    bleed: tuple[float, float, float, float]  # top, right, bottom, left
    card: dict[str, Any]
    number: int = 0


@dataclass
class Mark:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass
class Sheet:
    kind: str  # "calibration-front", "calibration-back", "front", "back", "stickers"
    slots: list[Slot] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    title: str = ""


@dataclass
class Axis:
    """One direction of a grid: how many cards, where the first trim line is, the bleed past the
    grid's outer edges, and where the cut marks run (distances outward from the outer trim line)."""

    count: int
    start: float
    bleed: float
    mark_near: float  # 0 when there is no room for a mark
    mark_far: float


@dataclass
class Grid:
    cols: int
    rows: int
    x0: float
    y0: float
    w: float
    h: float
    mark_len: float
    gutter: float = 0.0
    bleed_x: float = BLEED_MM  # past the left and right edges of the grid
    bleed_y: float = BLEED_MM  # past the top and bottom edges
    marks_x: tuple[float, float] = (0.0, 0.0)  # row marks (left and right): near, far from the trim
    marks_y: tuple[float, float] = (0.0, 0.0)  # column marks (top and bottom)

    @property
    def inner_bleed(self) -> float:
        """What a card bleeds into the gutter beside it (nothing when cards share their cut lines)."""
        return min(BLEED_MM, self.gutter / 2)


def _axis(page: float, card: float, gutter: float) -> Axis:
    room_for = page - 2 * (INK_MARGIN_MM + EDGE_SAFETY_MM + MIN_BLEED_MM)
    count = max(1, int((room_for + gutter) // (card + gutter)))
    start = (page - count * card - (count - 1) * gutter) / 2
    room = start - INK_MARGIN_MM - EDGE_SAFETY_MM  # between the ink margin and the outer trim line
    bleed = max(0.0, min(BLEED_MM, room))
    if room - bleed - MARK_GAP_MM >= MIN_MARK_MM:  # outside the bleed
        near = bleed + MARK_GAP_MM
        return Axis(count, start, bleed, near, near + min(MAX_MARK_MM, room - near))
    if room - MARK_TRIM_GAP_MM >= 1.0:  # over the bleed, up to the ink margin
        return Axis(count, start, bleed, MARK_TRIM_GAP_MM, min(room, MARK_TRIM_GAP_MM + MAX_MARK_MM))
    return Axis(count, start, bleed, 0.0, 0.0)  # a card as large as the paper: no room for marks


def grid_for(size: tuple[float, float], paper: str, gutter: float = DEFAULT_GUTTER_MM) -> Grid:
    pw, ph = PAPER_MM[paper]
    w, h = size
    gutter = max(0.0, float(gutter))
    ax, ay = _axis(pw, w, gutter), _axis(ph, h, gutter)
    mark_len = min(ax.mark_far - ax.mark_near, ay.mark_far - ay.mark_near)
    return Grid(ax.count, ay.count, ax.start, ay.start, w, h, mark_len, gutter, ax.bleed, ay.bleed,
                (ax.mark_near, ax.mark_far), (ay.mark_near, ay.mark_far))


def cut_lines(start: float, size: float, count: int, gutter: float) -> list[float]:
    """Where the cuts go along one direction: both edges of every card (shared without a gutter)."""
    lines: list[float] = []
    for i in range(count):
        a = start + i * (size + gutter)
        for v in (a, a + size):
            if not lines or abs(lines[-1] - v) > 1e-9:
                lines.append(round(v, 6))
    return lines


def cut_marks(grid: Grid) -> list[Mark]:
    """Short lines in the margins on every cut line, inside the ink margin: outside the bleed when
    there is room, else over it (drawn with a white casing, so that they show on any colour)."""
    marks = []
    top, bottom = grid.y0, grid.y0 + grid.rows * grid.h + (grid.rows - 1) * grid.gutter
    left, right = grid.x0, grid.x0 + grid.cols * grid.w + (grid.cols - 1) * grid.gutter
    near, far = grid.marks_y
    if far > near:
        for x in cut_lines(grid.x0, grid.w, grid.cols, grid.gutter):
            marks.append(Mark(x, top - far, x, top - near))
            marks.append(Mark(x, bottom + near, x, bottom + far))
    near, far = grid.marks_x
    if far > near:
        for y in cut_lines(grid.y0, grid.h, grid.rows, grid.gutter):
            marks.append(Mark(left - far, y, left - near, y))
            marks.append(Mark(right + near, y, right + far, y))
    return marks


def _slot(grid: Grid, index: int, card: dict[str, Any], mirrored: bool, filled: int | None = None) -> Slot:
    """The slot of the `index`-th card of a page of `filled` cards (a full page when None): its art
    bleeds past the grid's edges, into the gutter, and into an empty slot beside or below it."""
    row, col = divmod(index, grid.cols)
    filled = grid.cols * grid.rows if filled is None else filled
    inner = grid.inner_bleed
    top = grid.bleed_y if row == 0 else inner
    bottom = grid.bleed_y if row == grid.rows - 1 else (BLEED_MM if index + grid.cols >= filled else inner)
    left = grid.bleed_x if col == 0 else inner
    right = grid.bleed_x if col == grid.cols - 1 else (BLEED_MM if index + 1 >= filled else inner)
    if mirrored:  # the back of a card lies behind it on the page flipped on its long edge
        col = grid.cols - 1 - col
        left, right = right, left
    return Slot(grid.x0 + col * (grid.w + grid.gutter), grid.y0 + row * (grid.h + grid.gutter), grid.w, grid.h,
                (top, right, bottom, left), card, index + 1)


def _why(value: Any) -> str:
    """Why the sources lack a value (its `unknown`), or "" when they give it."""
    return str(value["unknown"]) if isinstance(value, dict) and is_unknown(value) else ""


def _text(value: Any) -> str | None:
    if is_unknown(value):
        return "?"
    return None if value is None else str(value)


def _stat_cells(card: Item) -> list[tuple[str, str, bool]]:
    """A card's stats as printed: (name, value, upgraded). In a campaign's game (`build --campaign`) a value a
    sticker changed is marked upgraded, and an unknown value stickers raised reads "? +N"."""
    upgraded = set(card.get("upgraded_stats") or ())
    adds = card.get("stat_adds") or {}
    cells = []
    for k, v in (card.get("stats") or {}).items():
        value = _text(v) or ""
        if value == "?" and isinstance(adds.get(k), int):
            value = f"?{NBSP}+{adds[k]}"
        # a stat and its value never part at a line's end ("shield to block 4"): no-break spaces
        cells.append((str(k).replace("_", NBSP).replace(" ", NBSP), value, k in upgraded))
    return cells


def stuck_on(game: Game, card: Item) -> list[str]:
    """The stickers a campaign stuck on a card that its face shows nowhere else, each with who placed it, as the
    game names them ("STICKER (PLAYER)", twice: "STICKER ×2 (PLAYER)"): not those whose effect the face prints
    already (resources or printed stats they add or step, a name the card took, a destroyed card's stamp)."""
    stickers = game.section("stickers")
    stats = set(card.get("stats") or ())
    shown: dict[tuple[str, str], int] = {}  # (the sticker as named, who placed it) -> how many
    for m in card.get("marks") or []:
        if not isinstance(m, dict) or not isinstance(m.get("sticker"), str):
            continue
        st = stickers.get(m["sticker"]) or {}
        adds = st.get("adds")
        if ((isinstance(adds, dict) and adds and all(k == "resources" or k in stats for k in adds))
                or m.get("kind") == "destroyed" or m.get("name") in stats or (st.get("named") and m.get("name"))):
            continue
        name = str(m.get("name") or "").replace("_", " ")  # a stat's key in words: "melee to hit"
        label = str(known(st.get("name"), m["sticker"])) + (f" “{name}”" if name else "")
        key = (label, str(m.get("by") or ""))
        shown[key] = shown.get(key, 0) + 1
    return [label + (f" ×{n}" if n > 1 else "") + (f" ({by})" if by else "") for (label, by), n in shown.items()]


def printable_cards(game: Game) -> list[dict[str, Any]]:
    """Every printed card (copies expanded), as what a card face shows, then a faction card per
    faction (its powers) and, in a legacy game, a record card per faction.

    A territory card carries `spot`, where its territory is on the game's locator map (in percent;
    `boardmap.locator_svg` draws the map once per game). In a campaign's game (`build --campaign`)
    a card shows the resources it has now (`upgraded` when a sticker added some), a destroyed
    card is printed marked `destroyed`, a faction card marks the power chosen and its record
    card is filled in from the games played. A card that names `stickers` (a scar card) shows each one:
    its icon as on the board picture, its name and its effect (`boardmap.card_stickers`).
    """
    from scarbook.compiler.boardmap import card_stickers, locator_spots

    decks = game.section("decks")
    colors = deck_colours(game)
    names = {i: str(known(it.get("name"), i)) for s in ("territories", "regions") for i, it in game.section(s).items()}
    spots = locator_spots(game) if game.section("territories") else {}
    adds_resources = {sid for sid, st in game.section("stickers").items()
                      if isinstance(st.get("adds"), dict) and "resources" in st["adds"]}
    out: list[dict[str, Any]] = []
    for cid, card in game.section("cards").items():
        deck: Item = decks.get(card.get("deck", ""), {})
        if deck.get("printable") is False:
            continue
        size = deck.get("card_size") or {}
        # a stat and its value never part at a line's end ("shield to block 4"): no-break spaces
        stats = _stat_cells(card)
        resources = known(card.get("resources"))
        territory = card.get("territory")
        regions = game.section("territories").get(territory or "", {}).get("regions", []) if territory else []
        face = {
            "id": cid,
            "name": str(known(card.get("name"), cid)),
            "alias": str(card["alias"]) if isinstance(card.get("alias"), str) else None,
            "deck": str(known(deck.get("name"), card.get("deck", ""))),
            "deck_id": card.get("deck", ""),
            "type": str(card.get("type") or deck.get("card_type") or "").replace("-", " "),
            "zone": names.get(card.get("zone", ""), str(card.get("zone") or "").replace("-", " ")) or None,
            "where": ", ".join(names.get(r, r) for r in regions) or None,
            "stats": stats,
            "upgraded_stats": any(up for _, _, up in stats),
            "resources": resources if isinstance(resources, int) else None,
            "text": _text(card.get("text")),
            "unknown": any(is_unknown(v) for v in [card.get("text"), *(card.get("stats") or {}).values()]),
            "image": card.get("image"),
            "image_url": None,  # set by the build once the image is checked to lie inside the pack
            "color": colors.get(card.get("deck", ""), PALETTE[-1]),
            "deck_color": colors.get(card.get("deck", ""), PALETTE[-1]),
            "back": str(known(deck.get("back"), None) or known(deck.get("name"), "")),
            "size": (float(size.get("width", POKER_MM[0])), float(size.get("height", POKER_MM[1]))),
            "game": game.title,
        }
        spot = spots.get(territory) if isinstance(territory, str) else None
        if spot:
            face["spot"], face["territory"] = spot, territory
        upgrades = [m for m in card.get("marks") or [] if isinstance(m, dict) and m.get("sticker") in adds_resources]
        if upgrades:
            face["upgraded"] = len(upgrades)
        if card.get("stickers"):  # a scar card shows the scar it places
            face["stickers"] = card_stickers(game, card)
        if stuck := stuck_on(game, card):  # in a campaign: what else is stuck on it, and whose
            face["stuck"] = stuck
        # a destroyed card is marked on the card or, in a campaign, on its territory (a small x by its name)
        if card.get("destroyed") or (territory and game.section("territories").get(territory, {}).get("destroyed")):
            face["destroyed"] = True
        for _ in range(int(card.get("copies", 1) or 1)):
            out.append(face)
    return out + faction_cards(game)


#: Rows of a faction's record card when neither the game nor the campaign says how many games.
RECORD_ROWS = 10
#: The most rows a record card holds at poker size.
MAX_RECORD_ROWS = 15


def _record_rows(game: Game, record: list[Any]) -> int:
    campaign = game.meta.get("campaign") or {}
    wanted = next((v for v in (campaign.get("games"), campaign.get("rewards_in_first_games"))
                   if isinstance(v, int) and not isinstance(v, bool) and v > 0), RECORD_ROWS)
    return max(min(wanted, MAX_RECORD_ROWS), min(len(record), MAX_RECORD_ROWS))


def faction_cards(game: Game) -> list[dict[str, Any]]:
    """A card per faction (the deck `factions`, one back): its description, its powers (the one
    chosen in the campaign marked, the others struck through; a power without a name is "Power n",
    one whose text the sources lack says why), its leader (by name only when the leader has a card
    of its own) and its units; its header in the faction's `color`. In a legacy game, then a record
    card per faction (the deck `faction-records`), a row per game (player, start, result) left empty
    to fill by hand or filled from the campaign (`record`)."""
    factions = game.section("factions")
    colours = deck_colours(game)
    card_names = {str(known(c.get("name"), "")) for c in game.section("cards").values()}
    out: list[dict[str, Any]] = []
    for fid, faction in factions.items():
        name = str(known(faction.get("name"), fid))
        alias = None
        if isinstance(faction.get("printed_name"), str):  # named in the campaign: as printed, the name beside it
            name, alias = faction["printed_name"], name
        chosen = faction.get("power")
        powers = []
        unknown = False
        for number, p in enumerate((p for p in faction.get("powers") or [] if isinstance(p, dict)), 1):
            text = p.get("text")
            unknown = unknown or is_unknown(text)
            powers.append({"name": str(known(p.get("name"), None) or f"Power {number}"),
                           "text": "" if is_unknown(text) else _text(text) or "",
                           "why": _why(text),
                           "chosen": bool(chosen) and p.get("id") == chosen,
                           "destroyed": bool(p.get("destroyed")) or (bool(chosen) and p.get("id") != chosen)})
        leader = faction.get("leader")
        if isinstance(leader, dict) and leader.get("name"):
            leader_name = str(known(leader.get("name"), ""))
            own_card = leader_name in card_names  # its ability is on its own card: not repeated here
            ability = leader.get("ability")
            unknown = unknown or (is_unknown(ability) and not own_card)
            powers.append({"name": f"Leader: {leader_name}",
                           "text": "(its own card)" if own_card else
                           ("" if is_unknown(ability) else _text(ability) or ""),
                           "why": "" if own_card else _why(ability),
                           "chosen": False, "destroyed": False})
        units = [f"{known(u.get('name'), '?')}" + (f": {u['text']}" if isinstance(u.get("text"), str) else "")
                 for u in faction.get("units") or [] if isinstance(u, dict) and u.get("name")]
        deck_colour_ = colours.get(FACTION_DECK, PALETTE[-1])
        base: dict[str, Any] = {"id": fid, "deck": "Factions", "deck_id": FACTION_DECK, "type": "faction",
                                "zone": None, "where": None, "stats": [], "resources": None, "unknown": unknown,
                                "image": None, "image_url": None,
                                "color": colour(faction.get("color")) or deck_colour_, "deck_color": deck_colour_,
                                "back": "Faction", "size": POKER_MM, "game": game.title}
        description = faction.get("text")
        if alias:
            base["alias"] = alias
        face = {**base, "name": name, "text": None if is_unknown(description) else _text(description),
                "powers": powers,
                "choose": faction.get("choose_powers") if isinstance(faction.get("choose_powers"), int) else None}
        if units:
            face["units"] = units
        out.append(face)
        if game.meta.get("legacy") is True:
            record = [r for r in faction.get("record") or [] if isinstance(r, dict)]
            rows = [{"game": n + 1, "player": "", "start": "", "result": ""} for n in range(_record_rows(game, record))]
            for r in record:
                n = r.get("game")
                if isinstance(n, int) and 1 <= n <= len(rows):
                    rows[n - 1] = {"game": n, "player": str(r.get("player") or ""), "start": str(r.get("start") or ""),
                                   "result": str(r.get("result") or "")}
            record_colour = colours.get(RECORD_DECK, PALETTE[-1])
            out.append({**base, "id": f"{fid}-record", "name": name, "deck": "Faction record",
                        "deck_id": RECORD_DECK, "unknown": False, "deck_color": record_colour,
                        "back": "Faction record", "text": None, "record": rows})
    return out


def card_sheets(cards: list[dict[str, Any]], paper: str, gutter: float = DEFAULT_GUTTER_MM) -> list[Sheet]:
    """Calibration pair, then fronts and mirrored backs, page by page: each deck (`deck_id`, in the
    order the cards come) on sheets of its own, so that a card's neighbours are of its deck."""
    if not cards:
        return []
    decks: dict[Any, list[dict[str, Any]]] = {}
    for c in cards:
        decks.setdefault((c.get("deck_id", ""), c["size"]), []).append(c)
    first = grid_for(cards[0]["size"], paper, gutter)
    blank = {"name": "", "back": "", "color": "#ffffff", "deck_color": "#ffffff"}
    per_page = first.cols * first.rows
    sheets = [
        Sheet("calibration-front", [_slot(first, i, blank, False) for i in range(per_page)], cut_marks(first),
              "Calibration (front)"),
        Sheet("calibration-back", [_slot(first, i, blank, True) for i in range(per_page)], cut_marks(first),
              "Calibration (back)"),
    ]
    grids: dict[tuple[float, float], Grid] = {}
    for (_, size), same in decks.items():
        grid = grids.get(size) or grids.setdefault(size, grid_for(size, paper, gutter))
        per_page = grid.cols * grid.rows
        marks = cut_marks(grid)
        for start in range(0, len(same), per_page):
            chunk = same[start:start + per_page]
            sheets.append(Sheet("front", [_slot(grid, i, c, False, len(chunk)) for i, c in enumerate(chunk)], marks))
            sheets.append(Sheet("back", [_slot(grid, i, c, True, len(chunk)) for i, c in enumerate(chunk)], marks))
    return sheets


#: What a card back shows (a backs page is the same page whenever these are).
BACK_FIELDS = ("back", "deck_color", "game")


#: Cards per part of a long card sheet: parts are laid out in parallel, then joined. Each part has
#: fixed costs (its document's style sheets and fonts set up, every font subset again, WeasyPrint
#: loaded before the workers fork, the pypdf join: about 0.8 s of CPU at 2,000 cards, 8 %), so a
#: sheet is one part, its fonts subset once, up to 2,500 cards; the most a game may print (B110,
#: 5,000) is two parts on two cores.
CARDS_PER_PART = 2500


def part_count(cards: int) -> int:
    """How many parts a sheet of `cards` is rendered in (from the content only, so the PDF is the
    same whatever the number of workers)."""
    return max(1, -(-cards // CARDS_PER_PART))


def split_sheets(sheets: list[Sheet], parts: int) -> list[list[Sheet]]:
    """`sheets` in `parts` runs of about the same length, never parting a fronts page from its backs."""
    pairs = [sheets[i:i + 2] for i in range(0, len(sheets), 2)]
    parts = max(1, min(parts, len(pairs)))
    size, extra = divmod(len(pairs), parts)
    out: list[list[Sheet]] = []
    start = 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        out.append([s for pair in pairs[start:end] for s in pair])
        start = end
    return out


def page_key(sheet: Sheet) -> str:
    """What a sheet prints, as text: two sheets with the same key are the same page."""
    def shown(card: dict[str, Any]) -> dict[str, Any]:
        return {k: card.get(k) for k in BACK_FIELDS} if sheet.kind == "back" else card

    return json.dumps([sheet.kind, sheet.title, [astuple(m) for m in sheet.marks],
                       [(s.x, s.y, s.w, s.h, s.bleed, s.number, shown(s.card)) for s in sheet.slots]],
                      sort_keys=True, default=str)


def trim_boxes(sheet: Sheet) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]] | None:
    """A card sheet's trim box (the outline of its cards) and bleed box (that outline with the bleed past it),
    each (left, top, right, bottom) in mm from the page's top left: what a PDF's TrimBox and BleedBox say so
    that print shops and imposition tools find the cut. None for a page without cards."""
    if not sheet.slots:
        return None
    trim = (min(s.x for s in sheet.slots), min(s.y for s in sheet.slots),
            max(s.x + s.w for s in sheet.slots), max(s.y + s.h for s in sheet.slots))
    bleed = (min(s.x - s.bleed[3] for s in sheet.slots), min(s.y - s.bleed[0] for s in sheet.slots),
             max(s.x + s.w + s.bleed[1] for s in sheet.slots), max(s.y + s.h + s.bleed[2] for s in sheet.slots))
    return trim, bleed


def distinct_pages(sheets: list[Sheet]) -> tuple[list[Sheet], list[int]]:
    """The sheets that differ, and for every page which of them it shows.

    A deck's backs pages are mostly the same page again (nine backs of one deck); they are laid
    out once and printed as often as needed.
    """
    index: dict[str, int] = {}
    order = [index.setdefault(page_key(sheet), len(index)) for sheet in sheets]
    firsts: dict[int, Sheet] = {}
    for sheet, i in zip(sheets, order, strict=True):
        firsts.setdefault(i, sheet)
    return [firsts[i] for i in range(len(firsts))], order


def sticker_items(game: Game) -> list[dict[str, Any]]:
    """Every sticker of the game as players may see it (nothing sealed), one entry per sticker in
    its supply (one when the sources give no number), at its `size`, else sized for where it goes
    (`stickerfit`: a token for a card, a label for a territory, a strip for a rulebook slot); `sized` says
    which, and `basis` what the size is made for, so the sheet tells the players which sizes are not the
    game's own. Each carries what it draws: its text, tick `boxes`, a line to `write` a name on."""
    from scarbook.compiler.stickerfit import fit

    out = []
    for sid, st in game.section("stickers").items():
        name = str(known(st.get("name"), sid))
        f = fit(st, name)
        supply = st.get("supply")
        if isinstance(supply, list):
            count = sum(p.get("count", 0) for p in supply if isinstance(p, dict) and isinstance(p.get("count"), int))
        else:
            count = supply if isinstance(supply, int) and not isinstance(supply, bool) else 1
        text = _text(st.get("text") if st.get("text") is not None else st.get("effect"))
        if f.token and name.lower().endswith(" sticker"):  # a token's few words: every one is a sticker
            name = name[:-len(" sticker")]
        item = {"id": sid, "name": name, "text": text if f.capacity and not f.token else f.text if f.token else "",
                "w": f.w, "h": f.h, "sized": f.basis == "given", "basis": f.basis, "boxes": f.boxes,
                "write": f.write, "token": f.token, "counted": isinstance(supply, int | list)}
        out.extend([item] * max(1, min(int(count), 200)))
    return out


def sticker_sheets(stickers: list[dict[str, Any]], paper: str) -> list[Sheet]:
    """Stickers at real size, in rows (shelf packing) with a 4 mm gap and 12 mm margins, below the sheet's
    two lines of heading (`top`)."""
    pw, ph = PAPER_MM[paper]
    margin, gap, top = 12.0, 4.0, 11.0
    sheets: list[Sheet] = []
    sheet = Sheet("stickers")
    x, y, shelf = margin, margin + top, 0.0
    for n, st in enumerate(stickers, 1):
        w, h = min(st["w"], pw - 2 * margin), min(st["h"], ph - 2 * margin - top)
        if x + w > pw - margin:
            x, y, shelf = margin, y + shelf + gap, 0.0
        if y + h > ph - margin:
            sheets.append(sheet)
            sheet = Sheet("stickers")
            x, y, shelf = margin, margin + top, 0.0
        sheet.slots.append(Slot(x, y, w, h, (0, 0, 0, 0), st, n))
        x += w + gap
        shelf = max(shelf, h)
    if sheet.slots:
        sheets.append(sheet)
    return sheets
