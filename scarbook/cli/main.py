"""The `scarbook` command: one lazy Typer group over the command modules (`scarbook.cli.lazy`).

Only the module of the command being run is imported; `scarbook --help` imports none of them.
The root's own options: `--version`, and Typer's shell completion (`--show-completion SHELL`,
`--install-completion SHELL`), whose machinery is imported only when a shell uses it
(`scarbook.cli.completion`).
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from enum import Enum
from typing import Annotated, Any

import typer

from scarbook.cli.lazy import LazyGroup, lazy_app


class Shell(str, Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"
    powershell = "powershell"
    pwsh = "pwsh"


def _version(value: bool) -> None:
    if value:
        from scarbook import __version__
        from scarbook.cli.terminal import echo

        echo(f"scarbook {__version__}")
        raise typer.Exit()


def _completion(install: bool) -> Any:
    def callback(ctx: typer.Context, param: typer.CallbackParam, value: Shell | None) -> None:
        if value is None or ctx.resilient_parsing:
            return
        from typer.completion import install_callback, show_callback

        from scarbook.cli.completion import prepare

        prepare()
        (install_callback if install else show_callback)(ctx, param, value.value)

    return callback


def _root(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                          help="Print scarbook's version and exit.")] = False,
    install_completion: Annotated[Shell | None, typer.Option(
        "--install-completion", is_eager=True, expose_value=False, callback=_completion(True), metavar="SHELL",
        help="Install completion at the prompt for SHELL (names from the campaign: stickers, territories, "
             "cards, packets, players).")] = None,
    show_completion: Annotated[Shell | None, typer.Option(
        "--show-completion", is_eager=True, expose_value=False, callback=_completion(False), metavar="SHELL",
        help="Print the completion script for SHELL, to install it by hand.")] = None,
) -> None:
    pass


class ScarbookGroup(LazyGroup):
    commands_to_load = {
        "validate": ("scarbook.cli.validate:validate", "Validate content against the schemas and the semantic "
                     "checks."),
        "games": ("scarbook.cli.games:games", "List the games scarbook ships, with their ids."),
        "show": ("scarbook.cli.show:show", "Show a game's board, cards, stickers, envelopes or rules, without "
                 "anything sealed."),
        "schema": ("scarbook.cli.schema:schema", "Locate the content schemas, or export standalone copies for "
                   "editors and JSON Schema tools."),
        "tables": ("scarbook.cli.tables:tables", "Print every rule table of a game, computed from its content "
                   "(nothing sealed)."),
        "build": ("scarbook.cli.build:build", "Build reference sheets, print-and-play card and sticker sheets, "
                  "and rule tables."),
        "campaign": ("scarbook.cli.campaign:app", "Track a legacy campaign: record every permanent change; "
                     "illegal ones are refused with their rule."),
        "new": ("scarbook.cli.new:app", "Start a homebrew pack or a whole new game: a folder that validates clean "
                "and builds, with comments that teach the content model, an editor modeline and a pre-commit "
                "config."),
        "examples": ("scarbook.cli.examples:app", "The example packs and games shipped with scarbook."),
    }


    def _main_shell_completion(self, ctx_args: MutableMapping[str, Any], prog_name: str,
                               complete_var: str | None = None) -> None:
        """A shell asking for completions (Typer's `_SCARBOOK_COMPLETE`): completers on the command's names."""
        if os.environ.get(complete_var or f"_{prog_name}_COMPLETE".replace("-", "_").upper()):
            from scarbook.cli.completion import prepare

            prepare()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)


app = lazy_app(ScarbookGroup, "scarbook",
               "Validate legacy board game content, build printable sheets, and track a campaign.\n\n"
               "Example: scarbook validate && scarbook show risk-legacy board\n\n"
               "Example: scarbook --show-completion bash >> ~/.bashrc", callback=_root)
