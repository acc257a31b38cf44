"""What the content does not know, said where a placement depends on it.

A sticker that sets a stat one step from its current value (`steps-value`) can only be checked when the card's
printed value is known; most printed values of some games are not in their sources. Such a placement is
recorded as the players say, and `note` says so instead of accepting it silently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scarbook.campaign.events import Event, Placed

if TYPE_CHECKING:
    from scarbook.campaign.content import Content
    from scarbook.campaign.state import CampaignState


def note(content: Content, state: CampaignState, event: Event) -> str:
    """'printed value unknown: recorded as the players say (...)' for a stat placement whose value cannot be
    checked; '' otherwise."""
    if not isinstance(event, Placed) or event.value is None:
        return ""
    sticker = content.sticker_view(event.sticker)
    if not sticker.checks_named("steps-value"):
        return ""
    target = content.target(sticker, event.target)
    base = (target.item.get("stats") or {}).get(event.name)
    if state.stat(content, event.target, base, event.name) is not None:
        return ""
    name = target.item.get("name") or event.target
    return (f"printed value unknown: recorded as the players say ({name}'s printed {event.name} is not in the "
            f"game's sources, so {event.value} cannot be checked; 'scarbook validate --all-gaps' lists what the "
            "sources do not give)")
