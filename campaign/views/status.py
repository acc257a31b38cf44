"""The status text: `scarbook campaign status` for people, rendered from `report.status_data`'s plain data.

A view of the data the service returns, not part of the tracker's rules: it reads nothing but `data` (the JSON
shape of `status --format json`) and the campaign shape's own lines. The CLI picks it from its reporter table
(`scarbook/cli/reporters.py`).
"""

from __future__ import annotations

from typing import Any

from scarbook.campaign import shape
from scarbook.campaign.views.todo import todo_lines


def when_placed(after_game: int, during_game: int | None = None) -> str:
    """When a mark was placed, in words: 'during game 3', 'after game 2' (between games 2 and 3), 'before game 1'."""
    if during_game:
        return f"during game {during_game}"
    return f"after game {after_game}" if after_game else "before game 1"


def _word(data: dict[str, Any], key: str, n: int = 1) -> str:
    """The game's word for `key` ('signature', 'continent' …), singular or plural by `n`."""
    w = (data.get("words") or {}).get(key) or {"one": key, "many": key + "s"}
    return str(w["one"] if n == 1 else w["many"])


def _count(data: dict[str, Any], key: str, n: int) -> str:
    return f"{n} {_word(data, key, n)}"


def mark_line(m: dict[str, Any]) -> str:
    """One placed mark in a status group: where, what, its name, its state, who placed it and when."""
    state = ""
    if m.get("boxes"):
        state = f", {m['left']} of {m['boxes']} box{'' if m['boxes'] == 1 else 'es'} left"
    elif isinstance(m.get("population"), int):
        state = f", population {m['population']}"
    placed = f"{m['by'] or 'setup'}, {when_placed(m.get('game') or 0, m.get('during_game'))}"
    name = f" {m['name']!r}" if m.get("name") else ""
    cancelled = f" ({m['status']})" if m.get("status") else \
        f" (cancelled by {m['covered_by']})" if m.get("cancelled") else ""
    if m.get("placed_by"):
        placed = f"{m['by']}'s, placed by {m['placed_by']}, {when_placed(m.get('game') or 0, m.get('during_game'))}"
    return f"  {m['target']}: {m['sticker']}{name}{cancelled} ({placed}{state})"


def _comings_and_goings(data: dict[str, Any]) -> list[str]:
    """Who joined and who left the campaign since it began (and to whom their holdings went)."""
    def when(n: int) -> str:
        return f"after game {n}" if n else "before game 1"

    said = [f"{j['player']} joined {when(j['after_game'])}" for j in data.get("joined") or []]
    said += [f"{x['player']} left {when(x['after_game'])}" + (f", handing their holdings to {x['to']}" if x["to"]
                                                              else "") for x in data.get("left") or []]
    return ["  (" + "; ".join(said) + ")"] if said else []


def _totals(p: dict[str, Any]) -> str:
    """What a player holds over the campaign where the game keeps it: places claimed, the total score."""
    out = f"; owns {', '.join(p['claimed'])}" if p.get("claimed") else ""
    return out + (f"; total score {p['score_total']}" if p.get("score_total") is not None else "")


def status_text(data: dict[str, Any]) -> str:
    out: list[str] = []
    title = data["campaign"] or "campaign"
    live = data["game_in_progress"]
    length = data.get("campaign_games")
    played = data["games_played"]
    count = f"{played} games played ({length} in the campaign)" if length and played > length else \
        f"{played}{f' of {length}' if length else ''} game{'' if played == 1 and not length else 's'} played"
    out.append(f"{title} ({data['game']}): {count}"
               + (f", game {live} in progress" if live else "")
               + ("; the campaign is over (later games give no rewards)" if length and played >= length else ""))
    out.extend(shape.status_lines(data))
    out.append("")
    out.append("Players:")
    names = data["token_names"]
    for p in data["players"]:
        held = [f"{n} {names[t]['name'] if n == 1 else names[t]['plural']}" for t, n in p["tokens"].items() if n]
        token = f", starts with {' and '.join(held)}" if held else ""
        extra = f"; may still take: {', '.join(p['may_take'])}" if p["may_take"] else ""
        owns = "".join(f"; {k}: {', '.join(v)}" for k, v in p["owns"].items()) + _totals(p)
        signed = _count(data, "signature", p["signatures"]) if data.get("signs", True) else ""
        starts = len(p["legal_starts"])
        head = f"{signed}{token}{owns}".lstrip(", ").lstrip("; ")
        legal = f"{starts} legal {_word(data, 'start', starts)}" if data.get("starts_used", True) else ""
        said = "; ".join(x for x in (head, legal, extra.removeprefix("; ")) if x)  # the total: in `owns`
        out.append(f"  {p['name']}: {said or 'nothing yet'}")
    out.extend(_comings_and_goings(data))
    if data.get("todo"):
        out.extend(todo_lines(data["todo"], data["next_game"]["number"], bool(data["game_in_progress"])))
    elif data["owed_rewards"]:
        out.append("Still to do before the next game: " + "; ".join(f"{o['player']}: {o['role']}"
                                                                    for o in data["owed_rewards"]))
    returned = [f"game {g['game']}: {piece} ({price})" for g in data["games"]
                for piece, price in (g.get("returned") or {}).items()]
    if returned:
        out.append("Played again after being lost, at a price: " + "; ".join(returned))
    last = max((g["game"] for g in data["games"] if g["ended"]), default=0)
    recent = [p for p in data["passes"] if p["game"] == last]  # older passes: 'status --format json', 'log'
    if recent:
        out.append(f"Passed after game {last}: " + "; ".join(
            f"{p['step']} by {p['by']}" + (f" for {p['for']}" if p["for"] else "")
            + (f" ({p['why']})" if p["why"] else "") for p in recent))
    out.append("")
    if data["continents"]:
        out.append(_word(data, "region", 2).capitalize() + ":")
    bonus_word = _word(data, "bonus")
    bonuses = any(r["bonus"] or r["changes"] for r in data["continents"])  # all 0 and unchanged: not worth a word
    for r in data["continents"]:
        name = (f" named {r['name']!r} by {r['named_by']}" if r["name"] else
                " (unnamed)" if data.get("regions_named") else "")
        bonus = f"{bonus_word} {r['bonus']}" if r["bonus"] is not None and bonuses else ""
        change = f" (printed {r['printed_bonus']}, {', '.join(r['changes'])})" if r["changes"] else ""
        owner = f" (held by {r['owner']})" if r.get("owner") else ""
        out.append(f"  {r['id']}{name}{owner}{': ' + bonus if bonus else ''}{change}")
    for group in data.get("mark_groups", []):
        listed = [m for m in group["marks"] if not m.get("shown_as")]
        if not listed:
            continue
        title = f"{group['plural'][:1].upper()}{group['plural'][1:]} ({len(listed)})"
        if any(m.get("name") or m.get("boxes") or m.get("cancelled") for m in listed) or len(listed) <= 6:
            out.append(title + ":")
            out.extend(mark_line(m) for m in listed)
        else:  # many plain marks (upgrades on cards): counted per target
            counts: dict[tuple[str, str], int] = {}
            for m in listed:
                counts[(m["target"], m["sticker"])] = counts.get((m["target"], m["sticker"]), 0) + 1
            out.append(title + ": " + "; ".join(f"{tg} {st}{f' x{n}' if n > 1 else ''}"
                                                for (tg, st), n in counts.items()))
    upgraded = [c for c in data["resources"] if c["resources"] != c["printed"]]
    if upgraded:
        out.append("Upgraded cards: " + ", ".join(f"{c['card']} {c['resources']}" for c in upgraded))
    if data["destroyed_cards"]:
        out.append("Destroyed cards: " + ", ".join(data["destroyed_cards"]))
    powers = [f"{f['id']}: {f['power']}" for f in data["factions"] if f["power"]]
    if powers:
        out.append(_word(data, "power", 2).capitalize() + ": " + "; ".join(powers))
    out.append("Stickers left: " + ", ".join(
        f"{s['sticker']} {s['left'] if s['left'] is not None else '?'}" + (f" ({s['pool']})" if s["pool"] else "")
        for s in data["stickers"]))
    if data["pending_packets"]:
        out.append(f"{_word(data, 'packet', 2).capitalize()} to open now: " + ", ".join(data["pending_packets"]))
    if data.get("to_put_in_place"):
        out.append(f"From opened {_word(data, 'packet', 2)}, to put in place: " + ", ".join(
            f"{x['sticker']} -> {x['target']} ({x['packet']})" + (" before the next game" if x.get("before_next_game")
                                                                  else "") for x in data["to_put_in_place"]))
    if data["opened_packets"]:
        out.append(f"Opened {_word(data, 'packet', 2)}: " + ", ".join(data["opened_packets"]))
    if data.get("lines"):
        out.append("Lines drawn: " + ", ".join(f"{x['between'][0]} - {x['between'][1]} ({x['sticker']})"
                                              for x in data["lines"]))
    if data.get("cuts"):
        out.append("Edges cut: " + ", ".join(f"{x['between'][0]} - {x['between'][1]} ({x['sticker']})"
                                             for x in data["cuts"]))
    if data.get("packs"):
        out.append("House-rule packs: " + ", ".join(data["packs"]))
    if data["games"] and data["factions"]:
        out.append("")
        out.append(f"{_word(data, 'faction').capitalize()} history:")
        for f in data["factions"]:
            cells = []
            for h in f["history"]:
                who = f"{h['player']}" + (f"@{h['start']}" if h["start"] else "") if h["player"] else ""
                cells.append(f"{h['game']}:{who + ' ' if who else ''}{h['result']}")
            out.append(f"  {f['id']}{' ' + repr(f['given_name']) if f.get('given_name') else ''}: " + "; ".join(cells))
    stats = [p for p in data["pieces"] if p["stats"]]
    if stats:
        out.append("")
        out.append("Stats:")
        for p in stats:
            raised = p.get("raised") or {}  # a printed value unknown, raised by stickers: "? +1"
            values = ", ".join(f"{k} {v if v is not None else '? ' + format(raised[k], '+d') if k in raised else '?'}"
                               for k, v in p["stats"].items())
            owner = f" ({p['owner']})" if p["owner"] else " (unclaimed)"
            alias = f" '{p['given_name']}'" if p.get("given_name") else ""
            gone = f" [{p['retired']}]" if p.get("retired") else " [lost]" if p["lost"] else ""
            out.append(f"  {p['name']}{alias}{owner}{gone}: {values}")
    if data["overall_winner"] and data["overall_winner"].get("team"):
        out.append(shape.result_line(data["overall_winner"]))
    elif data["overall_winner"]:
        w = data["overall_winner"]
        sig = _count(data, "signature", w["signatures"])
        head = (f"Overall winner, provisional until game {w['after_game']}'s steps are all taken"
                if w.get("provisional") else "Overall winner")
        if w["tie"]:
            bonus = ", ".join(f"{p} +{n}" for p, n in (w.get("roll_off_bonus") or {}).items())
            out.append(f"{head}: a tie between {' and '.join(w['players'])} ({sig} each): roll off"
                       + (f", adding {bonus}" if bonus else ""))
        else:
            out.append(f"{head}: {w['players'][0]} with {sig}")
    return "\n".join(out)
