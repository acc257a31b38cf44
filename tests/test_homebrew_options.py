"""Options of the content schema that only homebrew content reaches, each used both ways (issue 29).

One small homebrew game (`opt-isles`: three isles, three heroes, a crown reward) is written by each test with
one option set one way, then the other, and the same CLI commands are played on both: the difference is a
refusal (its code and words) or an acceptance. The shipped games never set these options, so without these
tests a slip in the tracker's handling of them would go unseen. The table in docs/development/options.md
names the test of every option (tests/test_options_table.py keeps it complete).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from conftest import refused, snapshot
from scarbook.cli.main import app

CITE = "opt-isles § Rules"


def _sticker(sid: str, kind: str, targets: list[str], supply: int = 6, **more: Any) -> dict[str, Any]:
    return {"id": sid, "name": sid.replace("-", " ").title(), "kind": kind, "targets": targets, "supply": supply,
            "effect": f"{sid} effect.", "checks": [{"check": "supply-left", "cite": CITE}], **more}


BASE: dict[str, Any] = {
    "source": {"cite": "test game: homebrew options"},
    "game": {
        "id": "opt-isles", "title": "Option Isles", "legacy": True, "players": {"min": 2, "max": 3},
        "campaign": {
            "games": 6,
            "pieces": [{"id": "hero", "name": "hero", "section": "cards", "deck": "heroes", "claim": "oath"}],
            "game_types": [{"id": "raid", "name": "raid", "plays": ["hero"], "steps": [
                {"id": "sign", "name": "Sign the board", "who": "winner", "does": "sign", "cite": CITE},
                {"id": "crown", "name": "Crown an isle", "who": "winner", "choose": ["crown"], "cite": CITE},
            ]}],
        },
    },
    "board": {"default_slots": {"scar": 2, "city": 1}},
    "regions": [{"id": "north", "name": "North", "bonus": 2}],
    "territories": [
        {"id": "a-isle", "name": "A Isle", "regions": ["north"], "neighbors": ["b-isle"]},
        {"id": "b-isle", "name": "B Isle", "regions": ["north"], "neighbors": ["a-isle", "c-isle"]},
        {"id": "c-isle", "name": "C Isle", "regions": ["north"], "neighbors": ["b-isle"]},
    ],
    "decks": [{"id": "heroes", "name": "Heroes", "card_type": "hero", "count": 3}],
    "cards": [{"id": h, "deck": "heroes", "name": h.title()} for h in ("kai", "raaz", "mira")],
    "stickers": [
        _sticker("crown", "city", ["territory"], slot="city"),
        _sticker("coin", "coin", ["territory"], slot="scar"),
        _sticker("ruin", "ruin", ["territory"], slot="scar", covers=["city"], cancels=True),
        _sticker("oath", "claim", ["hero-card"]),
        _sticker("badge", "badge", ["hero-card"]),
    ],
}

PLAY = "game start --play Ann=kai --play Bob=raaz"


def write_game(tmp_path: Path, edit: Any = None, name: str = "game") -> Path:
    """The game, changed by `edit(data)`, in a folder of its own."""
    data = copy.deepcopy(BASE)
    if edit is not None:
        edit(data)
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return folder


def campaign(tmp_path: Path, edit: Any = None, name: str = "game", players: tuple[str, ...] = ("Ann", "Bob")) -> Path:
    folder = write_game(tmp_path, edit, name)
    file = tmp_path / f"{name}.yaml"
    args = ["campaign", "new", str(file), "--game", str(folder)]
    for p in players:
        args += ["--player", p]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return file


def run(file: Path, line: str) -> Any:
    import shlex

    return CliRunner().invoke(app, ["campaign", *shlex.split(line), "-c", str(file)])


def do(file: Path, *lines: str) -> None:
    for line in lines:
        result = run(file, line)
        assert result.exit_code == 0, (line, result.output)


def no(file: Path, line: str, code: str, words: str = "") -> None:
    """`line` is refused with `code` (and these words), and the ledger is left as it was."""
    before = snapshot(file)
    result = run(file, line)
    refused(result, code, before)
    assert words in result.output, result.output


def status(file: Path) -> dict[str, Any]:
    result = run(file, "status --format json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def steps_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    return data["game"]["campaign"]["game_types"][0]["steps"]  # type: ignore[no-any-return]


def set_step(key: str, value: Any, step: str = "crown") -> Any:
    def edit(data: dict[str, Any]) -> None:
        next(s for s in steps_of(data) if s["id"] == step)[key] = value
    return edit


def add_step(step: dict[str, Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        steps_of(data).append({"cite": CITE, **step})
    return edit


def both(*edits: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        for e in edits:
            e(data)
    return edit


# --- steps ------------------------------------------------------------------------------------


class TestMandatory:
    def test_a_mandatory_step_blocks_the_next_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path)  # mandatory by default
        do(file, PLAY, "game end --winner Ann")
        no(file, PLAY, "R304", "Crown an isle (Ann)")
        no(file, "pass crown --by Ann", "R332")  # something can still be placed
        do(file, "place crown a-isle --by Ann", PLAY)

    def test_mandatory_false_lets_the_next_game_start_and_is_passed_freely(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, set_step("mandatory", False))
        do(file, PLAY, "game end --winner Ann", "pass crown --by Ann", PLAY)
        file = campaign(tmp_path, set_step("mandatory", False), name="again")
        do(file, PLAY, "game end --winner Ann", PLAY)  # not taken, not passed: the game starts all the same


class TestPassIf:
    def test_pass_if_lets_players_pass_an_owed_step_with_a_reason(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, set_step("pass_if", "the winner has no isle they like"))
        do(file, PLAY, "game end --winner Ann")
        no(file, "pass crown --by Ann", "R332", "--why")
        do(file, "pass crown --by Ann --why 'no isle I like'", PLAY)

    def test_without_pass_if_a_reason_does_not_help(self, tmp_path: Path) -> None:
        file = campaign(tmp_path)
        do(file, PLAY, "game end --winner Ann")
        no(file, "pass crown --by Ann --why 'no isle I like'", "R332")


class TestFallback:
    def test_a_fallback_only_once_nothing_of_choose_can_go(self, tmp_path: Path) -> None:
        def one_crown(data: dict[str, Any]) -> None:
            next(s for s in data["stickers"] if s["id"] == "crown")["supply"] = 1

        file = campaign(tmp_path, both(set_step("fallback", ["coin"]), one_crown))
        do(file, PLAY, "game end --winner Ann")
        no(file, "place coin a-isle --by Ann", "R226", "a crown can still be placed")
        do(file, "place crown a-isle --by Ann", PLAY, "game end --winner Ann")
        do(file, "place coin a-isle --by Ann", PLAY)  # no crown is left: the fallback takes the step

    def test_without_a_fallback_the_other_sticker_is_no_step(self, tmp_path: Path) -> None:
        file = campaign(tmp_path)
        do(file, PLAY, "game end --winner Ann", "place coin a-isle --by Ann")  # placed, but it takes no step
        no(file, PLAY, "R304")


class TestWho:
    def test_each_role_owes_its_own_step(self, tmp_path: Path) -> None:
        edit = both(add_step({"id": "held", "name": "Held on", "who": "held-on", "choose": ["coin"]}),
                    add_step({"id": "out", "name": "Knocked out", "who": "eliminated", "choose": ["badge"]}))
        file = campaign(tmp_path, edit, players=("Ann", "Bob", "Cat"))
        do(file, "game start --play Ann=kai --play Bob=raaz --play Cat=mira",
           "game end --winner Ann --held-on Bob --eliminated Cat")
        no(file, "place coin a-isle --by Ann", "R205")
        no(file, "place badge kai --by Bob", "R205")
        do(file, "place crown a-isle --by Ann", "place coin a-isle --by Bob", "place badge mira --by Cat")

    def test_everyone_owes_a_step_per_player(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, add_step({"id": "mark", "name": "Badge", "who": "everyone", "choose": ["badge"],
                                            "piece": "hero"}))
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", "place badge kai --by Ann")
        no(file, PLAY, "R304", "Badge (Bob")
        no(file, "place badge kai --by Bob", "R225")  # Bob's step is for raaz
        do(file, "place badge raaz --by Bob", PLAY)


class TestSkip:
    SPARE = {"id": "spare", "name": "Spare heroes", "who": "winner-for-unassigned", "piece": "hero",
             "choose": ["badge"]}

    def test_a_skipped_piece_owes_nothing(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, add_step({**self.SPARE, "skip": ["mira"]}))
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", PLAY)

    def test_skip_on_a_step_everyone_takes(self, tmp_path: Path) -> None:
        step = {"id": "mark", "name": "Badge", "who": "everyone", "choose": ["badge"], "piece": "hero"}
        file = campaign(tmp_path, add_step({**step, "skip": ["raaz"]}))
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", "place badge kai --by Ann", PLAY)
        file = campaign(tmp_path, add_step(step), name="unskipped")
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", "place badge kai --by Ann")
        no(file, PLAY, "R304", "Badge (Bob")

    def test_without_skip_the_unplayed_piece_is_owed(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, add_step(self.SPARE))
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann")
        no(file, PLAY, "R304", "Spare heroes (Ann for mira)")
        do(file, "place badge mira --by Ann", PLAY)


class TestOwnerActs:
    """`pieces[].claim`: the owner of a claimed piece nobody played acts for it when they played, not the winner."""

    SPARE = TestSkip.SPARE

    def test_the_owner_places_for_their_piece(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, add_step(self.SPARE))
        do(file, "place oath mira --by Bob", PLAY, "game end --winner Ann", "place crown a-isle --by Ann")
        no(file, PLAY, "R304", "Spare heroes (Bob for mira)")
        no(file, "place badge mira --by Ann", "R205")
        do(file, "place badge mira --by Bob", PLAY)

    def test_an_unclaimed_piece_is_the_winners(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, add_step(self.SPARE))
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann")
        no(file, "place badge mira --by Bob", "R205")
        do(file, "place badge mira --by Ann", PLAY)


class TestInOrder:
    EXTRA = {"id": "coin", "name": "Take a coin", "who": "winner", "choose": ["coin"]}

    def test_in_order_makes_a_later_step_wait(self, tmp_path: Path) -> None:
        def in_order(data: dict[str, Any]) -> None:
            data["game"]["campaign"]["game_types"][0]["in_order"] = True

        file = campaign(tmp_path, both(add_step(self.EXTRA), in_order))
        do(file, PLAY, "game end --winner Ann")
        no(file, "place coin a-isle --by Ann", "R227")
        do(file, "place crown a-isle --by Ann", "place coin a-isle --by Ann")

    def test_without_in_order_any_step_first(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, add_step(self.EXTRA))
        do(file, PLAY, "game end --winner Ann", "place coin a-isle --by Ann", "place crown a-isle --by Ann", PLAY)


# --- the overall winner's tie bonus -------------------------------------------------------------


def overall(data: dict[str, Any]) -> None:
    data["game"]["campaign"]["overall_winner"] = {
        "after_game": 2, "most": "signatures", "tie_bonus": {"per": "crown", "text": "+1 per crown"}, "cite": CITE}


class TestTieBonus:
    def test_the_bonus_counts_only_active_marks_of_its_sticker_by_each_leader(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, overall)
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", PLAY, "game end --winner Bob",
           "place crown b-isle --by Bob")
        won = status(file)["overall_winner"]
        assert (won["players"], won["tie"], won["roll_off_bonus"]) == (["Ann", "Bob"], True, {"Ann": 1, "Bob": 1})
        do(file, "place ruin a-isle --by Bob")  # cancels Ann's crown: it no longer counts
        assert status(file)["overall_winner"]["roll_off_bonus"] == {"Ann": 0, "Bob": 1}
        result = run(file, "status")
        assert "a tie between Ann and Bob" in result.output, result.output

    def test_without_a_tie_bonus_there_is_no_roll_off_bonus(self, tmp_path: Path) -> None:
        def plain(data: dict[str, Any]) -> None:
            overall(data)
            del data["game"]["campaign"]["overall_winner"]["tie_bonus"]

        file = campaign(tmp_path, plain)
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", PLAY, "game end --winner Bob",
           "place crown b-isle --by Bob")
        won = status(file)["overall_winner"]
        assert won["tie"] is True and "roll_off_bonus" not in won

    def test_no_tie_no_bonus_and_nothing_before_after_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, overall)
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann")
        assert status(file)["overall_winner"] is None
        do(file, PLAY, "game end --winner Ann", "place crown b-isle --by Ann")
        won = status(file)["overall_winner"]
        assert (won["players"], won["tie"], "roll_off_bonus" in won) == (["Ann"], False, False)


# --- limits: each scope of `per`, each form of `of`, `only` --------------------------------------


def limited(sticker: str, **check: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        st = next(s for s in data["stickers"] if s["id"] == sticker)
        st["checks"].append({"check": "limit", "cite": CITE, **check})
    return edit


class TestLimit:
    def test_per_target(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, limited("coin", max=1, per=["target"]))
        do(file, "place coin a-isle --by Ann")
        no(file, "place coin a-isle --by Bob", "R238", "at most 1")
        do(file, "place coin b-isle --by Bob")

    def test_per_player(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, limited("coin", max=1, per=["player"]))
        do(file, "place coin a-isle --by Ann")
        no(file, "place coin b-isle --by Ann", "R238")
        do(file, "place coin b-isle --by Bob")

    def test_per_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, limited("coin", max=1, per=["game"]))
        do(file, PLAY, "place coin a-isle --by Ann")
        no(file, "place coin b-isle --by Bob", "R238")
        do(file, "game end --winner Ann", "place crown a-isle --by Ann", PLAY, "place coin b-isle --by Bob")

    def test_per_campaign_is_the_default(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, limited("coin", max=1))
        do(file, PLAY, "place coin a-isle --by Ann", "game end --winner Ann", "place crown a-isle --by Ann", PLAY)
        no(file, "place coin b-isle --by Bob", "R238")

    def test_of_a_kind_counts_other_stickers_of_it(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, limited("coin", max=1, of=["ruin"], per=["target"], name="ruins"))
        do(file, "place coin a-isle --by Ann", "place coin a-isle --by Ann", "place ruin b-isle --by Ann")
        no(file, "place coin b-isle --by Ann", "R238", "at most 1 ruin per territory")

    def test_only_during_a_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, limited("coin", max=0, only="during-a-game"))
        do(file, "place coin a-isle --by Ann")  # between games: the limit does not apply
        do(file, PLAY)
        no(file, "place coin b-isle --by Ann", "R238")

    def test_only_between_games(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, limited("coin", max=0, only="between-games"))
        no(file, "place coin a-isle --by Ann", "R238")
        do(file, PLAY, "place coin a-isle --by Ann")


# --- pieces' claim, setup ------------------------------------------------------------------------


class TestClaim:
    def test_a_claimed_piece_is_its_owners_alone(self, tmp_path: Path) -> None:
        file = campaign(tmp_path)
        do(file, "place oath kai --by Ann")
        no(file, "game start --play Ann=raaz --play Bob=kai", "R303", "kai")
        do(file, PLAY)

    def test_without_a_claim_sticker_the_oath_claims_nothing(self, tmp_path: Path) -> None:
        def no_claim(data: dict[str, Any]) -> None:
            del data["game"]["campaign"]["pieces"][0]["claim"]

        file = campaign(tmp_path, no_claim)
        do(file, "place oath kai --by Ann", "game start --play Ann=raaz --play Bob=kai")


class TestSetup:
    def test_setup_blocks_its_game_until_placed(self, tmp_path: Path) -> None:
        def setup(data: dict[str, Any]) -> None:
            data["game"]["campaign"]["setup"] = [{"id": "coins", "place": "coin", "count": 2, "before_game": 1,
                                                  "text": "two coins before the first raid", "cite": CITE}]

        file = campaign(tmp_path, setup)
        do(file, "place coin a-isle")
        no(file, PLAY, "R221", "two coins before the first raid")
        do(file, "place coin b-isle", PLAY)

    def test_each_player_places_one(self, tmp_path: Path) -> None:
        def setup(data: dict[str, Any]) -> None:
            data["game"]["campaign"]["setup"] = [{"id": "coins", "place": "coin", "each": "player", "before_game": 1,
                                                  "text": "a coin from every player", "cite": CITE}]

        file = campaign(tmp_path, setup)
        do(file, "place coin a-isle --by Ann", "place coin b-isle --by Ann")
        no(file, PLAY, "R221", "a coin from every player")
        do(file, "place coin b-isle --by Bob", PLAY)

    def test_without_setup_the_first_game_starts_at_once(self, tmp_path: Path) -> None:
        do(campaign(tmp_path), PLAY)


# --- game types: the default type, a step that records, a limit per game type ----------------------


def two_types(default: str | None = "raid") -> Any:
    def edit(data: dict[str, Any]) -> None:
        camp = data["game"]["campaign"]
        camp["game_types"].append({"id": "feast", "name": "feast", "plays": ["hero"], "steps": [
            {"id": "gift", "name": "Give a coin", "who": "winner", "choose": ["coin"], "cite": CITE}]})
        if default:
            camp["default_type"] = default
    return edit


class TestDefaultType:
    def test_default_type_names_the_type_of_an_unscheduled_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, two_types("feast"))
        do(file, PLAY, "game end --winner Ann")
        no(file, PLAY, "R304", "Give a coin (Ann)")
        do(file, "place coin a-isle --by Ann", PLAY)

    def test_without_default_type_the_type_is_asked(self, tmp_path: Path) -> None:
        """Several types, none scheduled and no `default_type`: the game start asks which (issue 38 item 12),
        rather than taking the first type silently."""
        file = campaign(tmp_path, two_types(None))
        no(file, PLAY, "R308", "say which type of game 1 is with --type (raid or feast)")
        do(file, PLAY + " --type raid", "game end --winner Ann")
        no(file, PLAY + " --type raid", "R304", "Crown an isle (Ann)")
        do(file, "place crown a-isle --by Ann", PLAY + " --type feast")


class TestRecord:
    def test_a_step_that_records_owes_no_placement(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, set_step("does", "record"))
        do(file, PLAY, "game end --winner Ann")
        assert [s["step"] for s in status(file)["steps"]] == []  # the game's end did it: nothing to take
        do(file, PLAY)

    def test_the_same_step_placing_is_owed(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, set_step("does", "place"))
        do(file, PLAY, "game end --winner Ann")
        assert [(s["step"], s["owed"]) for s in status(file)["steps"]] == [("crown", True)]
        no(file, PLAY, "R304")


class TestLimitPerGameType:
    def test_per_game_type_counts_only_games_of_the_same_type(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, both(two_types(), limited("ruin", max=1, per=["game-type"])))
        do(file, PLAY, "place ruin a-isle --by Ann")
        no(file, "place ruin b-isle --by Ann", "R238")
        do(file, "game end --winner Ann", "place crown a-isle --by Ann", PLAY)
        no(file, "place ruin b-isle --by Ann", "R238")  # game 2 is a raid again

    def test_a_game_of_another_type_starts_the_count_again(self, tmp_path: Path) -> None:
        def scheduled(data: dict[str, Any]) -> None:
            data["schedule"] = [{"id": "game-2", "game": 2, "type": "feast", "title": "A feast"}]

        file = campaign(tmp_path, both(two_types(), scheduled, limited("ruin", max=1, per=["game-type"])))
        do(file, PLAY, "place ruin a-isle --by Ann", "game end --winner Ann", "place crown a-isle --by Ann", PLAY)
        do(file, "place ruin b-isle --by Ann")
        file = campaign(tmp_path, both(two_types(), scheduled, limited("ruin", max=1)), name="campaign-wide")
        do(file, PLAY, "place ruin a-isle --by Ann", "game end --winner Ann", "place crown a-isle --by Ann", PLAY)
        no(file, "place ruin b-isle --by Ann", "R238")


class TestLimitByStat:
    def test_max_from_the_targets_stat(self, tmp_path: Path) -> None:
        def ranks(data: dict[str, Any]) -> None:
            for card, rank in zip(data["cards"], (1, 2, 0), strict=True):
                card["stats"] = {"rank": rank}

        file = campaign(tmp_path, both(ranks, limited("badge", max={"stat": "rank"}, per=["target"])))
        do(file, "place badge kai --by Ann", "place badge raaz --by Ann", "place badge raaz --by Ann")
        no(file, "place badge kai --by Ann", "R238")
        no(file, "place badge mira --by Ann", "R238")

    def test_a_number_is_the_same_for_every_target(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, limited("badge", max=1, per=["target"]))
        do(file, "place badge kai --by Ann", "place badge mira --by Ann")
        no(file, "place badge kai --by Ann", "R238")


# --- packet triggers: placed with a count, never --------------------------------------------------


def packet(when: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["envelopes"] = [{"id": "vault", "name": "Vault", "trigger": {"text": "When it says.", "when": when},
                              "contents": []}]
    return edit


class TestTrigger:
    def test_placed_waits_for_the_nth_sticker(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, packet({"placed": "coin", "count": 2}))
        do(file, "place coin a-isle")
        no(file, "open vault", "R313")
        do(file, "place coin b-isle", "open vault")

    def test_placed_once_opens_at_the_first(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, packet({"placed": "coin", "count": 1}))
        no(file, "open vault", "R313")
        do(file, "place coin a-isle", "open vault")

    def test_never_is_never_announced_and_the_players_decide(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, packet("never"))
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann")
        assert status(file)["pending_packets"] == []
        do(file, "open vault")  # the tracker cannot tell: opening is the players' call
        file = campaign(tmp_path, packet({"after_game": 2}), name="after")
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann")
        assert status(file)["pending_packets"] == []
        no(file, "open vault", "R313", "When it says.")
        do(file, PLAY, "game end --winner Ann", "place crown b-isle --by Ann")
        assert status(file)["pending_packets"] == ["vault"]
        do(file, "open vault")


# --- starting territories: a mark's owner is its piece's claimer, not its placer -----------------


def banner(data: dict[str, Any]) -> None:
    """kai's banner: a sticker that belongs to the hero kai, so its owner is whoever claimed kai."""
    data["stickers"].append(_sticker("kai-banner", "banner", ["territory"], slot="scar", belongs_to="kai"))


def starts(*checks: dict[str, Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        banner(data)
        data["game"]["campaign"]["starts"] = [{"text": "where a raider may start", "cite": CITE, **c} for c in checks]
    return edit


def legal_starts(file: Path) -> dict[str, list[str]]:
    return {p["name"]: p["legal_starts"] for p in status(file)["players"]}


class TestStarts:
    def test_no_marks_unless_own_counts_the_owner_not_the_placer(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, starts({"check": "no-marks", "unless_own": ["kai-banner"]}))
        do(file, "place oath kai --by Ann", "place kai-banner a-isle --by Bob")  # Bob places Ann's banner
        assert legal_starts(file) == {"Ann": ["a-isle", "b-isle", "c-isle"], "Bob": ["b-isle", "c-isle"]}
        no(file, "game start --play Ann=kai --play Bob=raaz --start Bob=a-isle", "R305", "a-isle")
        do(file, "game start --play Ann=kai --play Bob=raaz --start Ann=a-isle")

    def test_no_marks_without_unless_own_keeps_everyone_out(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, starts({"check": "no-marks"}))
        do(file, "place oath kai --by Ann", "place kai-banner a-isle --by Bob")
        assert legal_starts(file) == {"Ann": ["b-isle", "c-isle"], "Bob": ["b-isle", "c-isle"]}

    def test_not_near_own_follows_the_owner(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, starts({"check": "not-near-own", "kind": "banner"}))
        do(file, "place oath kai --by Ann", "place kai-banner a-isle --by Bob")
        assert legal_starts(file) == {"Ann": ["c-isle"], "Bob": ["a-isle", "b-isle", "c-isle"]}

    def test_lacks_keeps_everyone_off_the_kind(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, starts({"check": "lacks", "kind": "banner"}))
        do(file, "place kai-banner a-isle --by Bob")
        assert legal_starts(file) == {"Ann": ["b-isle", "c-isle"], "Bob": ["b-isle", "c-isle"]}

    def test_without_start_checks_every_territory(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, banner)
        do(file, "place oath kai --by Ann", "place kai-banner a-isle --by Bob")
        assert legal_starts(file) == {"Ann": ["a-isle", "b-isle", "c-isle"], "Bob": ["a-isle", "b-isle", "c-isle"]}


# --- tokens, rewards in the first games ----------------------------------------------------------


def tokens(when: list[str]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["game"]["campaign"]["tokens"] = [{"id": "gem", "name": "gem", "plural": "gems", "base": 1,
                                               "per_signature": 2, "when": when, "cite": CITE}]
    return edit


class TestTokens:
    def test_unsigned_and_signed(self, tmp_path: Path) -> None:
        for when, ann, bob in ((["unsigned"], 0, 1), (["signed"], 3, 0), (["always"], 3, 1), (["all-signed"], 0, 0)):
            file = campaign(tmp_path, tokens(when), name=when[0])
            do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann")
            got = {p["name"]: p["tokens"]["gem"] for p in status(file)["players"]}
            assert got == {"Ann": ann, "Bob": bob}, when
        file = campaign(tmp_path, tokens(["all-signed"]), name="both-signed")
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", PLAY, "game end --winner Bob",
           "place crown b-isle --by Bob")
        assert {p["name"]: p["tokens"]["gem"] for p in status(file)["players"]} == {"Ann": 3, "Bob": 3}


class TestRewardsInFirstGames:
    def test_a_game_past_the_rewarded_ones_owes_no_step(self, tmp_path: Path) -> None:
        def one(data: dict[str, Any]) -> None:
            data["game"]["campaign"]["rewards_in_first_games"] = 1

        file = campaign(tmp_path, one)
        do(file, PLAY, "game end --winner Ann")
        no(file, PLAY, "R304")
        do(file, "place crown a-isle --by Ann", PLAY, "game end --winner Ann", PLAY)  # game 2 gives nothing

    def test_without_it_every_game_of_the_campaign_owes_its_steps(self, tmp_path: Path) -> None:
        file = campaign(tmp_path)
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", PLAY, "game end --winner Ann")
        no(file, PLAY, "R304")


# --- schedule entries' places, the signatures trigger ---------------------------------------------


class TestSchedulePlaces:
    def scheduled(self, places: list[str]) -> Any:
        def edit(data: dict[str, Any]) -> None:
            data["schedule"] = [{"id": "game-1", "game": 1, "type": "raid", "title": "The first raid",
                                 **({"places": places} if places else {})}]
        return both(two_types(), edit)

    def test_places_lets_another_types_sticker_go_after_the_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, self.scheduled(["coin"]))
        do(file, PLAY, "game end --winner Ann", "place coin a-isle --by Bob", "place crown a-isle --by Ann")

    def test_without_places_it_is_the_other_types_alone(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, self.scheduled([]))
        do(file, PLAY, "game end --winner Ann")
        no(file, "place coin a-isle --by Bob", "R239", "game 1 was a raid game, and no step after it places a Coin")


class TestSignaturesTrigger:
    def test_the_packet_waits_for_one_player_with_enough_signatures(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, packet({"signatures_by_one_player": 2}))
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", PLAY, "game end --winner Bob",
           "place crown b-isle --by Bob")
        no(file, "open vault", "R313")  # two signatures, but one each
        do(file, PLAY, "game end --winner Ann", "place crown c-isle --by Ann")
        assert status(file)["pending_packets"] == ["vault"]
        do(file, "open vault")


# --- each check on its own: with it the placement is refused, without it the same placement goes ------------


def check_on(sticker: str, check: dict[str, Any], *more: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        for e in more:
            e(data)
        next(s for s in data["stickers"] if s["id"] == sticker)["checks"].append({**check, "cite": CITE})
    return edit


def relics(data: dict[str, Any]) -> None:
    data["decks"].append({"id": "relics", "name": "Relics", "card_type": "relic", "count": 1})
    data["cards"].append({"id": "horn", "deck": "relics", "name": "Horn"})


def gold(data: dict[str, Any]) -> None:
    next(s for s in data["stickers"] if s["id"] == "coin")["adds"] = {"gold": 1}


def named_banner(data: dict[str, Any]) -> None:
    data["stickers"].append(_sticker("banner", "banner", ["territory"], slot="scar", named=True))


def isle_cards(data: dict[str, Any]) -> None:
    data["decks"].append({"id": "isle-cards", "name": "Isle cards", "card_type": "isle", "count": 3})
    data["cards"] += [{"id": f"{t}-card", "deck": "isle-cards", "name": t.title(), "territory": t}
                      for t in ("a-isle", "b-isle", "c-isle")]
    data["stickers"].append(_sticker("seal", "seal", ["isle-card"]))


def faction(data: dict[str, Any]) -> None:
    data["factions"] = [{"id": "red", "name": "Red", "powers": [{"id": "fury", "name": "Fury", "text": "Roll again."},
                                                                {"id": "calm", "name": "Calm", "text": "Wait."}]}]
    data["stickers"].append(_sticker("gift", "power", ["faction-card"]))


def wreckage(data: dict[str, Any]) -> None:
    """A reward that destroys a hero card: the winner's step offers it beside the crown."""
    data["rewards"] = [{"id": "wreck-hero", "name": "Wreck a hero", "for": "winner", "destroy": {"deck": "heroes"},
                        "place": ["wreck"], "text": "Destroy a hero card."}]
    data["stickers"].append({**_sticker("wreck", "destroyed", ["hero-card"]), "checks": []})
    steps_of(data)[1]["choose"] = ["crown", "wreck-hero"]


def coastal(data: dict[str, Any]) -> None:
    data["territories"][1]["tags"] = ["coastal"]


ENDED = (PLAY, "game end --winner Ann --eliminated Bob", "place crown a-isle --by Ann")

CHECKS = [  # id, sticker, check, more content, before, the placement, its code
    ("target-has", "coin", {"check": "target-has", "kind": "city"}, None, (), "place coin a-isle", "R203"),
    ("target-lacks", "coin", {"check": "target-lacks", "kind": "city"}, None, ("place crown a-isle",),
     "place coin a-isle", "R210"),
    ("covers-existing", "ruin", {"check": "covers-existing"}, None, (), "place ruin a-isle", "R204"),
    ("before-first-game", "coin", {"check": "before-first-game"}, None, (PLAY,), "place coin a-isle", "R209"),
    ("after-a-game", "coin", {"check": "after-a-game"}, None, (), "place coin a-isle", "R211"),
    ("during-a-game", "coin", {"check": "during-a-game"}, None, (), "place coin a-isle", "R230"),
    ("target-deck", "badge", {"check": "target-deck", "decks": ["relics"]}, relics, (), "place badge kai", "R214"),
    ("target-is", "coin", {"check": "target-is", "ids": ["b-isle"]}, None, (), "place coin a-isle", "R235"),
    ("actor-is", "coin", {"check": "actor-is", "role": "winner"}, None, ENDED, "place coin a-isle --by Bob", "R205"),
    ("actor-not-eliminated", "coin", {"check": "actor-not-eliminated"}, None, ENDED, "place coin a-isle --by Bob",
     "R206"),
    ("rewards-in-first-games", "coin", {"check": "rewards-in-first-games", "games": 1}, None,
     (*ENDED, PLAY, "game end --winner Ann", "place crown b-isle --by Ann"), "place coin a-isle --by Ann", "R208"),
    ("game-number", "coin", {"check": "game-number", "min": 2}, None, (PLAY,), "place coin a-isle", "R220"),
    ("game-type", "badge", {"check": "game-type", "types": ["feast"]}, two_types(), (PLAY,), "place badge kai",
     "R239"),
    ("opened", "coin", {"check": "opened", "envelope": "vault"}, packet({"after_game": 1}), (),
     "place coin a-isle", "R219"),
    ("target-has-own", "coin", {"check": "target-has-own", "kind": "city"}, None, ("place crown a-isle --by Ann",),
     "place coin a-isle --by Bob", "R231"),
    ("slot-free", "coin", {"check": "slot-free"}, None, ("place coin a-isle", "place coin a-isle"),
     "place coin a-isle", "R202"),
    ("max-value", "coin", {"check": "max-value", "field": "gold", "max": 1}, gold, ("place coin a-isle",),
     "place coin a-isle", "R212"),
    ("min-value", "coin", {"check": "min-value", "field": "rank", "min": 1}, None, (), "place coin a-isle", "R251"),
    ("in-order", "coin", {"check": "in-order", "ids": ["a-isle", "b-isle"]}, None, (), "place coin b-isle", "R252"),
    ("target-unnamed", "banner", {"check": "target-unnamed"}, named_banner, ("place banner a-isle --name Up",),
     "place banner a-isle --name Down", "R218"),
    ("actor-controlled-target", "coin", {"check": "actor-controlled-target"}, None,
     (PLAY, "game end --winner Ann --controlled Ann=b-isle", "place crown b-isle --by Ann"),
     "place coin a-isle --by Ann", "R216"),
    ("card-territory-has", "seal", {"check": "card-territory-has", "kind": "city"}, isle_cards, (),
     "place seal a-isle-card", "R237"),
    ("target-tagged", "coin", {"check": "target-tagged", "tag": "coastal"}, coastal, (), "place coin a-isle", "R236"),
    ("next-to", "coin", {"check": "next-to", "kind": "city"}, None, ("place crown a-isle",), "place coin c-isle",
     "R250"),
    ("card-not-destroyed", "badge", {"check": "card-not-destroyed"}, wreckage,
     (PLAY, "game end --winner Ann", "destroy kai --by Ann"), "place badge kai", "R215"),
    ("choice-of", "gift", {"check": "choice-of", "field": "powers"}, faction, (), "place gift red --name nope",
     "R222"),
]


@pytest.mark.parametrize(("sticker", "check", "more", "before", "attempt", "code"),
                         [c[1:] for c in CHECKS], ids=[c[0] for c in CHECKS])
def test_each_check_refuses_and_without_it_the_same_placement_goes(
        tmp_path: Path, sticker: str, check: dict[str, Any], more: Any, before: tuple[str, ...], attempt: str,
        code: str) -> None:
    file = campaign(tmp_path, check_on(sticker, check, *([more] if more else [])), name="with")
    do(file, *before)
    no(file, attempt, code)
    file = campaign(tmp_path, more, name="without")
    do(file, *before, attempt)


# --- the campaign's length, obligations on a condition -------------------------------------------------


class TestGames:
    def test_a_game_past_the_campaign_is_recorded_but_owes_nothing(self, tmp_path: Path) -> None:
        def short(data: dict[str, Any]) -> None:
            data["game"]["campaign"]["games"] = 1

        file = campaign(tmp_path, short)
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", PLAY, "game end --winner Ann", PLAY)

    def test_within_the_campaign_the_same_game_owes_its_step(self, tmp_path: Path) -> None:
        file = campaign(tmp_path)
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", PLAY, "game end --winner Ann")
        no(file, PLAY, "R304")


class TestOwedWhen:
    def rich(self, data: dict[str, Any]) -> None:
        gold(data)
        data["game"]["campaign"]["owed_when"] = [{"id": "rich", "targets": "territory", "field": "gold",
                                                  "at_least": 2, "place": "ruin", "text": "a rich isle is ruined",
                                                  "cite": CITE}]

    def test_a_value_at_its_threshold_owes_the_sticker_before_the_next_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, self.rich)
        do(file, "place coin a-isle", "place coin a-isle", "place coin b-isle", "place crown a-isle")
        assert [(o["target"]) for o in status(file)["owed"]] == ["a-isle"]
        no(file, PLAY, "R316", "a rich isle is ruined")
        do(file, "place ruin a-isle", PLAY)

    def test_without_owed_when_nothing_is_owed(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, gold)
        do(file, "place coin a-isle", "place coin a-isle", PLAY)


# --- a co-operative campaign: chapters with tries, tracks, a limit from a track, after_chapter --------------


def team(chapters: dict[str, Any] | None = None, tracks: bool = False) -> Any:
    def edit(data: dict[str, Any]) -> None:
        camp = data["game"]["campaign"]
        camp["team"] = True
        camp["game_types"][0]["steps"] = [{"id": "crown", "name": "Crown an isle", "who": "team", "mandatory": False,
                                           "choose": ["crown"], "cite": CITE}]
        if chapters is not None:
            camp["chapters"] = {"name": "voyage", "plural": "voyages", "count": 2, "cite": CITE, **chapters}
        if tracks:
            camp["tracks"] = [{"id": "fame", "name": "fame", "start": 1, "min": 0, "max": 2,
                               "after": {"won": 1, "lost": -1}, "cite": CITE}]
    return edit


class TestChapters:
    def test_tries_play_a_lost_chapter_again(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, team({"tries": 2}))
        do(file, PLAY, "game end --team lost")
        chapter = status(file)["chapter"]
        assert (chapter["now"], chapter["try"]) == (1, 2)
        do(file, PLAY, "game end --team lost", PLAY, "game end --team won")
        assert status(file)["chapter"]["results"] == {"1": "lost", "2": "won"}
        no(file, PLAY, "R351")

    def test_one_try_by_default(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, team({}))
        do(file, PLAY, "game end --team lost")
        chapter = status(file)["chapter"]
        assert (chapter["now"], chapter["try"]) == (2, 1)

    def test_after_chapter_waits_for_the_chapter_to_be_over(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, both(team({"tries": 2}), packet({"after_chapter": 1})))
        do(file, PLAY, "game end --team lost")
        no(file, "open vault", "R313")
        do(file, PLAY, "game end --team lost", "open vault")

    def test_without_chapters_games_go_on(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, team())
        do(file, PLAY, "game end --team lost", PLAY, "game end --team won", PLAY)
        assert "chapter" not in status(file)


class TestTracks:
    def test_a_track_moves_with_each_result_within_its_bounds(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, team(tracks=True))
        values = []
        for result in ("won", "won", "lost", "lost", "lost"):
            do(file, PLAY, f"game end --team {result}")
            values.append(status(file)["tracks"][0]["value"])
        assert values == [2, 2, 1, 0, 0]

    def test_a_limit_takes_its_number_from_the_track_now(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, both(team(tracks=True), limited("coin", max={"track": "fame"})))
        do(file, "place coin a-isle")
        no(file, "place coin b-isle", "R238")
        do(file, PLAY, "game end --team won", "place coin b-isle")  # fame 2 now

    def test_without_tracks_none_is_shown(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, team())
        do(file, PLAY, "game end --team won")
        assert status(file)["tracks"] == []


# --- lines a sticker draws (links), a limit per piece, a game that lifts a start check ---------------------


def bridge(**links: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["territories"].append({"id": "d-isle", "name": "D Isle", "regions": ["north"], "neighbors": ["c-isle"]})
        data["territories"][2]["neighbors"].append("d-isle")
        st = _sticker("bridge", "bridge", ["territory"], slot="scar")
        if links:
            st["links"] = {"text": "lines of the bridge", "cite": CITE, **links}
        data["stickers"].append(st)
    return edit


class TestLinks:
    def test_each_line_is_owed_before_the_next_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, bridge(each=1))
        do(file, "place bridge a-isle --by Ann")
        no(file, PLAY, "R344")
        do(file, "link bridge a-isle c-isle --by Ann", PLAY)

    def test_a_sticker_without_links_draws_none(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, bridge())
        do(file, "place bridge a-isle --by Ann", PLAY)
        no(file, "link bridge a-isle c-isle --by Ann", "R340")

    def test_optional_lines_may_be_drawn_up_to_their_number(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, bridge(each=0, optional=1))
        do(file, "place bridge a-isle --by Ann", PLAY, "link bridge a-isle c-isle --by Ann")
        no(file, "link bridge a-isle d-isle --by Ann", "R343")
        file = campaign(tmp_path, bridge(each=0, optional=2), name="two")
        do(file, "place bridge a-isle --by Ann", "link bridge a-isle c-isle --by Ann",
           "link bridge a-isle d-isle --by Ann")

    def test_by_placer_keeps_the_others_from_drawing(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, bridge(each=1, by="placer"))
        do(file, "place bridge a-isle --by Ann")
        no(file, "link bridge a-isle c-isle --by Bob", "R346")
        do(file, "link bridge a-isle c-isle --by Ann")
        file = campaign(tmp_path, bridge(each=1), name="anyone")
        do(file, "place bridge a-isle --by Ann", "link bridge a-isle c-isle --by Bob")

    def test_cuts_removes_an_edge_instead_of_drawing_one(self, tmp_path: Path) -> None:
        def ring(data: dict[str, Any]) -> None:
            data["edges"] = [["a-isle", "d-isle"]]

        file = campaign(tmp_path, both(bridge(each=1, cuts=True), ring))
        do(file, "place bridge c-isle --by Ann")
        no(file, "link bridge c-isle a-isle --by Ann", "R341")  # not neighbours: nothing to cut
        do(file, "link bridge c-isle b-isle --by Ann")
        assert status(file)["cuts"], status(file)
        file = campaign(tmp_path, bridge(each=1), name="draws")
        do(file, "place bridge c-isle --by Ann")
        no(file, "link bridge c-isle b-isle --by Ann", "R341")  # neighbours already: nothing to draw


class TestLimitPerPiece:
    def test_per_piece_counts_the_pieces_marks_wherever_they_are(self, tmp_path: Path) -> None:
        def raaz_banner(data: dict[str, Any]) -> None:
            data["stickers"].append(_sticker("raaz-banner", "banner", ["territory"], slot="scar", belongs_to="raaz"))

        file = campaign(tmp_path, both(banner, raaz_banner, limited("raaz-banner", max=1, of=["banner"],
                                                                    per=["piece"])))
        do(file, "place kai-banner a-isle --by Ann", "place raaz-banner b-isle --by Bob")  # kai's is not raaz's
        no(file, "place raaz-banner c-isle --by Bob", "R238")
        file = campaign(tmp_path, both(banner, limited("kai-banner", max=1, per=["piece"])), name="kai")
        do(file, "place kai-banner a-isle --by Ann")
        no(file, "place kai-banner b-isle --by Ann", "R238")

    def test_per_target_the_same_marks_elsewhere_go(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, both(banner, limited("kai-banner", max=1, per=["target"])))
        do(file, "place kai-banner a-isle --by Ann", "place kai-banner b-isle --by Ann")


class TestIgnoreStarts:
    def scheduled(self, ignore: list[str]) -> Any:
        def edit(data: dict[str, Any]) -> None:
            data["schedule"] = [{"id": "game-1", "game": 1, "title": "The first raid", "ignore_starts": ignore}]
        return both(starts({"check": "no-marks"}), edit)

    def test_a_game_may_lift_a_start_check(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, self.scheduled(["no-marks"]))
        do(file, "place coin a-isle --by Ann")
        assert legal_starts(file)["Bob"] == ["a-isle", "b-isle", "c-isle"]
        do(file, "game start --play Ann=kai --play Bob=raaz --start Bob=a-isle")

    def test_without_it_the_check_holds(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, self.scheduled([]))
        do(file, "place coin a-isle --by Ann")
        assert legal_starts(file)["Bob"] == ["b-isle", "c-isle"]
        no(file, "game start --play Ann=kai --play Bob=raaz --start Bob=a-isle", "R305")


# --- what a packet owes once opened (owed_when_opened), setup by a check (required-before-first-game) -------


def sealed_rule(kinds: list[str] | None) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["rulebook"] = [{"id": "raids", "title": "Raids", "text": "How a raid goes.",
                             "slots": [{"id": "rules-box", "label": "Rules box", "text": "A house rule goes here."}]}]
        st = _sticker("tide-rule", "rule", ["rulebook-slot"], supply=1)
        st["checks"] += [{"check": "target-is", "ids": ["rules-box"], "cite": CITE},
                         {"check": "placed-once-opened", "envelope": "vault", "cite": CITE}]
        data["stickers"].append(st)
        data["envelopes"] = [{"id": "vault", "name": "Vault", "trigger": {"text": "After the first raid.",
                                                                         "when": {"after_game": 1}},
                              "contents": ["tide-rule"]}]
        if kinds is not None:
            data["game"]["campaign"]["owed_when_opened"] = [{"kinds": kinds, "text": "a house rule goes in first",
                                                             "cite": CITE}]
    return edit


class TestOwedWhenOpened:
    def test_an_opened_packets_rule_blocks_the_next_game(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, sealed_rule(["rule"]))
        do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", "open vault")
        no(file, PLAY, "R315")
        do(file, "place tide-rule rules-box", PLAY)

    def test_another_kind_or_none_blocks_nothing(self, tmp_path: Path) -> None:
        for name, kinds in (("other", ["scar"]), ("none", None)):
            file = campaign(tmp_path, sealed_rule(kinds), name=name)
            do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", "open vault", PLAY)


class TestRequiredBeforeFirstGame:
    def test_one_on_every_target_before_game_one(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, check_on("coin", {"check": "required-before-first-game"}))
        do(file, "place coin a-isle", "place coin b-isle")
        no(file, PLAY, "R221", "c-isle")
        do(file, "place coin c-isle", PLAY)

    def test_without_it_game_one_starts_at_once(self, tmp_path: Path) -> None:
        file = campaign(tmp_path)
        do(file, "place coin a-isle", PLAY)


class TestLimitOfDeck:
    def scar_cards(self, data: dict[str, Any]) -> None:
        data["decks"].append({"id": "scar-cards", "name": "Scar cards", "card_type": "scar", "count": 2})
        data["cards"] += [{"id": "coin-card", "deck": "scar-cards", "name": "Coin card", "stickers": ["coin"]},
                          {"id": "ruin-card", "deck": "scar-cards", "name": "Ruin card", "stickers": ["ruin"]}]

    def test_of_a_deck_counts_every_sticker_its_cards_carry(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, both(self.scar_cards, limited("ruin", max=1, of=[{"deck": "scar-cards"}],
                                                                per=["player"], name="scar cards")))
        do(file, "place coin a-isle --by Ann", "place ruin b-isle --by Bob")
        no(file, "place ruin c-isle --by Ann", "R238", "at most 1 scar card per player")

    def test_of_the_sticker_itself_counts_only_it(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, both(self.scar_cards, limited("ruin", max=1, per=["player"])))
        do(file, "place coin a-isle --by Ann", "place ruin c-isle --by Ann")


class TestLinksKind:
    """`links.kind`: the kind of edge a drawn line is on the board as played (what the board picture draws)."""

    def drawn(self, tmp_path: Path, **links: Any) -> list[tuple[str, str, str]]:
        from scarbook.campaign.links import as_played
        from scarbook.compiler.load import load_game_folder

        game = load_game_folder(write_game(tmp_path, bridge(each=1, **links), name=str(len(links)))).game
        assert game is not None
        played = as_played(game, {"bridge": 1}, [("bridge", "a-isle", "c-isle")])
        return [e for e in played.edges if e[:2] == ("a-isle", "c-isle")]

    def test_the_kind_given(self, tmp_path: Path) -> None:
        assert self.drawn(tmp_path, kind="sea") == [("a-isle", "c-isle", "sea")]

    def test_unknown_without_it(self, tmp_path: Path) -> None:
        assert self.drawn(tmp_path) == [("a-isle", "c-isle", "unknown")]


class TestReturns:
    def scheduled(self, returns: bool) -> Any:
        def edit(data: dict[str, Any]) -> None:
            data["schedule"] = [{"id": "game-1", "game": 1, "title": "The first raid", "may_lose": True},
                                {"id": "game-2", "game": 2, "title": "The second raid",
                                 **({"returns": {"lost_in": 1, "price": "kai starts with one army", "cite": CITE}}
                                    if returns else {})}]
        return edit

    def test_a_piece_lost_for_good_returns_where_a_game_says_so(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, self.scheduled(True))
        do(file, PLAY, "game end --winner Bob --lost kai", "place crown a-isle --by Bob", PLAY)
        assert status(file)["games"][1]["returned"] == {"kai": "kai starts with one army"}

    def test_without_returns_it_stays_lost(self, tmp_path: Path) -> None:
        file = campaign(tmp_path, self.scheduled(False))
        do(file, PLAY, "game end --winner Bob --lost kai", "place crown a-isle --by Bob")
        no(file, PLAY, "R303", "kai")
        do(file, "game start --play Ann=mira --play Bob=raaz")
