"""`scarbook validate`, `games` and `show` through Typer's CliRunner: outputs and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import EXAMPLES, PACKS, refused
from scarbook.cli.main import app

runner = CliRunner()


def test_validate_shipped_content_exits_0() -> None:
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith("0 errors")


def test_validate_reports_every_problem_sorted_with_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(PACKS / "invalid")
    result = runner.invoke(app, ["validate", "bad-references", "unknown-key"])
    refused(result, "X102")
    lines = result.output.strip().splitlines()
    assert lines[-1] == "8 errors, 1 warning in 2 files"
    assert lines[0].startswith("bad-references/board.yaml:5:42: error X102: no region 'nort' (did you mean 'north'?)")
    keys = [(line.split(":")[0], int(line.split(":")[1]), int(line.split(":")[2])) for line in lines[:-1]]
    assert keys == sorted(keys)


def test_validate_json_format(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(PACKS / "invalid")
    result = runner.invoke(app, ["validate", "unknown-key", "--format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data[0] == {"file": "unknown-key/pack.yaml", "line": 4, "column": 5, "severity": "error", "code": "S001",
                       "message": "unknown key 'nmae' in a sticker (did you mean 'name'?)", "path": "/stickers/0/nmae"}


def test_strict_turns_warnings_into_errors() -> None:
    result = runner.invoke(app, ["validate", "--strict", str(PACKS / "invalid" / "replace-without-saying")])
    refused(result, "X504")
    assert ": warning " not in result.output


def test_strict_fails_on_shipped_warnings() -> None:
    result = runner.invoke(app, ["validate", "--strict"])
    refused(result, "X310")


def test_missing_path_is_a_usage_error() -> None:
    result = runner.invoke(app, ["validate", "no/such/pack"])
    assert result.exit_code == 2


def test_unknown_option_is_a_usage_error() -> None:
    assert runner.invoke(app, ["validate", "--bogus"]).exit_code == 2


def test_games_lists_the_four_games() -> None:
    result = runner.invoke(app, ["games", "--format", "json"])
    assert result.exit_code == 0
    ids = [g["id"] for g in json.loads(result.output)]
    assert ids == ["risk-legacy", "risk-shadow-forces", "risk-warhammer-40k", "shadow-blades"]


def test_show_unknown_game_is_exit_2_with_suggestion() -> None:
    result = runner.invoke(app, ["show", "risk-legasy"])
    assert result.exit_code == 2 and "did you mean 'risk-legacy'" in result.output


def test_show_board_json_shape() -> None:
    result = runner.invoke(app, ["show", "risk-legacy", "board", "--format", "json"])
    assert result.exit_code == 0
    board = json.loads(result.output)
    assert board["game"] == "risk-legacy"
    assert {"id", "name", "bonus"} <= set(board["regions"][0])
    assert {"id", "name", "regions", "neighbors"} <= set(board["territories"][0])


@pytest.mark.parametrize("game", ["risk-legacy", "risk-shadow-forces", "risk-warhammer-40k", "shadow-blades"])
@pytest.mark.parametrize("part", ["board", "cards", "stickers", "envelopes", "rules"])
def test_show_every_part_of_every_game(game: str, part: str) -> None:
    text = runner.invoke(app, ["show", game, part])
    assert text.exit_code == 0, text.output
    data = runner.invoke(app, ["show", game, part, "--format", "json"])
    assert data.exit_code == 0 and json.loads(data.output)["game"] == game


def test_show_with_a_pack(tmp_path: Path) -> None:
    result = runner.invoke(app, ["show", "risk-legacy", "stickers", "--pack", str(EXAMPLES / "new-scar")])
    assert result.exit_code == 0
    assert "Sinkhole" not in result.output  # sealed in the pack's envelope until opened


def test_show_with_a_broken_pack_is_exit_1() -> None:
    result = runner.invoke(app, ["show", "risk-legacy", "--pack", str(PACKS / "invalid" / "bad-checks")])
    refused(result, "X401")


def test_help_has_examples() -> None:
    for command in (["--help"], ["validate", "--help"], ["games", "--help"], ["show", "--help"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 0 and "Example" in result.output, command


def test_a_homebrew_game_folder_is_a_game_and_its_neighbors_lists_are_its_board() -> None:
    game = str(EXAMPLES / "tiny-game")
    result = runner.invoke(app, ["show", game, "board", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["edges"] == 2  # declared with `neighbors:` lists only, no `edges:`
    assert {t["id"]: t["neighbors"] for t in data["territories"]}["east-isle"] == ["north-isle", "south-isle"]
    assert "3 territories, 2 edges, 1 region\n" in runner.invoke(app, ["show", game, "board"]).output
    tables = runner.invoke(app, ["tables", game, "--format", "csv"])
    assert tables.exit_code == 0 and "Archipelago" in tables.output
    missing = runner.invoke(app, ["show", "no/such/folder", "board"])
    assert missing.exit_code == 2 and "homebrew game" in missing.output
