"""examples/hearthline: a generation that inherits (issue 38), written only with the documented language: it
validates clean and its play-test (a whole campaign: a hand-over, heirs retired and lost, a sealed class opened by
a retirement, a chronicle filled in order, illegal moves refused with their codes) passes."""

from __future__ import annotations

from typer.testing import CliRunner

from conftest import EXAMPLES
from scarbook.cli.main import app


def test_hearthline_validates_clean() -> None:
    result = CliRunner().invoke(app, ["validate", str(EXAMPLES / "hearthline")])
    assert result.exit_code == 0 and result.output.strip().endswith("0 errors, 0 warnings in 1 file"), result.output


def test_hearthline_plays_its_whole_campaign() -> None:
    result = CliRunner().invoke(app, ["playtest", str(EXAMPLES / "hearthline" / "playtest.yaml")])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(" 0 differences"), result.output
