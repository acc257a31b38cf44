"""`scarbook examples`: the example packs and games shipped with scarbook, and copying one to start from."""

from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.common import fail_usage

app = typer.Typer(
    name="examples",
    help="The example packs and games shipped with scarbook.\n\n"
         "Example: scarbook examples --list && scarbook examples copy new-scar my-pack",
    add_completion=False,
    pretty_exceptions_enable=False, rich_markup_mode=None,
    invoke_without_command=True,
)


def _summary(folder: Path) -> str:
    """The first comment line after the modeline of the example's first file."""
    for path in sorted(folder.glob("*.yaml")):
        for line in path.read_text("utf-8").splitlines():
            if line.startswith("#") and "yaml-language-server" not in line:
                return line.lstrip("# ").strip()
    return ""


@app.callback()
def examples(
    ctx: typer.Context,
    list_them: Annotated[bool, typer.Option("--list", help="List the examples with where they are.")] = False,
) -> None:
    """List the shipped examples (--list), or copy one (examples copy NAME DIR)."""
    from scarbook.examples import examples as shipped

    if ctx.invoked_subcommand is not None:
        return
    if not list_them:
        typer.echo(ctx.get_help())
        return
    found = shipped()
    width = max((len(n) for n in found), default=0)
    for name, folder in found.items():
        typer.echo(f"{name:<{width}}  {_summary(folder)}")
    from scarbook.examples import EXAMPLES_DIR

    typer.echo(f"(in {EXAMPLES_DIR}; copy one with 'scarbook examples copy NAME DIR')")


@app.command("copy")
def copy(
    name: Annotated[str, typer.Argument(help="The example (see 'scarbook examples --list').", metavar="NAME")],
    folder: Annotated[Path, typer.Argument(help="A new (or empty) folder to copy it into.", file_okay=False,
                                           metavar="DIR")],
) -> None:
    """Copy a shipped example into DIR, its editor modelines pointing at this install's schemas.

    Example: scarbook examples copy new-scar my-pack && scarbook validate my-pack
    """
    from scarbook.compiler.scaffold import ScaffoldError, copy_example
    from scarbook.examples import examples as shipped
    from scarbook.kernel.diagnostics import did_you_mean

    found = shipped()
    if name not in found:
        fail_usage(f"no example '{name}'{did_you_mean(name, found)}; examples: {', '.join(found)}")
    try:
        written = copy_example(found[name], folder)
    except ScaffoldError as exc:
        fail_usage(str(exc))
    for path in written:
        typer.echo(f"wrote {path}")
