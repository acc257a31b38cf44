"""`scarbook campaign ...`: the campaign tracker's commands, one module per command or small group.

Each command parses its arguments, calls one function of `scarbook.campaign`, and reports. The group
is lazy (`scarbook.cli.lazy`): only the module of the command being run is imported, so heavy
libraries (jsonschema, Jinja2, WeasyPrint) stay out of every command but the ones that need them.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`app` and the groups, from `scarbook.cli.campaign.group` (which imports Typer) when first asked for."""
    if name in ("app", "CampaignGroup", "GameGroup", "game_app"):
        from scarbook.cli.campaign import group

        return getattr(group, name)
    raise AttributeError(name)
