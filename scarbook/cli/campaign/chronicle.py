"""`scarbook campaign chronicle`: the campaign's story as a printable PDF or one self-contained HTML page."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path
from scarbook.cli.terminal import echo, progress


class ChronicleFormat(str, Enum):
    pdf = "pdf"
    html = "html"


def chronicle(
    out: Annotated[Path | None, typer.Option("--out", "-o", dir_okay=False, help="The file to write (default: "
                                             "the campaign file's name with .chronicle.pdf or .chronicle.html).")]
    = None,
    fmt: Annotated[ChronicleFormat, typer.Option("--format", "-f", help="pdf (printable) or html (one "
                                                 "self-contained file).")] = ChronicleFormat.pdf,
    campaign: CampaignFile = None,
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
    from scarbook.cli.campaign.sheet import ledger_file_named

    path = campaign_path(campaign)
    target = out or path.with_suffix(f".chronicle.{fmt.value}")
    clash = ledger_file_named(target, path)
    if clash is not None:
        how = "choose another --out FILE" if out else "rename the campaign file, or give --out FILE"
        echo(f"error: {target} is the campaign file{clash}; nothing was written ({how})", err=True)
        raise typer.Exit(2 if out else 1)
    show = progress("chronicle")
    with campaign_errors(writing=False):
        written = history.chronicle(path, target, fmt.value, show)
    if show is not None:
        show("")
    echo(f"wrote {written}")
