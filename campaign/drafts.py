"""A game's draft (`schedule[].draft: {of: [...], text, cite}`): what it still owes before the game may end.

Each player selects one of the drafted stickers for the piece they play (their faction), and the ones nobody
selected go on the pieces nobody chose, all during the game. `owed` lists what is missing, one entry per player
without one and one for the stickers still unplaced, each with the command that records it. `rules` refuses a
game's end while anything is owed (R318); `todo` lists it while the game is in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scarbook.campaign.model import cite_of
from scarbook.compiler.model import as_dict, as_list
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
    draft = as_dict(as_dict(content.model.schedule.get(game.number)).get("draft"))
    ids = [str(s) for s in as_list(draft.get("of")) if str(s) in content.stickers]
    if not ids:
        return []
    rule = str(draft.get("text") or "every player selects one in the draft; the rest go on the unchosen pieces")
    cite = cite_of(draft)
    sid = ids[0]
    label = str(content.stickers[sid].get("name") or sid)
    placed = [m for ms in state.marks.values() for m in ms if m.sticker in ids and m.during_game == game.number]
    supply = sum(int(s) for s in (content.stickers[i].get("supply") for i in ids)
                 if isinstance(s, int) and not isinstance(s, bool))
    out: list[DraftOwed] = []
    if supply >= len(game.pieces):  # enough for every player: each selects one for a piece they play
        for player, pieces in game.pieces.items():
            mine = set(pieces.values())
            if not any(m.target in mine for m in placed):
                sticker = content.stickers[sid]
                tids = {t for k in sticker.get("targets", []) or [] for t in content.target_ids(str(k), sticker)}
                target = next((p for p in pieces.values() if p in tids), "TARGET")
                out.append(DraftOwed(player, f"{player} selects {a(label)} for {target} in game {game.number}'s draft",
                                     f"scarbook campaign place {sid} {target} --by {player}", rule, cite))
    left = supply - len(placed) - len(out)
    if left > 0:
        out.append(DraftOwed("", f"{plural(left, label)} nobody selected still to go on the pieces nobody chose",
                             f"scarbook campaign place {sid} TARGET", rule, cite))
    return out
