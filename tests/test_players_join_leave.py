"""Players who join and leave (a hand-over of their holdings), marks that retire or are lost, ordered slots
(issue 38, items 8-10): each event and check both ways, through the CLI, on the homebrew Option Isles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_homebrew_options import CITE, PLAY, _sticker, campaign, do, no, run, status, write_game
from typer.testing import CliRunner

from scarbook.cli.main import app


def isles(data: dict[str, Any]) -> None:
    """Option Isles with a deed that owns a region (`claims`), a second region, an elder (one living per player),
    scores and a packet that opens when an elder retires."""
    camp = data["game"]["campaign"]
    data["regions"].append({"id": "south", "name": "South", "bonus": 0})
    data["territories"][2]["neighbors"] = ["b-isle", "d-isle"]
    data["territories"].append({"id": "d-isle", "name": "D Isle", "regions": ["south"], "neighbors": ["c-isle"]})
    camp["claims"] = ["deed"]
    elder = _sticker("elder", "elder", ["territory"])
    elder["checks"].append({"check": "when", "cite": CITE, "text": "one living elder, on your own land",
                            "when": {"all": [{"owner": "target", "equals": {"who": "actor"}},
                                             {"count": {"kind": "elder", "by": "actor"}, "equals": 0}]}})
    data["stickers"] += [_sticker("deed", "deed", ["region"]), elder]
    data["envelopes"] = [{"id": "crypt", "name": "Crypt", "contents": [], "trigger": {
        "text": "open when an elder retires", "when": {"count": {"kind": "elder", "status": "retired"},
                                                       "at_least": 1}}}]


ENDED = ("game end --winner Bob --score Ann=2 --score Bob=5", "place crown b-isle --by Bob")
SETUP = ("place deed north --by Ann", "place deed south --by Bob", "place elder a-isle --by Ann",
         "place elder d-isle --by Bob")


def test_a_newcomer_joins_between_games_within_the_player_count(tmp_path: Path) -> None:
    file = campaign(tmp_path, isles)
    do(file, *SETUP, PLAY)
    no(file, "join Cat", "R360", "game 1 is in progress")
    do(file, "game end --winner Ann", "place crown b-isle --by Ann")
    no(file, "join ann", "R360", "Ann already plays this campaign")
    do(file, "join Cat")
    no(file, "join Dan", "R306", "Option Isles takes at most 3")
    do(file, "game start --play Ann=kai --play Bob=raaz --play Cat=mira")
    data = status(file)
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob", "Cat"]
    assert data["joined"] == [{"player": "Cat", "after_game": 1}]
    assert "Cat joins the campaign" in run(file, "log").output
    assert run(file, "check").exit_code == 0


def test_a_hand_over_gives_the_heir_the_leavers_lands_marks_and_totals(tmp_path: Path) -> None:
    file = campaign(tmp_path, isles)
    do(file, *SETUP, PLAY, *ENDED, "join Cat")
    no(file, "leave Bob --to Bob", "R360", "to themselves")
    no(file, "leave Bob --to Zed", "R104")
    do(file, "leave Bob --to Cat")
    no(file, "place elder c-isle --by Bob", "R363", "Bob left the campaign after game 1")
    no(file, "game start --play Ann=kai --play Bob=raaz", "R363")
    data = status(file)
    south = next(r for r in data["continents"] if r["id"] == "south")
    assert south["owner"] == "Cat"
    assert data["left"] == [{"player": "Bob", "after_game": 1, "to": "Cat"}]
    cat = next(p for p in data["players"] if p["name"] == "Cat")
    assert cat["score_total"] == 5  # Bob's points came with his house
    elder = next(m for m in data["marks"] if m["sticker"] == "elder" and m["target"] == "d-isle")
    assert (elder["by"], elder["placed_by"]) == ("Cat", "Bob")
    assert "(held by Cat)" in run(file, "status").output
    assert "Bob leaves the campaign; their holdings go to Cat" in run(file, "log").output


def test_a_hand_over_gives_the_heir_the_leavers_wins_and_points_by_rank(tmp_path: Path) -> None:
    """Wins are a total like the score (design: a hand-over gives pieces, owned regions, totals)."""
    def tallies(data: dict[str, Any]) -> None:
        isles(data)
        data["game"]["campaign"]["levels"] = [
            {"id": "glory", "name": "glory", "of": {"wins": "actor"}, "at": [1], "per": "player", "cite": CITE},
            {"id": "laurels", "name": "laurels", "of": {"rank": {"points": [3, 1], "total": True}}, "at": [1],
             "per": "player", "cite": CITE}]

    file = campaign(tmp_path, tallies)
    do(file, *SETUP, PLAY, *ENDED, "join Cat")
    values = {lv["id"]: lv["values"] for lv in status(file)["levels"]}
    assert values["glory"]["Cat"]["value"] == 0 and values["laurels"]["Cat"]["value"] == 0
    do(file, "leave Bob --to Cat")
    values = {lv["id"]: lv["values"] for lv in status(file)["levels"]}
    assert values["glory"]["Cat"] == {"level": 1, "value": 1}  # Bob's win came with his house
    assert values["laurels"]["Cat"] == {"level": 1, "value": 3}  # and his first place's points
    assert values["glory"]["Ann"]["value"] == 0 and values["laurels"]["Ann"]["value"] == 1


def test_without_a_hand_over_nothing_changes_hands(tmp_path: Path) -> None:
    file = campaign(tmp_path, isles)
    do(file, *SETUP, PLAY, *ENDED, "join Cat", "leave Bob")
    data = status(file)
    assert next(r for r in data["continents"] if r["id"] == "south")["owner"] == "Bob"
    assert next(p for p in data["players"] if p["name"] == "Cat")["score_total"] == 0
    assert [p["name"] for p in data["players"]] == ["Ann", "Cat"]


def test_after_a_hand_over_ownership_is_enforced_for_the_heir(tmp_path: Path) -> None:
    file = campaign(tmp_path, isles)
    do(file, "place deed north --by Ann", "place deed south --by Bob", "place elder a-isle --by Ann", PLAY,
       "game end --winner Ann", "place crown b-isle --by Ann", "join Cat", "leave Bob --to Cat")
    no(file, "place elder d-isle --by Ann", "R241", "the owner of d-isle: Cat; Ann needed")
    do(file, "place elder d-isle --by Cat")
    no(file, "place elder c-isle --by Cat", "R241", "the owner of c-isle: Ann; Cat needed")


def test_a_leaver_who_owes_a_step_is_refused_until_it_is_taken(tmp_path: Path) -> None:
    file = campaign(tmp_path, isles, players=("Ann", "Bob", "Cat"))
    do(file, "game start --play Ann=kai --play Bob=raaz --play Cat=mira", "game end --winner Bob")
    no(file, "leave Bob --to Ann", "R360", "Bob still owes 'Crown an isle' after game 1")
    do(file, "place crown a-isle --by Bob", "leave Bob --to Ann")


def test_a_leaver_owes_nothing_not_even_an_optional_step(tmp_path: Path) -> None:
    def gift(data: dict[str, Any]) -> None:
        isles(data)
        data["game"]["campaign"]["game_types"][0]["steps"].append(
            {"id": "gift", "name": "Leave a coin", "who": "everyone", "choose": ["coin"], "mandatory": False,
             "cite": CITE})

    file = campaign(tmp_path, gift, players=("Ann", "Bob", "Cat"))
    do(file, "game start --play Ann=kai --play Bob=raaz --play Cat=mira", "game end --winner Bob",
       "place crown a-isle --by Bob")
    assert {s["player"] for s in status(file)["steps"] if s["step"] == "gift"} == {"Ann", "Bob", "Cat"}
    do(file, "leave Cat --to Ann")
    data = status(file)
    assert {s["player"] for s in data["steps"] if s["step"] == "gift"} == {"Ann", "Bob"}
    assert not [t for t in data["todo"] if t["who"] == "Cat"]
    no(file, "place coin c-isle --by Cat", "R363")


def test_a_retired_mark_no_longer_counts_and_its_retirement_is_a_condition(tmp_path: Path) -> None:
    file = campaign(tmp_path, isles)
    do(file, *SETUP)
    no(file, "place elder b-isle --by Ann", "R241", "elder placed by Ann: 1; 0 needed")
    no(file, "retire elder a-isle --by Bob", "R362", "the elder on a-isle is Ann's, not Bob's")
    no(file, "retire elder b-isle --by Ann", "R362", "b-isle holds no active elder")
    no(file, "retire elder a-isle --as dead", "R362", "a mark retires as one of retired, lost")
    result = run(file, "retire elder a-isle")
    assert result.exit_code == 0 and "open the sealed packet now: crypt" in result.output, result.output
    do(file, "open crypt", "place elder b-isle --by Ann")  # a new elder after the retirement
    do(file, "retire elder d-isle --as lost")
    marks = {(m["target"], m["sticker"]): m for m in status(file)["marks"]}
    assert marks[("a-isle", "elder")]["status"] == "retired" and marks[("d-isle", "elder")]["status"] == "lost"
    assert not marks[("a-isle", "elder")]["active"]
    text = run(file, "status").output
    assert "a-isle: elder (retired)" in text and "d-isle: elder (lost)" in text
    assert "elder on a-isle retired (Ann's)" in run(file, "log").output
    assert run(file, "check").exit_code == 0


def test_a_piece_whose_claim_retires_is_not_played_again(tmp_path: Path) -> None:
    file = campaign(tmp_path, isles)
    do(file, "place oath kai --by Ann", "retire oath kai")
    no(file, PLAY, "R303", "kai is retired for good")
    do(file, "game start --play Ann=mira --play Bob=raaz")
    oath = next(m for m in status(file)["marks"] if m["sticker"] == "oath")
    assert oath["status"] == "retired"


@pytest.mark.parametrize(("row", "attempt", "code", "words"), [
    ({"ids": ["a-isle", "b-isle", "c-isle"]}, "place coin b-isle", "R252", "the next free one of the boxes is a-isle"),
    ({"ids": ["c-isle", "a-isle"], "name": "ledger boxes"}, "place coin b-isle", "R252",
     "b-isle is not one of the ledger boxes"),
    ({"tag": "box"}, "place coin c-isle", "R252", "the next free one of the box is a-isle"),
])
def test_ordered_slots_take_the_next_free_box(tmp_path: Path, row: dict[str, Any], attempt: str, code: str,
                                              words: str) -> None:
    def edit(data: dict[str, Any]) -> None:
        for t in data["territories"]:
            t["tags"] = ["box"]
        coin = next(s for s in data["stickers"] if s["id"] == "coin")
        coin["checks"].append({"check": "in-order", **row, "cite": CITE})

    file = campaign(tmp_path, edit)
    no(file, attempt, code, words)
    first = row.get("ids", ["a-isle"])[0]
    do(file, f"place coin {first}")
    no(file, f"place coin {first}", "R252", f"{first} is filled")


def test_a_full_row_is_refused(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        coin = next(s for s in data["stickers"] if s["id"] == "coin")
        coin["checks"].append({"check": "in-order", "ids": ["a-isle", "b-isle"], "cite": CITE})

    file = campaign(tmp_path, edit)
    do(file, "place coin a-isle", "place coin b-isle")
    no(file, "place coin a-isle", "R252", "every one of the boxes is filled")


@pytest.mark.parametrize(("row", "words"), [
    ({"ids": ["a-isle", "z-isle"]}, "no territory, region or card 'z-isle'"),
    ({"tag": "nowhere"}, "no territory, region or card carries the tag 'nowhere'"),
])
def test_an_in_order_row_that_names_nothing_is_an_error_at_its_line(tmp_path: Path, row: dict[str, Any],
                                                                     words: str) -> None:
    def edit(data: dict[str, Any]) -> None:
        coin = next(s for s in data["stickers"] if s["id"] == "coin")
        coin["checks"].append({"check": "in-order", **row, "cite": CITE})

    folder = write_game(tmp_path, edit)
    out = CliRunner().invoke(app, ["validate", str(folder)]).output
    assert any("X102" in line and words in line and "game.yaml:" in line for line in out.splitlines()), out


def test_the_new_events_read_back_from_the_ledger() -> None:
    from scarbook.campaign.events import Joined, Left, Retired, event_fields, event_from_fields, parse_event
    from scarbook.kernel.diagnostics import Span

    span = Span("c.yaml", 3, 3)
    for ev in (Joined("Dan"), Joined("Dan", "Bob"), Left("Bob", "Dan"), Left("Bob"),
               Retired("elder", "a-isle", "lost", "Ann"),
               Retired("elder", "a-isle")):
        assert parse_event(ev.to_dict(), span, 0) == ev
        assert event_from_fields(event_fields(ev), span, 0) == ev
    assert Retired("elder", "a-isle").to_dict() == {"event": "retire", "sticker": "elder", "target": "a-isle"}
    bad = parse_event({"event": "leave", "player": "Bob", "heir": "Dan"}, span, 0)
    assert "no field 'heir'" in getattr(bad, "message", "")


def test_a_newcomer_takes_over_a_seat_at_the_most_players(tmp_path: Path) -> None:
    file = campaign(tmp_path, isles, players=("Ann", "Bob", "Cat"))
    do(file, *SETUP)
    no(file, "join Dan", "R306", "join Dan --replacing NAME")
    no(file, "join Dan --replacing Zed", "R104")
    do(file, "join Dan --replacing Bob")
    data = status(file)
    assert [p["name"] for p in data["players"]] == ["Ann", "Cat", "Dan"]
    assert next(r for r in data["continents"] if r["id"] == "south")["owner"] == "Dan"
    assert data["left"] == [{"player": "Bob", "after_game": 0, "to": "Dan"}]
    assert "Dan joins the campaign in Bob's place, taking over their holdings" in run(file, "log").output
    no(file, "place elder c-isle --by Bob", "R363", "Bob left the campaign before game 1")
    assert run(file, "check").exit_code == 0


def test_the_player_aid_says_who_holds_each_claimed_region() -> None:
    from scarbook.compiler.aid import world

    class Fake:
        meta = {"campaign": {"claims": ["deed"]}}
        standing = ()

        def section(self, name: str) -> dict[str, Any]:
            return {"regions": {"south": {"name": "South", "marks": [{"sticker": "deed", "by": "Dan"}]},
                                "north": {"name": "North", "bonus": 2, "marks": [{"sticker": "hut", "by": "Ann"}]}},
                    }.get(name, {})

    assert world(Fake())["regions"] == ["South: held by Dan", "North: bonus 2"]  # type: ignore[arg-type]
