"""Authoring: `scarbook new pack|game`, `scarbook examples`, and the pre-commit hook, as a new author uses them."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import yaml
from typer.testing import CliRunner

from conftest import ROOT, refused
from scarbook.cli.main import app
from scarbook.compiler.load import shipped_games
from scarbook.examples import examples
from scarbook.schemas import SCHEMA_DIR

runner = CliRunner()


def modeline_target(path: Path) -> Path:
    """The schema file a YAML file's yaml-language-server modeline names, resolved as an editor would."""
    first = path.read_text().splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert match, first
    ref = match.group(1)
    if ref.startswith("file:"):
        return Path(unquote(urlparse(ref).path))
    return (path.parent / ref).resolve()


def assert_clean(folder: Path) -> None:
    result = runner.invoke(app, ["validate", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith("0 errors, 0 warnings"), result.output


@pytest.mark.parametrize("game", sorted(shipped_games()))
def test_new_pack_validates_clean_and_builds_into_its_own_folder(game: str, tmp_path: Path) -> None:
    folder = tmp_path / "Our Scars"
    result = runner.invoke(app, ["new", "pack", str(folder), "--extends", game])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == [".pre-commit-config.yaml", "pack.yaml"]
    text = (folder / "pack.yaml").read_text()
    assert f"extends: {game}" in text and "id: our-scars " in text
    assert modeline_target(folder / "pack.yaml") == (SCHEMA_DIR / "content-file.schema.json").resolve()
    assert_clean(folder)
    out = tmp_path / "out"
    built = runner.invoke(app, ["build", game, "--pack", str(folder), "--only", "tables", "--out", str(out)])
    assert built.exit_code == 0, built.output
    assert list((out / f"{game}+our-scars" / "tables").glob("*.md"))


def test_new_game_validates_clean_and_builds(tmp_path: Path) -> None:
    folder = tmp_path / "my-game"
    result = runner.invoke(app, ["new", "game", str(folder)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == [".pre-commit-config.yaml", "board.yaml", "cards.yaml",
                                                        "game.yaml", "stickers.yaml"]
    for path in folder.glob("*.yaml"):
        if not path.name.startswith("."):
            assert modeline_target(path) == (SCHEMA_DIR / "content-file.schema.json").resolve(), path
    assert_clean(folder)
    out = tmp_path / "out"
    built = runner.invoke(app, ["build", str(folder), "--only", "reference", "--only", "tables", "--out", str(out)])
    assert built.exit_code == 0, built.output
    assert (out / "my-game" / "reference.pdf").stat().st_size > 1000


def test_scaffold_files_pass_check_jsonschema_offline(tmp_path: Path) -> None:
    from test_schemas import _check_jsonschema_verdicts

    runner.invoke(app, ["new", "game", str(tmp_path / "g")])
    runner.invoke(app, ["new", "pack", str(tmp_path / "p"), "--extends", "risk-legacy"])
    files = sorted(p for p in tmp_path.rglob("*.yaml") if not p.name.startswith("."))
    verdicts = _check_jsonschema_verdicts(SCHEMA_DIR / "content-file.schema.json", files, tmp_path)
    assert len(verdicts) == 5 and all(verdicts.values())


def test_new_never_overwrites_and_refuses_unknown_games(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    assert runner.invoke(app, ["new", "game", str(folder)]).exit_code == 0
    (folder / "game.yaml").write_text("# mine\n")
    again = runner.invoke(app, ["new", "game", str(folder)])
    assert again.exit_code == 2 and "is not empty" in again.output
    assert (folder / "game.yaml").read_text() == "# mine\n"
    bad = runner.invoke(app, ["new", "pack", str(tmp_path / "p"), "--extends", "risk-legasy"])
    assert bad.exit_code == 2 and "did you mean 'risk-legacy'" in bad.output
    assert not (tmp_path / "p").exists()


def test_examples_are_listed_and_copied_with_a_working_modeline(tmp_path: Path) -> None:
    listed = runner.invoke(app, ["examples", "--list"])
    assert listed.exit_code == 0
    names = [line.split()[0] for line in listed.output.splitlines() if not line.startswith("(")]
    assert names == sorted(examples()) and "tiny-game" in names
    for name in examples():
        copied = runner.invoke(app, ["examples", "copy", name, str(tmp_path / name)])
        assert copied.exit_code == 0, copied.output
        for path in (tmp_path / name).glob("*.yaml"):
            assert modeline_target(path) == _schema_of(path)
        assert runner.invoke(app, ["validate", str(tmp_path / name)]).exit_code == 0
    unknown = runner.invoke(app, ["examples", "copy", "tiny-gam", str(tmp_path / "x")])
    assert unknown.exit_code == 2 and "did you mean 'tiny-game'" in unknown.output
    assert runner.invoke(app, ["examples", "copy", "tiny-game", str(tmp_path / "tiny-game")]).exit_code == 2


def test_shipped_examples_modelines_work_in_the_repository_and_the_package() -> None:
    for folder in examples().values():
        for path in folder.glob("*.yaml"):
            assert modeline_target(path) == _schema_of(path), path


def _schema_of(path: Path) -> Path:
    """The schema an example file's modeline must name: a play-test file's own, else the content file's."""
    from scarbook.compiler.load import is_playtest

    name = "playtest.schema.json" if is_playtest(path.name) else "content-file.schema.json"
    return (SCHEMA_DIR / name).resolve()


def test_validating_one_file_of_a_pack_checks_it_with_its_pack(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    runner.invoke(app, ["new", "game", str(tmp_path / "g")])
    monkeypatch.chdir(tmp_path)
    cards = Path("g/cards.yaml")
    cards.write_text(cards.read_text().replace("territory: east-vale", "territory: east-vail"))
    result = runner.invoke(app, ["validate", "g/board.yaml", "g/cards.yaml"])
    refused(result, "X102")
    assert result.output.splitlines()[0].startswith("g/cards.yaml:12:77: error X102")  # line 3: edition
    assert "no territory 'east-vail' (did you mean 'east-vale'?)" in result.output
    assert result.output.splitlines()[-1] == "1 error, 0 warnings in 4 files"


def _hook() -> dict[str, object]:
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "scarbook-validate"
    return hook


def _files_pre_commit_passes(hook: dict[str, object], files: list[str]) -> list[str]:
    include, exclude = re.compile(str(hook["files"])), re.compile(str(hook["exclude"]))
    return [f for f in files if include.search(f) and not exclude.search(f)]


def test_pre_commit_hook_entry_fails_on_a_broken_pack(tmp_path: Path) -> None:
    """Run the hook's entry as pre-commit would: the installed script, with the changed files as arguments."""
    hook = _hook()
    script = Path(sys.executable).parent / shlex.split(str(hook["entry"]))[0]
    if not script.exists():
        pytest.skip("scarbook is not installed in this environment")
    runner.invoke(app, ["new", "pack", str(tmp_path / "pack"), "--extends", "risk-legacy"])
    pack = tmp_path / "pack" / "pack.yaml"
    pack.write_text(pack.read_text().replace("check: slot-free,", "check: slot-free, slot: [scar],"))
    changed = _files_pre_commit_passes(hook, ["pack/pack.yaml", "pack/.pre-commit-config.yaml", "README.md"])
    assert changed == ["pack/pack.yaml"]
    argv = [str(script), *shlex.split(str(hook["entry"]))[1:], *changed]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"^pack/pack\.yaml:\d+:\d+: error X404: check 'slot-free': \['scar'\] is not of type 'string'",
                     done.stdout, re.MULTILINE), done.stdout
    pack.write_text(pack.read_text().replace(" slot: [scar],", ""))
    assert subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120).returncode == 0


def test_scaffold_pre_commit_config_runs_the_same_hook(tmp_path: Path) -> None:
    runner.invoke(app, ["new", "game", str(tmp_path / "g")])
    config = yaml.safe_load((tmp_path / "g" / ".pre-commit-config.yaml").read_text())
    [hook] = config["repos"][0]["hooks"]
    shipped = _hook()
    assert (hook["id"], hook["entry"], hook["files"], hook["exclude"]) == (
        shipped["id"], shipped["entry"], shipped["files"], shipped["exclude"])
