"""The commands reference (docs/reference/commands.md) and the README's command list are checked against the
CLI itself: every command and subcommand has its line in the reference naming each of its options, and the
README's list names every command (issue 37)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import typer

from scarbook.cli.lazy import click  # the Click that Typer runs on (vendored in recent Typer)
from scarbook.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
#: Options every campaign command takes, documented once at the top of the section.
EVERYWHERE = {"--help", "--campaign"}


def _leaves() -> Iterator[tuple[str, click.Command]]:
    """(`campaign game start`, its click command) for every command the CLI has."""
    root = typer.main.get_command(app)

    def walk(cmd: click.Command, path: list[str], ctx: click.Context) -> Iterator[tuple[str, click.Command]]:
        if hasattr(cmd, "list_commands"):
            for name in cmd.list_commands(ctx):  # type: ignore[attr-defined]
                sub = cmd.get_command(ctx, name)  # type: ignore[attr-defined]
                if sub is not None and not sub.hidden:
                    yield from walk(sub, [*path, name], click.Context(sub, parent=ctx, info_name=name))
        else:
            yield " ".join(path), cmd

    yield from walk(root, [], click.Context(root, info_name="scarbook"))


def _options(cmd: click.Command) -> set[str]:
    return {name for p in cmd.params if p.param_type_name == "option" for name in p.opts if name.startswith("--")}


def _lines(command: str, text: str) -> list[str]:
    """The reference's bullet lines for a command: `- \\`scarbook COMMAND ...` (a campaign command without
    `scarbook `), a subcommand named by its own words."""
    short = command.removeprefix("campaign ") if command.startswith("campaign ") else command
    patterns = [f"- `scarbook {command}", f"- `{command}"] + ([f"- `campaign {short}"] if short != command else [])
    return [line for line in text.splitlines() if any(line.startswith(p + (" " if not p.endswith(" ") else ""))
                                                     or line.startswith(p + "`") for p in patterns)]


def test_the_reference_names_every_command_and_each_of_its_options() -> None:
    text = (ROOT / "docs" / "reference" / "commands.md").read_text("utf-8")
    missing = []
    for command, cmd in _leaves():
        found = _lines(command, text)
        if not found:
            missing.append(f"{command}: no line in commands.md")
            continue
        said = " ".join(found)
        for option in sorted(_options(cmd) - EVERYWHERE):
            if not re.search(re.escape(option) + r"(?![\w-])", said):
                missing.append(f"{command}: {option}")
    assert missing == [], missing


def test_the_readme_command_list_names_every_command() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    listed = readme.split("scarbook validate [PATH", 1)[1].split("```", 1)[0]
    campaign = re.search(r"scarbook campaign ([\w|. -]+)", listed)
    assert campaign, "the README lists the campaign commands on one line"
    names = set(campaign.group(1).split("|"))
    missing = []
    for command, _ in _leaves():
        if command.startswith("campaign "):
            if command.removeprefix("campaign ") not in names:
                missing.append(command)
        elif f"scarbook {command}" not in readme:
            missing.append(command)
    assert missing == [], f"the README's command list lacks {missing}"
