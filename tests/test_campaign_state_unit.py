"""campaign/state.py's small rules, called directly: a game record's roles, values and stats as stickers change them.

What a card shows now is its printed number, plus what `adds` stickers add, unless a later sticker sets it
(a stat upgrade: `--name FIELD --value N`); a covered sticker no longer counts; an unknown printed number
stays unknown under `adds` but a sticker that sets the value makes it known.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from scarbook.campaign.state import CampaignState, GameRecord, Mark

CONTENT: Any = SimpleNamespace(stickers={"plus-two": {"adds": {"strength": 2}}, "minus-one": {"adds": {"strength": -1}},
                                         "odd": {"adds": {"strength": "two", "bounty": True}}, "upgrade": {}})


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
