"""Running a play-test: each step through the `scarbook campaign` commands, in this process, on a scratch file.

The campaign is created in a scratch folder (never the user's campaign file) with `campaign new`, then
each step runs as the user would type it, with `-c SCRATCH` added, through the same Click commands the
console script runs (no new process per step: a whole campaign takes about as long as its commands).
Relative paths in a command are read from the play-test file's folder; `{scratch}` in a command names
the scratch folder (for `sheet --out {scratch}/sheet.html`). Each step's outcome is compared with what
the file expects and every difference is returned with the line of the file where that expectation is
written.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scarbook.compiler.playtest import PlayTest, Step
from scarbook.kernel.diagnostics import Span

_CODE = re.compile(r"\berror ([A-Z][0-9]{3}):")
_MISSING = object()


@dataclass(frozen=True)
class Difference:
    """One expectation the run did not meet, at the line of the play-test file where it is written."""

    span: Span
    step: int
    command: str
    expected: str
    got: str

    def render(self) -> str:
        return f"{self.span}: step {self.step} `{self.command}`: expected {self.expected}; got {self.got}"


@dataclass(frozen=True)
class Outcome:
    """What one command did: its exit code, its two outputs, and a crash's traceback (or '')."""

    exit_code: int
    stdout: str
    stderr: str
    crash: str = ""

    @property
    def code(self) -> str:
        """The refusal's code: the first `error CODE:` of stderr, else ''."""
        found = _CODE.search(self.stderr)
        return found.group(1) if found else ""

    def first(self, stream: str) -> str:
        lines = [line for line in stream.splitlines() if line.strip()]
        return lines[0] if lines else "(no output)"

    def said(self) -> str:
        if self.crash:
            return f"a crash: {self.crash.strip().splitlines()[-1]}"
        if self.exit_code == 0:
            return f"recorded (exit 0): {self.first(self.stdout)!r}"
        if self.code:
            return f"refused {self.code}: {self.first(self.stderr)!r}"
        return f"exit {self.exit_code} without a code: {self.first(self.stderr or self.stdout)!r}"


def _invoke(args: list[str], cwd: Path) -> Outcome:
    """One `scarbook ARGS` in this process, from folder `cwd`, with no campaign from the environment."""
    from typer.testing import CliRunner

    from scarbook.cli.main import app

    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, args, env={"SCARBOOK_CAMPAIGN": None})
    finally:
        os.chdir(here)
    crash = ""
    if result.exception is not None and not isinstance(result.exception, SystemExit) and result.exc_info:
        crash = "".join(traceback.format_exception(*result.exc_info))
    return Outcome(result.exit_code, result.stdout, result.stderr, crash)


def _field(data: Any, path: str) -> Any:
    """The value at a dotted path (`players.0.name`: a key, then a list index), or _MISSING."""
    for part in path.split("."):
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and part.lstrip("-").isdigit() and -len(data) <= int(part) < len(data):
            data = data[int(part)]
        else:
            return _MISSING
    return data


def compare(step: Step, done: Outcome, changed: bool) -> list[Difference]:
    """Each way `done` differs from what `step` expects (`changed`: the campaign file's bytes changed)."""
    out: list[Difference] = []

    def differ(key: str, expected: str, got: str) -> None:
        out.append(Difference(step.at(key), step.number, step.command, expected, got))

    if done.crash:
        differ("run", "refused " + step.refused if step.refused else "recorded (exit 0)", done.said())
        return out
    if step.refused:
        if done.exit_code == 0:
            differ("refused", f"refused {step.refused}", done.said())
            return out
        if done.code != step.refused:
            differ("refused", f"refused {step.refused}", done.said())
        if changed:
            differ("refused", "the campaign file unchanged by a refusal", "the file changed")
    elif done.exit_code != 0:
        differ("run", "recorded (exit 0)", done.said())
        return out
    text = done.stderr if step.refused else done.stdout
    stream = "stderr" if step.refused else "output"
    for i, wanted in enumerate(step.shows):
        if wanted not in text:
            differ(f"shows/{i}", f"the {stream} to show {wanted!r}", _excerpt(text))
    for i, unwanted in enumerate(step.lacks):
        if unwanted in text:
            line = next(line for line in text.splitlines() if unwanted in line) if "\n" in text else text
            differ(f"lacks/{i}", f"the {stream} without {unwanted!r}", f"{line.strip()!r}")
    if step.json:
        try:
            data = json.loads(text)
        except ValueError:
            differ("run", "JSON output (for the 'json:' fields)", _excerpt(text))
            return out
        for path, wanted in step.json:
            value = _field(data, path)
            if value is _MISSING:
                differ(f"json/{path}", f"{path} = {json.dumps(wanted)}", f"no field {path}")
            elif value != wanted:
                differ(f"json/{path}", f"{path} = {json.dumps(wanted)}", f"{path} = {json.dumps(value)}")
    return out


def _excerpt(text: str, lines: int = 6) -> str:
    shown = [line for line in text.splitlines() if line.strip()]
    if not shown:
        return "no output"
    more = f" … ({len(shown) - lines} more lines)" if len(shown) > lines else ""
    return " | ".join(shown[:lines]) + more


@dataclass(frozen=True)
class Report:
    """A whole play-test's run: how many steps ran and every difference found."""

    test: PlayTest
    ran: int
    differences: tuple[Difference, ...]
    setup: str = ""  # why the campaign could not be created (then no step ran)


def run(test: PlayTest) -> Report:
    """Play `test` on a scratch campaign file, removed at the end."""
    with tempfile.TemporaryDirectory(prefix="scarbook-playtest-") as folder:
        scratch = Path(folder)
        ledger = scratch / "campaign.yaml"
        start = ["campaign", "new", str(ledger), "--game", test.game]
        for player in test.players:
            start += ["--player", player]
        for pack in test.packs:
            start += ["--pack", str(pack)]
        if test.name:
            start += ["--name", test.name]
        created = _invoke(start, test.file.resolve().parent)
        if created.exit_code != 0:
            return Report(test, 0, (), created.crash or _excerpt(created.stderr or created.stdout))
        differences: list[Difference] = []
        for step in test.steps:
            args = [a.replace("{scratch}", folder) for a in step.args]
            before = ledger.read_bytes()
            done = _invoke(["campaign", *args, "-c", str(ledger)], test.file.resolve().parent)
            differences += compare(step, done, ledger.read_bytes() != before)
        return Report(test, len(test.steps), tuple(differences))
