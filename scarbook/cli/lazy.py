"""A Typer command group that imports a command's module only when that command runs.

The documented Click pattern for large command lines (click.palletsprojects.com, "Lazily loading
subcommands"): `list_commands` is static, `get_command` imports the one module it needs and builds
that one command with Typer. A group's `--help` lists its commands from the static short help
kept beside each entry (`tests/test_startup.py` keeps it equal to the command's own docstring),
so `scarbook campaign --help` imports no command module either. It must never import anything
at module level beyond Typer.

Help and usage errors are Typer's plain ones (`rich_markup_mode=None` on every app): Typer's Rich
formatting imports Rich and markdown-it, about 0.12 s, more than Python, Typer and PyYAML together.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import typer
from typer.core import TyperCommand, TyperGroup

try:
    from typer import _click as click  # the Click that Typer runs on (vendored in recent Typer)
except ImportError:  # pragma: no cover - older Typer runs on Click itself
    import click  # type: ignore[no-redef]


class LazyGroup(TyperGroup):
    """Subclass it with `commands_to_load`: name -> ("module:attribute", first paragraph of its help).

    The attribute is a command function (made into a one-command Typer app) or a Typer app (a group).
    """

    commands_to_load: ClassVar[dict[str, tuple[str, str]]] = {}
    _listing = False
    completing: ClassVar[bool] = False  # a shell asks for completions (`scarbook.cli.completion.prepare`)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.commands_to_load, *super().list_commands(ctx)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands_to_load:
            return super().get_command(ctx, cmd_name)
        target, summary = self.commands_to_load[cmd_name]
        if self._listing:  # --help of the group: the name and its summary, nothing imported
            return TyperCommand(cmd_name, help=summary, short_help=summary)
        command = load_command(target, cmd_name)
        if LazyGroup.completing:
            from scarbook.cli.completion import attach

            attach(command)
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                            list[str]]:
        """Click's, with a suggestion for a mistyped command ('stauts': did you mean 'status'?)."""
        name = args[0] if args else ""
        known = self.list_commands(ctx)
        if name and not name.startswith("-") and name not in known and not ctx.resilient_parsing:
            import difflib

            close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
            if close:
                ctx.fail(f"No such command {name!r}. Did you mean {' or '.join(repr(c) for c in close)}?")
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def load_command(target: str, name: str) -> click.Command:
    """Import `module:attribute` and make it a Click command called `name`."""
    module, _, attribute = target.partition(":")
    obj: Any = getattr(importlib.import_module(module), attribute)
    if not isinstance(obj, typer.Typer):
        from scarbook.cli.opt import typer_annotations

        typer_annotations(obj)  # its `opt.Option`s made Typer's
        one = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
        one.command(name)(obj)
        obj = one
    command = typer.main.get_command(obj)
    command.name = name
    return command


def lazy_app(group: type[LazyGroup], name: str, help: str) -> typer.Typer:
    """A Typer app for a lazy group: plain help, no completion, no pretty tracebacks, a no-op callback
    (so Typer keeps it a group with options of its own)."""

    def _group() -> None:
        pass

    return typer.Typer(cls=group, name=name, callback=_group, help=help, no_args_is_help=True,
                       add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
