"""`scarbook campaign sheet`: a printable PDF of the campaign's state with a picture of the board."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ._shared import CampaignFile, campaign_errors, campaign_path, load


def sheet(
    out: Annotated[Path | None, typer.Option("--out", "-o", help="The PDF to write (default: the campaign file "
                                             "with .pdf).", dir_okay=False)] = None,
    campaign: CampaignFile = None,
) -> None:
    """Write a printable PDF of the campaign's state (board picture, continents, cities, players).

    Example: scarbook campaign sheet --out our-world.pdf
    """
    from scarbook.campaign.sheet import write_sheet

    path = campaign_path(campaign)
    target = out or path.with_suffix(".pdf")
    with campaign_errors():
        camp, replay = load(path)
        written = write_sheet(camp.ledger, replay, target)
    typer.echo(f"wrote {written}")
