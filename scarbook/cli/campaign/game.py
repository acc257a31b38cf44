"""`scarbook campaign game start|end`: record the start and the end of a game."""

from __future__ import annotations

import datetime
from typing import Annotated

import typer

from ..common import fail_usage
from ._shared import CampaignFile, campaign_path, record

app = typer.Typer(help="Record the start and the end of a game.\n\nExample: scarbook campaign game start "
                       "--play Ann=khan-industries --play Bob=saharan-republic --play Cat=die-mechaniker",
                  no_args_is_help=True)


def _pairs(values: list[str], option: str) -> list[tuple[str, str]]:
    out = []
    for v in values:
        if "=" not in v or not v.rsplit("=", 1)[0].strip() or not v.rsplit("=", 1)[1].strip():
            fail_usage(f"{option} takes NAME=VALUE, not {v!r}")
        a, b = v.rsplit("=", 1)  # at the last '=': a player may be named 'A=B', an id never holds one
        out.append((a.strip(), b.strip()))
    return out


@app.command("start")
def start(
    play: Annotated[list[str], typer.Option("--play", help="NAME=FACTION for each player in this game.")],
    start_at: Annotated[list[str] | None, typer.Option("--start", help="NAME=TERRITORY: where a player "
                                                       "started (checked against the legal starting territories).")]
    = None,
    campaign: CampaignFile = None,
) -> None:
    """Start the next game: who plays which faction (and, optionally, where each starts).

    Refused while the last game's winner or held-on players still owe their reward, or (before
    game 1) while setup stickers are left to place.

    Example: scarbook campaign game start --play Ann=khan-industries --play Bob=saharan-republic
    --play Cat=die-mechaniker
    """
    from scarbook.campaign.events import GameStarted

    plays = tuple(_pairs(play, "--play"))
    starts = tuple(_pairs(list(start_at or []), "--start"))
    record(campaign_path(campaign), lambda c, r: GameStarted(plays, starts))


@app.command("end")
def end(
    winner: Annotated[str, typer.Option("--winner", help="The player who won.")],
    held_on: Annotated[list[str] | None, typer.Option("--held-on", help="A player who held on (default: every "
                                                      "player not named as winner or eliminated).")] = None,
    eliminated: Annotated[list[str] | None, typer.Option("--eliminated", help="A player who was eliminated.")]
    = None,
    controlled: Annotated[list[str] | None, typer.Option("--controlled", help="NAME=T1,T2,...: territories a "
                                                         "player controlled at the end (limits their rewards "
                                                         "to those).")] = None,
    campaign: CampaignFile = None,
) -> None:
    """End the game in progress: the winner signs the board; then rewards are taken with `place`/`destroy`.

    Example: scarbook campaign game end --winner Ann --held-on Bob --eliminated Cat
    """
    from scarbook.campaign.events import GameEnded

    ctrl = tuple((p, tuple(t.strip() for t in ts.split(",") if t.strip()))
                 for p, ts in _pairs(list(controlled or []), "--controlled"))
    event = GameEnded(winner.strip(), tuple(held_on or ()), tuple(eliminated or ()), ctrl,
                      datetime.date.today().isoformat())
    record(campaign_path(campaign), lambda c, r: event)
