"""The installed `scarbook` as a real process, for the fault tests; and a set-up ledger for each test.

`sb(...)` runs the console script beside this Python with the environment of `proc_env` (no campaign
from the caller's environment, no fault left set, a patient lock); extra keyword arguments become
environment variables (`SCARBOOK_FAULT="ledger-append:torn"`). The `ledger` fixture (registered for
every test by `pytest_plugins` in conftest) is a copy of PLAYING's ledger (SETUP's, then game 1 started),
replayed once per process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scarbook.campaign.ledger.file import parse

from .helpers import playing_bytes

SCARBOOK = str(Path(sys.executable).parent / "scarbook")
PLACE = ["campaign", "place", "bunker", "peru", "--by", "Ann"]  # a legal placement on PLAYING's ledger


def proc_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("SCARBOOK_CAMPAIGN", None)
    env.pop("SCARBOOK_FAULT", None)
    env["SCARBOOK_LOCK_WAIT"] = "20"
    env.update(extra)
    return env


def sb(*args: str, cwd: Path | None = None, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SCARBOOK, *args], env=proc_env(**env), capture_output=True, text=True, timeout=timeout,
                          cwd=cwd)


def events_of(path: Path) -> list[dict]:
    """The events of a ledger file as dicts, parsed afresh (no cache)."""
    return [e.to_dict() for e in parse(path.read_text("utf-8"), path).events]


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    """PLAYING's ledger (SETUP's, game 1 in progress) copied byte for byte (no verdict in the cache for it yet)."""
    file = tmp_path / "c.yaml"
    file.write_bytes(playing_bytes())
    return file
