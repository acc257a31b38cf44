"""A misspelt target gets a refusal that suggests the id the player meant."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from conftest import refused
from scarbook.cli.main import app

runner = CliRunner()


def test_misspelt_target_suggests_the_right_id(tmp_path: Path) -> None:
    ledger = tmp_path / "c.yaml"
    assert runner.invoke(app, ["campaign", "new", str(ledger), "--game", "risk-legacy", "--player", "Ann",
                               "--player", "Bob", "--player", "Cat"]).exit_code == 0
    before = ledger.read_bytes()
    result = runner.invoke(app, ["campaign", "place", "coin", "alsaka", "-c", str(ledger)])
    refused(result, "R102", file_before=(ledger, before))
    assert ("R102: 'alsaka' is not a territory card that a Coin (+1 resource) can go on (did you mean 'alaska'?)"
            in result.output)
    assert ledger.read_bytes() == before
