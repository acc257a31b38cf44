"""`scarbook campaign open`: record that a sealed packet was opened, merging the players' pack."""

from pathlib import Path
from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import (
    CampaignFile,
    NoteOption,
    campaign_errors,
    campaign_path,
    report_owed,
    report_recorded,
)
from scarbook.cli.terminal import echo


def open_packet(
    envelope: Annotated[str, opt.Argument(help="The packet's id (see 'scarbook campaign status').")],
    pack: Annotated[Path | None, opt.Option("--pack", help="A pack folder where you transcribed what the "
                                            "packet holds; validated like any pack and merged.",
                                            exists=True)] = None,
    dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")] = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Open a sealed packet: its contents become usable, with the stickers and rules of --pack.

    Then it says what the packet added and lists what is owed before the next game (what to place), as
    `status` does.

    Example: scarbook campaign open nine-minor-cities --pack packs/nine-minor-cities
    """
    from scarbook.campaign.service import writing

    path = campaign_path(campaign)
    with campaign_errors():
        result = writing.open_packet(path, envelope, pack, dry_run, note)
    report_recorded(result)
    if dry_run:
        return
    from scarbook.campaign.service import reading

    with campaign_errors(writing=False):
        added = reading.packet_added(path, envelope)
    if added.items:
        echo(f"{added.name} added: {', '.join(added.items)}")
    if added.notes:
        echo(f"  ({added.notes})")
    report_owed(path, "nothing from it is owed before the next game")


def add_pack(
    pack: Annotated[Path, opt.Argument(help="A house-rule pack (a folder or YAML file with 'pack:' extending "
                                       "this campaign's game).", exists=True)],
    dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")] = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Add a house-rule pack to the campaign between games: its stickers, rules and packets apply from now on.

    The pack is recorded relative to the campaign file with a fingerprint of its files; 'campaign check'
    says when it changed. To play with a pack from game 1, give it to 'campaign new --pack'.

    Example: scarbook campaign add-pack packs/sinkhole -c our-world.yaml
    """
    from scarbook.campaign.service import writing

    with campaign_errors():
        result = writing.add_pack(campaign_path(campaign), pack, note, dry_run)
    report_recorded(result)
