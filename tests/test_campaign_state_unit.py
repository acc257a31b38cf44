"""campaign/state.py's small rules, called directly: a game record's roles, values and stats as stickers change them.

What a card shows now is its printed number, plus what `adds` stickers add, unless a later sticker sets it
(a stat upgrade: `--name FIELD --value N`); a covered sticker no longer counts; an unknown printed number
stays unknown under `adds` but a sticker that sets the value makes it known.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from scarbook.campaign.state import CampaignState, GameRecord, Mark
from scarbook.compiler.items import Sticker

STICKERS = {"plus-two": {"adds": {"strength": 2}}, "minus-one": {"adds": {"strength": -1}},
            "odd": {"adds": {"strength": "two", "bounty": True}}, "upgrade": {}}
CONTENT: Any = SimpleNamespace(stickers=STICKERS,  # a sticker read as its view, an unknown one as a sticker of nothing
                               sticker_view=lambda sid: Sticker.of(sid, STICKERS.get(sid, {})))


def state_with(*marks: Mark) -> CampaignState:
    state = CampaignState(["Ann", "Bob"])
    for m in marks:
        state.marks.setdefault(m.target, []).append(m)
    return state


def test_value_adds_every_active_sticker() -> None:
    state = state_with(Mark("plus-two", "mark", "a"), Mark("minus-one", "mark", "a"),
                       Mark("plus-two", "mark", "a", covered_by="x"), Mark("plus-two", "mark", "b"))
    assert state.value(CONTENT, "a", {"strength": 3}, "strength") == 4
    assert state.value(CONTENT, "a", {"strength": 3}, "strength", adds=5) == 9
    assert state.value(CONTENT, "a", {}, "strength") == 1  # no printed number counts as 0
    assert state.value(CONTENT, "a", {"strength": True}, "strength") == 1  # nor does a yes/no
    assert state.value(CONTENT, "a", {"bounty": 2}, "bounty") == 2
    assert state.value(CONTENT, "c", {"strength": 3}, "strength") == 3
    assert state.value(CONTENT, "d", {"strength": 1}, "strength") == 1
    assert state_with(Mark("odd", "mark", "d")).value(CONTENT, "d", {"strength": 1, "bounty": 1}, "bounty") == 1


def test_stat_as_printed_added_to_and_set() -> None:
    assert state_with().stat(CONTENT, "w", 3, "strength") == 3
    assert state_with().stat(CONTENT, "w", None, "strength") is None
    assert state_with().stat(CONTENT, "w", False, "strength") is None  # a yes/no is not a number
    assert state_with(Mark("plus-two", "mark", "w")).stat(CONTENT, "w", 3, "strength") == 5
    assert state_with(Mark("plus-two", "mark", "w")).stat(CONTENT, "w", None, "strength") is None
    upgraded = state_with(Mark("plus-two", "mark", "w"), Mark("upgrade", "stat", "w", name="strength", value=7),
                          Mark("upgrade", "stat", "w", name="melee", value=2))
    assert upgraded.stat(CONTENT, "w", 3, "strength") == 7  # the latest sticker that sets it wins
    assert upgraded.stat(CONTENT, "w", None, "strength") == 7
    assert upgraded.stat(CONTENT, "w", 1, "melee") == 2
    later = state_with(Mark("upgrade", "stat", "w", name="strength", value=7), Mark("plus-two", "mark", "w"))
    assert later.stat(CONTENT, "w", 3, "strength") == 9
    covered = state_with(Mark("upgrade", "stat", "w", name="strength", value=7, covered_by="x"))
    assert covered.stat(CONTENT, "w", 3, "strength") == 3
    assert state_with(Mark("odd", "mark", "w")).stat(CONTENT, "w", 3, "bounty") == 3  # adds: yes/no is no number
    unset = state_with(Mark("upgrade", "stat", "w", name="strength"))
    assert unset.stat(CONTENT, "w", 3, "strength") == 3


def test_has_and_destroyed_see_only_active_marks() -> None:
    state = state_with(Mark("ruin", "scar", "t", founds="city"), Mark("old", "scar", "t", covered_by="new"),
                       Mark("anti", "scar", "t", cancels=True), Mark("gone", "destroyed", "t"))
    assert [m.sticker for m in state.has("t", "scar")] == ["ruin"]
    assert [m.sticker for m in state.has("t", "city")] == ["ruin"]  # what it founds counts as its kind too
    assert [m.sticker for m in state.has("t", "anti")] == []  # a cancelling mark is never "had"
    assert [m.sticker for m in state.active_marks("t")] == ["ruin", "anti", "gone"]
    assert state.destroyed("t") is not None and state.destroyed("t").sticker == "gone"
    assert state.destroyed("u") is None


def test_game_record_roles() -> None:
    game = GameRecord(3, {"Ann": "", "Bob": "", "Cat": "", "Dan": ""}, winner="Ann", held_on=["Bob"],
                      eliminated=["Cat"])
    assert [game.role(p) for p in ("Ann", "Bob", "Cat", "Dan", "Eve")] == [
        "winner", "held-on", "eliminated", "not played", "not played"]
    assert game.with_role("winner") == ["Ann"]
    assert game.with_role("held-on") == ["Bob"]
    assert game.with_role("eliminated") == ["Cat"]
    assert game.with_role("everyone") == ["Ann", "Bob", "Cat", "Dan"]
    assert GameRecord(1, {"Ann": ""}).with_role("winner") == []  # not ended: nobody won yet
    lists = game.with_role("held-on")
    lists.append("Zed")  # a copy: the record itself is not changed through it
    assert game.held_on == ["Bob"]


def test_a_mark_of_a_sticker_the_content_no_longer_has_adds_nothing() -> None:
    state = state_with(Mark("gone-with-a-pack", "mark", "a"), Mark("plus-two", "mark", "a"))
    assert state.value(CONTENT, "a", {"strength": 1}, "strength") == 3
    assert state.stat(CONTENT, "a", 1, "strength") == 3


def test_pool_for_draws_from_the_first_pool_with_stickers_left() -> None:
    from scarbook.campaign.state import pool_for as pool_of

    def pool_for(state: CampaignState, raw: dict) -> tuple[str | None, int | None]:  # the sticker's view
        return pool_of(state, Sticker.of(str(raw["id"]), raw))

    sticker = {"id": "coin", "supply": [{"pool": "box", "count": 2}, {"pool": "sheet", "count": 3},
                                        {"pool": "spare", "count": {"unknown": "not printed"}}]}
    state = CampaignState(["Ann"])
    assert pool_for(state, sticker) == ("box", 2)
    state.pool_used[("coin", "box")] = 1
    assert pool_for(state, sticker) == ("box", 2)
    state.pool_used[("coin", "box")] = 2
    assert pool_for(state, sticker) == ("sheet", 3)
    state.pool_used[("other", "sheet")] = 3  # another sticker's use of a pool of the same name
    assert pool_for(state, sticker) == ("sheet", 3)
    state.pool_used[("coin", "sheet")] = 3
    assert pool_for(state, sticker) == ("spare", None)  # a count nobody knows: never used up
    assert pool_for(state, {"id": "x", "supply": 4}) == (None, 4)
    assert pool_for(state, {"id": "x", "supply": True}) == (None, None)
    assert pool_for(state, {"id": "x", "supply": {"unknown": "?"}}) == (None, None)
    used_up = {"id": "y", "supply": [{"pool": "only", "count": 1}]}
    state.pool_used[("y", "only")] = 1
    assert pool_for(state, used_up) == ("only", 1)  # the last pool even when empty: supply-left refuses


def test_pool_for_setup_pools_before_the_first_game_only() -> None:
    from scarbook.campaign.state import GameRecord
    from scarbook.campaign.state import pool_for as pool_of

    def pool_for(state: CampaignState, raw: dict) -> tuple[str | None, int | None]:
        return pool_of(state, Sticker.of(str(raw["id"]), raw))

    sticker = {"id": "coin", "supply": [{"pool": "setup", "count": 12}, {"pool": "rewards", "count": 20}],
               "checks": [{"check": "before-first-game", "pool": "setup"}, {"check": "supply-left"}]}
    state = CampaignState(["Ann"])
    assert pool_for(state, sticker) == ("setup", 12)
    state.pool_used[("coin", "setup")] = 12
    assert pool_for(state, sticker) == ("setup", 12)  # still before game 1: the setup pool, empty
    state.games.append(GameRecord(1, {"Ann": ""}))
    assert pool_for(state, sticker) == ("rewards", 20)
    state.pool_used[("coin", "setup")] = 0
    assert pool_for(state, sticker) == ("rewards", 20)  # after game 1 the setup pool is closed
    assert pool_for(state, {**sticker, "checks": None}) == ("setup", 12)  # no phases: the first pool left


def test_owner_of_a_mark_is_the_claimer_of_its_piece_else_its_placer() -> None:
    content: Any = SimpleNamespace(belongs_to={"kai-sticker": "kai", "raaz-sticker": "raaz"},
                                   model=SimpleNamespace(claim_kinds=lambda: {"warlord-claim"}))
    state = state_with(Mark("warlord-claim", "claim", "kai", by="Ann"), Mark("other", "claim", "raaz", by="Bob"))
    assert state.owner(content, Mark("kai-sticker", "warlord", "t1", by="Bob")) == "Ann"  # Ann claimed kai
    assert state.owner(content, Mark("raaz-sticker", "warlord", "t1", by="Bob")) == ""  # raaz: nobody claimed
    assert state.owner(content, Mark("scar", "scar", "t1", by="Cat")) == "Cat"
    assert state.claimed_by(content, "kai") == "Ann" and state.claimed_by(content, "raaz") is None


def test_copy_state_is_independent_where_events_still_change_it() -> None:
    from scarbook.campaign.ledger.cache import RECENT_GAMES
    from scarbook.campaign.replaycache import copy_state

    for games in (0, 1, RECENT_GAMES, RECENT_GAMES + 3):
        state = state_with(Mark("plus-two", "mark", "a"))
        state.games = [GameRecord(n + 1, {"Ann": ""}, ended=True) for n in range(games)]
        copy = copy_state(state)
        assert [g.number for g in copy.games] == [g.number for g in state.games]
        for g in copy.games[-RECENT_GAMES:]:  # the games an event may still change are copies
            g.winner = "changed"
        copy.marks["a"].append(Mark("minus-one", "mark", "a"))
        assert all(g.winner == "" for g in state.games) and len(state.marks["a"]) == 1
        assert all(c is s for c, s in zip(copy.games[:-RECENT_GAMES], state.games[:-RECENT_GAMES], strict=True))
