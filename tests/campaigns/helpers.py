"""Helpers for the tracker's tests: run scripted campaigns through the CLI in-process.

A script line is what follows `scarbook campaign`; `{file}` is the campaign file; a line
starting with `!CODE` must be refused with that code and leave the file byte-for-byte unchanged.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from conftest import INTERNAL_ERROR_CODES
from scarbook.cli.main import app

from .shared import once_per_run

HERE = Path(__file__).resolve().parent
SETUP = """
new {file} --game risk-legacy --player Ann --player Bob --player Cat
place coin alaska
place coin alaska
place coin brazil
place coin brazil
place coin egypt
place coin egypt
place coin china
place coin china
place coin india
place coin india
place coin japan
place coin japan
place die-mechaniker-fortified-hq die-mechaniker
place enclave-of-the-bear-first-strike enclave-of-the-bear
place imperial-balkania-round-up imperial-balkania
place khan-industries-home-draft khan-industries
place saharan-republic-long-maneuver saharan-republic
"""
START = "game start --play Ann=khan-industries --play Bob=saharan-republic --play Cat=die-mechaniker"
PLAYING = SETUP + START + "\n"  # game 1 in progress: scar cards are played during a game
SCAR = "place bunker peru --by Ann"  # a legal placement on PLAYING's ledger (one scar card per player per game)


def invoke(args: list[str], file: Path | None = None):  # type: ignore[no-untyped-def]
    runner = CliRunner()
    if file is not None and args and args[0] != "new":
        args = [*args, "-c", str(file)]
    return runner.invoke(app, ["campaign", *args])


def play_transcript(file: Path, transcript: list[tuple[str, str]]) -> None:
    """Run each (command, what it prints first) in turn on `file`: the expected text is compared with as many
    of the output's first lines as it has; one starting `error CODE:` must be an honest refusal that leaves
    the file byte-identical (conftest.refused), anything else must exit 0."""
    from conftest import refused, snapshot

    for line, expected in transcript:
        before = snapshot(file)
        result = invoke(shlex.split(line), file)
        if expected.startswith("error "):
            refused(result, expected.split(":")[0].split(" ")[1], file_before=before)
        else:
            assert result.exit_code == 0, (line, result.output)
        wanted = expected.splitlines()
        assert result.output.splitlines()[:len(wanted)] == wanted, (line, result.output)


_SETUP_DONE: dict[str, bytes] = {}  # SETUP's and PLAYING's ledgers, replayed once per test process


@contextlib.contextmanager
def cache_folder(folder: Path) -> Iterator[None]:
    """Run the block with SCARBOOK_CACHE set to `folder`, then put back what was set before."""
    before = os.environ.get("SCARBOOK_CACHE")
    os.environ["SCARBOOK_CACHE"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SCARBOOK_CACHE", None)
        else:
            os.environ["SCARBOOK_CACHE"] = before


def _template(key: str, script: str, start: bytes = b"") -> bytes:
    """The ledger `script` leaves (run after the ledger `start`, when given), made once per test run (shared by
    the xdist workers: campaigns/shared.py) with a cache folder of its own, so the template leaves nothing in a
    test's cache; then kept in this process."""
    if key not in _SETUP_DONE:

        def make(folder: Path) -> None:
            template = folder / "c.yaml"
            if start:
                template.write_bytes(start)
            with cache_folder(folder / "cache"):
                failures = run_script(script, template, _copy=False)
            shutil.rmtree(folder / "cache", ignore_errors=True)
            assert not failures, failures

        _SETUP_DONE[key] = (once_per_run(f"template\0{script}\0{start.hex()}", make) / "c.yaml").read_bytes()
    return _SETUP_DONE[key]


def setup_bytes() -> bytes:
    """SETUP's ledger, replayed once per test process."""
    return _template("setup", SETUP)


def playing_bytes() -> bytes:
    """PLAYING's ledger (SETUP's, then game 1 started), made once per test process."""
    return _template("playing", START, setup_bytes())


def _set_up(file: Path) -> list[str]:
    """SETUP's 17 commands are the start of most tracker tests: copy its ledger and `check` it (which
    leaves the verdict in the cache, as the last write did)."""
    file.write_bytes(setup_bytes())
    result = invoke(["check"], file)
    return [] if result.exit_code == 0 else [f"check of the copied set-up: {result.output.strip()}"]


def run_script(text: str, file: Path, _copy: bool = True, refusals: list[str] | None = None,
               outputs: list[tuple[str, str]] | None = None) -> list[str]:
    """Run every line; return the lines that did not behave as the script says (empty: all fine).

    A script that starts with SETUP on a file that does not exist yet starts from a copy of SETUP's
    ledger (replayed once per process): the suite replays it in about 40 tests. Given `refusals`, each
    refused `!CODE` line is appended to it with what the command printed first (for a golden file); given
    `outputs`, every command line (without its `!CODE`) with what it printed."""
    # not under mutmut: its runs fork a process that already holds the template, made by unmutated code
    if _copy and text.startswith(SETUP) and not file.exists() and "MUTANT_UNDER_TEST" not in os.environ:
        failures = _set_up(file)
        if failures:
            return failures
        text = text[len(SETUP):]
    failures = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        expect = None
        if line.startswith("!"):
            expect, line = line[1:].split(" ", 1)
        args = shlex.split(line.replace("{file}", str(file)))
        before = file.read_bytes() if file.exists() else None
        result = invoke(args, file)
        if outputs is not None:
            outputs.append((line, result.output))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            # a crash exits 1 too under CliRunner: it is never a refusal, whatever the code expected
            failures.append(f"{number}: {line}: raised {result.exception!r}")
            continue
        internal = [code for code in INTERNAL_ERROR_CODES if code in result.output and code != expect]
        if internal:  # a rule that crashed is reported as R298: a bug, not a verdict
            failures.append(f"{number}: {line}: internal error {internal}: {result.output.strip()}")
            continue
        if expect:
            after = file.read_bytes() if file.exists() else None
            if result.exit_code != 1 or f"error {expect}:" not in result.output or after != before:
                failures.append(f"{number}: {line}: expected refusal {expect}, got {result.exit_code}: "
                                f"{result.output.strip()}")
            elif refusals is not None:
                shown = line.replace(str(file), "{file}")
                refusals.append(f"{shown}\n    {result.output.splitlines()[0]}\n")
        elif result.exit_code != 0:
            failures.append(f"{number}: {line}: exit {result.exit_code}: {result.output.strip()}")
    return failures


def _played(text: str) -> tuple[Path, dict[str, Any]]:
    """The shared folder of `text` played once per run, line by line (every line checked as `run_script` checks it,
    numbered as it numbers them), and what the play said: `failures`, `refusals` (as `run_script` gives them),
    `kept` (the lines after which the ledger changed: its bytes then are `after-N.yaml`) and `outputs` (each
    command line as written and what it printed, for every line; the folder's path is in them)."""

    def make(folder: Path) -> None:
        ledger = folder / "c.yaml"
        failures: list[str] = []
        refusals: list[str] = []
        outputs: list[tuple[str, str]] = []
        kept: list[int] = []
        last: bytes | None = None
        with cache_folder(folder / "cache"):
            for number, line in enumerate(text.splitlines(), 1):
                if not line.strip() or line.strip().startswith("#"):
                    continue
                said = run_script(line, ledger, _copy=False, refusals=refusals, outputs=outputs)
                failures += [f"{number}:{problem.split(':', 1)[1]}" for problem in said]
                now = ledger.read_bytes() if ledger.exists() else None
                if now is not None and now != last:
                    (folder / f"after-{number}.yaml").write_bytes(now)
                    kept.append(number)
                    last = now
        shutil.rmtree(folder / "cache", ignore_errors=True)
        (folder / "result.json").write_text(json.dumps({"failures": failures, "refusals": refusals, "kept": kept,
                                                        "outputs": outputs}), "utf-8")

    folder = once_per_run(f"played\0{text}", make)
    return folder, json.loads((folder / "result.json").read_text("utf-8"))


def _copy_checked(folder: Path, kept: list[int], file: Path) -> list[str]:
    """The ledger as it was after the last of the `kept` lines, copied to `file` and `check`ed with the caller's
    cache (which then holds the verdict, as after the last write)."""
    if not kept:
        return []  # nothing written yet: no file, as run_script leaves it
    file.write_bytes((folder / f"after-{kept[-1]}.yaml").read_bytes())
    checked = invoke(["check"], file)
    return [] if checked.exit_code == 0 else [f"check of the copied ledger: {checked.output.strip()}"]


def play_once(text: str, file: Path, refusals: list[str] | None = None) -> list[str]:
    """`run_script(text, file, refusals=refusals)` for a new `file`, with the script played once per test run:
    the first process to ask plays it (every line checked as `run_script` checks it) in a shared folder of its
    own (campaigns/shared.py); every caller gets the same failures and refusals, and on success a copy of the
    ledger, `check`ed with the caller's cache (which then holds the verdict, as after the last write).

    A 15-game script is about 300 commands; several modules play the same two scripts, once per xdist worker
    each. Not for a test of what the writes leave in the cache append by append (tests/test_campaign_rules.py
    plays its campaign itself): the caller's cache holds what `check` of the whole file left."""
    if file.exists() or "MUTANT_UNDER_TEST" in os.environ:  # a mutant plays the script with its own code
        return run_script(text, file, refusals=refusals)
    folder, result = _played(text)
    if refusals is not None:
        refusals.extend(result["refusals"])
    if result["failures"]:
        return list(result["failures"])
    return _copy_checked(folder, result["kept"], file)


def play_prefix(text: str, lines: int, file: Path) -> list[str]:
    """`run_script` of the first `lines` lines of `text` (`"".join(text.splitlines(keepends=True)[:lines])`) for a
    new `file`, from the one play of the whole of `text` per test run that `play_once` shares: the failures among
    those lines or, when there are none, a copy of the ledger as it was after them, `check`ed with the caller's
    cache. Tests that need the scripted campaign stopped at some line (35 of them stop Shadow Forces at one line or
    another) replayed the script up to it, about half of the 15 games each on average. Not for a test of what the
    writes leave in the cache append by append."""
    if file.exists() or "MUTANT_UNDER_TEST" in os.environ:  # a mutant plays the script with its own code
        return run_script("".join(text.splitlines(keepends=True)[:lines]), file)
    folder, result = _played(text)
    failures = [f for f in result["failures"] if int(f.split(":", 1)[0]) <= lines]
    return failures or _copy_checked(folder, [n for n in result["kept"] if n <= lines], file)


def played_outputs(text: str) -> tuple[Path, list[tuple[str, str]]]:
    """What every command line of `text` printed (refused ones too) in its one play per run (`play_once`'s), with
    the folder it was played in (its path is in the outputs)."""
    folder, result = _played(text)
    return folder, [(line, out) for line, out in result["outputs"]]


def script(name: str) -> str:
    return (HERE / name).read_text("utf-8")


def set_cache(monkeypatch, tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    cache = Path(os.environ.get("SCARBOOK_TEST_CACHE") or tmp_path_factory.getbasetemp() / "scarbook-cache")
    monkeypatch.setenv("SCARBOOK_CACHE", str(cache))
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    return cache
