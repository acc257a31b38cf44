"""`scarbook campaign where`: every target where a sticker could legally go now."""

from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import ByOption, CampaignFile, campaign_errors, campaign_path, refuse
from scarbook.cli.common import FormatOption, TextOrJson
from scarbook.cli.reporters import render
from scarbook.cli.terminal import echo


def where(
    sticker: Annotated[str, opt.Argument(help="Sticker id (see 'scarbook show GAME stickers').")],
    by: ByOption = "",
    fmt: FormatOption = TextOrJson.text,
    campaign: CampaignFile = None,
) -> None:
    """List every target where STICKER could legally go now (for the player given with --by).

    Example: scarbook campaign where minor-city --by Bob
    """
    from scarbook.campaign.service import reading

    with campaign_errors(writing=False):
        found = reading.where(campaign_path(campaign), sticker, by)
    if isinstance(found, list):
        refuse(found)
    data = {"sticker": found.sticker, "by": found.actor or None, "targets": found.targets,
            "offered_by": found.offered_by}
    if fmt is TextOrJson.json or found.targets:
        echo(render(fmt, "where", data))
    else:
        echo(f"{found.sticker} cannot go anywhere now" + (f" for {found.actor}" if found.actor else "")
             + f" (try 'scarbook campaign place {found.sticker} TARGET --dry-run' to see why)", err=True)
