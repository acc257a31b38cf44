"""The `scarbook` command: one lazy Typer group over the command modules (`scarbook.cli.lazy`).

Only the module of the command being run is imported; `scarbook --help` imports none of them.
The root's own options: `--version`, and Typer's shell completion (`--show-completion SHELL`,
`--install-completion SHELL`), whose machinery is imported only when a shell uses it
(`scarbook.cli.completion`).
"""

import os
from collections.abc import MutableMapping
from typing import Any

from scarbook.cli.lazy import LazyGroup, click, lazy_app

SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from scarbook import installed_version
        from scarbook.cli.terminal import echo

        echo(f"scarbook {installed_version()}")
        ctx.exit(0)


def _completion(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None or ctx.resilient_parsing:
        return
    from typer.completion import install_callback, show_callback

    from scarbook.cli.completion import prepare

    prepare()
    LazyGroup.completing = True
    (install_callback if param.name == "install_completion" else show_callback)(ctx, param, value)


def root_options() -> list[click.Parameter]:
    """The root's own options, built directly (Typer would read a function's signature for them on every
    start: about 10 ms)."""
    from typer._types import TyperChoice
    from typer.core import TyperOption

    shells = TyperChoice(SHELLS)
    return [
        TyperOption(param_decls=["--version"], is_flag=True, default=False, is_eager=True, expose_value=False,
                    callback=_version, help="Print scarbook's version and exit."),
        TyperOption(param_decls=["--install-completion"], type=shells, is_eager=True, expose_value=False,
                    callback=_completion, metavar="SHELL", help="Install completion at the prompt for SHELL (bash, "
                    "zsh, fish, powershell; names from the campaign: stickers, territories, cards, packets, players)."),
        TyperOption(param_decls=["--show-completion"], type=shells, is_eager=True, expose_value=False,
                    callback=_completion, metavar="SHELL", help="Print the completion script for SHELL, to install "
                    "it by hand."),
    ]


class ScarbookGroup(LazyGroup):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params[:0] = root_options()

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
        "campaign": ("scarbook.cli.campaign.group:app", "Track a legacy campaign: record every permanent change; "
                     "illegal ones are refused with their rule."),
        "playtest": ("scarbook.cli.playtest:playtest", "Play play-test files: commands and their expected "
                     "outcomes, on a scratch campaign; differences at their line."),
        "new": ("scarbook.cli.new:app", "Start a homebrew pack or a whole new game: a folder that validates clean "
                "and builds, with comments that teach the content model, an editor modeline and a pre-commit "
                "config."),
        "examples": ("scarbook.cli.examples:app", "The example packs and games shipped with scarbook."),
        "migrate": ("scarbook.cli.migrate:migrate", "Rewrite old content in place to the current edition of the "
                    "content format."),
        "serve": ("scarbook.cli.serve:serve", "Serve a campaign to the browsers at the table: the board, what each "
                  "player owes now with one-tap actions, game start and end, packets, undo and the history; pages "
                  "follow the file live."),
    }


    def _main_shell_completion(self, ctx_args: MutableMapping[str, Any], prog_name: str,
                               complete_var: str | None = None) -> None:
        """A shell asking for completions (Typer's `_SCARBOOK_COMPLETE`): completers on the command's names."""
        if os.environ.get(complete_var or f"_{prog_name}_COMPLETE".replace("-", "_").upper()):
            from scarbook.cli.completion import prepare

            prepare()
            LazyGroup.completing = True
        super()._main_shell_completion(ctx_args, prog_name, complete_var)


app = lazy_app(ScarbookGroup, "scarbook",
               "Validate legacy board game content, build printable sheets, and track a campaign.\n\n"
               "Example: scarbook validate && scarbook show risk-legacy board\n\n"
               "Example: scarbook --show-completion bash >> ~/.bashrc")
