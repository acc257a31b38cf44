"""The campaign sheet: the campaign's state as a page a group pins to the wall (PDF, HTML or SVG).

Builds a view model from `report.status` (typed rows, `campaign/status_rows.py`), names everything as
printed (the content's `name`, a territory's code where it has no printed name, never a bare id), draws the board with
`compiler.boardmap.board_svg` (each permanent mark an icon in its territory) and renders
`templates/campaign-sheet.html.j2` with the compiler's Jinja2 environment (autoescape,
StrictUndefined). Imports Jinja2 (and WeasyPrint for a PDF), so only the `sheet` command loads it.
It never writes anything but the one output file it is asked for.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scarbook.campaign import shape
from scarbook.campaign.content import BOARD
from scarbook.campaign.effective import applied
from scarbook.campaign.engine import Replay
from scarbook.campaign.ledger.file import Ledger
from scarbook.campaign.report import status
from scarbook.campaign.views.status import when_placed
from scarbook.compiler.items import book_slots
from scarbook.compiler.model import known, place_name
from scarbook.compiler.views_more import more

if TYPE_CHECKING:
    from scarbook.campaign.status_rows import MarkRow, Status
    from scarbook.compiler.boardmap import MapMark
    from scarbook.compiler.items import Sticker
    from scarbook.compiler.words import MarkGroup

FORMATS = ("pdf", "html", "svg")


class Names:
    """Id -> the name printed on the game's pieces (territory code when the name is not known)."""

    def __init__(self, replay: Replay) -> None:
        self.game = replay.content.game
        self.views = more(replay.content)
        # a rulebook's slot (a box stickers go in) by its label in its rulebook: 'The Road Book: Achievements'
        self.slots = {str(slot.id): place_name(str(known(slot.title) or slot.section),
                                               str(known(slot.label) or slot.id))
                      for slot in book_slots(self.game.section("rulebook"))}

    def __call__(self, item_id: str | None, section: str | None = None) -> str:
        if not item_id:
            return ""
        found = (section, self.game.section(section).get(item_id)) if section else self.game.item(item_id)
        item = self.views.section(found[0]).get(item_id) if found and found[1] is not None else None
        if item is None:
            return self.slots.get(item_id, item_id) if not section else item_id
        name = known(item.printed_name)
        if name:
            code = item.printed_code
            return f"{name} ({code})" if code and str(code).lower() != str(name).lower() else str(name)
        return str(item.printed_code or item_id)

    def target(self, item_id: str | None) -> str:
        """Where a mark is: a rulebook place before any item of the same id (a rule sticker may share its id with
        the place it goes in, and the place is what the "On" column means)."""
        if item_id and item_id in self.slots:
            return self.slots[item_id]
        if item_id == BOARD and self.game.item(BOARD) is None:
            return "The gameboard"  # the board as a whole (a sticker for its legend), not an item's id ('board')
        return self(item_id)


def _sticker_facts(replay: Replay, sticker: str) -> Sticker:
    return replay.content.sticker_view(sticker)


def map_marks(replay: Replay, data: Status, names: Names) -> dict[str, list[MapMark]]:
    """Territory id -> the icons to draw in it: every active mark (not the cancel stickers, whose
    effect is that the cancelled mark is gone), each with its group's icon and colour, and a destroyed
    territory card."""
    from scarbook.compiler.boardmap import DESTROYED, MapMark, short_label

    territories = replay.content.territories
    out: dict[str, list[MapMark]] = {}
    for group in data.mark_groups:
        look = _groups(replay).get(group.id)
        if look is None or not look.board:
            continue
        for grouped in group.marks:
            m = grouped.mark
            if m.target not in territories or grouped.cancelled:
                continue
            st = _sticker_facts(replay, m.sticker)
            label = short_label(st.name or m.sticker, look.word.one)
            size = grouped.population
            text = (m.name or label) if isinstance(size, int) or m.name else label
            if m.boxes:
                text = ""
            out.setdefault(m.target, []).append(MapMark(group.id, text, size if isinstance(size, int) else (
                m.left if m.boxes else None), m.boxes, look.icon, look.color, look.legend_text))
    for cid in data.destroyed_cards:
        card = replay.content.card_views.get(cid)
        if card is not None and card.territory is not None:
            out.setdefault(card.territory, []).append(DESTROYED)
    return out


def _groups(replay: Replay) -> dict[str, MarkGroup]:
    from scarbook.compiler.words import mark_groups

    return {g.id: g for g in mark_groups(replay.content.game)}


def _piece_title(content: Any) -> str:
    """The heading of the characters table: what the content calls its pieces with stats."""
    kinds = [k for k in content.model.pieces.values() if k.name]
    names = [k.name for k in kinds if any(i.stats is not None for i in more(content).pieces_of(k.id).values())]
    title = ", ".join(dict.fromkeys(names)) or "Pieces"
    return title[:1].upper() + title[1:] + ("" if title.endswith("s") else "s")


def changed_values(content: Any, data: Status, names: Any, skip: set[str]) -> list[dict[str, Any]]:
    """Cards whose printed values (`stats`) marks have changed, or that are destroyed: printed and now, in words."""
    destroyed = set(data.destroyed_cards)
    out = []
    for c in data.shape.get("card_values", []):  # the shape's part of the status is not typed yet
        card = more(content).cards.get(c["card"])
        printed = (card.stats if card is not None else None) or {}
        changed = [k for k, v in c["values"].items() if v != printed.get(k)]
        if c["card"] in skip or not (changed or c["card"] in destroyed):
            continue
        out.append({"name": names(c["card"], "cards"),
                    "printed": ", ".join(f"{k.replace('_', ' ')} {printed.get(k, '?')}" for k in changed) or None,
                    "now": ", ".join(f"{k.replace('_', ' ')} {c['values'][k]}" for k in changed) or None,
                    "destroyed": c["card"] in destroyed})
    return out


def game_columns(team: bool, games: list[dict[str, Any]]) -> dict[str, bool]:
    """The columns of the games table, by the game's result form: a team's result or a winner; who held on and
    who was eliminated only where a game had them; what was played (a scenario, a chapter); the scores."""
    return {"type": any(g["type"] for g in games), "played": any(g["played"] for g in games),
            "result": team, "winner": not team, "held_on": not team and any(g["held_on"] for g in games),
            "eliminated": any(g["eliminated"] for g in games), "scores": any(g["scores"] for g in games)}


def player_columns(starts_used: bool, players: list[dict[str, Any]]) -> dict[str, bool]:
    """The columns of the players table, by what the game keeps: tokens to start with, legal starts, places
    claimed, a total score."""
    return {"starts_with": any(p["starts_with"] != "nothing" for p in players),
            "starts": starts_used, "claimed": any(p["claimed"] for p in players),
            "score_total": any(p["score_total"] is not None for p in players)}


def view(ledger: Ledger, replay: Replay) -> dict[str, Any]:
    """Everything the sheet prints, named as printed, in the order it prints it."""
    data = status(ledger, replay)
    names = Names(replay)
    content = replay.content
    game = content.game

    def by(m: MarkRow) -> str:
        when = when_placed(m.game or 0, m.during_game)
        who = m.by or ("setup" if when == "before game 1" else "")  # nobody named: setup before game 1
        if m.placed_by:  # handed over since: whose it is now, and who placed it
            return f"{m.placed_by}, {when} (now {who}'s)"
        return f"{who}, {when}" if who else when

    players = []
    for p in data.players:
        tokens = [f"{n} {data.token_names.get(t, {}).get('name' if n == 1 else 'plural', t)}"
                  for t, n in p.tokens.items() if n] or "nothing"
        players.append({"name": p.name, "signatures": p.signatures,
                        "signed": [s.game for s in data.signatures if s.player == p.name],
                        "starts_with": tokens if isinstance(tokens, str) else ", ".join(map(str, tokens)),
                        "starts": len(p.legal_starts),
                        "may_take": [names(s, "stickers") for s in p.may_take],
                        "claimed": [names(c) for c in p.claimed or []], "score_total": p.score_total})
    continents = [{"printed": names(r.id, "regions"), "name": r.name, "named_by": r.named_by,
                   "printed_bonus": r.printed_bonus, "bonus": r.bonus,
                   "changes": [names(s, "stickers") for s in r.changes], "owner": r.owner}
                  for r in data.continents]
    groups = []
    # a group's rows in the order its places are printed in the content (a board's territories in board order), each
    # place's marks by the game they were placed after: not in the order of the ledger's places
    order = {iid: n for n, iid in enumerate(iid for section in game.sections.values() for iid in section)}
    for group in data.mark_groups:
        rows: list[dict[str, Any]] = []
        for grouped in sorted(group.marks, key=lambda g: (order.get(g.mark.target, len(order)), g.mark.game or 0)):
            m = grouped.mark
            if grouped.shown_as in ("value", "name", "choice", "destroyed"):
                continue  # shown as a value, a region's name, a faction's power, a destroyed card
            if isinstance(grouped.population, int) and grouped.cancelled:
                continue
            state = ("" if not m.boxes else f"{m.left} of {m.boxes} boxes left")
            if isinstance(grouped.population, int):
                state = f"size {grouped.population}"
            if m.status:  # retired or lost for good (`campaign retire`)
                state = str(m.status) + (f", {state}" if state else "")
            elif grouped.cancelled:
                state = f"cancelled ({names(m.covered_by, 'stickers')})" + (f", {state}" if state else "")
            given = str(m.name or "")
            where, mark = names.target(m.target), names(m.sticker, "stickers")
            if m.target in names.slots and mark.casefold().startswith(where.casefold()):
                where = "Its own place in the rulebook"  # not 'Rules addition E | Rules addition E'
            row = {"where": where, "mark": mark,
                   "name": given.replace("_", " ") if " " not in given else given,
                   "state": state or "in play", "by": by(m), "active": not grouped.cancelled, "count": 1}
            same = next((r for r in rows if not row["name"] and all(r[k] == row[k] for k in
                                                                   ("where", "mark", "name", "state", "active"))),
                        None)  # the same sticker on the same card again (upgrades): counted, not repeated
            if same is not None:
                same["count"] += 1
                same["by"] = same["by"] if same["by"] == row["by"] else "several"
            else:
                rows.append(row)
        if rows:
            groups.append({"title": group.plural[:1].upper() + group.plural[1:], "rows": rows,
                           "counted": any(r["count"] > 1 for r in rows)})
    destroyed = set(data.destroyed_cards)
    cards = [{"name": names(c.card, "cards"), "printed": c.printed, "now": c.resources,
              "destroyed": c.card in destroyed}
             for c in data.resources if c.resources != c.printed or c.card in destroyed]
    listed = {c.card for c in data.resources}
    cards += changed_values(content, data, names, listed)
    listed |= {c["card"] for c in data.shape.get("card_values", [])}
    cards += [{"name": names(cid, "cards"), "printed": None, "now": None, "destroyed": True}
              for cid in data.destroyed_cards if cid not in listed]
    stickers = [{"name": names(s.sticker, "stickers"), "placed": s.placed, "left": s.left, "pool": s.pool}
                for s in data.stickers if s.sticker not in content.destroy_stickers]
    powers = content.option_names
    factions = [{"name": f.name or names(f.id, "factions"), "given_name": f.given_name or "",
                 "chosen": powers.get(f.power, names(f.power)) if f.power else "",  # its choice-of pick
                 "marks": [names(s, "stickers") for s in f.marks],
                 "history": {h.game: {"player": h.player,
                                      "start": names(h.start, "territories") if h.start else "",
                                      "result": str(h.result).replace("-", " ")}
                             for h in f.history}}
                for f in data.factions]
    games = [{"game": g.game, "type": content.model.entry(g.game).type, "title": content.model.entry(g.game).title,
              "plays": g.plays, "ended": g.ended, "winner": g.winner,
              "held_on": g.held_on, "eliminated": g.eliminated,
              "team": g.team or "", "played": g.scenario_name or g.chapter or "",
              "scores": ", ".join(f"{p} {n}" for p, n in (g.scores or {}).items())}
             for g in data.games]

    def packet(eid: str) -> dict[str, str]:
        env = content.envelope_views.get(eid)  # content.envelopes are the game's
        return {"name": names(eid, "envelopes"), "trigger": env.trigger_text if env else ""}

    pieces = []
    for pc in data.pieces:
        changed = [f"{k.replace('_', ' ')} {'?' if pc.printed.get(k) is None else pc.printed[k]} → {v}"
                   for k, v in pc.stats.items() if v is not None and v != pc.printed.get(k)]
        if changed or pc.given_name or pc.owner:
            # a name struck through says why: the game it was lost in, and any game it was played again in
            lost_in = [g.game for g in data.games if pc.piece in g.lost]
            again = [g.game for g in data.games if pc.piece in g.returned]
            fate = ([f"lost for good in game {lost_in[-1]}"] if pc.lost and lost_in else ["lost for good"] if pc.lost
                    else []) + [f"played again in game {n} at a price" for n in again]
            pieces.append({"name": pc.name, "alias": pc.given_name or "", "owner": pc.owner or "",
                           "lost": pc.lost, "fate": "; ".join(fate), "changes": changed})
    winner = data.overall_winner
    shape_lines = shape.status_lines(data.shape)  # a campaign in chapters, with tracks or a team result
    if winner and winner.get("team"):
        shape_lines.append(shape.result_line(winner))
        winner = None
    # a branching campaign's map: each scenario's state
    scenarios = [{"name": sc["name"], "result": "not played" if sc["result"] == "unplayed" else sc["result"],
                  "open": sc["open"], "why": "" if sc["why"].endswith(" is already won") else sc["why"],
                  "games": [g.game for g in data.games if g.scenario == sc["id"]]}
                 for sc in (shape.scenarios_data(content, replay.state) if content.model.scenarios else [])]
    return {
        "shape_lines": shape_lines, "scenarios": scenarios,
        "campaign": data.campaign, "game_title": game.title, "games_played": data.games_played,
        "game_in_progress": data.game_in_progress, "players": players, "continents": continents,
        "mark_groups": groups, "pieces": pieces, "piece_title": _piece_title(content), "cards": cards,
        "words": data.words, "signs": data.signs,
        "regions_named": data.regions_named,
        "bonuses_shown": any(r.bonus or r.changes for r in data.continents),
        "stickers": stickers, "factions": factions, "games": games,
        "game_columns": game_columns(bool(data.shape.get("team")), games),
        "player_columns": player_columns(data.starts_used, players),
        "pending_packets": [packet(e) for e in data.pending_packets],
        "opened_packets": [packet(e) for e in data.opened_packets],
        # still sealed: what is printed on the outside (name, trigger) is no secret
        "sealed_packets": [packet(e) for e, env in content.envelope_views.items()
                           if e not in data.opened_packets and e not in data.pending_packets
                           and not env.opened_at_start],
        "owed": [f"{o.player}: {o.role}" for o in data.owed_rewards],
        "overall_winner": winner, "data": data,
    }


def sheet_svg(ledger: Ledger, replay: Replay, data: Status | None = None,
              printed_mm: tuple[float, float] | None = None) -> str | None:
    """The board with the campaign's marks and a legend (None when the board is not drawn); with `printed_mm`
    (the box it prints in: width, most height), laid out so that its text prints at 6 pt or more there."""
    from scarbook.compiler.boardmap import board_svg, map_withheld, view_width_for

    game = applied(replay)
    if map_withheld(game):
        return None
    marks = map_marks(replay, data if data is not None else status(ledger, replay), Names(replay))
    if printed_mm:
        view = view_width_for(game, *printed_mm)
        return board_svg(game, dict(marks), legend_kinds=True, view_width=view)  # type: ignore[arg-type]
    return board_svg(game, dict(marks), legend_kinds=True)  # type: ignore[arg-type]


#: Page sizes of the sheet (`campaign sheet --paper`), as CSS `@page` sizes.
PAPERS = {"a4": "A4", "letter": "letter"}
#: The sheet's first page is landscape (`@page board`): its width and height in mm, per paper.
LANDSCAPE_MM = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}
#: How tall the board prints at most (campaign-sheet.html.j2), and the page's margins: left + right, top + bottom.
BOARD_MOST_MM = 160.0
MARGINS_MM = (22.0, 26.0)
_PT = 25.4 / 72


def board_room_mm(model: dict[str, Any], title: str, paper: str = "a4") -> float:
    """How tall the board may print so that it stays on the first page with the lines around it: the landscape
    page less its margins, the title (as many rows as it wraps to), the lines above the board (wrapped at the
    page's width, measured with the bundled font) and the badge line under it; at most BOARD_MOST_MM. A campaign
    whose shape says a lot (tracks, cards, scenarios played) pushed a board 160 mm tall onto a page of its own and
    left the first page empty."""
    import math

    from scarbook.compiler.boardmap import text_mm

    width, height = LANDSCAPE_MM.get(paper, LANDSCAPE_MM["a4"])
    line_mm = 10 * 1.3 * _PT  # p.meta: 10 pt, line-height 1.3, 3 mm of margins

    def block(text: str) -> float:
        rows = max(1, math.ceil(text_mm(text, 10) / (width - MARGINS_MM[0])))
        return rows * line_mm + 3.0

    meta = f"{model['game_title']} · {model['games_played']} games played"
    if model["game_in_progress"]:
        meta += f" · game {model['game_in_progress']} in progress"
    winner = model["overall_winner"]
    if winner:  # as the template says it, its numbers at their widest
        meta += f" · overall winner: a tie between {' and '.join(winner.get('players') or [])} (by 999 each): roll off"
    title_rows = max(1, math.ceil(text_mm(title, 21, bold=True) / (width - MARGINS_MM[0])))
    used = title_rows * 21 * 1.3 * _PT + block(meta)  # h1: 21 pt bold
    if model["shape_lines"]:
        used += block(" · ".join(model["shape_lines"]))
    if model["pending_packets"] or model["owed"]:
        used += block("Open now: " + ", ".join(p["name"] for p in model["pending_packets"]) + " Still to do: "
                      + ", ".join(model["owed"])) + 1.0
    return round(min(BOARD_MOST_MM, height - MARGINS_MM[1] - used - 4.0), 1)  # 4 mm: the border, rounding


def sheet_html(ledger: Ledger, replay: Replay, inline_fonts: bool = False, paper: str = "a4") -> str:
    from scarbook.compiler.boardmap import map_withheld
    from scarbook.compiler.render.html import environment

    model = view(ledger, replay)
    withheld = map_withheld(applied(replay))
    template = environment().get_template("campaign-sheet.html.j2")
    svg = None if withheld else sheet_svg(ledger, replay, model["data"])
    title = ledger.name or ledger.path.stem
    html = str(template.render(title=title, v=model, map_svg=svg, map_note=withheld, paper=PAPERS.get(paper, "A4"),
                               board_mm=board_room_mm(model, title, paper)))
    return _inline_fonts(html) if inline_fonts else html


def _inline_fonts(html: str) -> str:
    """Fonts as data: URLs, so the HTML opens the same from any folder (the faces the sheet uses only)."""
    from scarbook.templates import TEMPLATE_DIR

    def data_url(match: re.Match[str]) -> str:
        font = TEMPLATE_DIR / "fonts" / match.group(1)
        encoded = base64.b64encode(font.read_bytes()).decode("ascii")
        return f"url(data:font/ttf;base64,{encoded})"

    html = re.sub(r'@font-face \{ font-family: "Sheet Condensed";[^}]*\}\n?', "", html)
    return re.sub(r"url\(fonts/([A-Za-z0-9_.-]+\.ttf)\)", data_url, html)


def write_sheet(ledger: Ledger, replay: Replay, out: Path, fmt: str = "pdf", paper: str = "a4") -> Path:
    """Write the sheet as `fmt` (pdf, html, or svg: the board picture alone) to `out`, on `paper` (a4, letter):
    a file, standard output (`-`), or a FIFO or device as a stream (`scarbook.kernel.outputs`)."""
    from scarbook.kernel.outputs import write_output

    if fmt == "svg":
        svg = sheet_svg(ledger, replay)
        if svg is None:
            from scarbook.compiler.boardmap import map_withheld

            raise ValueError(f"no board picture: {map_withheld(applied(replay))}")
        write_output(out, (svg + "\n<!-- made by scarbook -->\n").encode("utf-8"))
        return out
    if fmt == "html":
        write_output(out, sheet_html(ledger, replay, inline_fonts=True, paper=paper).encode("utf-8"))
        return out
    from scarbook.compiler.render.pdf import render_pdf
    from scarbook.templates import TEMPLATE_DIR

    write_output(out, render_pdf(sheet_html(ledger, replay, paper=paper), [TEMPLATE_DIR], TEMPLATE_DIR))
    return out
