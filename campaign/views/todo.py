"""The owed list (`campaign/todo.py`'s entries) as text: what status, game end and open print."""

from __future__ import annotations

from typing import Any


def todo_lines(items: list[dict[str, Any]], number: int, playing: bool = False) -> list[str]:
    """The list as status and game end print it: a heading, then one numbered entry with its command each
    (`playing`: the game `number` is in progress, and this is what it owes before it ends)."""
    if not items:
        return []
    head = f"before game {number} ends" if playing else f"before game {number}, in this order"
    out = [f"Still to do {head}:"]
    for i, t in enumerate(items, 1):
        who = f"{t['who']}: " if t.get("who") else ""
        out.append(f"  {i}. {who}{t['what']}")
        if t.get("command"):
            out.append(f"     $ {t['command']}")
        if t.get("hint"):
            out.append(f"     ({t['hint']})")
    return out
