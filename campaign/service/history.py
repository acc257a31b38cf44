"""Reading a campaign's history (`status --after`, `sheet --after`, `build --after`, `diff`, `chronicle`)
and the names a shell completes, one call each; the folds and the wording are `scarbook.campaign.history`.

Nothing here writes the campaign file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from scarbook.campaign import history
from scarbook.campaign.engine import Campaign, Replay
from scarbook.campaign.history import NoSuchPoint, diff_text
from scarbook.campaign.ledger.cache import read
from scarbook.campaign.report import status
from scarbook.campaign.service.reading import Status, as_players_see
from scarbook.compiler.model import Game

__all__ = ["NoSuchPoint", "diff_text", "chronicle", "completions", "diff", "game_after", "sheet_after", "status_after"]


def after(path: Path, game: int) -> tuple[Campaign, Replay]:
    """The campaign and the fold of its events up to the end of `game` (each checked, as `status` checks)."""
    campaign = Campaign(read(path))
    return campaign, history.replay_after(campaign, game)


def status_after(path: Path, game: int) -> Status:
    """What `status` said of the campaign when game `game` and its end-of-game steps were done."""
    campaign, replay = after(path, game)
    bad = replay.first_problem
    return Status(status(campaign.ledger, replay),
                  f"the campaign file has an illegal event at line {bad[0].span.line}; run 'scarbook campaign "
                  "check'" if bad is not None else "")


def sheet_after(path: Path, game: int, target: Path, fmt: str, paper: str = "a4") -> Path:
    """Write the campaign sheet as it stood after `game` on `paper`; ValueError when it cannot be made."""
    from scarbook.campaign.sheet import write_sheet

    campaign, replay = after(path, game)
    return write_sheet(campaign.ledger, replay, target, fmt, paper)


def game_after(path: Path, packs: list[Path], game: int) -> Game:
    """The effective game of the campaign in `path` as it stood after `game` (for `build --after`)."""
    campaign = Campaign(read(path), list(packs))
    return as_players_see(campaign, history.replay_after(campaign, game, check=False))


def diff(path: Path, first: int, last: int | None) -> dict[str, Any]:
    """`campaign diff FIRST [LAST]` as data (`history.diff_data`)."""
    return history.diff_data(Campaign(read(path)), first, last)


def chronicle(path: Path, target: Path, fmt: str, progress: Callable[[str], None] | None = None) -> Path:
    """Write the campaign's chronicle (pdf or html) to `target`; `progress` hears each stage."""
    return history.write_chronicle(Campaign(read(path)), target, fmt, progress)


def completions(path: Path, source: str, incomplete: str) -> list[tuple[str, str]]:
    """(value, printed name) a shell may complete for `source` (stickers, territories, cards, packets still
    sealed, targets, players, pieces, steps, player=piece, player=territory), from the campaign now."""
    from scarbook.campaign import replaycache

    campaign = Campaign(read(path))
    replay = replaycache.for_state(campaign)
    content, state = replay.content, replay.state

    def label(item: Any) -> str:
        name = item.get("name") if isinstance(item, dict) else None
        return name if isinstance(name, str) else ""

    def of(items: dict[str, Any]) -> list[tuple[str, str]]:
        return [(i, label(v)) for i, v in items.items()]

    pieces = [(i, label(v)) for k in content.model.pieces for i, v in content.pieces_of(k).items()]
    players = [(p, "") for p in campaign.ledger.players]
    if source in ("player=piece", "player=territory"):
        player, eq, _ = incomplete.partition("=")
        if not eq:
            return [(f"{p}=", "") for p, _ in players]
        values = pieces if source == "player=piece" else of(content.territories)
        return [(f"{player}={v}", text) for v, text in values]
    table = {
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
