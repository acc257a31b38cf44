"""Content editions: old constructs read with their old meaning (X600), `migrate` in the file's own text,
the deprecation table's rows one by one, S010's list of allowed values, and the release's version."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from scarbook.cli.main import app
from scarbook.compiler.deprecations import COUNT_CHECKS, DEPRECATIONS, TRANSCRIPTIONS
from scarbook.compiler.editions import CURRENT_EDITION, declared_edition, find
from scarbook.compiler.load import load_document
from scarbook.compiler.migrate import migrate_file, migrate_text
from scarbook.compiler.schemacheck import choices, close_enough
from scarbook.compiler.validate import validate_paths

runner = CliRunner()

PACK = """\
{edition}pack: {{id: old-pack, title: Old pack, extends: risk-legacy}}
stickers:
  - id: rift
    name: Rift
    kind: scar
    slot: scar
    targets: [territory]
    supply: 3
    effect: A rift.
    checks:
      - {{check: {check}, cite: "001_e430d55b72a215e6.txt § Scars Cards"}}
"""


def write(tmp_path: Path, check: str, edition: str = "") -> Path:
    folder = tmp_path / "old-pack"
    folder.mkdir(exist_ok=True)
    (folder / "pack.yaml").write_text(PACK.format(edition=edition, check=check))
    return folder


@pytest.mark.parametrize("check", sorted(COUNT_CHECKS))
def test_each_count_check_is_read_as_the_scoped_limit_with_a_warning_naming_it(check: str, tmp_path: Path) -> None:
    folder = write(tmp_path, check)
    report = validate_paths([folder])
    assert report.ok
    found = [d for d in report.diagnostics if d.code == "X600"]
    assert [d.span.line for d in found] == [11, 11]  # the check, and its cite
    assert f"the check '{check}' was replaced in edition 2" in found[0].message
    assert "{check: limit, max: 1" in found[0].message and "scarbook migrate" in found[0].message
    doc, _ = load_document(folder / "pack.yaml")
    limit = doc.data["stickers"][0]["checks"][0]
    per, only = COUNT_CHECKS[check]
    assert limit["check"] == "limit" and limit["max"] == 1 and limit["per"] == per and limit.get("only", "") == only
    assert limit["cite"] == "rulebook § Scars Cards"


@pytest.mark.parametrize("check", sorted(COUNT_CHECKS))
def test_content_declaring_edition_2_gets_an_error_for_the_old_form(check: str, tmp_path: Path) -> None:
    report = validate_paths([write(tmp_path, check, edition="edition: 2\n")])
    errors = [d for d in report.diagnostics if d.is_error]
    assert [d.code for d in errors] == ["X600", "X600"]
    assert "this file declares edition 2: write" in errors[0].message
    assert "S010" not in [d.code for d in report.diagnostics]  # one error, not a schema error as well


def test_an_edition_newer_than_this_scarbook_is_refused(tmp_path: Path) -> None:
    report = validate_paths([write(tmp_path, "slot-free", edition=f"edition: {CURRENT_EDITION + 1}\n")])
    assert [d.code for d in report.diagnostics if d.is_error] == ["X601", "X600"]  # and the old cite in it


def test_every_transcription_file_maps_onto_a_source_its_game_declares() -> None:
    from scarbook.compiler.sources import declared
    from scarbook.compiler.validate import load_game

    for name, (game, source) in TRANSCRIPTIONS.items():
        assert source in declared(load_game(game).meta), name


def test_a_cite_naming_a_file_no_game_ships_is_still_x314(tmp_path: Path) -> None:
    folder = write(tmp_path, "slot-free")
    text = (folder / "pack.yaml").read_text().replace("001_e430d55b72a215e6.txt", "999_notours.txt")
    (folder / "pack.yaml").write_text(text)
    assert "X314" in [d.code for d in validate_paths([folder]).diagnostics if d.is_error]


def test_rows_are_found_outermost_first_and_do_not_touch_new_forms() -> None:
    data = yaml.safe_load(PACK.format(edition="", check="one-per-game"))
    assert [f.row.name for f in find(data)] == ["the check 'one-per-game'", "a cite naming a transcription file"]
    migrated = yaml.safe_load(migrate_text(PACK.format(edition="", check="one-per-game"))[0])
    assert find(migrated) == [] and declared_edition(migrated) == CURRENT_EDITION
    # the cites; edition 3: the obligation threshold, 3 triggers; edition 4: 3 triggers; edition 5: overall_winner
    assert len(DEPRECATIONS) == len(COUNT_CHECKS) + 9


BLOCK = """\
# a header comment
stickers:  # the stickers
  - id: rift
    checks:
      - check: one-per-player   # a claim
        group: [rift, 'other']  # both
        cite: 'house § Rift'
      - {check: once-per-target, cite: "house § Rift"}   # trailing
      - {check: one-reward-per-game, pool: gold, cite: "house § Rift"}
"""


def test_migrate_edits_block_and_flow_mappings_in_their_own_style() -> None:
    text, changes = migrate_text(BLOCK, "b.yaml")
    assert text == """\
# a header comment
edition: 5  # the content format this file is written in
stickers:  # the stickers
  - id: rift
    checks:
      - check: limit   # a claim
        max: 1
        of: [rift, 'other']
        per: [player]
        cite: 'house § Rift'
      - {check: limit, max: 1, per: [target], cite: "house § Rift"}   # trailing
      - {check: limit, max: 1, of: [rift], per: [player, game], only: between-games, cite: "house § Rift"}
"""
    assert changes[0] == "b.yaml:5: {check: one-per-player, group: [rift, other]} -> {check: limit, max: 1, " \
                         "of: [rift, other], per: [player]}"
    assert migrate_text(text, "b.yaml") == (text, [])


def test_migrate_keeps_crlf_line_breaks_and_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + BLOCK.replace("\n", "\r\n").encode("utf-8"))
    result = migrate_file(path, "w.yaml")
    assert result.new.startswith(f"\ufeff# a header comment\r\nedition: {CURRENT_EDITION}")
    assert "\n" not in result.new.replace("\r\n", "")


def test_migrate_refuses_a_file_that_is_not_yaml_and_changes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("stickers: [\n  - {check: one-per-game\n")
    ok = tmp_path / "ok.yaml"
    ok.write_text(BLOCK)
    result = runner.invoke(app, ["migrate", str(bad), str(ok)])
    assert result.exit_code == 1 and "not migrated" in result.output
    assert bad.read_text() == "stickers: [\n  - {check: one-per-game\n"
    assert f"edition: {CURRENT_EDITION}" in ok.read_text()


def test_scaffolds_declare_the_current_edition_and_need_no_migration(tmp_path: Path) -> None:
    runner.invoke(app, ["new", "game", str(tmp_path / "g")])
    for path in (tmp_path / "g").glob("[!.]*.yaml"):
        assert yaml.safe_load(path.read_text())["edition"] == CURRENT_EDITION
    result = runner.invoke(app, ["migrate", str(tmp_path / "g")])
    assert result.exit_code == 0 and result.output.strip() == "0 files changed"


def test_s010_names_allowed_values_in_whole_words_and_no_unrelated_suggestion() -> None:
    values = [f"value-number-{i}" for i in range(40)]
    listed = choices(values)
    shown = listed.split(" … ")[0].split(", ")
    assert all(v in values for v in shown) and listed.endswith(f"and {40 - len(shown)} more (all in 'scarbook "
                                                               "schema --path')")
    assert choices(["a", "b"]) == "a, b"
    checks = ["rewards-in-first-games", "slot-free", "supply-left"]
    assert close_enough("one-reward-per-game", checks) == ""
    assert close_enough("slot-fre", checks) == " (did you mean 'slot-free'?)"


def test_version_is_the_installed_metadata() -> None:
    from importlib.metadata import version

    from scarbook import __version__

    result = runner.invoke(app, ["--version"])
    assert result.output == f"scarbook {version('scarbook')}\n" and version("scarbook") == __version__
