"""Shell completion at the prompt (Typer's, for bash, zsh, fish and PowerShell): names from the campaign.

Only a shell asking for completions comes here: the root group sees Typer's `_SCARBOOK_COMPLETE`
variable (`main.ScarbookGroup`), registers Typer's completion classes (the ones its `--show-completion`
scripts speak to) and sets `LazyGroup.completing`, so the one command module being completed gets a
completer on each parameter this table names. A command that is not completing imports nothing of this.

Values come from the campaign's content and ledger as the tracker reads them (the caches, warm after
the last command): sticker, territory, card, packet (still sealed ones: their names are on the
outside), player, piece and step ids, each with its printed name as help. The campaign is the one
given with --campaign/-c before the word being completed, else $SCARBOOK_CAMPAIGN, else campaign.yaml.
Nothing from a sealed packet is offered but its id; a campaign that cannot be read completes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scarbook.cli.lazy import LazyGroup, click

#: a parameter's name (in any campaign command) -> what completes it
SOURCES: dict[str, str] = {
    "sticker": "stickers", "target": "targets", "card": "cards", "envelope": "packets", "a": "territories",
    "b": "territories", "to": "territories", "by": "players", "winner": "players", "held_on": "players",
    "eliminated": "players", "play": "player=piece", "start_at": "player=territory", "step": "steps",
    "piece": "pieces", "lost": "pieces",
}


def prepare() -> None:
    """The shell asks for completions: Typer's completion classes, and completers on the command's parameters."""
    from typer._completion_classes import completion_init

    completion_init()
    LazyGroup.completing = True


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
        item = click.shell_completion.CompletionItem
        try:
            pairs = names(ctx, source, incomplete)
        except Exception:  # noqa: BLE001 - a shell asking must never see a traceback: it gets nothing
            return []
        low = incomplete.lower()
        return [item(value, help=text or None) for value, text in pairs if value.lower().startswith(low)]

    return complete


def _campaign(ctx: click.Context) -> tuple[Any, Any]:
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.ledger.cache import read
    from scarbook.cli.campaign._shared import campaign_path

    given = None
    at: click.Context | None = ctx
    while at is not None and given is None:
        given = at.params.get("campaign")
        at = at.parent
    campaign = Campaign(read(campaign_path(str(given) if given else None)))
    return campaign, campaign.replay_for_write()


def names(ctx: click.Context, source: str, incomplete: str) -> list[tuple[str, str]]:
    """(value, printed name) for a source, from the campaign as it stands now."""
    campaign, replay = _campaign(ctx)
    content, state = replay.content, replay.state

    def label(item: Any) -> str:
        name = item.get("name") if isinstance(item, dict) else None
        return name if isinstance(name, str) else ""

    def of(items: dict[str, Any]) -> list[tuple[str, str]]:
        return [(i, label(v)) for i, v in items.items()]

    pieces = [(i, label(v)) for k in content.model.pieces for i, v in content.pieces_of(k).items()]
    players = [(p, "") for p in campaign.ledger.players]
    if source in ("player=piece", "player=territory"):
        player, eq, rest = incomplete.partition("=")
        if not eq:
            return [(f"{p}=", "") for p, _ in players]
        values = pieces if source == "player=piece" else of(content.territories)
        return [(f"{player}={v}", text) for v, text in values]
    table: dict[str, Callable[[], list[tuple[str, str]]]] = {
        "stickers": lambda: of(content.stickers),
        "territories": lambda: of(content.territories),
        "cards": lambda: [(i, label(c)) for i, c in content.cards.items() if state.destroyed(i) is None],
        "packets": lambda: [(i, label(e)) for i, e in content.envelopes.items() if i not in state.opened],
        "targets": lambda: [*of(content.territories), *of(content.regions), *of(content.cards),
                            *of(content.factions), *pieces],
        "players": lambda: players,
        "pieces": lambda: pieces,
        "steps": lambda: list({s.id: (s.id, s.name) for t in content.model.types.values()
                               for s in t.steps}.values()),
    }
    return list(dict.fromkeys(table[source]()))
