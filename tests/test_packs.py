"""Example packs: valid ones pass, each invalid one gives exactly the diagnostics in its expected.txt."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import PACKS
from scarbook.compiler.validate import validate_paths
from scarbook.examples import examples

INVALID = sorted(p for p in (PACKS / "invalid").iterdir() if p.is_dir())
VALID = list(examples().values()) + sorted(p for p in (PACKS / "valid").iterdir() if p.is_dir())


def lines(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(folder.parent)
    report = validate_paths([Path(folder.name)])
    return [f"{d.span}: {d.severity.value} {d.code}" for d in sorted(report.diagnostics, key=lambda d: d.sort_key())]


@pytest.mark.parametrize("case", INVALID, ids=lambda p: p.name)
def test_invalid_pack_gives_expected_diagnostics(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = (case / "expected.txt").read_text().split("\n")
    assert lines(case, monkeypatch) == [line for line in expected if line]


@pytest.mark.parametrize("case", VALID, ids=lambda p: p.name)
def test_valid_pack_has_no_error(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not [line for line in lines(case, monkeypatch) if ": error " in line]


def test_every_invalid_case_has_an_error() -> None:
    for case in INVALID:
        assert " error " in (case / "expected.txt").read_text(), case.name
