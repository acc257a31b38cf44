"""`scarbook campaign chronicle`: the campaign's story as a printable PDF or one self-contained HTML page."""

from enum import Enum
from pathlib import Path
from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path
from scarbook.cli.terminal import progress


class ChronicleFormat(str, Enum):
    pdf = "pdf"
    html = "html"


def chronicle(
    out: Annotated[Path | None, opt.Option("--out", "-o", dir_okay=False, help="The file to write (default: "
                                           "the campaign file's name with .chronicle.pdf or .chronicle.html; - for "
                                           "standard output).")]
    = None,
    fmt: Annotated[ChronicleFormat, opt.Option("--format", "-f", help="pdf (printable) or html (one "
                                               "self-contained file).")] = ChronicleFormat.pdf,
    campaign: CampaignFile = None,
    force: Annotated[bool, opt.Option("--force", help="Replace an existing --out file that is not a previous "
                                      "output of scarbook.")] = False,
) -> None:
    """Write the campaign's chronicle: a title page, one page per game with the board as it stood after it,
    and the end of the campaign.

    Each game's page says who played which faction or warlord, from where, who won, held on and was
    eliminated, and every permanent change of that game with the names the players gave. Each page shows
    only what was known then: nothing from a packet before it was opened.

    Example: scarbook campaign chronicle --out our-world.pdf
    Example: scarbook campaign chronicle --format html
    """
    from scarbook.campaign.service import history
    from scarbook.cli.campaign.sheet import refuse_output, say_written

    path = campaign_path(campaign)
    target = out or (path if path.name else Path("campaign.yaml")).with_suffix(f".chronicle.{fmt.value}")
    refuse_output(target, path, out is not None, force)
    show = progress("chronicle")
    with campaign_errors(writing=False):
        written = history.chronicle(path, target, fmt.value, show)
    if show is not None:
        show("")
    say_written(written)
