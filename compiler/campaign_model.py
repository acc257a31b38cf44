"""The campaign's shape, read from a game's content (`game.campaign`): nothing here names a game.

A legacy game declares in its `game.campaign` block what the tracker's bookkeeping needs:
- `pieces`: what each player plays in a game, by kind (a faction, a character …), which content
  section (and deck) holds them, and the sticker that claims one for a player for good;
- `game_types`: per type of game, which piece kinds a game records and the ordered end-of-game
  `steps` (who takes each, what they may choose, whether it is owed, its fallback);
- `setup`: obligations that block a given game until they are met (placements to make first);
- `tokens`: what a player starts each game with, as `base + per_signature × signatures` under a
  condition (`unsigned`, `signed`, `all-signed`);
- `end` and `outcome`: when the campaign ends, and its outcome in the campaign language: standings by queries
  with a tie-break, or the team's result by conditions (the older `overall_winner` is rewritten into them when
  the file is read: `compiler/deprecations.py`);
- `starts`: the named checks that make a territory a legal starting territory;
- `team`, `chapters`, `tracks`, `owed_when`: the shapes of other campaigns (docs/campaign-shapes.md): a
  team result instead of a winner, chapters played in order with tries, campaign tracks moved by each
  result, and stickers owed on a target once one of its values reaches a threshold.
A game without these (a small homebrew game) gets the defaults below: one type of game, factions
as pieces when it has any, and one step per reward role (`rewards[].for`).
`CampaignModel.of(game)` builds it once per content; it is pure data plus lookups.

A typed view of the content (like `compiler/items.py`), so it lives with the content model: every raw read of
`game.campaign` is here, in the builders; the tracker (`campaign/`) reads the attributes
(`scarbook.campaign.model` re-exports these names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scarbook.compiler.model import Game, as_dict, as_list, known

#: Who takes a step (the roles of `steps[].who`).
ROLES = ("everyone", "winner", "held-on", "eliminated", "winner-for-unassigned", "team")

#: The results of a team game (`game end --team won|lost`).
TEAM_RESULTS = ("won", "lost")


def cite_of(item: dict[str, Any]) -> str:
    cite = item.get("cite")
    if cite is None:
        cite = as_dict(item.get("source")).get("cite")
    if isinstance(cite, list):
        return "; ".join(str(c) for c in cite)
    return str(cite or "")


@dataclass(frozen=True)
class PieceKind:
    """Something a player plays in a game (a faction, a character): where the items are."""

    id: str
    section: str
    deck: str | None = None
    claim: str | None = None  # the sticker that makes one a player's own for the whole campaign
    name: str = ""
    cite: str = ""


@dataclass(frozen=True)
class Step:
    """One end-of-game step: who takes it, which stickers it places (one of them), if it is owed."""

    id: str
    name: str
    who: str
    does: str = "place"  # place (a sticker), sign, record (done by the game's end itself)
    stickers: tuple[str, ...] = ()
    fallback: tuple[str, ...] = ()  # stickers allowed only when none of `stickers` can go anywhere
    piece: str | None = None  # the piece kind the step is taken for (one per piece)
    mandatory: bool = True
    pass_if: str = ""  # a mandatory step may be passed when the players say this holds
    skip: tuple[str, ...] = ()  # pieces the step never applies to
    cite: str = ""
    result: str = ""  # owed only after this team result (won, lost); '' after any
    order: str = ""  # 'clockwise-from-winner': the owing players take it in seating order ('' any order)
    records: tuple[str, ...] = ()  # a record step: what the game start should give ('start')
    when: Any = None  # a condition (campaign/lang.py): owed only by the players for whom it holds

    def offers(self, sticker: str) -> bool:
        return sticker in self.stickers or sticker in self.fallback


@dataclass(frozen=True)
class GameType:
    """A type of game (`game.campaign.game_types[]`): what each player plays and the steps after the game."""

    id: str
    name: str
    plays: tuple[str, ...]  # piece kinds each player gives at the start
    steps: tuple[Step, ...]
    in_order: bool = False  # steps are taken in their order: a later one waits for every earlier one
    cite: str = ""


@dataclass(frozen=True)
class Obligation:
    """Something to place before a game may start (setup before game 1, a packet's contents …)."""

    id: str
    text: str
    sticker: str
    before_game: int = 1
    each: str = ""  # '' (a count), 'player' (one by every player), 'target' (one on every target)
    count: int = 0
    pool: str | None = None
    cite: str = ""


@dataclass(frozen=True)
class OwedWhenOpened:
    """Stickers of these kinds that an opened packet puts in place (`placed-once-opened`) block the next game."""

    kinds: tuple[str, ...]
    text: str
    cite: str


@dataclass(frozen=True)
class Token:
    """What a player starts a game with (`campaign.tokens`): a base, more per signature, and when."""

    id: str
    name: str
    plural: str
    base: int = 0
    per_signature: int = 0
    when: tuple[str, ...] = ("always",)
    cite: str = ""


@dataclass(frozen=True)
class StartCheck:
    """A check on starting territories (`campaign.starts`), from the catalog in `starts.py`."""

    check: str
    params: dict[str, Any]
    text: str
    cite: str
    kind: str = "None"  # lacks, not-near-own: the kind of mark (as written; 'None' when not given)
    zone: str = "None"  # zone-owner: the zone's kind of mark
    with_: Any = None  # zone-owner: the owner's own mark of this kind beside the zone (`with`)
    unless_own: tuple[Any, ...] = ()  # no-marks: stickers that are fine when they are the player's own


@dataclass(frozen=True)
class Chapters:
    """Chapters (scenarios, missions …) played in order: each up to `tries` times, again only after
    the result `again_after` (`lost`); what one is called, in the game's own words."""

    name: str
    plural: str
    count: int | None
    tries: int = 1
    again_after: str = "lost"
    try_word: str = "try"
    cite: str = ""


@dataclass(frozen=True)
class Track:
    """A campaign-wide value (a level the whole table shares): where it starts, its bounds, how each result moves it."""

    id: str
    name: str
    start: int
    low: int | None
    high: int | None
    after: dict[str, int]
    text: str = ""
    cite: str = ""


@dataclass(frozen=True)
class OwedWhen:
    """A sticker owed on every target of a kind whose value of `field` is at least `at_least`, before the
    next game (a place that reached a threshold is marked for good)."""

    id: str
    targets: str
    field: str
    at_least: int
    place: str
    text: str
    cite: str
    when: Any = None  # instead of field/at_least: a condition (campaign/lang.py) per target or per player
    each: str = "target"
    at_once: bool = False  # owed before the next placement, not only before the next game


@dataclass(frozen=True)
class Level:
    """A derived value shown in status (`game.campaign.levels`): a level from a query by thresholds; per
    player when `per: player` (the query's `actor` is each player in turn)."""

    id: str
    name: str
    of: Any  # the query (a mapping of the campaign language, campaign/lang.py)
    at: tuple[int, ...]  # the level is how many of these the query's value has reached
    per_player: bool = False
    cite: str = ""


@dataclass(frozen=True)
class ScenarioNode:
    """A scenario of a scenario graph (`game.campaign.scenarios`): open to play while its `open` condition
    holds (always, when it has none); chosen at `game start --scenario ID`."""

    id: str
    name: str
    open: Any = None
    again: bool = False  # may be played again once won
    cite: str = ""


@dataclass(frozen=True)
class Draft:
    """A game's draft (`schedule[].draft`): the stickers drafted, the rule, where it is."""

    of: tuple[str, ...]
    text: str
    cite: str


@dataclass(frozen=True)
class ScheduleEntry:
    """One game of the schedule (`schedule` section) as the tracker reads it; an empty one for a game it omits."""

    game: int | None = None
    type: str = ""  # '' when it says none
    title: str = ""
    places: tuple[str, ...] = ()  # stickers the game's setup places besides the end-of-game steps
    ignore_starts: tuple[str, ...] = ()  # start checks it lifts
    returns: bool = False  # a piece lost for good may come back in it (`returns`)
    returns_lost_in: Any = None  # … the one lost in this game
    returns_price: str = ""
    may_lose: bool = False  # a piece may be lost for good in it
    draft: Draft | None = None
    cite: str = ""

    @classmethod
    def of(cls, raw: dict[str, Any]) -> ScheduleEntry:
        game, back, draft = raw.get("game"), as_dict(raw.get("returns")), raw.get("draft")
        return cls(game if isinstance(game, int) and not isinstance(game, bool) else None,
                   str(raw.get("type") or ""), str(raw.get("title") or ""),
                   tuple(str(s) for s in as_list(raw.get("places"))),
                   tuple(str(s) for s in as_list(raw.get("ignore_starts"))), bool(back), back.get("lost_in"),
                   str(back.get("price") or ""), bool(raw.get("may_lose")),
                   Draft(tuple(str(s) for s in as_list(draft.get("of"))), str(draft.get("text") or ""), cite_of(draft))
                   if isinstance(draft, dict) else None, cite_of(raw))


NO_ENTRY = ScheduleEntry()


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _cite_as_written(value: Any) -> str | list[Any]:
    """A cite as the status JSON shows it: as written (one, or a list), '' when there is none."""
    return value if isinstance(value, (str, list)) else ""


@dataclass(frozen=True)
class End:
    """`game.campaign.end`: the condition that ends the campaign, and the rule in words."""

    when: Any  # a condition (campaign/lang.py)
    text: str
    cite: str


@dataclass(frozen=True)
class Ties:
    """`outcome.ties`: players tied first roll off, each adding what `roll_off.bonus` (a query, read for each of
    them as `actor`) reads."""

    bonus: Any  # a query; None: a roll-off without a bonus
    text: str


#: How an outcome is shown (`outcome.show`): every player's standing, only the winner (or the tie, with each tied
#: player's roll-off bonus), or the team's tally (N of M won, at least K needed).
SHOWS = ("standings", "winner", "tally")


@dataclass(frozen=True)
class Outcome:
    """`game.campaign.outcome`: the standings by `rank_by` (queries), or the team's result by `won_when` (and
    `lost_when`); decided once `when` holds (default: the campaign's end); `ties` breaks a tie for first."""

    ranked: bool  # it ranks the players (`rank_by` given)
    rank_by: tuple[Any, ...]
    won_when: Any  # a condition; None: none
    text: str
    cite: str
    when: Any = None  # a condition: decided once it holds (None: once the campaign's `end` holds)
    lost_when: Any = None  # a condition: the team has lost once it holds (None: lost when not won at the end)
    show: str = "standings"
    ties: Ties | None = None
    cite_as_written: str | list[Any] = ""

    @classmethod
    def of(cls, raw: dict[str, Any]) -> Outcome:
        ties = raw.get("ties")
        roll = as_dict(as_dict(ties).get("roll_off"))
        show = raw.get("show")
        return cls(bool(raw.get("rank_by")), tuple(as_list(raw.get("rank_by"))), raw.get("won_when"),
                   str(raw.get("text") or ""), str(raw.get("cite") or ""), raw.get("when"), raw.get("lost_when"),
                   show if show in SHOWS else "standings",
                   Ties(roll.get("bonus"), _text(as_dict(ties).get("text"))) if isinstance(ties, dict) else None,
                   _cite_as_written(raw.get("cite")))


@dataclass
class CampaignModel:
    """The content's `game.campaign` as typed data, with defaults for a game that declares none."""

    games: int | None
    rewards_until: int | None
    pieces: dict[str, PieceKind]
    types: dict[str, GameType]
    schedule: dict[int, dict[str, Any]]  # game number -> its schedule entry
    default_type: str
    setup: list[Obligation]
    tokens: list[Token]
    starts: list[StartCheck]
    step_stickers: set[str] = field(default_factory=set)
    owed_when_opened: list[OwedWhenOpened] = field(default_factory=list)
    team: bool = False
    chapters: Chapters | None = None
    tracks: dict[str, Track] = field(default_factory=dict)
    owed_when: list[OwedWhen] = field(default_factory=list)
    conditions: dict[str, Any] = field(default_factory=dict)  # named conditions (`game.campaign.conditions`)
    claims: tuple[str, ...] = ()  # stickers whose mark makes its owner the owner of the place (and its region)
    levels: dict[str, Level] = field(default_factory=dict)
    scenarios: dict[str, ScenarioNode] = field(default_factory=dict)
    end: End | None = None  # `game.campaign.end` (None: the campaign ends with its games or chapters)
    outcome: Outcome | None = None  # `game.campaign.outcome`: rank_by / won_when
    entries: dict[int, ScheduleEntry] = field(default_factory=dict)  # the schedule, typed
    declared_default: bool = False  # the content names a default type of game (`default_type`)

    @classmethod
    def of(cls, game: Game) -> CampaignModel:
        camp = as_dict(game.meta.get("campaign"))
        games = known(camp.get("games"))
        until = known(camp.get("rewards_in_first_games"))
        pieces = {str(p["id"]): PieceKind(str(p["id"]), str(p.get("section", "factions")), p.get("deck"),
                                          p.get("claim"), str(p.get("name") or p["id"]), cite_of(p))
                  for p in as_list(camp.get("pieces")) if isinstance(p, dict) and p.get("id")}
        if not pieces and game.section("factions"):
            pieces = {"faction": PieceKind("faction", "factions", name="faction")}
        rewards = game.section("rewards")
        types: dict[str, GameType] = {}
        for t in as_list(camp.get("game_types")):
            if isinstance(t, dict) and t.get("id"):
                steps = tuple(_step(s, rewards) for s in as_list(t.get("steps")) if isinstance(s, dict) and s.get("id"))
                plays = tuple(str(p) for p in as_list(t.get("plays"))) or tuple(pieces)[:1]
                types[str(t["id"])] = GameType(str(t["id"]), str(t.get("name") or t["id"]), plays, steps,
                                               bool(t.get("in_order")), cite_of(t))
        if not types:
            types["game"] = GameType("game", "game", tuple(pieces)[:1], _default_steps(rewards))
        schedule = {int(s["game"]): s for s in game.section("schedule").values()
                    if isinstance(s.get("game"), int) and not isinstance(s.get("game"), bool)}
        default = str(camp.get("default_type") or next(iter(types)))
        setup = [_obligation(o) for o in as_list(camp.get("setup")) if isinstance(o, dict) and o.get("place")]
        setup += _sticker_obligations(game.section("stickers"))
        tokens = [Token(str(t["id"]), str(t.get("name") or t["id"]), str(t.get("plural") or f"{t.get('name')}s"),
                        int(t.get("base", 0)), int(t.get("per_signature", 0)),
                        tuple(str(w) for w in as_list(t.get("when"))) or ("always",), cite_of(t))
                  for t in as_list(camp.get("tokens")) if isinstance(t, dict) and t.get("id")]
        starts = _start_checks(camp.get("starts"))
        model = cls(games if isinstance(games, int) else None, until if isinstance(until, int) else None,
                    pieces, types, schedule, default if default in types else next(iter(types)), setup, tokens,
                    starts)
        model.step_stickers = {s for t in types.values() for st in t.steps for s in (*st.stickers, *st.fallback)}
        model.owed_when_opened = [
            OwedWhenOpened(tuple(str(k) for k in as_list(o.get("kinds"))), str(o.get("text") or ""), cite_of(o))
            for o in as_list(camp.get("owed_when_opened")) if isinstance(o, dict)]
        model.team = bool(camp.get("team"))
        model.chapters = _chapters(as_dict(camp.get("chapters")))
        model.tracks = {str(t["id"]): _track(t) for t in as_list(camp.get("tracks"))
                        if isinstance(t, dict) and t.get("id")}
        model.owed_when = [_owed_when(o) for o in as_list(camp.get("owed_when"))
                           if isinstance(o, dict) and o.get("place")]
        model.conditions = {str(c["id"]): c.get("when") for c in as_list(camp.get("conditions"))
                            if isinstance(c, dict) and c.get("id")}
        model.claims = tuple(str(c) for c in as_list(camp.get("claims")))
        model.levels = {str(lv["id"]): Level(str(lv["id"]), str(lv.get("name") or lv["id"]), lv.get("of"),
                                             tuple(int(t) for t in as_list(lv.get("at")) if isinstance(t, int)),
                                             lv.get("per") == "player", cite_of(lv))
                        for lv in as_list(camp.get("levels")) if isinstance(lv, dict) and lv.get("id")}
        model.scenarios = {str(sc["id"]): ScenarioNode(str(sc["id"]), str(sc.get("name") or sc["id"]), sc.get("open"),
                                                       bool(sc.get("again")), cite_of(sc))
                           for sc in as_list(camp.get("scenarios")) if isinstance(sc, dict) and sc.get("id")}
        end, outcome = as_dict(camp.get("end")), as_dict(camp.get("outcome"))
        model.end = End(end.get("when"), str(end.get("text") or ""), str(end.get("cite") or "")) if end else None
        model.outcome = Outcome.of(outcome) if outcome else None
        model.entries = {number: ScheduleEntry.of(s) for number, s in schedule.items()}
        model.declared_default = bool(camp.get("default_type"))
        return model

    # --- lookups -------------------------------------------------------------------------
    def entry(self, number: int) -> ScheduleEntry:
        """Game `number`'s schedule entry (an empty one when the schedule does not list it)."""
        return self.entries.get(number, NO_ENTRY)

    def type_of(self, number: int, asked: str = "") -> str:
        """The type of game `number`: the schedule's, else the one asked for, else the default."""
        entry = self.schedule.get(number)
        if entry is not None and entry.get("type") in self.types:
            return str(entry["type"])
        return asked if asked in self.types else self.default_type

    def play_form(self, number: int, player: str = "NAME") -> str:
        """What `--play` takes in game `number`: `NAME=FACTION`, `NAME=FACTION,CHARACTER`, or `NAME` alone."""
        kinds = [self.pieces[k].name.upper().replace(" ", "-") for k in self.types[self.type_of(number)].plays
                 if k in self.pieces]
        return player + (f"={','.join(kinds)}" if kinds else "")

    def rewarded(self, number: int) -> bool:
        """Whether game `number` gives rewards (games after the campaign's rewarded ones give none)."""
        limit = self.rewards_until if self.rewards_until is not None else self.games
        return limit is None or number <= limit

    def step(self, type_id: str, step_id: str) -> Step | None:
        return next((s for s in self.types[type_id].steps if s.id == step_id), None) if type_id in self.types \
            else None

    def extra_starts(self, number: int) -> list[StartCheck]:
        """Start checks only game `number` adds (its schedule entry's `starts`)."""
        return _start_checks(self.schedule.get(number, {}).get("starts"))

    def claim_kinds(self) -> dict[str, str]:
        """Claim sticker -> the piece kind it claims."""
        return {k.claim: k.id for k in self.pieces.values() if k.claim}


def _chapters(raw: dict[str, Any]) -> Chapters | None:
    if not raw:
        return None
    name = str(raw.get("name") or "chapter")
    count = known(raw.get("count"))
    return Chapters(name, str(raw.get("plural") or f"{name}s"), count if isinstance(count, int) else None,
                    int(raw.get("tries", 1)), str(raw.get("again_after") or "lost"), str(raw.get("try_word") or "try"),
                    cite_of(raw))


def _track(t: dict[str, Any]) -> Track:
    low, high = t.get("min"), t.get("max")
    return Track(str(t["id"]), str(t.get("name") or t["id"]), int(t.get("start", 0)),
                 low if isinstance(low, int) else None, high if isinstance(high, int) else None,
                 {str(k): int(v) for k, v in as_dict(t.get("after")).items() if isinstance(v, int)},
                 str(t.get("text") or ""), cite_of(t))


def _start_checks(raw: Any) -> list[StartCheck]:
    return [StartCheck(str(c["check"]), {k: v for k, v in c.items() if k not in ("check", "cite", "text")},
                       str(c.get("text") or ""), cite_of(c), str(c.get("kind")), str(c.get("zone")), c.get("with"),
                       tuple(as_list(c.get("unless_own"))))
            for c in as_list(raw) if isinstance(c, dict) and c.get("check")]


def _stickers_of(ids: list[Any], rewards: dict[str, dict[str, Any]]) -> tuple[str, ...]:
    out: list[str] = []
    for rid in ids:
        rew = rewards.get(str(rid))
        for sid in as_list(rew.get("place")) if rew else [rid]:
            if str(sid) not in out:
                out.append(str(sid))
    return tuple(out)


def _step(s: dict[str, Any], rewards: dict[str, dict[str, Any]]) -> Step:
    does = str(s.get("does") or "place")
    return Step(str(s["id"]), str(s.get("name") or s["id"]), str(s.get("who") or "winner"), does,
                _stickers_of(as_list(s.get("choose")) + as_list(s.get("place")), rewards),
                _stickers_of(as_list(s.get("fallback")), rewards), s.get("piece"),
                bool(s.get("mandatory", does == "place")), str(s.get("pass_if") or ""),
                tuple(str(x) for x in as_list(s.get("skip"))), cite_of(s), str(s.get("result") or ""),
                str(s.get("order") or ""), tuple(str(x) for x in as_list(s.get("records"))), s.get("when"))


def _default_steps(rewards: dict[str, dict[str, Any]]) -> tuple[Step, ...]:
    """Without declared steps: the winner signs, then one step per reward role, in `rewards` order."""
    steps = [Step("sign", "sign", "winner", "sign", mandatory=False)]
    for role in ROLES:
        ids = [rid for rid, r in rewards.items() if r.get("for") == role]
        if ids:
            steps.append(Step(f"{role}-reward", f"{role} reward", role, "place", _stickers_of(ids, rewards),
                              cite=cite_of(rewards[ids[0]])))
    return tuple(steps)


def _sticker_obligations(stickers: dict[str, dict[str, Any]]) -> list[Obligation]:
    """The older way to say the same: a `required-before-first-game` check on a sticker (its whole pool
    placed, or one on every target it can go on) is a setup obligation before game 1."""
    out = []
    for sid, st in stickers.items():
        for chk in as_list(st.get("checks")):
            if not isinstance(chk, dict) or chk.get("check") != "required-before-first-game":
                continue
            pool = chk.get("pool")
            count = next((p.get("count") for p in as_list(st.get("supply"))
                          if isinstance(p, dict) and p.get("pool") == pool), 0) if pool else 0
            out.append(Obligation(f"{sid}-setup", "setup is finished before the first game", sid, 1,
                                  "" if pool else "target", count if isinstance(count, int) else 0, pool,
                                  cite_of(chk)))
    return out


def _owed_when(o: dict[str, Any]) -> OwedWhen:
    """One `owed_when` entry. A threshold on each target's value (`when: {stat: F, at_least: N}`, what the older
    `field: F, at_least: N` is read as) keeps the threshold's own reading: the value named in what is owed."""
    when: Any = o.get("when")
    field, least = str(o.get("field")), int(o.get("at_least", 1))
    each = str(o.get("each") or "target")
    if isinstance(when, dict) and set(when) == {"stat", "at_least"} and isinstance(when["stat"], str) and \
            isinstance(when["at_least"], int) and not isinstance(when["at_least"], bool) and each == "target":
        field, least, when = when["stat"], when["at_least"], None
    return OwedWhen(str(o.get("id") or o["place"]), str(o.get("targets") or ""), field, least, str(o["place"]),
                    str(o.get("text") or ""), cite_of(o), when, each, bool(o.get("at_once")))


def _obligation(o: dict[str, Any]) -> Obligation:
    return Obligation(str(o.get("id") or o["place"]), str(o.get("text") or ""), str(o["place"]),
                      int(o.get("before_game", 1)), str(o.get("each") or ""), int(o.get("count", 0)),
                      o.get("pool"), cite_of(o))
