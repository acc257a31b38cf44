"""The `scarbook` command: composes the command modules into one Typer app."""

from __future__ import annotations

import typer

from . import build, campaign, examples, games, new, schema, show, tables, validate

app = typer.Typer(
    name="scarbook",
    help="Validate legacy board game content, build printable sheets, and track a campaign.\n\n"
         "Example: scarbook validate && scarbook show risk-legacy board",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command()(validate.validate)
app.command()(games.games)
app.command()(show.show)
app.command()(schema.schema)


for module in (tables, build, campaign, new, examples):
    module.register(app)

