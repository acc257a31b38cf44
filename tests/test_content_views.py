"""The typed views of the content (compiler/items.py, compiler/campaign_model.py) and the ceiling on untyped reads.

The tracker reads stickers, their checks, packets and the schedule as typed views built once per content; the
builders are where the raw mapping reads are. Content that failed its schema is still merged, so a builder takes
what it finds: a value of the wrong type is absent, an absent optional key is its default, a value the content
marks unknown stays as written where the tracker shows it. The ceiling keeps the untyped reads in campaign/ from
growing back (issue 35: 621 lines with `.get("` and 112 with as_dict/as_list before the views).
"""

from __future__ import annotations

import re
from pathlib import Path

from scarbook.campaign.content import Content, Target
from scarbook.campaign.lang import Count, Rank, Stat, compile_query
from scarbook.campaign.links import as_played, link_problem
from scarbook.campaign.model import NO_ENTRY, CampaignModel, ScheduleEntry
from scarbook.compiler.conditions import Form
from scarbook.compiler.items import (
    BookSlot,
    Card,
    CheckSpec,
    Envelope,
    Links,
    Meta,
    Place,
    Players,
    Power,
    Reward,
    Sticker,
    book_slots,
    sticker_views,
)
from scarbook.compiler.model import Game

CAMPAIGN = Path(__file__).resolve().parent.parent / "campaign"

#: Lines of campaign/ that read a mapping by a literal key, and that call as_dict/as_list: at most these.
GET_CEILING = 116  # 621 before the views; 223 after the status rows; 148 after places, items, powers; then links, lang
AS_CEILING = 0  # 112 before the views; 34 before links (7), lang (17), rules and sheet read views (Todo.to_json: 4)


def _lines(pattern: str) -> dict[str, int]:
    found = {}
    for path in sorted(CAMPAIGN.rglob("*.py")):
        n = sum(1 for line in path.read_text("utf-8").splitlines() if re.search(pattern, line))
        if n:
            found[path.relative_to(CAMPAIGN).as_posix()] = n
    return found


def test_the_untyped_reads_in_campaign_stay_under_the_ceiling() -> None:
    gets, ases = _lines(r'\.get\("'), _lines(r"as_dict|as_list")
    assert sum(gets.values()) <= GET_CEILING, (
        f"{sum(gets.values())} lines of campaign/ read a mapping by key (ceiling {GET_CEILING}): read the typed views "
        f"(compiler/items.py, compiler/campaign_model.py) instead; per file: {gets}")
    assert sum(ases.values()) <= AS_CEILING, (
        f"{sum(ases.values())} lines of campaign/ call as_dict/as_list (ceiling {AS_CEILING}); per file: {ases}")


def test_the_ceiling_counts_what_it_says() -> None:
    assert sum(_lines(r'\.get\("').values()) > 0 and "rules.py" in _lines(r'\.get\("')


# --- stickers --------------------------------------------------------------------------------------------------
def test_a_bare_sticker_reads_its_defaults() -> None:
    st = Sticker.of("fort", {})
    assert (st.id, st.name, st.kind, st.targets, st.checks, st.cite) == ("fort", "fort", "", (), (), "")
    assert (st.named, st.named_itself, st.slot, st.covers, st.adds, st.founds_kind, st.tags) == (
        False, False, "", (), {}, None, ())
    assert (st.supply, st.pools, st.setup_pools, st.deck, st.boxes, st.boxed, st.text) == (
        None, None, frozenset(), None, None, False, "")
    assert (st.links.by, st.links.text, st.links.cite) == ("", "", "")


def test_a_sticker_reads_what_it_has_and_leaves_out_values_of_the_wrong_type() -> None:
    st = Sticker.of("city", {
        "name": "Major City", "kind": "city", "targets": ["territory", 7], "slot": "city", "covers": ["ruin"],
        "source": {"cite": ["RB p. 4", "RB p. 5"]}, "founds": {"kind": "city", "named": True},
        "adds": {"population": 3, "bounty": {"unknown": "not printed"}}, "tags": ["big"], "boxes": 2,
        "supply": True, "checks": [{"check": "supply-left", "pool": "red", "cite": "RB p. 6"}, "not a check", None],
        "links": {"by": "placer", "text": "  draw two lines  "}, "text": 5})
    assert (st.name, st.kind, st.targets, st.slot, st.covers) == ("Major City", "city", ("territory", "7"), "city",
                                                                   ("ruin",))
    assert st.cite == "RB p. 4; RB p. 5" and st.links.cite == "RB p. 4; RB p. 5"  # the links' cite, else the source's
    assert (st.links.by, st.links.text) == ("placer", "draw two lines")
    assert st.named and not st.named_itself and st.founds_kind == "city"
    assert st.adds == {"population": 3, "bounty": {"unknown": "not printed"}}  # an unknown value stays unknown
    assert (st.boxes, st.boxed, st.tags) == (2, True, ("big",))
    assert st.supply is None and st.pools is None  # a yes/no is no supply
    assert st.text == ""  # a rule text that is not text is none
    assert [c.check for c in st.checks] == ["supply-left"]  # what is not a mapping is no check
    assert st.checks_named("supply-left")[0].pool == "red" and st.checks_named("limit") == ()


def test_a_supply_in_pools_and_the_setup_pools() -> None:
    st = Sticker.of("coin", {"supply": [{"pool": "setup", "count": 12}, {"pool": "spare", "count": {"unknown": "?"}},
                                        "junk"],
                             "checks": [{"check": "before-first-game", "pool": "setup"},
                                        {"check": "before-first-game"}]})
    assert st.pools == (("setup", 12), ("spare", {"unknown": "?"}))  # a count nobody knows stays unknown
    assert st.setup_pools == frozenset({"setup"})  # a check without a pool names none
    assert Sticker.of("c", {"supply": 4}).supply == 4 and Sticker.of("c", {"supply": 4}).pools is None


# --- checks ----------------------------------------------------------------------------------------------------
def test_a_check_keeps_its_parameters_and_types_the_optional_ones() -> None:
    c = CheckSpec.of_raw({"check": "limit", "max": {"track": "fame"}, "of": ["city", {"deck": "scars"}],
                          "per": ["player", 3], "cite": ["a", "b"], "only": "between-games"})
    assert (c.check, c.cite, c.raw_cite, c.only) == ("limit", "a; b", ["a", "b"], "between-games")
    assert c.params == {"max": {"track": "fame"}, "of": ["city", {"deck": "scars"}], "per": ["player", 3]}
    assert (c.max, c.of, c.per) == ({"track": "fame"}, ("city", {"deck": "scars"}), ("player", "3"))
    assert (c.max_track, c.max_stat) == ("fame", None)
    assert CheckSpec.of_raw({"check": "limit", "max": {"stat": "hp"}})[-2:] == (None, "hp")
    assert CheckSpec.of_raw({"check": "limit", "max": {"track": 3}})[-2:] == (None, None)
    assert (c.name, c.tag, c.kind, c.slot, c.text, c.ids, c.types, c.regions) == ("", "", None, "", "", (), (), ())
    assert (c.absent, c.before_first_game, c.by, c.games, c.per_region, c.fields) == (False, False, False, None, 2,
                                                                                       None)


def test_a_check_without_a_name_or_with_parameters_of_the_wrong_type() -> None:
    c = CheckSpec.of_raw({"games": True, "per_region": "3", "fields": ["x"], "regions": "north", "kind": 5})
    assert c.check == "None"  # as the content named it: R299 says 'None' is no check
    assert (c.games, c.per_region, c.fields, c.regions, c.kind) == (None, 2, None, (), "5")


# --- packets ---------------------------------------------------------------------------------------------------
def test_a_packet_reads_its_trigger_its_contents_and_its_cites() -> None:
    env = Envelope.of("p1", {"name": "Do Not Open", "trigger": {"text": "when a city is placed", "cite": "RB 9",
                                                                 "when": {"about_to_place": "city"}},
                             "contents": ["scar-1"], "source": {"cite": "Box"}})
    assert (env.name, env.trigger_text, env.cite, env.source_cite, env.contents) == (
        "Do Not Open", "when a city is placed", "RB 9", "Box", ("scar-1",))
    assert env.about_to_place() == "city"
    bare = Envelope.of("p2", {"trigger": "not a mapping", "contents": "not a list", "source": {"cite": "Box"}})
    assert (bare.name, bare.trigger_text, bare.when, bare.cite, bare.contents) == ("p2", "", None, "Box", None)
    assert bare.about_to_place() is None and not bare.opened_at_start


# --- cards ----------------------------------------------------------------------------------------------------
def test_a_card_reads_its_deck_type_territory_and_stickers() -> None:
    card = Card.of("c1", {"deck": "territory", "type": "scar", "territory": "alaska", "stickers": ["coin", 3]})
    assert (card.deck, card.type, card.territory, card.stickers) == ("territory", "scar", "alaska", ("coin", "3"))
    odd = Card.of("c2", {"territory": {"unknown": "not printed"}})
    assert (odd.deck, odd.type, odd.territory, odd.stickers) == (None, "", None, ())  # an unknown territory: none


# --- the schedule ----------------------------------------------------------------------------------------------
def test_a_schedule_entry_reads_its_parts_and_an_absent_one_is_empty() -> None:
    e = ScheduleEntry.of({"game": 3, "type": "global", "places": ["scar"], "ignore_starts": ["far-from-others"],
                          "returns": {"lost_in": 2, "price": "a scar"}, "may_lose": True,
                          "draft": {"of": ["a", "b"], "text": "each takes one"}, "cite": "RB 12"})
    assert (e.game, e.type, e.places, e.ignore_starts, e.returns, e.returns_lost_in, e.returns_price, e.may_lose) == (
        3, "global", ("scar",), ("far-from-others",), True, 2, "a scar", True)
    assert e.draft is not None and (e.draft.of, e.draft.text, e.draft.cite) == (("a", "b"), "each takes one", "")
    assert e.cite == "RB 12"
    odd = ScheduleEntry.of({"game": True, "draft": "not a mapping", "returns": None})
    assert (odd.game, odd.draft, odd.returns) == (None, None, False)
    assert ScheduleEntry() == NO_ENTRY and NO_ENTRY.type == "" and NO_ENTRY.draft is None


def _game(sections: dict, campaign: dict | None = None) -> Game:
    meta = {"title": "T", **({"campaign": campaign} if campaign is not None else {})}
    return Game("t", meta, {}, sections)


def test_the_model_reads_each_scheduled_game_once_and_an_unscheduled_one_as_empty() -> None:
    game = _game({"schedule": {"g2": {"id": "g2", "game": 2, "type": "global", "may_lose": True}},
                  "stickers": {}}, {"default_type": "local", "game_types": [{"id": "local"}, {"id": "global"}]})
    model = CampaignModel.of(game)
    assert model.entry(2).type == "global" and model.entry(2).may_lose and model.declared_default
    assert model.entry(5) is NO_ENTRY and model.type_of(5) == "local"


def test_the_views_are_built_once_per_content_and_only_when_read() -> None:
    game = _game({"stickers": {"fort": {"id": "fort", "name": "Fortification", "targets": ["territory"]}},
                  "envelopes": {"p1": {"id": "p1", "trigger": {"text": "t"}}}})
    content = Content(game)
    assert "sticker_views" not in vars(content) and "envelope_views" not in vars(content)  # nothing built yet
    views = content.sticker_views
    assert content.sticker_views is views and views["fort"].name == "Fortification"
    assert content.envelope_views["p1"].trigger_text == "t"
    gone = content.sticker_view("no-longer-listed")  # a mark of a sticker the content dropped adds nothing
    assert (gone.id, gone.adds, gone.checks) == ("no-longer-listed", {}, ())


# --- places, the game's players ---------------------------------------------------------------------------------
def test_a_place_reads_what_it_has_and_leaves_out_values_of_the_wrong_type() -> None:
    pl = Place.of("t1", {"name": "Ardor", "code": "T1", "regions": ["north"], "tags": ["coastal"],
                         "slots": {"city": 1}, "territory": "t0", "deck": "d", "stats": {"hp": 2},
                         "powers": [{"id": "p1"}, "loose", {"name": "no id"}], "card_type": "territory",
                         "belongs_to": "kai"})
    assert (pl.name, pl.code, pl.regions, pl.tags, pl.slots, pl.territory, pl.deck, pl.stats) == (
        "Ardor", "T1", ("north",), ("coastal",), {"city": 1}, "t0", "d", {"hp": 2})
    assert (dict(pl.options), pl.card_type, pl.belongs_to) == (
        {"regions": (), "tags": (), "powers": ("p1", None)}, "territory", "kai")
    bad = Place.of("t2", {"name": None, "regions": "north", "slots": [1], "stats": 3, "belongs_to": 5})
    assert (bad.name, bad.code, bad.regions, bad.slots, bad.stats, bad.belongs_to, bad.card_type) == (
        "", "", (), None, None, None, "")


def test_content_reads_a_target_as_the_place_of_its_section_once() -> None:
    game = Game("t", meta={"players": {"min": 2, "max": 5}, "source": {"cite": ["rules p. 3"]}},
                sections={"territories": {"t1": {"name": "Ardor", "tags": ["coastal"]}}, "decks": {}})
    content = Content(game)
    target = content.target_of_kind("territory", "t1")
    assert content.place(target) is content.places_in("territories")["t1"]
    assert content.place(target).tags == ("coastal",)
    other = Target("territory", "t1", {"name": "Elsewhere"})  # not the section's item: read from the target
    assert content.place(other).name == "Elsewhere"
    assert Meta.of(game.meta) == Meta(Players(2, 5), ["rules p. 3"])
    assert Meta.of({"players": 4}) == Meta(None, None)


def test_a_reward_reads_its_role_and_the_stickers_it_places() -> None:
    assert Reward.of("r1", {"for": "winner", "place": ["crown", "coin"]}) == Reward("r1", "winner", ("crown", "coin"))
    assert Reward.of("r2", {"place": "crown"}) == Reward("r2", "None", ())


def test_a_place_is_also_the_item_of_the_tables_and_sheet_with_its_name_and_code_as_written() -> None:
    from scarbook.compiler import views_more

    assert views_more.Item is Place and views_more.Power is Power  # one view of the items, under both names
    pl = Place.of("f1", {"name": {"unknown": "not printed"}, "code": None, "bonus": 2, "resources": True,
                         "powers": ["loose", {"id": "p1", "name": "Strong"}, {"id": 7}],
                         "source": {"cite": ["RB 3", "RB 4"]}})
    unknown = {"unknown": "not printed"}
    assert (pl.printed_name, pl.has_name, pl.name_or("f1"), pl.name) == (unknown, True, unknown, str(unknown))
    assert (pl.printed_code, pl.code) == (None, "None")  # `code` as the places read it, `printed_code` as written
    assert (pl.bonus, pl.resources, pl.powers, pl.cites) == (2, True, (Power(2, "p1", "Strong"),), ("RB 3", "RB 4"))
    assert Place.of("f2", {"powers": 5}).powers == ()  # powers that are not a list are none
    bare = Place.of("t1", {"source": {"cite": "RB 5"}})  # a cite that is not a list: no cites (as the rules read it)
    assert (bare.printed_name, bare.has_name, bare.name_or("t1"), bare.cites, bare.bonus) == (None, False, "t1", (),
                                                                                              None)


def test_the_tables_read_the_places_the_content_built() -> None:
    from scarbook.compiler.views_more import more

    content = Content(Game("t", {}, {}, {"territories": {"t1": {"name": "Ardor"}}, "regions": {}, "cards": {},
                                         "factions": {"f": {"powers": [{"id": "p"}]}}}))
    assert more(content).territories is content.places_in("territories")  # built once for both readers
    assert more(content).factions["f"].powers == (Power(1, "p", None),)


# --- links ----------------------------------------------------------------------------------------------------
def test_a_stickers_links_read_their_lines_and_leave_out_values_of_the_wrong_type() -> None:
    links = Sticker.of("bridge", {"links": {"each": 1, "optional": "2", "cuts": "yes", "kind": "bridge",
                                            "within": True, "same_region": False, "cite": "RB 7"}}).links
    assert (links.each, links.optional, links.cuts, links.kind, links.within, links.same_region, links.cite) == (
        1, 0, False, "bridge", None, False, "RB 7")
    cutter = Sticker.of("rift", {"links": {"each": 1, "cuts": True, "within": 2}}).links
    assert (cutter.cuts, cutter.within, cutter.same_region, cutter.kind) == (True, 2, None, "unknown")
    assert Sticker.of("fort", {}).links == Links()  # no links: no lines


def _board() -> Game:
    return Game("t", {}, {}, {
        "territories": {"a": {"regions": ["n"], "neighbors": ["b"]}, "b": {"regions": ["n"], "neighbors": ["a"]},
                        "c": {"regions": ["s"]}},
        "stickers": {"bridge": {"links": {"each": 1, "kind": "bridge", "same_region": True}},
                     "rift": {"links": {"each": 1, "cuts": True}},
                     "isle": {"adds_territories": ["c"]}}}, [("a", "b", "land")])


def test_the_board_as_played_reads_the_stickers_once_per_game() -> None:
    game = _board()
    views = sticker_views(game)
    assert sticker_views(game) is views and views["isle"].adds_territories == ("c",)
    played = as_played(game, {"bridge": 1}, [("bridge", "b", "c")])
    assert "c" not in played.section("territories")  # the isle is not placed: its territory is out of play
    assert ("b", "c", "bridge") in played.edges  # a drawn line is the kind its sticker's links say
    assert sticker_views(played) is views  # the board as played keeps the stickers' views
    cut = as_played(game, {"rift": 1}, [("rift", "a", "b")])
    assert cut.edges == [] and cut.section("territories")["a"]["neighbors"] == []
    placed = {"bridge": 1, "isle": 1}  # the bridge's `same_region: true`, read from its typed links
    assert link_problem(as_played(game, placed, []), "bridge", "a", "c", placed, [], ["a"]) == (
        "R345", "a and c are not in the same region")


# --- the campaign language's forms ------------------------------------------------------------------------------
def test_a_form_reads_its_parameters_as_typed_values() -> None:
    f = Form({"sticker": ["city", None, 3], "by": 5, "status": "", "points": [3, "x", True], "all": "no list",
              "cite": ["a", "b"], "most": "yes"})
    assert (f.ids("sticker"), f.ids("kind"), f.optional("by"), f.optional("on")) == (("city", "3"), (), "5", None)
    assert (f.text("status", "active"), f.name("id"), f.flag("most"), f.flag("total")) == ("active", "None", True,
                                                                                           False)
    assert (f.numbers("points"), f.items("all"), f.cite(), f.has("all"), f.has("any")) == ((3, 1), (), "a; b", True,
                                                                                           False)
    assert Form("hp", "field").name("field") == "hp" and Form(["x"]).ids("field") == ()  # a bare value: its main
    assert compile_query({"count": "not a mapping"}) == Count()
    assert compile_query({"stat": "hp"}) == Stat("hp", "target")
    assert compile_query({"rank": {"points": [3, "x", 1], "total": 1}}) == Rank("actor", (3, 1), True)


# --- a rulebook's sticker boxes ----------------------------------------------------------------------------------
def test_a_rulebooks_slots_with_an_id_are_read_in_order() -> None:
    rulebook = {"rb": {"title": "The Road Book", "slots": [{"id": "s1", "label": "Achievements"}, {"label": "no id"},
                                                             "junk", {"id": "s2"}]},
                "rb2": {"slots": "not a list"}}
    assert book_slots(rulebook) == [BookSlot("s1", "Achievements", "rb", "The Road Book"),
                                    BookSlot("s2", None, "rb", "The Road Book")]
