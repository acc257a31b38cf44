"""The status text: `scarbook campaign status` for people, rendered from the typed status (`report.status`).

A view of the data the service returns, not part of the tracker's rules: it reads nothing but the status (typed
rows, `campaign/status_rows.py`; the JSON of `status --format json` is typed again first) and the campaign
shape's own lines. The CLI picks it from its reporter table
(`scarbook/cli/reporters.py`).
"""

from __future__ import annotations

from typing import Any

from scarbook.campaign import shape
from scarbook.campaign.status_rows import GroupedMark, PlayerRow, Status
from scarbook.campaign.views.todo import todo_lines


def when_placed(after_game: int, during_game: int | None = None) -> str:
    """When a mark was placed, in words: 'during game 3', 'after game 2' (between games 2 and 3), 'before game 1'."""
    if during_game:
        return f"during game {during_game}"
    return f"after game {after_game}" if after_game else "before game 1"


def mark_line(grouped: GroupedMark) -> str:
    """One placed mark in a status group: where, what, its name, its state, who placed it and when."""
    m = grouped.mark
    state = ""
    if m.boxes:
        state = f", {m.left} of {m.boxes} box{'' if m.boxes == 1 else 'es'} left"
    elif isinstance(grouped.population, int):
        state = f", population {grouped.population}"
    placed = f"{m.by or 'setup'}, {when_placed(m.game or 0, m.during_game)}"
    name = f" {m.name!r}" if m.name else ""
    cancelled = f" ({m.status})" if m.status else f" (cancelled by {m.covered_by})" if grouped.cancelled else ""
    if m.placed_by:
        placed = f"{m.by}'s, placed by {m.placed_by}, {when_placed(m.game or 0, m.during_game)}"
    return f"  {m.target}: {m.sticker}{name}{cancelled} ({placed}{state})"


def _comings_and_goings(data: dict[str, Any]) -> list[str]:
    """Who joined and who left the campaign since it began (and to whom their holdings went)."""
    def when(n: int) -> str:
        return f"after game {n}" if n else "before game 1"

    said = [f"{j['player']} joined {when(j['after_game'])}" for j in data.get("joined") or []]
    said += [f"{x['player']} left {when(x['after_game'])}" + (f", handing their holdings to {x['to']}" if x["to"]
                                                              else "") for x in data.get("left") or []]
    return ["  (" + "; ".join(said) + ")"] if said else []


def _totals(p: PlayerRow) -> str:
    """What a player holds over the campaign where the game keeps it: places claimed, the total score."""
    out = f"; owns {', '.join(p.claimed)}" if p.claimed else ""
    return out + (f"; total score {p.score_total}" if p.score_total is not None else "")


def status_text(status: Status | dict[str, Any]) -> str:
    """The status for people, from the typed status or its JSON (`status --format json`)."""
    data = status if isinstance(status, Status) else Status.from_json(status)
    rest = data.rest
    out: list[str] = []
    title = data.campaign or "campaign"
    live = data.game_in_progress
    length = rest["campaign_games"]
    played = data.games_played
    count = f"{played} games played ({length} in the campaign)" if length and played > length else \
        f"{played}{f' of {length}' if length else ''} game{'' if played == 1 and not length else 's'} played"
    out.append(f"{title} ({data.game}): {count}"
               + (f", game {live} in progress" if live else "")
               + ("; the campaign is over (later games give no rewards)" if length and played >= length else ""))
    out.extend(shape.status_lines(data.shape))
    out.append("")
    out.append("Players:")
    names = data.token_names
    for p in data.players:
        held = [f"{n} {names[t]['name'] if n == 1 else names[t]['plural']}" for t, n in p.tokens.items() if n]
        token = f", starts with {' and '.join(held)}" if held else ""
        extra = f"; may still take: {', '.join(p.may_take)}" if p.may_take else ""
        owns = "".join(f"; {k}: {', '.join(v)}" for k, v in p.owns.items()) + _totals(p)
        signed = f"{p.signatures} {data.word('signature', p.signatures)}" if data.signs else ""
        starts = len(p.legal_starts)
        head = f"{signed}{token}{owns}".lstrip(", ").lstrip("; ")
        legal = f"{starts} legal {data.word('start', starts)}" if data.starts_used else ""
        said = "; ".join(x for x in (head, legal, extra.removeprefix("; ")) if x)  # the total: in `owns`
        out.append(f"  {p.name}: {said or 'nothing yet'}")
    out.extend(_comings_and_goings(rest))
    if rest["todo"]:
        out.extend(todo_lines(rest["todo"], rest["next_game"]["number"], bool(data.game_in_progress)))
    elif data.owed_rewards:
        out.append("Still to do before the next game: " + "; ".join(f"{o.player}: {o.role}"
                                                                    for o in data.owed_rewards))
    returned = [f"game {g.game}: {piece} ({price})" for g in data.games for piece, price in g.returned.items()]
    if returned:
        out.append("Played again after being lost, at a price: " + "; ".join(returned))
    last = max((g.game for g in data.games if g.ended), default=0)
    recent = [p for p in rest["passes"] if p["game"] == last]  # older passes: 'status --format json', 'log'
    if recent:
        out.append(f"Passed after game {last}: " + "; ".join(
            f"{p['step']} by {p['by']}" + (f" for {p['for']}" if p["for"] else "")
            + (f" ({p['why']})" if p["why"] else "") for p in recent))
    out.append("")
    if data.continents:
        out.append(data.word("region", 2).capitalize() + ":")
    bonus_word = data.word("bonus")
    bonuses = any(r.bonus or r.changes for r in data.continents)  # all 0 and unchanged: not worth a word
    for r in data.continents:
        name = (f" named {r.name!r} by {r.named_by}" if r.name else " (unnamed)" if data.regions_named else "")
        bonus = f"{bonus_word} {r.bonus}" if r.bonus is not None and bonuses else ""
        change = f" (printed {r.printed_bonus}, {', '.join(r.changes)})" if r.changes else ""
        owner = f" (held by {r.owner})" if r.owner else ""
        out.append(f"  {r.id}{name}{owner}{': ' + bonus if bonus else ''}{change}")
    for group in data.mark_groups:
        listed = [m for m in group.marks if not m.shown_as]
        if not listed:
            continue
        title = f"{group.plural[:1].upper()}{group.plural[1:]} ({len(listed)})"
        if any(m.mark.name or m.mark.boxes or m.cancelled for m in listed) or len(listed) <= 6:
            out.append(title + ":")
            out.extend(mark_line(m) for m in listed)
        else:  # many plain marks (upgrades on cards): counted per target
            counts: dict[tuple[str, str], int] = {}
            for m in listed:
                counts[(m.mark.target, m.mark.sticker)] = counts.get((m.mark.target, m.mark.sticker), 0) + 1
            out.append(title + ": " + "; ".join(f"{tg} {st}{f' x{n}' if n > 1 else ''}"
                                                for (tg, st), n in counts.items()))
    upgraded = [c for c in data.resources if c.resources != c.printed]
    if upgraded:
        out.append("Upgraded cards: " + ", ".join(f"{c.card} {c.resources}" for c in upgraded))
    if data.destroyed_cards:
        out.append("Destroyed cards: " + ", ".join(data.destroyed_cards))
    powers = [f"{f.id}: {f.power}" for f in data.factions if f.power]
    if powers:
        out.append(data.word("power", 2).capitalize() + ": " + "; ".join(powers))
    out.append("Stickers left: " + ", ".join(
        f"{s.sticker} {s.left if s.left is not None else '?'}" + (f" ({s.pool})" if s.pool else "")
        for s in data.stickers))
    packets = data.word("packet", 2)
    if data.pending_packets:
        out.append(f"{packets.capitalize()} to open now: " + ", ".join(data.pending_packets))
    if rest["to_put_in_place"]:
        out.append(f"From opened {packets}, to put in place: " + ", ".join(
            f"{x['sticker']} -> {x['target']} ({x['packet']})" + (" before the next game" if x["before_next_game"]
                                                                  else "") for x in rest["to_put_in_place"]))
    if data.opened_packets:
        out.append(f"Opened {packets}: " + ", ".join(data.opened_packets))
    if rest["lines"]:
        out.append("Lines drawn: " + ", ".join(f"{x['between'][0]} - {x['between'][1]} ({x['sticker']})"
                                              for x in rest["lines"]))
    if rest["cuts"]:
        out.append("Edges cut: " + ", ".join(f"{x['between'][0]} - {x['between'][1]} ({x['sticker']})"
                                             for x in rest["cuts"]))
    if rest["packs"]:
        out.append("House-rule packs: " + ", ".join(rest["packs"]))
    if data.games and data.factions:
        out.append("")
        out.append(f"{data.word('faction').capitalize()} history:")
        for f in data.factions:
            cells = []
            for h in f.history:
                who = f"{h.player}" + (f"@{h.start}" if h.start else "") if h.player else ""
                cells.append(f"{h.game}:{who + ' ' if who else ''}{h.result}")
            out.append(f"  {f.id}{' ' + repr(f.given_name) if f.given_name else ''}: " + "; ".join(cells))
    stats = [p for p in data.pieces if p.stats]
    if stats:
        out.append("")
        out.append("Stats:")
        for pc in stats:
            raised = pc.raised  # a printed value unknown, raised by stickers: "? +1"
            values = ", ".join(f"{k} {v if v is not None else '? ' + format(raised[k], '+d') if k in raised else '?'}"
                               for k, v in pc.stats.items())
            owner = f" ({pc.owner})" if pc.owner else " (unclaimed)"
            alias = f" '{pc.given_name}'" if pc.given_name else ""
            gone = f" [{pc.retired}]" if pc.retired else " [lost]" if pc.lost else ""
            out.append(f"  {pc.name}{alias}{owner}{gone}: {values}")
    w = data.overall_winner
    if w and w.get("team"):
        out.append(shape.result_line(w))
    elif w:
        sig = (f"{w['by']} {w['signatures']}" if "by" in w  # ranked by another value than signatures
               else f"{w['signatures']} {data.word('signature', w['signatures'])}")
        head = (f"Overall winner, provisional until game {w['after_game']}'s steps are all taken"
                if w.get("provisional") else "Overall winner")
        if w["tie"]:
            bonus = ", ".join(f"{p} +{n}" for p, n in (w.get("roll_off_bonus") or {}).items())
            tied = f"{', '.join(w['players'][:-1])} and {w['players'][-1]}"
            out.append(f"{head}: a tie between {tied} ({sig} each): roll off" + (f", adding {bonus}" if bonus else ""))
        else:
            out.append(f"{head}: {w['players'][0]} with {sig}")
    return "\n".join(out)
