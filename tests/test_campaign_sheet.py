"""The campaign sheet (`scarbook campaign sheet`): built from the end state of real campaigns.

Each test runs a scripted campaign through the CLI, writes the sheet and reads its text back with
`pdftotext` (skipped only when poppler is missing), asserting the names and values a group would
look for on the wall.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script


@pytest.fixture(autouse=True)
def _no_env_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)


def pdf_text(pdf: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler) is not installed")
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout


def test_sheet_with_an_active_scar_does_not_crash(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\nplace bunker greenland\n", file)
    out = tmp_path / "sheet.pdf"
    result = invoke(["sheet", "--out", str(out)], file)
    assert result.exit_code == 0, result.output
    assert "Bunker" in pdf_text(out) or "bunker" in pdf_text(out)


def test_a_homebrew_campaign_records_its_game_folder_relative_to_the_ledger(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import PACKS

    game = tmp_path / "games" / "isles"
    shutil.copytree(PACKS / "valid" / "tiny-game", game)
    monkeypatch.chdir(tmp_path)
    assert invoke(["new", "camps/c.yaml", "--game", "games/isles", "--player", "Ann", "--player", "Bob"]).exit_code == 0
    assert "game: ../games/isles" in (tmp_path / "camps" / "c.yaml").read_text()
    monkeypatch.chdir(game)  # any folder
    result = invoke(["place", "kraken", "north-isle"], tmp_path / "camps" / "c.yaml")
    assert result.exit_code == 0, result.output
