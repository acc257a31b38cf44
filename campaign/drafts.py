"""A game's draft (`schedule[].draft: {of: [...], text, cite}`): what it still owes before the game may end.

Each player selects one of the drafted stickers for the piece they play (their faction), and the ones nobody
selected go on the pieces nobody chose, all during the game. `owed` lists what is missing, one entry per player
without one and one for the stickers still unplaced, each with the command that records it. `rules` refuses a
game's end while anything is owed (R318); `todo` lists it while the game is in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scarbook.compiler.words import a, plural

if TYPE_CHECKING:
    from scarbook.campaign.content import Content
    from scarbook.campaign.state import CampaignState


@dataclass(frozen=True)
class DraftOwed:
    """One thing the draft of the game in progress still owes: who, what, the command, the rule and its source."""

    who: str
    what: str
    command: str
    rule: str
    cite: str


def owed(content: Content, state: CampaignState) -> list[DraftOwed]:
    """What the draft of the game in progress still owes (nothing without a game or a draft)."""
    game = state.in_progress
    if game is None:
        return []
    draft = content.model.entry(game.number).draft
    ids = [s for s in draft.of if s in content.stickers] if draft else []
    if not draft or not ids:
        return []
    rule = draft.text or "every player selects one in the draft; the rest go on the unchosen pieces"
    cite = draft.cite
    sid = ids[0]
    label = content.sticker_views[sid].name or sid
    placed = [m for ms in state.marks.values() for m in ms if m.sticker in ids and m.during_game == game.number]
    supply = sum(s for s in (content.sticker_views[i].supply for i in ids) if s is not None)
    out: list[DraftOwed] = []
    if supply >= len(game.pieces):  # enough for every player: each selects one for a piece they play
        for player, pieces in game.pieces.items():
            mine = set(pieces.values())
            if not any(m.target in mine for m in placed):
                sticker = content.sticker_views[sid]
                tids = {t for k in sticker.targets for t in content.target_ids(k, sticker)}
                target = next((p for p in pieces.values() if p in tids), "TARGET")
                out.append(DraftOwed(player, f"{player} selects {a(label)} for {target} in game {game.number}'s draft",
                                     f"scarbook campaign place {sid} {target} --by {player}", rule, cite))
    left = supply - len(placed) - len(out)
    if left > 0:
        out.append(DraftOwed("", f"{plural(left, label)} nobody selected still to go on the pieces nobody chose",
                             f"scarbook campaign place {sid} TARGET", rule, cite))
    return out
