"""What `status` and `log` show: the campaign's state as plain data, and each event in words.

`status_data` is the JSON shape of `scarbook campaign status --format json`; the text for people is a view of
that data (`campaign/views/status.py`). Only content players may see appears (the replay's content is
already the effective one: nothing sealed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scarbook.campaign import shape, steps, todo
from scarbook.campaign.engine import Replay
from scarbook.campaign.ledger.file import Ledger
from scarbook.campaign.links import cuts
from scarbook.campaign.rules import blocking as rules_blocking
from scarbook.campaign.rules import legal_now, legal_starts, to_put_in_place, where
from scarbook.campaign.state import pool_for
from scarbook.campaign.status_rows import (
    FactionGame,
    FactionRow,
    GameRow,
    GroupedMark,
    MarkGroupRow,
    MarkRow,
    OwedReward,
    PieceRow,
    PlayerRow,
    RegionRow,
    ResourceRow,
    SignatureRow,
    Status,
    StickerRow,
)

# moved to the status view; still importable from here (code written against the old place keeps working)
from scarbook.campaign.views.status import mark_line as mark_line
from scarbook.campaign.views.status import status_text as status_text
from scarbook.campaign.views.status import when_placed as when_placed
from scarbook.compiler.views_more import more
from scarbook.compiler.words import group_of, mark_groups, words

if TYPE_CHECKING:
    from scarbook.compiler.items import Sticker


def overall_winner(replay: Replay) -> dict[str, Any] | None:
    """The outcome as `status` has always shown it under `overall_winner` (`outcome.show: winner` or `tally`):
    once decided, the leader(s) and for a tie the roll-off bonus each tied player adds; or the team's tally."""
    content, state = replay.content, replay.state
    rule = content.model.outcome
    if rule is None or rule.show == "standings":
        return None
    if rule.show == "tally":
        return shape.team_result(content, state)
    last = state.last_ended

    def still_open() -> bool:  # a step of the last game still to take can change it
        return last is not None and any(o.game == last.number for o in steps.open_entries(content, state))

    return shape.overall_winner(content, state, still_open)


def tokens(replay: Replay, player: str) -> dict[str, int]:
    """What a player starts the next game with, by the content's token formulas."""
    state = replay.state
    sig = state.signature_count(player)
    all_signed = all(state.signature_count(p) for p in state.players)
    holds = {"always": True, "unsigned": sig == 0, "signed": sig > 0, "all-signed": all_signed}
    return {t.id: (t.base + t.per_signature * sig) if any(holds.get(w, False) for w in t.when) else 0
            for t in replay.content.model.tokens}


def may_still(replay: Replay, player: str) -> list[str]:
    """Stickers the player may still place now for a step they owe (with a legal target)."""
    content, state = replay.content, replay.state
    out: list[str] = []
    for o in steps.open_entries(content, state):
        if not o.takes(player):
            continue
        for s in (*o.step.stickers, *o.step.fallback):
            if s not in out and s in content.stickers and where(content, state, s, player, o.piece, in_order=False):
                out.append(s)
    return out


def step_data(replay: Replay) -> list[dict[str, Any]]:
    """The last game's steps: each entry, who takes it, and whether it is done, passed or owed."""
    content, state = replay.content, replay.state
    game = state.last_ended
    if game is None:
        return []
    blocking = {o.key for o in rules_blocking(content, state)}
    out = []
    for o in steps.entitled(content, game, state):
        done = state.steps.get(o.key)
        out.append({"game": o.game, "step": o.step.id, "name": o.step.name, "player": o.who,
                    "for": o.piece or None, "done": done,
                    "owed": o.key in blocking, "mandatory": o.step.mandatory})
    return out


def given_name(replay: Replay, item_id: str) -> str | None:
    """The name the players gave an item (a faction's name, a character's alias): its latest active named mark."""
    named = [m for m in replay.state.active_marks(item_id) if m.name
             and replay.content.sticker_view(m.sticker).named_itself]
    return named[-1].name if named else None


def piece_stats(replay: Replay) -> list[PieceRow]:
    """Every piece with stats (a character card): its current values, upgrades applied."""
    content, state = replay.content, replay.state
    out = []
    for kind in content.model.pieces:
        for pid, item in more(content).pieces_of(kind).items():
            stats = item.stats
            if stats is None:
                continue
            current = {key: state.stat(content, pid, base, key) for key, base in stats.items()}
            printed = {key: base if isinstance(base, int) else None for key, base in stats.items()}
            raised = {key: sum(int(content.sticker_view(m.sticker).adds.get(key) or 0)
                               for m in state.active_marks(pid)) for key in stats}
            out.append(PieceRow(pid, item.name_or(pid), given_name(replay, pid), state.claimed_by(content, pid),
                                current, printed, {k: n for k, n in raised.items() if n},
                                any(pid in g.lost for g in state.games), state.retired_pieces.get(pid)))
    return out


def _is_choice(sticker: Sticker) -> bool:
    """A sticker that records a choice among a faction's options (its chosen power)."""
    return bool(sticker.checks_named("choice-of"))


def _only_a_name(sticker: Sticker) -> bool:
    """A sticker whose whole mark is the name it gives (a region's, a faction's, a character's alias): the name is
    shown where the named thing is. One that also brings the board territories, lines or boxes to tick (a new
    continent its placer names) is a mark of its kind as well, listed with the others (issue 34 N8)."""
    return sticker.named_itself and not (sticker.adds_territories or sticker.links.each or sticker.links.optional
                                         or sticker.boxed)


def grouped_marks(replay: Replay, marks: list[MarkRow]) -> list[MarkGroupRow]:
    """Every placed mark (not the stickers that cancel others), in the game's mark groups (`game: marks:`), in the
    groups' order; only groups that hold a mark. Each mark keeps its status fields and says if it is cancelled."""
    content = replay.content
    groups = mark_groups(content.game)
    held: dict[str, list[GroupedMark]] = {g.id: [] for g in groups}
    for m in marks:
        if m.cancels:
            continue
        st = content.stickers.get(m.sticker, {})
        view = content.sticker_view(m.sticker)
        # also shown elsewhere: a chosen power, a changed value, a given name, a destroyed card
        shown_as = ("choice" if _is_choice(view) else "value" if view.adds else "name" if _only_a_name(view)
                    else "destroyed" if m.sticker in content.destroy_stickers else None)
        held[group_of(groups, m.sticker, st, m.slot).id].append(
            GroupedMark(m, not m.active, shown_as, more(content).population.get(m.sticker)))
    return [MarkGroupRow(g.id, g.word.one, g.word.many, g.board, g.declared, held[g.id])
            for g in groups if held[g.id]]


def status_data(ledger: Ledger, replay: Replay) -> dict[str, Any]:
    """`status --format json`."""
    return status(ledger, replay).json()


def status(ledger: Ledger, replay: Replay) -> Status:
    """Where the campaign stands, as typed rows (`campaign/status_rows.py`)."""
    content, state = replay.content, replay.state
    game = content.game
    players = []
    for p in state.players:
        sig = state.signature_count(p)
        owns = {k: [pid for pid in content.pieces_of(k) if state.claimed_by(content, pid) == p]
                for k in content.model.pieces if content.model.pieces[k].claim}
        players.append(PlayerRow(p, sig, tokens(replay, p), {k: v for k, v in owns.items() if v},
                                 legal_starts(content, state, p), may_still(replay, p),
                                 *shape.player_totals(content, state, p)))
    regions = []
    for rid, reg in content.regions.items():
        named = [m for m in state.active_marks(rid) if content.sticker_view(m.sticker).named_itself]
        bonus = more(content).regions[rid].bonus
        regions.append(RegionRow(shape.region_owner(content, state, rid), rid,
                                 named[-1].name if named else None, named[-1].by if named else None,
                                 named[-1].sticker if named else None, bonus,
                                 state.value(content, rid, reg, "bonus") if bonus is not None else None,
                                 [m.sticker for m in state.active_marks(rid)
                                  if "bonus" in content.sticker_view(m.sticker).adds]))
    cities, forts = [], []
    for tid in content.territories:
        for m in state.active_marks(tid):
            if m.founds:
                cities.append({"territory": tid, "name": m.name, "sticker": m.sticker, "by": m.by,
                               "game": m.after_game, "during_game": m.during_game or None,
                               "population": more(content).population.get(m.sticker)})
            elif m.boxes:
                forts.append({"territory": tid, "sticker": m.sticker, "boxes": m.boxes, "left": m.boxes - m.ticked})
    owed_kinds = {k for o in content.model.owed_when_opened for k in o.kinds}
    cards = []
    destroyed = []
    for cid, card in content.cards.items():
        if state.destroyed(cid):
            destroyed.append(cid)
        printed = more(content).cards[cid].resources
        if printed is not None and content.card_kind(content.card_views[cid]) == "territory":
            value = state.value(content, cid, card, "resources")
            cards.append(ResourceRow(cid, value, printed))
    stickers = []
    for sid, st in content.sticker_views.items():
        pool, count = pool_for(state, st)
        left = None if count is None else count - state.pool_used[(sid, pool)]
        stickers.append(StickerRow(sid, state.placed[sid], pool, left))
    factions = []
    for fid, fac in more(content).factions.items():
        power = next((m.name for m in state.active_marks(fid) if _is_choice(content.sticker_view(m.sticker))),
                     None)
        history = []
        for g in state.games:
            player = next((p for p, ps in g.pieces.items() if fid in ps.values()), None)
            history.append(FactionGame(g.number, player, g.starts.get(player or "", None),
                                       (g.role(player) if g.ended else "playing") if player else "not played"))
        factions.append(FactionRow(fid, fac.name_or(fid), given_name(replay, fid), power,
                                   [m.sticker for m in state.active_marks(fid) if not m.cancels
                                    and not _is_choice(content.sticker_view(m.sticker))], history))
    games = []
    for g in state.games:
        sc = content.model.scenarios.get(g.scenario) if g.scenario else None
        games.append(GameRow(g.number, g.type, g.plays, g.pieces, g.starts, list(g.seating), g.ended, g.winner or None,
                             g.held_on, g.eliminated, g.lost, g.returned, g.signed, g.date or None, g.team or None,
                             shape.chapter_label(content, g) or None, g.scenario or None,
                             (sc.name if sc else g.scenario) if g.scenario else None,
                             dict(g.scores) if g.scores else None))
    marks = [MarkRow(target, m.sticker, m.kind, m.slot, m.name or None, m.by or None, m.after_game,
                     m.during_game or None, m.active, m.covered_by, m.status or None, m.placed_by or None, m.cancels,
                     m.boxes, (m.boxes - m.ticked) if m.boxes else None)
             for target, placed in state.marks.items() for m in placed]
    live = state.in_progress
    owed = todo.todo(content, state)
    return Status(
        ledger.name or None, game.id, players, [SignatureRow(p, n) for p, n in state.signatures],
        sum(1 for g in state.games if g.ended),
        live.number if live else None, games, regions,
        {k: {"one": w.one, "many": w.many} for k, w in words(content.game).items()},
        any(s.does == "sign" for gt in content.model.types.values() for s in gt.steps),
        any(st.named_itself for st in content.sticker_views.values()),
        bool(content.model.starts) or any("start" in s.records for gt in content.model.types.values()
                                           for s in gt.steps),
        grouped_marks(replay, marks), cards, destroyed, stickers, factions, replay.pending, list(state.opened),
        [OwedReward(t.who, t.what) for t in owed if t.kind == "step"],
        {t.id: {"name": t.name, "plural": t.plural} for t in content.model.tokens}, piece_stats(replay), marks,
        overall_winner(replay),
        {"cities": cities, "fortifications": forts,
         "scores_kept": any(g.scores for g in state.games),
         "to_put_in_place": [{"sticker": sid, "target": target, "packet": env,
                              "before_next_game": content.sticker_view(sid).kind in owed_kinds}
                             for sid, target, env in to_put_in_place(content, state)],
         "packs": list(state.packs),
         "lines": [{"sticker": s, "between": [a, b]} for s, a, b in state.links
                   if not cuts(content.sticker_view(s))],
         "cuts": [{"sticker": s, "between": [a, b]} for s, a, b in state.links
                  if cuts(content.sticker_view(s))],
         "todo": [t.to_json() for t in owed],
         "steps": step_data(replay),
         "passes": [{"game": g, "step": st, "by": by, "for": piece or None, "why": why or None}
                    for g, st, by, piece, why in state.passes],
         "joined": [{"player": p, "after_game": n} for p, n in state.joined],
         "left": [{"player": p, "after_game": n, "to": heir or None} for p, n, heir in state.left],
         "next_game": {"number": state.started + 1 if live is None else live.number,
                       "type": content.model.type_of(state.started + 1 if live is None else live.number),
                       "rewarded": content.model.rewarded(state.started + 1 if live is None else live.number)},
         "events": state.events,
         "campaign_games": content.model.games,
         "on_territories": [m for m in marks if m.target in content.territories and m.active and not m.cancels]},
        shape.status_data(content, state, lambda sid, t: legal_now(content, state, sid, t)),
    )
