"""`scarbook migrate`: rewrite old content in place to the current edition of the content format."""

import os
from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.common import echo_err
from scarbook.cli.terminal import echo


def _files(paths: list[Path]) -> list[Path]:
    from scarbook.compiler.load import content_files

    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            found, problems = content_files(path)
            for d in problems:
                echo_err(d.render())
            out.extend(found)
        else:
            out.append(path)
    return out


def migrate(
    paths: Annotated[list[Path], typer.Argument(help="Packs or games to migrate: folders or single YAML files.",
                                                exists=True, show_default=False)],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Change nothing; print what would change as a "
                                          "unified diff.")] = False,
) -> None:
    """Rewrite old content in place to the current edition of the content format.

    Each construct a later edition replaced (the warnings X600 of 'scarbook validate') is rewritten into
    what replaced it, with the same meaning; comments, key order and layout are kept, and every file
    then declares 'edition: N'. Prints each change as FILE:LINE: OLD -> NEW. Running it again changes
    nothing. Exit 0 when every file was migrated (or needed nothing), 1 when a file could not be.

    Example: scarbook migrate my-pack/ --dry-run
    """
    import difflib

    from scarbook.compiler.migrate import MigrateError, migrate_file
    from scarbook.kernel.paths import display_path

    failed = 0
    changed = 0
    import stat

    for path in _files(list(paths)):
        shown = display_path(path)
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block, a device never end: never read
                echo_err(f"{shown}: error: not migrated: not a regular file (a FIFO, device or socket); give a "
                         "content folder or YAML file")
                failed += 1
                continue
        except OSError as exc:
            echo_err(f"{shown}: error: not migrated: {exc.strerror}")
            failed += 1
            continue
        try:
            result = migrate_file(path, shown)
        except (MigrateError, OSError, UnicodeDecodeError) as exc:
            echo_err(f"{shown}: error: not migrated: {exc}")
            failed += 1
            continue
        if not result.changed:
            continue
        changed += 1
        if dry_run:
            a, b = (shown, shown) if Path(shown).is_absolute() else (f"a/{shown}", f"b/{shown}")
            echo("".join(difflib.unified_diff(result.old.splitlines(keepends=True),
                                              result.new.splitlines(keepends=True), a, b)), nl=False)
            continue
        from scarbook.kernel.atomic import replace_file

        replace_file(path, result.new.encode("utf-8"))
        for line in result.changes:
            echo(line)
    verb = "would change" if dry_run else "changed"
    echo(f"{changed} file{'s' if changed != 1 else ''} {verb}" + (f", {failed} not migrated" if failed else ""),
         err=dry_run)
    if failed:
        raise typer.Exit(1)
