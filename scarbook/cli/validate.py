"""`scarbook validate`: check shipped content or homebrew packs, every problem at once."""

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
    all_gaps: Annotated[bool, typer.Option("--all-gaps", help="With no PATH: list every known gap of the shipped "
                                           "games (facts their sources do not give) instead of one summary line.")]
    = False,
) -> None:
    """Validate content against the schemas and the semantic checks.

    Prints FILE:LINE:COL: SEVERITY CODE: MESSAGE for each problem, then a summary. With no PATH, the known gaps of
    the shipped games (warnings: what their sources do not give) are one summary line; --all-gaps lists them.
    Exit 0 when there is no error, 1 when there is.

    Example: scarbook validate my-pack/ --strict
    """
    from scarbook.compiler.validate import validate_paths
    from scarbook.kernel.diagnostics import strict as make_strict

    result = validate_paths(list(paths or []))
    diags = make_strict(result.diagnostics) if strict else result.diagnostics
    if paths or all_gaps or strict or fmt is TextOrJson.json:
        report(diags, result.files, fmt)
    else:  # the shipped games: their known gaps in one line, errors in full
        from collections import Counter

        from scarbook.cli.terminal import echo

        gaps = [d for d in diags if not d.is_error]
        errors = [d for d in diags if d.is_error]
        report(errors, None, fmt)
        codes = ", ".join(f"{code} x{n}" for code, n in sorted(Counter(d.code for d in gaps).items()))
        known = (f"; {len(gaps)} known gaps of the shipped games (warnings {codes}: facts their sources do not "
                 "give, or where the sources disagree), listed by 'scarbook validate --all-gaps'") if gaps else ""
        echo(f"{len(errors)} error{'' if len(errors) == 1 else 's'} in {result.files} files{known}")
    if any(d.is_error for d in diags):
        raise typer.Exit(1)
