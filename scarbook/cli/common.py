"""What every command shares: output formats, reporting diagnostics, exit codes.

Exit codes: 0 success, 1 invalid input or an action the rules forbid, 2 a wrong command line.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

from scarbook.cli import opt
from scarbook.cli.terminal import echo
from scarbook.kernel.diagnostics import Diagnostic, render_text

if TYPE_CHECKING:
    from scarbook.compiler.model import Game


class TextOrJson(str, Enum):
    text = "text"
    json = "json"


GameArgument = Annotated[str, opt.Argument(
    help="Game id (see 'scarbook games'), or the folder or YAML file of a homebrew game.")]
FormatOption = Annotated[TextOrJson, opt.Option("--format", "-f", help="Output format.")]
PackOption = Annotated[
    list[Path] | None,
    opt.Option("--pack", help="A homebrew pack folder (or YAML file) to merge with the game; repeatable.",
               exists=True, resolve_path=False),
]
CampaignOption = Annotated[
    Path | None,
    opt.Option("--campaign", "-c", help="Show the game as it stands in this campaign ledger.", exists=True,
               dir_okay=False),
]


def fail_usage(message: str) -> NoReturn:
    """A wrong command line: message on stderr, exit 2."""
    echo(f"error: {message}", err=True)
    raise SystemExit(2)


def report(diagnostics: list[Diagnostic], files: int | None, fmt: TextOrJson = TextOrJson.text) -> None:
    """Print `diagnostics` in `fmt` (the `diagnostics` reporters); text prints nothing when there is nothing."""
    from scarbook.cli.reporters import DiagnosticsView, render

    text = render(fmt, "diagnostics", DiagnosticsView(diagnostics, files))
    if text:
        echo(text)


@contextmanager
def content_errors() -> Iterator[None]:
    """Turn content problems into diagnostics (exit 1) and unknown games into usage errors (exit 2)."""
    from scarbook.compiler.validate import ContentError, UnknownGame

    try:
        yield
    except UnknownGame as exc:
        fail_usage(str(exc))
    except ContentError as exc:
        echo(render_text(exc.diagnostics), err=True)
        echo("the content has errors; run 'scarbook validate' for the full list", err=True)
        raise SystemExit(1) from None


def load(game_id: str, packs: list[Path] | None, campaign: Path | None = None) -> Game:
    """The effective game for a command: shipped content + packs, or as a campaign has it."""
    if campaign is not None:
        from scarbook.campaign.service.reading import campaign_game
        from scarbook.cli.campaign._shared import campaign_errors

        # an unreadable ledger (conflict markers, a YAML error, a byte that is not UTF-8) is a located
        # diagnostic, exit 1, as `campaign status` gives it: never a traceback
        with campaign_errors(writing=False), content_errors():
            return campaign_game(campaign, list(packs or []))
    with content_errors():
        from scarbook.compiler.spoilers import for_players
        from scarbook.compiler.validate import load_game

        full = load_game(game_id, list(packs or []))
        return for_players(full.effective(), full)


def echo_err(message: str) -> None:
    echo(message, err=True)



AfterOption = Annotated[int | None, opt.Option(
    "--after", min=0, metavar="N", show_default=False,
    help="As the campaign stood after game N and its end-of-game steps (0: before the first game); nothing "
         "from a packet opened later.")]


@contextmanager
def game_numbers() -> Iterator[None]:
    """A game number the campaign has no end for (`--after N`, `diff N M`): the message, exit 2."""
    try:
        yield
    except ValueError as exc:
        from scarbook.campaign.service.history import NoSuchPoint

        if isinstance(exc, NoSuchPoint):
            fail_usage(str(exc))
        raise
