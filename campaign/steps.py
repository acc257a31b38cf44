"""End-of-game steps: who owes what after a game, and which owed step a placement takes.

The steps come from the content (`campaign.model`): after a game of a given type, every entry
(`Owed`) is one step for one subject (a player, or a piece such as a character when the step is
taken per piece) and names the player who acts. A placement by that player of a sticker the step
offers takes the first matching open entry; a `pass` event closes one without a placement.
Nothing here decides legality (that is `rules`) or names a game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from scarbook.campaign.model import Step

if TYPE_CHECKING:
    from scarbook.campaign.content import Content, Target
    from scarbook.campaign.state import CampaignState, GameRecord


@dataclass(frozen=True)
class Owed:
    """One step one subject owes after a game: `actor` takes it (for `piece` when per piece)."""

    game: int
    step: Step
    index: int  # the step's position in its game type
    subject: str  # the player, or the piece the step is taken for
    actor: str
    piece: str = ""

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.game, self.step.id, self.subject)

    def takes(self, player: str) -> bool:
        """Whether `player` may take this entry (any player of the game for a team step, whose actor is '')."""
        return bool(player) and (self.actor == player or (not self.actor and player in self.players))

    players: tuple[str, ...] = ()  # who played the game (a team step is theirs)

    @property
    def who(self) -> str:
        return self.actor or "the team"

    def text(self) -> str:
        piece = f" for {self.piece}" if self.piece and self.piece != self.actor else ""
        return f"{self.step.name} ({self.who}{piece})"


def entitled(content: Content, game: GameRecord, state: CampaignState | None = None) -> list[Owed]:
    """Every placing step the end of `game` asks for, in step order (nothing when it gives no rewards). With the
    state: a piece nobody played is its owner's to act for when they played in this game
    (another piece), else the winner's; a piece lost for good in an earlier game, and not played since, is left out;
    so is a player who left the campaign (they owe nothing)."""
    model = content.model
    gtype = model.types.get(game.type)
    if gtype is None or not game.ended or not model.rewarded(game.number):
        return []
    played = {p for pieces in game.pieces.values() for p in pieces.values()}
    gone = gone_pieces(state, game.number) if state is not None else set()
    out: list[Owed] = []
    for index, step in enumerate(gtype.steps):
        if step.does != "place" or (step.result and step.result != game.team):
            continue
        if step.who == "team":
            out.append(Owed(game.number, step, index, "team", "", players=tuple(game.plays)))
        elif step.who == "everyone":
            for player, pieces in game.pieces.items():
                piece = pieces.get(step.piece, "") if step.piece else ""
                if step.piece and (not piece or piece in game.lost or piece in step.skip):
                    continue
                out.append(Owed(game.number, step, index, piece or player, player, piece))
        elif step.who == "winner-for-unassigned":
            for piece in game.pieces_at_end.get(step.piece or "", []):
                if piece not in played and piece not in game.lost and piece not in step.skip and piece not in gone \
                        and game.winner:
                    owner = state.claimed_by(content, piece) if state is not None else None
                    actor = owner if owner is not None and owner in game.plays else game.winner
                    out.append(Owed(game.number, step, index, piece, actor, piece))
        else:
            for player in game.with_role(step.who):
                piece = game.pieces.get(player, {}).get(step.piece, "") if step.piece else ""
                out.append(Owed(game.number, step, index, player, player, piece))
    gone_players = {p for p, _n, _heir in state.left} - set(state.players) if state is not None else set()
    if gone_players:  # a player who left owes nothing and takes nothing (a team step is the others')
        out = [replace(o, players=tuple(p for p in o.players if p not in gone_players)) for o in out
               if o.actor not in gone_players]
    if state is not None and any(o.step.when is not None for o in out):
        from scarbook.campaign.lang import Scope

        out = [o for o in out if o.step.when is None
               or content.conditions.holds(o.step.when, Scope(content, state, o.actor)).ok]
    return out


def gone_pieces(state: CampaignState, number: int) -> set[str]:
    """Pieces lost for good before game `number` and not played again since (a return, where a game allows it).

    Incremental: `state.gone_memo` holds the answers after the last few runs of ended games folded so far, so a
    campaign's game starts and ends cost the games since, not every earlier game again (issue 36, item 5); an
    older game number (a view of the past) folds from the start."""
    games = state.games
    upto = max(0, min(number - 1, len(games)))
    done, memo = max(((k, m) for k, m in state.gone_memo if k <= upto), default=(0, frozenset()),
                     key=lambda entry: entry[0])
    gone = set(memo)
    clean = True  # every game folded so far has ended: the memo may learn the answer
    for i in range(done, upto):
        g = games[i - len(games)]  # from the end: the cache's older games stay unloaded (LazyList)
        gone -= {p for ps in g.pieces.values() for p in ps.values()}
        gone |= set(g.lost)
        clean = clean and g.ended
    if clean and upto > done:
        kept = [(k, m) for k, m in state.gone_memo if k != upto][-(GONE_MEMO - 1):]
        state.gone_memo = (*kept, (upto, frozenset(gone)))
    return gone


GONE_MEMO = 3  # answers kept: the game in progress's, the last ended game's, the one before


def open_entries(content: Content, state: CampaignState) -> list[Owed]:
    """Entries of the last ended game not taken or passed yet (none while a game is in progress)."""
    game = state.last_ended
    if game is None or state.in_progress is not None:
        return []
    return [o for o in entitled(content, game, state) if o.key not in state.steps]


def assign(content: Content, state: CampaignState, sticker: str, target: Target, actor: str) -> Owed | None:
    """The open entry a placement of `sticker` on `target` by `actor` takes (None: not a step's)."""
    if not actor:
        return None
    piece = content.piece_of(sticker, target)
    for o in open_entries(content, state):
        if o.takes(actor) and o.step.offers(sticker) and (not o.piece or piece is None or o.piece == piece):
            return o
    return None


def offered_now(content: Content, state: CampaignState, sticker: str) -> bool:
    """Whether the last game's steps offer this sticker (so placing it now is taking a step)."""
    game = state.last_ended
    if game is None or state.in_progress is not None:
        return False
    gtype = content.model.types.get(game.type)
    return gtype is not None and any(s.offers(sticker) for s in gtype.steps)
