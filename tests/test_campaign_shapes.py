"""Campaign shapes beyond Risk's (issue 24 items 1-7), in-process: team results in ledgers edited by hand, the
neighbour check following later placements, obligations that end when the sticker cannot go, tracks' bounds,
chapters' tries, and the competitive games left as they were."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from conftest import EXAMPLES, refused, snapshot
from scarbook.cli.main import app


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["campaign", *args])
    return result.exit_code, result.output


def harbor(tmp_path: Path) -> Path:
    file = tmp_path / "c.yaml"
    rc, out = run("new", str(file), "--game", str(EXAMPLES / "harbor-watch"), "--player", "Ann", "--player", "Bob")
    assert rc == 0, out
    return file


def do(file: Path, *lines: str) -> None:
    for line in lines:
        rc, out = run(*line.split(), "-c", str(file))
        assert rc == 0, (line, out)


def status(file: Path) -> dict:  # type: ignore[type-arg]
    rc, out = run("status", "--format", "json", "-c", str(file))
    assert rc == 0, out
    return json.loads(out)  # type: ignore[no-any-return]


PLAY = "game start --play Ann=ada --play Bob=bram"


def test_next_to_follows_a_mark_placed_later(tmp_path: Path) -> None:
    file = harbor(tmp_path)
    do(file, PLAY, *["place panic salt-harbor-card"] * 4, "game end --team lost",
       "place limp ada --by Ann", "place fear bram --by Bob", "place fallen salt-harbor-card", "open first-fall", PLAY)
    result = CliRunner().invoke(app, ["campaign", "place", "relief-camp", "market-hill", "-c", str(file)])
    refused(result, "R250", snapshot(file))
    rc, out = run("where", "relief-camp", "-c", str(file))
    assert rc == 0 and out.split() == ["old-quay", "reed-docks"], out
    do(file, *["place panic lantern-point-card"] * 4, "game end --team won",
       "place character-upgrade ada --by Ann --name grit --value 3",
       "place character-upgrade bram --by Bob --name grit --value 4")
    assert [o["target"] for o in status(file)["owed"]] == ["lantern-point-card"]
    do(file, "place fallen lantern-point-card", PLAY)
    rc, out = run("where", "relief-camp", "-c", str(file))
    assert rc == 0 and out.split() == ["old-quay", "market-hill", "reed-docks"], out  # Lantern Point fell since


def test_the_second_try_comes_only_after_a_loss_and_the_track_keeps_its_bounds(tmp_path: Path) -> None:
    file = harbor(tmp_path)
    do(file, PLAY, "game end --team lost", "place limp ada --by Ann", "place limp bram --by Bob", PLAY)
    data = status(file)
    assert (data["chapter"]["now"], data["chapter"]["try"]) == (1, 2)
    assert [(g["team"], g["chapter"], g["winner"]) for g in data["games"]] == [
        ("lost", "month 1, try 1", None), (None, "month 1, try 2", None)]
    do(file, "game end --team lost", "place fear ada --by Ann", "place fear bram --by Bob")
    data = status(file)
    assert (data["chapter"]["now"], data["chapter"]["try"]) == (2, 1)  # two tries at most
    assert data["chapter"]["results"] == {"1": "lost"}
    assert data["tracks"][0]["value"] == 6  # 5 + 1 + 1, at most 6
    assert data["overall_winner"]["result"] is None and data["overall_winner"]["won"] == 0


def test_a_team_result_edited_by_hand_is_checked(tmp_path: Path) -> None:
    file = harbor(tmp_path)
    do(file, PLAY, "game end --team won")
    text = file.read_text()
    file.write_text(text.replace("team: won", "team: drawn"))
    rc, out = run("check", "-c", str(file))
    assert rc == 1 and "error R350: say how the team did with --team won or --team lost, not 'drawn'" in out, out
    file.write_text(text.replace("{event: game-end, team: won, ", "{event: game-end, "))
    rc, out = run("check", "-c", str(file))
    assert rc == 1 and "a 'game-end' event needs 'winner' (or 'team' in a co-operative game)" in out, out


def test_a_competitive_game_takes_no_team_result(tmp_path: Path) -> None:
    file = tmp_path / "b.yaml"
    rc, out = run("new", str(file), "--game", str(EXAMPLES / "bridge-isles"), "--player", "Ann", "--player", "Bob")
    assert rc == 0, out
    do(file, "game start --play Ann=gulls --play Bob=crabs")
    result = CliRunner().invoke(app, ["campaign", "game", "end", "--team", "won", "-c", str(file)])
    refused(result, "R350", snapshot(file))
    assert "error R350: Bridge Isles is not co-operative: leave out --team and say who won with --winner NAME" \
        in result.output
    result = CliRunner().invoke(app, ["campaign", "game", "end", "--team", "maybe", "-c", str(file)])
    assert result.exit_code == 2 and "--team takes won or lost, not 'maybe'" in result.output
    do(file, "game end --winner Ann")
    assert status(file)["games"][0]["winner"] == "Ann" and "chapter" not in status(file)
