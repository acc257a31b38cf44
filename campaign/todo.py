"""What is still to do before the next game, in the order the rules require, each with the command to type.

One list for `status`, `game end` and `open`: the sealed packets to open now, the setup the next game waits for
(before game 1, or what a game asks "in game 1" before game 2), the end-of-game steps still owed (in step order;
within a step, the winner first where the step says so, and clockwise from the winner where it says that), and
what an opened packet puts in place before the next game. Each entry names who acts, what, the rule and its
source, and one command line. Legality stays in `rules`; this module only lists and orders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scarbook.campaign import drafts, steps
from scarbook.campaign.rules import (
    _choices,
    blocking,
    owed_targets,
    pending,
    setup_left_for,
    setup_problems,
    to_put_in_place,
    where,
)

if TYPE_CHECKING:
    from scarbook.campaign.content import Content
    from scarbook.campaign.state import CampaignState, GameRecord
    from scarbook.compiler.items import Sticker


@dataclass(frozen=True)
class Todo:
    """One thing owed before the next game: who, what, the command to type, and the rule it follows."""

    who: str  # a player, 'the team', or '' (anyone at the table)
    what: str
    command: str
    hint: str = ""  # how to find the target, or the other way to take it (a pass)
    rule: str = ""
    cite: str = ""
    kind: str = "step"  # 'packet', 'setup', 'step' or 'in-place'
    step: str = ""  # the end-of-game step's id (kind 'step')
    piece: str = ""

    def to_json(self) -> dict[str, Any]:
        """The entry as the commands' JSON gives it (`status`, `game end`, `open`: `todo`)."""
        return {"who": self.who or None, "what": self.what, "command": self.command, "hint": self.hint or None,
                "rule": self.rule or None, "cite": self.cite or None, "kind": self.kind, "step": self.step or None,
                "for": self.piece or None}


def clockwise(game: GameRecord) -> list[str]:
    """The players of the game in seating order, starting with the one left of the winner."""
    seats = [p for p in game.seating if p in game.plays]
    if game.winner not in seats:
        return seats
    at = seats.index(game.winner)
    return seats[at + 1:] + seats[:at]


def in_turn(game: GameRecord, owed: list[steps.Owed]) -> list[steps.Owed]:
    """Owed entries in the order the rules take them: by step; within a step the winner first ('winner-first'),
    or clockwise from the winner ('clockwise-from-winner', by the recorded seating); else as the game lists them."""
    order = clockwise(game)

    def key(o: steps.Owed) -> tuple[int, int, int]:
        seat = order.index(o.actor) if o.step.order == "clockwise-from-winner" and o.actor in order else 0
        first = 0 if o.step.order != "winner-first" or o.actor == game.winner else 1
        return (o.index, first, seat)

    return sorted(owed, key=key)


def _placeholder(sticker: Sticker) -> str:
    kinds = list(sticker.targets)
    return "|".join(k.upper().replace("-", "_") for k in kinds) or "TARGET"


def _name_part(content: Content, state: CampaignState, sid: str, target: str | None) -> str:
    """The --name/--value a placement needs: a name the players give, one of the target's options, a stat."""
    sticker = content.sticker_views[sid]
    if target is not None:
        kinds = list(sticker.targets)
        tgt = next((content.target_of_kind(k, target) for k in kinds if target in content.target_ids(k, sticker)),
                   None)
        if tgt is not None:
            opts = [(n, v) for n, v in _choices(content, state, sticker, tgt) if n and n != "x"]
            if opts and opts[0][1] is not None:
                return " --name {" + "|".join(n for n, _ in opts) + "} --value N"
            if opts:
                return " --name " + (opts[0][0] if len(opts) == 1 else "{" + "|".join(n for n, _ in opts) + "}")
    if sticker.checks_named("choice-of"):
        return " --name CHOICE"
    if sticker.checks_named("steps-value"):
        return " --name STAT --value N"
    if sticker.named:
        return " --name NAME"
    return ""


def place_command(content: Content, state: CampaignState, sid: str, by: str = "", piece: str = "",
                  target: str | None = None) -> tuple[str, str]:
    """The `place` command for one sticker: its target when only one is legal now, else the kind to choose
    (with the `where` command that lists them)."""
    sticker = content.sticker_views[sid]
    if target is None:
        found = where(content, state, sid, by, piece, in_order=False)
        target = found[0] if len(found) == 1 else None
    by_part = f" --by {by}" if by else ""
    cmd = f"scarbook campaign place {sid} {target or _placeholder(sticker)}{_name_part(content, state, sid, target)}"
    cmd += by_part
    return cmd, "" if target is not None else f"where it may go: scarbook campaign where {sid}{by_part}"


def _step_command(content: Content, state: CampaignState, o: steps.Owed) -> tuple[str, str]:
    actor = o.actor or next(iter(o.players), "")
    offered = [s for s in (*o.step.stickers, *o.step.fallback) if s in content.stickers]
    legal = [s for s in offered if where(content, state, s, actor, o.piece, in_order=False)]
    passing = (f"scarbook campaign pass {o.step.id} --by {actor}" + (f" --for {o.piece}" if o.piece else "")
               + " --why TEXT")
    if not legal:
        return passing, "nothing it offers can go anywhere now, so it is passed"
    if len(legal) == 1:
        cmd, hint = place_command(content, state, legal[0], actor, o.piece)
    else:
        cmd = f"scarbook campaign place {{{'|'.join(legal or offered)}}} TARGET --by {actor}"
        hint = f"where each may go: scarbook campaign where STICKER --by {actor}"
    if o.step.pass_if:
        hint = "; ".join(x for x in (hint, f"or, if {o.step.pass_if}: {passing}") if x)
    return cmd, hint


def _setup(content: Content, state: CampaignState, number: int) -> list[Todo]:
    """The setup the next game waits for, one entry per player, target or sticker left to place."""
    out: list[Todo] = []
    for ob in content.model.setup:
        if ob.before_game > number or ob.sticker not in content.stickers:
            continue
        st = content.stickers[ob.sticker]
        what = ob.text or f"place {st.get('name', ob.sticker)}"
        if ob.each == "player":
            for p in state.players:
                left = setup_left_for(state, ob.sticker, ob.count, p)
                if left:
                    said = f"{what} ({left} still to place)" if ob.count > 1 else what
                    out.append(Todo(p, said, *place_command(content, state, ob.sticker, p), ob.text, ob.cite,
                                    "setup"))
        elif ob.each == "target":
            for t in owed_targets(content, state, ob.sticker):
                out.append(Todo("", f"{what}: {t}", *place_command(content, state, ob.sticker, target=t),
                                ob.text, ob.cite, "setup"))
        else:
            done = state.pool_used[(ob.sticker, ob.pool)] if ob.pool else state.placed[ob.sticker]
            if done < ob.count:
                left = ob.count - done
                cmd, hint = place_command(content, state, ob.sticker)
                hint = "; ".join(x for x in (f"{left} times" if left > 1 else "", hint) if x)
                out.append(Todo("", f"{what} ({left} still to place)" if ob.count > 1 else what, cmd, hint,
                                ob.text, ob.cite, "setup"))
    return out


def todo(content: Content, state: CampaignState) -> list[Todo]:
    """Everything owed before the next game may start, in order; while a game is in progress, what it owes before
    it may end (its draft)."""
    if state.in_progress is not None:
        return [Todo(d.who, d.what, d.command, "", d.rule, d.cite, "draft") for d in drafts.owed(content, state)]
    number = state.started + 1
    out = [Todo("", f"open the sealed packet {env}", f"scarbook campaign open {env}", kind="packet")
           for env in pending(content, state)]
    if setup_problems(content, state, number):
        out += _setup(content, state, number)
    game = state.last_ended
    if game is not None:
        for o in in_turn(game, blocking(content, state)):
            what = o.step.name + (f" for {o.piece}" if o.piece and o.piece != o.actor else "")
            out.append(Todo(o.who, what, *_step_command(content, state, o), o.step.name, o.step.cite, "step",
                            o.step.id, o.piece))
    kinds = {k for o in content.model.owed_when_opened for k in o.kinds}
    for sid, target, env in to_put_in_place(content, state, kinds) if kinds else []:
        kind = content.sticker_views[sid].kind
        owed = next((o for o in content.model.owed_when_opened if kind in o.kinds), None)
        label = content.sticker_views[sid].name
        out.append(Todo("", f"put {label} from the opened packet '{env}' in place",
                        *place_command(content, state, sid, target=target), owed.text if owed else "",
                        owed.cite if owed else "", "in-place"))
    return out
