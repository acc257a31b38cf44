"""`scarbook campaign diff N [M]`: what happened between the end of game N and the end of game M (or now)."""

from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path
from scarbook.cli.common import FormatOption, TextOrJson, game_numbers
from scarbook.cli.terminal import echo


def diff(
    first: Annotated[int, opt.Argument(min=0, metavar="N", help="From the end of game N (0: from the start).")],
    last: Annotated[int | None, opt.Argument(min=0, metavar="[M]", show_default=False,
                                             help="To the end of game M (default: everything recorded since).")]
    = None,
    fmt: FormatOption = TextOrJson.text,
    campaign: CampaignFile = None,
) -> None:
    """Tell what happened between the end of game N and the end of game M (default: now), game by game.

    Cities founded and named, scars placed and cancelled, continents named and changed, cards upgraded and
    destroyed, packets opened, signatures, rewards passed: each event with its line in the campaign file,
    then what they changed. Nothing from a packet opened after game M.

    Example: scarbook campaign diff 4 5
    Example: scarbook campaign diff 0 --format json
    """
    from scarbook.campaign.service import history
    from scarbook.cli.reporters import render

    with campaign_errors(writing=False), game_numbers():
        data = history.diff(campaign_path(campaign), first, last)
    echo(render(fmt, "diff", data))
