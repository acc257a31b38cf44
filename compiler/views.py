"""What `scarbook show` prints: each part of a game as plain data, and as text.

Pure functions of a `Game` (already stripped of sealed content by the caller).
"""

from __future__ import annotations

from typing import Any

from scarbook.compiler.model import LOW_CONFIDENCE_MARK, Game, as_dict, as_list, is_unknown, known, low_confidence
from scarbook.compiler.tables import LOW_CONFIDENCE_NOTE, board_low_confidence

PARTS = ("board", "cards", "stickers", "envelopes", "rules")


def _text(value: Any) -> str:
    if is_unknown(value):
        return f"unknown ({value['unknown']})"
    return "" if value is None else str(value)


def _region_name(region: dict[str, Any]) -> str | None:
    """The name players see: none for a region that starts unnamed until someone names it."""
    if region.get("starts_unnamed") and "named_by" not in region:
        return None
    return known(region.get("name"))


def board(game: Game) -> dict[str, Any]:
    adj = game.neighbors()
    return {
        "game": game.id,
        "regions": [
            {"id": rid, "name": _region_name(r), "reference_name": known(r.get("name")), "bonus": known(r.get("bonus")),
             **({"named": r["named"]} if "named" in r else {}),
             **({"named_by": r["named_by"]} if "named_by" in r else {})}
            for rid, r in game.section("regions").items()
        ],
        "territories": [
            {"id": tid, "name": known(t.get("name")), **({"code": t["code"]} if "code" in t else {}),
             "regions": list(as_list(t.get("regions"))), "neighbors": adj.get(tid, []),
             **({"confidence": "L"} if low_confidence(t) else {})}
            for tid, t in game.section("territories").items()
        ],
        "edges": sum(len(ns) for ns in adj.values()) // 2,
        "low_confidence": board_low_confidence(game),
    }


def _items(game: Game, *sections: str) -> dict[str, Any]:
    return {"game": game.id, **{s: list(game.section(s).values()) for s in sections}}


def part(game: Game, name: str) -> dict[str, Any]:
    if name == "board":
        return board(game)
    if name == "cards":
        return _items(game, "decks", "cards", "components")
    if name == "stickers":
        return _items(game, "stickers")
    if name == "envelopes":
        return {"game": game.id, "envelopes": [
            {"id": eid, "name": e.get("name"), "trigger": (as_dict(e.get("trigger"))).get("text")}
            for eid, e in game.section("envelopes").items()]}
    return _items(game, "rulebook", "rules", "tables", "schedule", "factions", "rewards")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def text(game: Game, name: str) -> str:
    """A readable listing of one part."""
    lines = [f"{game.title} — {name}"]
    if name == "board":
        data = board(game)
        mark = f" {LOW_CONFIDENCE_MARK}" if data["low_confidence"] else ""
        lines.append(f"{_count(len(data['territories']), 'territory', 'territories')}, "
                     f"{_count(data['edges'], 'edge', 'edges')}, {_count(len(data['regions']), 'region', 'regions')}"
                     f"{mark}")
        members = game.region_members()
        for region in data["regions"]:
            bonus = "?" if region["bonus"] is None else region["bonus"]
            label = region["name"] or f"unnamed ({region['reference_name'] or region['id']})"
            region_mark = f" {LOW_CONFIDENCE_MARK}" if low_confidence(game.section("regions")[region["id"]]) else ""
            lines.append(f"\n{label} (bonus {bonus}){region_mark}")
            for tid in members.get(region["id"], []):
                t = game.section("territories")[tid]
                label = f"{t['code']} " if "code" in t else ""
                neighbors = ", ".join(game.neighbors().get(tid, []))
                t_mark = f" {LOW_CONFIDENCE_MARK}" if low_confidence(t) else ""
                lines.append(f"  {label}{_text(t.get('name')) or tid}{t_mark} [{tid}] -> {neighbors}")
        if data["low_confidence"]:
            lines.append("")
        lines += [f"{LOW_CONFIDENCE_MARK} {LOW_CONFIDENCE_NOTE}: {e}" for e in data["low_confidence"]]
        return "\n".join(lines)
    if name == "cards":
        decks = game.section("decks")
        for did, deck in decks.items():
            cards = [c for c in game.section("cards").values() if c.get("deck") == did]
            count = sum(c.get("copies", 1) for c in cards)
            declared = deck.get("count")
            of = f" of {declared}" if isinstance(declared, int) and declared != count else ""
            lines.append(f"\n{deck.get('name', did)} [{did}]: {count}{of} cards")
            for c in cards:
                copies = f" ×{c['copies']}" if c.get("copies", 1) != 1 else ""
                stats = ", ".join(f"{k} {_text(v)}" for k, v in (as_dict(c.get("stats"))).items())
                res = f", {c['resources']} resources" if isinstance(c.get("resources"), int) else ""
                lines.append(f"  {c.get('name')}{copies} [{c['id']}]{res}{' — ' + stats if stats else ''}")
        for cid, comp in game.section("components").items():
            lines.append(f"component {comp.get('name')} [{cid}]: {_text(comp.get('count'))}")
        return "\n".join(lines)
    if name == "stickers":
        for sid, st in game.section("stickers").items():
            supply = st.get("supply")
            if isinstance(supply, list):
                supply = " + ".join(f"{p['count']} {p['pool']}" for p in supply)
            lines.append(f"{st.get('name')} [{sid}] on {', '.join(st.get('targets', []))}; supply "
                         f"{_text(supply) or '?'}: {_text(st.get('effect'))}")
        return "\n".join(lines)
    if name == "envelopes":
        for e in part(game, "envelopes")["envelopes"]:
            lines.append(f"{e['name']} [{e['id']}]: {e['trigger']}")
        return "\n".join(lines)
    for sid, sec in game.section("rulebook").items():
        slots = ", ".join(s["label"] for s in as_list(sec.get("slots")))
        lines.append(f"§ {sec.get('title')} [{sid}]{' — slots: ' + slots if slots else ''}")
    for rid, rule in game.section("rules").items():
        lines.append(f"{rule.get('title')} [{rid}]: {_text(rule.get('text'))}")
    for tid, table in game.section("tables").items():
        lines.append(f"table {table.get('title')} [{tid}]")
    for fid, fac in game.section("factions").items():
        lines.append(f"faction {fac.get('name')} [{fid}]")
    for rid, rew in game.section("rewards").items():
        lines.append(f"reward ({rew.get('for')}) {rew.get('name')} [{rid}]")
    for sid, sched in game.section("schedule").items():
        lines.append(f"game {sched.get('game')}: {_text(sched.get('title'))} [{sid}]")
    return "\n".join(lines)
