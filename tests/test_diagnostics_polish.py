"""Diagnostics a new author meets first: tabs, indentation, follow-on errors, JSON paths, sticker text that does
not fit, tables that name their sources, and builds with a pack in their own folder."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import EXAMPLES, PACKS, refused
from scarbook.cli.main import app
from scarbook.kernel.yamlload import loads

runner = CliRunner()


def write_pack(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))
    return folder


PACK = "pack: {id: sinkhole, title: Sinkhole, extends: risk-legacy}\n"
SCAR = """\
    stickers:
      - id: sinkhole
        name: Sinkhole
        kind: scar
        slot: scar
        targets: [territory]
        supply: 2
        effect: Expanding into this territory costs one extra troop.
    """


def test_a_tab_is_named_as_a_tab_with_the_fix() -> None:
    doc = loads("stickers:\n  - id: a\n\tname: b\n", "f.yaml")
    assert [d.render() for d in doc.diagnostics] == [
        "f.yaml:3:1: error Y001: YAML does not allow tabs for indentation; use spaces (a tab at line 3, column 1)"]
    doc = loads("stickers:\n\t- id: a\n", "f.yaml")
    assert doc.diagnostics[0].message.startswith("YAML does not allow tabs for indentation; use spaces")


def test_a_tab_inside_a_value_is_not_blamed_for_another_error() -> None:
    [d] = loads('a: "x\ty"\nb: [c, d\n', "f.yaml").diagnostics
    assert "tab" not in d.message and d.message.startswith("YAML syntax: did not find expected ',' or ']'")


@pytest.mark.parametrize("text, line, col", [
    ("territories:\n  - id: a\n   name: A\n", 3, 4),  # did not find expected '-' indicator
    ("game:\n  id: a\n title: b\n", 3, 2),  # did not find expected key
    ("game:\n  id: a\n    title: b\n", 3, 10),  # mapping values are not allowed
])
def test_an_indentation_slip_says_indentation(text: str, line: int, col: int) -> None:
    [d] = loads(text, "f.yaml").diagnostics
    assert (d.code, d.span.line, d.span.column) == ("Y001", line, col)
    assert "bad indentation" in d.message and "(YAML: " in d.message


def test_a_colon_inside_a_value_says_to_quote_it() -> None:
    [d] = loads("effect: Roll: one die less\n", "f.yaml").diagnostics
    assert "put the value in quotes" in d.message and "indentation" not in d.message


def test_a_broken_file_hides_the_follow_on_errors_it_causes_and_says_how_many(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    write_pack(tmp_path / "p", {
        "pack.yaml": PACK,
        "scars.yaml": SCAR.replace("    supply: 2", "\tsupply: 2"),
        "envelopes.yaml": """\
            envelopes:
              - id: sinkhole-envelope
                name: The Sinkhole envelope
                trigger: {text: Open after the third game.}
                contents: [sinkhole, sinkhol]
            """,
    })
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "p"])
    refused(result, "X102")
    assert result.output.splitlines() == [
        "p/envelopes.yaml:5:26: error X102: envelope content 'sinkhol' is not defined; "
        "list the item in the game (it stays hidden until the envelope is opened)",
        "p/scars.yaml:7:1: error Y001: YAML does not allow tabs for indentation; use spaces (a tab at line 7, "
        "column 1)",
        "p/scars.yaml:7:1: warning Y012: 1 follow-on problem in other files left out (they name ids this file "
        "defines, or need every file to judge); fix this file first",
        "2 errors, 1 warning in 3 files",
    ]


def test_every_json_diagnostic_has_a_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(PACKS / "invalid")
    cases = sorted(p.name for p in (PACKS / "invalid").iterdir() if p.is_dir())
    result = runner.invoke(app, ["validate", *cases, "--format", "json"])
    data = json.loads(result.output)
    assert data and all("path" in d for d in data)
    by_code = {(d["file"], d["code"]): d["path"] for d in data}
    assert by_code[("bad-references/board.yaml", "X202")] == "/edges/2"
    assert by_code[("bad-checks/pack.yaml", "X401")] == "/stickers/0/slot"
    assert by_code[("bad-checks/pack.yaml", "X404")].startswith("/stickers/0/checks/")
    semantic = [d for d in data if d["code"].startswith("X") and d["line"]]
    assert semantic and all(d["path"].startswith("/") for d in semantic)


def test_sticker_text_that_does_not_fit_its_printed_size_is_warned(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    long = "Expanding into this territory costs one extra troop, and the defender rolls one die more. " * 3
    write_pack(tmp_path / "p", {"pack.yaml": PACK, "scars.yaml": f"""\
        stickers:
          - id: sinkhole
            name: Sinkhole
            kind: scar
            slot: scar
            targets: [territory]
            supply: 2
            size: {{width: 20, height: 20}}
            effect: {long.strip()}
          - id: pothole
            name: Pothole
            kind: scar
            slot: scar
            targets: [territory]
            supply: 2
            size: {{width: 20, height: 10}}
            effect: Costs one troop more.
        """})
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "p"])
    lines = [line for line in result.output.splitlines() if " B304: " in line]
    assert lines == [
        "p/scars.yaml:9:13: warning B304: sticker 'sinkhole': its effect (269 characters) will not fit on a "
        "20×20 mm sticker and is cut off at the sticker's edge (about 40 characters fit); shorten it (a short "
        "'text' to print instead of the effect), or give the sticker a larger 'size'",
        "p/scars.yaml:17:13: warning B304: sticker 'pothole': its effect (21 characters) will not fit on a 20×10 mm "
        "sticker and is left off: only its name fits; shorten it (a short 'text' to print instead of the effect), "
        "or give the sticker a larger 'size'",
    ]
    assert result.exit_code == 0


def test_every_table_names_a_source_falling_back_to_the_file_cite() -> None:
    result = runner.invoke(app, ["tables", str(EXAMPLES / "tiny-game"), "--format", "json"])
    assert result.exit_code == 0, result.output
    tables = json.loads(result.output)["tables"]
    assert tables and all(t["sources"] == ["homebrew: scarbook example tiny-game"] for t in tables)


def test_a_build_with_a_pack_has_its_own_folder_and_reasons_spell_territory(tmp_path: Path) -> None:
    out = tmp_path / "out"
    pack = str(EXAMPLES / "new-scar")
    done = runner.invoke(app, ["build", "risk-legacy", "--pack", pack, "--only", "tables", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert (out / "risk-legacy+sinkhole" / "tables").is_dir() and not (out / "risk-legacy").exists()
    done = runner.invoke(app, ["build", "risk-legacy", "--only", "tables", "--out", str(out)])
    assert done.exit_code == 0 and (out / "risk-legacy" / "tables").is_dir()
    again = runner.invoke(app, ["build", "risk-legacy", "--pack", pack, "--only", "tables", "--out", str(out)])
    assert "everything is up to date" in again.output  # the plain build replaced nothing of the pack's
    game = tmp_path / "tiny"
    shutil.copytree(EXAMPLES / "tiny-game", game)
    assert runner.invoke(app, ["build", str(game), "--only", "tables", "--out", str(out)]).exit_code == 0
    text = (game / "game.yaml").read_text().replace("name: North Isle, regions", "name: Nord Isle, regions")
    (game / "game.yaml").write_text(text)
    rebuilt = runner.invoke(app, ["build", str(game), "--only", "tables", "--out", str(out)])
    assert "territory 'north-isle' changed" in rebuilt.output and "territorie " not in rebuilt.output
