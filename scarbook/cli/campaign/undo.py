"""`scarbook campaign undo|redo`: remove the last recorded event (the previous file is kept as .bak), or record
again the event the last undo removed."""

from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path, report_recorded
from scarbook.cli.terminal import echo


def undo(dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say which event it would remove.")] = False,
         campaign: CampaignFile = None) -> None:
    """Remove the last event from the campaign file.

    A refused command records nothing, so undo after it removes the event before it: check with --dry-run.
    'scarbook campaign redo' records the removed event again.

    Example: scarbook campaign undo --dry-run
    """
    from scarbook.campaign.service import writing

    with campaign_errors():
        undone = writing.undo(campaign_path(campaign), dry_run)
    echo(f"{'would undo' if dry_run else 'undone'}: line {undone.line}: {undone.said}")
    if not dry_run:
        echo("(to put it back: scarbook campaign redo)", err=True)


def redo(dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")]
         = False, campaign: CampaignFile = None) -> None:
    """Record again the event the last undo removed (checked like any new event).

    Example: scarbook campaign redo
    """
    from scarbook.campaign.service import writing

    with campaign_errors():
        result = writing.redo(campaign_path(campaign), dry_run)
    report_recorded(result)
