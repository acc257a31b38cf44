"""`scarbook campaign new`: start a campaign file for a game and its players."""

from pathlib import Path
from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import campaign_errors, refuse
from scarbook.cli.common import fail_usage
from scarbook.cli.terminal import echo


def new(
    file: Annotated[Path, opt.Argument(help="The campaign file to create (it must not exist yet).",
                                       dir_okay=False)],
    game: Annotated[str, opt.Option("--game", "-g", help="Game id (see 'scarbook games').")],
    player: Annotated[list[str], opt.Option("--player", "-p", help="A player's name; repeat for each.")],
    pack: Annotated[list[Path] | None, opt.Option("--pack", help="A house-rule pack to play with from game 1 "
                                                  "(recorded relative to FILE); repeat for each.",
                                                  exists=True)] = None,
    name: Annotated[str, opt.Option("--name", help="A name for this campaign (your world).")] = "",
) -> None:
    """Create a campaign file: the game, a fingerprint of its content, and the players.

    GAME is a shipped game's id or a homebrew game's folder (recorded relative to FILE, so every
    command works from any folder).

    Example: scarbook campaign new campaign.yaml --game risk-legacy --player Ann --player Bob --player Cat
    --pack packs/sinkhole
    """
    from scarbook.campaign.service import writing
    from scarbook.compiler.validate import UnknownGame

    names = [p.strip() for p in player if p.strip()]
    if not names:
        fail_usage("give at least one --player NAME")
    if len({n.lower() for n in names}) != len(names):
        fail_usage("two players have the same name")
    packs = list(pack or [])
    if len({p.resolve() for p in packs}) != len(packs):
        fail_usage("the same --pack is given twice")
    with campaign_errors():
        try:
            created = writing.create(file, game, names, packs, name)
        except UnknownGame as exc:
            fail_usage(str(exc))
    if not isinstance(created, writing.Created):
        refuse([created])
    echo(f"created {file}: {created.title} with {', '.join(names)}"
         + (f" and the pack{'s' if len(packs) > 1 else ''} {', '.join(created.packs)}" if packs else ""))
    echo(f"next: set up the world (scarbook campaign where STICKER -c {file}), then "
         f"scarbook campaign game start {created.first_game}")
