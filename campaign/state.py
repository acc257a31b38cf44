"""Campaign state: the fold of the ledger's events over the effective content.

`apply_<kind>` folds one kind of event (`eventspecs.apply` picks it by the event's type) and never checks
legality (that is the kind's check in `rules`, run before it). State is derived, never stored. Nothing here
knows any particular game: the effects of a mark come from its sticker's data (`adds`, `covers`, `cancels`,
`founds`, `boxes`, `named`, `kind: destroyed`, `destroys_card`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from scarbook.campaign import steps
from scarbook.campaign.content import Content
from scarbook.campaign.events import (
    Destroyed,
    GameEnded,
    GameStarted,
    Joined,
    Left,
    Linked,
    Opened,
    PackAdded,
    Passed,
    Placed,
    Retired,
    Ticked,
)
from scarbook.campaign.tracks import track_value as track_value
from scarbook.compiler.items import Sticker


@dataclass
class Mark:
    """One sticker on one target, as placed."""

    sticker: str
    kind: str
    target: str
    slot: str | None = None
    by: str = ""
    name: str = ""
    pool: str | None = None
    after_game: int = 0  # games ended when it was placed
    line: int = 0
    boxes: int | None = None
    ticked: int = 0
    covered_by: str | None = None  # the sticker that went over it
    founds: str | None = None
    cancels: bool = False
    reward: bool = False
    value: int | None = None  # the number a sticker sets (a stat's new value)
    during_game: int = 0  # the game in progress when it was placed (0: placed between games)
    status: str = ""  # retired or lost for good (`campaign retire`): no longer active ('' while it counts)
    placed_by: str = ""  # who placed it, when a hand-over gave it to another player since (`by` is the holder)

    @property
    def active(self) -> bool:
        return self.covered_by is None and not self.status

    def is_a(self, kind: str) -> bool:
        return kind in (self.sticker, self.kind, self.founds)


@dataclass
class GameRecord:
    """One game as played: who played what, started where, won, held on, was eliminated, controlled."""

    number: int
    plays: dict[str, str]  # player -> the first piece they play ('' in a game without pieces)
    starts: dict[str, str] = field(default_factory=dict)
    winner: str = ""
    held_on: list[str] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    controlled: dict[str, set[str]] = field(default_factory=dict)
    date: str = ""
    ended: bool = False
    line: int = 0
    type: str = ""
    pieces: dict[str, dict[str, str]] = field(default_factory=dict)  # player -> piece kind -> piece
    lost: list[str] = field(default_factory=list)  # pieces lost for good in this game
    pieces_at_end: dict[str, list[str]] = field(default_factory=dict)  # piece kind -> every piece then
    signed: bool = False
    team: str = ""  # a co-operative game's result (won, lost)
    chapter: int = 0  # the chapter it plays (0: the campaign has no chapters)
    attempt: int = 0  # which try of that chapter
    returned: dict[str, str] = field(default_factory=dict)  # piece lost for good earlier, played again -> its price
    seating: tuple[str, ...] = ()  # the players clockwise around the table (the last recorded seating)
    scenario: str = ""  # the scenario played (`game start --scenario`, a scenario graph)
    scores: dict[str, int] = field(default_factory=dict)  # player -> score in this game (`game end --score`)

    def with_role(self, role: str) -> list[str]:
        if role == "winner":
            return [self.winner] if self.winner else []
        if role == "held-on":
            return list(self.held_on)
        if role == "eliminated":
            return list(self.eliminated)
        return list(self.plays)

    def role(self, player: str) -> str:
        if player == self.winner:
            return "winner"
        if player in self.held_on:
            return "held-on"
        if player in self.eliminated:
            return "eliminated"
        return "not played"


@dataclass
class _Index:
    """The active marks of one target, kept as marks are placed and covered (`CampaignState.index`)."""

    size: int  # how many of the target's marks (active or not) it has seen
    active: list[Mark] = field(default_factory=list)
    tally: Counter[str] = field(default_factory=Counter)  # sticker -> how many are active
    by_kind: dict[str, list[Mark]] = field(default_factory=dict)  # sticker, kind or founds -> active marks

    def add(self, mark: Mark) -> None:
        self.size += 1
        if not mark.active:
            return
        self.active.append(mark)
        self.tally[mark.sticker] += 1
        for key in {mark.sticker, mark.kind, mark.founds}:
            if key is not None:
                self.by_kind.setdefault(key, []).append(mark)

    def drop(self, mark: Mark) -> None:
        """`mark` is no longer active (covered); the latest marks are the ones covered: look from the end."""
        lists = [self.active, *(self.by_kind.get(k, []) for k in {mark.sticker, mark.kind, mark.founds} if k)]
        for marks in lists:
            for i in range(len(marks) - 1, -1, -1):
                if marks[i] is mark:
                    del marks[i]
                    break
        if self.tally[mark.sticker] > 0:
            self.tally[mark.sticker] -= 1


_EMPTY = _Index(0)  # the index of a target without marks (never changed)


@dataclass
class CampaignState:
    """The campaign after a fold of its events: games, marks, stickers used, rewards, opened packets, lines."""

    players: list[str]
    games: list[GameRecord] = field(default_factory=list)
    marks: dict[str, list[Mark]] = field(default_factory=dict)
    placed: Counter[str] = field(default_factory=Counter)
    pool_used: Counter[tuple[str, str | None]] = field(default_factory=Counter)
    rewards: dict[tuple[int, str], Mark] = field(default_factory=dict)
    opened: dict[str, str] = field(default_factory=dict)  # envelope -> pack ('' when none)
    links: list[tuple[str, str, str]] = field(default_factory=list)  # lines drawn: (sticker, a, b)
    packs: list[str] = field(default_factory=list)  # house-rule packs added (paths as the ledger gives them)
    signatures: list[tuple[str, int]] = field(default_factory=list)
    events: int = 0
    eliminations: int = 0  # players eliminated in any game so far
    steps: dict[tuple[int, str, str], str] = field(default_factory=dict)  # (game, step, subject) -> how
    passes: list[tuple[int, str, str, str, str]] = field(default_factory=list)  # game, step, by, piece, why
    by_lower: dict[str, str] = field(default_factory=dict)  # lowercased name -> the ledger's spelling
    # An index of `marks`, kept by `add_mark` and `cover` (all `place` does), so that replay stays linear
    # however many marks one target holds: per target, how many of its marks it covers (`_Index.size`), the
    # active ones in order, how many of each sticker are active, and the active ones by what they are
    # (`Mark.is_a`: sticker, kind, what it founds). Marks added another way (a test's state) re-index it.
    index: dict[str, _Index] = field(default_factory=dict, repr=False, compare=False)
    # How many active marks there are of each sticker, kind and founded kind, board-wide: kept by `add_mark` and
    # `cover` so a count the campaign language asks for costs nothing per event (campaign/lang.py).
    live: Counter[str] = field(default_factory=Counter, repr=False, compare=False)
    # Players who joined and left after the campaign began: (player, games ended then, heir or '')
    joined: list[tuple[str, int]] = field(default_factory=list)
    left: list[tuple[str, int, str]] = field(default_factory=list)
    heirs: dict[str, str] = field(default_factory=dict)  # a player who left -> who took over their holdings
    retired_pieces: dict[str, str] = field(default_factory=dict)  # a piece whose claim retired -> its status
    # Pieces lost for good after the first N games, all ended (`steps.gone_pieces`): a few (N, those pieces). Ended
    # games no longer change, so each game start and end folds only the games since, not every earlier game again.
    gone_memo: tuple[tuple[int, frozenset[str]], ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        self.by_lower = {p.lower(): p for p in self.players}

    # --- where the campaign stands -------------------------------------------------------
    @property
    def started(self) -> int:
        return len(self.games)

    @property
    def in_progress(self) -> GameRecord | None:
        return self.games[-1] if self.games and not self.games[-1].ended else None

    @property
    def last_ended(self) -> GameRecord | None:
        for g in reversed(self.games):
            if g.ended:
                return g
        return None

    def active_marks(self, target: str) -> list[Mark]:
        """The marks on `target` nothing covers, in the order placed (the index itself: do not change it)."""
        return self._indexed(target).active

    def _indexed(self, target: str) -> _Index:
        marks = self.marks.get(target)
        if not marks:
            return _EMPTY
        entry = self.index.get(target)
        if entry is None or entry.size != len(marks):
            entry = self.index[target] = _Index(0)
            for m in marks:
                entry.add(m)
        return entry

    def add_mark(self, mark: Mark) -> None:
        """Record a mark placed on its target (in `marks` and in the index)."""
        entry = self._indexed(mark.target)
        if entry is _EMPTY:
            entry = self.index[mark.target] = _Index(0)
        self.marks.setdefault(mark.target, []).append(mark)
        entry.add(mark)
        if mark.active:
            for key in {mark.sticker, mark.kind, mark.founds} - {None}:
                self.live[str(key)] += 1

    def cover(self, mark: Mark, by: str) -> None:
        """`by` goes over the active `mark` (one of its target's): it is no longer active."""
        entry = self._indexed(mark.target)
        if mark.active:
            for key in {mark.sticker, mark.kind, mark.founds} - {None}:
                self.live[str(key)] -= 1
        mark.covered_by = by
        entry.drop(mark)

    def retire(self, mark: Mark, status: str) -> None:
        """The active `mark` retires or is lost for good (`status`): it stays, no longer active."""
        entry = self._indexed(mark.target)
        if mark.active:
            for key in {mark.sticker, mark.kind, mark.founds} - {None}:
                self.live[str(key)] -= 1
            mark.status = status
            entry.drop(mark)

    def holders(self, player: str) -> set[str]:
        """The player and everyone whose holdings came to them by hand-overs (their totals count as theirs)."""
        out = {player}
        grew = True
        while grew:
            more = {left for left, heir in self.heirs.items() if heir in out} - out
            grew = bool(more)
            out |= more
        return out

    def has(self, target: str, kind: str) -> list[Mark]:
        return [m for m in self._indexed(target).by_kind.get(kind, _NONE) if not m.cancels]

    def destroyed(self, target: str) -> Mark | None:
        return next((m for m in self._indexed(target).by_kind.get("destroyed", _NONE) if m.kind == "destroyed"),
                    None)

    def value(self, content: Content, target: str, item: dict[str, Any], fieldname: str,
              adds: int = 0) -> int:
        base = item.get(fieldname)
        total = base if isinstance(base, int) and not isinstance(base, bool) else 0
        for sticker, count in self._indexed(target).tally.items():  # per sticker, not per mark: linear replay
            extra = content.sticker_view(sticker).adds.get(fieldname)
            if count and isinstance(extra, int) and not isinstance(extra, bool):  # as for the printed number
                total += extra * count
        return total + adds

    def stat(self, content: Content, target: str, base: Any, fieldname: str) -> int | None:
        """A value printed on a card as it stands now: the printed number (None when unknown), plus what
        `adds` stickers add, replaced by the latest sticker that sets it (`steps-value`)."""
        value = base if isinstance(base, int) and not isinstance(base, bool) else None
        for m in self.active_marks(target):
            adds = content.sticker_view(m.sticker).adds.get(fieldname)
            if isinstance(adds, int) and not isinstance(adds, bool):
                value = None if value is None else value + adds
            if m.name == fieldname and m.value is not None:
                value = m.value
        return value

    def signature_count(self, player: str) -> int:
        return sum(1 for p, _ in self.signatures if p == player)

    def owner(self, content: Content, mark: Mark) -> str:
        """Whose mark it is: the owner of the piece it belongs to (a character's sticker), else its placer."""
        piece = content.belongs_to.get(mark.sticker)
        if piece is not None:
            return self.claimed_by(content, piece) or ""
        return mark.by

    def claimed_by(self, content: Content, piece: str) -> str | None:
        """The player who claimed a piece for good (its claim sticker's mark), if anyone did."""
        claims = content.model.claim_kinds()
        return next((m.by for m in self.active_marks(piece) if m.sticker in claims), None)


_NONE: list[Mark] = []  # what `active_marks` gives for a target without marks (never changed)


def new_state(players: list[str]) -> CampaignState:
    return CampaignState(list(players))


# --- folding each kind of event (legality was checked before; `eventspecs.SPECS` names each kind's function) ---
def apply_game_start(state: CampaignState, content: Content, event: GameStarted) -> None:
    number = state.started + 1
    pieces = {p: {content.piece_kind_of(i) or "": i for i in ids} for p, ids in event.plays}
    record = GameRecord(number, {p: ids[0] if ids else "" for p, ids in event.plays}, dict(event.starts),
                        line=event.span.line, type=content.model.type_of(number, event.type), pieces=pieces,
                        seating=event.seating or (state.games[-1].seating if state.games else ()))
    if content.model.chapters is not None:
        record.chapter, record.attempt = next_chapter(content, state)
    record.scenario = event.scenario
    state.games.append(record)
    back = content.model.entry(number)
    gone = steps.gone_pieces(state, number) if back.returns else set()
    for piece in (p for ids in pieces.values() for p in ids.values() if p in gone):
        state.games[-1].returned[piece] = back.returns_price


def apply_game_end(state: CampaignState, content: Content, event: GameEnded) -> None:
    game = state.in_progress
    if game is None:
        return
    game.ended = True
    game.winner, game.held_on, game.eliminated = event.winner, list(event.held_on), list(event.eliminated)
    game.controlled = {p: set(ts) for p, ts in event.controlled}
    game.lost = list(event.lost)
    game.team = event.team
    game.scores = {state.by_lower.get(p.lower(), p): n for p, n in event.scores}
    game.pieces_at_end = {k: list(content.pieces_of(k)) for k in content.model.pieces}
    state.eliminations += len(event.eliminated)
    game.date = event.date
    gtype = content.model.types.get(game.type)
    signs = gtype is not None and any(s.does == "sign" for s in gtype.steps)
    if event.winner and signs and content.model.rewarded(game.number):
        game.signed = True
        state.signatures.append((event.winner, game.number))


def apply_pass(state: CampaignState, content: Content, event: Passed) -> None:
    game = state.last_ended
    if game is not None:
        state.steps[(game.number, event.step, event.piece or event.by)] = f"passed (line {event.span.line})"
        state.passes.append((game.number, event.step, event.by, event.piece, event.why))


def apply_place(state: CampaignState, content: Content, event: Placed) -> None:
    place(state, content, event.sticker, event.target, event.by, event.name, event.span.line).value = event.value
    if event.to:
        state.links.append((event.sticker, event.target, event.to))


def apply_destroy(state: CampaignState, content: Content, event: Destroyed) -> None:
    sticker = next(iter(content.destroy_stickers), "destroyed")
    place(state, content, sticker, event.card, event.by, "", event.span.line)


def apply_open(state: CampaignState, content: Content, event: Opened) -> None:
    state.opened[event.envelope] = event.pack


def apply_link(state: CampaignState, content: Content, event: Linked) -> None:
    state.links.append((event.sticker, event.a, event.b))


def apply_add_pack(state: CampaignState, content: Content, event: PackAdded) -> None:
    state.packs.append(event.pack)


def apply_join(state: CampaignState, content: Content, event: Joined) -> None:
    join(state, event.player)
    if event.replaces:
        leave(state, event.replaces, event.player)


def apply_leave(state: CampaignState, content: Content, event: Left) -> None:
    leave(state, event.player, event.to)


def apply_retire(state: CampaignState, content: Content, event: Retired) -> None:
    mark = retiring(content, state, event.sticker, event.target, event.by)
    if mark is not None:
        state.retire(mark, event.status)
        if mark.sticker in content.model.claim_kinds() and content.piece_kind_of(mark.target) is not None:
            state.retired_pieces[mark.target] = event.status


def apply_tick(state: CampaignState, content: Content, event: Ticked) -> None:
    forts = [m for m in state.active_marks(event.target) if m.boxes]
    if forts:
        forts[-1].ticked = min(forts[-1].boxes or 0, forts[-1].ticked + event.boxes)


def join(state: CampaignState, player: str) -> None:
    """A newcomer (or a player who left, back again) plays the campaign from now on."""
    games = sum(1 for g in state.games if g.ended)
    state.players.append(player)
    state.by_lower[player.lower()] = player
    state.joined.append((player, games))
    state.heirs.pop(player, None)


def leave(state: CampaignState, player: str, heir: str = "") -> None:
    """A player leaves; with an heir, every mark they hold is the heir's from now on (`by` and so ownership: the
    regions and pieces they claimed), and their score total counts as the heir's."""
    if player in state.players:
        state.players.remove(player)
    state.left.append((player, sum(1 for g in state.games if g.ended), heir))
    if not heir:
        return
    state.heirs[player] = heir
    for marks in state.marks.values():
        for m in marks:
            if m.by == player:
                m.placed_by = m.placed_by or player
                m.by = heir


def retiring(content: Content, state: CampaignState, sticker: str, target: str, by: str = "") -> Mark | None:
    """The mark `campaign retire STICKER TARGET` retires: the latest active one of that sticker or kind on the
    target (held by `by`, when given)."""
    for m in reversed(state.active_marks(target)):
        if m.is_a(sticker) and not m.cancels and (not by or state.owner(content, m) == by):
            return m
    return None


def next_chapter(content: Content, state: CampaignState) -> tuple[int, int]:
    """(chapter, try) the next game plays: the same chapter again after the result the chapters name
    (`again_after`) while tries are left, else the next chapter, try 1."""
    chapters = content.model.chapters
    prev = state.games[-1] if state.games else None
    if chapters is None or prev is None or not prev.chapter:
        return 1, 1
    if prev.team == chapters.again_after and prev.attempt < chapters.tries:
        return prev.chapter, prev.attempt + 1
    return prev.chapter + 1, 1


def pool_for(state: CampaignState, sticker: Sticker) -> tuple[str | None, int | None]:
    """The supply pool a placement draws from now, and how many that pool holds (None: unknown).

    Pools named by a `before-first-game` check are the ones used before the first game; the
    others after it. Within those, the first pool with stickers left (else the last one).
    """
    if sticker.supply is not None:
        return None, sticker.supply
    if sticker.pools is None:
        return None, None
    setup = sticker.setup_pools
    pools = list(sticker.pools)
    if setup:
        phase = [p for p in pools if (p[0] in setup) == (state.started == 0)]
        pools = phase or pools
    sid = sticker.id
    for name, count in pools:
        if not isinstance(count, int) or state.pool_used[(sid, name)] < count:
            return name, count if isinstance(count, int) else None
    name, count = pools[-1]
    return name, count if isinstance(count, int) else None


def place(state: CampaignState, content: Content, sticker_id: str, target: str, by: str, name: str,
          line: int) -> Mark:
    sticker = content.sticker_view(sticker_id)
    pool, _ = pool_for(state, sticker)
    owed = None
    if by and steps.offered_now(content, state, sticker_id):
        owed = steps.assign(content, state, sticker_id, content.target(sticker, target), by)
    last = state.last_ended
    live = state.in_progress
    mark = Mark(sticker_id, sticker.kind or sticker_id, target, sticker.slot or None, by, name, pool,
                last.number if last else 0, line, sticker.boxes, founds=sticker.founds_kind, cancels=sticker.cancels,
                during_game=live.number if live else 0)
    kinds = sticker.covers
    covered = [m for m in state.active_marks(target) if any(m.is_a(k) for k in kinds)] if kinds else []
    if covered and sticker.covers_all:  # it goes over the latest mark of each kind it covers
        for kind in kinds:
            of_kind = [m for m in covered if m.is_a(kind) and m.active]
            if of_kind:
                state.cover(of_kind[-1], sticker_id)
    elif covered:  # a sticker goes over one mark: the latest it may cover
        state.cover(covered[-1], sticker_id)
    state.add_mark(mark)
    card = content.card_of_territory.get(target) if sticker.destroys_card else None
    if card and state.destroyed(card) is None:  # the territory's card is destroyed in the same step
        state.add_mark(Mark(sticker_id, "destroyed", card, None, by, "", pool, mark.after_game, line,
                            during_game=mark.during_game))
    state.placed[sticker_id] += 1
    state.pool_used[(sticker_id, pool)] += 1
    if by and last is not None and state.in_progress is None and sticker_id in content.reward_stickers:
        mark.reward = True
        state.rewards.setdefault((last.number, by), mark)
    if owed is not None:
        state.steps[owed.key] = f"{sticker_id} on {target} (line {line})"
    return mark
