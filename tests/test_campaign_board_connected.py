"""keeps-board-connected: a mark that takes a territory off the board may not split it (Shadow Forces devastation)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from conftest import refused
from scarbook.cli.main import app

runner = CliRunner()


def test_devastation_may_not_cut_the_board(tmp_path: Path) -> None:
    ledger = tmp_path / "sf.yaml"
    made = runner.invoke(app, ["campaign", "new", str(ledger), "--game", "risk-shadow-forces", "--player", "Ann",
                               "--player", "Bob", "--player", "Cat"])
    assert made.exit_code == 0, made.output
    before = ledger.read_bytes()
    cut = runner.invoke(app, ["campaign", "place", "devastation", "AS12", "-c", str(ledger)])
    refused(cut, "R217", file_before=(ledger, before))
    assert ("R217: as-12 would cut oc-01, oc-02, oc-03, oc-04 off the rest of the board (the board stays "
            "connected") in cut.output
    assert ledger.read_bytes() == before
    fine = runner.invoke(app, ["campaign", "place", "devastation", "na-01", "-c", str(ledger)])
    assert fine.exit_code == 0, fine.output
    second = runner.invoke(app, ["campaign", "place", "devastation", "na-02", "-c", str(ledger), "--dry-run"])
    assert second.exit_code == 0, second.output  # alaska gone, the rest of North America still holds together


def test_territories_already_devastated_count_too(tmp_path: Path) -> None:
    """oc-02 alone and oc-03 alone each leave the board whole; both together cut it."""
    ledger = tmp_path / "sf.yaml"
    made = runner.invoke(app, ["campaign", "new", str(ledger), "--game", "risk-shadow-forces", "--player", "Ann",
                               "--player", "Bob", "--player", "Cat"])
    assert made.exit_code == 0, made.output
    alone = runner.invoke(app, ["campaign", "place", "devastation", "oc-03", "-c", str(ledger), "--dry-run"])
    assert alone.exit_code == 0, alone.output
    first = runner.invoke(app, ["campaign", "place", "devastation", "oc-02", "-c", str(ledger)])
    assert first.exit_code == 0, first.output
    before = ledger.read_bytes()
    second = runner.invoke(app, ["campaign", "place", "devastation", "oc-03", "-c", str(ledger)])
    refused(second, "R217", file_before=(ledger, before))
    assert "oc-03 would cut" in second.output


def test_only_devastated_territories_count_as_gone() -> None:
    """A fortification on oc-02 leaves it on the board (only a `keeps-board-connected` sticker's mark cuts a
    territory off); a devastation there does cut it. (A fortification is placed during a global game, or after
    game 4: the state is built here, not played to.)"""
    from scarbook.campaign.checks import impassable
    from scarbook.campaign.content import Content
    from scarbook.campaign.state import Mark, new_state
    from scarbook.compiler.validate import load_game

    content = Content(load_game("risk-shadow-forces").effective())
    state = new_state(["Ann", "Bob"])
    state.marks["oc-02"] = [Mark("fortification", "scar", "oc-02", "scar")]
    assert impassable(content, state) == set()
    state.marks["oc-03"] = [Mark("devastation", "scar", "oc-03", "scar")]
    assert impassable(content, state) == {"oc-03"}
