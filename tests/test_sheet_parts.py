"""The campaign sheet's parts on what no shipped campaign reaches: names as printed (a code equal to the name, no
name, no item), the board's marks for every kind of mark, the heading of the stats table, the fonts inlined into
the HTML. The whole sheets are golden files (tests/test_golden_outputs.py)."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_golden_outputs import played

from scarbook.campaign.report import status
from scarbook.campaign.sheet import Names, _inline_fonts, _piece_title, map_marks
from scarbook.campaign.status_rows import (
    FactionGame,
    FactionRow,
    GameRow,
    GroupedMark,
    MarkGroupRow,
    MarkRow,
    PlayerRow,
    RegionRow,
    ResourceRow,
    Status,
    StickerRow,
)
from scarbook.compiler.boardmap import DESTROYED, MapMark


def grouped(target: str, sticker: str, *, name: str | None = None, population: int | None = None,
            boxes: int | None = None, left: int | None = None, cancelled: bool = False, game: int = 0,
            by: str | None = None, covered_by: str | None = None) -> GroupedMark:
    """A mark in a mark group, as `report.status` makes it."""
    return GroupedMark(MarkRow(target, sticker, "", None, name, by, game, None, not cancelled, covered_by, None, None,
                               False, boxes, left), cancelled, None, population)


def group(gid: str, marks: list[GroupedMark]) -> MarkGroupRow:
    return MarkGroupRow(gid, gid, gid, True, False, marks)


def bare_status(replay: Any, **rows: Any) -> Status:
    """A status with nothing in it but `rows` (a campaign's status, emptied)."""
    empty = {"players": [], "signatures": [], "games_played": 0, "game_in_progress": None, "games": [],
             "continents": [], "words": {}, "signs": True, "regions_named": True, "starts_used": True,
             "mark_groups": [], "resources": [], "destroyed_cards": [], "stickers": [], "factions": [],
             "pending_packets": [], "opened_packets": [], "owed_rewards": [], "token_names": {}, "pieces": [],
             "marks": [], "overall_winner": None, "shape": {}}
    return status(SimpleNamespace(name="W"), replay)._replace(**{**empty, **rows})  # type: ignore[arg-type]


class _Game:
    def __init__(self, sections: dict[str, dict[str, Any]]) -> None:
        self.sections = sections

    def section(self, name: str) -> dict[str, Any]:
        return self.sections.get(name, {})

    def item(self, item_id: str) -> tuple[str, Any] | None:
        return next(((name, items[item_id]) for name, items in self.sections.items() if item_id in items), None)


def _names(sections: dict[str, dict[str, Any]]) -> Names:
    return Names(SimpleNamespace(content=SimpleNamespace(game=_Game(sections))))  # type: ignore[arg-type]


class TestNames:
    names = _names({"territories": {"ak": {"name": "Alaska", "code": "AK"}, "peru": {"name": "Peru", "code": "PERU"},
                                    "na-05": {"code": "NA-05"}, "bare": {},
                                    "x": {"name": {"unknown": "not legible"}, "code": "X1"}, "odd": "not a mapping"},
                    "stickers": {"ak": {"name": "Alaska sticker"}}})

    def test_a_name_with_its_code_unless_they_are_the_same(self) -> None:
        assert self.names("ak", "territories") == "Alaska (AK)"
        assert self.names("peru", "territories") == "Peru"  # the code says nothing more

    def test_the_code_or_the_id_where_no_name_is_known(self) -> None:
        assert self.names("na-05") == "NA-05"
        assert self.names("bare") == "bare"
        assert self.names("x") == "X1"  # a name marked unknown is no name

    def test_the_section_asked_for_and_no_other(self) -> None:
        assert self.names("ak", "stickers") == "Alaska sticker"
        assert self.names("ak") == "Alaska (AK)"  # the first section that holds it
        assert self.names("peru", "stickers") == "peru"  # not in that section: the id

    def test_nothing_and_unknowns(self) -> None:
        assert self.names(None) == "" and self.names("") == ""
        assert self.names("nowhere") == "nowhere" and self.names("odd") == "odd"


@pytest.mark.slow  # plays a campaign to game 3 (once per process)
class TestMapMarks:
    """Every mark of a board group drawn in its territory with its group's look; cancelled marks, marks off the
    territories and groups not on the board are not drawn; a destroyed territory card is a cross."""

    @pytest.fixture
    def replay(self, monkeypatch: pytest.MonkeyPatch) -> Any:
        from scarbook.campaign.service import reading

        ledger, cache = played("risk-legacy-after-game-3")
        monkeypatch.setenv("SCARBOOK_CACHE", str(cache))
        return reading.state(ledger)[1]

    def test_each_kind_of_mark(self, replay: Any) -> None:
        data = bare_status(replay, mark_groups=[
            group("cities", [grouped("peru", "minor-city", name="Lima", population=1),
                             grouped("brazil", "major-city", population=2),
                             grouped("egypt", "minor-city", name="Cairo", population=1, cancelled=True)]),
            group("fortifications", [grouped("iceland", "fortification", boxes=10, left=6)]),
            group("scars", [grouped("china", "bunker"), grouped("india", "bunker", name="Deep Hole"),
                            grouped("alaska-card", "bunker")]),
            group("no-such-group", [grouped("ural", "bunker")]),
        ], destroyed_cards=["japan-card", "coin-card"])
        marks = map_marks(replay, data, Names(replay))
        city, fort, scar = (("city (dots: its size)", "house", "#1f4e79"), ("fortification (boxes left)", "tower",
                            "#6b4b12"), ("scar", "slash", "#b01818"))
        assert marks == {
            "peru": [MapMark("cities", "Lima", 1, None, city[1], city[2], city[0])],
            "brazil": [MapMark("cities", "Major", 2, None, city[1], city[2], city[0])],
            "iceland": [MapMark("fortifications", "", 6, 10, fort[1], fort[2], fort[0])],
            "china": [MapMark("scars", "Bunker", None, None, scar[1], scar[2], scar[0])],
            "india": [MapMark("scars", "Deep Hole", None, None, scar[1], scar[2], scar[0])],
            "japan": [DESTROYED],
        }

    def test_a_group_kept_off_the_board(self, replay: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        import dataclasses

        import scarbook.campaign.sheet as sheet

        groups = sheet._groups(replay)
        monkeypatch.setattr(sheet, "_groups", lambda r: {**groups, "scars": dataclasses.replace(groups["scars"],
                                                                                                board=False)})
        lima = grouped("peru", "minor-city", name="Lima", population=1)
        data = bare_status(replay, mark_groups=[group("scars", [grouped("china", "bunker")]), group("cities", [lima])])
        assert list(map_marks(replay, data, Names(replay))) == ["peru"]


class TestPieceTitle:
    @staticmethod
    def content(kinds: dict[str, tuple[str, bool]]) -> Any:
        """Piece kinds: id -> (their name, whether a piece of theirs has stats)."""
        model = SimpleNamespace(pieces={k: SimpleNamespace(id=k, name=name) for k, (name, _) in kinds.items()})
        pieces = {k: {f"{k}-1": {"stats": {"grit": 1}} if stats else {}} for k, (_, stats) in kinds.items()}
        return SimpleNamespace(model=model, pieces_of=lambda kind: pieces[kind])

    def test_the_names_of_the_kinds_with_stats(self) -> None:
        assert _piece_title(self.content({"w": ("warlord", True)})) == "Warlords"
        assert _piece_title(self.content({"w": ("characters", True)})) == "Characters"
        assert _piece_title(self.content({"w": ("warlord", True), "h": ("hero", True), "f": ("faction", False)})) \
            == "Warlord, heros"
        assert _piece_title(self.content({"a": ("hero", True), "b": ("hero", True)})) == "Heros"
        assert _piece_title(self.content({"f": ("faction", False), "n": ("", True)})) == "Pieces"


def test_the_fonts_are_inlined_as_the_files_they_name() -> None:
    from scarbook.templates import TEMPLATE_DIR

    page = ('<style>\n@font-face { font-family: "Sheet Sans"; src: url(fonts/DejaVuSans.ttf); }\n'
            '@font-face { font-family: "Sheet Condensed"; src: url(fonts/DejaVuSans-Bold.ttf); }\n'
            '@font-face { font-family: "Sheet Sans"; src: url(fonts/DejaVuSans-Bold.ttf); font-weight: bold; }\n'
            'p { background: url(picture.png) }</style>')
    inlined = _inline_fonts(page)
    urls = re.findall(r"url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\)", inlined)
    assert [base64.b64decode(u) for u in urls] == [(TEMPLATE_DIR / "fonts" / f).read_bytes()
                                                    for f in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")]
    assert re.sub(r"url\(data:font/ttf;base64,[A-Za-z0-9+/=]+\)", "URL", inlined) == (
        '<style>\n@font-face { font-family: "Sheet Sans"; src: URL; }\n'
        '@font-face { font-family: "Sheet Sans"; src: URL; font-weight: bold; }\n'
        'p { background: url(picture.png) }</style>')


@pytest.mark.slow
def test_the_html_sheet_is_self_contained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Slow (a campaign state played once per run, its sheet made): the HTML sheet carries everything it shows."""
    import scarbook.campaign.sheet as sheet
    from scarbook.campaign.service import reading

    ledger, cache = played("harbor-watch-12")
    monkeypatch.setenv("SCARBOOK_CACHE", str(cache))
    campaign, replay = reading.state(ledger)
    out = sheet.write_sheet(campaign.ledger, replay, tmp_path / "s.html", "html", "letter")
    page = out.read_text("utf-8")
    assert "url(fonts/" not in page and page.count("data:font/ttf;base64,") >= 2
    assert page == sheet._inline_fonts(sheet.sheet_html(campaign.ledger, replay, paper="letter"))
    assert "size: letter" in page and "size: A4" not in page


@pytest.mark.slow
class TestViewReadsOnlyWhatItKnows:
    """`view` reads only the keys it knows, each with a default, so a status without them (a newer or older one)
    still makes a sheet; and what the shipped campaigns never hold: a cancelled city, one upgrade placed by two
    players, a destroyed card with no resources."""

    @pytest.fixture
    def replay(self, monkeypatch: pytest.MonkeyPatch) -> Any:
        from scarbook.campaign.service import reading

        ledger, cache = played("risk-legacy-after-game-3")
        monkeypatch.setenv("SCARBOOK_CACHE", str(cache))
        return reading.state(ledger)[1]

    @staticmethod
    def view_of(rows: dict[str, Any], replay: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
        import scarbook.campaign.sheet as sheet

        data = bare_status(replay, **rows)
        monkeypatch.setattr(sheet, "status", lambda ledger, r: data)
        return sheet.view(SimpleNamespace(name="W"), replay)  # type: ignore[arg-type]

    def test_a_status_with_only_names(self, replay: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        v = self.view_of({"players": [PlayerRow("Ann", 0, {}, {}, [], [])],
                          "factions": [FactionRow("khan-industries", "", None, None, [],
                                                  [FactionGame(1, None, None, "")])],
                          "games": [GameRow(1, "", {}, {}, {}, [], False, None, [], [], [], {}, False, None, None,
                                            None)],
                          "continents": [RegionRow(None, "europe", None, None, None, None, None, [])],
                          "stickers": [StickerRow("coin", 0, None, None)]}, replay, monkeypatch)
        assert v["players"] == [{"name": "Ann", "signatures": 0, "signed": [], "starts_with": "nothing", "starts": 0,
                                 "may_take": [], "claimed": [], "score_total": None}]
        assert v["continents"] == [{"printed": "Europe", "name": None, "named_by": None, "printed_bonus": None,
                                    "bonus": None, "changes": [], "owner": None}]
        assert v["factions"] == [{"name": "Khan Industries", "given_name": "", "chosen": "", "marks": [],
                                  "history": {1: {"player": None, "start": "", "result": ""}}}]
        assert v["games"] == [{"game": 1, "type": "", "title": "", "plays": {}, "ended": False, "winner": None,
                               "held_on": [], "eliminated": [], "team": "", "played": "", "scores": ""}]
        assert v["stickers"] == [{"name": "Coin (+1 resource)", "placed": 0, "left": None, "pool": None}]
        assert (v["games_played"], v["game_in_progress"], v["signs"], v["regions_named"]) == (0, None, True, True)
        assert (v["mark_groups"], v["cards"], v["pending_packets"], v["opened_packets"], v["owed"], v["pieces"]) \
            == ([], [], [], [], [], [])
        assert v["overall_winner"] is None and v["shape_lines"] == [] and v["words"] == {}

    def test_no_players_no_words(self, replay: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        v = self.view_of({"factions": [FactionRow("khan-industries", "", None, "khan-industries-home-draft", [], [])]},
                         replay, monkeypatch)
        assert v["players"] == [] and v["continents"] == [] and v["games"] == [] and v["stickers"] == []
        assert v["factions"][0]["chosen"] == "Home draft" and v["factions"][0]["history"] == {}

    def test_marks_no_shipped_campaign_holds(self, replay: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        def mark(target: str, sticker: str, **fields: Any) -> GroupedMark:
            return grouped(target, sticker, **{"game": 2, "by": "Ann", **fields})

        v = self.view_of({"mark_groups": [
            group("cities", [
                mark("peru", "minor-city", name="Lima", population=1, cancelled=True, covered_by="scar-cancel"),
                mark("brazil", "minor-city", name="Rio_de_Janeiro", population=1)]),
            group("upgrades", [
                mark("peru-card", "coin"), mark("peru-card", "coin", by="Bob"), mark("peru-card", "coin", by="Bob"),
                mark("iceland-card", "coin"), mark("iceland-card", "coin")]),
            group("scars", [mark("china", "bunker", cancelled=True, covered_by="scar-cancel", boxes=2, left=1)]),
        ], "destroyed_cards": ["japan-card"], "resources": [ResourceRow("peru-card", 3, 1)]},
            replay, monkeypatch)
        cities, upgrades, scars = v["mark_groups"]
        assert cities == {"title": "Cities", "counted": False, "rows": [
            {"where": "Brazil", "mark": "Minor City", "name": "Rio de Janeiro", "state": "size 1",
             "by": "Ann, after game 2", "active": True, "count": 1}]}  # a cancelled city is no city
        assert upgrades["counted"] is True
        assert [(r["where"], r["count"], r["by"]) for r in upgrades["rows"]] == [("Peru", 3, "several"),
                                                                                ("Iceland", 2, "Ann, after game 2")]
        assert scars["rows"][0]["state"] == "cancelled (Scar Cancel (white sticker)), 1 of 2 boxes left"
        assert v["cards"] == [{"name": "Peru", "printed": 1, "now": 3, "destroyed": False},
                              {"name": "Japan", "printed": None, "now": None, "destroyed": True}]


@pytest.mark.slow
def test_no_board_picture_where_the_board_is_withheld(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No shipped campaign's board is withheld (Warhammer's is, and it has no campaign): stand one in."""
    import scarbook.campaign.sheet as sheet
    import scarbook.compiler.boardmap as boardmap
    from scarbook.campaign.effective import applied
    from scarbook.campaign.service import reading

    ledger, cache = played("risk-legacy-after-game-3")
    monkeypatch.setenv("SCARBOOK_CACHE", str(cache))
    campaign, replay = reading.state(ledger)
    asked: list[object] = []

    def map_withheld(game: object) -> str:
        asked.append(game)
        return "the board is not legible"

    monkeypatch.setattr(boardmap, "map_withheld", map_withheld)
    monkeypatch.setattr(boardmap, "board_svg", lambda *args, **kwargs: pytest.fail("drew a withheld board"))
    assert sheet.sheet_svg(campaign.ledger, replay) is None
    with pytest.raises(ValueError) as refused:
        sheet.write_sheet(campaign.ledger, replay, tmp_path / "b.svg", "svg")
    assert str(refused.value) == "no board picture: the board is not legible" and not (tmp_path / "b.svg").exists()
    assert "No board picture: the board is not legible." in sheet.sheet_html(campaign.ledger, replay)
    assert all(getattr(g, "title", None) == applied(replay).title for g in asked)
