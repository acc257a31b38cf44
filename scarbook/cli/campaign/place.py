"""`scarbook campaign place|destroy|tick`: record one permanent change after checking it is legal."""

from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import ByOption, CampaignFile, NoteOption, campaign_path, record


def place(
    sticker: Annotated[str, opt.Argument(help="Sticker id (coin, minor-city, major-city, fortification, "
                                         "scar-cancel, continent-name, bunker, ...).")],
    target: Annotated[str, opt.Argument(help="Where it goes: a territory, continent, card or faction "
                                        "(case-insensitive; 'alaska' is the Alaska card for a coin).")],
    by: ByOption = "",
    name: Annotated[str, opt.Option("--name", help="The name of what it founds (a city, a continent) or the "
                                    "option it picks (a starting power, the stat it raises).")] = "",
    value: Annotated[int | None, opt.Option("--value", help="The number printed on the sticker, for a "
                                            "sticker that sets a value (a stat).")] = None,
    to: Annotated[str, opt.Option("--to", help="For a sticker that brings a line (a bridge): the territory "
                                  "it joins TARGET to; they are neighbours from then on.")] = "",
    dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")] = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Place a sticker or mark for good; refused with the rule that forbids it when illegal.

    Example: scarbook campaign place major-city great-britain --by Ann --name "Sunny Glasgow"

    Example: scarbook campaign place bridge frost-peak --to stone-hill --by Ann
    """
    from scarbook.campaign.events import Placed

    record(campaign_path(campaign), lambda c, r: Placed(sticker, target, by, name, value, to), dry_run=dry_run,
           note=note)


def destroy(
    card: Annotated[str, opt.Argument(help="The card to destroy ('alaska' or 'alaska-card').")],
    by: ByOption = "",
    dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")] = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Destroy a card for good (a winner's reward); nothing goes on it afterwards.

    Example: scarbook campaign destroy alaska --by Ann
    """
    from scarbook.campaign.events import Destroyed

    record(campaign_path(campaign), lambda c, r: Destroyed(card, by), dry_run=dry_run, note=note)


def tick(
    target: Annotated[str, opt.Argument(help="The territory whose fortification is worn down.")],
    boxes: Annotated[int, opt.Option("--boxes", min=1, help="How many boxes to tick.")] = 1,
    dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")] = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Tick boxes on a mark that has them (a fortification worn down by attacks), during a game.

    Example: scarbook campaign tick great-britain --boxes 2
    """
    from scarbook.campaign.events import Ticked

    record(campaign_path(campaign), lambda c, r: Ticked(target, boxes), dry_run=dry_run, note=note)


def pass_step(
    step: Annotated[str, opt.Argument(help="The step's id (see 'scarbook campaign status').")],
    by: Annotated[str, opt.Option("--by", help="The player who passes.")],
    piece: Annotated[str, opt.Option("--for", help="The piece the step is taken for, when the player takes it "
                                     "for several (the winner, for pieces nobody played).")] = "",
    why: Annotated[str, opt.Option("--why", help="Why: needed for an owed step the players may pass only "
                                   "when the rules say so.")] = "",
    dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")] = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Forgo an end-of-game step: an optional one, or an owed one nothing can be placed for.

    Example: scarbook campaign pass warlord-upgrade --by Ann --why "fewer than six stickers left"
    """
    from scarbook.campaign.events import Passed

    record(campaign_path(campaign), lambda c, r: Passed(step, by, piece, why), dry_run=dry_run, note=note)


def link(
    sticker: Annotated[str, opt.Argument(help="The placed sticker the line belongs to (a new continent, a "
                                         "bridge).")],
    a: Annotated[str, opt.Argument(help="One end: a territory.")],
    b: Annotated[str, opt.Argument(help="The other end: a territory.")],
    by: ByOption = "",
    dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")] = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Draw a line between two territories for a placed sticker that brings lines: they become neighbours.

    The board, the map, 'show --campaign' and every later check see the new edge.

    Example: scarbook campaign link continent-sticker-ts ts-01 sa-04 --by Ann
    """
    from scarbook.campaign.events import Linked

    record(campaign_path(campaign), lambda c, r: Linked(sticker, a, b, by), dry_run=dry_run, note=note)
