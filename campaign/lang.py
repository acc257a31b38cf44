"""The campaign language: queries that read one value from the campaign, and conditions over them.

A **query** is a mapping with one query key (`count`, `track`, `stat`, `level`, `game`, `games`, `chapters`,
`scenario`, `score`, `rank`, `wins`, `signatures`, `sum`, `owner`, `who`, `opened`, `held`, `destroyed`) that
reads a number, a name or a yes/no from the fold (`CampaignState`) over the content. A **condition** is a
comparison of a query with a number, a name or another query (`at_least`, `at_most`, `equals`, `in`), a yes/no
query alone, `all`, `any`, `not`, a named condition (`condition: ID`, defined once under
`game.campaign.conditions`), or one of the named placement checks (`check: NAME …`, `checks.CHECKS`), which the
language can negate and combine.

`compile_condition` turns the content's mapping into a tree of small objects once per content (`Library`,
kept on `Content`); evaluating one (`holds`) gives a `Verdict`: whether it holds, and in words which part
decided it and the values read ("buildings on places Ann owns: 1; at least 3 needed"). The schema
(`schemas/conditions.schema.json`) checks the forms at the line; `compiler/semantic.py` checks the ids.
Nothing here names a game.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scarbook.compiler.conditions import QUERY_KEYS, Form
from scarbook.compiler.items import CheckSpec

if TYPE_CHECKING:
    from scarbook.campaign.checks import Placement
    from scarbook.campaign.content import Content, Target
    from scarbook.campaign.state import CampaignState, GameRecord, Mark

Value = int | str | bool | None

#: The keys that make a mapping a query (each reads one value).
#: The named placement checks (`checks.CHECKS`), registered by `campaign/checks.py` when it is imported (the
#: content imports it before compiling a condition): the language names them without importing the checks,
#: which evaluate conditions themselves (`check: when`).
CHECKS: dict[str, Callable[..., Any]] = {}


def register_checks(table: dict[str, Callable[..., Any]]) -> None:
    """Make the named checks `table` available to conditions (`check: NAME`)."""
    CHECKS.update(table)



#: Queries whose value is a yes/no: alone, they are a condition that holds when the answer is yes.
BOOL_QUERIES = ("opened", "held", "destroyed")
#: The comparisons of a query with a value.
COMPARISONS = ("at_least", "at_most", "equals", "in")
#: Keys a condition may carry beside its form.
ANNOTATIONS = ("text", "cite")
#: What `game:` reads of the game in progress (else the last one ended).
GAME_FACTS = ("number", "type", "scenario", "result", "winner", "played", "players", "eliminated", "chapters",
              "left")
#: What `chapters:` counts: chapters won, lost, over (won, or out of tries), or left (not over yet).
CHAPTER_FACTS = ("won", "lost", "over", "left")


class LanguageError(ValueError):
    """A mapping that is not a query or condition of the language (the schema says where; this says what)."""


@dataclass(frozen=True)
class Scope:
    """What a condition is asked about: the campaign now, the player it concerns (the actor), the place."""

    content: Content
    state: CampaignState
    actor: str = ""
    target: Target | None = None
    placement: Placement | None = None


@dataclass(frozen=True)
class Verdict:
    """Whether a condition holds, and the part that decided it, in words, with the values read."""

    ok: bool
    why: str
    cite: str = ""


# --- queries -------------------------------------------------------------------------------------------------
class Query:
    """Reads one value from the campaign."""

    def read(self, scope: Scope) -> Value:
        raise NotImplementedError

    def words(self, scope: Scope) -> str:
        raise NotImplementedError

    def tally(self, scope: Scope) -> tuple[int | None, str]:
        """What a count of this query is out of, and its unit in words (a team's tally: '3 of 12 chapters won')."""
        return None, self.words(scope)


def _who(raw: Any, scope: Scope) -> str:
    """`actor` is the player the rule is asked about; any other word is a player's name as the ledger spells it."""
    if raw in (None, "", "actor"):
        return scope.actor
    return scope.state.by_lower.get(str(raw).lower(), str(raw))


def _place(raw: Any, scope: Scope) -> str:
    """`target` is the place the rule is asked about; any other word is an id."""
    if raw == "target":
        return scope.target.id if scope.target is not None else ""
    return str(raw)


def _game_now(state: CampaignState) -> GameRecord | None:
    return state.in_progress or state.last_ended


_KEYS: weakref.WeakKeyDictionary[Content, dict[Count, set[str]]] = weakref.WeakKeyDictionary()
#: Whether the fold's counts (`state.live`, by sticker, kind and what a mark founds) summed over a count's sticker
#: ids give its count: not when one of them is also another sticker's kind (that sticker's marks would count twice).
_EXACT: weakref.WeakKeyDictionary[Content, dict[Count, bool]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Count(Query):
    """How many marks, by what they are (sticker, kind, group), who placed or owns them, active or cancelled,
    and where they are (on a place carrying a tag, on a place, in a region, next to a place, on the places a
    player owns)."""

    stickers: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    by: str | None = None
    owned_by: str | None = None
    status: str = "active"
    on: str | None = None
    within: str | None = None  # `in`: a region, or the region(s) of the target
    next_to: str | None = None
    own: str | None = None  # the places this player owns
    name: str = ""
    named: bool = False  # only marks placed with a name, of stickers that name what they mark

    def _keys(self, content: Content) -> set[str] | None:
        """The sticker ids that count (None: any), worked out once per content."""
        if not (self.stickers or self.kinds or self.groups):
            return None
        kept = _KEYS.setdefault(content, {})
        found = kept.get(self)
        if found is None:
            found = kept[self] = self._find_keys(content)
        return found

    def _live_exact(self, content: Content, keys: set[str]) -> bool:
        """Whether summing `state.live` over `keys` counts each mark once (worked out once per content)."""
        kept = _EXACT.setdefault(content, {})
        found = kept.get(self)
        if found is None:
            found = kept[self] = not any(
                other != sid and other in keys for sid, st in content.sticker_views.items()
                for other in (st.kind or sid, st.founds_kind))
        return found

    def _find_keys(self, content: Content) -> set[str]:
        from scarbook.compiler.words import group_of, mark_groups

        groups = mark_groups(content.game) if self.groups else []
        out = set(self.stickers)
        for sid, view in content.sticker_views.items():  # a sticker of that kind (its id, or what it founds)
            if {view.kind or sid, sid, view.founds_kind} & set(self.kinds):
                out.add(sid)
            elif groups:
                st = content.stickers[sid]
                if group_of(groups, sid, st, st.get("slot")).id in self.groups:
                    out.add(sid)
        return out

    def _places(self, scope: Scope) -> set[str] | None:
        content, state = scope.content, scope.state
        places: set[str] | None = None

        def narrow(found: set[str]) -> None:
            nonlocal places
            places = found if places is None else places & found

        if self.on is not None:
            narrow({_place(self.on, scope)})
        if self.within is not None:
            where = _place(self.within, scope)
            lands = content.places_in("territories")
            regions = {where} if where in content.regions else \
                {str(r) for r in (lands[where].regions if where in lands else ())}
            found = set(regions) | {t for t, terr in lands.items() if regions & {str(r) for r in terr.regions}}
            narrow(found | {content.card_of_territory[t] for t in found if t in content.card_of_territory})
        if self.next_to is not None:
            where = _place(self.next_to, scope)
            territory = where if where in content.territories else \
                str(content.cards.get(where, {}).get("territory") or "")
            found = set(content.game.neighbors().get(territory, []))
            narrow(found | {content.card_of_territory[t] for t in found if t in content.card_of_territory})
        if self.own is not None:
            narrow(owned_places(content, state, _who(self.own, scope)))
        if self.tags:
            found = {pid for sec in ("territories", "regions", "cards") for pid, item in content.places_in(sec).items()
                     if any(t in self.tags for t in item.tags)}
            narrow(found | {content.card_of_territory[t] for t in found if t in content.card_of_territory})
        return places

    def read(self, scope: Scope) -> Value:
        content, state = scope.content, scope.state
        keys = self._keys(content)
        places = self._places(scope)
        by = _who(self.by, scope) if self.by is not None else None
        owner = _who(self.owned_by, scope) if self.owned_by is not None else None
        if places is None and by is None and owner is None and self.status == "active" and keys is not None \
                and not self.named and self._live_exact(content, keys):
            return sum(state.live[k] for k in keys)  # kept by the fold as marks come and go
        if places is None and by is None and owner is None and self.status == "any" and self.stickers and not \
                (self.kinds or self.groups or self.named):  # every one ever placed (a trigger's `placed`): kept too
            return sum(state.placed[k] for k in self.stickers)
        total = 0
        for tid in (places if places is not None else state.marks):
            for m in state.marks.get(tid, ()):
                if self._counts(m, scope, keys, by, owner):
                    total += 1
        return total

    def _counts(self, m: Mark, scope: Scope, keys: set[str] | None, by: str | None, owner: str | None) -> bool:
        if keys is not None and m.sticker not in keys:
            return False
        if not status_matches(m, self.status):
            return False
        if by is not None and m.by != by:
            return False
        if self.named:
            sticker = scope.content.sticker_views.get(m.sticker)
            if not (m.name and sticker is not None and sticker.named):
                return False
        return owner is None or scope.state.owner(scope.content, m) == owner

    def words(self, scope: Scope) -> str:
        what = self.name or " or ".join([*self.stickers, *self.kinds, *self.groups]) or "marks"
        parts = [what if self.status == "active" else f"{what} ({self.status})"]
        if self.named:
            parts[0] = f"named {parts[0]}"
        if self.by is not None:
            parts.append(f"placed by {_who(self.by, scope) or 'the player'}")
        if self.owned_by is not None:
            parts.append(f"owned by {_who(self.owned_by, scope) or 'the player'}")
        if self.tags:
            parts.append(f"on {' or '.join(self.tags)} places")
        if self.on is not None:
            parts.append(f"on {_place(self.on, scope)}")
        if self.within is not None:
            parts.append(f"in {_place(self.within, scope)}")
        if self.next_to is not None:
            parts.append(f"next to {_place(self.next_to, scope)}")
        if self.own is not None:
            parts.append(f"on places {_who(self.own, scope) or 'the player'} owns")
        return " ".join(parts)


@dataclass(frozen=True)
class Track(Query):
    """A campaign track's value now."""

    id: str

    def read(self, scope: Scope) -> Value:
        from scarbook.campaign.tracks import track_value

        return track_value(scope.content, scope.state, self.id)

    def words(self, scope: Scope) -> str:
        track = scope.content.model.tracks.get(self.id)
        return track.name if track else self.id


@dataclass(frozen=True)
class Stat(Query):
    """A value of a place or card: what is printed (its `stats` too) plus what its marks add."""

    field: str
    of: str = "target"

    def read(self, scope: Scope) -> Value:
        pid = _place(self.of, scope)
        content = scope.content
        item = scope.target.item if self.of == "target" and scope.target is not None else next(
            (sec[pid] for sec in (content.territories, content.regions, content.cards, content.factions)
             if pid in sec), {})
        stats = item.get("stats")
        merged = {**item, **stats} if isinstance(stats, dict) else item
        return scope.state.value(content, pid, merged, self.field)

    def words(self, scope: Scope) -> str:
        return f"{self.field} of {_place(self.of, scope)}"


@dataclass(frozen=True)
class Level(Query):
    """A derived value (`game.campaign.levels`): how many of its thresholds its query has reached."""

    id: str
    player: str | None = None

    def read(self, scope: Scope) -> Value:
        return level_of(scope.content, scope.state, self.id, _who(self.player, scope) if self.player else
                        scope.actor)[0]

    def words(self, scope: Scope) -> str:
        level = scope.content.model.levels.get(self.id)
        name = level.name if level else self.id
        who = _who(self.player, scope) if self.player else scope.actor
        return f"{who}'s {name}" if level is not None and level.per_player and who else name


@dataclass(frozen=True)
class GameFact(Query):
    """A fact of the game in progress (between games: the last one): number, type, scenario, result, winner;
    `played`: how many games have ended; `players`: how many play the campaign; `eliminated`: how many players
    were eliminated in every game so far; `chapters`: the highest chapter that is over (won, or out of tries);
    `left`: how many of the campaign's games (`game.campaign.games`) are still to be played (0 when it does not
    say how many)."""

    fact: str

    def read(self, scope: Scope) -> Value:
        state = scope.state
        if self.fact == "played":
            return sum(1 for g in state.games if g.ended)
        if self.fact == "players":
            return len(state.players)
        if self.fact == "eliminated":
            return state.eliminations
        if self.fact == "chapters":
            return chapters_over(scope.content, state)
        if self.fact == "left":
            total = scope.content.model.games
            return max(total - sum(1 for g in state.games if g.ended), 0) if total is not None else 0
        game = _game_now(state)
        if game is None:
            return 0 if self.fact == "number" else ""
        facts: dict[str, Value] = {"number": game.number, "type": game.type, "scenario": game.scenario,
                                   "result": game.team or ("won" if game.winner else ""), "winner": game.winner}
        return facts[self.fact]

    def words(self, scope: Scope) -> str:
        said = {"played": "games played", "players": "players in the campaign",
                "eliminated": "players eliminated so far", "chapters": "chapters over", "left": "games left"}
        return said.get(self.fact, f"the game's {self.fact}")


@dataclass(frozen=True)
class Games(Query):
    """How many ended games match: of a type, playing a scenario, with a result, won by a player."""

    type: str | None = None
    scenario: str | None = None
    result: str | None = None
    winner: str | None = None

    def read(self, scope: Scope) -> Value:
        winner = _who(self.winner, scope) if self.winner is not None else None
        return sum(1 for g in scope.state.games if g.ended and (self.type is None or g.type == self.type)
                   and (self.scenario is None or g.scenario == self.scenario)
                   and (self.result is None or (g.team or ("won" if g.winner else "")) == self.result)
                   and (winner is None or g.winner == winner))

    def tally(self, scope: Scope) -> tuple[int | None, str]:
        return scope.content.model.games, "games"

    def words(self, scope: Scope) -> str:
        bits = [f"{self.result} " if self.result else "", "games", f" of {self.type}" if self.type else "",
                f" of {self.scenario}" if self.scenario else "",
                f" won by {_who(self.winner, scope)}" if self.winner is not None else ""]
        return "".join(bits)


@dataclass(frozen=True)
class Scenario(Query):
    """A scenario's result: `won` once any play of it was won, else the last play's result, else `unplayed`."""

    id: str

    def read(self, scope: Scope) -> Value:
        return scenario_result(scope.state, self.id)

    def words(self, scope: Scope) -> str:
        sc = scope.content.model.scenarios.get(self.id)
        return f"{sc.name if sc else self.id}'s result"


@dataclass(frozen=True)
class Chapters(Query):
    """How many chapters are won, lost, over (won, or played as often as they may be), or left (not over yet, of
    the campaign's `chapters.count`; 0 when it does not say how many); 0 in a campaign without chapters."""

    fact: str

    def read(self, scope: Scope) -> Value:
        chapters = scope.content.model.chapters
        if chapters is None:
            return 0
        results = chapter_results(scope.content, scope.state)
        if self.fact == "left":
            return max(chapters.count - len(results), 0) if chapters.count is not None else 0
        return len(results) if self.fact == "over" else sum(1 for r in results.values() if r == self.fact)

    def words(self, scope: Scope) -> str:
        chapters = scope.content.model.chapters
        return f"{chapters.plural if chapters else 'chapters'} {self.fact}"

    def tally(self, scope: Scope) -> tuple[int | None, str]:
        chapters = scope.content.model.chapters
        return (chapters.count, chapters.plural) if chapters else (None, "chapters")


@dataclass(frozen=True)
class Sum(Query):
    """The sum of the numbers its queries read (`sum: [{chapters: won}, {chapters: left}]`: the most that can
    still be won)."""

    parts: tuple[Query, ...]

    def read(self, scope: Scope) -> Value:
        return sum(_number(q.read(scope)) for q in self.parts)

    def words(self, scope: Scope) -> str:
        return " + ".join(q.words(scope) for q in self.parts)


@dataclass(frozen=True)
class Score(Query):
    """A player's score: in the game now (or the last one), or their total over every game (`total: true`)."""

    player: str = "actor"
    total: bool = False

    def read(self, scope: Scope) -> Value:
        who = _who(self.player, scope)
        if self.total:
            mine = scope.state.holders(who)  # with the totals handed over to them (`campaign leave --to`)
            return sum(n for g in scope.state.games if g.ended for p, n in g.scores.items() if p in mine)
        game = _game_now(scope.state)
        return game.scores.get(who, 0) if game is not None else 0

    def words(self, scope: Scope) -> str:
        what = "total score" if self.total else "score"
        who = _who(self.player, scope)
        return f"{who}'s {what}" if who else what


@dataclass(frozen=True)
class Rank(Query):
    """A player's rank by score in the game now (or the last one): 1 for the highest; ties share a rank. With
    `points`, what that rank earns (`points[rank - 1]`, 0 beyond the list); with `total`, summed over every game
    ended (points by rank adding up over a campaign)."""

    player: str = "actor"
    points: tuple[int, ...] = ()
    total: bool = False

    def read(self, scope: Scope) -> Value:
        who = _who(self.player, scope)
        if self.points and self.total:  # with the points of players who handed their holdings to them
            mine = scope.state.holders(who)
            return sum(self._earned(rank_in(g, p)) for g in scope.state.games if g.ended for p in mine)
        rank = rank_in(_game_now(scope.state), who)
        return self._earned(rank) if self.points else rank

    def _earned(self, rank: int) -> int:
        return self.points[rank - 1] if 0 < rank <= len(self.points) else 0

    def words(self, scope: Scope) -> str:
        who = _who(self.player, scope)
        if self.points:
            what = f"points by rank ({', '.join(map(str, self.points))})" + (" over every game" if self.total else "")
            return f"{who}'s {what}" if who else what
        return f"{who}'s rank" if who else "rank"


def rank_in(game: GameRecord | None, player: str) -> int:
    """A player's rank by score in a game (1 for the highest; ties share a rank); 0 without a score there."""
    if game is None or not game.scores:
        return 0
    mine = game.scores.get(player)
    return 0 if mine is None else 1 + sum(1 for s in game.scores.values() if s > mine)


@dataclass(frozen=True)
class Wins(Query):
    """How many games a player has won, with the wins of players who handed their holdings to them (a total,
    like their score's)."""

    player: str = "actor"

    def read(self, scope: Scope) -> Value:
        mine = scope.state.holders(_who(self.player, scope))
        return sum(1 for g in scope.state.games if g.ended and g.winner in mine)

    def words(self, scope: Scope) -> str:
        who = _who(self.player, scope)
        return f"games {who} won" if who else "games won"


@dataclass(frozen=True)
class Signatures(Query):
    """How many times a player has signed (with the signatures of players who handed their holdings to them); with
    `most`, the most any one player of the campaign has."""

    player: str = "actor"
    most: bool = False

    def read(self, scope: Scope) -> Value:
        state = scope.state
        if self.most:
            return max((self._of(state, p) for p in state.players), default=0)
        return self._of(state, _who(self.player, scope))

    @staticmethod
    def _of(state: CampaignState, player: str) -> int:
        mine = state.holders(player)
        return sum(1 for p, _n in state.signatures if p in mine)

    def words(self, scope: Scope) -> str:
        if self.most:
            return "the most signatures of one player"
        who = _who(self.player, scope)
        return f"{who}'s signatures" if who else "signatures"


@dataclass(frozen=True)
class Owner(Query):
    """Who owns a place (by a claim sticker, `game.campaign.claims`: on it, or on its region); '' for nobody."""

    of: str = "target"

    def read(self, scope: Scope) -> Value:
        return owner_of(scope.content, scope.state, _place(self.of, scope)) or ""

    def words(self, scope: Scope) -> str:
        return f"the owner of {_place(self.of, scope)}"


@dataclass(frozen=True)
class Who(Query):
    """A player's name: `actor` (the player the rule is asked about)."""

    player: str = "actor"

    def read(self, scope: Scope) -> Value:
        return _who(self.player, scope)

    def words(self, scope: Scope) -> str:
        return "the player" if self.player == "actor" else self.player


@dataclass(frozen=True)
class Flag(Query):
    """A yes/no of the campaign: a packet is open, a mark is held (active anywhere, or by a player), a place or
    card is destroyed."""

    what: str
    id: str
    player: str | None = None

    def read(self, scope: Scope) -> Value:
        state = scope.state
        if self.what == "opened":
            return self.id in state.opened
        if self.what == "destroyed":
            return state.destroyed(_place(self.id, scope)) is not None
        if self.player is None:
            return state.live[self.id] > 0
        who = _who(self.player, scope)
        return any(m.is_a(self.id) and m.active and state.owner(scope.content, m) == who
                   for ms in state.marks.values() for m in ms)

    def words(self, scope: Scope) -> str:
        if self.what == "opened":
            return f"packet {self.id} is open"
        if self.what == "destroyed":
            return f"{_place(self.id, scope)} is destroyed"
        return f"{self.id} is held" + (f" by {_who(self.player, scope)}" if self.player is not None else "")


@dataclass(frozen=True)
class Constant(Query):
    """A number or a name written in the content."""

    value: Value

    def read(self, scope: Scope) -> Value:
        return self.value

    def words(self, scope: Scope) -> str:
        return str(self.value)


def compile_query(raw: object) -> Query:
    """A query mapping (or, as a comparand, a plain number or name) as an object that reads its value."""
    if not isinstance(raw, dict):
        if isinstance(raw, (int, str, bool)) or raw is None:
            return Constant(raw)
        raise LanguageError(f"a query is a mapping with one of {', '.join(QUERY_KEYS)}")
    keys = [k for k in raw if k in QUERY_KEYS]
    if len(keys) != 1:
        raise LanguageError(f"a query names exactly one of {', '.join(QUERY_KEYS)} (found {', '.join(keys) or 'none'})")
    key = keys[0]
    arg = raw[key]
    if key == "count":
        c = Form(arg)
        return Count(c.ids("sticker"), c.ids("kind"), c.ids("tag"), c.ids("group"), c.optional("by"),
                     c.optional("owned_by"), c.text("status", "active"), c.optional("on"), c.optional("in"),
                     c.optional("next_to"), c.optional("own"), c.text("name"), c.flag("named"))
    if key == "track":
        return Track(str(arg))
    if key == "stat":
        s = Form(arg, "field")
        return Stat(s.name("field"), s.text("of", "target"))
    if key == "level":
        lv = Form(arg, "id")
        return Level(lv.name("id"), lv.optional("player"))
    if key == "game":
        if arg not in GAME_FACTS:
            raise LanguageError(f"'game' reads one of {', '.join(GAME_FACTS)}")
        return GameFact(str(arg))
    if key == "games":
        g = Form(arg)
        return Games(g.optional("type"), g.optional("scenario"), g.optional("result"), g.optional("winner"))
    if key == "scenario":
        return Scenario(str(arg))
    if key == "chapters":
        if arg not in CHAPTER_FACTS:
            raise LanguageError(f"'chapters' reads one of {', '.join(CHAPTER_FACTS)}")
        return Chapters(str(arg))
    if key == "sum":
        return Sum(tuple(compile_query(q) for q in (arg if isinstance(arg, list) else [arg])))
    if key in ("score", "rank", "wins", "who", "signatures"):
        p = Form(arg, "player")
        player = p.text("player", "actor")
        if key == "signatures":
            return Signatures(player, p.flag("most"))
        if key == "score":
            return Score(player, p.flag("total"))
        if key == "rank":
            return Rank(player, p.numbers("points"), p.flag("total"))
        return {"rank": Rank, "wins": Wins, "who": Who}[key](player)
    if key == "owner":
        return Owner(Form(arg, "of").text("of", "target"))
    f = Form(arg, "id")
    return Flag(key, f.name("id"), f.optional("by"))


# --- conditions ----------------------------------------------------------------------------------------------
class Condition:
    """Holds or not, and says why."""

    text: str = ""
    cite: str = ""

    def holds(self, scope: Scope) -> Verdict:
        raise NotImplementedError


def _show(v: Value) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "nobody" if v == "" else str(v)


@dataclass(frozen=True)
class Compare(Condition):
    query: Query
    op: str
    against: tuple[Query, ...]
    text: str = ""
    cite: str = ""

    def holds(self, scope: Scope) -> Verdict:
        got = self.query.read(scope)
        want = [q.read(scope) for q in self.against]
        if self.op == "in":
            ok = got in want
        elif self.op == "equals":
            ok = got == want[0]
        else:
            n, m = _number(got), _number(want[0])
            ok = n >= m if self.op == "at_least" else n <= m
        need = {"at_least": "at least", "at_most": "at most", "equals": "", "in": "one of"}[self.op]
        wanted = ", ".join(_show(w) for w in want)
        said = f"{self.query.words(scope)}: {_show(got)}"
        why = _compared(said, need, wanted, ok, _show(got) == wanted)
        return Verdict(ok, f"{self.text} ({why})" if self.text else why, self.cite)


def _compared(said: str, need: str, wanted: str, ok: bool, same: bool) -> str:
    """A comparison in words: what was read, and what was needed (not repeated when it is what was read)."""
    if ok:
        return said if same and not need else f"{said} ({need + ' ' if need else ''}{wanted})"
    return f"{said}; {need + ' ' if need else ''}{wanted} needed"


def _number(v: Value) -> int:
    if isinstance(v, bool):
        return int(v)
    return v if isinstance(v, int) else 0


@dataclass(frozen=True)
class Truth(Condition):
    """A yes/no query alone: holds when it reads yes."""

    query: Query
    text: str = ""
    cite: str = ""

    def holds(self, scope: Scope) -> Verdict:
        ok = bool(self.query.read(scope))
        said = self.query.words(scope)
        why = said if ok else f"not so: {said}"
        return Verdict(ok, f"{self.text} ({why})" if self.text else why, self.cite)


@dataclass(frozen=True)
class All(Condition):
    parts: tuple[Condition, ...]
    text: str = ""
    cite: str = ""

    def holds(self, scope: Scope) -> Verdict:
        seen = []
        for part in self.parts:
            v = part.holds(scope)
            if not v.ok:
                return Verdict(False, f"{self.text} ({v.why})" if self.text else v.why, v.cite or self.cite)
            seen.append(v.why)
        return Verdict(True, self.text or "; ".join(seen), self.cite)


@dataclass(frozen=True)
class Any_(Condition):
    parts: tuple[Condition, ...]
    text: str = ""
    cite: str = ""

    def holds(self, scope: Scope) -> Verdict:
        seen = []
        for part in self.parts:
            v = part.holds(scope)
            if v.ok:
                return Verdict(True, self.text or v.why, v.cite or self.cite)
            seen.append(v.why)
        why = "none of these holds: " + "; or ".join(seen)
        return Verdict(False, f"{self.text} ({why})" if self.text else why, self.cite)


@dataclass(frozen=True)
class Not(Condition):
    part: Condition
    text: str = ""
    cite: str = ""

    def holds(self, scope: Scope) -> Verdict:
        v = self.part.holds(scope)
        why = f"not so: {v.why}" if v.ok else v.why
        return Verdict(not v.ok, f"{self.text} ({why})" if self.text else why, self.cite or v.cite)


@dataclass(frozen=True)
class Named(Condition):
    """`condition: ID`: a condition defined once under `game.campaign.conditions`."""

    id: str
    library: Library
    text: str = ""
    cite: str = ""

    def holds(self, scope: Scope) -> Verdict:
        inner = self.library.named(self.id)
        if self.id in self.library.asking:
            raise LanguageError(f"condition '{self.id}' names itself")
        self.library.asking.add(self.id)
        try:
            v = inner.holds(scope)
        finally:
            self.library.asking.discard(self.id)
        return Verdict(v.ok, f"{self.text} ({v.why})" if self.text else v.why, self.cite or v.cite)


@dataclass(frozen=True)
class Check(Condition):
    """One of the named placement checks (`checks.CHECKS`): holds where the check lets the placement go."""

    name: str
    params: dict[str, Any] = field(hash=False)
    text: str = ""
    cite: str = ""
    spec: CheckSpec | None = field(default=None, hash=False, compare=False)  # the check typed, built with it

    def holds(self, scope: Scope) -> Verdict:
        if scope.placement is None:
            return Verdict(False, f"the check '{self.name}' is asked only of a placement", self.cite)
        failure = CHECKS[self.name](scope.placement, self.spec or CheckSpec.of_raw({"check": self.name, **self.params}))
        if failure is None:
            said = ", ".join(f"{k} {' or '.join(map(str, v)) if isinstance(v, list) else v}"
                             for k, v in self.params.items())
            return Verdict(True, self.text or f"{self.name}{' (' + said + ')' if said else ''} holds", self.cite)
        why = f"{failure[0]} ({failure[1]})"
        return Verdict(False, f"{self.text} ({why})" if self.text else why, self.cite)


class Library:
    """The conditions of one content, compiled once (`Content.conditions`): named ones by id, others by the
    identity of their mapping (the content's mappings live as long as the content)."""

    def __init__(self, named: dict[str, Any]) -> None:
        self._raw = named
        self._named: dict[str, Condition] = {}
        self._by_id: dict[int, tuple[Any, Condition]] = {}
        self._busy: set[str] = set()
        self.asking: set[str] = set()  # named conditions being asked now (one naming itself is an error)
        self._queries: dict[int, tuple[Any, Query]] = {}

    def named(self, cid: str) -> Condition:
        found = self._named.get(cid)
        if found is None:
            if cid not in self._raw:
                raise LanguageError(f"no condition '{cid}' under game: campaign: conditions")
            if cid in self._busy:
                raise LanguageError(f"condition '{cid}' names itself")
            self._busy.add(cid)
            try:
                found = self._named[cid] = self.compile(self._raw[cid])
            finally:
                self._busy.discard(cid)
        return found

    def compile(self, raw: Any) -> Condition:
        kept = self._by_id.get(id(raw))
        if kept is not None and kept[0] is raw:
            return kept[1]
        out = compile_condition(raw, self)
        self._by_id[id(raw)] = (raw, out)
        return out

    def holds(self, raw: Any, scope: Scope) -> Verdict:
        return self.compile(raw).holds(scope)

    def query(self, raw: Any) -> Query:
        kept = self._queries.get(id(raw))
        if kept is not None and kept[0] is raw:
            return kept[1]
        out = compile_query(raw)
        self._queries[id(raw)] = (raw, out)
        return out


def compile_condition(raw: object, library: Library) -> Condition:
    """A condition mapping as an object that says whether it holds (LanguageError: not a condition)."""
    if not isinstance(raw, dict):
        raise LanguageError("a condition is a mapping")
    form = Form(raw)
    text, cite = form.text("text"), form.cite()
    if form.has("all"):
        return All(tuple(library.compile(p) for p in form.items("all")), text, cite)
    if form.has("any"):
        return Any_(tuple(library.compile(p) for p in form.items("any")), text, cite)
    if "not" in raw:
        return Not(library.compile(raw["not"]), text, cite)
    if "condition" in raw:
        return Named(str(raw["condition"]), library, text, cite)
    if "check" in raw:
        name = str(raw["check"])
        if name not in CHECKS:
            raise LanguageError(f"no check '{name}'")
        params = {k: v for k, v in raw.items() if k not in ("check", "cite", "text", "only")}
        return Check(name, params, text, cite, CheckSpec.of_raw({"check": name, **params}))
    ops = [k for k in COMPARISONS if k in raw]
    query = compile_query({k: v for k, v in raw.items() if k in QUERY_KEYS})
    if not ops:
        if not isinstance(query, Flag):
            raise LanguageError(f"compare it: add one of {', '.join(COMPARISONS)}")
        return Truth(query, text, cite)
    if len(ops) > 1:
        raise LanguageError(f"one comparison per condition (found {', '.join(ops)}): join two with 'all'")
    op = ops[0]
    against = tuple(compile_query(v) for v in form.items(op)) if op == "in" else (compile_query(raw[op]),)
    return Compare(query, op, against, text, cite)


# --- what the language reads of the fold -----------------------------------------------------------------------
def scenario_result(state: CampaignState, sid: str) -> str:
    """`won` once any play of the scenario was won, else the last play's result, else `unplayed`."""
    last = "unplayed"
    for g in state.games:
        if g.ended and g.scenario == sid:
            result = g.team or ("won" if g.winner else "lost")
            if result == "won":
                return "won"
            last = result
    return last


def owner_of(content: Content, state: CampaignState, place: str) -> str | None:
    """The player whose claim (a mark of a `game.campaign.claims` sticker) is on the place, or on its card's
    territory, or on a region it lies in; the latest active claim decides."""
    claims = content.model.claims
    if not claims:
        return None
    places = [place]
    territory = content.cards.get(place, {}).get("territory")
    if isinstance(territory, str):
        places.append(territory)
    lands = content.places_in("territories")
    for t in list(places):
        if t in lands:
            places.extend(str(r) for r in lands[t].regions)
    for p in places:
        found = [m for m in state.active_marks(p) if m.sticker in claims]
        if found:
            return state.owner(content, found[-1]) or None
    return None


def owned_places(content: Content, state: CampaignState, player: str) -> set[str]:
    """Every place a player owns: claimed places, the territories of claimed regions, their cards."""
    out: set[str] = set()
    claims = content.model.claims
    for tid in state.marks:
        for m in state.active_marks(tid):
            if m.sticker in claims and owner_of(content, state, tid) == player:
                out.add(tid)
    for rid in [r for r in out if r in content.regions]:
        out |= {t for t, terr in content.places_in("territories").items() if rid in terr.regions}
    out |= {content.card_of_territory[t] for t in list(out) if t in content.card_of_territory}
    return out


def level_of(content: Content, state: CampaignState, level_id: str, player: str = "") -> tuple[int, Value]:
    """A derived value: (how many of its thresholds its query reached, the query's value)."""
    level = content.model.levels.get(level_id)
    if level is None:
        return 0, None
    value = content.conditions.query(level.of).read(Scope(content, state, player))
    n = _number(value)
    return sum(1 for t in level.at if n >= t), value


def status_matches(mark: Mark, status: str) -> bool:
    """Whether a mark has the `status` a count asks for: `active` (default), `cancelled` (covered by another
    sticker), `retired` or `lost` (`campaign retire --as`), or `any`."""
    if status == "any":
        return True
    if status == "active":
        return mark.active
    if status == "cancelled":
        return mark.covered_by is not None
    return mark.status == status


def chapter_results(content: Content, state: CampaignState) -> dict[int, str]:
    """Chapter -> its result (won, lost), for every chapter that is over: won, or played as often as it may be
    (a chapter still to be played again is not over)."""
    chapters = content.model.chapters
    out: dict[int, str] = {}
    if chapters is None:
        return out
    for g in state.games:
        if not g.ended or not g.chapter:
            continue
        again = g.team == chapters.again_after and g.attempt < chapters.tries
        if not again:
            out[g.chapter] = g.team or "over"
        else:
            out.pop(g.chapter, None)
    return out


def chapters_over(content: Content, state: CampaignState) -> int:
    """The highest chapter that is over (0: none)."""
    return max(chapter_results(content, state), default=0)
