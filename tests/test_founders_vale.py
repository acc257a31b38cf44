"""examples/founders-vale: a competitive village legacy game written only with the campaign language, played
whole through the CLI with illegal moves mixed in (issue 38: prove the language general).

Owned districts (a claim on a region), "your own plot or the Commons once open" (any), a packet opening on
two conditions (all), a level per player from a count (charter level), an obligation at once (a banner before
anything else), points per game adding up, the campaign's end on a condition and its outcome with a tie-break.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from test_homebrew_options import do, no, run, status
from typer.testing import CliRunner

from conftest import EXAMPLES
from scarbook.cli.main import app

START = "game start --play Ann --play Bob"


def test_a_whole_founders_vale_campaign(tmp_path: Path) -> None:
    game = tmp_path / "vale"
    shutil.copytree(EXAMPLES / "founders-vale", game)
    file = tmp_path / "vale.yaml"
    made = CliRunner().invoke(app, ["campaign", "new", str(file), "--game", str(game), "--player", "Ann",
                                    "--player", "Bob"])
    assert made.exit_code == 0, made.output
    do(file, "place charter north-district --by Ann")
    no(file, "place charter north-district --by Bob", "R241", "the owner of north-district: Ann; nobody needed")
    no(file, "place charter the-commons --by Bob", "R241", "a charter never goes on the Commons (not so: target-is "
       "(ids the-commons) holds)")
    no(file, "place charter south-district --by Ann", "R241", "charter placed by Ann: 1; 0 needed")
    do(file, "place charter south-district --by Bob")
    no(file, "place workshop quay --by Ann", "R241", "a workshop goes on a plot of your own district, or on the "
       "Commons once it is open")
    no(file, "place workshop green --by Ann", "R241", "not so: packet commons is open")
    do(file, "place workshop mill-row --by Ann", "place workshop ford-lane --by Ann", "place workshop quay --by Bob")
    no(file, "open commons", "R313")  # three workshops, but no game played yet
    do(file, START, "game end --winner Ann --score Ann=5 --score Bob=3")
    no(file, START, "R310", "open the sealed packet 'commons' first")
    do(file, "open commons", "place workshop green --by Bob")
    no(file, "place guildhall mill-row --by Ann", "R241", "Ann's charter level: 1; at least 2 needed")
    do(file, "place workshop orchard --by Ann", "place guildhall mill-row --by Ann")
    no(file, "place workshop tannery --by Bob", "R317", "first Ann owes banner")
    no(file, "place banner south-district --by Ann", "R241", "a banner flies over your own district")
    do(file, "place banner north-district --by Ann", "place workshop tannery --by Bob")
    levels = status(file)["levels"][0]["values"]
    assert levels == {"Ann": {"level": 2, "value": 3}, "Bob": {"level": 1, "value": 2}}  # the green is not his
    do(file, START, "game end --winner Bob --score Ann=2 --score Bob=4", "place workshop kiln-yard --by Bob",
       START, "game end --winner Bob --score Ann=3 --score Bob=3")
    outcome = status(file)["outcome"]
    assert outcome["over"] and outcome["winners"] == ["Bob"]  # 10 points each; Bob has 4 workshops, Ann 3
    assert [(r["player"], r["values"]) for r in outcome["standings"]] == [("Bob", [10, 4]), ("Ann", [10, 3])]
    no(file, START, "R351", "the campaign ends after the third game")
    assert "The campaign is won by Bob" in run(file, "status").output
    assert run(file, "check").exit_code == 0
