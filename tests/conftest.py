"""Shared fixtures: paths of the repository, the example packs, and an isolated cache."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "tests" / "packs"  # invalid cases; the valid examples ship in the package (EXAMPLES)
EXAMPLES = ROOT / "examples"

# real processes for the fault tests and the `ledger` fixture (a copy of SETUP's ledger): campaigns/procs.py
pytest_plugins = ["campaigns.procs"]

# CI runs the property tests derandomized (the same examples every run: a red CI is reproducible);
# `.ci/run` sets SCARBOOK_HYPOTHESIS_PROFILE=ci. Locally they stay random, to find new cases.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("SCARBOOK_HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config: pytest.Config) -> None:
    """One folder for what the run's processes share (campaigns/shared.py), made by the controlling process."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        import tempfile

        from campaigns.shared import ENV

        config.stash[_SHARED] = os.environ[ENV] = tempfile.mkdtemp(prefix="scarbook-tests-")
        # Bytecode for every process of the run (xdist workers and the `scarbook` processes tests start), kept in
        # the run's folder, never in the checkout. An editable install under PYTHONDONTWRITEBYTECODE=1 (set on
        # some machines) otherwise compiles all of scarbook's modules from source in every process, hundreds
        # of times per run. An installed scarbook has its bytecode from `pip install`; this gives the tests'
        # processes the same.
        os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(os.environ[ENV], "pycache")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_SHARED, None)
    if folder is not None:
        import shutil

        from campaigns.shared import ENV

        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(ENV, None)
        os.environ.pop("PYTHONPYCACHEPREFIX", None)


_SHARED = pytest.StashKey[str]()


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never read or write the user's real cache from a test."""
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


GOLDEN = Path(__file__).parent / "golden"


def check_golden(name: str, text: str) -> None:
    """`text` must equal tests/golden/NAME. Only `SCARBOOK_UPDATE_GOLDEN=1` (re)writes it: review the diff; a
    missing golden file fails, it is never written by an ordinary run."""
    path = GOLDEN / name
    if os.environ.get("SCARBOOK_UPDATE_GOLDEN"):  # the one explicit way to (re)write a golden file
        path.write_text(text, "utf-8")
    assert path.exists(), f"golden file {name} is missing; write it with SCARBOOK_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text("utf-8"), f"{name} differs; regenerate with SCARBOOK_UPDATE_GOLDEN=1"


def pdftotext(path: Path) -> str:
    """A PDF's text laid out as on the page (pytest skips when poppler's pdftotext is missing)."""
    import shutil
    import subprocess

    if shutil.which("pdftotext") is None:
        if os.environ.get("SCARBOOK_REQUIRE_POPPLER"):  # set by .ci/run: CI never skips the PDF checks
            pytest.fail("pdftotext (poppler-utils) is not installed and SCARBOOK_REQUIRE_POPPLER is set")
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


#: Codes that mean "the program crashed inside a check / a rule / a render" (a bug, never a verdict).
INTERNAL_ERROR_CODES = ("X999", "R298", "B399")


def crashed(result: Any) -> BaseException | None:
    """The exception a CliRunner result ended with, unless it is the ordinary SystemExit."""
    exc = result.exception
    return None if exc is None or isinstance(exc, SystemExit) else exc


def refused(result: Any, code: str, file_before: tuple[Path, bytes | None] | None = None) -> None:
    """Assert an honest refusal: no crash (the CLI runner also exits 1 on an uncaught exception),
    exit 1, `error CODE:` in the output, and (given `file_before=(path, bytes or None)`) the file
    byte-for-byte as it was (None: it still does not exist)."""
    exc = crashed(result)
    assert exc is None, f"crashed instead of refusing: {exc!r}\n{result.output}"
    assert result.exit_code == 1, f"exit {result.exit_code}, expected 1:\n{result.output}"
    assert f"error {code}:" in result.output, f"no 'error {code}:' in:\n{result.output}"
    assert not any(internal in result.output for internal in INTERNAL_ERROR_CODES), result.output
    if file_before is not None:
        path, before = file_before
        after = path.read_bytes() if path.exists() else None
        assert after == before, f"{path} changed although the command was refused"


def snapshot(path: Path) -> tuple[Path, bytes | None]:
    """`file_before=` for `refused`: the file's bytes now (None when it does not exist)."""
    return path, (path.read_bytes() if path.exists() else None)


def no_internal_errors(text: str) -> None:
    """Fuzz and property tests: a crash inside a check hides as X999/R298/B399; never accept one.

    Only a diagnostic's code counts (`error X999:`, JSON `"code": "X999"`), not the same letters in what a
    message quotes back (a fuzzed document with a key named `R298`)."""
    import re

    found = re.findall(r'(?:\b(?:error|warning|info) |"code": ")(' + "|".join(INTERNAL_ERROR_CODES) + r")\b", text)
    assert not found, f"internal error {found} in:\n{text}"


def proc_refused(done: Any, code: str | None = None) -> None:
    """`refused` for a real process (subprocess.run result, text mode): exit 1 without a traceback
    (an uncaught exception exits 1 too), and `CODE` in what it printed when given."""
    out = (done.stdout or "") + (done.stderr or "")
    assert "Traceback" not in out, f"crashed instead of refusing:\n{out}"
    assert done.returncode == 1, f"exit {done.returncode}, expected 1:\n{out}"
    assert not any(internal in out for internal in INTERNAL_ERROR_CODES), out
    if code is not None:
        assert code in out, f"no {code} in:\n{out}"
