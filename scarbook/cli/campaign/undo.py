"""`scarbook campaign undo`: remove the last recorded event (the previous file is kept as .bak)."""

from __future__ import annotations

from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path
from scarbook.cli.terminal import echo


def undo(campaign: CampaignFile = None) -> None:
    """Remove the last event from the campaign file.

    Example: scarbook campaign undo
    """
    from scarbook.campaign.service import writing

    with campaign_errors():
        undone = writing.undo(campaign_path(campaign))
    echo(f"undone: line {undone.line}: {undone.said}")
