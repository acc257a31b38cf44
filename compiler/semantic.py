"""Semantic checks over a merged game: references, the board, counts, stickers, gaps.

Each check is a small function `(ctx) -> iterable of diagnostics`, listed in `CHECKS`;
adding a check is appending one function. A check that crashes becomes one diagnostic
(X999) instead of hiding the others. Checks never mention a particular game.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from scarbook.compiler.load import Loaded, Origin
from scarbook.compiler.model import (
    Game,
    as_dict,
    as_list,
    components,
    is_unknown,
    sealed_slot_envelopes,
    singular,
)
from scarbook.compiler.sources import FILE_NAME, declared, low_confidence_text, source_part, walk_cites
from scarbook.kernel.diagnostics import Diagnostic, Span, did_you_mean, error, warning
from scarbook.kernel.yamlload import Document


@dataclass
class Ctx:
    loaded: Loaded

    @property
    def game(self) -> Game:
        assert self.loaded.game is not None
        return self.loaded.game

    def origin(self, item_id: str) -> Origin:
        return self.loaded.origins[item_id]

    def at(self, item_id: str, suffix: str = "") -> Span:
        return self.origin(item_id).span(suffix)

    def items(self, section: str) -> Iterator[tuple[str, dict[str, Any]]]:
        yield from self.game.section(section).items()


def _ref(ctx: Ctx, owner: str, suffix: str, value: Any, section: str, noun: str) -> Iterator[Diagnostic]:
    pool = ctx.game.section(section)
    if isinstance(value, str) and value not in pool:
        yield error(ctx.at(owner, suffix), "X102", f"no {noun} '{value}'{did_you_mean(value, pool)}; "
                    f"define it under '{section}:' or fix the id")


def check_references(ctx: Ctx) -> Iterator[Diagnostic]:
    """Every id an item names resolves to an item of the right section."""
    for tid, terr in ctx.items("territories"):
        for i, r in enumerate(as_list(terr.get("regions"))):
            yield from _ref(ctx, tid, f"/regions/{i}", r, "regions", "region")
        for i, n in enumerate(as_list(terr.get("neighbors"))):
            yield from _ref(ctx, tid, f"/neighbors/{i}", n, "territories", "territory")
    for cid, card in ctx.items("cards"):
        yield from _ref(ctx, cid, "/deck", card.get("deck"), "decks", "deck")
        yield from _ref(ctx, cid, "/territory", card.get("territory"), "territories", "territory")
        if "zone" in card:
            yield from _ref(ctx, cid, "/zone", card.get("zone"), "regions", "zone")
        for i, sid in enumerate(as_list(card.get("stickers"))):
            yield from _ref(ctx, cid, f"/stickers/{i}", sid, "stickers", "sticker")
    kinds = {s.get("kind") for _, s in ctx.items("stickers")} | set(ctx.game.section("stickers"))
    for sid, st in ctx.items("stickers"):
        if "deck" in st:
            yield from _ref(ctx, sid, "/deck", st["deck"], "decks", "deck")
        for i, c in enumerate(as_list(st.get("covers"))):
            if c not in kinds:
                yield error(ctx.at(sid, f"/covers/{i}"), "X102", f"'{c}' is neither a sticker nor a sticker kind"
                            f"{did_you_mean(c, [k for k in kinds if k])}")
    for rid, rew in ctx.items("rewards"):
        for i, s in enumerate(as_list(rew.get("place"))):
            yield from _ref(ctx, rid, f"/place/{i}", s, "stickers", "sticker")
        if isinstance(rew.get("destroy"), dict):
            yield from _ref(ctx, rid, "/destroy/deck", rew["destroy"].get("deck"), "decks", "deck")
    all_ids = set(ctx.game.all_ids())
    for eid, env in ctx.items("envelopes"):
        contents = env.get("contents")
        if isinstance(contents, list):
            for i, c in enumerate(contents):
                if c not in all_ids:
                    yield error(ctx.at(eid, f"/contents/{i}"), "X102", f"envelope content '{c}' is not defined"
                                f"{did_you_mean(c, all_ids)}; list the item in the game (it stays hidden "
                                "until the envelope is opened)")
        when = (as_dict(env.get("trigger"))).get("when")
        if isinstance(when, dict):
            for key, section in (("placed", "stickers"), ("about_to_place", "stickers"), ("opened", "envelopes")):
                if key in when:
                    yield from _ref(ctx, eid, f"/trigger/when/{key}", when[key], section, singular(section))
    for gid, game in ctx.items("schedule"):
        for i, e in enumerate(as_list(game.get("opens"))):
            yield from _ref(ctx, gid, f"/opens/{i}", e, "envelopes", "envelope")


def _game_doc(ctx: Ctx) -> Document | None:
    return next((d for d in ctx.loaded.docs if isinstance(d.data, dict) and isinstance(d.data.get("game"), dict)),
                None)


def check_campaign_references(ctx: Ctx) -> Iterator[Diagnostic]:
    """The ids the campaign model names (`game.campaign`: steps, setup, claims, obligations, the tie bonus, starts;
    a schedule entry's type, draft and places; a limit's track) resolve: the tracker would otherwise offer, owe or
    count a sticker that does not exist, and say nothing."""
    doc = _game_doc(ctx)
    stickers = ctx.game.section("stickers")
    merged = as_dict(ctx.game.meta.get("campaign"))  # what the ids may name: the game's, with its packs' steps
    piece_ids = {str(as_dict(p).get("id")) for p in as_list(merged.get("pieces")) if as_dict(p).get("id")}
    type_ids = {str(as_dict(t).get("id")) for t in as_list(merged.get("game_types")) if as_dict(t).get("id")}
    tracks = {str(as_dict(t).get("id")) for t in as_list(merged.get("tracks")) if as_dict(t).get("id")}
    offered = {**stickers, **ctx.game.section("rewards")}
    # what is checked: the campaign block as its file says it (a pack's step is checked at its own line below)
    campaign = as_dict(as_dict(doc.data.get("game")).get("campaign")) if doc is not None else {}

    def missing(pointer: str, value: Any, pool: Any, noun: str, where: str,
                at: Document | None = doc) -> Iterator[Diagnostic]:
        if at is not None and isinstance(value, str) and value not in pool:
            yield error(at.span(pointer), "X102", f"no {noun} '{value}'{did_you_mean(value, pool)}; "
                        f"define it under '{where}:' or fix the id", pointer)

    def step_refs(at: Document | None, pointer: str, step: dict[str, Any]) -> Iterator[Diagnostic]:
        for key in ("choose", "fallback"):
            for k, sid in enumerate(as_list(step.get(key))):
                yield from missing(f"{pointer}/{key}/{k}", sid, offered, "sticker or reward", "stickers", at)
        yield from missing(f"{pointer}/piece", step.get("piece"), piece_ids, "piece kind", "game: campaign: pieces",
                           at)

    base = "/game/campaign"
    for i, p in enumerate(as_dict(p) for p in as_list(campaign.get("pieces"))):
        yield from missing(f"{base}/pieces/{i}/claim", p.get("claim"), stickers, "sticker", "stickers")
        yield from missing(f"{base}/pieces/{i}/deck", p.get("deck"), ctx.game.section("decks"), "deck", "decks")
    for i, t in enumerate(as_dict(t) for t in as_list(campaign.get("game_types"))):
        for j, kind in enumerate(as_list(t.get("plays"))):
            yield from missing(f"{base}/game_types/{i}/plays/{j}", kind, piece_ids, "piece kind",
                               "game: campaign: pieces")
        for j, step in enumerate(as_dict(s) for s in as_list(t.get("steps"))):
            yield from step_refs(doc, f"{base}/game_types/{i}/steps/{j}", step)
    for pack_doc in ctx.loaded.docs:  # a pack's `steps` (added or patched), at the pack's own line
        if isinstance(pack_doc.data, dict) and "game" not in pack_doc.data:
            for i, step in enumerate(as_list(pack_doc.data.get("steps"))):
                if isinstance(step, dict):
                    yield from step_refs(pack_doc, f"/steps/{i}", step)
    yield from missing(f"{base}/default_type", campaign.get("default_type"), type_ids, "game type",
                       "game: campaign: game_types")
    for i, entry in enumerate(as_dict(e) for e in as_list(campaign.get("setup"))):
        yield from missing(f"{base}/setup/{i}/place", entry.get("place"), stickers, "sticker", "stickers")
    for i, entry in enumerate(as_dict(e) for e in as_list(campaign.get("owed_when"))):
        yield from missing(f"{base}/owed_when/{i}/place", entry.get("place"), stickers, "sticker", "stickers")
    for i, start in enumerate(as_dict(c) for c in as_list(campaign.get("starts"))):
        for j, sid in enumerate(as_list(start.get("unless_own"))):
            yield from missing(f"{base}/starts/{i}/unless_own/{j}", sid, stickers, "sticker", "stickers")
    for gid, entry in ctx.items("schedule"):
        if type_ids and isinstance(entry.get("type"), str) and entry["type"] not in type_ids:
            yield error(ctx.at(gid, "/type"), "X102", f"no game type '{entry['type']}'"
                        f"{did_you_mean(entry['type'], type_ids)}; define it under 'game: campaign: game_types:' "
                        "or fix the id")
        for i, sid in enumerate(as_list(as_dict(entry.get("draft")).get("of"))):
            yield from _ref(ctx, gid, f"/draft/of/{i}", sid, "stickers", "sticker")
        for i, sid in enumerate(as_list(entry.get("places"))):
            yield from _ref(ctx, gid, f"/places/{i}", sid, "stickers", "sticker")
    for sid, st in ctx.items("stickers"):
        for i, chk in enumerate(as_list(st.get("checks"))):
            track = as_dict(as_dict(chk).get("max")).get("track")
            if isinstance(track, str) and track not in tracks:
                yield error(ctx.at(sid, f"/checks/{i}/max/track"), "X102", f"no track '{track}'"
                            f"{did_you_mean(track, tracks)}; define it under 'game: campaign: tracks:' or fix the id")


def check_conditions(ctx: Ctx) -> Iterator[Diagnostic]:
    """The campaign language's conditions and queries name things that exist, compare like with like, and can
    hold (compiler/conditions.py)."""
    from scarbook.compiler.conditions import content_conditions

    yield from content_conditions(ctx.loaded.docs, ctx.game)


def check_sealed_once(ctx: Ctx) -> Iterator[Diagnostic]:
    seen: dict[str, str] = {}
    for eid, env in ctx.items("envelopes"):
        contents = env.get("contents")
        for i, c in enumerate(contents if isinstance(contents, list) else []):
            if c in seen and seen[c] != eid:
                yield warning(ctx.at(eid, f"/contents/{i}"), "X110", f"'{c}' is sealed in two envelopes "
                              f"('{seen[c]}' and '{eid}'); it appears when either is opened")
            seen.setdefault(c, eid)


def _settings_span(ctx: Ctx, key: str, pointer: str) -> Span:
    for doc in ctx.loaded.docs:
        if isinstance(doc.data, dict) and key in doc.data:
            return doc.span(pointer)
    return Span(ctx.game.files[0] if ctx.game.files else ctx.game.id)


def check_sealed_names(ctx: Ctx) -> Iterator[Diagnostic]:
    """Free text players read before a packet opens (not inside a packet, not a later game's section) that names
    what the packet holds: every output withholds that sentence, so the author should move it (X111)."""
    from scarbook.compiler.spoilers import free_text_mentions, sealed

    seal = sealed(ctx.game, (), reached=10**6)
    for iid, pointer, name in free_text_mentions(ctx.game):
        key = pointer.split("/")[1]
        span = ctx.at(iid, pointer) if iid is not None else _settings_span(ctx, key, pointer)
        where = f"{singular(ctx.origin(iid).pointer.split('/')[1])} '{iid}'" if iid is not None else key
        yield warning(span, "X111", f"the free text of {where} names '{seal.shown[name]}', which "
                      f"{seal.names[name]} holds until it is opened: every output withholds that sentence; move "
                      "it into the packet's own notes, or word it without the name", pointer)


def check_edges(ctx: Ctx) -> Iterator[Diagnostic]:
    """Edges join two known territories, once, never a territory to itself."""
    territories = ctx.game.section("territories")
    seen: dict[frozenset[str], Origin] = {}
    for (a, b, _kind), origin in zip(ctx.game.edges, ctx.loaded.edge_origins, strict=True):
        for i, end in enumerate((a, b)):
            if end not in territories:
                yield error(origin.span(f"/{i}"), "X102", f"edge '{a}' -> '{b}': no territory '{end}'"
                            f"{did_you_mean(end, territories)}")
        if a == b:
            yield error(origin.span(), "X201", f"edge '{a}' -> '{b}' joins a territory to itself; remove it")
            continue
        key = frozenset((a, b))
        if key in seen:
            first = seen[key].span()
            yield error(origin.span(), "X202", f"edge '{a}' - '{b}' is listed twice (first at {first}); "
                        "edges are undirected: list each once")
        else:
            seen[key] = origin


def check_neighbor_symmetry(ctx: Ctx) -> Iterator[Diagnostic]:
    """A `neighbors` listing must be mutual (or backed by an edge)."""
    edge_pairs = {frozenset((a, b)) for a, b, _ in ctx.game.edges}
    listed = {(tid, n) for tid, t in ctx.items("territories") for n in as_list(t.get("neighbors"))}
    for tid, terr in ctx.items("territories"):
        for i, n in enumerate(as_list(terr.get("neighbors"))):
            if n == tid:
                yield error(ctx.at(tid, f"/neighbors/{i}"), "X201", f"'{tid}' lists itself as a neighbor; remove it")
            elif (n, tid) not in listed and frozenset((tid, n)) not in edge_pairs and \
                    n in ctx.game.section("territories"):
                yield error(ctx.at(tid, f"/neighbors/{i}"), "X203", f"'{tid}' lists '{n}' as a neighbor but "
                            f"'{n}' does not list '{tid}'; adjacency is mutual: add '{tid}' to the neighbors "
                            f"of '{n}' or remove this one")


def _board_complete(game: Game) -> bool:
    return not is_unknown(game.board.get("complete"))


def check_connected(ctx: Ctx) -> Iterator[Diagnostic]:
    game = ctx.game.effective()  # the board before any envelope is opened; sealed places join later
    territories = list(game.section("territories"))
    if len(territories) < 2 or not _board_complete(game):
        return
    parts = components(game.neighbors())
    if len(parts) > 1:
        main = max(parts, key=len)  # the first of the largest parts
        for part in parts:
            if part is main:
                continue
            names = ", ".join(part[:6]) + (" …" if len(part) > 6 else "")
            yield error(ctx.at(part[0]), "X204", f"the board is not connected: {names} cannot be reached from "
                        f"'{main[0]}'; add an edge joining them")


def check_regions(ctx: Ctx) -> Iterator[Diagnostic]:
    """Every territory is in a region (when the board has regions); region counts match."""
    game = ctx.game.effective()  # declared counts describe the game as it starts, before envelopes
    if game.section("regions"):
        for tid, terr in ctx.items("territories"):
            if terr.get("regions") is None:  # `regions: []` says it is in no region on purpose
                yield error(ctx.at(tid), "X205", f"territory '{tid}' is in no region; add 'regions: [...]' "
                            "('regions: []' when it is in none)")
    members = game.region_members()
    for rid, region in ctx.items("regions"):
        declared = region.get("territory_count")
        if isinstance(declared, int) and declared != len(members.get(rid, [])):
            n = len(members.get(rid, []))
            yield warning(ctx.at(rid, "/territory_count"), "X301", f"region '{rid}' declares "
                          f"{_count(declared, 'territory', 'territories')} but {_listed(n)}{_missing(declared - n)}")
    listed = {"territory_count": len(game.section("territories")), "region_count": len(game.section("regions"))}
    for key, count in listed.items():
        declared = game.board.get(key)
        if isinstance(declared, int) and declared != count:
            noun = ("territory", "territories") if key == "territory_count" else ("region", "regions")
            yield warning(_board_span(ctx, f"/board/{key}"), "X301", f"the board declares "
                          f"{_count(declared, *noun)} but {_listed(count)}{_missing(declared - count)}")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _listed(n: int) -> str:
    return f"{n} {'is' if n == 1 else 'are'} listed"


def _missing(n: int) -> str:
    return f" ({n} missing: the sources do not give them)" if n > 0 else f" ({-n} more than declared)"


def _board_span(ctx: Ctx, pointer: str) -> Span:
    for doc in ctx.loaded.docs:
        if isinstance(doc.data, dict) and "board" in doc.data:
            return doc.span(pointer)
    return Span(ctx.game.files[0] if ctx.game.files else ctx.game.id)


def check_deck_counts(ctx: Ctx) -> Iterator[Diagnostic]:
    """Declared component counts equal what is listed; say what is listed where they do not."""
    listed: Counter[str] = Counter()
    by_group: dict[str, Counter[str]] = defaultdict(Counter)
    for _cid, card in ctx.game.effective().section("cards").items():  # counted as the game starts
        deck = card.get("deck")
        if isinstance(deck, str):
            copies = card.get("copies", 1)
            listed[deck] += copies if isinstance(copies, int) else 1
            group = card.get("zone") or card.get("type")
            if isinstance(group, str):
                by_group[deck][group] += copies if isinstance(copies, int) else 1
    for did, deck in ctx.items("decks"):
        yield from _sealed_count(ctx, did, deck)
        declared = deck.get("count")
        if not isinstance(declared, int) or declared == listed[did]:
            continue
        parts = ", ".join(f"{g} {n}" for g, n in sorted(by_group[did].items()))
        detail = f"; listed by group: {parts}" if len(by_group[did]) > 1 else ""
        gap = declared - listed[did]
        what, fix = ((f"{gap} missing", "add the missing cards when a source gives them") if gap > 0 else
                     (f"{-gap} more than declared", "correct 'count' or remove the extra cards"))
        yield warning(ctx.at(did, "/count"), "X302", f"deck '{did}' declares {declared} cards but lists "
                      f"{listed[did]} ({what}){detail}; {fix}")


def _sealed_count(ctx: Ctx, did: str, deck: dict[str, Any]) -> Iterator[Diagnostic]:
    """A deck's `sealed_count` names envelopes, each holding that many cards of the deck."""
    envelopes, cards = ctx.game.section("envelopes"), ctx.game.section("cards")
    for eid, n in as_dict(deck.get("sealed_count")).items():
        if eid not in envelopes:
            yield from _ref(ctx, did, f"/sealed_count/{eid}", eid, "envelopes", "envelope")
            continue
        inside = sum(int(cards[c].get("copies", 1)) for c in as_list(envelopes[eid].get("contents"))
                     if c in cards and cards[c].get("deck") == did)
        if isinstance(n, int) and inside != n:
            yield warning(ctx.at(did, f"/sealed_count/{eid}"), "X302", f"deck '{did}' says envelope '{eid}' adds "
                          f"{n} cards but it holds {inside} cards of the deck")


def check_stickers(ctx: Ctx) -> Iterator[Diagnostic]:
    """Slots a sticker takes exist somewhere; supplies are consistent; checks name things that exist."""
    game = ctx.game
    slot_kinds = set(as_dict(game.board.get("default_slots")))
    for section in ("territories", "factions"):
        for iid, item in ctx.items(section):
            slot_kinds.update(as_dict(item.get("slots")))
            slot_kinds.update(as_dict(item.get("sealed_slots")))
            for sealed, env in sealed_slot_envelopes(item).items():
                yield from _ref(ctx, iid, f"/sealed_slots/{sealed}/envelope", env, "envelopes", "envelope")
    kinds = {s.get("kind") for _, s in ctx.items("stickers")} | set(game.section("stickers"))
    kinds |= {t for _, s in ctx.items("stickers") for t in as_list(s.get("tags"))}
    founds = {as_dict(s.get("founds")).get("kind") for _, s in ctx.items("stickers")}
    for sid, st in ctx.items("stickers"):
        slot = st.get("slot")
        targets = set(as_list(st.get("targets")))
        if slot and targets & {"territory", "faction-card"} and slot_kinds and slot not in slot_kinds:
            yield error(ctx.at(sid, "/slot"), "X401", f"sticker '{sid}' takes slot '{slot}' but no territory or "
                        f"faction card offers it{did_you_mean(slot, slot_kinds)}; known slots: "
                        f"{', '.join(sorted(slot_kinds))}")
        if "rulebook-slot" in targets and not any(sec.get("slots") for _, sec in ctx.items("rulebook")):
            yield error(ctx.at(sid, "/targets"), "X402", f"sticker '{sid}' goes on a rulebook slot but no "
                        "rulebook section has slots; add 'slots:' to a 'rulebook:' section")
        supply = st.get("supply")
        if isinstance(supply, list):
            first: dict[Any, int] = {}
            for i, entry in enumerate(supply):
                pool = entry.get("pool") if isinstance(entry, dict) else None
                if pool in first:  # at the repeated entry, not the first one
                    yield error(ctx.at(sid, f"/supply/{i}"), "X403", f"pool '{pool}' of '{sid}' is listed twice "
                                f"(first at entry {first[pool] + 1}); add the counts into one entry")
                elif pool is not None:
                    first[pool] = i
        for i, chk in enumerate(as_list(st.get("checks"))):
            if not isinstance(chk, dict) or not isinstance(chk.get("check"), str):
                continue
            # the parameters' names and types are the schema's (X404 in compiler/schema.py); their ids are ours
            params = {k: v for k, v in chk.items() if k not in ("check", "cite")}
            for j, ref in enumerate(as_list(params.get("of"))):  # a limit counts stickers, kinds or a card group
                if isinstance(ref, dict):
                    yield from _ref(ctx, sid, f"/checks/{i}/of/{j}/deck", ref.get("deck"), "decks", "deck")
                elif isinstance(ref, str) and ref not in kinds and ref not in founds:
                    yield from _ref(ctx, sid, f"/checks/{i}/of/{j}", ref, "stickers", "sticker or kind")
            for j, ref in enumerate(as_list(params.get("decks"))):
                yield from _ref(ctx, sid, f"/checks/{i}/decks/{j}", ref, "decks", "deck")
            if isinstance(params.get("envelope"), str):
                yield from _ref(ctx, sid, f"/checks/{i}/envelope", params["envelope"], "envelopes", "envelope")
            if chk["check"] == "in-order":
                yield from _in_order_problems(ctx, sid, i, params)
            if isinstance(params.get("pool"), str) and isinstance(supply, list):
                pool_ids = [str(p.get("pool")) for p in supply if isinstance(p, dict)]
                if params["pool"] not in pool_ids:
                    yield error(ctx.at(sid, f"/checks/{i}/pool"), "X405", f"'{sid}' has no supply pool "
                                f"'{params['pool']}'{did_you_mean(params['pool'], pool_ids)}; its pools: "
                                f"{', '.join(pool_ids) or 'none'}")


def _in_order_problems(ctx: Ctx, sid: str, i: int, params: dict[str, Any]) -> Iterator[Diagnostic]:
    """An `in-order` check's row of boxes: ids that are places, or a tag some place carries (X102)."""
    places = {pid: item for sec in ("territories", "regions", "cards") for pid, item in ctx.game.section(sec).items()}
    for j, ref in enumerate(as_list(params.get("ids"))):
        if isinstance(ref, str) and ref not in places:
            yield error(ctx.at(sid, f"/checks/{i}/ids/{j}"), "X102", f"no territory, region or card '{ref}'"
                        f"{did_you_mean(ref, places)}; the boxes of an in-order row are places of the game")
    tag = params.get("tag")
    if isinstance(tag, str) and not any(tag in as_list(item.get("tags")) for item in places.values()):
        yield error(ctx.at(sid, f"/checks/{i}/tag"), "X102", f"no territory, region or card carries the tag '{tag}': "
                    "the in-order row would have no box; tag its places or fix the tag")


def check_table_rows(ctx: Ctx) -> Iterator[Diagnostic]:
    """Every row of a declared table has one cell per column (a comma in an unquoted `[a, b]` splits a cell)."""
    for tid, table in ctx.items("tables"):
        width = len(as_list(table.get("columns")))
        for i, row in enumerate(as_list(table.get("rows"))):
            if isinstance(row, list) and width and len(row) != width:
                hint = ("; in a flow list [a, b] every comma starts a new cell: quote a text that holds a comma"
                        if len(row) > width else "")
                yield error(ctx.at(tid, f"/rows/{i}"), "X303", f"row {i + 1} of table '{tid}' has {len(row)} "
                            f"cells but the table has {width} columns{hint}")


def check_game_meta(ctx: Ctx) -> Iterator[Diagnostic]:
    meta = ctx.game.meta
    players = meta.get("players")
    if isinstance(players, dict) and isinstance(players.get("min"), int) and isinstance(players.get("max"), int) \
            and players["min"] > players["max"]:
        for doc in ctx.loaded.docs:
            if isinstance(doc.data, dict) and "game" in doc.data:
                yield error(doc.span("/game/players"), "X104", f"players: min ({players['min']}) is larger than "
                            f"max ({players['max']}); swap them")
    first: dict[Any, str] = {}
    for sid, sched in ctx.items("schedule"):
        number = sched.get("game")
        if number in first:
            yield error(ctx.at(sid, "/game"), "X105", f"game {number} is scheduled twice (also by "
                        f"'{first[number]}'); give each schedule entry its own game number")
        else:
            first[number] = sid
        length = (as_dict(meta.get("campaign"))).get("games")
        if isinstance(length, int) and isinstance(number, int) and number > length:
            yield error(ctx.at(sid, "/game"), "X106", f"game {number} is past the campaign's {length} games; "
                        "raise 'games' under 'game: campaign:' or remove this entry")


def _walk_unknowns(value: Any, pointer: str) -> Iterator[tuple[str, str]]:
    if is_unknown(value):
        yield pointer, str(value["unknown"])
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _walk_unknowns(v, f"{pointer}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_unknowns(v, f"{pointer}/{i}")


def _walk_inferred(value: Any, pointer: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        inf = value.get("inferred")
        if isinstance(inf, dict) and isinstance(inf.get("evidence"), str):
            yield f"{pointer}/inferred", inf["evidence"]
        for k, v in value.items():
            if k != "inferred":
                yield from _walk_inferred(v, f"{pointer}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_inferred(v, f"{pointer}/{i}")


def _walk_key(value: Any, pointer: str, key: str) -> Iterator[tuple[str, str]]:
    """Each string listed under `key` anywhere in the document."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key and isinstance(v, list):
                yield from ((f"{pointer}/{k}/{i}", str(t)) for i, t in enumerate(v))
            else:
                yield from _walk_key(v, f"{pointer}/{k}", key)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_key(v, f"{pointer}/{i}", key)


def _walk_low_confidence(value: Any, pointer: str, meta: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Each `source` that says `confidence: L` (one unofficial source): its pointer and what rests on it."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "source" and isinstance(v, dict) and v.get("confidence") == "L":
                yield f"{pointer}/{k}", low_confidence_text(v, meta)
            yield from _walk_low_confidence(v, f"{pointer}/{k}", meta)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_low_confidence(v, f"{pointer}/{i}", meta)


def check_citations(ctx: Ctx) -> Iterator[Diagnostic]:
    """A cite names a declared source (`sources:` of the game or a pack) by its id, then a section: never a file.
    Content that declares no sources (a quick homebrew game, a house-rule pack) may cite in free words."""
    sources = declared(ctx.game.meta)
    ids = ", ".join(sources) or "none yet"
    for doc in ctx.loaded.docs:
        strict = doc.file in ctx.loaded.cites_declared
        for pointer, cite in walk_cites(doc.data):
            head = source_part(cite)
            if head in sources:
                continue
            if FILE_NAME.search(head):
                yield error(doc.span(pointer), "X314", f"this cite names a file ('{head}'), which means nothing at "
                            f"the table: declare the source once under 'sources:' (its title, kind, publisher, year, "
                            f"where the transcription came from) and cite it by id, 'ID § Section' (declared: {ids})",
                            pointer)
            elif strict:
                yield error(doc.span(pointer), "X314", f"'{head}' is not a declared source{did_you_mean(head, sources)}"
                            f"; cite one of {ids} as 'ID § Section', or declare it under 'sources:'", pointer)


def check_gaps(ctx: Ctx) -> Iterator[Diagnostic]:
    """Unknown facts (W: what is missing and why), inferred data and facts resting on one unofficial
    source, grouped per file and reason."""
    for doc in ctx.loaded.docs:
        yield from _gaps_in(doc, ctx.game.meta)


_GAP_KEYS = frozenset({"unknown", "inconsistent", "inferred", "source"})


def _unknown_printed(doc: Document, head: str, found: list[tuple[str, str]]) -> Diagnostic:
    """X310 once per piece: which of its printed values (`stats`) the sources do not give, and which they do
    (a placement that needs an unknown one is recorded as the players say)."""
    item: Any = doc.data
    for part in head.split("/")[1:]:
        item = item[int(part)] if isinstance(item, list) else as_dict(item).get(part)
    item = as_dict(item)
    name = str(item.get("name") or item.get("id") or head)
    stats = as_dict(item.get("stats"))
    unknown = [p.rsplit("/", 1)[1] for p, _ in found]
    known = [k for k, v in stats.items() if k not in unknown and not isinstance(v, dict)]
    reasons = list(dict.fromkeys(r for _, r in found))
    gives = f"; the sources give {', '.join(known)}" if known else "; the sources give none of them"
    return warning(doc.span(found[0][0]), "X310", f"unknown printed values of {name}: {', '.join(unknown)}{gives} "
                   f"({'; '.join(reasons)}); a placement that needs one is recorded as the players say",
                   found[0][0])


def _gap_keys(value: Any) -> set[str]:
    """Which of the keys the gap walks look for appear anywhere in `value` (one plain pass, no pointers):
    a walk whose key is absent would find nothing, and a big pack of plain cards skips all four."""
    found: set[str] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if not _GAP_KEYS.isdisjoint(node):
                found.update(_GAP_KEYS.intersection(node))
            stack.extend(v for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, dict | list))
    return found


def _gaps_in(doc: Document, meta: dict[str, Any]) -> Iterator[Diagnostic]:
    present = _gap_keys(doc.data)
    if not present:
        return
    groups: dict[str, list[str]] = defaultdict(list)
    printed: dict[str, list[tuple[str, str]]] = defaultdict(list)  # a piece -> (its unknown printed value, why)
    for pointer, reason in _walk_unknowns(doc.data, "") if "unknown" in present else ():
        head, stats, rest = pointer.partition("/stats/")
        if stats and rest and "/" not in rest:
            printed[head].append((pointer, reason))
        else:
            groups[reason].append(pointer)
    for head, found in printed.items():
        yield _unknown_printed(doc, head, found)
    for reason, pointers in groups.items():
        field = next((p for p in reversed(pointers[0].split("/")) if p and not p.isdigit()), "value")
        more = f" (and {len(pointers) - 1} more like it in this file)" if len(pointers) > 1 else ""
        yield warning(doc.span(pointers[0]), "X310", f"unknown {field}: {reason}{more}", pointers[0])
    inferred: dict[str, list[str]] = defaultdict(list)
    for pointer, text in _walk_key(doc.data, "", "inconsistent") if "inconsistent" in present else ():
        yield warning(doc.span(pointer), "X312", f"the source is inconsistent here: {text}", pointer)
    for pointer, evidence in _walk_inferred(doc.data, "") if "inferred" in present else ():
        inferred[evidence].append(pointer)
    for evidence, pointers in inferred.items():
        more = f" (and {len(pointers) - 1} more like it in this file)" if len(pointers) > 1 else ""
        yield warning(doc.span(pointers[0], key=True), "X311", f"inferred, not printed in the sources: "
                      f"{evidence}{more}", pointers[0])
    unofficial: dict[str, list[str]] = defaultdict(list)
    for pointer, what in _walk_low_confidence(doc.data, "", meta) if "source" in present else ():
        unofficial[what].append(pointer)
    for what, pointers in unofficial.items():
        more = f" (and {len(pointers) - 1} more like it in this file)" if len(pointers) > 1 else ""
        yield warning(doc.span(f"{pointers[0]}/confidence", key=True), "X313", f"rests on one unofficial source "
                      f"(confidence L): {what}{more}", pointers[0])


CHECKS: list[Callable[[Ctx], Iterable[Diagnostic]]] = [
    check_references, check_campaign_references, check_conditions, check_sealed_once, check_sealed_names, check_edges,
    check_neighbor_symmetry, check_connected,
    check_regions, check_deck_counts, check_table_rows, check_stickers, check_game_meta, check_gaps, check_citations,
]


#: Checks whose verdict needs every file of the game (a count, the board's connectivity, the slots on offer).
NEEDS_EVERY_FILE = {"X111", "X204", "X205", "X301", "X302", "X401", "X402"}


def without_follow_ons(loaded: Loaded, found: list[Diagnostic]) -> list[Diagnostic]:
    """Leave out what follows from a file that could not be read: problems elsewhere that name ids its text
    defines, and errors whose verdict needs every file (counts, connectivity, slots on offer). They go away when
    that file is fixed; each such file gets one note saying how many were left out (Y012)."""
    if not loaded.unreadable:
        return found
    kept, left_out = [], Counter[str]()
    first_unreadable = next(iter(loaded.unreadable))
    for d in found:
        named = set(re.findall(r"'([^']+)'", d.message))
        cause = next((f for f, ids in loaded.unreadable.items() if f != d.span.file and named & ids), None)
        if cause is None and d.code in NEEDS_EVERY_FILE and d.is_error:
            cause = first_unreadable
        if cause is None:
            kept.append(d)
        else:
            left_out[cause] += 1
    for file, n in left_out.items():
        first = next((d.span for d in loaded.diagnostics if d.span.file == file and d.is_error), Span(file, 1, 1))
        kept.append(warning(first, "Y012", f"{n} follow-on {'problem' if n == 1 else 'problems'} in other files "
                            "left out (they name ids this file defines, or need every file to judge); fix this "
                            "file first"))
    return kept


def run_checks(loaded: Loaded) -> list[Diagnostic]:
    if loaded.game is None:
        return []
    ctx = Ctx(loaded)
    out: list[Diagnostic] = []
    for check in CHECKS:
        try:
            out.extend(check(ctx))
        except Exception as exc:  # a crashing check is one more diagnostic, never a traceback
            import traceback  # only for a crash: its import is a millisecond of every cold start

            where = traceback.extract_tb(exc.__traceback__)[-1]
            span = Span(ctx.game.files[0] if ctx.game.files else ctx.game.id)
            out.append(error(span, "X999", f"internal error in {check.__name__}: {type(exc).__name__}: {exc} "
                             f"(at {where.name}:{where.lineno}); please report it"))
    return without_follow_ons(loaded, out)
