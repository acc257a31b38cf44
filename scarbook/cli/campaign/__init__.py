"""`scarbook campaign ...`: the campaign tracker's commands, one module per command or small group.

Each command parses its arguments, calls one function of `scarbook.campaign`, and reports.
Heavy libraries (jsonschema, Jinja2, WeasyPrint) are never imported on the `status` path.
"""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `campaign` sub-app to the main `scarbook` app."""
    from . import game, new, opening, place, sheet, status, undo, where

    camp = typer.Typer(
        name="campaign",
        help="Track a legacy campaign: record every permanent change; illegal ones are refused with their "
             "rule.\n\nThe campaign file is --campaign/-c FILE, else $SCARBOOK_CAMPAIGN, else campaign.yaml."
             "\n\nExample: scarbook campaign new campaign.yaml --game risk-legacy --player Ann --player Bob "
             "--player Cat",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    camp.command("new")(new.new)
    camp.add_typer(game.app, name="game")
    camp.command("place")(place.place)
    camp.command("destroy")(place.destroy)
    camp.command("tick")(place.tick)
    camp.command("link")(place.link)
    camp.command("pass")(place.pass_step)
    camp.command("where")(where.where)
    camp.command("open")(opening.open_packet)
    camp.command("add-pack")(opening.add_pack)
    camp.command("undo")(undo.undo)
    camp.command("status", context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
                 help=status.STATUS_HELP)(status.status)
    camp.command("log")(status.log)
    camp.command("check")(status.check)
    camp.command("sheet")(sheet.sheet)
    app.add_typer(camp, name="campaign")
