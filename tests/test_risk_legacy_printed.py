"""Risk Legacy as the printed components give it (issue 12; issue 9 item 4): each rule with a legal and an
illegal case, every refusal with its code and the section it cites, and the file unchanged on refusal."""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script

SCANS = "reference/risk-legacy.md § From scans of the printed components"


@pytest.fixture(autouse=True)
def _no_env_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)


def refused(file: Path, args: list[str], code: str, *cited: str) -> str:
    """Run a command that must be refused with `code`, citing every one of `cited`; the file stays as it was."""
    before = file.read_bytes()
    result = invoke(args, file)
    out = " ".join(result.output.split())
    assert result.exit_code == 1, result.output
    assert f"error {code}:" in out, out
    for c in cited:
        assert c in out, (c, out)
    assert file.read_bytes() == before
    return out


def ok(file: Path, text: str) -> None:
    failures = run_script(text, file)
    assert not failures, "\n".join(failures)


@pytest.fixture
def playing(tmp_path: Path) -> Path:
    file = tmp_path / "world.yaml"
    ok(file, SETUP + START + "\n")
    return file


def test_bunker_and_ammo_shortage_go_on_the_defending_territory_never_a_faction_card(playing: Path) -> None:
    for sticker in ("bunker", "ammo-shortage"):
        refused(playing, ["place", sticker, "die-mechaniker"], "R102", "goes on a territory", SCANS)
    ok(playing, "place bunker peru\nplace ammo-shortage brazil\n")
    refused(playing, ["place", "ammo-shortage", "peru"], "R202", "001_e430d55b72a215e6.txt § Gameboard")


# --- issue 9 item 4: sealed stickers, every refusal cites a rule, grammar ------------------------------------
def test_a_sealed_sticker_is_refused_as_sealed_naming_its_packet(playing: Path) -> None:
    out = refused(playing, ["place", "mercenary", "brazil"], "R310", "open packet faction-eliminated first",
                  "Open when a faction is eliminated", "reference/risk-legacy.md § Sealed packets")
    assert "unknown sticker" not in out
    refused(playing, ["place", "no-such-sticker", "brazil"], "R101", "unknown sticker")
    ok(playing, "game end --winner Ann --eliminated Cat\nplace continent-plus-one asia --by Ann\n"
       "place coin peru --by Bob\nopen faction-eliminated\n" + START + "\nplace mercenary brazil\n")


def test_game_bookkeeping_refusals_cite_a_rule(tmp_path: Path) -> None:
    file = tmp_path / "world.yaml"
    ok(file, SETUP)
    refused(file, ["game", "start", "--play", "Ann=khan-industries", "--play", "Ann=saharan-republic", "--play",
                   "Cat=die-mechaniker"], "R303", "each player plays once", "001_e430d55b72a215e6.txt § Player Set Up")
    refused(file, ["game", "start", "--play", "Ann=khan-industries", "--play", "Bob=khan-industries", "--play",
                   "Cat=die-mechaniker"], "R303", "khan-industries is played twice",
            "001_e430d55b72a215e6.txt § Player Set Up")
    refused(file, ["game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic"], "R306",
            "Risk Legacy is for 3 to 5 players", "001_e430d55b72a215e6.txt § Components")
    refused(file, ["tick", "peru"], "R320", "boxes are ticked on a mark that has them",
            "001_e430d55b72a215e6.txt § Fortifications")
    ok(file, START + "\n")
    refused(file, ["game", "end", "--winner", "Zed"], "R307", "did not play game 1",
            "001_e430d55b72a215e6.txt § End of the Game")
    refused(file, ["game", "end", "--winner", "Ann", "--held-on", "Ann"], "R307", "listed twice",
            "001_e430d55b72a215e6.txt § End of the Game")
    ok(file, "game end --winner Ann\n")


def test_grammar_of_counts_articles_and_reward_refusals(tmp_path: Path) -> None:
    file = tmp_path / "world.yaml"
    ok(file, SETUP + START + "\ngame end --winner Ann\n")
    status = invoke(["status"], file).output
    assert "1 game played" in status and "1 games played" not in status
    out = refused(file, ["place", "major-city", "peru", "--by", "Bob", "--name", "Lima"], "R205",
                  "Bob held on in game 1", "a Major City is for the winner", "001_e430d55b72a215e6.txt § If you won")
    assert out.count("is for the winner") == 1
    from scarbook.campaign.checks import a, plural

    assert (a("Extra tactic sticker"), a("Bunker"), plural(1, "box", "boxes"), plural(2, "box", "boxes"),
            plural(1, "game")) == ("an Extra tactic sticker", "a Bunker", "1 box", "2 boxes", "1 game")
    fresh = tmp_path / "fresh.yaml"
    ok(fresh, "new {file} --game risk-legacy --player Ann --player Bob --player Cat\n")
    out = refused(fresh, ["game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic",
                          "--play", "Cat=die-mechaniker"], "R221", "12 coins of the before-first-game supply")
