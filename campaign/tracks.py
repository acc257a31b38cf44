"""A campaign track's value, read from the games played: a leaf the state, the checks and the campaign
language all read without importing one another."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scarbook.campaign.content import Content
    from scarbook.campaign.state import CampaignState

def track_value(content: Content, state: CampaignState, track_id: str) -> int | None:
    """A campaign track's value now (`game.campaign.tracks`): its start moved by every ended game's result, kept
    within its bounds (None: no such track)."""
    track = content.model.tracks.get(track_id)
    if track is None:
        return None
    value = track.start
    for g in state.games:
        if g.ended:
            value += track.after.get(g.team, 0)
            if track.low is not None:
                value = max(track.low, value)
            if track.high is not None:
                value = min(track.high, value)
    return value
