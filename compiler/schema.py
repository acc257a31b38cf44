"""The content schema files: loaded once, their $refs inlined for jsonschema, exported standalone.

`validator` is jsonschema's validator of one schema file (jsonschema is imported only when asked);
`standalone` rewrites the files as one document for other tools. Checking a document against them
is `schemacheck` (compiled code first, jsonschema's errors worded when it refuses); the compiled code
is `compiled`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from scarbook.kernel.yamlload import escape

TOP_SCHEMA = "content-file.schema.json"



@cache
def schemas() -> dict[str, dict[str, Any]]:
    """Every schema file of the package, by file name."""
    from scarbook.schemas import SCHEMA_DIR

    return {p.name: json.loads(p.read_text("utf-8")) for p in sorted(SCHEMA_DIR.glob("*.schema.json"))}


@cache
def registry() -> Any:
    """All schema files by file name, as any tool reading them from one folder resolves their $refs.

    The files have no `$id`, so a relative `$ref` resolves against where the file is: check-jsonschema,
    editors and `jsonschema` work offline without a base URI.
    """
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    return Registry().with_resources(
        (name, Resource.from_contents(s, default_specification=DRAFT202012)) for name, s in schemas().items()
    )


def _inline(node: Any, base: str, seen: tuple[str, ...] = ()) -> Any:
    """The schema with every $ref replaced by its target, but for a recursive one (kept, by its file name).

    jsonschema resolves a $ref on every visit; inlined, validating 10,000 cards is several times faster.
    """
    if isinstance(node, list):
        return [_inline(v, base, seen) for v in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        ref = node["$ref"]
        file, _, pointer = ref.partition("#")
        file = file or base
        if f"{file}#{pointer}" in seen:  # a recursive schema (a condition holds conditions) stays a $ref,
            return {**node, "$ref": f"{file}#{pointer}"}  # by file name, which the registry resolves
        target: Any = schemas()[file]
        for part in [p for p in pointer.split("/") if p]:
            target = target[part.replace("~1", "/").replace("~0", "~")]
        merged = dict(_inline(target, file, (*seen, f"{file}#{pointer}")))  # type: ignore[arg-type]
        merged.update({k: v for k, v in node.items() if k != "$ref"})
        return merged
    # Our oneOf branches never overlap (they differ by type), so anyOf, which stops at the first match, is equal.
    return {("anyOf" if k == "oneOf" else k): (_inline(v, base, seen) if k not in ("$defs", "const", "enum") else v)
            for k, v in node.items()}


@cache
def validator(name: str = TOP_SCHEMA, pointer: str = "") -> Any:
    from jsonschema import Draft202012Validator

    schema: Any = schemas()[name]
    for part in [p for p in pointer.split("/") if p]:
        schema = schema[part]
    return Draft202012Validator(_inline(schema, name), registry=registry())


def _rebased(node: Any, here: str, root: str) -> Any:
    """`node` (from schema file `here`) with every $ref made local to the standalone form of `root`."""
    if isinstance(node, list):
        return [_rebased(v, here, root) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str):
            file, _, pointer = value.partition("#")
            file = file or here
            out[key] = "#" + pointer if file == root else f"#/$defs/{escape(file)}{pointer}"
        elif key in ("const", "enum", "examples", "default"):
            out[key] = value
        else:
            out[key] = _rebased(value, here, root)
    return out


def _referenced_files(name: str) -> list[str]:
    """Every other schema file `name` needs, directly or through another file."""
    found: list[str] = []
    todo = [name]
    while todo:
        text = json.dumps(schemas()[todo.pop()])
        for other in schemas():
            if other != name and other not in found and f'"{other}#' in text:
                found.append(other)
                todo.append(other)
    return sorted(found)


def standalone(name: str) -> dict[str, Any]:
    """Schema file `name` with every file it refers to embedded under its `$defs`, so it needs no other file:
    for tools that take exactly one schema (and for `scarbook schema --export`)."""
    from scarbook import __version__

    doc = _rebased(schemas()[name], name, name)
    defs = dict(doc.get("$defs", {}))
    for other in _referenced_files(name):
        embedded = _rebased(schemas()[other], other, name)
        embedded.pop("$schema", None)
        defs[other] = embedded
    if defs:
        doc["$defs"] = defs
    doc["$comment"] = (f"{EXPORT_MARK} (scarbook {__version__}); "
                       "the source files are in 'scarbook schema --path'.")
    return doc


EXPORT_MARK = "Standalone form written by 'scarbook schema --export'"


class ExportRefused(Exception):
    """`export_standalone` would write through a symlink or replace a file it did not write: nothing was written."""


def _written_by_export(path: Path) -> bool:
    """Whether `path` (a regular file, not a symlink) holds a schema a previous `schema --export` wrote."""
    from scarbook.kernel.yamlload import read_capped

    try:
        doc = json.loads(read_capped(path, 1 << 24))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and str(doc.get("$comment", "")).startswith(EXPORT_MARK)


def export_standalone(folder: Path) -> list[Path]:
    """Write the standalone form of every schema file into `folder`; returns the files written.

    Written as `build` writes: each file by a temporary file and a rename (never through a symlink at its
    name, never half a file). Before anything is written, every output name is looked at: a symlink, a
    folder or any other non-regular file there, or a file that a previous export did not write (a user's
    own `board.schema.json`), refuses the whole export (ExportRefused, nothing written); a previous
    export's files are replaced."""
    import os
    import stat

    from scarbook.kernel.atomic import replace_file

    names = list(schemas())
    for name in names:
        target = folder / name
        try:
            st = os.lstat(target)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode):
            raise ExportRefused(f"{target} is a symbolic link; nothing was written (remove it, or export into "
                                "a new folder)")
        if not stat.S_ISREG(st.st_mode) or not _written_by_export(target):
            raise ExportRefused(f"{target} exists and was not written by 'scarbook schema --export'; nothing was "
                                "written (move it away, or export into a new folder)")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names:
        target = folder / name
        replace_file(target, (json.dumps(standalone(name), indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        written.append(target)
    return written
