"""`scarbook campaign where`: every target where a sticker could legally go now."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from scarbook.cli.campaign._shared import ByOption, CampaignFile, campaign_errors, campaign_path, load_state, refuse
from scarbook.cli.common import FormatOption, TextOrJson
from scarbook.cli.terminal import echo


def where(
    sticker: Annotated[str, typer.Argument(help="Sticker id (see 'scarbook show GAME stickers').")],
    by: ByOption = "",
    fmt: FormatOption = TextOrJson.text,
    campaign: CampaignFile = None,
) -> None:
    """List every target where STICKER could legally go now (for the player given with --by).

    Example: scarbook campaign where minor-city --by Bob
    """
    from scarbook.campaign import rules
    from scarbook.campaign.ids import normalize

    with campaign_errors(writing=False):
        _, replay = load_state(campaign_path(campaign))
        content, state = replay.content, replay.state
        sid = normalize(sticker)
        actor = ""
        if by:
            actor = rules.player_name(state, by) or ""
            if not actor:
                refuse([rules.unknown_player(content, state, by)])
        if sid not in content.stickers:
            first = next(iter(content.territories), "x")
            problem = rules.resolve(content, state, sid, first, by)
            refuse([problem] if isinstance(problem, rules.Problem) else
                   [rules.unknown_sticker(content, sticker)])
        targets = rules.where(content, state, sid, actor)
    if fmt is TextOrJson.json:
        echo(json.dumps({"sticker": sid, "by": actor or None, "targets": targets,
                         "offered_by": content.declared_places(content.stickers[sid])}))
    elif targets:
        echo("\n".join(targets))
    else:
        echo(f"{sid} cannot go anywhere now"
                   + (f" for {actor}" if actor else "") + f" (try 'scarbook campaign place {sid} TARGET --dry-run' "
                   "to see why)", err=True)
