"""`scarbook campaign undo`: remove the last recorded event (the previous file is kept as .bak)."""

from __future__ import annotations

from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path
from scarbook.cli.terminal import echo


def undo(campaign: CampaignFile = None) -> None:
    """Remove the last event from the campaign file.

    Example: scarbook campaign undo
    """
    from scarbook.campaign.ledger.cache import read, remember_undone
    from scarbook.campaign.ledger.text import without_last
    from scarbook.campaign.ledger.write import locked, write_atomic
    from scarbook.campaign.report import describe

    path = campaign_path(campaign)
    with campaign_errors(), locked(path):
        ledger = read(path)
        text, last = without_last(ledger)
        write_atomic(path, text, expected=ledger.raw)
        remember_undone(ledger, text)
    echo(f"undone: line {last.span.line}: {describe(last)}")
