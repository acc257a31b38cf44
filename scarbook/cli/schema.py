"""`scarbook schema`: where this install keeps the JSON Schemas, or a standalone copy of them for other tools."""

from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.common import fail_usage


def schema(
    path: Annotated[bool, typer.Option("--path", help="Print the folder of the installed schema files.")] = False,
    export: Annotated[
        Path | None,
        typer.Option("--export", metavar="DIR", file_okay=False,
                     help="Write every schema, each standalone (no $ref to another file), into DIR."),
    ] = None,
) -> None:
    """Locate the content schemas, or export standalone copies for editors and JSON Schema tools.

    The installed schemas refer to each other by relative file name and have no $id, so
    check-jsonschema and editors resolve them offline from their folder. An exported schema
    embeds every file it needs, for tools that take exactly one file.

    Example: check-jsonschema --schemafile "$(scarbook schema --path)/content-file.schema.json" my-pack/*.yaml
    """
    from scarbook.schemas import SCHEMA_DIR

    if not path and export is None:
        fail_usage("give --path or --export DIR (see 'scarbook schema --help')")
    if path:
        typer.echo(str(SCHEMA_DIR))
    if export is not None:
        from scarbook.compiler.schema import ExportRefused, export_standalone

        try:
            written = export_standalone(export)
        except ExportRefused as exc:
            fail_usage(str(exc))
        except OSError as exc:
            fail_usage(f"cannot write to {export}: {exc.strerror}")
        typer.echo(f"wrote {len(written)} standalone schemas to {export} "
                   f"(start with {export / 'content-file.schema.json'})", err=path)
