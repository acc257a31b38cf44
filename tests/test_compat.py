"""The compatibility corpus (tests/compat/): packs, a game and campaign ledgers made by earlier releases,
loaded by today's scarbook. They validate (warnings allowed), migrate cleanly and for good, and their
campaigns check and take their next game; an event added by hand is still an error at its line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from conftest import refused
from scarbook.cli.main import app
from scarbook.compiler.editions import CURRENT_EDITION
from scarbook.compiler.migrate import migrate_file
from scarbook.compiler.validate import validate_paths

runner = CliRunner()
CORPUS = Path(__file__).parent / "compat"
#: Every pack and game of the corpus, with the warnings for old constructs (X600, X602) today's scarbook finds in it.
CONTENT = {
    "v0.1.0/frontier-rules": 10,  # the four count checks, cites of the Risk Legacy transcription files
    "v0.1.0/iron-isles": 2,  # a homebrew game's one-per-game and once-per-target
    "v0.2.0/house-rules": 0,  # `scarbook new pack` of 0.2.0: nothing old but the missing edition
    "main-2940a98/beacon-league": 1,  # edition 4's overall_winner (most signatures, a named-mark tie bonus)
    "main-2940a98/harbor-watch": 1,  # edition 4's overall_winner of a team (`team: true, count, at_least`)
}
#: The warnings that say a construct was replaced (`scarbook migrate` rewrites it).
OLD_FORM = ("X600", "X602")
RELEASE_A = "v0.1.0"
RELEASE_B = "v0.2.0"


def codes(paths: list[Path]) -> list[str]:
    return [d.code for d in validate_paths(paths).diagnostics]


@pytest.mark.parametrize("name", sorted(CONTENT))
def test_content_of_an_earlier_release_validates_with_warnings(name: str) -> None:
    report = validate_paths([CORPUS / name])
    assert report.ok, [d.render() for d in report.diagnostics if d.is_error]
    old = [d for d in report.diagnostics if d.code in OLD_FORM]
    assert len(old) == CONTENT[name]
    assert all(not d.is_error and "scarbook migrate" in d.message for d in old)


@pytest.mark.parametrize("name", sorted(CONTENT))
def test_migrated_content_validates_without_edition_warnings_and_keeps_its_comments(name: str,
                                                                                   tmp_path: Path) -> None:
    folder = tmp_path / Path(name).name
    shutil.copytree(CORPUS / name, folder)
    before = {p.name: p.read_text() for p in folder.glob("[!.]*.yaml")}
    result = runner.invoke(app, ["migrate", str(folder)])
    assert result.exit_code == 0, result.output
    report = validate_paths([folder])
    assert report.ok and not {"X600", "X602"} & {d.code for d in report.diagnostics}
    for path in folder.glob("[!.]*.yaml"):
        text = path.read_text()
        if "playtest" in yaml.safe_load(before[path.name]):  # a play-test is not content: migrate leaves it alone
            assert text == before[path.name]
            continue
        assert yaml.safe_load(text)["edition"] == CURRENT_EDITION
        comments = [ln.strip() for ln in before[path.name].splitlines() if ln.strip().startswith("#")]
        assert all(c in text for c in comments), path
        # the old keys' order: the keys of every top-level section come in the same order as before
        assert list(yaml.safe_load(text)) == ["edition", *[k for k in yaml.safe_load(before[path.name])
                                                           if k != "edition"]]
    again = runner.invoke(app, ["migrate", str(folder)])
    assert again.exit_code == 0 and again.output.strip() == "0 files changed"
    assert {p.name: p.read_text() for p in folder.glob("[!.]*.yaml")} != before


def test_a_play_test_of_an_earlier_release_passes_before_and_after_migrating(tmp_path: Path) -> None:
    """harbor-watch as 2940a98 copied it (the team's `overall_winner`) with its own 85-step play-test: every step
    behaves as that release said it would, read with the old form and after `scarbook migrate` rewrote it."""
    folder = tmp_path / "harbor-watch"
    shutil.copytree(CORPUS / "main-2940a98" / "harbor-watch", folder)
    for _ in ("old form", "migrated"):
        result = runner.invoke(app, ["playtest", str(folder / "playtest.yaml")])
        assert result.exit_code == 0 and "85 steps, 85 as expected, 0 differences" in result.output, result.output
        assert runner.invoke(app, ["migrate", str(folder)]).exit_code == 0
    text = (folder / "game.yaml").read_text()
    assert "outcome:" in text and "overall_winner" not in text


def test_migrate_dry_run_shows_a_diff_and_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "frontier-rules"
    shutil.copytree(CORPUS / RELEASE_A / "frontier-rules", folder)
    before = (folder / "pack.yaml").read_bytes()
    result = runner.invoke(app, ["migrate", str(folder), "--dry-run"])
    assert result.exit_code == 0
    assert "-      - {check: one-per-game, group: [frontier-rules-scar, bunker]" in result.output
    assert "+      - {check: limit, max: 1, of: [frontier-rules-scar, bunker], per: [player, game], only: " \
           "during-a-game, cite: \"rulebook § Scars Cards\"}" in result.output
    assert (folder / "pack.yaml").read_bytes() == before


def test_migration_means_what_the_old_form_meant(tmp_path: Path) -> None:
    """The data loading reads from the old file is the data of the migrated file (same checks, same cites)."""
    from scarbook.compiler.load import load_document

    for name in CONTENT:
        for path in sorted((CORPUS / name).glob("[!.]*.yaml")):
            old, _ = load_document(path)
            migrated = tmp_path / f"{Path(name).name}-{path.name}"
            migrated.write_text(migrate_file(path, path.name).new)
            new, problems = load_document(migrated)
            assert not [d for d in problems if d.code in OLD_FORM]
            assert {k: v for k, v in new.data.items() if k != "edition"} == \
                {k: v for k, v in old.data.items() if k != "edition"}


def _campaign(tmp_path: Path, release: str) -> Path:
    folder = tmp_path / release
    shutil.copytree(CORPUS / release, folder)
    return folder


def test_a_ledger_of_an_earlier_release_with_an_event_refused_today_checks_with_a_warning(tmp_path: Path) -> None:
    ledger = _campaign(tmp_path, RELEASE_B) / "bunker-world.yaml"
    result = runner.invoke(app, ["campaign", "check", "-c", str(ledger)])
    assert result.exit_code == 0, result.output
    assert "bunker-world.yaml:27:3: warning L016: recorded under an earlier release; today's rules would refuse " \
           "it: R230 no game is in progress" in result.output
    status = runner.invoke(app, ["campaign", "status", "-c", str(ledger)])
    assert status.exit_code == 0 and "warning: line 27 was recorded under an earlier release" in status.output
    sheet = runner.invoke(app, ["campaign", "sheet", "--format", "svg", "--out", str(ledger.with_suffix(".svg")),
                                "-c", str(ledger)])
    assert sheet.exit_code == 0 and "warning: line 27 was recorded under an earlier release; today's rules would " \
        "refuse it: R230" in sheet.output


def test_the_next_game_is_recorded_and_starts_a_stretch(tmp_path: Path) -> None:
    ledger = _campaign(tmp_path, RELEASE_B) / "bunker-world.yaml"
    start = ["campaign", "game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic",
             "--play", "Cat=die-mechaniker", "--start", "Ann=alberta", "--start", "Bob=egypt", "--start",
             "Cat=peru", "-c", str(ledger)]
    result = runner.invoke(app, start)
    assert result.exit_code == 0, result.output
    head = yaml.safe_load(ledger.read_text())["campaign"]
    assert head["format"] == 2 and [s["from"] for s in head["recorded_under"]] == [25]
    check = runner.invoke(app, ["campaign", "check", "-c", str(ledger)])
    assert check.exit_code == 0 and "L016" in check.output and "L004" not in check.output
    # the group plays on: the game ends, a reward is taken
    ended = runner.invoke(app, ["campaign", "game", "end", "--winner", "Bob", "--held-on", "Ann", "--held-on", "Cat",
                                "-c", str(ledger)])
    assert ended.exit_code == 0, ended.output
    assert yaml.safe_load(ledger.read_text())["campaign"]["recorded_under"][0]["from"] == 25  # one stretch


def test_an_event_added_by_hand_after_the_upgrade_is_an_error_at_its_line(tmp_path: Path) -> None:
    ledger = _campaign(tmp_path, RELEASE_B) / "bunker-world.yaml"
    runner.invoke(app, ["campaign", "game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic",
                        "--play", "Cat=die-mechaniker", "-c", str(ledger)])
    text = ledger.read_text()
    ledger.write_text(text + "- {event: place, sticker: major-city, target: great-britain, by: Bob, name: Twice}\n")
    line = len(text.splitlines()) + 1
    result = runner.invoke(app, ["campaign", "check", "-c", str(ledger)])
    assert result.exit_code == 1
    assert f"bunker-world.yaml:{line}:3: error R202" in result.output
    assert "bunker-world.yaml:29:3: warning L016" in result.output  # still a warning (the header grew 2 lines)
    refused(runner.invoke(app, ["campaign", "game", "end", "--winner", "Ann", "-c", str(ledger)]), "L007")


def test_an_old_event_edited_by_hand_after_the_upgrade_loses_its_grace(tmp_path: Path) -> None:
    ledger = _campaign(tmp_path, RELEASE_B) / "bunker-world.yaml"
    runner.invoke(app, ["campaign", "game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic",
                        "--play", "Cat=die-mechaniker", "-c", str(ledger)])
    text = ledger.read_text().replace("target: greenland, by: Ann}", "target: iceland, by: Ann}")
    ledger.write_text(text)
    result = runner.invoke(app, ["campaign", "check", "-c", str(ledger)])
    assert result.exit_code == 1
    assert "warning L018: events 1-24 changed since scarbook recorded them" in result.output
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "iceland" in ln)
    assert f"bunker-world.yaml:{line}:3: error R230" in result.output


def test_a_first_release_campaign_with_its_old_pack_checks_and_plays_on(tmp_path: Path) -> None:
    ledger = _campaign(tmp_path, RELEASE_A) / "frontier-world.yaml"
    check = runner.invoke(app, ["campaign", "check", "-c", str(ledger)])
    assert check.exit_code == 0, check.output
    assert "warning L004" in check.output
    result = runner.invoke(app, ["campaign", "game", "start", "--play", "Ann=khan-industries", "--play",
                                 "Bob=saharan-republic", "--play", "Cat=die-mechaniker", "-c", str(ledger)])
    assert result.exit_code == 0, result.output
    # the pack's old one-per-game, read as the scoped limit, still refuses a second scar by Ann in one game
    placed = runner.invoke(app, ["campaign", "place", "bunker", "china", "--by", "Ann", "-c", str(ledger)])
    assert placed.exit_code == 0, placed.output
    refused(runner.invoke(app, ["campaign", "place", "frontier-rules-scar", "brazil", "--by", "Ann", "-c",
                                str(ledger)]), "R238")
    after = runner.invoke(app, ["campaign", "check", "-c", str(ledger)])
    assert after.exit_code == 0 and "L004" not in after.output


def test_a_ledger_of_a_newer_format_is_refused_not_misread(tmp_path: Path) -> None:
    ledger = _campaign(tmp_path, RELEASE_B) / "bunker-world.yaml"
    ledger.write_text(ledger.read_text().replace("  players: [Ann, Bob, Cat]\n",
                                                 "  players: [Ann, Bob, Cat]\n  format: 3\n"))
    refused(runner.invoke(app, ["campaign", "check", "-c", str(ledger)]), "L017")
