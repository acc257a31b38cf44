"""The catalog of legality checks: one generic predicate per name in `checks.schema.json`.

Content names a check with parameters (`{check: target-lacks, kind: city, cite: ...}`); the
predicate gets the placement and the state and returns `None` when the move is fine, or
`(what is wrong, the rule in a few words)`. Predicates know nothing about any particular game
and never change the state. Adding a kind of rule is one schema entry and one function here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scarbook.campaign import lang
from scarbook.campaign.tracks import track_value
from scarbook.compiler.items import CheckSpec, Sticker
from scarbook.compiler.model import Game, components
from scarbook.compiler.words import a, a_game, kind_name, plural, singular_of, words

if TYPE_CHECKING:  # annotations only: the state and the content import the language, which names these checks
    from scarbook.campaign.content import Content, Target
    from scarbook.campaign.state import CampaignState, GameRecord, Mark

Failure = tuple[str, str] | None


def _game(p: Placement) -> Game | None:
    """The game whose names messages use (None for a bare content in a unit test: the ids in words)."""
    return getattr(p.content, "game", None)


@dataclass(frozen=True)
class Placement:
    """A proposed placement: everything a predicate may look at."""

    content: Content
    state: CampaignState
    sticker_id: str
    sticker: Sticker  # the sticker's typed view (compiler/items.py)
    target: Target
    actor: str = ""
    name: str = ""
    pool: str | None = None
    pool_count: int | None = None
    value: int | None = None

    @property
    def label(self) -> str:
        return self.sticker.name or self.sticker_id

    @property
    def where(self) -> str:
        return self.target.id


def _marks_text(marks: list[Any]) -> str:
    return ", ".join(f"{m.sticker}{' ' + repr(m.name) if m.name else ''}" for m in marks)


def slot_free(p: Placement, c: CheckSpec) -> Failure:
    slot = c.slot or p.sticker.slot
    if not slot:
        return None
    cap = p.content.slot_capacity(p.target, slot)
    if cap is None:
        return None
    noun = kind_name(_game(p), slot)
    if cap == 0:
        offered = p.content.offered_by(p.target.kind, slot)
        return (f"{p.where} has no {noun} slot (only {', '.join(offered[:8])}{' …' if len(offered) > 8 else ''} "
                f"offer{'s' if len(offered) == 1 else ''} one)" if offered else f"{p.where} has no {noun} slot",
                f"{a(noun)} goes only where {a(p.target.kind.replace('-', ' '))} declares {a(noun)} slot")
    taken = [m for m in p.state.active_marks(p.target.id) if m.slot == slot and not m.cancels
             and not (m.boxes and m.ticked >= m.boxes)]  # a mark worn out (every box ticked) frees its slot
    if len(taken) >= cap:
        worn = [m for m in taken if m.boxes]
        hint = (f"; {worn[0].sticker} has {plural((worn[0].boxes or 0) - worn[0].ticked, 'box', 'boxes')} left "
                "to tick" if worn else "")
        return (f"{p.where} already has {a(noun) if cap == 1 else plural(cap, noun)} ({_marks_text(taken)}){hint}",
                f"{a(p.target.kind.replace('-', ' '))} holds {plural(cap, noun)}")
    return None


def supply_left(p: Placement, c: CheckSpec) -> Failure:
    pool = c.pool
    if pool is not None and pool != p.pool:
        return None
    if p.pool_count is None:
        return None
    used = p.state.pool_used[(p.sticker_id, p.pool)]
    if used >= p.pool_count:
        where = f" in the {p.pool} supply" if p.pool else ""
        if p.pool_count == 1:
            return (f"no {p.sticker_id} is left{where} (the only one is placed)",
                    f"there is 1 {p.label} sticker{where}")
        return (f"no {p.sticker_id} is left{where} (all {p.pool_count} placed)",
                f"there are {p.pool_count} {p.label} stickers{where}")
    return None


def target_has(p: Placement, c: CheckSpec) -> Failure:
    kind = c.params["kind"]
    if not p.state.has(p.target.id, kind):
        noun = kind_name(_game(p), kind)
        return f"{p.where} has no {noun}", f"{a(p.label)} goes only on {a(noun)}"
    return None


def card_territory_has(p: Placement, c: CheckSpec) -> Failure:
    """The target card's territory carries an active mark of this kind or id (a card destroyed by a mark on its
    territory); a mark that cancels what it covers counts too."""
    kind = c.params["kind"]
    territory = p.content.place(p.target).territory
    if not territory:
        return f"{p.where} is not the card of a territory", f"{a(p.label)} goes only on the card of a territory"
    if not any(m.is_a(kind) for m in p.state.active_marks(str(territory))):
        noun = kind_name(_game(p), kind)
        return f"{territory} has no {noun}", f"{a(p.label)} goes only on the card of a territory with {a(noun)}"
    return None


def target_lacks(p: Placement, c: CheckSpec) -> Failure:
    kind = c.params["kind"]
    found = p.state.has(p.target.id, kind)
    if found:
        noun = kind_name(_game(p), kind)
        return (f"{p.where} already has {a(noun)} ({_marks_text(found)})",
                f"{a(p.label)} goes only where no {noun} stands")
    return None


def target_tagged(p: Placement, c: CheckSpec) -> Failure:
    """The target has the tag `tag` (or lacks it, with `absent: true`): where a sticker may go, declared."""
    tag, absent = str(c.params["tag"]), c.absent
    if (tag in p.content.place(p.target).tags) == absent:
        return (f"{p.where} is {'' if absent else 'not '}{tag}",
                f"{a(p.label)} goes only on a {'territory that is not ' if absent else ''}{tag}"
                f"{'' if absent else ' ' + p.target.kind}")
    return None


def covers_existing(p: Placement, c: CheckSpec) -> Failure:
    covers = p.sticker.covers
    if not any(p.state.has(p.target.id, k) for k in covers):
        what = " or ".join(kind_name(_game(p), k) for k in covers) or "mark"
        return f"{p.where} has no {what} to cover", f"{a(p.label)} goes only over {a(what)}"
    return None


def _applies(p: Placement, c: CheckSpec) -> bool:
    return c.pool is None or c.pool == p.pool


def _last_game(p: Placement) -> Failure:
    if p.state.last_ended is None:
        return "no game has ended yet", "rewards are taken after a game"
    return None


def _need_actor(p: Placement) -> Failure:
    if not p.actor:
        return "say who takes it with --by NAME", "rewards go to players by their result"
    return None


def _reward_game(p: Placement, c: CheckSpec) -> GameRecord | None:
    """The game whose rewards a player is taking, when this check applies and names a player."""
    if not _applies(p, c) or not p.actor:
        return None
    return p.state.last_ended


def actor_is(p: Placement, c: CheckSpec) -> Failure:
    if not _applies(p, c):
        return None
    fail = _last_game(p) or _need_actor(p)
    if fail:
        return fail
    game = p.state.last_ended
    assert game is not None
    role = c.params["role"]
    actual = game.role(p.actor)
    ok = actual == role or (role == "any-finisher" and actual in ("winner", "held-on"))
    if ok:
        return None
    wanted = {"winner": "the winner", "held-on": "players who held on",
              "any-finisher": "the winner and players who held on"}[role]
    did = {"winner": "won", "held-on": "held on", "eliminated": "was eliminated",
           "not played": "did not play"}[actual]
    return f"{p.actor} {did} in game {game.number}", f"{a(p.label)} is for {wanted}"


def actor_not_eliminated(p: Placement, c: CheckSpec) -> Failure:
    game = _reward_game(p, c)
    if game is not None and p.actor in game.eliminated:
        return f"{p.actor} was eliminated in game {game.number}", "eliminated players take no reward"
    return None


def rewards_in_first_games(p: Placement, c: CheckSpec) -> Failure:
    if not _applies(p, c):
        return None
    limit = c.games or p.content.rewards_limit
    game = p.state.last_ended
    if limit and game is not None and game.number > limit:
        return f"game {game.number} gives no rewards", f"only the first {limit} games give rewards"
    return None


def before_first_game(p: Placement, c: CheckSpec) -> Failure:
    if not _applies(p, c):
        return None
    if p.state.started:
        live, n = p.state.in_progress, p.state.started
        said = f"game {live.number} is in progress" if live is not None else (
            "game 1 has been played" if n == 1 else f"{n} games have been played")
        return said, f"{a(p.label)} is placed only before the first game"
    return None


def after_a_game(p: Placement, c: CheckSpec) -> Failure:
    if not _applies(p, c):
        return None
    live = p.state.in_progress
    if live is not None:
        return f"game {live.number} is in progress", "rewards are taken between games, after a game ends"
    return _last_game(p)


def max_value(p: Placement, c: CheckSpec) -> Failure:
    if not _applies(p, c):
        return None
    if c.before_first_game and p.state.started:
        return None
    fieldname, limit = c.params["field"], c.params["max"]
    adds = p.sticker.adds.get(fieldname, 0)
    after = p.state.value(p.content, p.target.id, p.target.item, fieldname, adds if isinstance(adds, int) else 0)
    if after > limit:
        when = " before the first game" if c.before_first_game else ""
        return (f"{p.where} would have {after} {fieldname}", f"at most {limit} {fieldname} per card{when}")
    return None


def min_value(p: Placement, c: CheckSpec) -> Failure:
    """The target's value of `field` (printed, stats included, plus what marks and this sticker add) is at least
    `min`: a mark that needs a value reached, or a sticker that lowers a value, never takes it below its floor."""
    if not _applies(p, c):
        return None
    fieldname, low = c.params["field"], c.params["min"]
    adds = p.sticker.adds.get(fieldname, 0)
    item, stats = p.target.item, p.content.place(p.target).stats
    base = {**item, **stats} if stats is not None else item
    after = p.state.value(p.content, p.target.id, base, fieldname, adds if isinstance(adds, int) else 0)
    if after < low:
        return (f"{p.where} {'would have' if adds else 'has'} {after} {fieldname}",
                f"{a(p.label)} goes only where {fieldname} is at least {low}")
    return None


def next_to(p: Placement, c: CheckSpec) -> Failure:
    """The target territory (or the territory of the target card) is next to one that holds an active mark of
    `kind` (on the territory itself or on its card), or that carries `tag`, on the board as played: marks
    placed later count as soon as they are placed."""
    territory = p.target.id if p.target.kind == "territory" else p.content.place(p.target).territory
    kind, tag = c.kind, c.tag
    what = f"a territory that holds {a(kind)}" if kind else f"a territory that is {tag}"
    rule = f"{a(p.label)} goes only next to {what}"
    if not isinstance(territory, str):
        return f"{p.where} is not a territory nor the card of one", rule
    neighbours = p.content.game.neighbors().get(territory, [])
    cards, places = p.content.card_of_territory, p.content.places_in("territories")

    def holds(t: str) -> bool:
        if tag and t in places and tag in places[t].tags:
            return True
        return bool(kind) and any(p.state.has(x, str(kind)) for x in (t, cards.get(t, "")) if x)

    if not any(holds(n) for n in neighbours):
        return (f"{territory} is not next to {what} (its neighbours: {', '.join(neighbours) or 'none'})", rule)
    return None


def target_deck(p: Placement, c: CheckSpec) -> Failure:
    decks = c.params["decks"]
    deck = p.target.id if p.target.id in p.content.game.section("decks") else p.content.place(p.target).deck
    if deck not in decks:
        named = p.content.places_in("decks")

        def cards_of(d: Any) -> str:  # the deck's printed name ("Territory cards"), else its id
            return (named[d].name if isinstance(d, str) and d in named else "") or f"cards of deck {d}"

        where = f"one of the {cards_of(deck)}" if deck else "in no deck"
        return (f"{p.where} is {where}", f"{a(p.label)} goes only on {' or '.join(cards_of(d) for d in decks)}")
    return None


def card_not_destroyed(p: Placement, c: CheckSpec) -> Failure:
    gone = p.state.destroyed(p.target.id)
    if gone is not None:
        return f"{p.where} was destroyed (line {gone.line})", "a destroyed card takes nothing"
    return None


def actor_controlled_target(p: Placement, c: CheckSpec) -> Failure:
    game = _reward_game(p, c)
    if game is None or p.actor not in game.controlled:
        return None  # control was not recorded: the players' word stands
    territory = p.content.place(p.target).territory if p.target.kind != "territory" else p.target.id
    if territory not in game.controlled[p.actor]:
        return (f"{p.actor} did not control {territory} at the end of game {game.number}",
                "only a territory you controlled at the end of the game")
    return None


#: The scopes a `limit` counts within, in the order its message names them.
SCOPES = ("player", "piece", "target", "game", "draft", "game-type", "campaign")


def limit_number(p: Placement, c: CheckSpec) -> int | None:
    """The N of a limit (`max`): a number, the value of a campaign track now (`{track: ID}`, a level the whole
    table shares) or of one of the target's stats now (`{stat: FIELD}`: printed, plus what its marks add); None
    when it cannot be read (the limit then holds nothing back)."""
    value = c.max
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if c.max_track is not None:
        return track_value(p.content, p.state, c.max_track)
    if c.max_stat is not None:
        stats = p.content.place(p.target).stats
        base = {**p.target.item, **stats} if stats is not None else p.target.item
        return p.state.value(p.content, p.target.id, base, c.max_stat)
    return None


def limit_source(p: Placement, c: CheckSpec) -> str:
    """Where a limit's number comes from, in words (' (the NAME of the track now)'; '' for a plain number)."""
    if c.max_track is not None:
        track = p.content.model.tracks.get(c.max_track)
        return f" (the {track.name if track else c.max_track} now)"
    if c.max_stat is not None:
        return f" (its {c.max_stat} now)"
    return ""


def window(state: CampaignState) -> tuple[str, int]:
    """The stretch of the campaign a placement falls in: during game N, or after game N (0: before game 1)."""
    live = state.in_progress
    if live is not None:
        return "during", live.number
    last = state.last_ended
    return "after", last.number if last else 0


def mark_window(m: Mark) -> tuple[str, int]:
    return ("during", m.during_game) if m.during_game else ("after", m.after_game)


def phase_applies(state: CampaignState, only: Any) -> bool:
    """Whether a check with `only: during-a-game | between-games` applies now (no `only`: always)."""
    if only == "during-a-game":
        return state.in_progress is not None
    if only == "between-games":
        return state.in_progress is None
    return True


def selected(content: Content, of: list[Any]) -> set[str]:
    """The sticker ids a limit's `of` names: a sticker, a kind (or what it founds), a tag, or `{deck: D}` (the
    stickers the cards of deck D carry: a card group)."""
    out: set[str] = set()
    for entry in of:
        if isinstance(entry, dict):
            deck = entry.get("deck")
            for card in content.card_views.values():
                if card.deck == deck:
                    out.update(card.stickers)
            continue
        for sid, st in content.sticker_views.items():
            if entry in (sid, st.kind or None, st.founds_kind) or entry in st.tags:
                out.add(sid)
    return out


def _of_text(p: Placement, c: CheckSpec) -> str:
    if c.name:
        return c.name
    names = []
    for entry in c.of or [p.sticker_id]:
        if isinstance(entry, dict):
            did, decks = entry.get("deck"), p.content.places_in("decks")
            names.append((decks[did].name if isinstance(did, str) and did in decks else "") or f"cards of deck {did}")
        else:
            names.append(str(entry))
    return " or ".join(names)


def limit(p: Placement, c: CheckSpec) -> Failure:
    """At most `max` of `of` (stickers, kinds, tags or a card group) per `per` (player, piece, target, game,
    draft, game-type, campaign; several: per player per game). The one way content says how many."""
    n = limit_number(p, c)
    if n is None:
        return None
    per = list(c.per) or ["campaign"]

    def rule() -> str:  # only for a refusal: its singular may need inflect (never on a legal placement)
        what = _of_text(p, c)
        if n == 1 and c.name:  # the content's name for them is a plural: one of them, in the singular
            what = singular_of(what)
        return (f"at most {n} {what} per {' per '.join(_scope_word(p, s) for s in per)}"
                f"{limit_source(p, c)}")

    if "player" in per and not p.actor:
        return "say who places it with --by NAME", rule()
    state, content = p.state, p.content
    now = window(state)
    if "draft" in per:
        draft = content.model.entry(now[1]).draft
        if now[0] != "during":
            return "no game is in progress: a draft is part of a game", rule()
        if p.sticker_id not in (draft.of if draft else ()):
            return f"game {now[1]} has no draft of {p.label}", rule()
    ids = selected(content, list(c.of or [p.sticker_id]))
    piece = content.piece_of(p.sticker_id, p.target) if "piece" in per else None
    gtype = _type_of(state, now[1])
    found: list[Mark] = []
    seen: set[tuple[int, str]] = set()
    pool = p.state.marks.get(p.target.id, []) if "target" in per else [m for ms in state.marks.values() for m in ms]
    for m in pool:
        if m.sticker not in ids or (m.line, m.sticker) in seen and m.line:
            continue
        if "player" in per and m.by != p.actor:
            continue
        if ("game" in per or "draft" in per) and mark_window(m) != now:
            continue
        if "game-type" in per and _type_of(state, mark_window(m)[1]) != gtype:
            continue
        if piece is not None and content.piece_of(m.sticker, content.target(content.sticker_view(m.sticker),
                                                                            m.target)) != piece:
            continue
        seen.add((m.line, m.sticker))
        found.append(m)
    if len(found) < n:
        return None
    when = ""
    if "game" in per or "draft" in per:
        when = f" in game {now[1]}" if now[0] == "during" else f" after game {now[1]}" if now[1] else " before game 1"
    listed = ", ".join(f"{m.sticker} on {m.target} (line {m.line})" for m in found[:3])
    listed += " …" if len(found) > 3 else ""
    if "player" in per:
        return f"{p.actor} already placed {listed}{when}", rule()
    return f"{listed} {'is' if len(found) == 1 else 'are'} already placed{when}", rule()


def enough_for_each(p: Placement, c: CheckSpec) -> Failure:
    """Scarcity: during a game, `of` is placed only if at the game's start at least as many were left as the game
    has players (dealt one each, or to nobody). Left: each sticker's supply (not a sealed one's), less what was
    placed before the game; an unknown supply holds nothing back."""
    live = p.state.in_progress
    if live is None:
        return None
    left = 0
    for sid in sorted(selected(p.content, list(c.of or [p.sticker_id]))):
        st = p.content.sticker_views.get(sid)
        if st is None or any(o.envelope not in p.state.opened for o in st.checks_named("opened")):
            continue
        supply = st.supply
        if supply is None:
            return None
        before = sum(1 for ms in p.state.marks.values() for m in ms
                     if m.sticker == sid and m.during_game != live.number)
        left += max(supply - before, 0)
    players = len(live.plays)
    if left >= players:
        return None
    what = _of_text(p, c)
    return (f"only {plural(left, what)} {'was' if left == 1 else 'were'} left at the start of game {live.number} for "
            f"{players} players, so nobody gets one in this game",
            f"{plural(2, what).split(' ', 1)[1]} are dealt one to each player, or to nobody if there are not enough")


def _type_of(state: CampaignState, number: int) -> str:
    return state.games[number - 1].type if 0 < number <= len(state.games) else ""


def _scope_word(p: Placement, scope: str) -> str:
    if scope == "target":
        return p.target.kind
    if scope == "piece":
        kind = p.content.piece_kind_of(p.content.piece_of(p.sticker_id, p.target) or "")
        return p.content.model.pieces[kind].name if kind in p.content.model.pieces else "piece"
    if scope == "game-type":
        gtype = p.content.model.types.get(_type_of(p.state, window(p.state)[1]))
        return a_game(gtype.name).split(" ", 1)[1] if gtype else "type of game"
    return scope


def impassable(content: Content, state: CampaignState) -> set[str]:
    """Territories an active mark of a `keeps-board-connected` sticker takes off the board's connections."""
    cutters = {sid for sid, st in content.sticker_views.items() if st.checks_named("keeps-board-connected")}
    return {t for t, ms in state.marks.items() if any(m.active and m.sticker in cutters for m in ms)}


def keeps_board_connected(p: Placement, c: CheckSpec) -> Failure:
    if p.target.kind != "territory":
        return None
    removed = impassable(p.content, p.state) | {p.target.id}
    left = {t: [n for n in ns if n not in removed] for t, ns in p.content.game.neighbors().items() if t not in removed}
    parts = sorted(components(left), key=len)
    if len(parts) > 1:
        cut = sorted(parts[0])
        return (f"{p.where} would cut {', '.join(cut)} off the rest of the board", "the board stays connected")
    return None


def _named_itself(content: Content, sid: str) -> bool:
    view = content.sticker_views.get(sid)
    return view is not None and view.named_itself


def target_unnamed(p: Placement, c: CheckSpec) -> Failure:
    named = [m for m in p.state.active_marks(p.target.id)
             if _named_itself(p.content, m.sticker) and m.name]
    if named:
        by = f" by {named[0].by}" if named[0].by else ""
        return (f"{p.where} was already named {named[0].name!r}{by} (line {named[0].line})",
                f"{a(p.target.kind)} is named once")
    return None


def opened(p: Placement, c: CheckSpec) -> Failure:
    env = c.params["envelope"]
    if env not in p.state.opened:
        return f"packet {env} is not open", f"{a(p.label)} comes into play when {env} is opened"
    return None


def game_number(p: Placement, c: CheckSpec) -> Failure:
    n = p.state.started
    lo, hi = c.min, c.max
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        span = (f"game {lo}" if lo == hi else f"games {lo}-{hi}" if lo is not None and hi is not None
                else f"game {lo} and after" if lo is not None else f"games up to {hi}")  # not 'games 4-4'
        return f"this is game {n}", f"{a(p.label)} is placed only in {span}"
    return None


def required_before_first_game(p: Placement, c: CheckSpec) -> Failure:
    return None  # a placement is always fine; `rules.game_start_problems` enforces it


def placed_once_opened(p: Placement, c: CheckSpec) -> Failure:
    return None  # a placement is always fine; `rules.to_put_in_place` lists what is still to place (status)


def choice_of(p: Placement, c: CheckSpec) -> Failure:
    options = list(p.content.place(p.target).options.get(c.params["field"], ()))
    if p.name not in options:
        got = f"{p.name!r} is not one of them" if p.name else "none was given"
        return (f"choose one of {p.where}'s {c.params['field']} with --name ({', '.join(map(str, options))}); {got}",
                f"{a(p.label)} is one of the {c.params['field']} printed for that {p.target.kind}")
    return None


def start_for_founder(p: Placement, c: CheckSpec) -> Failure:
    return None  # kept for older packs: starting territories are `game.campaign.starts` now


def during_a_game(p: Placement, c: CheckSpec) -> Failure:
    if p.state.in_progress is None:
        return "no game is in progress", f"{a(p.label)} is placed during a game"
    return None


def target_has_own(p: Placement, c: CheckSpec) -> Failure:
    """The target holds a mark of `kind` that is the actor's own (their character's sticker …)."""
    kind = c.params["kind"]
    noun = kind_name(_game(p), kind)
    if not p.actor:
        return "say who places it with --by NAME", f"{a(p.label)} goes beside your own {noun}"
    if not any(p.state.owner(p.content, m) == p.actor for m in p.state.has(p.target.id, kind)):
        return f"{p.where} has no {noun} of {p.actor}'s", f"{a(p.label)} goes only beside your own {noun}"
    return None


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st."""
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def spread_over_regions(p: Placement, c: CheckSpec) -> Failure:
    """No more than `per_region` of one piece's marks in a region until every listed region has that many."""
    piece = p.content.piece_of(p.sticker_id, p.target)
    if piece is None or p.target.kind != "territory":
        return None
    limit = c.per_region
    regions = list(c.regions) or list(p.content.regions)
    kind = c.kind or p.sticker.kind
    counts: dict[str, int] = dict.fromkeys(regions, 0)
    members = p.content.game.region_members()
    for rid in regions:
        for tid in members.get(rid, []):
            counts[rid] += sum(1 for m in p.state.has(tid, kind) if p.content.piece_of(m.sticker, p.target) == piece)
    mine = [r for r in p.content.place(p.target).regions if r in counts]
    short = [r for r in regions if counts[r] < limit]
    for rid in mine:
        if counts[rid] >= limit and short:
            region = words(_game(p))["region"]
            return (f"{piece} already has {plural(counts[rid], kind_name(_game(p), kind))} in {rid}, and "
                    f"{', '.join(short)} {'has' if len(short) == 1 else 'have'} fewer than {limit}",
                    f"no {ordinal(limit + 1)} in one {region.one} until every one has {limit}")
    return None


def steps_value(p: Placement, c: CheckSpec) -> Failure:
    """A sticker that sets one of `fields` (chosen with --name) to a number (--value): one step from the
    current value in the field's direction (+1 up, -1 down); never weaker."""
    fields: dict[str, int] = c.params["fields"]
    if p.name not in fields:
        return (f"choose what it raises with --name ({', '.join(fields)})",
                f"{a(p.label)} changes one of {', '.join(fields)}")
    if p.value is None:
        return "give the number printed on the sticker with --value N", f"{a(p.label)} shows the new value"
    current = p.state.stat(p.content, p.target.id, (p.content.place(p.target).stats or {}).get(p.name), p.name)
    step = fields[p.name]
    if current is None:
        return None  # the printed value is unknown: the players' word stands
    if p.value != current + step:
        return (f"{p.where}'s {p.name} is {current}: the sticker must show {current + step}, not {p.value}",
                f"{p.name} moves by {step:+d}, never weaker")
    return None


def target_card_value(p: Placement, c: CheckSpec) -> Failure:
    """The target's card (the target itself when it is a card, else the card of that territory) is still in
    play and has at least `min` of `field`; with `by: true` the player it concerns is named (who drew it)."""
    fieldname, low = c.params["field"], c.params["min"]
    if c.by and not p.actor:
        return "say with --by NAME which player it is for", f"{a(p.label)} is placed by the player the card is for"
    cid = p.target.id if p.target.id in p.content.cards else p.content.card_of_territory.get(p.target.id)
    rule = f"{a(p.label)} goes where a card with {low} or more {fieldname} is"
    if cid is None:
        return f"{p.where} has no card", rule
    gone = p.state.destroyed(cid)
    if gone is not None:
        return f"{cid} was destroyed (line {gone.line})", rule
    value = p.state.value(p.content, cid, p.content.cards[cid], fieldname)
    if value < low:
        return f"{cid} has {value} {fieldname}", rule
    return None


def game_type(p: Placement, c: CheckSpec) -> Failure:
    """The game in progress (between games: the last one) is of one of `types` (scar cards in global games)."""
    game = p.state.in_progress or p.state.last_ended
    types = list(c.types)
    names = " or ".join(p.content.model.types[t].name if t in p.content.model.types else t for t in types)
    if game is None:
        return "no game has started", f"{a(p.label)} is used in {names} games"
    if game.type not in types:
        gtype = p.content.model.types.get(game.type)
        return (f"game {game.number} is {a_game(gtype.name if gtype else game.type)}",
                f"{a(p.label)} is used only in {names} games")
    return None


def target_is(p: Placement, c: CheckSpec) -> Failure:
    """The target is one of `ids` (a rules sticker goes in its own place)."""
    ids = [str(i) for i in c.params["ids"]]
    if p.target.id not in ids:
        return f"{p.where} is not its place", f"{a(p.label)} goes on {' or '.join(ids)}"
    return None


def in_order(p: Placement, c: CheckSpec) -> Failure:
    """Ordered slots: the target must be the next box of a row filled in order (`ids`, or the places carrying
    `tag` in the content's order), the first not yet filled by a mark of `kind` (default: the sticker's slot,
    else the sticker itself; a mark once placed keeps its box filled, cancelled or retired)."""
    boxes = list(c.ids)
    if not boxes and c.tag:
        tag = c.tag
        boxes = [pid for sec in ("territories", "regions", "cards")
                 for pid, item in p.content.places_in(sec).items() if tag in item.tags]
    kind, slot = c.kind, p.sticker.slot

    def filled(box: str) -> bool:
        return any(not m.cancels and (m.is_a(str(kind)) if kind else (m.slot == slot if slot
                                                                          else m.sticker == p.sticker_id))
                   for m in p.state.marks.get(box, ()))

    row = c.name or c.tag or "boxes"
    rule = f"{a(p.label)} fills the {row} in order: the next free one"
    if p.target.id not in boxes:
        return f"{p.where} is not one of the {row} ({', '.join(boxes[:6])}{' …' if len(boxes) > 6 else ''})", rule
    free = next((b for b in boxes if not filled(b)), None)
    if free is None:
        return f"every one of the {row} is filled", rule
    if free != p.target.id:
        said = "is filled" if filled(p.target.id) else "is not next"
        return f"{p.where} {said}: the next free one of the {row} is {free}", rule
    return None


def when(p: Placement, c: CheckSpec) -> Failure:
    """Any condition of the campaign language (campaign/lang.py) over the target, the player placing and the
    campaign: refused with the condition's `text` and the part that failed, with the values read."""
    verdict = p.content.conditions.holds(c.params["when"], lang.Scope(p.content, p.state, p.actor, p.target, p))
    if verdict.ok:
        return None
    text = c.text
    return verdict.why, text or f"{a(p.label)} goes only where its condition holds"


CHECKS: dict[str, Callable[[Placement, CheckSpec], Failure]] = {
    "actor-controlled-target": actor_controlled_target,
    "actor-is": actor_is,
    "actor-not-eliminated": actor_not_eliminated,
    "after-a-game": after_a_game,
    "before-first-game": before_first_game,
    "card-not-destroyed": card_not_destroyed,
    "card-territory-has": card_territory_has,
    "choice-of": choice_of,
    "covers-existing": covers_existing,
    "during-a-game": during_a_game,
    "enough-for-each": enough_for_each,
    "game-number": game_number,
    "game-type": game_type,
    "keeps-board-connected": keeps_board_connected,
    "limit": limit,
    "max-value": max_value,
    "min-value": min_value,
    "next-to": next_to,
    "opened": opened,
    "placed-once-opened": placed_once_opened,
    "required-before-first-game": required_before_first_game,
    "rewards-in-first-games": rewards_in_first_games,
    "slot-free": slot_free,
    "spread-over-regions": spread_over_regions,
    "start-for-founder": start_for_founder,
    "steps-value": steps_value,
    "supply-left": supply_left,
    "target-card-value": target_card_value,
    "target-deck": target_deck,
    "target-has": target_has,
    "target-has-own": target_has_own,
    "target-is": target_is,
    "target-lacks": target_lacks,
    "target-tagged": target_tagged,
    "target-unnamed": target_unnamed,
    "in-order": in_order,
    "when": when,
}
lang.register_checks(CHECKS)  # the language names, negates and combines every check

#: The diagnostic code each check's refusals carry.
CODES: dict[str, str] = {
    "supply-left": "R201", "slot-free": "R202", "target-has": "R203", "covers-existing": "R204",
    "actor-is": "R205", "actor-not-eliminated": "R206", "rewards-in-first-games": "R208",
    "before-first-game": "R209", "target-lacks": "R210", "after-a-game": "R211", "max-value": "R212",
    "target-deck": "R214", "card-not-destroyed": "R215", "actor-controlled-target": "R216",
    "keeps-board-connected": "R217", "target-unnamed": "R218", "opened": "R219", "game-number": "R220",
    "required-before-first-game": "R221", "choice-of": "R222", "start-for-founder": "R223",
    "during-a-game": "R230", "target-has-own": "R231", "spread-over-regions": "R232", "steps-value": "R233",
    "target-card-value": "R234", "target-is": "R235", "placed-once-opened": "R221",
    "target-tagged": "R236", "card-territory-has": "R237", "limit": "R238", "game-type": "R239", "next-to": "R250",
    "min-value": "R251", "in-order": "R252", "when": "R241", "enough-for-each": "R242",
}


def cite_text(cite: Any) -> str:
    if isinstance(cite, list):
        return "; ".join(str(c) for c in cite)
    return str(cite or "")
