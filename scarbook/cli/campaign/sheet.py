"""`scarbook campaign sheet`: a printable PDF of the campaign's state with a picture of the board."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.terminal import echo

from ._shared import CampaignFile, campaign_errors, campaign_path, load


def ledger_file_named(target: Path, ledger: Path) -> str | None:
    """None unless `target` is the ledger, its `.bak` or its lock (through any symlink or hard link): then which."""
    import os

    real = Path(os.path.realpath(ledger))
    wanted = Path(os.path.realpath(target))
    for suffix, what in (("", ""), (".bak", "'s backup"), (".lock", "'s lock")):
        for side in {ledger.with_name(ledger.name + suffix), real.with_name(real.name + suffix)}:
            if wanted == Path(os.path.realpath(side)):
                return what
            try:
                if os.path.samefile(target, side):
                    return what
            except OSError:
                pass
    return None


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
    clash = ledger_file_named(target, path)
    if clash is not None:
        how = "choose another --out FILE" if out else "rename the campaign file, or give --out FILE"
        echo(f"error: {target} is the campaign file{clash}; nothing was written ({how})", err=True)
        raise typer.Exit(2 if out else 1)
    with campaign_errors(writing=False):
        camp, replay = load(path)
        written = write_sheet(camp.ledger, replay, target)
    echo(f"wrote {written}")
