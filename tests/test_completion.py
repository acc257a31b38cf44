"""Completion at the prompt (issue 28, item 5) through Typer's own mechanism: the shell sets
`_SCARBOOK_COMPLETE=complete_SHELL` and the words typed (bash: COMP_WORDS/COMP_CWORD; zsh and fish:
_TYPER_COMPLETE_ARGS, what Typer's scripts send), and reads the candidates back. Also `--version`, the
completion scripts, and that a command which is not completing loads none of it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script
from typer.testing import CliRunner

from scarbook.cli.main import app

PY = sys.executable


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SETUP, one game won by Ann: the packet for a won game may now be opened; nothing is opened yet."""
    file = tmp_path_factory.mktemp("complete") / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --held-on Bob --eliminated Cat\n", file)
    return file


def bash(words: str, file: Path | None, cword: int | None = None) -> list[str]:
    split = words.split(" ")
    env = {"_SCARBOOK_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(split) - 1 if cword is None else cword)}
    if file is not None:
        env["SCARBOOK_CAMPAIGN"] = str(file)
    result = CliRunner().invoke(app, [], env=env, prog_name="scarbook")
    assert result.exit_code == 0, result.output
    return [line for line in result.stdout.splitlines() if line]


def zsh(words: str, file: Path) -> list[tuple[str, str]]:
    """(value, help) pairs from Typer's zsh answer: `_arguments '*: :(("value":"help" ...))'`."""
    import re

    env = {"_SCARBOOK_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": words, "SCARBOOK_CAMPAIGN": str(file)}
    result = CliRunner().invoke(app, [], env=env, prog_name="scarbook")
    assert result.exit_code == 0, result.output
    return re.findall(r'"((?:[^"]|"")*)":"((?:[^"]|"")*)"', result.stdout)


def status(file: Path) -> dict:
    return json.loads(invoke(["status", "--format", "json"], file).stdout)


def test_bash_completes_commands_and_sticker_names_from_the_campaign(world: Path) -> None:
    assert {"campaign", "build", "validate"} <= set(bash("scarbook ", None))
    assert {"place", "diff", "chronicle", "status"} <= set(bash("scarbook campaign ", None))
    stickers = bash("scarbook campaign place ", world)
    assert set(stickers) == {s["sticker"] for s in status(world)["stickers"]}  # what the campaign shows, no more
    assert set(bash("scarbook campaign place m", world)) == {s for s in stickers if s.startswith("m")} != set()
    assert bash("scarbook campaign place major-city great-b", world) == ["great-britain", "great-britain-card"]


def test_bash_completes_players_packets_cards_and_plays(world: Path) -> None:
    assert bash("scarbook campaign place major-city peru --by ", world) == ["Ann", "Bob", "Cat"]
    assert bash("scarbook campaign game end --winner B", world) == ["Bob"]
    sealed = bash("scarbook campaign open ", world)
    assert sealed and not set(sealed) & set(status(world)["opened_packets"])
    assert "alaska-card" in bash("scarbook campaign destroy al", world)
    assert bash("scarbook campaign game start --play A", world) == ["Ann="]
    assert "Ann=khan-industries" in bash("scarbook campaign game start --play Ann=k", world)
    # the campaign given on the command line wins over $SCARBOOK_CAMPAIGN
    other = world.parent / "other.yaml"
    assert invoke(["new", str(other), "--game", "risk-legacy", "--player", "Zoe", "--player", "Yan",
                   "--player", "Xia"]).exit_code == 0
    assert bash(f"scarbook campaign where coin -c {other} --by ", world) == ["Zoe", "Yan", "Xia"]


def test_opened_packets_are_no_longer_offered(world: Path, tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_bytes(world.read_bytes())
    first = bash("scarbook campaign open ", file)
    pending = status(file)["pending_packets"]
    assert pending and set(pending) <= set(first)
    assert invoke(["open", pending[0]], file).exit_code == 0
    assert pending[0] not in bash("scarbook campaign open ", file)


def test_zsh_completes_with_the_printed_names_as_help(world: Path) -> None:
    pairs = dict(zsh("scarbook campaign place major-city great", world))
    assert pairs == {"great-britain": "Great Britain", "great-britain-card": "Great Britain"}
    stickers = dict(zsh("scarbook campaign place ", world))
    assert stickers["major-city"] == "Major City"
    assert set(stickers) == set(bash("scarbook campaign place ", world))


def test_fish_and_a_campaign_that_cannot_be_read(world: Path, tmp_path: Path) -> None:
    env = {"_SCARBOOK_COMPLETE": "complete_fish", "_TYPER_COMPLETE_ARGS": "scarbook campaign place major-city great",
           "_TYPER_COMPLETE_FISH_ACTION": "get-args", "SCARBOOK_CAMPAIGN": str(world)}
    result = CliRunner().invoke(app, [], env=env, prog_name="scarbook")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["great-britain\tGreat Britain", "great-britain-card\tGreat Britain"]
    assert bash("scarbook campaign place ", tmp_path / "missing.yaml") == []  # nothing, and no traceback


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_show_completion_prints_typers_script(shell: str) -> None:
    result = CliRunner().invoke(app, ["--show-completion", shell], prog_name="scarbook")
    assert result.exit_code == 0
    assert "_SCARBOOK_COMPLETE" in result.stdout and f"complete_{shell}" in result.stdout
    assert CliRunner().invoke(app, ["--show-completion", "tcsh"], prog_name="scarbook").exit_code == 2


def test_version() -> None:
    from scarbook import __version__

    result = CliRunner().invoke(app, ["--version"], prog_name="scarbook")
    assert result.exit_code == 0 and result.stdout == f"scarbook {__version__}\n"


PROBE = """
import json, sys
sys.argv = ['scarbook', *json.loads(sys.argv[1])]
from scarbook.cli.entry import run
try:
    run()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print('MODULES ' + json.dumps(sorted(sys.modules)))
sys.exit(code)
"""


def modules(args: list[str], **env: str) -> set[str]:
    done = subprocess.run([PY, "-c", PROBE, json.dumps(args)], env={**os.environ, **env}, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


def test_a_command_that_is_not_completing_loads_no_completion(world: Path) -> None:
    completion = {"scarbook.cli.completion"}  # (Typer imports its own completion module with itself)
    for args in (["campaign", "status", "-c", str(world)], ["--version"], ["--help"]):
        assert not modules(args) & completion, args
    assert not {m for m in modules(["--version"]) if m.startswith(("scarbook.campaign", "scarbook.compiler"))}
    asked = modules([], _SCARBOOK_COMPLETE="complete_bash", COMP_WORDS="scarbook campaign place ", COMP_CWORD="3",
                    SCARBOOK_CAMPAIGN=str(world))
    assert "scarbook.cli.completion" in asked


def test_bash_completes_game_ids() -> None:
    from scarbook.compiler.load import shipped_games

    every = sorted(shipped_games())
    assert "risk-legacy" in every
    assert sorted(bash("scarbook show ", None)) == every
    assert bash("scarbook tables ri", None) == [g for g in every if g.startswith("ri")]
    assert sorted(bash("scarbook build ", None)) == every
    assert bash("scarbook campaign new x.yaml --game risk-l", None) == ["risk-legacy"]
