"""Semantic checks of the campaign language in content: the ids a query or condition names exist, a comparison
compares like with like, and a condition can hold (docs/campaign-shapes.md, campaign/lang.py).

The schema (`conditions.schema.json`) has already checked the forms at their line; this walks every place a
condition or query stands (a sticker's `when` check, a packet's trigger, `game.campaign`: conditions, levels,
scenarios, end, outcome, owed_when, steps) and reports each mistake at its own FILE:LINE:COL.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from scarbook.compiler.model import Game, as_dict, as_list
from scarbook.kernel.diagnostics import Diagnostic, did_you_mean, error
from scarbook.kernel.yamlload import Document

#: A packet trigger's own forms (envelopes.schema.json#/$defs/condition): the envelope checks read them, not the
#: language's (a trigger that is one of them is not checked twice).
TRIGGER_FORMS = {"placed", "count", "about_to_place", "event", "signatures_by_one_player", "after_game",
                 "after_chapter", "opened"}

#: The keys that make a mapping a query of the campaign language (campaign/lang.py compiles them).
QUERY_KEYS = ("count", "track", "stat", "level", "game", "games", "scenario", "score", "rank", "wins", "owner",
              "who", "opened", "held", "destroyed", "signatures", "chapters", "sum")

#: Queries whose value is a name (compared with `equals`/`in`, never with `at_least`/`at_most`).
NAME_QUERIES = ("owner", "who", "scenario")
NAME_FACTS = ("type", "scenario", "result", "winner")
COMPOSED = ("all", "any")
#: Queries that read how many of something: never below 0.
COUNTS = ("count", "games", "wins", "signatures", "chapters")


class Form:
    """The argument of one form of the campaign language as written, read as typed values (campaign/lang.py builds
    its nodes from them): a mapping of parameters, or a bare value standing for the form's main parameter (`stat:
    hp` is `stat: {field: hp}`); any other argument has no parameters. The schema checked the shapes at the line;
    content that failed it is still read, so a value of the wrong type reads as absent."""

    __slots__ = ("_params",)

    def __init__(self, arg: object, main: str = "") -> None:
        self._params: dict[object, object] = arg if isinstance(arg, dict) else {main: arg} if main else {}

    def has(self, key: str) -> bool:
        return key in self._params

    def name(self, key: str) -> str:
        """The value as text, as written ('None' when absent)."""
        return str(self._params.get(key))

    def text(self, key: str, default: str = "") -> str:
        """The value as text; `default` when absent or empty."""
        return str(self._params.get(key) or default)

    def optional(self, key: str) -> str | None:
        """The value as text; None when absent."""
        found = self._params.get(key)
        return None if found is None else str(found)

    def ids(self, key: str) -> tuple[str, ...]:
        """One id or a list of them (what is null is none)."""
        found = self._params.get(key)
        return tuple(str(x) for x in (found if isinstance(found, list) else [found]) if x is not None)

    def flag(self, key: str) -> bool:
        return bool(self._params.get(key))

    def numbers(self, key: str) -> tuple[int, ...]:
        """A list's whole numbers (what is not one is left out)."""
        return tuple(int(n) for n in self.items(key) if isinstance(n, int))

    def items(self, key: str) -> tuple[object, ...]:
        """A list's entries (not a list: none)."""
        found = self._params.get(key)
        return tuple(found) if isinstance(found, list) else ()

    def cite(self) -> str:
        """Its `cite` as printed: a list joined by '; '."""
        found = self._params.get("cite")
        return "; ".join(str(c) for c in found) if isinstance(found, list) else str(found or "")


@dataclass
class Names:
    """What the ids of a condition may name, from the merged game."""

    stickers: set[str]
    kinds: set[str]
    tags: set[str]
    groups: set[str]
    places: set[str]
    regions: set[str]
    tracks: set[str]
    levels: dict[str, int]  # id -> how many thresholds
    scenarios: set[str]
    types: set[str]
    envelopes: set[str]
    conditions: set[str]

    @classmethod
    def of(cls, game: Game) -> Names:
        camp = as_dict(game.meta.get("campaign"))
        stickers = game.section("stickers")
        kinds = {str(s.get("kind")) for s in stickers.values() if s.get("kind")} | set(stickers)
        kinds |= {str(as_dict(s.get("founds")).get("kind")) for s in stickers.values()
                  if as_dict(s.get("founds")).get("kind")}
        kinds.add("destroyed")

        def ids(key: str) -> set[str]:
            return {str(as_dict(x).get("id")) for x in as_list(camp.get(key)) if as_dict(x).get("id")}

        places = set(game.section("territories")) | set(game.section("regions")) | set(game.section("cards")) | \
            set(game.section("factions"))
        tagged = [*game.section("territories").values(), *game.section("regions").values(),
                  *game.section("cards").values()]
        return cls(set(stickers), kinds, {str(t) for item in tagged for t in as_list(item.get("tags"))},
                   {str(as_dict(g).get("id")) for g in as_list(game.meta.get("marks")) if as_dict(g).get("id")},
                   places, set(game.section("regions")), ids("tracks"),
                   {str(as_dict(x).get("id")): len(as_list(as_dict(x).get("at"))) for x in as_list(camp.get("levels"))
                    if as_dict(x).get("id")},
                   ids("scenarios"), ids("game_types") or {"game"}, set(game.section("envelopes")), ids("conditions"))


def _where(names: Names, key: str) -> tuple[set[str] | dict[str, int], str, str]:
    """(the ids it may name, the noun, where they are defined)."""
    camp = "game: campaign: "
    table: dict[str, tuple[Any, str, str]] = {
        "sticker": (names.stickers, "sticker", "stickers"),
        "kind": (names.kinds, "sticker or sticker kind", "stickers"),
        "tag": (names.tags, "place tag", "territories: tags"), "group": (names.groups, "mark group", "game: marks"),
        "place": (names.places, "place", "territories, regions or cards"),
        "region": (names.places, "region or territory", "regions"),
        "track": (names.tracks, "track", camp + "tracks"), "level": (names.levels, "level", camp + "levels"),
        "scenario": (names.scenarios, "scenario", camp + "scenarios"),
        "type": (names.types, "game type", camp + "game_types"), "opened": (names.envelopes, "packet", "envelopes"),
        "held": (names.kinds, "sticker or sticker kind", "stickers"),
        "condition": (names.conditions, "named condition", camp + "conditions"),
    }
    return table[key]


def _ref(doc: Document, pointer: str, value: Any, names: Names, key: str) -> Iterator[Diagnostic]:
    if not isinstance(value, str) or value in ("target", "actor"):
        return
    pool, noun, where = _where(names, key)
    if value not in pool:
        yield error(doc.span(pointer), "X102", f"no {noun} '{value}'{did_you_mean(value, pool)}; define it under "
                    f"'{where}:' or fix the id", pointer)


def query_problems(doc: Document, pointer: str, q: dict[str, Any], names: Names) -> Iterator[Diagnostic]:
    """The ids one query (a mapping with one query key, maybe beside comparisons) names."""
    count = q.get("count")
    if isinstance(count, dict):
        for key, what in (("sticker", "sticker"), ("kind", "kind"), ("tag", "tag"), ("group", "group")):
            raw = count.get(key)
            for i, v in enumerate(raw if isinstance(raw, list) else [raw]):
                yield from _ref(doc, f"{pointer}/count/{key}" + (f"/{i}" if isinstance(raw, list) else ""), v, names,
                                what)
        for key in ("on", "next_to"):
            yield from _ref(doc, f"{pointer}/count/{key}", count.get(key), names, "place")
        yield from _ref(doc, f"{pointer}/count/in", count.get("in"), names, "region")
    for key in ("track", "scenario", "opened"):
        yield from _ref(doc, f"{pointer}/{key}", q.get(key), names, key)
    for key, what in (("level", "level"), ("held", "held"), ("stat", "place"), ("owner", "place")):
        value = q.get(key)
        if isinstance(value, dict):
            inner = {"level": "id", "held": "id", "stat": "of", "owner": "of"}[key]
            yield from _ref(doc, f"{pointer}/{key}/{inner}", value.get(inner), names, what)
        elif key in ("level", "held", "owner"):
            yield from _ref(doc, f"{pointer}/{key}", value, names, what)
    yield from _ref(doc, f"{pointer}/destroyed", q.get("destroyed"), names, "place")
    for i, part in enumerate(as_list(q.get("sum"))):
        if isinstance(part, dict):
            yield from query_problems(doc, f"{pointer}/sum/{i}", part, names)
    games = q.get("games")
    if isinstance(games, dict):
        yield from _ref(doc, f"{pointer}/games/type", games.get("type"), names, "type")
        yield from _ref(doc, f"{pointer}/games/scenario", games.get("scenario"), names, "scenario")


def _is_name(q: dict[str, Any]) -> bool:
    return any(k in q for k in NAME_QUERIES) or q.get("game") in NAME_FACTS


def condition_problems(doc: Document, pointer: str, cond: Any, names: Names) -> Iterator[Diagnostic]:
    """Every mistake in one condition and the conditions and queries it holds."""
    if not isinstance(cond, dict):
        return
    for key in COMPOSED:
        for i, part in enumerate(as_list(cond.get(key))):
            yield from condition_problems(doc, f"{pointer}/{key}/{i}", part, names)
    if "not" in cond:
        yield from condition_problems(doc, f"{pointer}/not", cond["not"], names)
    yield from _ref(doc, f"{pointer}/condition", cond.get("condition"), names, "condition")
    if "check" in cond:
        return
    yield from query_problems(doc, pointer, cond, names)
    for op in ("at_least", "at_most", "equals", "in"):
        if op not in cond:
            continue
        for i, against in enumerate(as_list(cond[op]) if op == "in" else [cond[op]]):
            at = f"{pointer}/{op}" + (f"/{i}" if op == "in" else "")
            if isinstance(against, dict):
                yield from query_problems(doc, at, against, names)
            elif _is_name(cond) and isinstance(against, int) and not isinstance(against, bool):
                yield error(doc.span(at), "X530", f"{_key(cond)} reads a name, not a number; compare it with "
                            "'equals: NAME' or 'in: [NAME, ...]'", at)
            elif not _is_name(cond) and isinstance(against, str) and not any(k in cond for k in ("game", "held")):
                yield error(doc.span(at), "X530", f"{_key(cond)} reads a number, not the name '{against}'; compare "
                            "it with a number (or a query that reads one)", at)
        if _is_name(cond) and op in ("at_least", "at_most"):
            yield error(doc.span(f"{pointer}/{op}"), "X530", f"{_key(cond)} reads a name: '{op}' compares numbers; "
                        "use 'equals' or 'in'", f"{pointer}/{op}")
    yield from _never(doc, pointer, cond, names)


def _key(cond: dict[str, Any]) -> str:
    key = next((k for k in cond if k in QUERY_KEYS), "the query")
    return f"'{key}'"


def _never(doc: Document, pointer: str, cond: dict[str, Any], names: Names) -> Iterator[Diagnostic]:
    """X531: a comparison that can never hold (a count at most a negative number, a level above its last)."""
    most, least = cond.get("at_most"), cond.get("at_least")
    if any(k in cond for k in COUNTS) and isinstance(most, int) and not isinstance(most, bool) and most < 0:
        yield error(doc.span(f"{pointer}/at_most"), "X531", f"a count is never below 0, so 'at_most: {most}' never "
                    "holds; did you mean 'at_least'?", f"{pointer}/at_most")
    yield from _never_earned(doc, pointer, cond)
    level = cond.get("level")
    lid = level.get("id") if isinstance(level, dict) else level
    top = names.levels.get(str(lid))
    if top is not None and isinstance(least, int) and not isinstance(least, bool) and least > top:
        yield error(doc.span(f"{pointer}/at_least"), "X531", f"level '{lid}' has {top} thresholds, so it never "
                    f"reaches {least}; lower it or add thresholds to its 'at'", f"{pointer}/at_least")


def _never_earned(doc: Document, pointer: str, cond: dict[str, Any]) -> Iterator[Diagnostic]:
    """X531: points by rank in one game (`rank: {points: [...]}` without `total`) compared with more than the
    most any rank earns."""
    rank, least = cond.get("rank"), cond.get("at_least")
    if not isinstance(rank, dict) or rank.get("total") or not isinstance(least, int) or isinstance(least, bool):
        return
    points = [n for n in as_list(rank.get("points")) if isinstance(n, int) and not isinstance(n, bool)]
    if points and least > max(max(points), 0):
        yield error(doc.span(f"{pointer}/at_least"), "X531", f"a rank earns at most {max(points)} points in one "
                    f"game, so 'at_least: {least}' never holds; add 'total: true' for points over every game, or "
                    "lower it", f"{pointer}/at_least")


def _named_in(cond: Any) -> list[str]:
    """The named conditions a condition refers to, directly."""
    if isinstance(cond, list):
        return [n for part in cond for n in _named_in(part)]
    if not isinstance(cond, dict):
        return []
    out = [str(cond["condition"])] if "condition" in cond else []
    return out + [n for key in ("all", "any", "not") if key in cond for n in _named_in(cond[key])]


def _loop(start: str, named: dict[str, Any]) -> list[str]:
    """A chain of named conditions from `start` back to itself ([]: none)."""
    todo: list[list[str]] = [[start]]
    seen: set[str] = set()
    while todo:
        path = todo.pop()
        for nxt in _named_in(named.get(path[-1])):
            if nxt == start:
                return [*path, nxt]
            if nxt not in seen:
                seen.add(nxt)
                todo.append([*path, nxt])
    return []


def _shown(doc: Document, pointer: str, outcome: dict[str, Any]) -> Iterator[Diagnostic]:
    """X533: an outcome shown in a way its form cannot give (`show: winner` without `rank_by`; `show: tally` without
    a `won_when` that compares a query with `at_least: N`)."""
    show, won = outcome.get("show"), outcome.get("won_when")
    if show == "winner" and not outcome.get("rank_by"):
        yield error(doc.span(f"{pointer}/show"), "X533", "'show: winner' names the player first by 'rank_by': add "
                    "'rank_by' (or show the team's result with 'won_when')", f"{pointer}/show")
    won = as_dict(won)
    least = won.get("at_least")
    if show == "tally" and not (isinstance(least, int) and not isinstance(least, bool)
                                and any(k in won for k in QUERY_KEYS)):
        yield error(doc.span(f"{pointer}/show"), "X533", "'show: tally' counts toward 'won_when': write it as a "
                    "count compared with a number, e.g. 'won_when: {chapters: won, at_least: 8}'", f"{pointer}/show")


def content_conditions(docs: list[Document], game: Game) -> Iterator[Diagnostic]:
    """Every condition and query in every file of the game, checked where it stands."""
    names = Names.of(game)
    for doc in docs:
        data = doc.data if isinstance(doc.data, dict) else {}
        camp = as_dict(as_dict(data.get("game")).get("campaign"))
        base = "/game/campaign"
        named = {str(as_dict(c).get("id")): as_dict(c).get("when") for c in as_list(camp.get("conditions"))}
        for i, c in enumerate(as_list(camp.get("conditions"))):
            yield from condition_problems(doc, f"{base}/conditions/{i}/when", as_dict(c).get("when"), names)
            loop = _loop(str(as_dict(c).get("id")), named)
            if loop:
                yield error(doc.span(f"{base}/conditions/{i}/when"), "X532", f"condition '{loop[0]}' names itself "
                            f"({' -> '.join(loop)}): it could never be decided; break the loop",
                            f"{base}/conditions/{i}/when")
        for i, lv in enumerate(as_list(camp.get("levels"))):
            yield from query_problems(doc, f"{base}/levels/{i}/of", as_dict(as_dict(lv).get("of")), names)
        for i, sc in enumerate(as_list(camp.get("scenarios"))):
            yield from condition_problems(doc, f"{base}/scenarios/{i}/open", as_dict(sc).get("open"), names)
        yield from condition_problems(doc, f"{base}/end/when", as_dict(camp.get("end")).get("when"), names)
        outcome = as_dict(camp.get("outcome"))
        for i, q in enumerate(as_list(outcome.get("rank_by"))):
            yield from query_problems(doc, f"{base}/outcome/rank_by/{i}", as_dict(q), names)
        yield from condition_problems(doc, f"{base}/outcome/won_when", outcome.get("won_when"), names)
        yield from condition_problems(doc, f"{base}/outcome/lost_when", outcome.get("lost_when"), names)
        yield from condition_problems(doc, f"{base}/outcome/when", outcome.get("when"), names)
        bonus = as_dict(as_dict(as_dict(outcome.get("ties")).get("roll_off")).get("bonus"))
        yield from query_problems(doc, f"{base}/outcome/ties/roll_off/bonus", bonus, names)
        yield from _shown(doc, base + "/outcome", outcome)
        for i, ow in enumerate(as_list(camp.get("owed_when"))):
            yield from condition_problems(doc, f"{base}/owed_when/{i}/when", as_dict(ow).get("when"), names)
        for i, gt in enumerate(as_list(camp.get("game_types"))):
            for j, st in enumerate(as_list(as_dict(gt).get("steps"))):
                yield from condition_problems(doc, f"{base}/game_types/{i}/steps/{j}/when", as_dict(st).get("when"),
                                              names)
        for i, st in enumerate(as_list(data.get("stickers"))):
            for j, chk in enumerate(as_list(as_dict(st).get("checks"))):
                if as_dict(chk).get("check") == "when":
                    yield from condition_problems(doc, f"/stickers/{i}/checks/{j}/when", as_dict(chk).get("when"),
                                                  names)
        for i, env in enumerate(as_list(data.get("envelopes"))):
            when = as_dict(as_dict(as_dict(env).get("trigger")).get("when"))
            if when and set(when) <= TRIGGER_FORMS:
                continue  # one of the trigger's own forms (`opened: X` …): checked with the envelopes already
            yield from condition_problems(doc, f"/envelopes/{i}/trigger/when", when, names)

