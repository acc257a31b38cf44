"""`scarbook campaign open`: record that a sealed packet was opened, merging the players' pack."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from ._shared import CampaignFile, campaign_errors, campaign_path, record


def open_packet(
    envelope: Annotated[str, typer.Argument(help="The packet's id (see 'scarbook campaign status').")],
    pack: Annotated[Path | None, typer.Option("--pack", help="A pack folder where you transcribed what the "
                                              "packet holds; validated like any pack and merged.",
                                              exists=True)] = None,
    campaign: CampaignFile = None,
) -> None:
    """Open a sealed packet: its contents become usable, with the stickers and rules of --pack.

    Example: scarbook campaign open nine-minor-cities --pack packs/nine-minor-cities
    """
    from scarbook.campaign.events import Opened

    path = campaign_path(campaign)
    stored = ""
    if pack is not None:
        stored = os.path.relpath(pack.resolve(), path.resolve().parent)
        from scarbook.campaign.ledger import read
        from scarbook.compiler.validate import cached_game

        with campaign_errors():
            cached_game(read(path).game, [pack])  # a pack with errors: diagnostics, exit 1
    record(path, lambda c, r: Opened(envelope, stored))
