"""Rule tables computed from a game's content, as pure data (no rendering, no I/O).

Every table is derived from the content's sections: tables declared in `tables:` (rows, or a
`formula` expanded into bands), regions and their bonuses, stickers and their effects, rewards,
envelopes (names and triggers only, never their contents), the campaign schedule, factions and
their units, decks and their cards, components, and the rules in short. No game's data is typed
here and nothing branches on a game id: a homebrew game gets the same tables.

A cell is a JSON scalar, or `{"unknown": why}` where the content says the value is unknown.
Each table keeps the ids of the items it was computed from (`uses`) so the build can tell which
outputs a change touches, and the cites of its sources (`sources`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from scarbook.compiler.model import (
    INFERRED_MARK,
    LOW_CONFIDENCE_MARK,
    Game,
    Item,
    as_list,
    is_unknown,
    known,
    low_confidence,
)
from scarbook.compiler.sources import low_confidence_text

Cell = Any  # str | int | float | bool | None | {"unknown": str}


@dataclass
class Column:
    id: str
    title: str


@dataclass
class Table:
    """One rule table: what a player reads, plus where it came from."""

    id: str
    title: str
    columns: list[Column]
    rows: list[list[Cell]]
    kind: str = "declared"
    text: str | None = None
    notes: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    uses: list[str] = field(default_factory=list)
    inferred: list[str] = field(default_factory=list)  # evidence, when some of it is inferred
    low_confidence: list[str] = field(default_factory=list)  # what rests on one unofficial source, and which

    @property
    def marks(self) -> str:
        """The footnote marks of the title: † some of it inferred, ‡ some of it from one unofficial source."""
        return (INFERRED_MARK if self.inferred else "") + (LOW_CONFIDENCE_MARK if self.low_confidence else "")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# --- small helpers ---------------------------------------------------------------------------
def _inferred(items: Iterable[Item]) -> list[str]:
    out: list[str] = []
    for item in items:
        for holder in (item, item.get("source") if isinstance(item.get("source"), dict) else None):
            inf = (holder or {}).get("inferred")
            if isinstance(inf, dict) and inf.get("evidence") and inf["evidence"] not in out:
                out.append(str(inf["evidence"]))
    return out


def _low_confidence(items: Iterable[Item], meta: dict[str, Any] | None = None) -> list[str]:
    """What of these items (and of their units) rests on one unofficial source, deduplicated, in order."""
    out: list[str] = []
    for item in items:
        for holder in (item, *as_list(item.get("units"))):
            source = low_confidence(holder)
            if source is not None and low_confidence_text(source, meta) not in out:
                out.append(low_confidence_text(source, meta))
    return out


def board_low_confidence(game: Game) -> list[str]:
    """What of the board (its settings, borders, regions and territories) rests on one unofficial source."""
    return _low_confidence([game.board, *game.section("regions").values(), *game.section("territories").values()],
                           game.meta)


def cell(value: Any) -> Cell:
    """A content value as a table cell (lists joined, objects summarised, unknown kept)."""
    if value is None or is_unknown(value) or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list):
        return ", ".join(str(cell_text(cell(v))) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {cell_text(cell(v))}" for k, v in value.items())
    return str(value)


def cell_text(value: Cell) -> str:
    """A cell as plain text: unknown is '?', nothing is ''."""
    if is_unknown(value):
        return "?"
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def slug(text: str) -> str:
    """Lowercase kebab-case of a label (for table ids and file names)."""
    out = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    return "-".join(p for p in out.split("-") if p) or "table"


def _name(item: Item, fallback: str) -> str:
    return str(known(item.get("name"), None) or known(item.get("title"), None) or fallback)


def _text(value: Any) -> Cell:
    return value if is_unknown(value) else (None if value is None else str(value))


def _table(game: Game, tid: str, title: str, columns: list[tuple[str, str]], rows: list[list[Cell]],
           items: dict[str, Item], kind: str, notes: list[str] | None = None, text: str | None = None,
           extra_uses: Iterable[str] = (), based_on: Iterable[Item] = ()) -> Table:
    """A computed table; drops columns that are empty in every row. `based_on`: further items its
    values are computed from (a region's territory count from the territories), for their provenance."""
    keep = [i for i in range(len(columns)) if i == 0 or any(r[i] not in (None, "") for r in rows)]
    return Table(
        id=tid, title=title, columns=[Column(*columns[i]) for i in keep],
        rows=[[r[i] for i in keep] for r in rows], kind=kind, text=text, notes=list(notes or []),
        sources=game.sources_of(items), uses=list(items) + list(extra_uses),
        inferred=_inferred(items.values()),
        low_confidence=_low_confidence([*items.values(), *based_on], game.meta),
    )


# --- declared tables -------------------------------------------------------------------------
def formula_rows(formula: dict[str, Any], default_top: int) -> tuple[list[list[Cell]], str]:
    """A formula `floor(sum / divide_by)` (at least `minimum`) as bands: ('1–11', 3), ('12–14', 4) …"""
    divide_by = int(formula["divide_by"])
    minimum = formula.get("minimum")
    rounding = math.ceil if formula.get("round") == "up" else math.floor
    low, high = formula.get("range") or [1, default_top]

    def value(n: int) -> int:
        v = rounding(n / divide_by)
        return max(v, minimum) if isinstance(minimum, int) else v

    rows: list[list[Cell]] = []
    start = low
    for n in range(low, high + 1):
        if n == high or value(n + 1) != value(n):
            rows.append([str(start) if start == n else f"{start}–{n}", value(n)])
            start = n + 1
    parts = " + ".join(formula["sum"])
    rule = f"({parts}) ÷ {divide_by}, rounded {'up' if formula.get('round') == 'up' else 'down'}"
    if isinstance(minimum, int):
        rule += f", at least {minimum}"
    if not formula.get("range"):
        rule += f"; shown up to {high}"
    return rows, rule


def board_size(game: Game) -> int:
    """How many territories a computed range reaches: those listed, or the board's declared
    `territory_count` when more (a board the sources give only in part)."""
    declared = game.board.get("territory_count")
    return max(len(game.section("territories")), declared if isinstance(declared, int) else 0)


def declared_tables(game: Game) -> list[Table]:
    out = []
    territories = board_size(game)
    for tid, t in game.section("tables").items():
        notes = [t["notes"]] if t.get("notes") else []
        rows = [list(r) for r in t.get("rows") or []]
        text = t.get("text")
        if isinstance(t.get("formula"), dict):
            rows, rule = formula_rows(t["formula"], territories or 15 * int(t["formula"]["divide_by"]))
            notes.insert(0, f"Computed: {rule}.")
        if not rows and isinstance(text, dict) and is_unknown(text):
            rows = [[{"unknown": text["unknown"]}] + [None] * (len(t["columns"]) - 1)]
        out.append(Table(
            id=tid, title=str(t.get("title", tid)), columns=[Column(c["id"], c["title"]) for c in t["columns"]],
            rows=rows, kind="declared", text=None if is_unknown(text) or text is None else str(text),
            notes=notes, sources=game.sources_of({tid: t}), uses=[tid], inferred=_inferred([t]),
            low_confidence=_low_confidence([t], game.meta),
        ))
    return out


# --- computed tables -------------------------------------------------------------------------
def region_table(game: Game) -> list[Table]:
    regions = game.section("regions")
    if not regions:
        return []
    members = game.region_members()
    rows = []
    complete = not is_unknown(game.board.get("complete"))
    for rid, r in regions.items():
        declared = r.get("territory_count")
        listed = len(members.get(rid, []))
        # a board given only in part: the declared count, never the few territories listed
        count = (listed or declared) if complete else declared
        named_by = r.get("named_by")
        rows.append([_name(r, rid), cell(r.get("kind")), count, cell(r.get("bonus")),
                     f"named by {named_by}" if named_by else None])
    kinds = {r.get("kind") for r in regions.values()}
    word = "Region" if len(kinds) != 1 or None in kinds else str(next(iter(kinds))).capitalize()
    if len(kinds) == 1:
        rows = [[r[0], None, *r[2:]] for r in rows]  # one kind for all: said in the title
    table = _table(game, "board-regions", f"{word} bonuses",
                   [("region", word), ("kind", "Kind"), ("territories", "Territories"), ("bonus", "Bonus"),
                    ("named", "Campaign")], rows, regions, "regions",
                   extra_uses=[t for t in game.section("territories")],
                   based_on=game.section("territories").values())
    # regions with no bonus, count or name given (zones): a table of their names under "bonuses" says nothing
    # of bonuses, and is not printed (issue 34 D16)
    return [table] if len(table.columns) > 1 else []


def territory_feature_table(game: Game) -> list[Table]:
    """Which territories offer which slot (one `board.default_slots` does not give every territory) or carry
    which tag: where a sticker with that slot or a `target-tagged` check may go."""
    territories = game.section("territories")
    default = game.board.get("default_slots") or {}
    features: dict[tuple[str, str], list[str]] = {}
    for tid, terr in territories.items():
        slots = terr.get("slots")
        for slot, room in (slots.items() if isinstance(slots, dict) else []):
            if slot not in default and isinstance(room, int) and room > 0:
                features.setdefault(("slot", str(slot)), []).append(_name(terr, tid))
        for tag in terr.get("tags") or []:
            features.setdefault(("tag", str(tag)), []).append(_name(terr, tid))
    if not features:
        return []
    rows: list[list[Cell]] = [[f"{word} slot" if kind == "slot" else word, kind, ", ".join(names)]
                              for (kind, word), names in sorted(features.items())]
    return [_table(game, "board-slots-and-tags", "Slots and tags: where a sticker may go",
                   [("feature", "Slot or tag"), ("kind", "Kind"), ("territories", "Territories")], rows,
                   territories, "territories")]


def _supply(value: Any) -> Cell:
    if isinstance(value, list):
        parts = [p for p in value if isinstance(p, dict)]
        if any(is_unknown(p.get("count")) for p in parts):
            return {"unknown": "; ".join(p["count"]["unknown"] for p in parts if is_unknown(p.get("count")))}
        total = sum(int(p.get("count", 0)) for p in parts)
        return f"{total} (" + ", ".join(f"{p.get('count')} {str(p.get('pool', '')).replace('-', ' ')}"
                                        for p in parts) + ")"
    return cell(value)


def _targets(sticker: Item) -> str:
    out = []
    for t in sticker.get("targets") or []:
        out.append(str(t if isinstance(t, str) else t.get("kind") or t.get("type") or t).replace("-", " "))
    return ", ".join(out)


def sticker_tables(game: Game) -> list[Table]:
    stickers = game.section("stickers")
    if not stickers:
        return []
    rows = []
    for sid, st in stickers.items():
        effect = st.get("effect") if st.get("effect") is not None else st.get("text")
        kind = st.get("kind")  # in words ('restricted operating zone'), not the content's slug (issue 34 P11)
        rows.append([_name(st, sid), kind.replace("-", " ") if isinstance(kind, str) else cell(kind), _targets(st),
                     _supply(st.get("supply")), _text(effect)])
    return [_table(game, "stickers", "Stickers and marks",
                   [("sticker", "Sticker"), ("kind", "Kind"), ("goes-on", "Goes on"), ("supply", "Supply"),
                    ("effect", "Effect")], rows, stickers, "stickers")]


def reward_tables(game: Game) -> list[Table]:
    rewards = game.section("rewards")
    groups: dict[str, dict[str, Item]] = {}
    for rid, rew in rewards.items():
        groups.setdefault(str(rew.get("for", "everyone")), {})[rid] = rew
    out = []
    for who, items in groups.items():
        rows = [[_name(r, rid), _text(r.get("text")), cell(r.get("game_type"))] for rid, r in items.items()]
        out.append(_table(game, f"rewards-{who}", f"Rewards: {who.replace('-', ' ')}",
                          [("reward", "Reward"), ("effect", "Effect"), ("after", "After games of type")],
                          rows, items, "rewards"))
    return out


def envelope_table(game: Game) -> list[Table]:
    envelopes = game.section("envelopes")
    if not envelopes:
        return []
    rows = []
    for eid, env in envelopes.items():
        trigger = env.get("trigger") or {}
        rows.append([_name(env, eid), _text(trigger.get("text") if isinstance(trigger, dict) else trigger),
                     "at the start" if env.get("opened_at_start") else None])
    # names and triggers only: `contents` is never read here
    return [_table(game, "envelopes", "Sealed envelopes and their triggers",
                   [("envelope", "Envelope"), ("open-when", "Open when"), ("opened", "Opened")],
                   rows, envelopes, "envelopes",
                   notes=["Only names and triggers are listed; contents stay sealed."])]


def schedule_table(game: Game) -> list[Table]:
    schedule = game.section("schedule")
    if not schedule:
        return []
    names = {i: _name(it, i) for s in ("envelopes", "stickers", "cards", "decks") for i, it in game.section(s).items()}
    rows = []
    for _sid, g in sorted(schedule.items(), key=lambda kv: kv[1].get("game", 0)):
        opens = ", ".join(names.get(o, o) for o in g.get("opens") or [])
        rows.append([g.get("game"), cell(g.get("type")), _text(g.get("title")), _text(g.get("objective")),
                     _text(g.get("special")), _text(g.get("at_end")), opens or None])
    return [_table(game, "schedule", "Campaign schedule",
                   [("game", "Game"), ("type", "Type"), ("title", "Title"), ("objective", "Objective"),
                    ("special", "Special rules"), ("at-end", "At the end"), ("opens", "Opens after")],
                   rows, schedule, "schedule")]


def faction_tables(game: Game) -> list[Table]:
    factions = game.section("factions")
    if not factions:
        return []
    rows = []
    power_rows: list[list[Cell]] = []
    for fid, f in factions.items():
        leader = f.get("leader") if isinstance(f.get("leader"), dict) else {}
        units = "; ".join(f"{_name(u, '?')}" + (f" ({cell_text(cell(u.get('value')))})" if u.get("value") is not None
                                               else "") for u in f.get("units") or [] if isinstance(u, dict))
        leader_text = None
        if leader:
            leader_text = _name(leader, "leader")
            if leader.get("text") is not None:
                leader_text += f": {cell_text(_text(leader.get('text')))}"
        rows.append([_name(f, fid), cell(f.get("color")), leader_text, units or None, _text(f.get("text"))])
        choose = f.get("choose_powers")
        for number, p in enumerate(f.get("powers") or [], 1):
            if isinstance(p, dict):  # a power the sources do not name: by its place on the card, not its id (P11)
                power_rows.append([_name(f, fid), _name(p, f"Power {number} (name not in the sources)"),
                                   _text(p.get("text")),
                                   f"choose {choose}" if choose else None])
    out = [_table(game, "factions", "Factions",
                  [("faction", "Faction"), ("color", "Colour"), ("leader", "Leader"), ("units", "Units"),
                   ("text", "Notes")], rows, factions, "factions")]
    if power_rows:
        out.append(_table(game, "faction-powers", "Faction powers",
                          [("faction", "Faction"), ("power", "Power"), ("effect", "Effect"), ("choice", "Choice")],
                          power_rows, factions, "factions"))
    return out


def deck_tables(game: Game) -> list[Table]:
    decks = game.section("decks")
    cards = game.section("cards")
    out = []
    for did, deck in decks.items():
        mine = {cid: c for cid, c in cards.items() if c.get("deck") == did}
        if not mine:
            continue
        stat_keys: list[str] = []
        for c in mine.values():
            for k in (c.get("stats") or {}):
                if k not in stat_keys:
                    stat_keys.append(k)
        rows = []
        for cid, c in mine.items():
            stats = c.get("stats") or {}
            status = "destroyed" if c.get("destroyed") else None
            rows.append([_name(c, cid), cell(c.get("zone")), c.get("copies", 1),
                         cell(c.get("resources")), *[cell(stats.get(k)) for k in stat_keys],
                         _text(c.get("text")), status])
        columns = [("card", "Card"), ("zone", "Zone"), ("copies", "Copies"), ("resources", "Resources"),
                   *[(k, k.replace("_", " ").capitalize()) for k in stat_keys], ("text", "Text"),
                   ("status", "Campaign")]
        listed = sum(int(c.get("copies", 1)) for c in mine.values())
        declared = deck.get("count")
        notes = [deck["notes"]] if deck.get("notes") else []
        if isinstance(declared, int) and declared != listed:
            notes.append(f"{listed} of the {declared} cards the source declares are listed.")
        out.append(_table(game, f"deck-{did}", _name(deck, did), columns, rows, {did: deck, **mine}, "deck",
                          notes=notes))
    return out


def component_table(game: Game) -> list[Table]:
    decks, comps, cards = game.section("decks"), game.section("components"), game.section("cards")
    if not decks and not comps:
        return []
    rows: list[list[Cell]] = []
    for did, d in decks.items():
        listed = sum(int(c.get("copies", 1)) for c in cards.values() if c.get("deck") == did)
        rows.append([_name(d, did), "deck", cell(d.get("count")), listed])
    for cid, c in comps.items():
        rows.append([_name(c, cid), "component", cell(c.get("count")), None])
    return [_table(game, "components", "Components",
                   [("component", "Component"), ("kind", "Kind"), ("count", "Count"), ("listed", "Cards listed")],
                   rows, {**decks, **comps}, "components", extra_uses=list(cards))]


#: The phases of play in the order a player meets them, each with the phrases of a rule topic that belong to
#: it: what the game is for and how it is played, setup, the terms, the turn from its start to its end, what a
#: player looks up during it (cards, marks), the end of the game, variants, then the campaign (issue 34 P17).
PLAY_ORDER: tuple[tuple[str, ...], ...] = (
    ("goal", "winning", "win", "victory"),
    ("mode", "play mode", "game mode"),
    ("setup", "set up", "before", "preparation"),
    ("term", "glossary", "concept"),
    ("start", "start of turn", "start of your turn"),
    ("turn", "recruit", "deploy", "reinforcement"),
    ("combat", "attack", "battle"),
    ("move", "movement", "maneuver", "manoeuvre", "fortify"),
    ("end of turn", "end of your turn"),
    ("card", "mark", "reference", "component"),
    ("end", "end of the game", "end of game", "game end", "scoring"),
    ("variant", "appendix", "optional", "advanced"),
    ("campaign", "legacy"),
)
#: Where a topic with no phrase of play sits: with the turn, in content order.
DEFAULT_PHASE = 5


def _words(text: str) -> tuple[str, ...]:
    """A topic's or phrase's words, lowercase, a plural's s dropped ('cards' is 'card', 'terms' 'term')."""
    return tuple(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                 for w in re.findall(r"[a-z]+", text.lower()))


def topic_phase(topic: str) -> int:
    """The phase of play (`PLAY_ORDER`) of a rule topic: that of the longest phrase of play its words hold, so
    'end of turn' is the turn's end and not the game's, 'start of turn' the turn's start (DEFAULT_PHASE for
    none)."""
    words = _words(topic)
    best: tuple[int, int] | None = None  # (words of the phrase, phase)
    for phase, phrases in enumerate(PLAY_ORDER):
        for phrase in phrases:
            p = _words(phrase)
            if any(words[i:i + len(p)] == p for i in range(len(words) - len(p) + 1)) and \
                    (best is None or len(p) > best[0]):
                best = (len(p), phase)
    return best[1] if best else DEFAULT_PHASE


def in_play_order(topics: Iterable[str]) -> list[str]:
    """Rule topics in the order a player meets them (`topic_phase`), those of one phase in content order: the
    one order of the aid's turn and the digest's rules in short."""
    seen = list(dict.fromkeys(topics))
    return sorted(seen, key=lambda t: (topic_phase(t), seen.index(t)))


def rule_tables_by_topic(game: Game) -> list[Table]:
    rules = game.section("rules")
    groups: dict[str, dict[str, Item]] = {}
    for rid, rule in rules.items():
        groups.setdefault(str(rule.get("topic") or "general"), {})[rid] = rule
    out = []
    for topic in in_play_order(groups):
        items = groups[topic]
        rows = [[_name(r, rid), _text(r.get("text"))] for rid, r in items.items()]
        out.append(_table(game, f"rules-{slug(topic)}", f"Rules in short: {topic.replace('-', ' ')}",
                          [("rule", "Rule"), ("text", "In short")], rows, items, "rules"))
    return out


def rulebook_slot_table(game: Game) -> list[Table]:
    sections = {sid: s for sid, s in game.section("rulebook").items() if s.get("slots")}
    if not sections:
        return []
    rows = []
    for sid, s in sections.items():
        for slot in s["slots"]:
            rows.append([_name(s, sid), slot.get("label"), slot.get("filled"), _text(slot.get("text"))])
    return [_table(game, "rulebook-slots", "Rulebook sticker slots",  # `filled`: only with a campaign applied
                   [("section", "Rulebook section"), ("slot", "Slot"), ("filled", "Filled"), ("text", "Text")], rows,
                   sections, "rulebook")]


#: The computed tables, in the order a reference sheet shows them (declared tables come first).
BUILDERS: tuple[Callable[[Game], list[Table]], ...] = (
    declared_tables, region_table, territory_feature_table, sticker_tables, reward_tables, schedule_table,
    envelope_table, faction_tables, deck_tables, component_table, rulebook_slot_table, rule_tables_by_topic,
)


def rule_tables(game: Game) -> list[Table]:
    """Every rule table of a game (already stripped of sealed content), ids unique."""
    tables: list[Table] = []
    seen: set[str] = set()
    for build in BUILDERS:
        for table in build(game):
            base, n = table.id, 2
            while table.id in seen:
                table.id = f"{base}-{n}"
                n += 1
            seen.add(table.id)
            tables.append(table)
    return tables


def all_unknown(table: Table) -> bool:
    """Whether every cell of a table is unknown or empty (a table the content declares without rows because the
    sources do not give them): printed as one line saying what is unknown, not as a table (issue 34 D16)."""
    cells = [v for row in table.rows for v in row]
    return any(is_unknown(v) for v in cells) and all(is_unknown(v) or v in (None, "") for v in cells)


#: Where an all-unknown table sends the reader: the command that lists every gap of the content.
GAPS_COMMAND = "scarbook validate"
GAPS_HINT = "with --all-gaps for a shipped game"


def unknown_reasons(table: Table) -> list[str]:
    """Why each unknown cell of a table is unknown, each reason once, in order."""
    return list(dict.fromkeys(str(v["unknown"]) for row in table.rows for v in row if is_unknown(v)))


def unknown_line(table: Table) -> str:
    """What an all-unknown table prints instead of its rows: in one line, what is unknown and where the content's
    gaps are listed."""
    return f"Unknown: {'; '.join(unknown_reasons(table))}. `{GAPS_COMMAND}` lists it ({GAPS_HINT})."


def _number(text: str) -> bool:
    """A value that is a number or a list of numbers ('3', '1, 1, 2, 3, 4')."""
    return bool(re.fullmatch(r"[\d.,–+\- ]+", text.strip()))


def _row_texts(row: list[Cell]) -> list[str]:
    return [cell_text(v) for v in row if not is_unknown(v) and v not in (None, "")]


def _card_rows(table: Table, decks: list[Table]) -> list[str] | None:
    """The deck tables that hold every row of a declared list of cards (a help sheet's), in order: each row's
    name is a card's and its text (its last cell of words; an unknown one matches by the name alone) is that
    card's text. None when a row is not a card, or holds no text to match."""
    owners: list[str] = []
    matched = 0
    for row in table.rows:
        if not row or is_unknown(row[0]) or row[0] in (None, ""):
            return None
        name = cell_text(row[0])
        words = [v for v in row[1:] if is_unknown(v) or (isinstance(v, str) and len(v.split()) >= 2 and not _number(v))]
        if not words:
            return None
        text = None if is_unknown(words[-1]) else cell_text(words[-1])
        found = next((d.id for d in decks for r in d.rows if r and cell_text(r[0]) == name
                      and (text is None or text in _row_texts(r))), None)
        if found is None:
            return None
        matched += text is not None
        if found not in owners:
            owners.append(found)
    return owners if matched else None


def covered_by(tables: list[Table]) -> dict[str, list[str]]:
    """Table id -> the ids of the tables that print the same list in full (issue 34 D16): a list is printed once
    and the copy points to where it is. A table is a copy when
    - every row of it (matched by its first cell) has each of its values in the other's row, and both list the
      same items (the rulebook's list of the plot cards and the deck of those cards); of two tables that hold
      each other, the later one is the copy;
    - it holds words only (no number: major and minor objectives side by side), each a value of the other;
    - it is a declared list of cards (a help sheet's, by zone) whose every row is a card of the deck tables,
      with the card's text: the decks, which give each copy, own it."""
    keyed: dict[str, dict[str, list[str]]] = {}
    texts: dict[str, set[str]] = {}  # every value of a table
    for t in tables:
        rows = {cell_text(r[0]): _row_texts(r) for r in t.rows if r and not is_unknown(r[0]) and r[0] not in (None, "")}
        if len(rows) == len(t.rows) >= 2:  # a list of named rows, each name once
            keyed[t.id] = rows
        texts[t.id] = {x for r in t.rows for x in _row_texts(r)}
    # a list laid out in columns of words (major and minor objectives side by side): no value a number
    prose = {t.id for t in tables if len(texts[t.id]) >= 4 and not any(_number(x) for x in texts[t.id])}

    def holds(big: str, small: str) -> bool:
        if small in prose and big in texts:
            return texts[small] <= texts[big]
        if big not in keyed or small not in keyed:
            return False
        a, b = keyed[big], keyed[small]
        return a.keys() == b.keys() and all(set(b[k]) <= set(a[k]) for k in b)

    order = [t.id for t in tables]
    out: dict[str, list[str]] = {}
    for small in [t.id for t in tables if t.id in keyed or t.id in prose]:
        for big in order:
            if big == small or big in out or not holds(big, small):
                continue
            if holds(small, big) and order.index(small) < order.index(big):
                continue  # the same rows: the earlier one is printed
            out[small] = [big]
            break
    decks = [t for t in tables if t.kind == "deck"]
    for t in tables:
        if t.kind == "declared" and t.id not in out and t.rows:
            owners = _card_rows(t, decks)
            if owners:
                out[t.id] = owners
    return out


def copied_from(tables: list[Table]) -> dict[str, list[tuple[str, str, str]]]:
    """Table id -> (the title and id of each table that prints the same list in full, 'above' or 'below' it)."""
    order = {t.id: i for i, t in enumerate(tables)}
    titles = {t.id: t.title for t in tables}
    return {copy: [(titles[f], f, "above" if order[f] < order[copy] else "below") for f in full]
            for copy, full in covered_by(tables).items()}


def where_listed(owners: list[tuple[str, str, str]], quote: Callable[[str, str], str] = lambda t, _i: f"“{t}”") -> str:
    """'“Plot cards” below', '“Agent cards” and “Mission cards” below': where a list is printed in full."""
    parts = []
    for place in ("above", "below"):
        here = [quote(t, i) for t, i, w in owners if w == place]
        if here:
            parts.append(f"{', '.join(here[:-1])} and {here[-1]}" if len(here) > 1 else here[0])
            parts[-1] += f" {place}"
    return " and ".join(parts)


# --- plain-text formats ----------------------------------------------------------------------
#: How every output introduces what rests on one unofficial source (after the ‡ mark).
LOW_CONFIDENCE_NOTE = "from one unofficial source (low confidence)"


def unknown_notes(table: Table) -> list[str]:
    """'? — why' lines for the unknown cells of a table, deduplicated, in order."""
    out: list[str] = []
    for row in table.rows:
        for value in row:
            if is_unknown(value):
                line = f"? unknown: {value['unknown']}"
                if line not in out:
                    out.append(line)
    return out


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(table: Table, level: int = 2, same_as: list[tuple[str, str, str]] | None = None) -> str:
    """A table as Markdown; one whose cells are all unknown as the line saying so (`unknown_line`), one other
    tables print in full (`same_as`: `copied_from`) as a line pointing to them."""
    lines = [f"{'#' * level} {table.title}{' ' + table.marks if table.marks else ''}", ""]
    if table.text:
        lines += [table.text, ""]
    blank = all_unknown(table)
    if same_as:
        lines.append(f"Listed in full in {where_listed(same_as)}.")
    elif blank:
        lines.append(unknown_line(table))
    else:
        lines.append("| " + " | ".join(_md_escape(c.title) for c in table.columns) + " |")
        lines.append("|" + "|".join("---" for _ in table.columns) + "|")
        for row in table.rows:
            lines.append("| " + " | ".join(_md_escape(cell_text(v)) for v in row) + " |")
    extra = table.notes + ([] if blank or same_as else unknown_notes(table)) + \
        [f"{INFERRED_MARK} Inferred: {e}" for e in table.inferred] + \
        [f"{LOW_CONFIDENCE_MARK} {LOW_CONFIDENCE_NOTE}: {e}" for e in table.low_confidence]
    if extra or table.sources:
        lines.append("")
    lines += [f"- {n}" for n in extra]
    if table.sources:
        lines.append(f"- Source: {'; '.join(table.sources)}")
    return "\n".join(lines) + "\n"


def to_csv(table: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([c.title for c in table.columns])
    for row in table.rows:
        writer.writerow([cell_text(v) for v in row])
    return buf.getvalue()


def to_json(table: Table) -> str:
    return json.dumps(table.to_json(), indent=2, ensure_ascii=False) + "\n"


def document_markdown(game: Game, tables: list[Table]) -> str:
    head = f"# {game.title}: rule tables\n\nComputed from the content of `{game.id}`; '?' marks what the sources " \
           "do not say.\n\n"
    copies = copied_from(tables)
    return head + "\n".join(to_markdown(t, same_as=copies.get(t.id)) for t in tables)


def document_csv(tables: list[Table]) -> str:
    """All tables as CSV blocks, each preceded by a `# title (id)` line and separated by a blank line."""
    return "\n".join(f"# {t.title}{' ' + t.marks if t.marks else ''} ({t.id})\n{to_csv(t)}" for t in tables)


def document_json(game: Game, tables: list[Table]) -> str:
    return json.dumps({"game": game.id, "title": game.title, "tables": [t.to_json() for t in tables]},
                      indent=2, ensure_ascii=False) + "\n"
