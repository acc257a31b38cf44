"""What is legal now: placements, game starts and ends, openings; sealed-packet triggers.

Each function takes the effective content and the state and returns `Diagnostic`s (empty: legal).
Placement legality is entirely the checks the sticker's content names (`checks.CHECKS`); the
rest is the campaign's own bookkeeping (a game must end before the next starts, players and
factions exist, entitled players take their reward). Never changes the state.
"""

from __future__ import annotations

from dataclasses import dataclass

from scarbook.campaign import drafts, shape, steps
from scarbook.campaign.checks import CHECKS, CODES, Placement, a, cite_text, impassable, phase_applies, plural
from scarbook.campaign.content import Content, Target
from scarbook.campaign.events import (
    Destroyed,
    Event,
    GameEnded,
    GameStarted,
    Joined,
    Left,
    Linked,
    Opened,
    PackAdded,
    Passed,
    Placed,
    Retired,
    Ticked,
)
from scarbook.campaign.ids import normalize, pick
from scarbook.campaign.links import link_problem, owed_lines
from scarbook.campaign.model import CampaignModel, Step
from scarbook.campaign.starts import START_CHECKS
from scarbook.campaign.state import CampaignState, GameRecord, pool_for, retiring
from scarbook.compiler.items import Envelope, Links, Meta, Place, Players, Sticker
from scarbook.compiler.model import Game
from scarbook.compiler.words import a_game, words
from scarbook.kernel.diagnostics import Diagnostic, did_you_mean, refusal


# --- resolving what a person typed ------------------------------------------------------------
@dataclass(frozen=True)
class Resolved:
    """A placement as the rules read it: the sticker, its target, who places it, its name and value."""

    sticker_id: str
    view: Sticker  # the sticker's typed view (compiler/items.py)
    target: Target
    actor: str
    name: str
    value: int | None = None


def player_name(state: CampaignState, raw: str) -> str | None:
    return state.by_lower.get(raw.strip().lower())


def unknown_player(content: Content, state: CampaignState, raw: str) -> Diagnostic:
    """R104: a name that is not one of the campaign's players, citing where the game says who plays."""
    return refusal("R104", f"'{raw}' is not a player of this campaign{did_you_mean(raw, state.players)}; players: "
                   f"{', '.join(state.players)}",
                   "a campaign's players are those named when it began ('scarbook campaign new --player NAME')",
                   _players_cite(content))


def unknown_sticker(content: Content, raw: str) -> Diagnostic:
    """R101: a sticker the game's content does not list (a sealed one is R310 instead)."""
    sid = normalize(raw)
    return refusal("R101", f"unknown sticker '{raw}'{did_you_mean(sid, content.stickers)}; stickers: "
                   f"{', '.join(content.stickers)}",
                   f"the stickers and marks of {content.game.title} are those its content lists",
                   _file_cite(content, "stickers"))


def _file_cite(content: Content, section: str) -> str:
    """Where a section's items come from: the cites of the file that lists its first item (its top-level
    `source`), else that item's own; else where the rulebook describes a game."""
    game = content.game
    for iid, item in game.section(section).items():
        found = game.file_cites.get(game.span(iid).file) or list(Place.of(iid, item).cites)
        if found:
            return cite_text(found)
    return _type_cite(content)


def _players_cite(content: Content) -> str:
    """Where the game says what each player plays (its first piece kind's cite), else its game type's."""
    return next((p.cite for p in content.model.pieces.values() if p.cite), "") or _type_cite(content)


def _about_to_place(content: Content, state: CampaignState, sticker_id: str) -> Diagnostic | None:
    for eid, env in content.envelope_views.items():
        if env.about_to_place() == sticker_id and eid not in state.opened:
            return refusal("R310", f"open the sealed packet '{eid}' first: {env.name}", env.trigger_text, env.cite)
    return None


def _sealed_in(content: Content, state: CampaignState, item_id: str) -> Diagnostic | None:
    """A sticker (or anything) the players cannot have yet: listed in the contents of a packet still sealed."""
    for eid, env in content.envelope_views.items():
        if eid not in state.opened and env.contents is not None and item_id in env.contents:
            return refusal("R310", f"'{item_id}' is sealed in the packet '{eid}' ({env.name}): open "
                           f"packet {eid} first ('scarbook campaign open {eid}')",
                           env.trigger_text or "a sealed packet's contents are used once it is opened", env.cite)
    return None


def _choice_sticker(content: Content, option: str) -> tuple[str, str] | None:
    """A candidate option (a faction's power) -> (the sticker that records the choice, its target)."""
    owner = content.powers.get(option)
    if owner is None:
        return None
    for sid, st in content.sticker_views.items():
        for chk in st.checks_named("choice-of"):
            if option in content.options_of(owner, chk.field):
                return sid, owner
    return None


def resolve(content: Content, state: CampaignState, sticker_raw: str, target_raw: str, by: str = "",
            name: str = "", value: int | None = None) -> Resolved | Diagnostic:
    sid = pick(sticker_raw, content.stickers)
    if sid not in content.stickers:
        choice = _choice_sticker(content, sid)
        if choice is not None:
            name, sid = sid, choice[0]
        else:
            return (_about_to_place(content, state, sid) or _sealed_in(content, state, sid)
                    or unknown_sticker(content, sticker_raw))
    sticker = content.sticker_views[sid]
    actor = ""
    if by:
        found = player_name(state, by)
        if found is None:
            return unknown_player(content, state, by)
        actor = found
    target = content.resolve(sticker, target_raw)
    if target is None:
        sealed = _sealed_in(content, state, normalize(target_raw))  # a card still in its packet: say so
        if sealed is not None:
            return sealed
        kinds = " or ".join(k.replace("-", " ") for k in sticker.targets)
        hint = did_you_mean(normalize(target_raw), content.target_names(sticker))
        return refusal("R102", f"'{target_raw}' is not {a(kinds)} that {a(sticker.name)} can go on{hint}; see "
                       f"'scarbook campaign where {sid}'", f"{a(sticker.name)} goes on {a(kinds)}", sticker.cite)
    if not actor:
        actor = default_actor(content, state, sticker)
    return Resolved(sid, sticker, target, actor, name.strip(), value)


def default_actor(content: Content, state: CampaignState, sticker: Sticker) -> str:
    """The player a reward must be for when only one can take it (the winner, a lone held-on player)."""
    game = state.last_ended
    if game is None or state.in_progress is not None:
        return ""
    sid = sticker.id
    if steps.offered_now(content, state, sid):
        actors = {o.actor for o in steps.open_entries(content, state) if o.step.offers(sid)}
        if len(actors) == 1:
            return actors.pop()
    pool, _ = pool_for(state, sticker)
    roles = {c.role for c in sticker.checks_named("actor-is") if c.pool in (None, pool)}
    if roles == {"winner"}:
        return game.winner
    if roles == {"held-on"}:
        waiting = [p for p in game.held_on if (game.number, p) not in state.rewards]
        return waiting[0] if len(waiting) == 1 else ""
    return ""


# --- placements -----------------------------------------------------------------------------
def placement_problems(content: Content, state: CampaignState, r: Resolved, in_order: bool = True) -> list[Diagnostic]:
    """Everything wrong with this placement now (`in_order=False`: as if earlier steps were done, to
    ask whether something could go there at all)."""
    waiting = _about_to_place(content, state, r.sticker_id)  # a packet to open as someone is about to place it
    if waiting is not None:
        return [waiting]
    out: list[Diagnostic] = []
    view = r.view
    pool, count = pool_for(state, view)
    p = Placement(content, state, r.sticker_id, view, r.target, r.actor, r.name, pool, count, r.value)
    for chk in view.checks:
        name = chk.check
        fn = CHECKS.get(name)
        if fn is None:
            out.append(refusal("R299", f"the content names an unknown check '{name}'"))
            continue
        if not phase_applies(state, chk.only):
            continue
        try:
            failure = fn(p, chk)
        except Exception as exc:  # a crashing check is one more diagnostic, never a traceback
            out.append(refusal("R298", f"check '{name}' failed on this placement: {type(exc).__name__}: {exc}"))
            continue
        if failure is not None and all((q.message, q.rule) != failure for q in out):
            out.append(refusal(CODES.get(name, "R200"), failure[0], failure[1], chk.cite))
    if view.named and not r.name:
        out.append(refusal("R224", f"give the {view.name} its name with --name TEXT", "the player names it",
                           view.cite))
    if not out:
        out.extend(at_once_problems(content, state, r.sticker_id))
    if not out:
        out.extend(step_problems(content, state, r, in_order))
    return out


def at_once_problems(content: Content, state: CampaignState, sticker_id: str) -> list[Diagnostic]:
    """R317: an `owed_when` obligation marked `at_once` is owed now; nothing else may be placed until it is
    (whether the owed sticker could go there is not asked: an obligation at once is met first)."""
    if not any(o.at_once for o in content.model.owed_when):
        return []
    out = []
    for o in shape.owed_now(content, state, lambda _sid, _t: True):
        if o.rule.at_once and o.rule.place != sticker_id:
            out.append(refusal("R317", f"first {o.said} ('scarbook campaign place {o.rule.place} "
                               f"{o.target or 'TARGET --by ' + o.player}'): it is owed at once",
                               o.rule.text or "an obligation at once comes before any other placement", o.rule.cite))
    return out


def _step_rule(o: steps.Owed) -> tuple[str, str]:
    return _rule_of_step(o.step)


def _rule_of_step(step: Step) -> tuple[str, str]:
    """(who takes an end-of-game step, where the rulebook says so)."""
    who = {"everyone": "every player", "winner": "the winner", "held-on": "each player who held on",
           "eliminated": "each eliminated player",
           "winner-for-unassigned": "the winner, for each one nobody played",
           "team": "the team, once (any player)"}.get(step.who, step.who)
    return f"{step.name}: {who}", step.cite


def step_problems(content: Content, state: CampaignState, r: Resolved, in_order: bool = True) -> list[Diagnostic]:
    """A placement that takes an end-of-game step: the right player, one each, in order, fallbacks last."""
    if not steps.offered_now(content, state, r.sticker_id):
        return _no_step_offers(content, state, r)
    game = state.last_ended
    assert game is not None
    label = content.sticker_views[r.sticker_id].name
    if not content.model.rewarded(game.number):
        return [refusal("R208", f"game {game.number} gives no rewards",
                        f"only the first {content.rewards_limit} games give rewards", _model_cite(content))]
    if not r.actor:
        return [refusal("R205", f"say who takes the {label} with --by NAME", "each step is taken by a player")]
    open_now = steps.open_entries(content, state)
    offering = [o for o in steps.entitled(content, game, state) if o.step.offers(r.sticker_id)]
    mine = [o for o in offering if o.takes(r.actor)]
    owed = steps.assign(content, state, r.sticker_id, r.target, r.actor)
    if owed is None:
        piece = content.piece_of(r.sticker_id, r.target)
        others = [o for o in open_now if o.step.offers(r.sticker_id) and piece and o.piece == piece
                  and not o.takes(r.actor)]
        if others:
            return [refusal("R205", f"{others[0].actor} takes '{others[0].step.name}' for {piece}, not {r.actor}",
                            *_step_rule(others[0]))]
        if not mine:
            rule, cite = _step_rule(offering[0]) if offering else _unowed_rule(content, game, r.sticker_id)
            return [refusal("R205", f"{r.actor} has no step after game {game.number} that places {a(label)}",
                            rule, cite)]
        taken = [o for o in mine if o.key in state.steps]
        waiting = [o for o in mine if o.key not in state.steps]
        if waiting:
            pieces = ", ".join(o.piece for o in waiting if o.piece)
            piece = content.piece_of(r.sticker_id, r.target)
            return [refusal("R225", f"{r.actor} takes '{waiting[0].step.name}' for {pieces}, not for "
                            f"{piece or r.target.id}", *_step_rule(waiting[0]))]
        o = taken[0]
        return [refusal("R207", f"{o.actor and r.actor or o.who} already took '{o.step.name}' after game {game.number}"
                        f"{' for ' + o.piece if o.piece else ''} ({state.steps[o.key]})", *_step_rule(o))]
    if r.sticker_id in owed.step.fallback and r.sticker_id not in owed.step.stickers:
        for sid in owed.step.stickers:
            if sid in content.stickers and where(content, state, sid, r.actor, in_order=False):
                return [refusal("R226", f"{a(label)} is a fallback of '{owed.step.name}', and {a(sid)} can still be "
                                f"placed (see 'scarbook campaign where {sid} --by {r.actor}')", *_step_rule(owed))]
    if owed.step.order == "clockwise-from-winner" and in_order and game.seating:
        before = _seated_before(game, owed, open_now)
        if before:
            o = before[0]
            may_pass = not o.step.mandatory or o.step.pass_if
            return [refusal("R240", f"{o.actor} chooses '{o.step.name}' before {r.actor} (clockwise from the "
                            f"winner, {game.winner}: {', '.join(_clockwise(game))}); wait for {o.actor}'s choice"
                            + (f" or pass ('scarbook campaign pass {o.step.id} --by {o.actor}')" if may_pass else ""),
                            f"{owed.step.name}: in turn, clockwise from the winner", owed.step.cite)]
    if owed.step.order == "winner-first" and in_order and r.actor != game.winner:
        first = [o for o in open_now if o.step.id == owed.step.id and o.actor == game.winner]
        if first:
            own = f" for {first[0].piece}" if first[0].piece else ""
            return [refusal("R240", f"the winner, {game.winner}, takes '{owed.step.name}' first{own}, then says in "
                            f"which order the others take it; wait for {game.winner}",
                            f"{owed.step.name}: the winner first, choosing the order", owed.step.cite)]
    gtype = content.model.types[game.type]
    if gtype.in_order and in_order:
        earlier = [o for o in open_now if o.index < owed.index and o.step.mandatory]
        if earlier:
            return [refusal("R227", f"first: {earlier[0].text()}; then {owed.step.name}",
                            f"the end of {a_game(gtype.name)} goes step by step", gtype.cite or earlier[0].step.cite)]
    return []


def _clockwise(game: GameRecord) -> list[str]:
    """The players of the game in seating order, starting with the one left of the winner."""
    seats = [p for p in game.seating if p in game.plays]
    if game.winner not in seats:
        return seats
    at = seats.index(game.winner)
    return seats[at + 1:] + seats[:at]


def _seated_before(game: GameRecord, owed: steps.Owed, open_now: list[steps.Owed]) -> list[steps.Owed]:
    """Open entries of the same step whose player sits before `owed`'s, clockwise from the winner."""
    order = _clockwise(game)
    if owed.actor not in order:
        return []
    mine = order.index(owed.actor)
    return sorted((o for o in open_now if o.step.id == owed.step.id and o.actor in order
                   and order.index(o.actor) < mine), key=lambda o: order.index(o.actor))


def _unowed_rule(content: Content, game: GameRecord, sticker: str) -> tuple[str, str]:
    """The step of the game's type that offers a sticker though this game owes it to nobody (a step owed only after
    the other team result), as (who takes it and when, where the rulebook says so)."""
    gtype = content.model.types.get(game.type)
    step = next((st for st in gtype.steps if st.offers(sticker)), None) if gtype else None
    if step is None:
        return "", ""
    rule, cite = _rule_of_step(step)
    return (rule + (f", only after a {step.result} game" if step.result else "")), cite


def _no_step_offers(content: Content, state: CampaignState, r: Resolved) -> list[Diagnostic]:
    """R239: a sticker only end-of-game steps offer, placed when no step of the last game offers it (after a game
    of another type, or during a game); before game 1 setup decides, and a game's schedule entry may place it
    besides the steps (`places`)."""
    if r.sticker_id not in content.model.step_stickers:
        return []
    game = state.last_ended
    if game is None and state.in_progress is None:
        return []
    if game is not None and state.in_progress is None and \
            r.sticker_id in content.model.entry(game.number).places:
        return []
    offering = [(t, s) for t in content.model.types.values() for s in t.steps if s.offers(r.sticker_id)]
    kinds = sorted({t.name for t, _ in offering})
    label = content.sticker_views[r.sticker_id].name
    step = offering[0][1]
    if state.in_progress is not None:
        return [refusal("R239", f"game {state.in_progress.number} is in progress; {a(label)} is placed at the end of "
                        f"{a_game(' or '.join(kinds))} ('{step.name}')", *_rule_of_step(step))]
    assert game is not None
    gtype = content.model.types.get(game.type)
    return [refusal("R239", f"game {game.number} was {a_game(gtype.name if gtype else game.type)}, and no step after "
                    f"it places {a(label)} (it is '{step.name}', after {a_game(' or '.join(kinds))})",
                    *_rule_of_step(step))]


def _players_text(players: Players) -> str:
    low, high = players.min, players.max
    if isinstance(low, int) and isinstance(high, int):
        return f"{low} to {high} players"
    return f"at least {low} players" if isinstance(low, int) else f"at most {high} players"


def _type_cite(content: Content) -> str:
    """Where the rulebook describes a game (its first game type's cite)."""
    return next((t.cite for t in content.model.types.values() if t.cite), "") or _model_cite(content)


def _game_cite(content: Content) -> str:
    """Where the game as a whole comes from: the `source` of its files (the game's own file first), not one of
    its rules' sections."""
    return next((c for cs in content.game.file_cites.values() for c in cs if c), "")


def _model_cite(content: Content) -> str:
    return model_cite(content.model)


def model_cite(model: CampaignModel) -> str:
    """The first cite of the game's steps: where the rulebook describes a game, for rules it gives no section."""
    return next((s.cite for t in model.types.values() for s in t.steps if s.cite), "")


def where(content: Content, state: CampaignState, sticker_id: str, actor: str = "", piece: str = "",
          in_order: bool = True, only: str | None = None) -> list[str]:
    """Every target where the sticker could legally go now (for that player; for that piece, if given;
    `in_order=False`: once the earlier end-of-game steps are done; `only`: asking of that one target)."""
    view = content.sticker_views[sticker_id]
    if not actor:
        actor = default_actor(content, state, view)
    out = []
    for kind in view.targets:
        for tid in content.target_ids(kind, view):
            if only is not None and tid != only:
                continue
            target = content.target_of_kind(kind, tid)
            if piece and content.piece_of(sticker_id, target) not in (None, piece):
                continue
            for name, value in _choices(content, state, view, target):
                r = Resolved(sticker_id, view, target, actor, name or "x", value)
                if not [q for q in placement_problems(content, state, r, in_order) if q.code != "R224"]:
                    out.append(tid)
                    break
    return out


def legal_now(content: Content, state: CampaignState, sticker_id: str, target: Target) -> bool:
    """Whether the sticker could go on the target now, by whoever may place it (a name it needs aside)."""
    r = Resolved(sticker_id, content.sticker_views[sticker_id], target, "", "")
    return not [q for q in placement_problems(content, state, r, in_order=False) if q.code != "R224"]


def _choices(content: Content, state: CampaignState, sticker: Sticker,
             target: Target) -> list[tuple[str, int | None]]:
    """The (--name, --value) pairs a placement on `target` could be given, so that `where`, `status` and the owed
    steps see a sticker that needs them: one of the options of a `choice-of` check (a faction's powers), each field
    of a `steps-value` check with the value one step on; else a name only a `named` sticker needs."""
    out: list[tuple[str, int | None]] = []
    for chk in sticker.checks:
        if chk.check == "choice-of":
            field = chk.field or "powers"
            out += [(str(o), None) for o in content.place(target).options.get(field, ())]
            if not out:
                return [("", None)]
        elif chk.check == "steps-value" and chk.fields is not None:
            for name, step in chk.fields.items():
                base = (content.place(target).stats or {}).get(name)
                current = state.stat(content, target.id, base, name)
                out.append((str(name), (current if current is not None else 0) + int(step)))
    return out or [("x", None)]


# --- games ------------------------------------------------------------------------------------
def start_problem(content: Content, state: CampaignState, player: str, territory: str,
                  number: int | None = None) -> Diagnostic | None:
    """Why `territory` is not a legal starting territory for `player` (None: it is): the checks listed
    in `campaign.starts`, except those the schedule lifts for game `number`."""
    number = number if number is not None else state.started + 1
    lifted = set(content.model.entry(number).ignore_starts)
    for chk in content.model.starts + content.model.extra_starts(number):
        if chk.check in lifted:
            continue
        fn = START_CHECKS.get(chk.check)
        why = fn(content, state, player, territory, chk) if fn else None
        if why:
            return refusal("R305", f"{territory} is not a legal starting territory for {player} ({why})",
                           chk.text, chk.cite)
    return None


def legal_starts(content: Content, state: CampaignState, player: str) -> list[str]:
    """Territories that are legal starting territories for a player (occupation aside)."""
    return [t for t in content.territories if start_problem(content, state, player, t) is None]


def blocking(content: Content, state: CampaignState) -> list[steps.Owed]:
    """Owed steps that keep the next game from starting: mandatory, not taken or passed, and with
    something legal to place (a step with nothing legal left is over by itself)."""
    out = []
    for o in steps.open_entries(content, state):
        if not o.step.mandatory:
            continue
        actor = o.actor or next(iter(o.players), "")
        if o.step.pass_if or any(s in content.stickers and where(content, state, s, actor, o.piece, in_order=False)
                                 for s in (*o.step.stickers, *o.step.fallback)):
            out.append(o)
    return out


def owed_rewards(content: Content, state: CampaignState) -> list[tuple[str, str]]:
    """(player, step) still owed after the last game: they must take it (or pass) before the next."""
    return [(o.who, o.step.name + (f" for {o.piece}" if o.piece and o.piece != o.actor else ""))
            for o in blocking(content, state)]


def game_start_problems(content: Content, state: CampaignState, ev: GameStarted) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    live = state.in_progress
    if live is not None:
        how = "--team won|lost" if content.model.team else "--winner NAME"
        return [refusal("R301", f"game {live.number} has not ended; record its end with 'scarbook campaign game "
                        f"end {how}' first", "a game's permanent changes are made after it ends, before the "
                        "next game", _type_cite(content))]
    number = state.started + 1
    model = content.model
    over = shape.start_problems(content, state)
    if over:
        return over
    for o in blocking(content, state):
        by = o.actor or "NAME"
        out.append(refusal("R304", f"{o.who} has not taken '{o.text()}' for game {o.game} yet (place it, see "
                           f"'scarbook campaign where STICKER --by {by}', or 'scarbook campaign pass "
                           f"{o.step.id} --by {by}{' --for ' + o.piece if o.piece else ''}')",
                           *_step_rule(o)))
    for eid in pending(content, state):
        env = content.envelope_views[eid]
        out.append(refusal("R310", f"open the sealed packet '{eid}' first: {env.name} "
                           f"('scarbook campaign open {eid}')", env.trigger_text, env.cite))
    out.extend(setup_problems(content, state, number))
    out.extend(owed_once_opened(content, state))
    out.extend(shape.owed_problems(content, state, lambda sid, t: legal_now(content, state, sid, t)))
    owed: list[tuple[str, str, int]] = []
    if any(state.placed.get(sid) for sid in content.line_stickers):
        carriers: dict[str, list[str]] = {}  # only when a placed sticker brings lines: every game start asks
        for t, marks in state.marks.items():
            for m in marks:
                carriers.setdefault(m.sticker, []).append(t)
        owed = owed_lines(content.game, state.placed, state.links, carriers)
    for sid, territory, left in owed:
        st = content.sticker_views.get(sid)
        out.append(refusal("R344", f"{territory} still needs {left} line{'' if left == 1 else 's'} of the {sid} "
                           f"('scarbook campaign link {sid} {territory} TERRITORY')",
                           st.links.text if st else "", st.cite if st else ""))
    if ev.type and ev.type not in model.types:
        out.append(refusal("R308", f"unknown type of game '{ev.type}'{did_you_mean(ev.type, model.types)}; "
                           f"types: {', '.join(model.types)}"))
    elif not ev.type and ev.index < 0 and _must_ask_type(content, number):  # a new entry: old ledgers still read
        out.append(refusal("R308", f"say which type of game {number} is with --type "
                           f"({' or '.join(model.types)})", f"{content.game.title} has several types of game",
                           _type_cite(content)))
    out.extend(_scenario_problems(content, state, ev))
    gtype = model.types[model.type_of(number, ev.type)]
    out.extend(_plays_problems(content, state, ev, gtype.plays, number))
    too = player_count_problem(content.game, len(ev.plays), _game_cite(content) or _model_cite(content))
    if too is not None:
        out.append(too)
    played = {player_name(state, p) for p, _ in ev.plays}
    out.extend(_seating_problems(content, state, ev, played))
    seen_starts: dict[str, str] = {}
    start_rule = next(((c.text, c.cite) for c in model.starts), ("each player of the game starts in one territory",
                                                                  _model_cite(content)))
    for raw_player, raw_terr in ev.starts:
        starter = player_name(state, raw_player)
        terr = normalize(raw_terr)
        if starter not in played:
            out.append(refusal("R305", f"{raw_player} does not play in this game", *start_rule))
        elif starter in seen_starts.values():
            out.append(refusal("R305", f"{starter} is given two starting territories",
                               "each player starts in one territory", start_rule[1]))
        elif terr in seen_starts:
            out.append(refusal("R305", f"{seen_starts[terr]} and {starter} cannot both start in {terr}",
                               "a starting territory holds one player's HQ", start_rule[1]))
        elif terr not in content.territories:
            out.append(refusal("R305", f"unknown territory '{raw_terr}'{did_you_mean(terr, content.territories)}",
                               *start_rule))
        elif starter:
            problem = start_problem(content, state, starter, terr, number)
            if problem is not None:
                out.append(problem)
        if starter and terr:
            seen_starts.setdefault(terr, starter)
    return out


def _must_ask_type(content: Content, number: int) -> bool:
    """Whether game `number`'s type must be said: several types, none scheduled for it, no declared default."""
    model = content.model
    scheduled = model.entry(number).type in model.types
    declared = model.declared_default
    return len(model.types) > 1 and not scheduled and not declared


def _scenario_problems(content: Content, state: CampaignState, ev: GameStarted) -> list[Diagnostic]:
    """R352: in a campaign played as a graph of scenarios, the game names one that is open now."""
    scenarios = content.model.scenarios
    cite = next((sc.cite for sc in scenarios.values() if sc.cite), "") or _game_cite(content) or _model_cite(content)
    if not scenarios:
        if ev.scenario:
            return [refusal("R352", f"{content.game.title} has no scenarios to choose; leave out --scenario",
                            "only a campaign played as a graph of scenarios names one", cite)]
        return []
    open_now = [s for s in scenarios if shape.scenario_locked(content, state, s) is None]
    listing = ", ".join(open_now) or "none"
    if not ev.scenario:
        return [refusal("R352", f"say which scenario this game plays with --scenario ID (open now: {listing})",
                        "each game plays one open scenario", cite)]
    sid = pick(ev.scenario, scenarios)
    if sid not in scenarios:
        return [refusal("R352", f"unknown scenario '{ev.scenario}'{did_you_mean(sid, scenarios)}; open now: "
                        f"{listing}", "each game plays one open scenario", cite)]
    why = shape.scenario_locked(content, state, sid)
    if why is not None:
        sc = scenarios[sid]
        return [refusal("R352", f"{sc.name} is not open: {why} (open now: {listing})",
                        f"{sc.name} is played only once it is open", sc.cite or cite)]
    return []


def _seating_problems(content: Content, state: CampaignState, ev: GameStarted,
                      played: set[str | None]) -> list[Diagnostic]:
    """R309: a seating names every player of the game once, and only players of the campaign."""
    if not ev.seating:
        return []
    rule = ("--seating lists the players of the game clockwise around the table, each once",
            next((st.cite for t in content.model.types.values() for st in t.steps if st.order), "")
            or _model_cite(content))
    seated = [player_name(state, p) for p in ev.seating]
    unknown = [raw for raw, p in zip(ev.seating, seated, strict=True) if p is None]
    if unknown:
        return [refusal("R309", f"{unknown[0]} is not a player of this campaign ({', '.join(state.players)})",
                        *rule)]
    twice = sorted({p for p in seated if seated.count(p) > 1}, key=str)
    if twice:
        return [refusal("R309", f"{twice[0]} is seated twice", *rule)]
    missing = [p for p in played if p and p not in seated]
    if missing:
        return [refusal("R309", f"the seating leaves out {', '.join(sorted(missing))}, who plays this game", *rule)]
    return []


def starts_asked(content: Content, state: CampaignState, ev: GameStarted) -> str:
    """A note for a game start that leaves out where players started, when the game type's record step writes the
    starting territory down ('' nothing to ask)."""
    number = state.started + 1
    gtype = content.model.types.get(content.model.type_of(number, ev.type))
    step = next((st for st in gtype.steps if "start" in st.records), None) if gtype else None
    given = {player_name(state, p) for p, _ in ev.starts}
    missing = [p for p, _ in ev.plays if player_name(state, p) not in given]
    if step is None or not missing:
        return ""
    word = words(content.game)["start"].one
    return (f"note: '{step.name}' writes down each player's {word}; not recorded for {', '.join(missing)}. "
            f"Undo and start again with --start NAME=TERRITORY to keep it ({step.cite})")


def _plays_problems(content: Content, state: CampaignState, ev: GameStarted, kinds: tuple[str, ...],
                    number: int) -> list[Diagnostic]:
    """Every player gives one piece of each kind the game records; pieces once each; others' own pieces refused."""
    out: list[Diagnostic] = []
    seen_players: set[str] = set()
    seen_pieces: dict[str, str] = {}
    def wanted() -> str:  # the words and the rule only for a refusal (a legal start, ~5,000 a long campaign, asks none)
        return " and ".join(content.model.pieces[k].name for k in kinds if k in content.model.pieces) or "nothing"

    def rule() -> tuple[str, str]:  # its article may need inflect (never on a legal start)
        gtype = content.model.types[content.model.type_of(number, ev.type)]
        piece_cite = next((content.model.pieces[k].cite for k in kinds if k in content.model.pieces
                           and content.model.pieces[k].cite), "")
        return (f"{a_game(gtype.name)} records each player's {wanted()}, each played by one player",
                piece_cite or gtype.cite)

    gone = steps.gone_pieces(state, number)
    for raw_player, raw_ids in ev.plays:
        player = player_name(state, raw_player)
        if player is None:
            out.append(unknown_player(content, state, raw_player))
            continue
        if player in seen_players:
            out.append(refusal("R303", f"{player} is given twice in this game", "each player plays once",
                               rule()[1]))
        seen_players.add(player)
        given: dict[str, str] = {}
        if raw_ids and not any(k in content.model.pieces for k in kinds):
            out.append(refusal("R303", f"{content.game.title} has no factions or other pieces to play, so "
                               f"'{','.join(raw_ids)}' means nothing here; say only who plays: --play {player}",
                               "a game records only who played",
                               content.model.types[content.model.type_of(number, ev.type)].cite))
            continue
        for raw in raw_ids:
            pid = normalize(raw)
            kind = content.piece_kind_of(pid)
            if kind is None or kind not in kinds:
                every = [i for k in kinds for i in content.pieces_of(k)]
                out.append(refusal("R303", f"'{raw}' is not {a(wanted().replace(' and ', ' or '))} of this game"
                                   f"{did_you_mean(pid, every)}; choose from: {', '.join(every)}", *rule()))
                continue
            if kind in given:
                out.append(refusal("R303", f"{player} plays two of {content.model.pieces[kind].name}: "
                                   f"{given[kind]} and {pid}", *rule()))
                continue
            given[kind] = pid
            if pid in seen_pieces:
                out.append(refusal("R303", f"{pid} is played twice ({seen_pieces[pid]} and {player})", *rule()))
            seen_pieces[pid] = player
            if pid in gone:
                lost_in = next((g.number for g in reversed(state.games) if pid in g.lost), 0)
                if content.model.entry(number).returns_lost_in != lost_in:
                    out.append(refusal("R303", f"{pid} was lost for good in game {lost_in} and cannot be played in "
                                       f"game {number}", "a piece lost for good comes back only where a game says so",
                                       content.model.entry(lost_in).cite
                                       or _model_cite(content)))
            if pid in state.retired_pieces:
                out.append(refusal("R303", f"{pid} is {state.retired_pieces[pid]} for good and cannot be played "
                                   "again", "a retired or lost piece leaves the campaign; play a new one",
                                   content.model.pieces[kind].cite or _model_cite(content)))
            owner = state.claimed_by(content, pid)
            pk = content.model.pieces[kind]
            if owner and owner != player:
                out.append(refusal("R303", f"{pid} is {owner}'s {pk.name} for the whole campaign; {player} plays "
                                   f"their own or one nobody has claimed", f"a claimed {pk.name} is its owner's",
                                   pk.cite))
        missing = [content.model.pieces[k].name for k in kinds if k not in given and k in content.model.pieces]
        if missing and not any(p.code == "R303" and player in p.message for p in out):
            out.append(refusal("R303", f"say which {' and '.join(missing)} {player} plays: --play "
                               f"{player}={','.join(k.upper() for k in missing)}", *rule()))
    return out


def player_count_problem(game: Game, count: int, cite: str = "") -> Diagnostic | None:
    """R306: `count` players is fewer or more than the game's `players` (min/max), citing where the game says so
    (its source's cite: the rulebook's page on the players; else `cite`)."""
    meta = Meta.of(game.meta)
    players = meta.players
    if players is None:
        return None
    low, high = players.min, players.max
    said = f"{count} {'player' if count == 1 else 'players'}"
    if isinstance(low, int) and count < low:
        message = f"{said}; {game.title} needs at least {low}"
    elif isinstance(high, int) and count > high:
        message = f"{said}; {game.title} takes at most {high}"
    else:
        return None
    return refusal("R306", message, f"{game.title} is for {_players_text(players)}",
                   cite_text(meta.cite) or cite)


def owed_targets(content: Content, state: CampaignState, sticker_id: str) -> list[str]:
    """The targets a one-on-every-target obligation still owes: those with no mark of the sticker ever placed
    (one placed and later covered was placed) where the sticker may go now by its own targets and checks (what
    `where` lists): a target its checks refuse is never owed."""
    st = content.sticker_views[sticker_id]
    ids = [t for kind in st.targets for t in content.target_ids(kind, st)]
    bare = [t for t in ids if not any(m.sticker == sticker_id for m in state.marks.get(t, ()))]
    if not bare:
        return []
    legal = set(where(content, state, sticker_id, in_order=False))
    return [t for t in bare if t in legal]


def setup_left_for(state: CampaignState, sticker: str, count: int, player: str) -> int:
    """How many more of a setup's sticker one player still has to place (`each: player`: `count` each, at least
    one)."""
    done = sum(1 for ms in state.marks.values() for m in ms if m.sticker == sticker and m.by == player)
    return max(max(count, 1) - done, 0)


def setup_problems(content: Content, state: CampaignState, number: int) -> list[Diagnostic]:
    """Obligations that must be met before game `number` starts (setup before game 1 …)."""
    out: list[Diagnostic] = []
    for ob in content.model.setup:
        if ob.before_game > number or ob.sticker not in content.stickers:
            continue
        label = content.sticker_views[ob.sticker].name
        what = ob.text or f"place {label}"
        if ob.each == "player":
            missing = [p for p in state.players if setup_left_for(state, ob.sticker, ob.count, p)]
            if missing:
                out.append(refusal("R221", f"{', '.join(missing)} still to place {a(ob.sticker)} before game "
                                   f"{ob.before_game} (scarbook campaign place {ob.sticker} TARGET --by NAME)",
                                   what, ob.cite))
        elif ob.each == "target":
            missing = owed_targets(content, state, ob.sticker)
            if missing:
                out.append(refusal("R221", f"{ob.sticker} still to place on {', '.join(missing)} before game "
                                   f"{ob.before_game}", what, ob.cite))
        else:
            done = state.pool_used[(ob.sticker, ob.pool)] if ob.pool else state.placed[ob.sticker]
            if done < ob.count:
                pool = f" of the {ob.pool} supply" if ob.pool else ""
                out.append(refusal("R221", f"{plural(ob.count - done, ob.sticker)}{pool} still to place before game "
                                   f"{ob.before_game}", what, ob.cite))
    return out


def owed_once_opened(content: Content, state: CampaignState) -> list[Diagnostic]:
    """An opened packet's stickers that must be in place before the next game: those `to_put_in_place` whose
    kind `game.campaign.owed_when_opened` names (a rules addition sticker into its place in the rulebook)."""
    out: list[Diagnostic] = []
    kinds = {k for o in content.model.owed_when_opened for k in o.kinds}
    if not kinds:
        return out
    for sid, target, env in to_put_in_place(content, state, kinds):  # (every game start asks: only owed kinds)
        kind = content.sticker_views[sid].kind
        owed = next((o for o in content.model.owed_when_opened if kind in o.kinds), None)
        if owed is None:
            continue
        label = content.sticker_views[sid].name
        out.append(refusal("R315", f"{label} from the opened packet '{env}' is not in place yet ('scarbook "
                           f"campaign place {sid} {target}')",
                           owed.text or f"an opened packet's {kind} stickers go in place before the next game",
                           owed.cite))
    return out


def _used_up(state: CampaignState, sid: str, view: Sticker) -> bool:
    """Whether the sticker's `supply-left` check fails now, wherever it would go (so `where` finds nothing)."""
    pool, count = pool_for(state, view)
    if count is None or state.pool_used[(sid, pool)] < count:
        return False
    return any(c.pool in (None, pool) for c in view.checks_named("supply-left"))


def to_put_in_place(content: Content, state: CampaignState,
                    kinds: set[str] | None = None) -> list[tuple[str, str, str]]:
    """(sticker, where it goes, packet) for the stickers an opened packet puts in place (`placed-once-opened`)
    that can still go somewhere (only those of these `kinds`, when given): status lists them; the next game
    waits for those whose kind `game.campaign.owed_when_opened` names (`owed_once_opened`), not for the others."""
    out = []
    for sid, view in content.sticker_views.items():
        if (kinds is not None and view.kind not in kinds) or _used_up(state, sid, view):
            continue
        for chk in view.checks_named("placed-once-opened"):
            env = chk.envelope
            if env in state.opened:
                targets = where(content, state, sid)
                if targets:
                    out.append((sid, targets[0], str(env)))
    return out


def game_end_problems(content: Content, state: CampaignState, ev: GameEnded) -> list[Diagnostic]:
    game = state.in_progress
    if game is None:
        return [refusal("R302", "no game is in progress; start one with 'scarbook campaign game start --play "
                        f"{content.model.play_form(state.started + 1)} ...'", "a game ends after it started",
                        _type_cite(content))]
    out = []
    names: dict[str, str] = {}
    gtype = content.model.types.get(game.type)
    rule = ("the end of a game records who won, who held on and who was eliminated, each a player of that game",
            (gtype.cite if gtype else "") or _model_cite(content))
    team = shape.team_end_problems(content, state, ev, game, rule)
    if team is not None:
        return team
    if not content.model.team and not ev.winner.strip():
        return [refusal("R307", "say who won with --winner NAME", *rule)]
    for raw in [*([ev.winner] if ev.winner.strip() else []), *ev.held_on, *ev.eliminated,
                *(p for p, _ in ev.controlled)]:
        player = player_name(state, raw)
        if player is None or player not in game.plays:
            out.append(refusal("R307", f"'{raw}' did not play game {game.number}; players: {', '.join(game.plays)}",
                               *rule))
        else:
            names[raw] = player
    if out:
        return out
    listed = [names[x] for x in [*([ev.winner] if ev.winner.strip() else []), *ev.held_on, *ev.eliminated]]
    if len(set(listed)) != len(listed):
        out.append(refusal("R307", "a player is listed twice among winner, held on and eliminated", *rule))
    for _player, terrs in ev.controlled:
        for t in terrs:
            if normalize(t) not in content.territories:
                out.append(refusal("R307", f"unknown territory '{t}'{did_you_mean(normalize(t), content.territories)}",
                                   *rule))
    for raw, _n in ev.scores:
        player = player_name(state, raw)
        if player is None or player not in game.plays:
            out.append(refusal("R307", f"'{raw}' did not play game {game.number}, so has no score in it; players: "
                               f"{', '.join(game.plays)}", *rule))
    if len({player_name(state, p) for p, _ in ev.scores}) != len(ev.scores):
        out.append(refusal("R307", "a player is given two scores", *rule))
    out += [refusal("R318", f"{d.what} first ('{d.command}')", d.rule, d.cite) for d in drafts.owed(content, state)]
    played = {p for ps in game.pieces.values() for p in ps.values()}
    lost_allowed = content.model.entry(game.number).may_lose
    for raw in ev.lost:  # whether anything may be lost comes first: a piece name is only worth checking then
        if not lost_allowed:
            out.append(refusal("R307", f"nothing is lost for good in game {game.number}; leave out --lost {raw}",
                               "only the games whose rules say so remove a piece for good", _model_cite(content)))
        elif normalize(raw) not in played:
            out.append(refusal("R307", f"'{raw}' was not in play in game {game.number}; pieces in play: "
                               f"{', '.join(sorted(played)) or 'none'}", *rule))
    return out


# --- packets ----------------------------------------------------------------------------------
def trigger_met(content: Content, state: CampaignState, env: Envelope) -> bool | None:
    """Whether a packet's trigger is met now; None when the tracker cannot tell (the players decide)."""
    when = env.when
    if not isinstance(when, dict):
        return None
    if "placed" in when:
        return state.placed[str(when["placed"])] >= int(when.get("count", 1))
    if "event" in when:
        kind = when["event"]
        if kind in ("faction-eliminated", "player-eliminated"):
            return state.eliminations > 0
        if kind == "game-ended":
            return state.last_ended is not None
        if kind == "game-started":
            return state.started > 0
    if "signatures_by_one_player" in when:
        need = int(when["signatures_by_one_player"])
        return any(state.signature_count(p) >= need for p in state.players)
    if "after_game" in when:
        last = state.last_ended
        return last is not None and last.number >= int(when["after_game"])
    if "opened" in when:
        return when["opened"] in state.opened
    if "after_chapter" in when:
        return shape.chapters_over(content, state) >= int(when["after_chapter"])
    if "about_to_place" in when:
        return None  # answered when someone tries to place it
    return shape.holds(content, state, when).ok  # any condition of the campaign language


def pending(content: Content, state: CampaignState) -> list[str]:
    """Packets whose trigger is met and that are not opened yet."""
    return [eid for eid, env in content.envelope_views.items()
            if eid not in state.opened and trigger_met(content, state, env)]


def open_problems(content: Content, state: CampaignState, ev: Opened) -> list[Diagnostic]:
    eid = normalize(ev.envelope)
    env = content.envelope_views.get(eid)
    if env is None:
        return [refusal("R311", f"unknown packet '{ev.envelope}'{did_you_mean(eid, content.envelopes)}; packets: "
                        f"{', '.join(content.envelopes)}",
                        f"the sealed packets of {content.game.title} are those its content lists",
                        _file_cite(content, "envelopes"))]
    if eid in state.opened:
        return [refusal("R312", f"packet {eid} is already open", "a sealed packet is opened once",
                        env.source_cite)]
    met = trigger_met(content, state, env)
    if met is False:
        return [refusal("R313", f"packet {eid} may not be opened yet", env.trigger_text, env.source_cite)]
    return []


def add_pack_problems(content: Content, state: CampaignState, ev: PackAdded) -> list[Diagnostic]:
    """A house-rule pack joins before game 1 or between games, once."""
    if state.in_progress is not None:
        return [refusal("R301", f"game {state.in_progress.number} is in progress: add a pack between games",
                        "a house rule changes the campaign between games")]
    if ev.pack in state.packs:
        return [refusal("R314", f"the pack {ev.pack} is already in this campaign")]
    return []


def place_to_problems(content: Content, state: CampaignState, r: Resolved, to: str) -> list[Diagnostic]:
    """`place STICKER A --to B`: the sticker on A, and its line A-B, as if placed already."""
    placed = dict(state.placed)
    placed[r.sticker_id] = placed.get(r.sticker_id, 0) + 1
    carriers = [t for t, marks in state.marks.items() if any(m.sticker == r.sticker_id for m in marks)]
    found = link_problem(content.game, r.sticker_id, r.target.id, to, placed, state.links, [*carriers, r.target.id],
                         frozenset(impassable(content, state)))
    if found is None:
        return []
    return [line_refusal(content.sticker_views.get(r.sticker_id), found)]


def line_refusal(sticker: Sticker | None, found: tuple[str, str]) -> Diagnostic:
    """A refused line, citing the sticker's `links.cite` (else its `source`)."""
    links = sticker.links if sticker is not None else Links()
    return refusal(found[0], found[1], links.text, links.cite)


def link_problems(content: Content, state: CampaignState, ev: Linked) -> list[Diagnostic]:
    """A line drawn for a placed sticker that brings lines (`links`), between two territories in play."""
    sid, a, b = normalize(ev.sticker), normalize(ev.a), normalize(ev.b)
    if ev.by and player_name(state, ev.by) is None:
        return [unknown_player(content, state, ev.by)]
    carriers = [t for t, marks in state.marks.items() if any(m.sticker == sid and not m.covered_by for m in marks)]
    placer = _placer_problem(content, state, sid, ev.by)
    if placer is not None:
        return [placer]
    found = link_problem(content.game, sid, a, b, state.placed, state.links, carriers,
                         frozenset(impassable(content, state)))
    if found is None:
        return []
    return [line_refusal(content.sticker_views.get(sid), found)]


def _placer_problem(content: Content, state: CampaignState, sid: str, by: str) -> Diagnostic | None:
    """R346: a sticker whose lines its placer draws (`links.by: placer`): the line is drawn by that player."""
    st = content.sticker_views.get(sid)
    links = st.links if st is not None else Links()
    if links.by != "placer":
        return None
    placers = {m.by for ms in state.marks.values() for m in ms if m.sticker == sid and m.by}
    who = player_name(state, by) if by else ""
    rule = (links.text or "the player who placed it draws its lines", links.cite)
    if placers and who not in placers:
        return refusal("R346", f"{', '.join(sorted(placers))} placed the {sid} and draws its lines"
                       f"{', not ' + who if who else ': say so with --by NAME'}", *rule)
    return None


def tick_problems(content: Content, state: CampaignState, ev: Ticked) -> list[Diagnostic]:
    target = normalize(ev.target)
    forts = [m for m in state.active_marks(target) if m.boxes]
    if not forts:
        boxed = [st for st in content.sticker_views.values() if st.boxed]
        cite = boxed[0].cite if boxed else ""
        return [refusal("R320", f"{target} has no mark with boxes to tick", "boxes are ticked on a mark that has "
                        "them", cite)]
    view = content.sticker_views.get(forts[-1].sticker)
    cite, label = (view.cite, view.name) if view else ("", forts[-1].sticker)
    if state.in_progress is None:
        return [refusal("R320", f"no game is in progress: boxes on {target}'s {forts[-1].sticker} are ticked during "
                        "a game", "a box is ticked after an attack on it", cite)]
    left = (forts[-1].boxes or 0) - forts[-1].ticked
    if ev.boxes > left:
        return [refusal("R320", f"{target} has {plural(left, 'box', 'boxes')} left, not {ev.boxes}",
                        f"{a(label)} has {plural(forts[-1].boxes or 0, 'box', 'boxes')}",
                        cite)]
    return []


def pass_problems(content: Content, state: CampaignState, ev: Passed) -> list[Diagnostic]:
    """A pass closes one open step: optional ones always, mandatory ones only when nothing can be placed
    (the tracker checks) or when the content says the players decide (`pass_if`, given with --why)."""
    game = state.last_ended
    if game is None or state.in_progress is not None:
        return [refusal("R330", "there is no step to pass now: no game has ended, or one is in progress",
                        "the steps of a game are taken after it ends, before the next game starts",
                        _type_cite(content))]
    player = player_name(state, ev.by)
    if player is None:
        return [unknown_player(content, state, ev.by)]
    gtype = content.model.types[game.type]
    step_ids = [s.id for s in gtype.steps]
    sid = normalize(ev.step)
    if sid not in step_ids:
        return [refusal("R330", f"game {game.number} has no step '{ev.step}'{did_you_mean(sid, step_ids)}; its "
                        f"steps: {', '.join(step_ids)}", f"the end of {a_game(gtype.name)} has these steps",
                        gtype.cite or _model_cite(content))]
    piece = normalize(ev.piece) if ev.piece else ""
    mine = [o for o in steps.open_entries(content, state) if o.step.id == sid and o.takes(player)
            and (not piece or o.piece == piece)]
    who = _rule_of_step(next(s for s in gtype.steps if s.id == sid))
    if not mine:
        return [refusal("R331", f"{player} owes no '{sid}' after game {game.number}"
                        f"{' for ' + piece if piece else ''}; see 'scarbook campaign status'", *who)]
    o = mine[0]
    if len({x.piece for x in mine}) > 1 and not piece:
        return [refusal("R331", f"say which one with --for: {', '.join(x.piece for x in mine)}", *_step_rule(o))]
    if o.step.mandatory:
        for s in (*o.step.stickers, *o.step.fallback):
            targets = where(content, state, s, player, o.piece, in_order=False) if s in content.stickers else []
            if not targets:
                continue
            if not o.step.pass_if:
                return [refusal("R332", f"'{o.step.name}' is owed and {a(s)} can still go on "
                                f"{', '.join(targets[:5])}{' …' if len(targets) > 5 else ''}", *_step_rule(o))]
            if not ev.why.strip():
                return [refusal("R332", f"'{o.step.name}' is owed; it may be passed only when {o.step.pass_if}: "
                                "say so with --why TEXT", *_step_rule(o))]
            break
    return []


# --- players who join and leave, marks that retire ---------------------------------------------------------
def _who_plays_cite(content: Content) -> str:
    """Where the game says who plays: its pieces' cite, its own `source`, else the cite of its files."""
    return (_players_cite(content) or cite_text(Meta.of(content.game.meta).cite)
            or _file_cite(content, "stickers"))


def _sticker_cite(content: Content, sid: str) -> str:
    """A sticker's `source` cite, else the cite of its first check."""
    views = content.sticker_views
    st = views.get(sid) if content.stickers.get(sid) else next((s for s in views.values() if s.kind == sid), None)
    if st is None:
        return _who_plays_cite(content)
    return st.cite or next((c.cite for c in st.checks if c.raw_cite), "") or _who_plays_cite(content)


def _between_games(content: Content, state: CampaignState, what: str) -> list[Diagnostic]:
    if state.in_progress is None:
        return []
    return [refusal("R360", f"game {state.in_progress.number} is in progress: {what} between games",
                    "players join and leave the campaign between games", _who_plays_cite(content))]


def join_problems(content: Content, state: CampaignState, ev: Joined) -> list[Diagnostic]:
    """R360: a newcomer joins between games under a name nobody plays under; R306: within the game's player count."""
    name = ev.player.strip()
    out = _between_games(content, state, f"{name} joins")
    if out:
        return out
    if not name:
        return [refusal("R360", "say who joins: scarbook campaign join NAME")]
    if player_name(state, name) in state.players:
        return [refusal("R360", f"{player_name(state, name)} already plays this campaign",
                        "a newcomer joins under a name nobody plays under", _who_plays_cite(content))]
    if ev.replaces:
        found = _leaver_problems(content, state, ev.replaces)
        if found:
            return found
    players = Meta.of(content.game.meta).players or Players()
    high = players.max
    staying = len(state.players) - (1 if ev.replaces else 0)
    if isinstance(high, int) and not isinstance(high, bool) and staying + 1 > high:
        return [refusal("R306", f"{len(state.players) + 1} players with {name}; {content.game.title} takes at most "
                        f"{high} (to take over a seat: 'scarbook campaign join {name} --replacing NAME')",
                        f"{content.game.title} is for {_players_text(players)}", _who_plays_cite(content))]
    return []


def leave_problems(content: Content, state: CampaignState, ev: Left) -> list[Diagnostic]:
    """R360: a player of the campaign leaves between games, owing no step of the last game; `to` names another
    player of the campaign, who takes over their holdings."""
    out = _between_games(content, state, f"{ev.player} leaves")
    if out:
        return out
    out = _leaver_problems(content, state, ev.player)
    if out:
        return out
    player = player_name(state, ev.player)
    if ev.to:
        heir = player_name(state, ev.to)
        if heir is None or heir not in state.players:
            return [_gone_or_unknown(content, state, ev.to)]
        if heir == player:
            return [refusal("R360", f"{player} cannot hand their holdings to themselves",
                            "a leaver's holdings go to another player", _who_plays_cite(content))]
    return []


def _leaver_problems(content: Content, state: CampaignState, raw: str) -> list[Diagnostic]:
    """R360/R363/R104: the one who leaves plays the campaign now and owes no step of the last game."""
    player = player_name(state, raw)
    if player is None or player not in state.players:
        return [_gone_or_unknown(content, state, raw)]
    owed = [o for o in steps.open_entries(content, state) if o.takes(player) and o.step.mandatory]
    if owed:
        return [refusal("R360", f"{player} still owes '{owed[0].step.name}' after game {owed[0].game}: take it or "
                        f"pass it before leaving", "a player leaves between games, owing nothing",
                        owed[0].step.cite or _who_plays_cite(content))]
    return []


def _gone_or_unknown(content: Content, state: CampaignState, raw: str) -> Diagnostic:
    """R363 for a player who left the campaign, else R104."""
    left = [(p, n) for p, n, _heir in state.left if p.lower() == raw.strip().lower()]
    if left and player_name(state, raw) not in state.players:
        p, n = left[-1]
        return refusal("R363", f"{p} left the campaign {'after game ' + str(n) if n else 'before game 1'}"
                       f" (players now: {', '.join(state.players) or 'none'})",
                       "a player who left takes no part in the campaign (until they join again)",
                       _who_plays_cite(content))
    return unknown_player(content, state, raw)


def retire_problems(content: Content, state: CampaignState, ev: Retired) -> list[Diagnostic]:
    """R362: an active mark of that sticker or kind is on the target, held by the player given; the status is one a
    retired mark takes."""
    from scarbook.campaign.events import RETIRED_STATUSES

    sid, target = normalize(ev.sticker), normalize(ev.target)
    rule = ("a retired or lost mark stays on the sheet, no longer active", _sticker_cite(content, sid))
    if ev.status.strip().lower() not in RETIRED_STATUSES:
        return [refusal("R362", f"a mark retires as one of {', '.join(RETIRED_STATUSES)}, not '{ev.status}'", *rule)]
    by = ""
    if ev.by:
        found = player_name(state, ev.by)
        if found is None or found not in state.players:
            return [_gone_or_unknown(content, state, ev.by)]
        by = found
    if retiring(content, state, sid, target, by) is not None:
        return []
    on = [m.sticker for m in state.active_marks(target) if not m.cancels]
    if by and retiring(content, state, sid, target) is not None:
        holder = state.owner(content, retiring(content, state, sid, target))  # type: ignore[arg-type]
        return [refusal("R362", f"the {sid} on {target} is {holder}'s, not {by}'s", *rule)]
    return [refusal("R362", f"{target} holds no active {sid}{did_you_mean(sid, on)}"
                    + (f" (active there: {', '.join(on)})" if on else ""), *rule)]


# --- any event: who acts, and the canonical form of each kind (`eventspecs.SPECS` names them) -------
def left_problem(content: Content, state: CampaignState, named: list[str]) -> Diagnostic | None:
    """The refusal for a new event that has a player who left act (`named`: the players the event has act, as
    typed; a name that is nobody's is the kind's own check to refuse); None when none of them left."""
    if not state.left:
        return None
    gone = [raw for raw in named if player_name(state, raw) not in state.players
            and player_name(state, raw) is not None]
    return _gone_or_unknown(content, state, gone[0]) if gone else None


def admit_place(content: Content, state: CampaignState, ev: Placed) -> tuple[list[Diagnostic], Event | None]:
    """A placement's problems and canonical form, what was typed resolved once for both."""
    r = resolve(content, state, ev.sticker, ev.target, ev.by, ev.name, ev.value)
    if isinstance(r, Diagnostic):
        return [r], None
    found = placement_problems(content, state, r)
    if not found and ev.to:
        found = place_to_problems(content, state, r, normalize(ev.to))
    return found, _placed(ev, r)


def admit_destroy(content: Content, state: CampaignState, ev: Destroyed) -> tuple[list[Diagnostic], Event | None]:
    """A destroyed card's problems and canonical form (a placement of the game's destroy sticker)."""
    r = resolve_destroy(content, state, ev.card, ev.by)
    if isinstance(r, Diagnostic):
        return [r], None
    return placement_problems(content, state, r), Destroyed(r.target.id, r.actor, span=ev.span, index=ev.index)


def _placed(ev: Placed, r: Resolved) -> Event:
    """A placement as resolved: ids and the player's name as the content and the ledger spell them."""
    return Placed(r.sticker_id, r.target.id, r.actor, r.name, ev.value, normalize(ev.to) if ev.to else "",
                  span=ev.span, index=ev.index)


def resolve_destroy(content: Content, state: CampaignState, card: str, by: str = "") -> Resolved | Diagnostic:
    for sid in content.destroy_stickers:
        if content.resolve(content.sticker_views[sid], card) is not None:
            return resolve(content, state, sid, card, by)
    if not content.destroy_stickers:
        return refusal("R103", f"{content.game.title} has no rule for destroying cards; nothing to record",
                       "a card is destroyed only where the game's rules say so")
    names = sorted({n for sid in content.destroy_stickers for n in content.target_names(content.sticker_views[sid])})
    return refusal("R102", f"'{card}' is not a card that can be destroyed{did_you_mean(normalize(card), names)}; "
                   "see 'scarbook campaign where " + content.destroy_stickers[0] + "'",
                   "only the cards the game's rules let you destroy")


def _who(state: CampaignState, raw: str) -> str:
    return player_name(state, raw) or raw


def canonical_place(content: Content, state: CampaignState, ev: Placed) -> Event | None:
    """The event with ids and names as the content and the ledger spell them (None: unreadable); the canonical
    event keeps where the ledger wrote it (span, index), as every `canonical_*` does."""
    r = resolve(content, state, ev.sticker, ev.target, ev.by, ev.name, ev.value)
    return None if isinstance(r, Diagnostic) else _placed(ev, r)


def canonical_destroy(content: Content, state: CampaignState, ev: Destroyed) -> Event | None:
    r = resolve_destroy(content, state, ev.card, ev.by)
    return None if isinstance(r, Diagnostic) else Destroyed(r.target.id, r.actor, span=ev.span, index=ev.index)


def canonical_game_start(content: Content, state: CampaignState, ev: GameStarted) -> Event | None:
    return GameStarted(tuple((_who(state, p), tuple(normalize(f) for f in fs)) for p, fs in ev.plays),
                       tuple((_who(state, p), normalize(t)) for p, t in ev.starts), ev.type,
                       tuple(_who(state, p) for p in ev.seating),
                       pick(ev.scenario, content.model.scenarios) if ev.scenario else "",
                       span=ev.span, index=ev.index)


def canonical_game_end(content: Content, state: CampaignState, ev: GameEnded) -> Event | None:
    def who(raw: str) -> str:
        return _who(state, raw)

    game = state.in_progress
    listed = [who(ev.winner), *(who(p) for p in ev.held_on), *(who(p) for p in ev.eliminated)]
    held = [who(p) for p in ev.held_on]
    if game is not None:
        held += [p for p in game.plays if p not in listed]  # unlisted players held on
    return GameEnded(who(ev.winner), tuple(held), tuple(who(p) for p in ev.eliminated),
                     tuple((who(p), tuple(normalize(t) for t in ts)) for p, ts in ev.controlled), ev.date,
                     tuple(normalize(p) for p in ev.lost), ev.team.strip().lower(),
                     tuple((who(p), n) for p, n in ev.scores), span=ev.span, index=ev.index)


def canonical_open(content: Content, state: CampaignState, ev: Opened) -> Event | None:
    return Opened(normalize(ev.envelope), ev.pack, span=ev.span, index=ev.index)


def canonical_add_pack(content: Content, state: CampaignState, ev: PackAdded) -> Event | None:
    return ev  # a pack is named by its path as the ledger wrote it


def canonical_tick(content: Content, state: CampaignState, ev: Ticked) -> Event | None:
    return Ticked(normalize(ev.target), ev.boxes, span=ev.span, index=ev.index)


def canonical_link(content: Content, state: CampaignState, ev: Linked) -> Event | None:
    return Linked(normalize(ev.sticker), normalize(ev.a), normalize(ev.b), _who(state, ev.by) if ev.by else "",
                  span=ev.span, index=ev.index)


def canonical_join(content: Content, state: CampaignState, ev: Joined) -> Event | None:
    return Joined(ev.player.strip(), _who(state, ev.replaces) if ev.replaces else "", span=ev.span, index=ev.index)


def canonical_leave(content: Content, state: CampaignState, ev: Left) -> Event | None:
    return Left(_who(state, ev.player), _who(state, ev.to) if ev.to else "", span=ev.span, index=ev.index)


def canonical_retire(content: Content, state: CampaignState, ev: Retired) -> Event | None:
    target = normalize(ev.target)
    by = _who(state, ev.by) if ev.by else ""
    mark = retiring(content, state, normalize(ev.sticker), target, by)
    by = by or (state.owner(content, mark) if mark is not None else "")
    return Retired(normalize(ev.sticker), target, ev.status.strip().lower() or "retired", by, span=ev.span,
                   index=ev.index)


def canonical_pass(content: Content, state: CampaignState, ev: Passed) -> Event | None:
    step, by, piece = normalize(ev.step), _who(state, ev.by), normalize(ev.piece) if ev.piece else ""
    if not piece:  # the one piece this player takes the step for, when the step is per piece
        pieces = {o.piece for o in steps.open_entries(content, state) if o.step.id == step and o.takes(by)}
        piece = pieces.pop() if len(pieces) == 1 else ""
    return Passed(step, by, piece, ev.why, span=ev.span, index=ev.index)
