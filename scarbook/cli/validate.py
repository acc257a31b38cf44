"""`scarbook validate`: check shipped content or homebrew packs, every problem at once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.common import FormatOption, TextOrJson, report


def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Packs to check: folders or single YAML files. Default: all shipped content.",
                       exists=True, show_default=False),
    ] = None,
    fmt: FormatOption = TextOrJson.text,
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
) -> None:
    """Validate content against the schemas and the semantic checks.

    Prints FILE:LINE:COL: SEVERITY CODE: MESSAGE for each problem, then a summary.
    Exit 0 when there is no error, 1 when there is.

    Example: scarbook validate my-pack/ --strict
    """
    from scarbook.compiler.validate import validate_paths
    from scarbook.kernel.diagnostics import strict as make_strict

    result = validate_paths(list(paths or []))
    diags = make_strict(result.diagnostics) if strict else result.diagnostics
    report(diags, result.files, fmt)
    if any(d.is_error for d in diags):
        raise typer.Exit(1)
