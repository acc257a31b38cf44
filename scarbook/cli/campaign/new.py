"""`scarbook campaign new`: start a campaign file for a game and its players."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.campaign._shared import campaign_errors
from scarbook.cli.common import fail_usage
from scarbook.cli.terminal import echo


def new(
    file: Annotated[Path, typer.Argument(help="The campaign file to create (it must not exist yet).",
                                         dir_okay=False)],
    game: Annotated[str, typer.Option("--game", "-g", help="Game id (see 'scarbook games').")],
    player: Annotated[list[str], typer.Option("--player", "-p", help="A player's name; repeat for each.")],
    pack: Annotated[list[Path] | None, typer.Option("--pack", help="A house-rule pack to play with from game 1 "
                                                    "(recorded relative to FILE); repeat for each.",
                                                    exists=True)] = None,
    name: Annotated[str, typer.Option("--name", help="A name for this campaign (your world).")] = "",
) -> None:
    """Create a campaign file: the game, a fingerprint of its content, and the players.

    GAME is a shipped game's id or a homebrew game's folder (recorded relative to FILE, so every
    command works from any folder).

    Example: scarbook campaign new campaign.yaml --game risk-legacy --player Ann --player Bob --player Cat
    --pack packs/sinkhole
    """
    from scarbook.campaign.events import PackAdded
    from scarbook.campaign.ledger.text import render
    from scarbook.campaign.ledger.write import write_atomic
    from scarbook.cli.campaign._shared import pack_fingerprint, recorded_pack
    from scarbook.compiler.validate import UnknownGame, cached_game

    names = [p.strip() for p in player if p.strip()]
    if not names:
        fail_usage("give at least one --player NAME")
    if len({n.lower() for n in names}) != len(names):
        fail_usage("two players have the same name")
    if file.exists():
        echo(f"error L008: {file} already exists; nothing was written (choose another file, or delete it)",
                   err=True)
        raise typer.Exit(1)
    with campaign_errors():
        try:
            content = cached_game(game)
        except UnknownGame as exc:
            fail_usage(str(exc))
        packs = list(pack or [])
        if packs:
            cached_game(game, packs)  # a pack with errors (or for another game): diagnostics, exit 1
        if len({p.resolve() for p in packs}) != len(packs):
            fail_usage("the same --pack is given twice")
        file.parent.mkdir(parents=True, exist_ok=True) if str(file.parent) else None
        # a homebrew game is recorded as its folder (or file) relative to the ledger, so every
        # later command finds it from any folder; a shipped game by its id
        recorded = content.id
        if Path(game).exists():
            recorded = Path(os.path.relpath(Path(game).resolve(), file.resolve().parent)).as_posix()
            recorded = recorded if "/" in recorded or recorded.endswith((".yaml", ".yml")) else f"./{recorded}"
        added = [PackAdded(recorded_pack(file, p), pack_fingerprint(p)).to_dict() for p in packs]
        write_atomic(file, render(name, recorded, content.fingerprint, names, added), backup=False)
    echo(f"created {file}: {content.title} with {', '.join(names)}"
         + (f" and the pack{'s' if len(packs) > 1 else ''} {', '.join(str(a['pack']) for a in added)}"
            if packs else ""))
    from scarbook.campaign.model import CampaignModel

    model = CampaignModel.of(content)
    plays = " ".join(f"--play {model.play_form(1, n)}" for n in names)
    echo(f"next: set up the world (scarbook campaign where STICKER -c {file}), then "
         f"scarbook campaign game start {plays}")
