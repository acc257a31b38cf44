"""A game as it stands in a campaign, for the compiler's `show`, `tables` and `build --campaign`.

`applied(replay)` returns the replayed campaign's game as a new `Game`: opened packets'
content visible (nothing sealed otherwise), continents with the given `name` and `named_by`,
bonuses changed by the +1/-1 marks, territory cards' `resources` updated, destroyed cards with
`destroyed: true`, cards' `stats` as upgraded (`upgraded_stats`, `stat_adds`; a named card keeps its printed
`name` and gets the players' `alias`; anything else named takes the players' `name` and keeps the printed one as
`printed_name`), on every faction its `record` (game, player, start, result), on every
territory the `marks` it carries, and on every rulebook place (`slots`) what fills it (`filled`,
and its `text` only where a pack transcribed the sticker). It never writes anything.
"""

from __future__ import annotations

import copy
from typing import Any

from scarbook.campaign.engine import Replay
from scarbook.campaign.views.status import when_placed
from scarbook.compiler.model import Game, singular
from scarbook.compiler.views_more import more
from scarbook.kernel.diagnostics import Span


def _mark_json(m: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"sticker": m.sticker, "kind": m.kind}
    for key in ("by", "name", "founds"):
        if getattr(m, key):
            out[key] = getattr(m, key)
    if m.boxes:
        out["boxes"] = m.boxes
        out["boxes_left"] = m.boxes - m.ticked
    out["game"] = m.after_game
    if m.during_game:
        out["during_game"] = m.during_game
    return out


def _fill_slot(content: Any, state: Any, slot: dict[str, Any]) -> None:
    """A rulebook place as the campaign left it: which sticker fills it, and its text only where a pack
    transcribed it (the sticker's `text`); an empty place says so."""
    marks = [m for m in state.active_marks(slot["id"]) if not m.cancels]
    if not marks:
        slot["filled"] = "empty"
        return
    m = marks[-1]
    slot["placed"] = [{"sticker": x.sticker, "when": when_placed(x.after_game, x.during_game)} for x in marks]
    st = content.sticker_view(m.sticker)
    slot["filled"] = f"{st.name} ({when_placed(m.after_game, m.during_game)})"
    slot["sticker"] = m.sticker
    slot["when"] = when_placed(m.after_game, m.during_game)
    slot["text"] = st.text if st.text.strip() else {
        "unknown": f"{st.name} is placed; its text is not transcribed in a pack"}


def _stats(content: Any, state: Any, tid: str, item: dict[str, Any]) -> None:
    """A card's stats as they stand now (what `campaign status` prints): a value a sticker set or raised replaces
    the printed one and is listed in `upgraded_stats`; an unknown printed value that stickers raised stays
    unknown, and `stat_adds` says by how much it was raised (the sum is not known)."""
    printed = item["stats"]
    upgraded: list[str] = []
    adds: dict[str, int] = {}
    for key, base in list(printed.items()):
        now = state.stat(content, tid, base, key)
        if now is not None and now != base:
            printed[key] = now
            upgraded.append(key)
        elif now is None and isinstance(base, dict):
            raised = sum(int(content.sticker_view(m.sticker).adds.get(key) or 0)
                         for m in state.active_marks(tid) if not m.cancels)
            if raised:
                adds[key] = raised
                upgraded.append(key)
    if upgraded:
        item["upgraded_stats"] = upgraded
    if adds:
        item["stat_adds"] = adds


def _founded_key(kind: str, printed: dict[str, Any]) -> str:
    """Where an item tells what was founded on it: the key named as the sticker's `founds.kind` (a city), or
    `founded` when the printed item already has a field of that name."""
    return "founded" if kind in printed else kind


def _records(state: Any, sections: dict[str, Any], spans: dict[str, Any], ledger: str) -> None:
    """Every faction's `record` as its record card has it: a row per game it was played in (game
    number, player, the territory they started in as the board prints it, the result once the game ended)."""
    factions = sections.get("factions", {})
    territories = sections.get("territories", {})
    for g in state.games:
        for player, pieces in g.pieces.items():
            for piece in pieces.values():
                if piece not in factions:
                    continue
                start = g.starts.get(player, "")
                where = territories.get(start, {})
                # as the board prints it: the name, else the printed code ('NA-01'), never the id ('na-01')
                name = next((v for v in (where.get("name"), where.get("code")) if isinstance(v, str) and v), start)
                record = factions[piece].setdefault("record", [])
                record.append({"game": g.number, "player": player, "start": name,
                               "result": g.role(player).replace("-", " ") if g.ended else "playing"})
                if ledger:
                    spans[f"{piece}/record/{len(record) - 1}"] = Span(ledger, g.line, 1)


def applied(replay: Replay, ledger: str = "") -> Game:
    """The replay's content with the campaign's permanent changes written into it. With `ledger` (the file shown
    for the campaign), what the campaign wrote into an item (`ITEM/marks/0`, `ITEM/name`, `ITEM/record/2`...)
    is located at the ledger's line that recorded it, so a diagnostic about it (markup in a player's name, B301)
    points at the ledger, not at the content."""
    game = replay.content.game
    state = replay.state
    content = replay.content
    sections = copy.deepcopy(game.sections)
    spans = dict(game.spans)
    views = more(content)  # the items as printed (`sections` holds copies being written)
    printed = {"territories": views.territories, "regions": views.regions, "cards": views.cards,
               "factions": views.factions}
    for section in ("territories", "regions", "cards", "factions"):
        items = sections.get(section, {})
        for tid, item in items.items():
            marks = state.active_marks(tid)
            if not marks:
                continue
            item["marks"] = [_mark_json(m) for m in marks if not m.cancels]
            if ledger:
                for j, m in enumerate(m for m in marks if not m.cancels):
                    spans[f"{tid}/marks/{j}"] = Span(ledger, m.line, 1)
            for fieldname in {k for m in marks for k in content.sticker_view(m.sticker).adds}:
                item[fieldname] = state.value(content, tid, game.sections[section][tid], fieldname)
            for m in marks:
                st = content.sticker_view(m.sticker)
                if st.named_itself and m.name:
                    if section == "cards" and isinstance(item.get("name"), str):
                        item["alias"] = m.name  # a card keeps its printed name (a piece's), the alias beside it
                    else:
                        if isinstance(item.get("name"), str):  # the name as printed, for what prints the item
                            item.setdefault("printed_name", item["name"])
                        item["name"] = m.name
                    item["named_by"] = m.by
                    if ledger:
                        spans[f"{tid}/name"] = spans[f"{tid}/named_by"] = Span(ledger, m.line, 1)
                if m.kind == "destroyed":
                    item["destroyed"] = True
                for choice in st.checks_named("choice-of") if m.name else ():
                    # the option chosen, under the list's singular (a faction's `powers`: `power`); the others gone
                    options = choice.field or "powers"
                    item[singular(options)] = m.name
                    for option in item.get(options, []) or []:
                        if isinstance(option, dict) and option.get("id") != m.name:
                            option["destroyed"] = True
            if printed[section][tid].stats is not None:
                _stats(content, state, tid, item)
            if section == "territories":
                founded = [m for m in marks if m.founds and not m.cancels]
                if founded:  # what the last of them founds, under the content's word for it (`founds.kind`: a city)
                    last = founded[-1]
                    key = _founded_key(str(last.founds), game.sections[section][tid])
                    item[key] = {"name": last.name, "sticker": last.sticker, "by": last.by}
                    if ledger:
                        spans[f"{tid}/{key}"] = Span(ledger, last.line, 1)
    _records(state, sections, spans, ledger)
    for sec in sections.get("rulebook", {}).values():
        for slot in sec.get("slots", []) or []:
            if isinstance(slot, dict) and isinstance(slot.get("id"), str):
                _fill_slot(content, state, slot)
    return Game(game.id, game.meta, game.board, sections, list(game.edges), spans, game.files, game.packs,
                game.fingerprint, game.file_cites)
