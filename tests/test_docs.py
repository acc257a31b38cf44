"""The documentation keeps up with the code: the README's test command is what CI runs, every
diagnostic code is in the one table of codes, every page under docs/ is in the site's nav, and the
README stays a user's README whose links lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

README = ROOT / "README.md"
CODE_PATTERN = re.compile(r"\b[YSXBLR][0-9]{3}\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _code_files() -> list[Path]:
    found: list[Path] = []
    for top in ("compiler", "campaign", "scarbook"):
        found += [p for p in (ROOT / top).rglob("*.py") if "generated" not in p.relative_to(ROOT).parts]
    return found


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    readme = [line for line in README.read_text("utf-8").splitlines() if "pip install -q -e '.[test]'" in line]
    assert len(readme) == 1, "the README gives one command that sets up and runs the tests"
    ci = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    assert readme[0] in ci, ".ci/run must run the README's second command, word for word"
    for step in ("ruff check .", "mypy scarbook tools bench", "mkdocs build --strict", "pytest"):
        assert step in readme[0]


def test_every_diagnostic_code_the_code_uses_is_in_the_table_and_no_other() -> None:
    used = {code for path in _code_files() for code in CODE_PATTERN.findall(path.read_text("utf-8"))}
    table = (ROOT / "docs" / "reference" / "codes.md").read_text("utf-8")
    rows = re.findall(r"^\| `([YSXBLR][0-9]{3})` \| (error|warning) \| .+ \|$", table, re.M)
    listed = [code for code, _severity in rows]
    assert len(listed) == len(set(listed)), "a code is listed twice"
    assert sorted(used - set(listed)) == [], "codes the code uses but docs/reference/codes.md does not list"
    assert sorted(set(listed) - used) == [], "codes docs/reference/codes.md lists but no code uses"
    assert listed == sorted(listed, key=lambda c: ("YSXBLR".index(c[0]), c)), "keep the table in order"


def _nav_pages(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [page for item in node for page in _nav_pages(item)]
    if isinstance(node, dict):
        return [page for value in node.values() for page in _nav_pages(value)]
    return []


def test_every_page_under_docs_is_in_the_nav() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    nav = _nav_pages(config["nav"])
    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    assert sorted(nav) == pages
    assert not Path(config["site_dir"]).is_absolute() and config["site_dir"].startswith("build/")


def test_the_readme_is_a_users_readme_whose_links_lead_somewhere() -> None:
    text = README.read_text("utf-8")
    assert len(text.splitlines()) <= 250
    assert not re.search(r"\bsession\b|\bissue \d+", text, re.I), "no diary wording in the README"
    for readme in (README, ROOT / "compiler" / "README.md", ROOT / "campaign" / "README.md",
                   ROOT / "campaign" / "ledger" / "README.md", ROOT / "scarbook" / "kernel" / "README.md",
                   ROOT / "scarbook" / "cli" / "README.md"):
        for target in LINK.findall(readme.read_text("utf-8")):
            if "://" in target or target.startswith("#"):
                continue
            assert (readme.parent / target.split("#")[0]).exists(), f"{readme.relative_to(ROOT)}: {target}"


def test_the_package_readmes_stay_short() -> None:
    """A diagram, the key modules and the concepts; the rest is in docs/."""
    for readme in ("compiler", "campaign", "campaign/ledger", "scarbook/kernel", "scarbook/cli"):
        assert len((ROOT / readme / "README.md").read_text("utf-8").splitlines()) <= 80, readme


def test_the_documented_generator_writes_the_module_the_package_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/development/testing.md: after changing a schema, `tools/generate_validator.py` writes the shipped
    compiled validator; it must write the file `scarbook.compiler.compiled` imports, not one beside it."""
    import importlib.util

    monkeypatch.syspath_prepend(str(ROOT / "tools"))  # as when it runs as a script: its folder is on the path

    spec = importlib.util.spec_from_file_location("generate_validator", ROOT / "tools" / "generate_validator.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    shipped = importlib.util.find_spec("scarbook.compiler.generated.validator")
    assert shipped is not None and shipped.origin is not None
    assert Path(tool.TARGET).resolve() == Path(shipped.origin).resolve()
