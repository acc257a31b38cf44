"""Shared fixtures: paths of the repository, the example packs, and an isolated cache."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "tests" / "packs"  # invalid cases; the valid examples ship in the package (EXAMPLES)
EXAMPLES = ROOT / "examples"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never read or write the user's real cache from a test."""
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


def pdftotext(path: Path) -> str:
    """A PDF's text laid out as on the page (pytest skips when poppler's pdftotext is missing)."""
    import shutil
    import subprocess

    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
