"""Shell completion at the prompt (Typer's, for bash, zsh, fish and PowerShell): names from the campaign.

Only a shell asking for completions comes here: the root group sees Typer's `_SCARBOOK_COMPLETE`
variable (`main.ScarbookGroup`), registers Typer's completion classes (the ones its `--show-completion`
scripts speak to; `prepare`) and sets `LazyGroup.completing`, so the one command module being completed gets a
completer on each parameter this table names. A command that is not completing imports nothing of this.

Values come from the campaign's content and ledger as the tracker reads them (the caches, warm after
the last command): the shipped game ids, sticker, territory, card, packet (still sealed ones: their names are on the
outside), player, piece and step ids, each with its printed name as help. The campaign is the one
given with --campaign/-c before the word being completed, else $SCARBOOK_CAMPAIGN, else campaign.yaml.
Nothing from a sealed packet is offered but its id; a campaign that cannot be read completes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typer import _click as click

#: a parameter's name (in any campaign command) -> what completes it
SOURCES: dict[str, str] = {
    "sticker": "stickers", "target": "targets", "card": "cards", "envelope": "packets", "a": "territories",
    "b": "territories", "to": "territories", "by": "players", "winner": "players", "held_on": "players",
    "eliminated": "players", "play": "player=piece", "start_at": "player=territory", "step": "steps",
    "piece": "pieces", "lost": "pieces", "game": "games", "games": "games",
}


def prepare() -> None:
    """The shell asks for completions: Typer's completion classes (the caller then sets `LazyGroup.completing`,
    so the command being completed gets its completers)."""
    from typer._completion_classes import completion_init

    completion_init()


def attach(command: click.Command) -> None:
    """Give every parameter `SOURCES` names a completer (a group: each of its commands too)."""
    for param in command.params:
        source = SOURCES.get(param.name or "")
        if source is not None and getattr(param, "_custom_shell_complete", None) is None:
            param._custom_shell_complete = completer(source)  # type: ignore[attr-defined]
    for sub in getattr(command, "commands", {}).values():
        attach(sub)


def completer(source: str) -> Callable[[click.Context, click.Parameter, str], list[Any]]:
    """A Click completer: the values of `source` that start with what was typed (any case), with their names."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from typer._click.shell_completion import CompletionItem as item
        try:
            pairs = names(ctx, source, incomplete)
        except Exception:  # noqa: BLE001 - a shell asking must never see a traceback: it gets nothing
            return []
        low = incomplete.lower()
        return [item(value, help=text or None) for value, text in pairs if value.lower().startswith(low)]

    return complete


def names(ctx: click.Context, source: str, incomplete: str) -> list[tuple[str, str]]:
    """(value, printed name) for a source, from the campaign given before the word (else the default one); the
    shipped game ids (`show`, `tables`, `build`, `campaign new --game`) need no campaign."""
    if source == "games":
        from scarbook.compiler.load import shipped_games

        return [(gid, "") for gid in shipped_games()]
    from scarbook.campaign.service.history import completions
    from scarbook.cli.campaign._shared import campaign_path

    given = None
    at: click.Context | None = ctx
    while at is not None and given is None:
        given = at.params.get("campaign")
        at = at.parent
    return completions(campaign_path(str(given) if given else None), source, incomplete)
