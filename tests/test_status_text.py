"""`status_text` on what no shipped campaign reaches: a real state's data (a golden of
tests/test_golden_outputs.py) changed one field at a time, each change with the line it must print.

The shipped games give no single overall winner, no cut edge, no house-rule pack; homebrew games do.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from conftest import GOLDEN
from scarbook.campaign.views.status import mark_line, status_text, when_placed

_BASE: dict[str, dict[str, Any]] = {}


def data(state: str = "risk-legacy-15") -> dict[str, Any]:
    """A fresh copy of the status data of a golden state."""
    if state not in _BASE:
        _BASE[state] = json.loads((GOLDEN / f"{state}.status.json").read_text("utf-8"))
    return copy.deepcopy(_BASE[state])


def lines(d: dict[str, Any]) -> list[str]:
    return status_text(d).splitlines()


def test_the_golden_data_prints_the_golden_text() -> None:
    """The JSON golden and the text golden of one state agree: status_text reads only what the JSON holds."""
    for state in ("risk-legacy-15", "risk-legacy-after-game-3", "risk-shadow-forces-15", "harbor-watch-12"):
        assert status_text(data(state)) + "\n" == (GOLDEN / f"{state}.status.txt").read_text("utf-8"), state


class TestOverallWinner:
    def test_one_winner_with_their_signatures(self) -> None:
        d = data()
        d["overall_winner"] = {"players": ["Ann"], "signatures": 6, "tie": False, "text": "", "cite": ""}
        assert lines(d)[-1] == "Overall winner: Ann with 6 signatures"
        d["overall_winner"]["signatures"] = 1
        assert lines(d)[-1] == "Overall winner: Ann with 1 signature"

    def test_a_tie_without_a_bonus_is_a_plain_roll_off(self) -> None:
        d = data()
        d["overall_winner"] = {"players": ["Ann", "Bob"], "signatures": 5, "tie": True, "text": "", "cite": ""}
        assert lines(d)[-1] == "Overall winner: a tie between Ann and Bob (5 signatures each): roll off"
        d["overall_winner"]["roll_off_bonus"] = {"Ann": 2, "Bob": 0}
        assert lines(d)[-1] == ("Overall winner: a tie between Ann and Bob (5 signatures each): roll off, "
                                "adding Ann +2, Bob +0")

    def test_no_winner_no_line(self) -> None:
        d = data()
        d["overall_winner"] = None
        assert not any(line.startswith("Overall winner") for line in lines(d))


class TestHomebrewSections:
    def test_lines_cuts_and_packs(self) -> None:
        d = data()
        d["lines"] = [{"sticker": "road", "between": ["alaska", "peru"]},
                      {"sticker": "road", "between": ["iceland", "ural"]}]
        d["cuts"] = [{"sticker": "wall", "between": ["china", "india"]}]
        d["packs"] = ["house-a", "house-b"]
        out = lines(d)
        assert "Lines drawn: alaska - peru (road), iceland - ural (road)" in out
        assert "Edges cut: china - india (wall)" in out
        assert "House-rule packs: house-a, house-b" in out
        assert out.index("Lines drawn: alaska - peru (road), iceland - ural (road)") < out.index(
            "Edges cut: china - india (wall)") < out.index("House-rule packs: house-a, house-b")

    def test_none_of_them_no_line(self) -> None:
        out = status_text(data())
        assert "Lines drawn" not in out and "Edges cut" not in out and "House-rule packs" not in out

    def test_a_packet_sticker_wanted_later_says_no_deadline(self) -> None:
        d = data("risk-legacy-packet-opened")
        d["to_put_in_place"][0]["before_next_game"] = False
        d["to_put_in_place"].append({"sticker": "tower", "target": "peru", "packet": "chest", "before_next_game": True})
        assert ("From opened packets, to put in place: rules-addition-e -> rules-addition-e (faction-eliminated), "
                "tower -> peru (chest) before the next game") in lines(d)

    def test_passes_of_the_last_game_with_and_without_a_piece(self) -> None:
        d = data("risk-legacy-after-game-3")
        d["passes"] = [{"game": 3, "step": "held-on-reward", "by": "Bob", "for": None, "why": None},
                       {"game": 3, "step": "upgrade", "by": "Cat", "for": "kai", "why": "none left"},
                       {"game": 2, "step": "upgrade", "by": "Ann", "for": None, "why": None}]
        assert "Passed after game 3: held-on-reward by Bob; upgrade by Cat for kai (none left)" in lines(d)

    def test_many_plain_marks_are_counted_per_target(self) -> None:
        d = data("risk-legacy-after-game-3")
        plain = {"kind": "upgrade", "slot": None, "name": None, "by": "Ann", "game": 1, "during_game": None,
                 "active": True, "covered_by": None, "status": None, "placed_by": None, "cancels": False, "boxes": None,
                 "left": None, "cancelled": False, "shown_as": None, "population": None}
        targets = ["peru-card", "peru-card", "iceland-card", "iceland-card", "iceland-card", "ural-card", "chad-card"]
        d["mark_groups"] = [{"id": "upgrades", "title": "upgrade", "plural": "upgrades", "board": False,
                             "declared": True, "marks": [
            {**plain, "target": t, "sticker": "coin"} for t in targets]}]
        assert "Upgrades (7): peru-card coin x2; iceland-card coin x3; ural-card coin; chad-card coin" in lines(d)
        d["mark_groups"][0]["marks"] = d["mark_groups"][0]["marks"][:6]  # six or fewer: one line each
        assert lines(d)[lines(d).index("Upgrades (6):") + 1] == "  peru-card: coin (Ann, after game 1)"


class TestHeader:
    @pytest.mark.parametrize(("played", "length", "live", "expected"), [
        (0, None, None, "W (risk-legacy): 0 games played"),
        (1, None, None, "W (risk-legacy): 1 game played"),
        (2, None, 3, "W (risk-legacy): 2 games played, game 3 in progress"),
        (1, 15, None, "W (risk-legacy): 1 of 15 games played"),
        (14, 15, 15, "W (risk-legacy): 14 of 15 games played, game 15 in progress"),
        (15, 15, None, "W (risk-legacy): 15 of 15 games played; the campaign is over (later games give no rewards)"),
        (16, 15, None, "W (risk-legacy): 16 games played (15 in the campaign); the campaign is over (later games "
                       "give no rewards)"),
    ])
    def test_games_played(self, played: int, length: int | None, live: int | None, expected: str) -> None:
        d = data()
        d.update(campaign="W", games_played=played, campaign_games=length, game_in_progress=live)
        assert lines(d)[0] == expected

    def test_an_unnamed_campaign(self) -> None:
        d = data()
        d["campaign"] = None
        assert lines(d)[0].startswith("campaign (risk-legacy): ")


class TestMarks:
    def test_when_placed(self) -> None:
        assert when_placed(0) == "before game 1"
        assert when_placed(2) == "after game 2"
        assert when_placed(2, 3) == "during game 3"
        assert when_placed(0, None) == "before game 1"

    def test_a_mark_line_names_everything_it_knows(self) -> None:
        from scarbook.campaign.status_rows import GroupedMark, MarkRow

        m = MarkRow("peru", "fort", "fort", None, None, None, 0, None, True, None, None, None, False, 1, 0)
        assert mark_line(GroupedMark(m, False, None, None)) == "  peru: fort (setup, before game 1, 0 of 1 box left)"
        m = m._replace(boxes=3, left=2, by="Ann", game=4, name="Keep", active=False, covered_by="scar-cancel")
        assert mark_line(GroupedMark(m, True, None, None)) \
            == "  peru: fort 'Keep' (cancelled by scar-cancel) (Ann, after game 4, 2 of 3 boxes left)"
        m = m._replace(boxes=None, during_game=5)
        assert mark_line(GroupedMark(m, True, None, 3)) \
            == "  peru: fort 'Keep' (cancelled by scar-cancel) (Ann, during game 5, population 3)"


class TestDescribe:
    """`log`'s sentence for each kind of event, with and without its optional parts."""

    def test_every_event(self) -> None:
        from scarbook.campaign.events import (
            Destroyed,
            GameEnded,
            GameStarted,
            Linked,
            Opened,
            PackAdded,
            Passed,
            Placed,
            Ticked,
        )
        from scarbook.campaign.eventspecs import describe

        said = {
            GameStarted((("Ann", ("red", "kai")), ("Bob", ())), type="global"):
                "game starts: Ann as red and kai, Bob (global)",
            GameStarted((("Ann", ("red",)),)): "game starts: Ann as red",
            GameEnded("Ann", ("Bob", "Cat"), ("Dan", "Eve")):
                "game ends: Ann wins; held on: Bob, Cat; eliminated: Dan, Eve",
            GameEnded("", team="won"): "game ends: the team won",
            Placed("bridge", "peru", "Ann", "Long One", to="brazil"):
                "bridge 'Long One' on peru, joined to brazil by Ann",
            Placed("scar", "peru"): "scar on peru",
            Destroyed("japan-card", "Bob"): "japan-card destroyed by Bob",
            Destroyed("japan-card"): "japan-card destroyed",
            Opened("chest", "my-pack"): "packet chest opened (pack my-pack)",
            Opened("chest"): "packet chest opened",
            PackAdded("house"): "pack house added",
            Linked("road", "peru", "brazil", "Ann"): "line peru - brazil drawn (road) by Ann",
            Linked("road", "peru", "brazil"): "line peru - brazil drawn (road)",
            Ticked("peru", 1): "1 box ticked on peru",
            Ticked("peru", 3): "3 boxes ticked on peru",
            Passed("upgrade", "Ann", "kai", "none left"): "Ann passes upgrade for kai (none left)",
            Passed("upgrade", "Ann"): "Ann passes upgrade",
        }
        assert {ev: describe(ev) for ev in said} == said
        cutting = frozenset({"wall"})
        assert describe(Linked("wall", "peru", "brazil"), cutting) == "line peru - brazil cut (wall)"
        assert describe(Placed("wall", "peru", to="brazil"), cutting) == "wall on peru, cut from brazil"
        assert describe(Linked("road", "peru", "brazil"), cutting) == "line peru - brazil drawn (road)"


class TestTokens:
    """What a player starts with, for each `when` of a token formula."""

    @staticmethod
    def replay(signatures: dict[str, int], *formulas: Any) -> Any:
        from types import SimpleNamespace

        state = SimpleNamespace(players=list(signatures), signature_count=lambda p: signatures[p])
        return SimpleNamespace(state=state, content=SimpleNamespace(model=SimpleNamespace(tokens=list(formulas))))

    def test_each_when(self) -> None:
        from scarbook.campaign.model import Token
        from scarbook.campaign.report import tokens

        formulas = (Token("a", "a", "as", base=1), Token("s", "s", "ss", base=1, per_signature=2, when=("signed",)),
                    Token("u", "u", "us", base=1, when=("unsigned",)),
                    Token("all", "x", "xs", base=3, per_signature=1, when=("all-signed",)),
                    Token("either", "e", "es", base=5, when=("unsigned", "all-signed")))
        some = self.replay({"Ann": 2, "Bob": 0}, *formulas)
        assert tokens(some, "Ann") == {"a": 1, "s": 5, "u": 0, "all": 0, "either": 0}
        assert tokens(some, "Bob") == {"a": 1, "s": 0, "u": 1, "all": 0, "either": 5}
        every = self.replay({"Ann": 2, "Bob": 1}, *formulas)
        assert tokens(every, "Bob") == {"a": 1, "s": 3, "u": 0, "all": 4, "either": 5}
        assert tokens(self.replay({"Ann": 1}, Token("n", "n", "ns", base=1, when=("never",))), "Ann") == {"n": 0}
