"""The type checker sees `scarbook.compiler` and `scarbook.campaign` as they are, and the wheel did not change.

compiler/ and campaign/ stay at the top of the checkout; the committed symlinks scarbook/compiler and
scarbook/campaign put them where the installed package has them, so mypy (and an IDE) resolves
`scarbook.campaign.engine` to campaign/engine.py instead of an unchecked `Any`.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

PROBE = '''\
from scarbook.campaign.engine import Campaign
from scarbook.compiler.model import Game

reveal_type(Campaign)


def wrong(c: Campaign) -> int:
    return c.no_such_attribute + "x"


def wrong_game(g: Game) -> None:
    g.no_such_method()
'''


@pytest.mark.parametrize("name", ["compiler", "campaign"])
def test_the_package_folder_is_a_relative_symlink_to_the_top_level_folder(name: str) -> None:
    link = ROOT / "scarbook" / name
    assert link.is_symlink(), (f"scarbook/{name} must be a symlink to ../{name} (a checkout without symlinks: "
                               "git config core.symlinks true, then git checkout -- scarbook)")
    assert os.readlink(link) == f"../{name}"
    assert link.resolve() == (ROOT / name).resolve()


def test_a_wrong_attribute_on_a_campaign_or_game_fails_mypy(tmp_path: Path) -> None:
    """The README's mypy step resolves the packages from the checkout (its working folder): so does this probe."""
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, "utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), str(probe)],
                          cwd=ROOT, capture_output=True, text=True)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert 'Revealed type is "def (ledger: scarbook.campaign.ledger.file.Ledger' in out, out
    assert '"Campaign" has no attribute "no_such_attribute"' in out, out
    assert '"Game" has no attribute "no_such_method"' in out, out
    assert "import-not-found" not in out, out


def _expected_wheel_files(tree: Path) -> set[str]:
    """What the wheel holds when compiler/ and campaign/ (and the data folders) are laid out under scarbook/:
    every module of every listed package, and the package data by its globs, read from pyproject.toml."""
    setup = tomllib.loads((tree / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    top = {"scarbook.compiler": "compiler", "scarbook.campaign": "campaign", **setup["package-dir"]}
    expected: set[str] = set()
    for package in setup["packages"]:
        head = next(p for p in sorted(top, key=len, reverse=True) if package == p or package.startswith(p + "."))
        folder = tree / top[head] / Path(*package[len(head):].split(".")[1:])
        installed = Path(*package.split("."))
        expected |= {(installed / p.name).as_posix() for p in folder.glob("*.py")}
        for pattern in setup["package-data"].get(package, []):
            expected |= {(installed / p.relative_to(folder)).as_posix() for p in folder.glob(pattern) if p.is_file()}
    return expected


@pytest.mark.slow
def test_the_wheel_holds_the_checkout_layout_file_for_file(tmp_path: Path) -> None:
    """The symlinks change what the type checker sees, not what ships: the wheel has every module of
    compiler/ and campaign/ once, under scarbook/, as the old package-dir mapping put them."""
    clean = tmp_path / "tree"
    shutil.copytree(ROOT, clean, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", ".setuptools-build", "__pycache__", "mutants", ".coverage",
        ".mypy_cache", ".ruff_cache", ".hypothesis", ".cache-*"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            "--wheel-dir", str(tmp_path / "wheel"), str(clean)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp_path / "wheel").glob("scarbook-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    files = [n for n in names if ".dist-info/" not in n]
    assert len(files) == len(set(files)), "a file is in the wheel twice"
    assert not [n for n in files if not n.startswith("scarbook/")], "everything ships inside the scarbook package"
    expected = _expected_wheel_files(clean)
    assert sorted(set(files) - expected) == [] and sorted(expected - set(files)) == []
    # the modules of the two linked folders are all there, by their top-level paths
    for name in ("compiler", "campaign"):
        modules = {p.relative_to(clean).as_posix() for p in (clean / name).rglob("*.py")}
        assert modules and {f"scarbook/{m}" for m in modules} <= set(files)
        assert not fnmatch.filter(files, f"{name}/*")
