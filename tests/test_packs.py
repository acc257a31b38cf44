"""Example packs: valid ones pass, each invalid one gives exactly the diagnostics in its expected.txt.

expected.txt holds each diagnostic as printed (place, severity, code and message: the message is the
product too). Rewrite them after a deliberate change with
`SCARBOOK_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_packs.py` and read the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import PACKS
from scarbook.compiler.load import shipped_dir
from scarbook.compiler.validate import validate_paths
from scarbook.examples import examples

INVALID = sorted(p for p in (PACKS / "invalid").iterdir() if p.is_dir())
VALID = list(examples().values()) + sorted(p for p in (PACKS / "valid").iterdir() if p.is_dir())


def lines(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(folder.parent)
    report = validate_paths([Path(folder.name)])
    shipped = str(shipped_dir())  # where the shipped games are differs between machines
    return [f"{d.span}: {d.severity.value} {d.code}: {d.message}".replace(shipped, "<shipped>")
            for d in sorted(report.diagnostics, key=lambda d: d.sort_key())]


@pytest.mark.parametrize("case", INVALID, ids=lambda p: p.name)
def test_invalid_pack_gives_expected_diagnostics(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    got = lines(case, monkeypatch)
    if os.environ.get("SCARBOOK_UPDATE_GOLDEN") == "1":
        (case / "expected.txt").write_text("".join(line + "\n" for line in got))
    expected = (case / "expected.txt").read_text().split("\n")
    assert got == [line for line in expected if line]


@pytest.mark.parametrize("case", VALID, ids=lambda p: p.name)
def test_valid_pack_has_no_error(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not [line for line in lines(case, monkeypatch) if ": error " in line]


def test_every_invalid_case_has_an_error() -> None:
    for case in INVALID:
        assert " error " in (case / "expected.txt").read_text(), case.name
