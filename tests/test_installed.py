"""The installed `scarbook` script end to end, and a non-editable install that works from any folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SCRIPT = Path(sys.executable).parent / "scarbook"


def test_installed_script_validates_and_shows(tmp_path: Path) -> None:
    if not SCRIPT.exists():
        pytest.skip("scarbook is not installed in this environment")
    env = {**os.environ, "SCARBOOK_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([str(SCRIPT), "validate"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    shown = subprocess.run([str(SCRIPT), "show", "risk-legacy", "board", "--format", "json"], cwd=tmp_path,
                           capture_output=True, text=True, env=env)
    assert shown.returncode == 0 and len(json.loads(shown.stdout)["territories"]) == 42
    bad = subprocess.run([str(SCRIPT), "show", "nope"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.slow
def test_non_editable_install_ships_content_schemas_and_templates(tmp_path: Path) -> None:
    """`pip install .` (no editable link back to the checkout) must carry all data files. Slow: a pip install."""
    target = tmp_path / "site"
    # From a clean copy of the tree: a stale scarbook.egg-info or build folder in the checkout can
    # neither hide a packaging mistake nor be written by the test. setuptools is in the test extras,
    # so a failing build is a failure, never a skip.
    clean = tmp_path / "tree"
    shutil.copytree(ROOT, clean, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", ".setuptools-build", "__pycache__", "mutants", ".coverage"))
    build = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                            "--target", str(target), str(clean)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    assert not (target / "compiler").exists() and (target / "scarbook" / "compiler").is_dir()
    # every package of the checkout is installed (an editable install in the test's own environment can import a
    # package the wheel leaves out, so the commands below cannot tell)
    for folder in ("campaign", "compiler", "scarbook"):
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.relative_to(ROOT)
            installed = target / (relative if folder == "scarbook" else Path("scarbook") / relative)
            assert installed.is_file(), f"{relative.parent} is not installed: add it to [tool.setuptools] packages"
    assert list((target / "scarbook" / "content" / "risk-legacy").glob("*.yaml"))
    assert list((target / "scarbook" / "schemas").glob("*.schema.json"))
    assert list((target / "scarbook" / "examples" / "tiny-game").glob("*.yaml"))  # `scarbook examples`
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target), "SCARBOOK_CACHE": str(tmp_path / "cache")}
    code = "from scarbook.cli.entry import run; import sys; sys.argv = ['scarbook', 'validate']; run()"
    done = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 errors" in done.stdout
    assert list((target / "scarbook" / "templates" / "fonts").glob("*.ttf"))
    served = target / "scarbook" / "templates" / "serve"  # `scarbook serve`: its pages, style and script
    assert (served / "home.html.j2").is_file() and (served / "static" / "serve.js").is_file()
    assert (served / "static" / "serve.css").is_file()
    for argv in (["tables", "risk-legacy", "--format", "json"], ["campaign", "new", "c.yaml", "--game", "risk-legacy",
                                                                  "--player", "Ann", "--player", "Bob",
                                                                  "--player", "Cat"],
                 ["examples", "copy", "tiny-game", "tiny"], ["validate", "tiny"], ["new", "pack", "p", "--extends",
                                                                                   "risk-legacy"], ["validate", "p"]):
        code = f"from scarbook.cli.entry import run; import sys; sys.argv = ['scarbook', *{argv!r}]; run()"
        done = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
    schemas = subprocess.run([sys.executable, "-c", "from scarbook.cli.entry import run; import sys; "
                              "sys.argv = ['scarbook', 'schema', '--path']; run()"], cwd=elsewhere, capture_output=True,
                             text=True, env=env)
    assert Path(schemas.stdout.strip()) == (target / "scarbook" / "schemas").resolve()
    line = (elsewhere / "p" / "pack.yaml").read_text().splitlines()[0]
    assert line.endswith("/scarbook/schemas/content-file.schema.json")
    # The scaffold's comments send readers to the content model's README in the schemas' folder: it must ship.
    told = [text for text in (elsewhere / "p" / "pack.yaml").read_text().splitlines() if "README.md" in text]
    assert told and "'scarbook schema --path'" in told[0]
    readme = Path(schemas.stdout.strip()) / "README.md"
    assert readme.is_file() and readme.read_text("utf-8").startswith("# The content model")
    shutil.rmtree(target)
