"""campaign/rules.py's defences, called directly: what no valid pack reaches through the CLI.

The schema only lets a pack name checks that exist and the checks are tested not to crash, but a check
that goes wrong must still be one more refusal that names it (R299, R298), never a traceback, and an
event of no kind the rules know must be refused (L003), not waved through.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, run_script

from scarbook.campaign import rules
from scarbook.campaign.engine import Campaign, Replay
from scarbook.campaign.events import Event, Passed
from scarbook.campaign.ledger.cache import read
from scarbook.compiler.items import CheckSpec, Players, Sticker

GAME = Path(__file__).parent / "packs" / "valid" / "checks-isles"


@pytest.fixture
def replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Replay:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    file = tmp_path / "c.yaml"
    assert run_script(f"new {{file}} --game {GAME} --player Ann --player Bob\n", file) == []
    return Campaign(read(file)).replay()


def banner(replay: Replay, checks: list[dict]) -> rules.Resolved:
    r = rules.resolve(replay.content, replay.state, "banner", "a-isle", by="Ann")
    assert isinstance(r, rules.Resolved), r
    raw = {**replay.content.stickers["banner"], "checks": checks}
    return dataclasses.replace(r, view=Sticker.of("banner", raw))


def test_a_placement_typed_without_a_name_or_value_has_none(replay: Replay) -> None:
    r = rules.resolve(replay.content, replay.state, "banner", "a-isle", by="Ann")
    assert isinstance(r, rules.Resolved) and (r.actor, r.name, r.value) == ("Ann", "", None)


def test_an_unknown_check_is_named_and_the_others_still_run(replay: Replay) -> None:
    r = banner(replay, [{"check": "no-such-check"}, {"check": "during-a-game", "cite": "t § x"}])
    found = rules.placement_problems(replay.content, replay.state, r)
    assert [(p.code, p.explained) for p in found] == [
        ("R299", "the content names an unknown check 'no-such-check'"),
        ("R230", "no game is in progress (a Banner is placed during a game; t § x)"),
    ]


def test_a_crashing_check_is_one_more_refusal(replay: Replay, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(p: object, check: CheckSpec) -> None:
        raise KeyError("slot")

    monkeypatch.setitem(rules.CHECKS, "one-per-player", broken)
    r = banner(replay, [{"check": "one-per-player", "cite": "t § banner"}])
    found = rules.placement_problems(replay.content, replay.state, r)
    assert [(p.code, p.message) for p in found] == [
        ("R298", "check 'one-per-player' failed on this placement: KeyError: 'slot'")]


def test_the_same_failure_twice_is_listed_once(replay: Replay) -> None:
    twice = [{"check": "during-a-game", "cite": "a"}, {"check": "during-a-game", "cite": "b"}]
    found = rules.placement_problems(replay.content, replay.state, banner(replay, twice))
    assert [p.explained for p in found] == ["no game is in progress (a Banner is placed during a game; a)"]


def test_an_event_of_no_known_kind_is_refused(replay: Replay) -> None:
    from scarbook.campaign.eventspecs import admit

    found, fixed = admit(replay.content, replay.state, Event())
    assert [(p.code, p.message) for p in found] == [("L003", "unknown event")]
    assert fixed == Event()


def test_players_text_one_bound_or_both() -> None:
    assert rules._players_text(Players(2, 4)) == "2 to 4 players"
    assert rules._players_text(Players(min=3)) == "at least 3 players"
    assert rules._players_text(Players(max=5)) == "at most 5 players"



@pytest.fixture
def risk_legacy_after_game_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Risk Legacy set up, game 1 played: Ann won, Bob and Cat held on (their rewards owed)."""
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    file = tmp_path / "c.yaml"
    assert run_script(SETUP + START + "\ngame end --winner Ann\n", file) == []
    return file


def test_the_default_player_is_the_only_one_a_reward_can_be_for(risk_legacy_after_game_1: Path) -> None:
    file = risk_legacy_after_game_1

    def default(sticker: str) -> str:
        replay = Campaign(read(file)).replay()
        return rules.default_actor(replay.content, replay.state, replay.content.sticker_views[sticker])

    assert (default("major-city"), default("minor-city")) == ("Ann", "")  # the winner; two held on
    assert run_script("place major-city alaska --by Ann --name Ankh\nplace minor-city peru --by Bob --name Lima\n",
                      file) == []
    # Ann's step is taken: the major city's own `actor-is` check says it is the winner's; Cat alone is still owed
    assert (default("major-city"), default("minor-city")) == ("Ann", "Cat")  # the winner; the one still waiting


def test_the_rewards_still_owed_by_player(risk_legacy_after_game_1: Path) -> None:
    replay = Campaign(read(risk_legacy_after_game_1)).replay()
    assert rules.owed_rewards(replay.content, replay.state) == [
        ("Ann", "The winner's reward"), ("Bob", "A held-on player's reward"), ("Cat", "A held-on player's reward")]


@pytest.mark.parametrize(("found", "listed"), [(5, "a, b, c, d, e"), (6, "a, b, c, d, e …")])
def test_a_pass_refused_lists_five_targets_then_an_ellipsis(risk_legacy_after_game_1: Path,
                                                            monkeypatch: pytest.MonkeyPatch, found: int,
                                                            listed: str) -> None:
    replay = Campaign(read(risk_legacy_after_game_1)).replay()
    monkeypatch.setattr(rules, "where", lambda *args, **kwargs: list("abcdef")[:found])
    problems = rules.pass_problems(replay.content, replay.state, Passed("winner-reward", "Ann"))
    assert [(p.code, p.message) for p in problems] == [
        ("R332", f"'The winner's reward' is owed and a continent-name can still go on {listed}")]


def test_a_step_with_nothing_legal_left_blocks_no_game(risk_legacy_after_game_1: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    replay = Campaign(read(risk_legacy_after_game_1)).replay()
    assert [(o.actor, o.step.id) for o in rules.blocking(replay.content, replay.state)] == [
        ("Ann", "winner-reward"), ("Bob", "held-on-reward"), ("Cat", "held-on-reward")]
    monkeypatch.setattr(rules, "where", lambda *args, **kwargs: [])  # no sticker of any step can go anywhere
    assert rules.blocking(replay.content, replay.state) == []
    assert rules.owed_rewards(replay.content, replay.state) == []
