"""`scarbook show`: print a game's effective content (nothing sealed)."""

from enum import Enum
from typing import Annotated

import typer

from scarbook.cli.common import CampaignOption, FormatOption, GameArgument, PackOption, TextOrJson, load
from scarbook.cli.reporters import PartView, render
from scarbook.cli.terminal import echo


class Part(str, Enum):
    board = "board"
    cards = "cards"
    stickers = "stickers"
    envelopes = "envelopes"
    rules = "rules"


def show(
    game: GameArgument,
    part: Annotated[Part, typer.Argument(help="Which part of the game to show.")] = Part.board,
    fmt: FormatOption = TextOrJson.text,
    pack: PackOption = None,
    campaign: CampaignOption = None,
) -> None:
    """Show a game's board, cards, stickers, envelopes or rules, without anything sealed.

    Example: scarbook show risk-legacy board --format json
    """
    content = load(game, pack, campaign)
    echo(render(fmt, "part", PartView(content, part.value)))
