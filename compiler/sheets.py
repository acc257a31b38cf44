"""Print-and-play geometry: which card or sticker goes where on which sheet, in millimetres.

Pure data (no rendering). Cards are printed at real size (poker 63×88 mm unless a deck says
`card_size`), in a grid that fits the paper (3×3 for poker cards on A4 and Letter). Cards in a
grid share their cut lines, so the art bleeds 3 mm past the outer edges of the grid and the cut
marks sit in the margin, outside every card. Every fronts page is followed by its backs page,
mirrored left to right for long-edge duplex printing; a calibration pair comes first.
"""

from __future__ import annotations

import json
from dataclasses import astuple, dataclass, field
from typing import Any

from scarbook.compiler.model import Game, Item, is_unknown, known
from scarbook.compiler.sizes import BLEED_MM, PAPER_MM, POKER_MM, STICKER_TEXT_MIN_MM

MARK_GAP_MM = 1.0  # between the bleed and the start of a cut mark
MAX_MARK_MM = 6.0
PALETTE = ("#1f4e79", "#7a1f1f", "#2e6b30", "#6b4e16", "#4b2a6b", "#1f6b6b", "#6b1f4e", "#3d3d3d")


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
class Grid:
    cols: int
    rows: int
    x0: float
    y0: float
    w: float
    h: float
    mark_len: float


def grid_for(size: tuple[float, float], paper: str) -> Grid:
    pw, ph = PAPER_MM[paper]
    w, h = size
    edge = BLEED_MM + MARK_GAP_MM + 3.0  # room needed around the grid for bleed and a visible mark
    cols = max(1, int((pw - 2 * edge) // w))
    rows = max(1, int((ph - 2 * edge) // h))
    x0, y0 = (pw - cols * w) / 2, (ph - rows * h) / 2
    mark_len = max(2.0, min(MAX_MARK_MM, min(x0, y0) - BLEED_MM - MARK_GAP_MM - 1.0))
    return Grid(cols, rows, x0, y0, w, h, mark_len)


def cut_marks(grid: Grid) -> list[Mark]:
    """Short lines in the margins, on every cut line, starting past the bleed."""
    marks = []
    start = BLEED_MM + MARK_GAP_MM
    top, bottom = grid.y0, grid.y0 + grid.rows * grid.h
    left, right = grid.x0, grid.x0 + grid.cols * grid.w
    for i in range(grid.cols + 1):
        x = grid.x0 + i * grid.w
        marks.append(Mark(x, top - start - grid.mark_len, x, top - start))
        marks.append(Mark(x, bottom + start, x, bottom + start + grid.mark_len))
    for j in range(grid.rows + 1):
        y = grid.y0 + j * grid.h
        marks.append(Mark(left - start - grid.mark_len, y, left - start, y))
        marks.append(Mark(right + start, y, right + start + grid.mark_len, y))
    return marks


def _slot(grid: Grid, index: int, card: dict[str, Any], mirrored: bool) -> Slot:
    row, col = divmod(index, grid.cols)
    if mirrored:
        col = grid.cols - 1 - col
    bleed = (BLEED_MM if row == 0 else 0.0, BLEED_MM if col == grid.cols - 1 else 0.0,
             BLEED_MM if row == grid.rows - 1 else 0.0, BLEED_MM if col == 0 else 0.0)
    return Slot(grid.x0 + col * grid.w, grid.y0 + row * grid.h, grid.w, grid.h, bleed, card, index + 1)


def _text(value: Any) -> str | None:
    if is_unknown(value):
        return "?"
    return None if value is None else str(value)


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
    colors = {did: PALETTE[i % len(PALETTE)] for i, did in enumerate(decks)}
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
        stats = [(str(k).replace("_", " "), _text(v) or "") for k, v in (card.get("stats") or {}).items()]
        resources = known(card.get("resources"))
        territory = card.get("territory")
        regions = game.section("territories").get(territory or "", {}).get("regions", []) if territory else []
        face = {
            "id": cid,
            "name": str(known(card.get("name"), cid)),
            "deck": str(known(deck.get("name"), card.get("deck", ""))),
            "deck_id": card.get("deck", ""),
            "type": str(card.get("type") or deck.get("card_type") or "").replace("-", " "),
            "zone": names.get(card.get("zone", ""), str(card.get("zone") or "").replace("-", " ")) or None,
            "where": ", ".join(names.get(r, r) for r in regions) or None,
            "stats": stats,
            "resources": resources if isinstance(resources, int) else None,
            "text": _text(card.get("text")),
            "unknown": any(is_unknown(v) for v in [card.get("text"), *(card.get("stats") or {}).values()]),
            "image": card.get("image"),
            "image_url": None,  # set by the build once the image is checked to lie inside the pack
            "color": colors.get(card.get("deck", ""), PALETTE[-1]),
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
    """A card per faction: its powers (the one chosen in the campaign marked, the others struck
    through) or its leader; in a legacy game, then a record card per faction, a row per game
    (player, start, result) left empty to fill by hand or filled from the campaign (`record`)."""
    factions = game.section("factions")
    out: list[dict[str, Any]] = []
    for i, (fid, faction) in enumerate(factions.items()):
        name = str(known(faction.get("name"), fid))
        chosen = faction.get("power")
        powers = []
        for p in faction.get("powers") or []:
            if not isinstance(p, dict):
                continue
            powers.append({"name": str(known(p.get("name"), p.get("id", ""))), "text": _text(p.get("text")) or "",
                           "chosen": bool(chosen) and p.get("id") == chosen,
                           "destroyed": bool(p.get("destroyed")) or (bool(chosen) and p.get("id") != chosen)})
        leader = faction.get("leader")
        if isinstance(leader, dict) and leader.get("name"):
            powers.append({"name": f"Leader: {known(leader.get('name'), '')}",
                           "text": _text(leader.get("ability")) or "", "chosen": False, "destroyed": False})
        colour = PALETTE[(i + 3) % len(PALETTE)]
        base: dict[str, Any] = {"id": fid, "deck": "Factions", "deck_id": "factions", "type": "faction",
                                "zone": None, "where": None,
                "stats": [], "resources": None, "unknown": False, "image": None, "image_url": None,
                "color": colour, "back": "Faction", "size": POKER_MM, "game": game.title}
        text = _text(faction.get("text")) if not powers else None
        out.append({**base, "name": name, "text": text, "powers": powers,
                    "choose": faction.get("choose_powers") if isinstance(faction.get("choose_powers"), int) else None})
        if game.meta.get("legacy") is True:
            record = [r for r in faction.get("record") or [] if isinstance(r, dict)]
            rows = [{"game": n + 1, "player": "", "start": "", "result": ""} for n in range(_record_rows(game, record))]
            for r in record:
                n = r.get("game")
                if isinstance(n, int) and 1 <= n <= len(rows):
                    rows[n - 1] = {"game": n, "player": str(r.get("player") or ""), "start": str(r.get("start") or ""),
                                   "result": str(r.get("result") or "")}
            out.append({**base, "id": f"{fid}-record", "name": name, "deck": "Faction record", "text": None,
                        "record": rows})
    return out


def card_sheets(cards: list[dict[str, Any]], paper: str) -> list[Sheet]:
    """Calibration pair, then fronts and mirrored backs, page by page, grouped by card size."""
    if not cards:
        return []
    sizes: list[tuple[float, float]] = []
    for c in cards:
        if c["size"] not in sizes:
            sizes.append(c["size"])
    first = grid_for(sizes[0], paper)
    blank = {"name": "", "back": "", "color": "#ffffff"}
    per_page = first.cols * first.rows
    sheets = [
        Sheet("calibration-front", [_slot(first, i, blank, False) for i in range(per_page)], cut_marks(first),
              "Calibration (front)"),
        Sheet("calibration-back", [_slot(first, i, blank, True) for i in range(per_page)], cut_marks(first),
              "Calibration (back)"),
    ]
    for size in sizes:
        grid = grid_for(size, paper)
        same = [c for c in cards if c["size"] == size]
        per_page = grid.cols * grid.rows
        for start in range(0, len(same), per_page):
            chunk = same[start:start + per_page]
            marks = cut_marks(grid)
            sheets.append(Sheet("front", [_slot(grid, i, c, False) for i, c in enumerate(chunk)], marks))
            sheets.append(Sheet("back", [_slot(grid, i, c, True) for i, c in enumerate(chunk)], marks))
    return sheets


#: What a card back shows (a backs page is the same page whenever these are).
BACK_FIELDS = ("back", "color", "game")


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
    """Printable stickers (those with a `size`), one entry per sticker in the supply."""
    out = []
    for sid, st in game.section("stickers").items():
        size = st.get("size")
        if not isinstance(size, dict):
            continue
        supply = st.get("supply")
        if isinstance(supply, list):
            count = sum(p.get("count", 0) for p in supply if isinstance(p, dict) and isinstance(p.get("count"), int))
        else:
            count = supply if isinstance(supply, int) else 1
        item = {"id": sid, "name": str(known(st.get("name"), sid)),
                "text": _text(st.get("text") if st.get("text") is not None else st.get("effect"))
                if float(size["height"]) >= STICKER_TEXT_MIN_MM else "",
                "w": float(size["width"]), "h": float(size["height"])}
        out.extend([item] * max(1, min(int(count), 200)))
    return out


def sticker_sheets(stickers: list[dict[str, Any]], paper: str) -> list[Sheet]:
    """Stickers at real size, in rows (shelf packing) with a 4 mm gap and 12 mm margins."""
    pw, ph = PAPER_MM[paper]
    margin, gap = 12.0, 4.0
    sheets: list[Sheet] = []
    sheet = Sheet("stickers")
    x, y, shelf = margin, margin + 8, 0.0
    for n, st in enumerate(stickers, 1):
        w, h = min(st["w"], pw - 2 * margin), min(st["h"], ph - 2 * margin - 8)
        if x + w > pw - margin:
            x, y, shelf = margin, y + shelf + gap, 0.0
        if y + h > ph - margin:
            sheets.append(sheet)
            sheet = Sheet("stickers")
            x, y, shelf = margin, margin + 8, 0.0
        sheet.slots.append(Slot(x, y, w, h, (0, 0, 0, 0), st, n))
        x += w + gap
        shelf = max(shelf, h)
    if sheet.slots:
        sheets.append(sheet)
    return sheets
