"""`scarbook tables`: print every rule table of a game (md, csv, json or html).

A thin face over `compiler.tables`; Jinja2 is imported only for `--format html`.
"""

from enum import Enum
from typing import Annotated

import typer

from scarbook.cli.common import CampaignOption, GameArgument, PackOption, load
from scarbook.cli.reporters import TablesView, render
from scarbook.cli.terminal import echo


class TableFormat(str, Enum):
    md = "md"
    csv = "csv"
    json = "json"
    html = "html"


def tables(
    game: GameArgument,
    fmt: Annotated[TableFormat, typer.Option("--format", "-f", help="Output format.")] = TableFormat.md,
    pack: PackOption = None,
    campaign: CampaignOption = None,
) -> None:
    """Print every rule table of a game, computed from its content (nothing sealed).

    Tables come from the content: declared charts (formulas expanded), region bonuses, stickers,
    rewards, envelope triggers, the schedule, factions, decks and components.

    Example: scarbook tables risk-legacy --format csv > risk-legacy-tables.csv
    """
    from scarbook.compiler import tables as tablemod

    content = load(game, pack, campaign)
    view = TablesView(content, tablemod.rule_tables(content), str(campaign) if campaign else None)
    echo(render(fmt, "tables", view), nl=False)
