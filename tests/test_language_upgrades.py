"""Upgrades to the campaign language (issue 38, quality.md "Upgrades"): a form the language replaced is still read,
with a warning X600 naming the replacement, and `scarbook migrate` rewrites it; the migrated game plays a scripted
campaign exactly as the old one does.

The old-form game is tests/packs/old-forms/panic-isles: an obligation on a threshold written with `field`/`at_least`
and packet triggers in their own forms (`placed`/`count`, `after_game`, `event: game-ended`), edition 3's rows in
compiler/deprecations.py; with two packets more (`EDITION_4`), the trigger forms edition 4 replaced
(`signatures_by_one_player`, `event: player-eliminated`).
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
    "open first-end",  # no game ended yet: R313
    "game start --play Ann=kai --play Bob=raaz",
    "game end --winner Ann",
    "open first-end",
    "place panic kai",
    "game start --play Ann=kai --play Bob=raaz",  # panic 2: nothing owed
    "game end --winner Bob",
    "place panic kai",
    "place panic raaz",
    "status",
    "game start --play Ann=kai --play Bob=raaz",  # kai at 4: R316
    "place fallen raaz",
    "place fallen kai",
    "game start --play Ann=kai --play Bob=raaz",  # the first Fallen opens first-fall: R31x, open it first
    "open third-game",  # two games ended: R313
    "open first-fall",
    "game start --play Ann=kai --play Bob=raaz",
    "game end --winner Ann",
    "open third-game",
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


def test_the_old_forms_validate_with_a_warning_naming_each_replacement() -> None:
    report = validate_paths([OLD])
    assert report.ok
    found = [d for d in report.diagnostics if d.code == "X600"]
    assert {d.severity for d in found} == {"warning"}
    said = [d.message.split(" (this file")[0] for d in found]
    assert said == [
        "an obligation's 'field'/'at_least' was replaced in edition 3 of the content format; read as when: "
        "{stat: panic, at_least: 4} (a condition on each target)",
        "the packet trigger 'placed' was replaced in edition 3 of the content format; read as when: {count: "
        "{sticker: fallen, status: any}, at_least: 1}",
        "the packet trigger 'after_game' was replaced in edition 3 of the content format; read as when: {game: "
        "played, at_least: 3}",
        "the packet trigger 'event' was replaced in edition 3 of the content format; read as when: {game: played, "
        "at_least: 1}"], said
    assert "game.yaml:24:" in str(found[0].span)  # the line of `field:`


def test_declaring_edition_3_makes_the_old_form_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    shutil.copytree(OLD, folder)
    game = folder / "game.yaml"
    game.write_text(f"edition: {CURRENT_EDITION}\n" + game.read_text("utf-8"), "utf-8")
    report = validate_paths([folder])
    assert not report.ok
    assert {d.severity for d in report.diagnostics if d.code == "X600"} == {"error"}


def test_migrate_rewrites_it_to_the_language_form_and_twice_changes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    shutil.copytree(OLD, folder)
    result = runner.invoke(app, ["migrate", str(folder)])
    assert result.exit_code == 0, result.output
    assert "{field: panic, at_least: 4} -> {when: {stat: panic, at_least: 4}}" in result.output
    assert "{placed: fallen, count: 1} -> {count: {sticker: fallen, status: any}, at_least: 1}" in result.output
    assert "{after_game: 3} -> {game: played, at_least: 3}" in result.output
    assert "{event: game-ended} -> {game: played, at_least: 1}" in result.output
    text = (folder / "game.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    assert data["edition"] == CURRENT_EDITION and find(data) == []
    assert data["game"]["campaign"]["owed_when"][0]["when"] == {"stat": "panic", "at_least": 4}
    assert [e["trigger"]["when"] for e in data["envelopes"]] == [
        {"count": {"sticker": "fallen", "status": "any"}, "at_least": 1}, {"game": "played", "at_least": 3},
        {"game": "played", "at_least": 1}]
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
    refused = [line for line, (code, _out) in zip(SCRIPT, before, strict=True) if code]
    assert refused == ["open first-end", "game start --play Ann=kai --play Bob=raaz", "game start --play Ann=kai "
                       "--play Bob=raaz", "open third-game", "game start --play Ann=mira --play Bob=raaz"], before
    assert "R313" in before[0][1] and "R313" in before[SCRIPT.index("open third-game")][1]
    outs = [out for _code, out in before]
    assert any("kai has 4 panic: a Fallen is owed there before the next game" in o for o in outs)


# edition 4: the last trigger forms that say a state of the campaign (signatures, eliminations)
EDITION_4 = """\
  - {id: second-sign, name: Second signature, contents: [],
     trigger: {text: Open when a player signs twice., when: {signatures_by_one_player: 2}}}
  - {id: first-out, name: First out, contents: [],
     trigger: {text: Open when a player is eliminated., when: {event: player-eliminated}}}
"""
SCRIPT_4 = ["open second-sign", "open first-out", "game start --play Ann=kai --play Bob=raaz",
            "game end --winner Ann", "open first-end", "open second-sign",  # one signature: R313
            "game start --play Ann=kai --play Bob=raaz", "game end --winner Bob", "open second-sign",
            "game start --play Ann=kai --play Bob=raaz", "game end --winner Ann --eliminated Bob",
            "open first-out", "open third-game", "open second-sign"]


def _with_edition_4(tmp: Path) -> Path:
    folder = tmp / "g"
    shutil.copytree(OLD, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text("utf-8") + EDITION_4, "utf-8")
    return folder


def _play_4(folder: Path, tmp: Path) -> list[tuple[int, str]]:
    file = tmp / "c4.yaml"
    made = runner.invoke(app, ["campaign", "new", str(file), "--game", str(folder), "--player", "Ann", "--player",
                               "Bob"])
    assert made.exit_code == 0, made.output
    out = []
    for line in SCRIPT_4:
        result = runner.invoke(app, ["campaign", *shlex.split(line), "-c", str(file)])
        out.append((result.exit_code, result.output.replace(str(tmp), "TMP").replace(str(folder), "GAME")))
    return out


def test_edition_4_trigger_forms_warn_migrate_and_play_the_same(tmp_path: Path) -> None:
    old = _with_edition_4(tmp_path / "old")
    report = validate_paths([old])
    assert report.ok
    said = [d.message.split(" (this file")[0] for d in report.diagnostics if d.code == "X600"][-2:]
    assert said == [
        "the packet trigger 'signatures_by_one_player' was replaced in edition 4 of the content format; read as "
        "when: {signatures: {most: true}, at_least: 2}",
        "the packet trigger 'event' (faction-eliminated, player-eliminated) was replaced in edition 4 of the content "
        "format; read as when: {game: eliminated, at_least: 1}"], said
    new = _with_edition_4(tmp_path / "new")
    result = runner.invoke(app, ["migrate", str(new)])
    assert result.exit_code == 0, result.output
    data = yaml.safe_load((new / "game.yaml").read_text("utf-8"))
    assert data["edition"] == CURRENT_EDITION == 5 and find(data) == []
    assert [e["trigger"]["when"] for e in data["envelopes"][-2:]] == [
        {"signatures": {"most": True}, "at_least": 2}, {"game": "eliminated", "at_least": 1}]
    assert not [d for d in validate_paths([new]).diagnostics if d.code == "X600"]
    before, after = _play_4(old, tmp_path / "old"), _play_4(new, tmp_path / "new")
    assert before == after
    refused = [line for line, (code, _out) in zip(SCRIPT_4, before, strict=True) if code]
    assert refused == ["open second-sign", "open first-out", "open second-sign", "open second-sign"], before
