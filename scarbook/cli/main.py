"""The `scarbook` command: one lazy Typer group over the command modules (`scarbook.cli.lazy`).

Only the module of the command being run is imported; `scarbook --help` imports none of them.
"""

from __future__ import annotations

from scarbook.cli.lazy import LazyGroup, lazy_app


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


app = lazy_app(ScarbookGroup, "scarbook",
               "Validate legacy board game content, build printable sheets, and track a campaign.\n\n"
               "Example: scarbook validate && scarbook show risk-legacy board")
