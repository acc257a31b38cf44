"""The `scarbook` command: composes the command modules into one Typer app."""

from __future__ import annotations

import typer

from . import games, show, validate

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


def _register_optional() -> None:
    """Commands from later modules (compiler outputs, the tracker), when present."""
    import importlib

    for module, attr in (("tables", "register"), ("build", "register"), ("campaign", "register")):
        try:
            mod = importlib.import_module(f"scarbook.cli.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"scarbook.cli.{module}":
                raise
            continue
        register = getattr(mod, attr, None)
        if register is not None:
            register(app)


_register_optional()


def run() -> None:
    app()
