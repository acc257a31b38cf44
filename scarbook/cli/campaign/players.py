"""`scarbook campaign join|leave|retire`: a newcomer joins, a player leaves (handing their holdings over), a mark
(a character, a claimed piece) retires or is lost for good."""

from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import ByOption, CampaignFile, NoteOption, campaign_path, record

DryRun = Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")]


def join(
    player: Annotated[str, opt.Argument(help="The newcomer's name, as the ledger will spell it.")],
    replacing: Annotated[str, opt.Option("--replacing", help="A player who leaves in the same step and hands "
                                         "their holdings to the newcomer (their seat, at the most players the "
                                         "game takes).")] = "",
    dry_run: DryRun = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """A newcomer joins the campaign between games (within the game's player count).

    To take over the holdings of a player who leaves: 'join NEWCOMER --replacing NAME' (one step, also at the most
    players the game takes), or join first, then 'scarbook campaign leave NAME --to NEWCOMER'.

    Example: scarbook campaign join Dan

    Example: scarbook campaign join Dan --replacing Bob
    """
    from scarbook.campaign.events import Joined

    record(campaign_path(campaign), lambda c, r: Joined(player, replacing), dry_run=dry_run, note=note)


def leave(
    player: Annotated[str, opt.Argument(help="The player who leaves the campaign.")],
    to: Annotated[str, opt.Option("--to", help="The player who takes over their holdings: every mark they "
                                  "placed or own, the regions and pieces they claimed, their score total.")] = "",
    dry_run: DryRun = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """A player leaves the campaign between games, optionally handing their holdings to another player.

    Without --to their marks stay theirs on the sheet and count for nobody still playing.

    Example: scarbook campaign leave Bob --to Dan
    """
    from scarbook.campaign.events import Left

    record(campaign_path(campaign), lambda c, r: Left(player, to), dry_run=dry_run, note=note)


def retire(
    sticker: Annotated[str, opt.Argument(help="The sticker or kind of the mark that retires (a character, a "
                                         "piece's claim).")],
    target: Annotated[str, opt.Argument(help="Where that mark is (a place, a card, a piece).")],
    by: ByOption = "",
    status: Annotated[str, opt.Option("--as", help="retired (the default) or lost.")] = "retired",
    dry_run: DryRun = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Retire a mark for good, or record it lost: it stays on the sheet and no longer counts as active.

    A count with 'status: retired' (or lost) reads it, so a condition can unlock what a retirement opens; a
    piece whose claim retires is not played again.

    Example: scarbook campaign retire heir old-keep --by Ann

    Example: scarbook campaign retire claim brute --as lost
    """
    from scarbook.campaign.events import Retired

    record(campaign_path(campaign), lambda c, r: Retired(sticker, target, status, by), dry_run=dry_run, note=note)
