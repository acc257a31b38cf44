"""The player aid: the one or two pages a group keeps on the table (a game's default reference sheet).

Computed from the content as players see it now (`spoilers.for_players`): the board with its marks,
the turn in play order (the rules in short, grouped by topic), for a legacy game what it adds to the base
game (what happens after each game, the campaign's rules) and the rule stickers in play, the next game of
the campaign schedule, and with `--campaign` the world as it is now (named and changed regions, marked
territories, destroyed cards). The full digest of every table is `digest.pdf` beside it.

`aid_view(game, campaign, level)` is pure data for `templates/aid.html.j2`. The renderer lays the aid
out at level 0 and, while it takes more than `MAX_PAGES`, at the next level, each shorter than the one
before (a smaller board picture with text as large, then the text set at 7.8 pt in two columns with every word
kept, then the same spaced more closely (what Letter's 17.6 mm shorter page needs), then small tables left
out, then each rule cut to its first sentence, then titles only); the aid says when and how it was shortened.
A type of game whose end a small table already gives (its title names '<type> game') is not listed again.
Nothing here names a game or gives a topic or sticker kind a meaning beyond the phrases of play (`tables.PLAY_ORDER`)
and the campaign words below.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from scarbook.compiler.model import Game, as_dict, as_list, is_unknown, known, place_name
from scarbook.compiler.tables import cell_text, in_play_order

#: The most pages a player aid takes.
MAX_PAGES = 2
#: How many versions the renderer may try: the full one, then a smaller board, then smaller and closer text with
#: every word kept, then shorter texts.
LEVELS = 7
#: Topic words that describe the campaign (shown with what a legacy game adds, not in the turn).
CAMPAIGN_WORDS = ("campaign", "legacy")
#: A declared table short enough to be printed on the aid (rows, columns).
SMALL_TABLE = (10, 3)
#: A value list ("1, 1, 2, 3, 4": a stat over a card's copies; "1, 2, 4": a table's values): values of a few
#: characters each, joined by commas. The aid keeps one on one line (aid.css td.list) when it is this wide or
#: less at the card reference's 8 pt, in mm; a longer one wraps (issue 34 N9).
LIST_MM = 30.0
_LIST = re.compile(r"[^\s,]{1,6}(?:, [^\s,]{1,6})+")
#: aid.css: the card reference's size (pt), a stat column's least width and a cell's padding, both sides (mm).
CARD_PT, STAT_MM, CELL_PAD_MM = 8.0, 17.0, 2.0


def _text(value: Any) -> str:
    return "?" if is_unknown(value) else ("" if value is None else str(value))


def _first_sentence(text: str) -> str:
    head = re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=1)[0]
    return head if len(head) < len(text.strip()) else text.strip()


def _rules(game: Game, level: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the turn's rule groups in play order, the campaign's rules)."""
    groups: dict[str, list[dict[str, str]]] = {}
    campaign: list[dict[str, Any]] = []
    for rid, rule in game.section("rules").items():
        text = _text(rule.get("text"))
        if level >= 2:
            text = _first_sentence(text)
        if level >= 3:
            text = ""
        entry = {"title": str(known(rule.get("title"), None) or rid), "text": text}
        topic = str(rule.get("topic") or "")
        if any(w in topic.lower() for w in CAMPAIGN_WORDS):
            campaign.append(entry)
        elif topic or not rule.get("slots"):
            groups.setdefault(topic or "general", []).append(entry)
    # the order a player meets them, as the digest's rules in short (tables.in_play_order: issue 34 P17)
    return [{"topic": t.replace("-", " ").capitalize(), "rules": groups[t]} for t in in_play_order(groups)], campaign


def _small_tables(game: Game) -> list[dict[str, Any]]:
    out = []
    for tid, t in game.section("tables").items():
        rows, columns = t.get("rows") or [], t.get("columns") or []
        if not rows or len(rows) > SMALL_TABLE[0] or len(columns) > SMALL_TABLE[1] or t.get("formula"):
            continue
        out.append({"id": tid, "title": str(t.get("title", tid)), "columns": [str(c.get("title")) for c in columns],
                    "rows": [[cell_text(v) if not is_unknown(v) else "?" for v in r] for r in rows]})
    return out


def value_list(text: Any) -> bool:
    """Whether a cell is a short value list the aid keeps on one line (`LIST_MM`)."""
    from scarbook.compiler.boardmap import text_mm

    return isinstance(text, str) and bool(_LIST.fullmatch(text)) and text_mm(text, CARD_PT) <= LIST_MM


def stat_width(tables: list[dict[str, Any]]) -> float:
    """The width (mm) of the card reference's stat columns, one for all its tables (they line up): what the widest
    value list or one-word value of any stat column, or its header's longest word in bold, needs on one line
    (at most `LIST_MM`), with the cell's padding; `STAT_MM` at least (issue 34 N9)."""
    from scarbook.compiler.boardmap import text_mm

    need = [text_mm(v, CARD_PT) for t in tables for row in t["rows"] for v in row[1:-1]
            if value_list(v) or " " not in v]
    need += [text_mm(w, CARD_PT, True) for t in tables for c in t["columns"][1:-1] for w in c.split()]
    return round(max(STAT_MM, min(max(need, default=0.0), LIST_MM) + CELL_PAD_MM), 2)


def _value(value: Any) -> str:
    return "?" if is_unknown(value) else cell_text(value)


def card_reference(game: Game) -> dict[str, Any] | None:
    """The card reference a game's aid carries when its content asks for one (`game: aid: card_reference:`): the
    cards of the named decks as players see them, grouped by the named field (a zone), one row per name and text
    with each stat's values over its copies ("1, 1, 2, 3, 4") and the text under the deck's own column title;
    a value the sources do not give is "?"; its stat columns as wide as their values need (`stat_width`)
    (None when the game asks for none)."""
    ref = as_dict(as_dict(game.meta.get("aid")).get("card_reference"))
    decks = [d for d in as_list(ref.get("decks")) if isinstance(d, str) and d in game.section("decks")]
    if not decks:
        return None
    by = ref.get("group_by") if isinstance(ref.get("group_by"), str) else None
    titles = as_dict(ref.get("text"))
    grouped: dict[str, dict[str, dict[tuple[str, str], dict[str, list[str]]]]] = {}
    stats: dict[str, list[str]] = {d: [] for d in decks}
    for card in game.section("cards").values():
        deck = card.get("deck")
        if deck not in decks:
            continue
        group = str(card.get(by) or "") if by else ""
        copies: int = card["copies"] if isinstance(card.get("copies"), int) else 1
        values = as_dict(card.get("stats"))
        for key in values:
            if key not in stats[deck]:
                stats[deck].append(key)
        row = grouped.setdefault(group, {}).setdefault(deck, {}).setdefault(
            (_value(card.get("name")), _value(card.get("text"))), {})
        for key, v in values.items():
            row.setdefault(key, []).extend([_value(v)] * max(1, copies))
    out, every = [], []
    for group, by_deck in grouped.items():
        found = game.item(group) if group else None
        name = str(known(found[1].get("name"), None) or group) if found else group
        tables: list[dict[str, Any]] = []
        for deck in decks:
            if deck not in by_deck:
                continue
            info = game.section("decks")[deck]
            kind = str(info.get("card_type") or deck).replace("-", " ").capitalize()
            columns = [kind, *(k.replace("_", " ").capitalize() for k in stats[deck]), str(titles.get(deck, "Text"))]
            rows = [[nm, *(", ".join(vals.get(k, [])) or "–" for k in stats[deck]), text]
                    for (nm, text), vals in by_deck[deck].items()]
            tables.append({"deck": str(info.get("name") or deck), "columns": columns, "rows": rows})
        out.append({"name": name or ", ".join(str(t["deck"]) for t in tables), "tables": tables})
        every += tables
    return {"title": str(ref.get("title") or "Card reference"), "groups": out, "stat_width": stat_width(every)}


def _after_each_game(game: Game) -> list[dict[str, Any]]:
    """What each type of game ends with: its steps, and what a player may choose among."""
    names = {sid: str(st.get("name", sid)) for sid, st in game.section("stickers").items()}
    names.update({rid: str(r.get("name", rid)) for rid, r in game.section("rewards").items()})
    campaign = as_dict(game.meta.get("campaign"))
    out = []
    for gt in as_list(campaign.get("game_types")):
        if not isinstance(gt, dict):
            continue
        steps = []
        for step in as_list(gt.get("steps")):
            if not isinstance(step, dict):
                continue
            choose = [names.get(c, c) for c in as_list(step.get("choose")) if isinstance(c, str) and c in names]
            who = str(step.get("who") or "").replace("-", " ")
            steps.append({"name": str(step.get("name", step.get("id", ""))), "who": who, "choose": choose})
        if steps:
            out.append({"name": str(gt.get("name", gt.get("id", ""))), "steps": steps})
    return out


def _not_tabled(after: list[dict[str, Any]], tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What each type of game ends with, less a type whose end the aid already prints as a table of its own
    (a table titled 'End of the global game' holds the steps of the 'global' game): said once (issue 34 P2)."""
    titles = " ".join(str(t["title"]).lower() for t in tables)
    return [gt for gt in after if f"{gt['name'].lower()} game" not in titles]


def _rule_stickers(game: Game) -> list[dict[str, str]]:
    """The rule stickers in play: those a campaign placed on a rulebook place, each once, with where and since
    when (one that is only in the box, or the side a group did not take, is not in play); a filled place whose
    sticker is not listed is shown on its own."""
    placed: dict[str, str] = {}
    others = []
    for sid, sec in game.section("rulebook").items():
        for slot in as_list(sec.get("slots")):
            if not isinstance(slot, dict) or not slot.get("filled") or slot.get("filled") == "empty":
                continue
            title, label = str(sec.get("title", sid)), str(slot.get("label", ""))
            sticker = slot.get("sticker")
            if isinstance(sticker, str) and sticker in game.section("stickers"):
                every = [x for x in as_list(slot.get("placed")) if isinstance(x, dict)] or \
                    [{"sticker": sticker, "when": slot.get("when")}]  # a place may hold several stickers
                for x in every:
                    name = str(as_dict(game.section("stickers").get(str(x["sticker"]))).get("name", x["sticker"]))
                    where = place_name(title, "" if label == name else label)
                    placed[str(x["sticker"])] = (
                        "In its own place in the rulebook" if name.casefold().startswith(where.casefold())
                        else f"In “{where}”") + f" ({x.get('when') or 'placed'})."
                continue
            others.append({"name": place_name(title, label),
                           "text": f"{slot['filled']}" + (f": {slot['text']}" if isinstance(slot.get("text"), str)
                                                          else "")})
    out = []
    for sid, st in game.section("stickers").items():
        if "rulebook-slot" in as_list(st.get("targets")) and sid in placed:
            text = _text(st.get("effect") or st.get("text"))
            out.append({"name": str(st.get("name", sid)), "text": f"{text} {placed[sid]}"})
    return out + others


def next_game(game: Game, reached: int) -> dict[str, str] | None:
    """The schedule's entry for the game the campaign is at (game 1 without a campaign)."""
    for entry in game.section("schedule").values():
        if entry.get("game") == reached:
            return {"game": str(reached), "title": _text(entry.get("title")),
                    "type": _text(entry.get("type")), "objective": _text(entry.get("objective")),
                    "special": _text(entry.get("special")), "at_end": _text(entry.get("at_end"))}
    return None


def world(game: Game) -> dict[str, list[str]]:
    """The world as a campaign left it: where its shape stands (tracks, scenarios, chapters: `Game.standing`), named
    or changed regions, marked territories, destroyed cards."""
    from scarbook.compiler.boardmap import bonuses_shown

    regions = []
    claims = set(as_list(as_dict(game.meta.get("campaign")).get("claims")))  # stickers that make a place its placer's
    with_bonus = bonuses_shown(game)
    for rid, r in game.section("regions").items():
        if r.get("named_by") or r.get("marks"):
            bonus = r.get("bonus")
            by = f" (named by {r['named_by']})" if r.get("named_by") else ""
            shown = cell_text(bonus) if not is_unknown(bonus) else "?"
            holders = [m.get("by") for m in as_list(r.get("marks"))
                       if isinstance(m, dict) and m.get("sticker") in claims and m.get("by")]
            held = f"held by {holders[-1]}" if holders else ""
            if with_bonus:
                first = f"bonus {shown}" if bonus is not None else ""
            else:
                unclaimed = {**r, "marks": [m for m in as_list(r.get("marks"))
                                            if not (isinstance(m, dict) and m.get("sticker") in claims)]}
                first = "" if r.get("named_by") else ", ".join(_mark_names(game, unclaimed))
            said = "; ".join(x for x in (first, held) if x)
            regions.append(f"{known(r.get('name'), rid)}{by}" + (f": {said}" if said else ""))
    where: dict[str, list[str]] = {}  # a mark -> the territories that carry it (a named mark: its own line)
    stickers = game.section("stickers")
    for tid, t in game.section("territories").items():
        place = str(known(t.get("name")) or t.get("code") or tid)  # as printed: a code where no name is known
        for m in as_list(t.get("marks")):
            if isinstance(m, dict):
                sid = m.get("sticker")
                label = str(as_dict(stickers.get(sid) if isinstance(sid, str) else None).get("name") or sid)
                where.setdefault(f"{label} {m['name']}" if m.get("name") else label, []).append(place)
    territories = [f"{label}: {', '.join(places)}" for label, places in where.items()]
    destroyed = [str(known(c.get("name"), cid)) for cid, c in game.section("cards").items() if c.get("destroyed")]
    on_cards: dict[str, list[str]] = {}  # a mark -> the cards that carry it (many: counted, the sheet lists them)
    for cid, c in game.section("cards").items():
        if not c.get("destroyed"):
            for label in _mark_names(game, c):
                on_cards.setdefault(label.split(" x")[0], []).append(str(known(c.get("name"), cid)))
    cards = [f"{label}: {', '.join(held) if len(held) <= AID_CARDS else f'{len(held)} cards'}"
             for label, held in on_cards.items()]
    return {"standing": list(game.standing), "regions": regions, "territories": territories, "destroyed": destroyed,
            "cards": cards}


#: At most this many cards are named for one mark in the aid's world; more are counted.
AID_CARDS = 6


def _mark_names(game: Game, item: dict[str, Any]) -> list[str]:
    """The marks a campaign left on an item (a card, a region), by their stickers' names, each once with how
    many: 'Seal, Gilding x2'."""
    stickers = game.section("stickers")
    counts: dict[str, int] = {}
    for m in as_list(item.get("marks")):
        if isinstance(m, dict):
            sid = m.get("sticker")
            label = str(as_dict(stickers.get(sid) if isinstance(sid, str) else None).get("name") or sid)
            counts[label] = counts.get(label, 0) + 1
    return [f"{k} x{n}" if n > 1 else k for k, n in counts.items()]


def map_marks(game: Game) -> dict[str, list[Any]]:
    """Territory id -> the marks to draw on the aid's board (from the campaign's `marks`), each in its mark group
    (`game: marks:`, compiler.words) with the group's icon and colour, as the campaign sheet draws them."""
    from scarbook.compiler.boardmap import DESTROYED, MapMark, short_label
    from scarbook.compiler.words import group_of, mark_groups

    groups = mark_groups(game)
    out: dict[str, list[Any]] = {}
    stickers = game.section("stickers")
    for tid, t in game.section("territories").items():
        for m in as_list(t.get("marks")):
            if not isinstance(m, dict):
                continue
            sid = str(m.get("sticker"))
            st = as_dict(stickers.get(sid))
            group = group_of(groups, sid, st, m.get("slot"))
            if not group.board:
                continue
            label = short_label(str(st.get("name") or sid), group.word.one)
            size = as_dict(st.get("founds")).get("population")
            if m.get("boxes"):
                mark = MapMark(group.id, "", m.get("boxes_left"), m.get("boxes"), group.icon, group.color,
                               group.legend_text)
            else:
                mark = MapMark(group.id, str(m.get("name") or label), size if isinstance(size, int) else None, None,
                               group.icon, group.color, group.legend_text)
            out.setdefault(tid, []).append(mark)
    for card in game.section("cards").values():
        if card.get("destroyed") and isinstance(card.get("territory"), str):
            out.setdefault(card["territory"], []).append(DESTROYED)
    return out


def campaign_label(campaign: str | None) -> str | None:
    """How the aid names a campaign: its file's name, never the folder it lies in."""
    return Path(campaign).stem if campaign else None


def aid_view(game: Game, campaign: str | None, reached: int = 1, level: int = 0) -> dict[str, Any]:
    """Everything the aid prints at shortening `level` (0: all of it; 1: the board smaller, every word kept; 2: the
    text set smaller too, every word kept; 3: that spaced more closely, every word kept; then shorter)."""
    small_map = level >= 1
    dense = level >= 2  # every word kept, set a little smaller (aid.css: body.dense)
    tight = level >= 3  # every word kept, less space between paragraphs, lines and table rows (aid.css: body.tight)
    level = max(0, level - 3)
    turn, campaign_rules = _rules(game, level)
    tables = _small_tables(game) if level < 1 else []
    legacy = bool(game.meta.get("legacy"))
    campaign_meta = as_dict(game.meta.get("campaign"))
    summary = game.meta.get("summary")
    said = " ".join(_text(r.get("text")) for r in game.section("rules").values())
    if isinstance(summary, str) and " ".join(summary.split()) in " ".join(said.split()):
        summary = None  # a rule already says it (the objective, say): printed once (issue 34 P17)
    return {
        "game": {"id": game.id, "title": game.title}, "campaign": campaign_label(campaign), "reached": reached,
        "over": game.over,
        "summary": summary if isinstance(summary, str) and level < 3 else None,
        "turn": turn, "tables": tables,
        "card_reference": card_reference(game),
        "legacy": legacy, "campaign_text": _text(campaign_meta.get("text")) if legacy else "",
        "after_each_game": _not_tabled(_after_each_game(game), tables) if legacy else [],
        "campaign_rules": campaign_rules if legacy else [],
        "rule_stickers": _rule_stickers(game), "next_game": next_game(game, reached) if level < 2 else None,
        "world": world(game) if campaign else None, "small_map": small_map, "dense": dense, "tight": tight,
        "shortened": ("" if not small_map else "Board drawn smaller." if not dense else
                      "Board and text smaller, in two columns." if not tight else
                      "Board and text smaller, in two columns, closely spaced." if level == 0 else
                      "Shortened to fit two pages."),
    }
