"""The plain campaign command lines run without Typer (`scarbook.cli.quick`) exactly as Typer would run them.

For generated command lines of every campaign command, the quick path either leaves the line to Typer (None)
or gives the command's function the same values, of the same types, that Typer gives it; a line Typer refuses
is never taken. The common lines are taken (else the path would be dead code), the table is current, and a
warm plain command imports neither Typer nor Click.
"""

from __future__ import annotations

import enum
import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scarbook.cli.quick import parse
from scarbook.cli.quicktable import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
REFUSED = object()


def typer_values(words: tuple[str, ...], args: list[str]) -> Any:
    """What Typer hands the command's function for `args`, or REFUSED when Typer refuses the line (a usage
    error, or --help). The function itself never runs: Typer's wrapper calls a recorder in its place."""
    from typer import _click as click

    from scarbook.cli.lazy import load_command

    target = COMMANDS[words][0]
    module, _, name = target.partition(":")
    func = getattr(importlib.import_module(module), name)
    command = load_command(target, words[-1])
    wrapper = command.callback
    assert wrapper is not None
    cells = [c for c in wrapper.__closure__ or () if c.cell_contents is func]
    assert len(cells) == 1, "Typer's wrapper no longer holds the function: update this harness"
    seen: dict[str, Any] = {}
    cells[0].cell_contents = lambda **kw: seen.update(kw)
    try:
        with command.make_context(words[-1], list(args)) as ctx:
            command.invoke(ctx)
    except (click.exceptions.ClickException, RuntimeError):  # Click's Exit (--help) is a RuntimeError
        return REFUSED
    finally:
        cells[0].cell_contents = func
    return seen


def same(a: Any, b: Any) -> bool:
    """Equal and of the same type, element by element (an enum member is not its value, a Path not a str)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) if not isinstance(a, enum.Enum) else a is b


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("quick")
    (folder / "file.yaml").write_text("x: 1\n")
    (folder / "dir").mkdir()
    return {"file": str(folder / "file.yaml"), "dir": str(folder / "dir"), "missing": str(folder / "none.yaml")}


WORDS = sorted(COMMANDS)
POOLS = {"str": ["Ann", "alaska", "", "-", "Zoë", "Ann=khan-industries", "=Ann", "3", "lost", "-x", "--by"],
         "int": ["0", "3", "-1", " 7", "+2", "1_0", "x", "12"],
         "path": ["FILE", "DIR", "MISSING", ""]}
NOISE = ["--help", "--nope", "-z", "---x", "--", "stray", "-"]


@st.composite
def command_lines(draw: st.DrawFn) -> tuple[tuple[str, ...], list[str]]:
    """A campaign command and a line of its own parameters, mostly well formed: each option present or not, in
    any order, its value separate, after `=` or attached (`-cFILE`), from a pool of good and bad values for its
    type; now and then repeated, or with a token no plain line has."""
    words = draw(st.sampled_from(WORDS))
    tokens: list[list[str]] = []
    arguments: list[str] = []
    for _name, kind, opts, form, multiple, required, _default in COMMANDS[words][1]:
        pool = list(form[2]) + ["xml"] if form[0] == "choice" else POOLS.get(form[0], [])
        if kind == "argument":
            if required or draw(st.booleans()):
                arguments.append(draw(st.sampled_from(pool)))
            continue
        times = draw(st.integers(0, 2 if multiple else 1) if not required else st.integers(1, 2))
        if not multiple and draw(st.integers(0, 9)) == 0:
            times += 1  # an option given twice
        for _ in range(times):
            opt = draw(st.sampled_from(opts))
            if kind == "flag":
                tokens.append([opt] if draw(st.integers(0, 9)) else [f"{opt}=yes"])
                continue
            value = draw(st.sampled_from(pool))
            how = draw(st.integers(0, 2))
            if how == 1 and opt.startswith("--"):
                tokens.append([f"{opt}={value}"])
            elif how == 2 and not opt.startswith("--"):
                tokens.append([f"{opt}{value}"])
            else:
                tokens.append([opt, value])
    line = [t for i in draw(st.permutations(range(len(tokens)))) for t in tokens[i]]
    place = 0
    for argument in arguments:  # in their order (Click assigns them in order), anywhere among the options
        place = draw(st.integers(place, len(line)))
        line.insert(place, argument)
        place += 1
    if draw(st.integers(0, 4)) == 0:
        line.insert(draw(st.integers(0, len(line))), draw(st.sampled_from(NOISE)))
    return words, line


def resolve(args: list[str], places: dict[str, str]) -> list[str]:
    return [a.replace("FILE", places["file"]).replace("DIR", places["dir"]).replace("MISSING", places["missing"])
            for a in args]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=command_lines())
def test_a_line_taken_gives_the_values_typer_gives(line: tuple[tuple[str, ...], list[str]],
                                                   places: dict[str, str]) -> None:
    words, raw = line
    args = resolve(raw, places)
    quick = parse([*words, *args])
    if quick is None:
        return  # Typer reads it, as before
    expected = typer_values(words, args)
    assert expected is not REFUSED, (words, args)
    assert same(quick[1], expected), (words, args, quick[1], expected)


COMMON = [
    ["campaign", "status", "-c", "FILE"],
    ["campaign", "status", "--format", "json", "-c", "FILE"],
    ["campaign", "status", "--after", "3", "--campaign=FILE"],
    ["campaign", "log", "-cFILE"],
    ["campaign", "check", "-c", "FILE"],
    ["campaign", "where", "bunker", "--by", "Ann", "-c", "FILE"],
    ["campaign", "place", "bunker", "alaska", "--by", "Ann", "--dry-run", "-c", "FILE"],
    ["campaign", "place", "coin", "alaska", "--value", "2", "--note", "Bob agreed"],
    ["campaign", "game", "start", "--play", "Ann=khan-industries", "--play", "Bob=saharan-republic"],
    ["campaign", "game", "end", "--winner", "Ann", "--held-on", "Bob", "--eliminated", "Cat"],
    ["campaign", "undo", "-c", "FILE"],
    ["campaign", "sheet", "--out", "MISSING", "--paper", "letter"],
    ["campaign", "new", "MISSING", "--game", "risk-legacy", "--player", "Ann", "--player", "Bob"],
]


@pytest.mark.parametrize("line", COMMON, ids=[" ".join(c[1:3]) for c in COMMON])
def test_the_common_lines_are_taken_with_typers_values(line: list[str], places: dict[str, str]) -> None:
    argv = resolve(line, places)
    quick = parse(argv)
    assert quick is not None, argv
    words = next(w for w in COMMANDS if tuple(argv[: len(w)]) == w)
    assert same(quick[1], typer_values(words, argv[len(words):]))


LEFT_TO_TYPER = [
    ["campaign", "status", "--help"],
    ["campaign", "status", "--format", "xml"],
    ["campaign", "status", "--after", "-1"],
    ["campaign", "place", "bunker"],  # a missing argument
    ["campaign", "place", "bunker", "alaska", "extra"],
    ["campaign", "place", "bunker", "alaska", "--by"],  # a missing value
    ["campaign", "place", "bunker", "alaska", "--dry-run=yes"],
    ["campaign", "status", "--", "-c"],
    ["campaign", "status", "--by", "Ann"],  # not an option of status
    ["campaign", "status", "-c", "a", "-c", "b"],  # twice
    ["campaign", "new", "DIR", "--game", "g", "--player", "A"],  # a folder for a file
    ["campaign", "--help"],
    ["campaign"],
    ["--version"],
    ["validate"],
]


@pytest.mark.parametrize("line", LEFT_TO_TYPER, ids=[" ".join(c) for c in LEFT_TO_TYPER])
def test_anything_else_is_left_to_typer(line: list[str], places: dict[str, str]) -> None:
    assert parse(resolve(line, places)) is None


def test_completion_is_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse(["campaign", "status"]) is not None
    monkeypatch.setenv("_SCARBOOK_COMPLETE", "bash_complete")
    assert parse(["campaign", "status"]) is None


def test_the_table_is_current() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_cli.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr + "\nrun: python tools/generate_cli.py"


def test_every_campaign_command_is_in_the_table() -> None:
    from scarbook.cli.campaign.group import CampaignGroup, GameGroup

    names: set[tuple[str, ...]] = {("campaign", n) for n in CampaignGroup.commands_to_load if n != "game"}
    names |= {("campaign", "game", n) for n in GameGroup.commands_to_load}
    assert names == set(COMMANDS)


def test_a_plain_command_line_imports_no_typer(tmp_path: Path) -> None:
    """The installed `scarbook`, run as a user runs it: `status` (warm) and a refused `place` import neither
    Typer nor Click; `status --help` still goes through Typer."""
    env = dict(os.environ, SCARBOOK_CACHE=str(tmp_path / "cache"))
    ledger = tmp_path / "c.yaml"
    scarbook = str(Path(sys.executable).with_name("scarbook"))
    made = subprocess.run([scarbook, "campaign", "new", str(ledger), "--game", "risk-legacy", "--player", "Ann",
                           "--player", "Bob", "--player", "Cat"], capture_output=True, text=True, env=env)
    assert made.returncode == 0, made.stderr
    probe = ("import sys, runpy; sys.argv = ['scarbook', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('scarbook.cli.entry', run_name='x').get('run')()\n"
             "except SystemExit as e:\n    code = e.code\n"
             "print('TYPER' if any(m == 'typer' or m.startswith(('typer.', 'click')) for m in sys.modules) "
             "else 'PLAIN', code, file=sys.stderr)\n")
    for args, expect, code in ((["campaign", "status", "-c", str(ledger)], "PLAIN", 0),
                               (["campaign", "place", "bunker", "nowhere", "--by", "Ann", "-c", str(ledger)],
                                "PLAIN", 1),
                               (["campaign", "status", "--help"], "TYPER", 0)):
        done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env)
        assert done.stderr.strip().splitlines()[-1] == f"{expect} {code}", (args, done.stderr)
