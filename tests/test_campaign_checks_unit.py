"""Two campaign checks of Risk: Shadow Forces, called directly on a small made-up world.

`spread-over-regions`: a piece's marks spread over the listed regions (no third in one region until every
region has two); `steps-value`: a stat sticker moves one chosen field one step in its direction. The
Shadow Forces campaign test reaches both only through a 300-line replay; these are the edges, one by one.
Then the branches of other checks where they have nothing to say (no slot, another pool, a game already
started...), which no campaign reached.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from scarbook.campaign.checks import Placement, ordinal, spread_over_regions, steps_value
from scarbook.campaign.content import Content, Target
from scarbook.campaign.state import CampaignState, Mark
from scarbook.compiler.items import CheckSpec, Place, Sticker

TERRITORIES = {"n1": ["north"], "n2": ["north"], "n3": ["north"], "s1": ["south"], "s2": ["south"], "e1": ["east"]}


class World:
    """What the checks read of a game's content: pieces, regions, stickers."""

    regions = {"north": {}, "south": {}, "east": {}}
    belongs_to = {"kai-sticker": "kai", "raaz-sticker": "raaz"}
    stickers: dict[str, Any] = {"kai-sticker": {"kind": "warlord"}, "raaz-sticker": {"kind": "warlord"},
                                "loose": {"kind": "warlord"}}
    game = SimpleNamespace(region_members=lambda: {r: [t for t, rs in TERRITORIES.items() if r in rs]
                                                   for r in ("north", "south", "east")})

    piece_of = Content.piece_of  # the real rule: the sticker's own piece, the target's, its deck's

    def piece_kind_of(self, item_id: str) -> str | None:
        return "warlord" if item_id in ("kai", "raaz") else None

    def place(self, target: Target) -> Place:
        return Place.of(target.id, target.item)  # as Content reads an item not of its kind's section


def spec(params: dict[str, Any]) -> CheckSpec:
    """A check's parameters as its predicate gets them (typed, as compiler/items.py builds them from the content)."""
    return CheckSpec.of_raw(params)


def view(sid: str, raw: dict[str, Any] | None = None) -> Sticker:
    return Sticker.of(sid, World.stickers[sid] if raw is None else raw)


def territory(tid: str) -> Target:
    return Target("territory", tid, {"regions": TERRITORIES[tid]})


def spread(marks: list[tuple[str, str]], sticker: str, target: str, **params: Any) -> Any:
    state = CampaignState(["Ann", "Bob"])
    for sid, tid in marks:
        kind, _, sid = sid.rpartition(":")  # "KIND:STICKER" for a mark of another kind
        state.marks.setdefault(tid, []).append(Mark(sid, kind or "warlord", tid))
    p = Placement(World(), state, sticker, view(sticker), territory(target))  # type: ignore[arg-type]
    return spread_over_regions(p, spec({"per_region": 2, "regions": ["north", "south"], **params}))


def test_two_in_a_region_then_the_others_first() -> None:
    assert spread([], "kai-sticker", "n1") is None
    assert spread([("kai-sticker", "n1")], "kai-sticker", "n2") is None
    assert spread([("kai-sticker", "n1"), ("kai-sticker", "n2")], "kai-sticker", "n3") == (
        "kai already has 2 warlords in north, and south has fewer than 2",
        "no 3rd in one region until every one has 2")
    full = [("kai-sticker", "n1"), ("kai-sticker", "n2"), ("kai-sticker", "s1"), ("kai-sticker", "s2")]
    assert spread(full, "kai-sticker", "n3") is None  # every listed region has two: any region again


def test_only_the_same_pieces_marks_and_listed_regions_count() -> None:
    others = [("raaz-sticker", "n1"), ("raaz-sticker", "n2")]
    assert spread(others, "kai-sticker", "n3") is None
    mine = [("kai-sticker", "n1"), ("kai-sticker", "n2")]
    assert spread(mine, "kai-sticker", "e1") is None  # east is not listed: never limited
    assert spread(mine + [("kai-sticker", "e1")], "kai-sticker", "n3") is not None  # nor counted for north
    assert spread(mine, "kai-sticker", "n3", per_region=3) is None
    assert spread(mine, "kai-sticker", "n3", regions=["north", "south", "east"])[0] == (
        "kai already has 2 warlords in north, and south, east have fewer than 2")


def test_only_marks_of_the_kind_count() -> None:
    mine = [("kai-sticker", "n1"), ("kai-sticker", "n2")]
    assert spread(mine, "kai-sticker", "n3", kind="upgrade") is None  # counting another kind: none of those
    others = [("upgrade:kai-sticker", "n1"), ("upgrade:kai-sticker", "n2")]  # kai's, but not warlord marks
    assert spread(others, "kai-sticker", "n3") is None
    assert spread(others, "kai-sticker", "n3", kind="upgrade")[0] == (
        "kai already has 2 upgrades in north, and south has fewer than 2")
    strangers = [("loose", "n1"), ("loose", "n2")]  # marks of no piece never count for one
    assert spread(strangers, "kai-sticker", "n3") is None
    assert spread(strangers, "loose", "n3") is None  # nor does a sticker of no piece count at all


def test_a_listed_region_without_territories() -> None:
    mine = [("kai-sticker", "n1"), ("kai-sticker", "n2")]
    assert spread(mine, "kai-sticker", "n3", regions=["north", "west"])[0] == (
        "kai already has 2 warlords in north, and west has fewer than 2")


def test_every_region_when_none_are_listed() -> None:
    mine = [("kai-sticker", "n1"), ("kai-sticker", "n2"), ("kai-sticker", "s1"), ("kai-sticker", "s2")]
    assert spread(mine, "kai-sticker", "n3", regions=None)[0] == (
        "kai already has 2 warlords in north, and east has fewer than 2")
    assert spread(mine, "kai-sticker", "n3", regions=["north", "south"], per_region=3) is None
    state = CampaignState(["Ann"])
    for tid in ("n1", "n2"):
        state.marks.setdefault(tid, []).append(Mark("kai-sticker", "warlord", tid))
    p = Placement(World(), state, "kai-sticker", view("kai-sticker"), territory("n3"))  # type: ignore[arg-type]
    assert spread_over_regions(p, spec({})) == (  # by default two a region, every region of the game
        "kai already has 2 warlords in north, and south, east have fewer than 2",
        "no 3rd in one region until every one has 2")
    assert spread_over_regions(Placement(World(), CampaignState([]), "loose", view("loose", {"kind": "x"}),  # type: ignore[arg-type]
                                         territory("n1")), spec({})) is None  # no piece: nothing to spread


def test_not_a_territory_is_not_limited() -> None:
    state = CampaignState(["Ann"])
    p = Placement(World(), state, "kai-sticker", view("kai-sticker"),  # type: ignore[arg-type]
                  Target("continent", "north", {}))
    assert spread_over_regions(p, spec({"per_region": 0})) is None


STEPS = {"fields": {"melee_dice": 1, "melee_to_hit": -1}}


def upgrade(name: str, value: int | None, printed: dict[str, Any], marks: list[Mark] = ()) -> Any:  # type: ignore[assignment]
    state = CampaignState(["Ann"])
    for m in marks:
        state.marks.setdefault("kai", []).append(m)
    content = SimpleNamespace(stickers={"up": {}}, sticker_view=lambda sid: Sticker.of(sid, {}),
                              place=lambda t: Place.of(t.id, t.item))
    p = Placement(content, state, "up", Sticker.of("up", {"name": "Stat upgrade"}),  # type: ignore[arg-type]
                  Target("card", "kai", {"stats": printed}), name=name, value=value)
    return steps_value(p, spec(STEPS))


def test_steps_value_one_step_in_the_fields_direction() -> None:
    assert upgrade("melee_dice", 3, {"melee_dice": 2}) is None
    assert upgrade("melee_to_hit", 4, {"melee_to_hit": 5}) is None
    assert upgrade("melee_dice", 4, {"melee_dice": 2}) == (
        "kai's melee_dice is 2: the sticker must show 3, not 4", "melee_dice moves by +1, never weaker")
    assert upgrade("melee_to_hit", 6, {"melee_to_hit": 5}) == (
        "kai's melee_to_hit is 5: the sticker must show 4, not 6", "melee_to_hit moves by -1, never weaker")
    assert upgrade("melee_dice", 4, {"melee_dice": 2}, [Mark("up", "stat", "kai", name="melee_dice", value=3)]) is None


def test_steps_value_asks_for_the_field_and_the_number() -> None:
    assert upgrade("life", 3, {}) == ("choose what it raises with --name (melee_dice, melee_to_hit)",
                                      "a Stat upgrade changes one of melee_dice, melee_to_hit")
    assert upgrade("melee_dice", None, {"melee_dice": 2}) == (
        "give the number printed on the sticker with --value N", "a Stat upgrade shows the new value")
    assert upgrade("melee_dice", 9, {}) is None  # the printed value is unknown: the players' word stands


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "14th", "20th", "21st", "22nd", "23rd", "101st",
        "111th", "112th"]
    assert [ordinal(n) for n in (120, 121, 122, 1013)] == ["120th", "121st", "122nd", "1013th"]


# --- the checks' "nothing to say" branches, each called directly --------------------------------------------
def placement(target: Target, sticker: dict[str, Any] | None = None, state: CampaignState | None = None,
              content: Any = None, **fields: Any) -> Placement:
    return Placement(content or SimpleNamespace(), state or CampaignState(["Ann", "Bob"]), "s1",  # type: ignore[arg-type]
                     Sticker.of("s1", sticker or {"kind": "scar"}), target, **fields)


def test_a_slot_check_without_a_slot_or_with_a_capacity_nobody_knows_passes() -> None:
    from scarbook.campaign.checks import slot_free

    unknown = SimpleNamespace(slot_capacity=lambda target, slot: None)
    assert slot_free(placement(territory("n1"), content=unknown), spec({})) is None  # no slot named anywhere
    assert slot_free(placement(territory("n1"), {"slot": "city"}, content=unknown), spec({})) is None
    full = SimpleNamespace(slot_capacity=lambda target, slot: 0, offered_by=lambda kind, slot: [])
    assert slot_free(placement(territory("n1"), {"slot": "city"}, content=full), spec({})) == (
        "n1 has no city slot", "a city goes only where a territory declares a city slot")


def test_a_supply_check_of_another_pool_or_of_a_supply_of_unknown_size_passes() -> None:
    from scarbook.campaign.checks import supply_left

    state = CampaignState(["Ann"])
    state.pool_used[("s1", "red")] = 5
    blue = spec({"pool": "blue"})
    assert supply_left(placement(territory("n1"), state=state, pool="red", pool_count=5), blue) is None
    assert supply_left(placement(territory("n1"), state=state, pool="red", pool_count=None), spec({})) is None
    assert supply_left(placement(territory("n1"), state=state, pool="red", pool_count=5), spec({}))[0] == \
        "no s1 is left in the red supply (all 5 placed)"


def test_a_value_limit_of_another_pool_or_only_before_the_first_game_passes() -> None:
    from scarbook.campaign.checks import max_value
    from scarbook.campaign.state import GameRecord

    state = CampaignState(["Ann"])
    state.games.append(GameRecord(1, {"Ann": ""}))
    assert max_value(placement(territory("n1"), state=state), spec({"before_first_game": True, "field": "x",
                                                                      "max": 0})) is None
    assert max_value(placement(territory("n1"), pool="red"), spec({"pool": "blue", "field": "x", "max": 0})) is None


def test_the_board_stays_connected_check_is_for_territories_only() -> None:
    from scarbook.campaign.checks import keeps_board_connected

    assert keeps_board_connected(placement(Target("card", "c1", {})), spec({})) is None


def test_the_checks_that_only_list_or_enforce_elsewhere_never_refuse_a_placement() -> None:
    from scarbook.campaign.checks import placed_once_opened, required_before_first_game, start_for_founder

    for check in (required_before_first_game, placed_once_opened, start_for_founder):
        assert check(placement(territory("n1")), spec({})) is None, check.__name__


def test_a_card_value_check_refuses_a_destroyed_card_citing_its_line() -> None:
    from scarbook.campaign.checks import target_card_value

    state = CampaignState(["Ann"])
    state.marks["c1"] = [Mark("card-destroyed", "destroyed", "c1", line=12)]
    content = SimpleNamespace(cards={"c1": {"coins": 3}}, card_of_territory={})
    assert target_card_value(placement(Target("card", "c1", {}), {"name": "Ammo"}, state, content),
                             spec({"field": "coins", "min": 2})) == ("c1 was destroyed (line 12)",
                                                              "an Ammo goes where a card with 2 or more coins is")
