"""`scarbook campaign game start|end`: record the start and the end of a game."""

import datetime
from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import CampaignFile, NoteOption, campaign_path, record
from scarbook.cli.common import fail_usage


def _pairs(values: list[str], option: str, bare: bool = False) -> list[tuple[str, str]]:
    """NAME=VALUE, split at the last '=' (a player may be called 'A=B'; ids never hold '=').

    With `bare`, a NAME alone is (NAME, ''): a player of a game that has no pieces to choose."""
    out = []
    for v in values:
        a, sep, b = v.rpartition("=")
        if bare and not sep and v.strip():
            out.append((v.strip(), ""))
            continue
        if not sep or not a.strip() or not b.strip():
            fail_usage(f"{option} takes NAME=VALUE, not {v!r}")
        out.append((a.strip(), b.strip()))
    return out


def start(
    play: Annotated[list[str], opt.Option("--play", help="NAME=PIECE[,PIECE] for each player in this game: "
                                          "what the game records (a faction; in some games a faction and a "
                                          "character); just NAME in a game without factions or other pieces.")],
    start_at: Annotated[list[str] | None, opt.Option("--start", help="NAME=TERRITORY: where a player "
                                                     "started (checked against the legal starting territories).")]
    = None,
    game_type: Annotated[str, opt.Option("--type", help="The type of game, for a game the campaign's "
                                         "schedule does not list (a replay after the campaign).")] = "",
    seating: Annotated[str, opt.Option("--seating", help="NAME,NAME,...: the players clockwise around the "
                                       "table, where the game takes steps in turn from the winner (kept for "
                                       "later games until given again).", metavar="NAME,...")] = "",
    scenario: Annotated[str, opt.Option("--scenario", help="The scenario played, in a campaign played as a "
                                        "graph of scenarios (refused while it is not open).")] = "",
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """Start the next game: what each player plays (and, optionally, where each starts and how they sit).

    Refused while a step of the last game is still owed, a sealed packet waits to be opened, or
    (before a game that needs it) setup is left to do; `scarbook campaign status` says what.

    Example: scarbook campaign game start --play Ann=khan-industries --play Bob=saharan-republic
    --play Cat=die-mechaniker
    """
    from scarbook.campaign.events import GameStarted

    pairs = _pairs(play, "--play", bare=True)
    plays = tuple((p, tuple(x.strip() for x in v.split(",") if x.strip())) for p, v in pairs)
    starts = tuple(_pairs(list(start_at or []), "--start"))
    seats = tuple(name.strip() for name in seating.split(",") if name.strip())
    record(campaign_path(campaign), lambda c, r: GameStarted(plays, starts, game_type.strip(), seats,
                                                                    scenario.strip()), note=note)


def end(
    winner: Annotated[str, opt.Option("--winner", help="The player who won (a competitive game).")] = "",
    team: Annotated[str, opt.Option("--team", help="won or lost: the team's result, in a co-operative game "
                                    "(instead of --winner).", metavar="won|lost")] = "",
    held_on: Annotated[list[str] | None, opt.Option("--held-on", help="A player who held on (default: every "
                                                    "player not named as winner or eliminated).")] = None,
    eliminated: Annotated[list[str] | None, opt.Option("--eliminated", help="A player who was eliminated.")]
    = None,
    controlled: Annotated[list[str] | None, opt.Option("--controlled", help="NAME=T1,T2,...: territories a "
                                                       "player controlled at the end (limits their rewards "
                                                       "to those).")] = None,
    lost: Annotated[list[str] | None, opt.Option("--lost", help="A piece lost for good in this game, where "
                                                 "the game's rules say so (it takes no more steps).")] = None,
    score: Annotated[list[str] | None, opt.Option("--score", help="NAME=N: a player's score in this game "
                                                  "(where the game keeps scores; ranks follow from them).")]
    = None,
    dry_run: Annotated[bool, opt.Option("--dry-run", help="Only say whether it would be legal now.")] = False,
    note: NoteOption = "",
    campaign: CampaignFile = None,
) -> None:
    """End the game in progress; then every step the game's end asks for is taken with `place`/`destroy`
    (or `pass`), in the order the rules give; it lists them with the command for each, as `status` does.

    Example: scarbook campaign game end --winner Ann --held-on Bob --eliminated Cat
    (a co-operative game: scarbook campaign game end --team lost)
    """
    from scarbook.campaign.events import GameEnded

    if team.strip() not in ("", "won", "lost"):
        fail_usage(f"--team takes won or lost, not {team!r}")
    ctrl = tuple((p, tuple(t.strip() for t in ts.split(",") if t.strip()))
                 for p, ts in _pairs(list(controlled or []), "--controlled"))
    scores = []
    for name, n in _pairs(list(score or []), "--score"):
        try:
            scores.append((name, int(n)))
        except ValueError:
            fail_usage(f"--score takes NAME=NUMBER, not {name}={n}")
    event = GameEnded(winner.strip(), tuple(held_on or ()), tuple(eliminated or ()), ctrl,
                      datetime.date.today().isoformat(), tuple(lost or ()), team.strip(), tuple(scores))
    path = campaign_path(campaign)
    record(path, lambda c, r: event, dry_run, note, owed="nothing is owed before the next game")
