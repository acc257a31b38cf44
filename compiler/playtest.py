"""A play-test file read and checked: the game, the players, and each step with its expected outcome.

A play-test file (`schemas/playtest.schema.json`) is a campaign a designer writes beside their game:
each step is a command as typed after `scarbook campaign`, expected to be recorded (exit 0) or refused
with a code, optionally with text its output shows or lacks and fields of its JSON output. This module
only reads: it loads the file with positions, checks it against its schema at the line, splits each
command as a shell would, and refuses what cannot be run in a scratch campaign (`-c`, `new`). Running
the steps is the CLI's (`scarbook.cli.playtest`): the compiler never imports the tracker.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.kernel.diagnostics import Diagnostic, Span, error
from scarbook.kernel.yamlload import escape, load_file

SCHEMA = "playtest.schema.json"
CAMPAIGN_OPTIONS = ("-c", "--campaign")


@dataclass(frozen=True)
class Step:
    """One command and what it must do. `spans` holds where each expectation is written (key -> span)."""

    number: int
    command: str
    args: tuple[str, ...]
    span: Span
    refused: str = ""
    shows: tuple[str, ...] = ()
    lacks: tuple[str, ...] = ()
    json: tuple[tuple[str, Any], ...] = ()
    note: str = ""
    spans: dict[str, Span] = field(default_factory=dict)

    def at(self, key: str) -> Span:
        """Where the expectation `key` is written (`shows/1`, `json/players.0.name`), else the step itself."""
        return self.spans.get(key, self.span)


@dataclass(frozen=True)
class PlayTest:
    """A checked play-test file: `game` is a game folder (absolute) or a shipped game's id."""

    file: Path
    shown: str  # the file's name as the report shows it
    title: str
    game: str
    packs: tuple[Path, ...]
    players: tuple[str, ...]
    name: str
    steps: tuple[Step, ...]
    game_span: Span = Span("")  # where 'game:' is written (a campaign that cannot be created is reported there)


def _texts(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _problem(span: Span, message: str, pointer: str) -> Diagnostic:
    return error(span, "S020", message, pointer)


def _step(number: int, raw: Any, pointer: str, doc: Any) -> tuple[Step | None, list[Diagnostic]]:
    item: dict[str, Any] = {"run": raw} if isinstance(raw, str) else raw
    here = f"{pointer}/run" if not isinstance(raw, str) else pointer
    span = doc.span(here)
    try:
        args = tuple(shlex.split(item["run"]))
    except ValueError as exc:
        return None, [_problem(span, f"step {number}: the command cannot be split into words ({exc}); close the "
                               "quote or escape it", here)]
    if not args:
        return None, [_problem(span, f"step {number} has no command; write one as typed after 'scarbook campaign'",
                               here)]
    if args[0] == "new":
        return None, [_problem(span, f"step {number}: 'new' is not a step; the play-test starts the campaign "
                               "itself from 'game:', 'players:' and 'name:'", here)]
    if any(a in CAMPAIGN_OPTIONS or a.startswith("--campaign=") for a in args):
        return None, [_problem(span, f"step {number}: leave out -c/--campaign; every step runs on the play-test's "
                               "scratch campaign file", here)]
    spans = {"run": span}
    for key in ("refused", "note"):
        if key in item:
            spans[key] = doc.span(f"{pointer}/{key}")
    for key in ("shows", "lacks"):
        value = item.get(key)
        if isinstance(value, list):
            spans.update({f"{key}/{i}": doc.span(f"{pointer}/{key}/{i}") for i in range(len(value))})
        elif value is not None:
            spans[f"{key}/0"] = doc.span(f"{pointer}/{key}")
    wanted: dict[str, Any] = item.get("json") or {}
    fields = tuple((str(k), v) for k, v in wanted.items())
    for key, _value in fields:
        spans[f"json/{key}"] = doc.span(f"{pointer}/json/{escape(key)}")
    return Step(number, item["run"].strip(), args, span, str(item.get("refused", "")), _texts(item.get("shows")),
                _texts(item.get("lacks")), fields, str(item.get("note", "")), spans), []


def read(path: Path, shown: str | None = None) -> tuple[PlayTest | None, list[Diagnostic]]:
    """The play-test at `path`, or None and the problems (each at its file:line:col) that stop it running."""
    from scarbook.compiler.schema import validator
    from scarbook.compiler.schemacheck import _describe

    display = shown if shown is not None else str(path)
    doc = load_file(path, display)
    if doc.diagnostics:
        return None, list(doc.diagnostics)
    if not isinstance(doc.data, dict):
        return None, [_problem(doc.span(""), "a play-test file is a mapping with 'game:', 'players:' and "
                               "'steps:'", "")]
    problems = [d for err in validator(SCHEMA).iter_errors(doc.data) for d in _describe(err, doc)]
    if problems:
        return None, problems
    data = doc.data
    steps: list[Step] = []
    for index, raw in enumerate(data["steps"]):
        step, found = _step(index + 1, raw, f"/steps/{index}", doc)
        problems += found
        if step is not None:
            steps.append(step)
    players = [p.strip() for p in data["players"]]
    if len({p.lower() for p in players}) != len(players):
        problems.append(_problem(doc.span("/players"), "two players have the same name; give each a name of "
                                 "their own", "/players"))
    folder = path.resolve().parent
    game = str(data["game"])
    game_path = folder / game
    packs = []
    for index, pack in enumerate(data.get("packs", [])):
        if not (folder / pack).is_dir():
            problems.append(_problem(doc.span(f"/packs/{index}"), f"pack folder '{pack}' not found (a path relative "
                                     "to the play-test file)", f"/packs/{index}"))
        packs.append(folder / pack)
    if problems:
        return None, problems
    return PlayTest(path, display, str(data.get("playtest", "")), str(game_path) if game_path.exists() else game,
                    tuple(packs), tuple(players), str(data.get("name", "")), tuple(steps), doc.span("/game")), []
