"""Options and arguments declared without importing Typer: `opt.Option(...)` and `opt.Argument(...)`.

A command module writes `Annotated[str, opt.Option("--by", help=...)]` exactly as it would write
`typer.Option(...)`; the declaration is kept as data (`Declared`). `typer_annotations` turns a command's
declarations into Typer's when Typer builds the command (`scarbook.cli.lazy.load_command`), so the module
itself never imports Typer. That lets `scarbook.cli.quick` run a common command line straight away, with
Typer (a third of a warm command's start-up) never imported: see that module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


class Declared(NamedTuple):
    """`typer.Option(*decls, **settings)` or `typer.Argument(...)`, not yet made."""

    kind: str  # "Option" or "Argument"
    decls: tuple[str, ...]
    settings: dict[str, Any]


def Option(*decls: str, **settings: Any) -> Any:  # noqa: N802 - spelled as typer.Option, which it stands for
    """`typer.Option(*decls, **settings)`, made when Typer builds the command."""
    return Declared("Option", decls, settings)


def Argument(*decls: str, **settings: Any) -> Any:  # noqa: N802 - spelled as typer.Argument
    """`typer.Argument(*decls, **settings)`, made when Typer builds the command."""
    return Declared("Argument", decls, settings)


def typer_annotations(func: Callable[..., Any]) -> None:
    """Replace each `Declared` in `func`'s `Annotated` parameters by the Typer object it declares (in place:
    Typer then reads the function's signature as usual). A function with none is left as it is."""
    import typing

    import typer

    hints = typing.get_type_hints(func, include_extras=True)
    changed = False
    for name, hint in hints.items():
        if typing.get_origin(hint) is not typing.Annotated:
            continue
        base, *extras = typing.get_args(hint)
        made = [getattr(typer, e.kind)(*e.decls, **e.settings) if isinstance(e, Declared) else e for e in extras]
        if made != extras:
            hints[name] = typing.Annotated[(base, *made)]  # type: ignore[valid-type]
            changed = True
    if changed:
        func.__annotations__ = hints
