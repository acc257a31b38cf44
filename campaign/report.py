"""What `status` and `log` show: the campaign's state as plain data, and as text.

`status_data` is the JSON shape of `scarbook campaign status --format json`; `status_text`
renders the same for people. Only content players may see appears (the replay's content is
already the effective one: nothing sealed).
"""

from __future__ import annotations

from typing import Any

from .engine import Replay
from .events import Destroyed, Event, GameEnded, GameStarted, Opened, Placed, Ticked
from .ledger import Ledger
from .rules import legal_starts, owed_rewards, where
from .state import pool_for


def overall_winner(replay: Replay) -> dict[str, Any] | None:
    """After the last rewarded game: the player(s) with the most signatures."""
    limit = replay.content.rewards_limit
    last = replay.state.last_ended
    if limit is None or last is None or last.number < limit:
        return None
    counts = {p: replay.state.signature_count(p) for p in replay.state.players}
    best = max(counts.values())
    return {"players": [p for p, n in counts.items() if n == best], "signatures": best}


def may_still(replay: Replay, player: str) -> list[str]:
    """Rewards the player may still take now (stickers with a legal target)."""
    content, state = replay.content, replay.state
    game = state.last_ended
    if game is None or state.in_progress is not None or (game.number, player) in state.rewards:
        return []
    role = game.role(player)
    return [s for s, roles in content.reward_stickers.items()
            if role in roles and s in content.stickers and where(content, state, s, player)]


def status_data(ledger: Ledger, replay: Replay) -> dict[str, Any]:
    content, state = replay.content, replay.state
    game = content.game
    players = []
    for p in state.players:
        sig = state.signature_count(p)
        players.append({
            "name": p, "signatures": sig, "missiles": sig, "red_star": sig == 0,
            "legal_starts": legal_starts(content, state, p),
            "may_take": may_still(replay, p),
        })
    regions = []
    for rid, reg in content.regions.items():
        named = [m for m in state.active_marks(rid) if content.stickers.get(m.sticker, {}).get("named")]
        bonus = reg.get("bonus")
        regions.append({"id": rid, "name": named[-1].name if named else None,
                        "named_by": named[-1].by if named else None,
                        "printed_bonus": bonus if isinstance(bonus, int) else None,
                        "bonus": state.value(content, rid, reg, "bonus") if isinstance(bonus, int) else None,
                        "changes": [m.sticker for m in state.active_marks(rid)
                                    if "bonus" in (content.stickers.get(m.sticker, {}).get("adds") or {})]})
    cities, scars, forts = [], [], []
    for tid in content.territories:
        for m in state.active_marks(tid):
            if m.founds:
                cities.append({"territory": tid, "name": m.name, "sticker": m.sticker, "by": m.by,
                               "game": m.after_game})
            elif m.boxes:
                forts.append({"territory": tid, "sticker": m.sticker, "boxes": m.boxes, "left": m.boxes - m.ticked})
            elif m.slot == "scar" or m.kind == "scar":
                scars.append({"territory": tid, "scar": m.sticker, "cancelled": False})
        for m in state.marks.get(tid, []):
            if m.kind == "scar" and not m.active:
                scars.append({"territory": tid, "scar": m.sticker, "cancelled": True})
    cards = []
    destroyed = []
    for cid, card in content.cards.items():
        if state.destroyed(cid):
            destroyed.append(cid)
        if isinstance(card.get("resources"), int) and content.card_kind(card) == "territory":
            value = state.value(content, cid, card, "resources")
            cards.append({"card": cid, "resources": value, "printed": card["resources"]})
    stickers = []
    for sid, st in content.stickers.items():
        pool, count = pool_for(state, st)
        left = None if count is None else count - state.pool_used[(sid, pool)]
        stickers.append({"sticker": sid, "placed": state.placed[sid], "pool": pool, "left": left})
    factions = []
    for fid, fac in content.factions.items():
        power = next((m.name for m in state.active_marks(fid) if m.kind == "power"), None)
        history = []
        for g in state.games:
            player = next((p for p, f in g.plays.items() if f == fid), None)
            history.append({"game": g.number, "player": player, "start": g.starts.get(player or "", None),
                            "result": (g.role(player) if g.ended else "playing") if player else "not played"})
        factions.append({"id": fid, "name": fac.get("name", fid), "power": power,
                         "scars": [m.sticker for m in state.active_marks(fid) if m.kind == "scar"],
                         "history": history})
    games = [{"game": g.number, "plays": g.plays, "ended": g.ended, "winner": g.winner or None,
              "held_on": g.held_on, "eliminated": g.eliminated, "date": g.date or None} for g in state.games]
    marks = [{"target": target, "sticker": m.sticker, "kind": m.kind, "slot": m.slot, "name": m.name or None,
              "by": m.by or None, "game": m.after_game, "active": m.active, "covered_by": m.covered_by,
              "cancels": m.cancels, "boxes": m.boxes, "left": (m.boxes - m.ticked) if m.boxes else None}
             for target, placed in state.marks.items() for m in placed]
    live = state.in_progress
    return {
        "campaign": ledger.name or None, "game": game.id, "players": players,
        "games_played": sum(1 for g in state.games if g.ended), "game_in_progress": live.number if live else None,
        "games": games, "signatures": [{"player": p, "game": n} for p, n in state.signatures],
        "continents": regions, "cities": cities, "scars": scars, "fortifications": forts,
        "resources": cards, "destroyed_cards": destroyed, "stickers": stickers, "factions": factions,
        "pending_packets": replay.pending, "opened_packets": list(state.opened),
        "owed_rewards": [{"player": p, "role": r} for p, r in owed_rewards(content, state)],
        "overall_winner": overall_winner(replay),
        "marks": marks, "events": state.events,
    }


def status_text(data: dict[str, Any]) -> str:
    out: list[str] = []
    title = data["campaign"] or "campaign"
    live = data["game_in_progress"]
    out.append(f"{title} ({data['game']}): {data['games_played']} games played"
               + (f", game {live} in progress" if live else ""))
    out.append("")
    out.append("Players:")
    for p in data["players"]:
        start = "missile" if p["missiles"] == 1 else "missiles"
        token = f"{p['missiles']} {start}" if p["missiles"] else "Red Star (not signed)"
        extra = f"; may still take: {', '.join(p['may_take'])}" if p["may_take"] else ""
        signed = f"{p['signatures']} signature{'' if p['signatures'] == 1 else 's'}"
        out.append(f"  {p['name']}: {signed}, starts with {token}; "
                   f"{len(p['legal_starts'])} legal starting territories{extra}")
    if data["owed_rewards"]:
        out.append("Rewards still to take: " + ", ".join(f"{o['player']} ({o['role']})" for o in data["owed_rewards"]))
    out.append("")
    out.append("Continents:")
    for r in data["continents"]:
        name = f" named {r['name']!r} by {r['named_by']}" if r["name"] else " (unnamed)"
        bonus = f"bonus {r['bonus']}" if r["bonus"] is not None else "bonus unknown"
        change = f" (printed {r['printed_bonus']}, {', '.join(r['changes'])})" if r["changes"] else ""
        out.append(f"  {r['id']}{name}: {bonus}{change}")
    if data["cities"]:
        out.append("Cities:")
        for c in data["cities"]:
            out.append(f"  {c['territory']}: {c['name']!r} ({c['sticker']}, {c['by'] or 'setup'}, after game "
                       f"{c['game']})")
    if data["fortifications"]:
        out.append("Fortifications:")
        for f in data["fortifications"]:
            out.append(f"  {f['territory']}: {f['left']} of {f['boxes']} boxes left")
    if data["scars"]:
        out.append("Scars:")
        for s in data["scars"]:
            out.append(f"  {s['territory']}: {s['scar']}{' (cancelled)' if s['cancelled'] else ''}")
    upgraded = [c for c in data["resources"] if c["resources"] != c["printed"]]
    if upgraded:
        out.append("Upgraded cards: " + ", ".join(f"{c['card']} {c['resources']}" for c in upgraded))
    if data["destroyed_cards"]:
        out.append("Destroyed cards: " + ", ".join(data["destroyed_cards"]))
    powers = [f"{f['id']}: {f['power']}" for f in data["factions"] if f["power"]]
    if powers:
        out.append("Starting powers: " + "; ".join(powers))
    out.append("Stickers left: " + ", ".join(
        f"{s['sticker']} {s['left'] if s['left'] is not None else '?'}" + (f" ({s['pool']})" if s["pool"] else "")
        for s in data["stickers"]))
    if data["pending_packets"]:
        out.append("Packets to open now: " + ", ".join(data["pending_packets"]))
    if data["opened_packets"]:
        out.append("Opened packets: " + ", ".join(data["opened_packets"]))
    if data["games"]:
        out.append("")
        out.append("Faction history:")
        for f in data["factions"]:
            cells = []
            for h in f["history"]:
                who = f"{h['player']}" + (f"@{h['start']}" if h["start"] else "") if h["player"] else ""
                cells.append(f"{h['game']}:{who + ' ' if who else ''}{h['result']}")
            out.append(f"  {f['id']}: " + "; ".join(cells))
    if data["overall_winner"]:
        w = data["overall_winner"]
        out.append(f"Overall winner: {' and '.join(w['players'])} with {w['signatures']} signatures")
    return "\n".join(out)


def describe(ev: Event) -> str:
    if isinstance(ev, GameStarted):
        plays = ", ".join(f"{p} as {f}" for p, f in ev.plays)
        return f"game starts: {plays}"
    if isinstance(ev, GameEnded):
        parts = [f"{ev.winner} wins"]
        if ev.held_on:
            parts.append(f"held on: {', '.join(ev.held_on)}")
        if ev.eliminated:
            parts.append(f"eliminated: {', '.join(ev.eliminated)}")
        return "game ends: " + "; ".join(parts)
    if isinstance(ev, Placed):
        name = f" {ev.name!r}" if ev.name else ""
        return f"{ev.sticker}{name} on {ev.target}" + (f" by {ev.by}" if ev.by else "")
    if isinstance(ev, Destroyed):
        return f"{ev.card} destroyed" + (f" by {ev.by}" if ev.by else "")
    if isinstance(ev, Opened):
        return f"packet {ev.envelope} opened" + (f" (pack {ev.pack})" if ev.pack else "")
    if isinstance(ev, Ticked):
        return f"{ev.boxes} box(es) ticked on {ev.target}"
    return ev.kind
