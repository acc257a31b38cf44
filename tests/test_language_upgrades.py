"""Upgrades to the campaign language (issue 38, quality.md "Upgrades"): a form the language replaced is still read,
with a warning X600 naming the replacement, and `scarbook migrate` rewrites it; the migrated game plays a scripted
campaign exactly as the old one does.

The old-form game is tests/packs/old-forms/panic-isles (an obligation on a threshold written with
`field`/`at_least`, edition 3's row in compiler/deprecations.py).
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import yaml
from typer.testing import CliRunner

from conftest import PACKS
from scarbook.cli.main import app
from scarbook.compiler.editions import CURRENT_EDITION, find
from scarbook.compiler.validate import validate_paths

OLD = PACKS / "old-forms" / "panic-isles"
runner = CliRunner()

# legal and illegal moves: a hero reaching panic 4 owes a Fallen (R316) before the next game; covered by a
# Rebuilt while still at panic 4, it is owed again
SCRIPT = [
    "game start --play Ann=kai --play Bob=raaz",
    "game end --winner Ann",
    "place panic kai",
    "game start --play Ann=kai --play Bob=raaz",  # panic 2: nothing owed
    "game end --winner Bob",
    "place panic kai",
    "place panic raaz",
    "status",
    "game start --play Ann=kai --play Bob=raaz",  # kai at 4: R316
    "place fallen raaz",
    "place fallen kai",
    "game start --play Ann=kai --play Bob=raaz",
    "game end --winner Ann",
    "place rebuilt kai",
    "status --format json",
    "game start --play Ann=mira --play Bob=raaz",  # kai's Fallen covered: owed again (R316)
    "place fallen kai",
    "game start --play Ann=mira --play Bob=raaz",
]


def play(folder: Path, tmp: Path) -> list[tuple[int, str]]:
    file = tmp / "c.yaml"
    made = runner.invoke(app, ["campaign", "new", str(file), "--game", str(folder), "--player", "Ann", "--player",
                               "Bob"])
    assert made.exit_code == 0, made.output
    out = []
    for line in SCRIPT:
        result = runner.invoke(app, ["campaign", *shlex.split(line), "-c", str(file)])
        out.append((result.exit_code, result.output.replace(str(tmp), "TMP").replace(str(folder), "GAME")))
    return out


def test_the_old_threshold_form_validates_with_a_warning_naming_its_replacement() -> None:
    report = validate_paths([OLD])
    assert report.ok
    found = [d for d in report.diagnostics if d.code == "X600"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "an obligation's 'field'/'at_least' was replaced in edition 3" in found[0].message
    assert "read as when: {stat: panic, at_least: 4}" in found[0].message
    assert "game.yaml:24:" in str(found[0].span)  # the line of `field:`


def test_declaring_edition_3_makes_the_old_form_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    shutil.copytree(OLD, folder)
    game = folder / "game.yaml"
    game.write_text(f"edition: {CURRENT_EDITION}\n" + game.read_text("utf-8"), "utf-8")
    report = validate_paths([folder])
    assert not report.ok
    assert [d.severity for d in report.diagnostics if d.code == "X600"] == ["error"]


def test_migrate_rewrites_it_to_the_language_form_and_twice_changes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    shutil.copytree(OLD, folder)
    result = runner.invoke(app, ["migrate", str(folder)])
    assert result.exit_code == 0, result.output
    assert "{field: panic, at_least: 4} -> {when: {stat: panic, at_least: 4}}" in result.output
    text = (folder / "game.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    assert data["edition"] == CURRENT_EDITION and find(data) == []
    assert data["game"]["campaign"]["owed_when"][0]["when"] == {"stat": "panic", "at_least": 4}
    assert "field" not in data["game"]["campaign"]["owed_when"][0]
    assert text.startswith("# A homebrew game written before edition 3")  # comments kept
    report = validate_paths([folder])
    assert report.ok and not [d for d in report.diagnostics if d.code == "X600"]
    again = runner.invoke(app, ["migrate", str(folder)])
    assert again.exit_code == 0 and again.output.strip() == "0 files changed"


def test_the_migrated_game_plays_a_campaign_exactly_as_the_old_one(tmp_path: Path) -> None:
    migrated = tmp_path / "new" / "g"
    shutil.copytree(OLD, migrated)
    assert runner.invoke(app, ["migrate", str(migrated)]).exit_code == 0
    (tmp_path / "old").mkdir()
    old_game = tmp_path / "old" / "g"
    shutil.copytree(OLD, old_game)
    before = play(old_game, tmp_path / "old")
    after = play(migrated, tmp_path / "new")
    assert before == after
    codes = [code for code, _ in before]
    assert codes == [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0], before
    assert "kai has 4 panic: a Fallen is owed there before the next game" in before[8][1]
    assert "kai has 4 panic" in before[15][1]
