"""What is legal now: placements, game starts and ends, openings; sealed-packet triggers.

Each function takes the effective content and the state and returns `Problem`s (empty: legal).
Placement legality is entirely the checks the sticker's content names (`checks.CHECKS`); the
rest is the campaign's own bookkeeping (a game must end before the next starts, players and
factions exist, entitled players take their reward). Never changes the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scarbook.compiler.diagnostics import did_you_mean
from scarbook.compiler.model import as_dict

from .checks import CHECKS, CODES, Placement, cite_text
from .content import Content, Target
from .events import Destroyed, Event, GameEnded, GameStarted, Opened, Placed, Ticked
from .ids import normalize
from .state import CampaignState, pool_for


@dataclass(frozen=True)
class Problem:
    """Why a move is refused: a code, what is wrong, the rule in short and where it is written."""

    code: str
    message: str
    rule: str = ""
    cite: str = ""

    def text(self) -> str:
        why = "; ".join(x for x in (self.rule, self.cite) if x)
        return f"{self.message} ({why})" if why else self.message


# --- resolving what a person typed ------------------------------------------------------------
@dataclass(frozen=True)
class Resolved:
    sticker_id: str
    sticker: dict[str, Any]
    target: Target
    actor: str
    name: str


def player_name(state: CampaignState, raw: str) -> str | None:
    return state.by_lower.get(raw.strip().lower())


def _about_to_place(content: Content, state: CampaignState, sticker_id: str) -> Problem | None:
    for eid, env in content.envelopes.items():
        when = (env.get("trigger") or {}).get("when")
        if isinstance(when, dict) and when.get("about_to_place") == sticker_id and eid not in state.opened:
            return Problem("R310", f"open the sealed packet '{eid}' first: {env.get('name', eid)}",
                           str((env.get("trigger") or {}).get("text", "")),
                           cite_text((env.get("source") or {}).get("cite")))
    return None


def _choice_sticker(content: Content, option: str) -> tuple[str, str] | None:
    """A candidate option (a faction's power) -> (the sticker that records the choice, its target)."""
    owner = content.powers.get(option)
    if owner is None:
        return None
    for sid, st in content.stickers.items():
        for chk in st.get("checks", []) or []:
            if chk.get("check") == "choice-of" and any(
                    isinstance(o, dict) and o.get("id") == option
                    for o in content.factions.get(owner, {}).get(chk.get("field"), []) or []):
                return sid, owner
    return None


def resolve(content: Content, state: CampaignState, sticker_raw: str, target_raw: str, by: str = "",
            name: str = "") -> Resolved | Problem:
    sid = normalize(sticker_raw)
    if sid not in content.stickers:
        choice = _choice_sticker(content, sid)
        if choice is not None:
            name, sid = sid, choice[0]
        else:
            return _about_to_place(content, state, sid) or Problem(
                "R101", f"unknown sticker '{sticker_raw}'{did_you_mean(sid, content.stickers)}; stickers: "
                f"{', '.join(content.stickers)}")
    sticker = content.stickers[sid]
    actor = ""
    if by:
        found = player_name(state, by)
        if found is None:
            return Problem("R104", f"'{by}' is not a player of this campaign{did_you_mean(by, state.players)}; "
                           f"players: {', '.join(state.players)}")
        actor = found
    target = content.resolve(sticker, target_raw)
    if target is None:
        kinds = " or ".join(sticker.get("targets", []))
        hint = did_you_mean(normalize(target_raw), content.target_names(sticker))
        return Problem("R102", f"'{target_raw}' is not a {kinds} a {sid} can go on{hint}", "",
                       "see 'scarbook campaign where " + sid + "'")
    if not actor:
        actor = default_actor(content, state, sticker)
    return Resolved(sid, sticker, target, actor, name.strip())


def default_actor(content: Content, state: CampaignState, sticker: dict[str, Any]) -> str:
    """The player a reward must be for when only one can take it (the winner, a lone held-on player)."""
    game = state.last_ended
    if game is None or state.in_progress is not None:
        return ""
    pool, _ = pool_for(state, sticker)
    roles = {c.get("role") for c in sticker.get("checks", []) or []
             if c.get("check") == "actor-is" and c.get("pool") in (None, pool)}
    if roles == {"winner"}:
        return game.winner
    if roles == {"held-on"}:
        waiting = [p for p in game.held_on if (game.number, p) not in state.rewards]
        return waiting[0] if len(waiting) == 1 else ""
    return ""


# --- placements -----------------------------------------------------------------------------
def placement_problems(content: Content, state: CampaignState, r: Resolved) -> list[Problem]:
    out: list[Problem] = []
    pool, count = pool_for(state, r.sticker)
    p = Placement(content, state, r.sticker_id, r.sticker, r.target, r.actor, r.name, pool, count)
    for chk in r.sticker.get("checks", []) or []:
        name = chk.get("check")
        fn = CHECKS.get(str(name))
        if fn is None:
            out.append(Problem("R299", f"the content names an unknown check '{name}'"))
            continue
        params = {k: v for k, v in chk.items() if k not in ("check", "cite")}
        try:
            failure = fn(p, params)
        except Exception as exc:  # a crashing check is one more diagnostic, never a traceback
            out.append(Problem("R298", f"check '{name}' failed on this placement: {type(exc).__name__}: {exc}"))
            continue
        if failure is not None and all(q.message != failure[0] for q in out):
            out.append(Problem(CODES.get(str(name), "R200"), failure[0], failure[1], cite_text(chk.get("cite"))))
    founds = as_dict(r.sticker.get("founds"))
    if (r.sticker.get("named") or founds.get("named")) and not r.name:
        out.append(Problem("R224", f"give the {r.sticker.get('name', r.sticker_id)} its name with --name TEXT",
                           "the player names it", cite_text((r.sticker.get("source") or {}).get("cite"))))
    return out


def where(content: Content, state: CampaignState, sticker_id: str, actor: str = "") -> list[str]:
    """Every target where the sticker could legally go now (for that player)."""
    sticker = content.stickers[sticker_id]
    if not actor:
        actor = default_actor(content, state, sticker)
    options: list[str] = [""]
    for chk in sticker.get("checks", []) or []:
        if chk.get("check") == "choice-of":
            options = []
    out = []
    for kind in sticker.get("targets", []):
        for tid in content.target_ids(kind, sticker):
            target = Target(kind, tid, content.game.section(_section(kind))[tid])
            names = options or [str(o.get("id")) for o in target.item.get("powers", []) or [] if isinstance(o, dict)]
            names = names or [""]
            for name in names:
                r = Resolved(sticker_id, sticker, target, actor, name or "x")
                if not [q for q in placement_problems(content, state, r) if q.code != "R224"]:
                    out.append(tid)
                    break
    return out


def _section(kind: str) -> str:
    from .content import TARGET_SECTIONS

    return TARGET_SECTIONS[kind]


# --- games ------------------------------------------------------------------------------------
def legal_starts(content: Content, state: CampaignState, player: str) -> list[str]:
    """Territories that are legal starting territories for a player (occupation aside)."""
    founders = {sid for sid, st in content.stickers.items()
                if any(c.get("check") == "start-for-founder" for c in st.get("checks", []) or [])}
    out = []
    for tid in content.territories:
        marks = [m for m in state.active_marks(tid) if not m.cancels]
        if not marks or any(m.sticker in founders and m.by == player for m in marks):
            out.append(tid)
    return out


def owed_rewards(content: Content, state: CampaignState) -> list[tuple[str, str]]:
    """(player, role) still owed a reward for the last game: they must take one before the next."""
    game = state.last_ended
    if game is None or state.in_progress is not None:
        return []
    limit = content.rewards_limit
    if limit is not None and game.number > limit:
        return []
    out = []
    for player in [game.winner, *game.held_on]:
        if not player or (game.number, player) in state.rewards:
            continue
        role = game.role(player)
        stickers = [s for s, roles in content.reward_stickers.items() if role in roles and s in content.stickers]
        if any(where(content, state, s, player) for s in stickers):
            out.append((player, role))
    return out


def _game_cite(content: Content) -> str:
    for rew in content.rewards.values():
        cite = (rew.get("source") or {}).get("cite")
        if cite:
            return cite_text(cite)
    return ""


def game_start_problems(content: Content, state: CampaignState, ev: GameStarted) -> list[Problem]:
    out: list[Problem] = []
    live = state.in_progress
    if live is not None:
        return [Problem("R301", f"game {live.number} has not ended; record its end with 'scarbook campaign game "
                        "end --winner NAME' first")]
    for owed, role in owed_rewards(content, state):
        game = state.last_ended
        assert game is not None
        what = "the winner" if role == "winner" else "each player who held on"
        out.append(Problem("R304", f"{owed} has not taken a reward for game {game.number} yet "
                           f"(see 'scarbook campaign where STICKER --by {owed}')",
                           f"{what} takes one reward", _game_cite(content)))
    if state.started == 0:
        for sid, st in content.stickers.items():
            for chk in st.get("checks", []) or []:
                if chk.get("check") != "required-before-first-game":
                    continue
                pool = chk.get("pool")
                cite = cite_text(chk.get("cite"))
                if pool is not None:
                    count = next((p.get("count") for p in st.get("supply", []) or []
                                  if isinstance(p, dict) and p.get("pool") == pool), None)
                    left = (count - state.pool_used[(sid, pool)]) if isinstance(count, int) else 0
                    if left > 0:
                        out.append(Problem("R221", f"{left} {sid} of the {pool} supply still to place before "
                                           "game 1", "setup is finished before the first game", cite))
                else:
                    remaining = where(content, state, sid)
                    if remaining:
                        out.append(Problem("R221", f"{sid} still to place on {', '.join(remaining)} before game 1",
                                           "setup is finished before the first game", cite))
    seen_players: set[str] = set()
    seen_factions: set[str] = set()
    for raw_player, raw_faction in ev.plays:
        player = player_name(state, raw_player)
        if player is None:
            out.append(Problem("R104", f"'{raw_player}' is not a player of this campaign"
                               f"{did_you_mean(raw_player, state.players)}; players: {', '.join(state.players)}"))
            continue
        faction = normalize(raw_faction)
        if faction not in content.factions:
            out.append(Problem("R303", f"unknown faction '{raw_faction}'{did_you_mean(faction, content.factions)}; "
                               f"factions: {', '.join(content.factions)}"))
        if player in seen_players:
            out.append(Problem("R303", f"{player} plays twice"))
        if faction in seen_factions:
            out.append(Problem("R303", f"faction {faction} is played twice"))
        seen_players.add(player)
        seen_factions.add(faction)
    players = content.game.meta.get("players")
    if isinstance(players, dict) and isinstance(players.get("min"), int) and len(ev.plays) < players["min"]:
        out.append(Problem("R306", f"{len(ev.plays)} players; {content.game.title} needs at least {players['min']}"))
    if isinstance(players, dict) and isinstance(players.get("max"), int) and len(ev.plays) > players["max"]:
        out.append(Problem("R306", f"{len(ev.plays)} players; {content.game.title} takes at most {players['max']}"))
    played = {player_name(state, p) for p, _ in ev.plays}
    for raw_player, raw_terr in ev.starts:
        starter = player_name(state, raw_player)
        terr = normalize(raw_terr)
        if starter not in played:
            out.append(Problem("R305", f"{raw_player} does not play in this game"))
        elif terr not in content.territories:
            out.append(Problem("R305", f"unknown territory '{raw_terr}'{did_you_mean(terr, content.territories)}"))
        elif starter and terr not in legal_starts(content, state, starter):
            out.append(Problem("R305", f"{terr} is not a legal starting territory for {starter} (it has marks)",
                               "start where there are no marks, or on a major city you founded",
                               _start_cite(content)))
    return out


def _start_cite(content: Content) -> str:
    for st in content.stickers.values():
        for chk in st.get("checks", []) or []:
            if chk.get("check") == "start-for-founder":
                return cite_text(chk.get("cite"))
    return ""


def game_end_problems(content: Content, state: CampaignState, ev: GameEnded) -> list[Problem]:
    game = state.in_progress
    if game is None:
        return [Problem("R302", "no game is in progress; start one with 'scarbook campaign game start --play "
                        "NAME=FACTION ...'")]
    out = []
    names: dict[str, str] = {}
    for raw in [ev.winner, *ev.held_on, *ev.eliminated, *(p for p, _ in ev.controlled)]:
        player = player_name(state, raw)
        if player is None or player not in game.plays:
            out.append(Problem("R307", f"'{raw}' did not play game {game.number}; players: {', '.join(game.plays)}"))
        else:
            names[raw] = player
    if out:
        return out
    listed = [names[x] for x in [ev.winner, *ev.held_on, *ev.eliminated]]
    if len(set(listed)) != len(listed):
        out.append(Problem("R307", "a player is listed twice among winner, held on and eliminated"))
    for _player, terrs in ev.controlled:
        for t in terrs:
            if normalize(t) not in content.territories:
                out.append(Problem("R307", f"unknown territory '{t}'{did_you_mean(normalize(t), content.territories)}"))
    return out


# --- packets ----------------------------------------------------------------------------------
def trigger_met(content: Content, state: CampaignState, env: dict[str, Any]) -> bool | None:
    """Whether a packet's trigger is met now; None when the tracker cannot tell (the players decide)."""
    when = (env.get("trigger") or {}).get("when")
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
    return None  # about_to_place: answered when someone tries to place it


def pending(content: Content, state: CampaignState) -> list[str]:
    """Packets whose trigger is met and that are not opened yet."""
    return [eid for eid, env in content.envelopes.items()
            if eid not in state.opened and trigger_met(content, state, env)]


def open_problems(content: Content, state: CampaignState, ev: Opened) -> list[Problem]:
    eid = normalize(ev.envelope)
    env = content.envelopes.get(eid)
    if env is None:
        return [Problem("R311", f"unknown packet '{ev.envelope}'{did_you_mean(eid, content.envelopes)}; packets: "
                        f"{', '.join(content.envelopes)}")]
    if eid in state.opened:
        return [Problem("R312", f"packet {eid} is already open")]
    met = trigger_met(content, state, env)
    if met is False:
        trigger = env.get("trigger") or {}
        return [Problem("R313", f"packet {eid} may not be opened yet", str(trigger.get("text", "")),
                        cite_text((env.get("source") or {}).get("cite")))]
    return []


def tick_problems(content: Content, state: CampaignState, ev: Ticked) -> list[Problem]:
    target = normalize(ev.target)
    forts = [m for m in state.active_marks(target) if m.boxes]
    if not forts:
        return [Problem("R320", f"{target} has no mark with boxes to tick")]
    left = (forts[-1].boxes or 0) - forts[-1].ticked
    if ev.boxes > left:
        return [Problem("R320", f"{target} has {left} boxes left, not {ev.boxes}")]
    return []


# --- any event --------------------------------------------------------------------------------
def event_problems(content: Content, state: CampaignState, ev: Event) -> list[Problem]:
    """Everything wrong with recording `ev` now (what `check` and every write run)."""
    if isinstance(ev, GameStarted):
        return game_start_problems(content, state, ev)
    if isinstance(ev, GameEnded):
        return game_end_problems(content, state, ev)
    if isinstance(ev, (Placed, Destroyed)):
        if isinstance(ev, Placed):
            r = resolve(content, state, ev.sticker, ev.target, ev.by, ev.name)
        else:
            r = resolve_destroy(content, state, ev.card, ev.by)
        if isinstance(r, Problem):
            return [r]
        return placement_problems(content, state, r)
    if isinstance(ev, Opened):
        return open_problems(content, state, ev)
    if isinstance(ev, Ticked):
        return tick_problems(content, state, ev)
    return [Problem("L003", "unknown event")]


def resolve_destroy(content: Content, state: CampaignState, card: str, by: str = "") -> Resolved | Problem:
    for sid in content.destroy_stickers:
        if content.resolve(content.stickers[sid], card) is not None:
            return resolve(content, state, sid, card, by)
    if not content.destroy_stickers:
        return Problem("R103", f"{content.game.title} has no rule for destroying cards")
    return Problem("R102", f"'{card}' is not a card that can be destroyed")


def canonical(content: Content, state: CampaignState, ev: Event) -> Event | None:
    """The event with ids and names as the content and the ledger spell them (None: unreadable)."""
    where = {"span": ev.span, "index": ev.index}

    def who(raw: str) -> str:
        return player_name(state, raw) or raw

    if isinstance(ev, Placed):
        r = resolve(content, state, ev.sticker, ev.target, ev.by, ev.name)
        return None if isinstance(r, Problem) else Placed(r.sticker_id, r.target.id, r.actor, r.name, **where)
    if isinstance(ev, Destroyed):
        r = resolve_destroy(content, state, ev.card, ev.by)
        return None if isinstance(r, Problem) else Destroyed(r.target.id, r.actor, **where)
    if isinstance(ev, GameStarted):
        return GameStarted(tuple((who(p), normalize(f)) for p, f in ev.plays),
                           tuple((who(p), normalize(t)) for p, t in ev.starts), **where)
    if isinstance(ev, GameEnded):
        game = state.in_progress
        listed = [who(ev.winner), *(who(p) for p in ev.held_on), *(who(p) for p in ev.eliminated)]
        held = [who(p) for p in ev.held_on]
        if game is not None:
            held += [p for p in game.plays if p not in listed]  # unlisted players held on
        return GameEnded(who(ev.winner), tuple(held), tuple(who(p) for p in ev.eliminated),
                         tuple((who(p), tuple(normalize(t) for t in ts)) for p, ts in ev.controlled), ev.date,
                         **where)
    if isinstance(ev, Opened):
        return Opened(normalize(ev.envelope), ev.pack, **where)
    if isinstance(ev, Ticked):
        return Ticked(normalize(ev.target), ev.boxes, **where)
    return ev
