"""The catalog of starting-territory checks a game's `campaign.starts` names.

Each predicate gets the content, the state, a player and a territory, and returns why that
territory is not a legal start for that player ('' or None: it is). Like `checks`, they know no
game: the content says which marks matter (`kind`, `unless_own`, `zone`, `with`).
"""

from __future__ import annotations

from collections.abc import Callable

from scarbook.campaign.content import Content
from scarbook.campaign.state import CampaignState
from scarbook.compiler.campaign_model import StartCheck


def no_marks(content: Content, state: CampaignState, player: str, territory: str, check: StartCheck) -> str:
    """No mark stands there, unless it holds one of `unless_own` that is the player's own."""
    marks = [m for m in state.active_marks(territory) if not m.cancels]
    if not marks:
        return ""
    own = set(check.unless_own)
    if any(m.sticker in own and state.owner(content, m) == player for m in marks):
        return ""
    return "it has " + ", ".join(sorted({m.sticker for m in marks}))


def lacks(content: Content, state: CampaignState, player: str, territory: str, check: StartCheck) -> str:
    """No mark of this kind (or sticker) stands there."""
    found = state.has(territory, check.kind)
    return f"it has a {found[0].sticker}" if found else ""


def zone_owner(content: Content, state: CampaignState, player: str, territory: str, check: StartCheck) -> str:
    """A `zone` mark keeps everyone but its owner out; its owner starts there only beside their own
    mark of kind `with` (when given)."""
    zones = state.has(territory, check.zone)
    if not zones:
        return ""
    others = [m for m in zones if state.owner(content, m) != player]
    if others:
        return f"{others[0].sticker} of {state.owner(content, others[0]) or 'another player'}"
    need = check.with_
    if need and not any(state.owner(content, m) == player for m in state.has(territory, str(need))):
        return f"your {zones[0].sticker} without your own {need} there"
    return ""


def not_near_own(content: Content, state: CampaignState, player: str, territory: str,
                 check: StartCheck) -> str:
    """Neither the territory nor a neighbour holds the player's own mark of kind `kind`."""
    kind = check.kind
    near = [territory, *content.game.neighbors().get(territory, [])]
    for t in near:
        if any(state.owner(content, m) == player for m in state.has(t, kind)):
            return f"your own {kind} is {'there' if t == territory else 'next to it, in ' + t}"
    return ""


START_CHECKS: dict[str, Callable[[Content, CampaignState, str, str, StartCheck], str]] = {
    "no-marks": no_marks,
    "lacks": lacks,
    "zone-owner": zone_owner,
    "not-near-own": not_near_own,
}
