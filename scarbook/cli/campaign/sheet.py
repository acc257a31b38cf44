"""`scarbook campaign sheet`: the campaign's state as a printable page (PDF), a self-contained HTML
page, or the board picture alone (SVG)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from ._shared import CampaignFile, campaign_errors, campaign_path, load


class SheetFormat(str, Enum):
    pdf = "pdf"
    html = "html"
    svg = "svg"


def sheet(
    out: Annotated[Path | None, typer.Option("--out", "-o", help="The file to write (default: the campaign file "
                                             "with .pdf, .html or .svg).", dir_okay=False)] = None,
    fmt: Annotated[SheetFormat, typer.Option("--format", "-f", help="pdf (printable), html (one self-contained "
                                             "file: fonts and picture inside) or svg (the board picture alone).")]
    = SheetFormat.pdf,
    campaign: CampaignFile = None,
) -> None:
    """Write the campaign sheet: the board with every permanent mark, then continents, players, faction
    records, cities, scars, changed cards, stickers left, packets and games.

    Example: scarbook campaign sheet --out our-world.pdf
    Example: scarbook campaign sheet --format svg --out board.svg
    """
    from scarbook.campaign.sheet import write_sheet

    path = campaign_path(campaign)
    target = out or path.with_suffix(f".{fmt.value}")
    with campaign_errors():
        camp, replay = load(path)
        try:
            written = write_sheet(camp.ledger, replay, target, fmt.value)
        except ValueError as exc:
            typer.echo(f"error: {exc}; nothing was written", err=True)
            raise typer.Exit(1) from None
    typer.echo(f"wrote {written}")
