"""Things the suite makes once per run and every test process reads: a scripted campaign's ledger, built outputs.

`pytest -n auto` runs tests in several processes (pytest-xdist), so a module fixture or a per-process cache
makes the same 15-game campaign or the same PDFs once per process and per module. `once_per_run(name, make)`
makes a folder once per run instead: the first process to ask takes a lock (flock on a file beside the
folder), runs `make(folder)` and marks the folder done; the others wait for the lock and read the folder.
The folder lives in SCARBOOK_TEST_SHARED, a temporary folder that conftest's `pytest_configure` creates for
the run (in the controlling process; the workers inherit it) and removes at its end. A failed `make` leaves
nothing behind, so the next process to ask runs it again and fails the same way: no assertion is skipped.

Readers must not write into a shared folder: copy out what a test changes.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

ENV = "SCARBOOK_TEST_SHARED"


def shared_root() -> Path:
    """The run's shared folder (a process of its own when pytest's conftest did not set one up)."""
    root = os.environ.get(ENV)
    if not root:
        root = tempfile.mkdtemp(prefix="scarbook-tests-")
        os.environ[ENV] = root
    return Path(root)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def once_per_run(name: str, make: Callable[[Path], None]) -> Path:
    """The folder `make` filled for `name`, made by the first process of this run that asked for it."""
    root = shared_root()
    key = hashlib.sha256(name.encode("utf-8")).hexdigest()[:24]
    folder, done = root / key, root / f"{key}.done"
    if done.exists():
        return folder
    with _locked(root / f"{key}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed try left
            folder.mkdir(parents=True)
            try:
                make(folder)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            done.write_text(name, "utf-8")
    return folder


def shipped_build(paper: str) -> Path:
    """`scarbook build --paper PAPER --digest` of every shipped game, built once per run (read only: the
    player aid, digest, card and sticker sheets of tests/test_printed_aid.py and tests/test_printed_sheets.py)."""

    def make(folder: Path) -> None:
        from typer.testing import CliRunner

        from scarbook.cli.main import app

        before = os.environ.get("SCARBOOK_CACHE")
        os.environ["SCARBOOK_CACHE"] = str(folder / "cache")
        try:
            result = CliRunner().invoke(app, ["build", "--paper", paper, "--out", str(folder / "out"), "--digest"])
        finally:
            if before is None:
                os.environ.pop("SCARBOOK_CACHE", None)
            else:
                os.environ["SCARBOOK_CACHE"] = before
        shutil.rmtree(folder / "cache", ignore_errors=True)
        assert result.exit_code == 0, result.output

    return once_per_run(f"shipped build\0{paper}", make) / "out"
