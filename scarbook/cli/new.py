"""`scarbook new pack|game`: start a homebrew pack or game that validates clean and builds."""

from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.common import content_errors, fail_usage

app = typer.Typer(
    name="new",
    help="Start a homebrew pack or a whole new game: a folder that validates clean and builds, with comments "
         "that teach the content model, an editor modeline and a pre-commit config.\n\n"
         "Example: scarbook new pack my-scars --extends risk-legacy",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False, rich_markup_mode=None,
)

FolderArgument = Annotated[Path, typer.Argument(help="The folder to create (or an empty one).", file_okay=False,
                                                metavar="DIR", show_default=False)]


def _text_name(folder: Path) -> None:
    """Exit 2 (nothing created) when the folder's name is not UTF-8 text: the files written into it name it."""
    try:
        str(folder).encode("utf-8")
    except UnicodeEncodeError:
        shown = str(folder).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        fail_usage(f"{shown!r}: the folder name is not UTF-8 text (the files written into it name it); nothing "
                   "was created: choose a name in UTF-8")


def _report(written: list[Path], check: str, build: str) -> None:
    for path in written:
        typer.echo(f"wrote {path}")
    typer.echo(f"next: edit the files, then '{check}' and '{build}'")


@app.command("pack")
def pack(
    folder: FolderArgument,
    extends: Annotated[str, typer.Option("--extends", metavar="GAME",
                                                 help="The shipped game it adds to (see 'scarbook games').")],
) -> None:
    """Write a pack on a shipped game into DIR: pack.yaml and .pre-commit-config.yaml.

    pack.yaml has a house rule, and a scar where the game's board has sticker slots; it validates
    clean, builds into build/GAME+PACK/, and its comments explain each section.

    Example: scarbook new pack my-scars --extends risk-legacy && scarbook validate my-scars
    """
    _text_name(folder)
    from scarbook.compiler.load import shipped_games
    from scarbook.compiler.scaffold import ScaffoldError, new_pack

    if extends not in shipped_games():
        from scarbook.compiler.validate import UnknownGame

        fail_usage(str(UnknownGame(extends)).replace(" (or the folder or YAML file of a homebrew game)", ""))
    with content_errors():
        try:
            written = new_pack(folder, extends)
        except ScaffoldError as exc:
            fail_usage(str(exc))
    _report(written, f"scarbook validate {folder}", f"scarbook build {extends} --pack {folder}")


@app.command("game")
def game(folder: FolderArgument) -> None:
    """Write a small complete legacy game into DIR, to grow into your own.

    game.yaml, board.yaml, cards.yaml and stickers.yaml (three territories, a deck, a scar) and
    .pre-commit-config.yaml; it validates clean and builds, and its comments explain each section.

    Example: scarbook new game my-game && scarbook build my-game
    """
    _text_name(folder)
    from scarbook.compiler.scaffold import ScaffoldError, new_game

    try:
        written = new_game(folder)
    except ScaffoldError as exc:
        fail_usage(str(exc))
    _report(written, f"scarbook validate {folder}", f"scarbook build {folder}")
