"""The compiled validator of the content schema: fastjsonschema's code, shipped or generated.

The package ships the generated code (`scarbook.compiler.generated.validator`, written by
`tools/generate_validator.py`) headed by the digest of the schema files it was generated from; it is
used only while that digest matches (beancount's `hashsrc` guard), imported from its .pyc. Without a
current .pyc its source is compiled once into the cache folder; with a stale digest the code is
generated at run time. `is_valid` is the fast path `schemacheck` takes before asking jsonschema.
"""

from __future__ import annotations

import contextlib
from functools import cache
from pathlib import Path
from typing import Any

from scarbook.compiler.schema import TOP_SCHEMA, standalone

#: Bump when the translation below or the way the generated code is stored changes.
COMPILED_VERSION = "6"


class Invalid(Exception):
    """The compiled validator refused the data (jsonschema then says why)."""


def _for_fastjsonschema(node: Any) -> Any:
    """A schema (the standalone form: every other file under `$defs`, every `$ref` local) said in the
    draft-07 words fastjsonschema knows, meaning the same for jsonschema's draft 2020-12: `prefixItems` +
    `items` become `items` + `additionalItems`; `const: X` becomes `enum: [X]` (the same; its generator
    has no plain-error form for const); `oneOf` becomes `anyOf` (ours never overlap: they differ by type,
    as `_inline` relies on too); a `const` or `enum` of numbers or booleans also states its type (1 == True
    in Python; fastjsonschema 2.22 tells them apart already, this keeps it so). The code may be stricter
    than jsonschema (`$` is `\\Z` there), never laxer: whatever it refuses, jsonschema is asked again.
    Local `$ref`s stay references: each definition becomes one function, not a copy per use (a quarter
    of the code, compiled in a third of the time)."""
    if isinstance(node, list):
        return [_for_fastjsonschema(v) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("$schema", "$comment", "description", "title", "examples"):
            continue
        if key in ("properties", "patternProperties", "$defs") and isinstance(value, dict):  # names, then schemas
            out[key] = {name: _for_fastjsonschema(sub) for name, sub in value.items()}
        elif key == "const":
            out["enum"] = [value]
        elif key == "oneOf":
            out["anyOf"] = _for_fastjsonschema(value)
        else:
            out[key] = value if key in ("enum", "required", "default") else _for_fastjsonschema(value)
    if "prefixItems" in out:
        prefix = out.pop("prefixItems")
        rest = out.pop("items", True)
        out["items"] = prefix
        out["additionalItems"] = rest
    if "allOf" in out and "anyOf" not in out:
        dispatched = _dispatch(out["allOf"])
        if dispatched is not None:
            del out["allOf"]
            out["anyOf"] = dispatched
    values = out.get("enum", [])
    if "type" not in out and values and not any(isinstance(v, str | dict | list) or v is None for v in values):
        kinds = {"boolean" if isinstance(v, bool) else "integer" if isinstance(v, int) else "number" for v in values}
        out["type"] = sorted(kinds)
    return out


def _dispatch(conditions: list[Any]) -> list[Any] | None:
    """`allOf` of `if: {properties: {K: {enum: [V]}}, required: [K]}, then: T` (one V each, one K for all: the
    legality checks' parameters by `check`), said as a two-level `anyOf`: groups of about the square root of
    their number, each `enum: [its values]` first, then one branch per value with its T. At most one `if`
    can hold, so for a value of one of the `if`s both say the same; any other value (or no K) passes the
    `allOf` but no branch of the `anyOf`: stricter, never laxer, and jsonschema is asked again (K has an
    `enum` of exactly these values where this is used). fastjsonschema turns every `if` that does not hold
    into a raised exception: for a check, 34 of them; here about 6 (6 ms less on a cold start). None when
    the `allOf` is not of that form."""
    import math

    key: Any = None
    branches: list[tuple[Any, Any]] = []
    for item in conditions:
        cond = item.get("if") if isinstance(item, dict) and set(item) == {"if", "then"} else None
        if not isinstance(cond, dict) or set(cond) != {"properties", "required"}:
            return None
        props = cond["properties"]
        if not isinstance(props, dict) or len(props) != 1:
            return None
        (k, sub), = props.items()
        if cond["required"] != [k] or key not in (None, k) or not isinstance(sub, dict) or set(sub) != {"enum"} \
                or len(sub["enum"]) != 1 or not isinstance(sub["enum"][0], str):
            return None
        key = k
        branches.append((sub["enum"][0], item["then"]))
    if len(branches) < 4 or len({v for v, _ in branches}) != len(branches):
        return None
    size = math.isqrt(len(branches) - 1) + 1
    groups = [branches[i:i + size] for i in range(0, len(branches), size)]
    # fastjsonschema checks `allOf` before `anyOf` and both before `properties`: each test of K goes first
    # in an `allOf`, so a branch whose value is not K's runs nothing of its T.
    return [{"allOf": [{"properties": {key: {"enum": [v for v, _ in group]}}, "required": [key]}],
             "anyOf": [{"allOf": [{"properties": {key: {"enum": [v]}}}, then]} for v, then in group]}
            for group in groups]


@cache
def _schemas_digest(name: str) -> str:
    """The hash of the translation's version, schema file `name` and every schema file's bytes: what the
    generated source depends on (the shipped module records it, see `shipped`). Once per process: the
    shipped module's check and the cache folder's key both ask for it."""
    import hashlib

    from scarbook.schemas import SCHEMA_DIR

    digest = hashlib.sha256(f"{COMPILED_VERSION}:{name}".encode())
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def _schema_files_digest(name: str) -> str:
    """The key of the compiled code in the cache folder: the schemas' digest and this Python's bytecode."""
    import hashlib
    import marshal
    import sys

    return hashlib.sha256(f"{_schemas_digest(name)}:{sys.implementation.cache_tag}:{sys.version}:"
                          f"{marshal.version}".encode()).hexdigest()[:24]


def _generated_code(name: str) -> str:
    """fastjsonschema's Python source for schema file `name` (its standalone form, translated), made self-contained: a
    refusal raises `Invalid` (no message: jsonschema gives those), nothing is imported from fastjsonschema."""
    import re

    import fastjsonschema

    schema = {**_for_fastjsonschema(standalone(name)), "$schema": "http://json-schema.org/draft-07/schema#"}
    code = fastjsonschema.compile_to_code(schema, use_default=False, use_formats=False, detailed_exceptions=False)
    code = re.sub(r"(?m)^(\s*)raise JsonSchemaValueException\(.*\)$", r"\1raise JsonSchemaValueException", code)
    code = code.replace("from fastjsonschema import JsonSchemaValueException, JsonSchemaValuesException", "")
    # A value's path (`name_prefix`) only words fastjsonschema's messages, which are gone: not built for every
    # item and property (`"...[{x}]".format(**locals())` for each list entry was a fifth of validating).
    code = re.sub(r'\(name_prefix or "data"\) \+ "(?:[^"\\]|\\.)*"(?:\.format\(\*\*locals\(\)\))?', "None", code)
    # Content comes from YAML or JSON, never as a Decimal: a class nothing is an instance of spares importing
    # `decimal` (1 ms of a cold start) and can only refuse more (jsonschema is then asked), never accept more.
    return code.replace("from decimal import Decimal\n", "class Decimal:  # see compiled._generated_code\n    pass\n")


#: The module that holds the generated code of the top schema, shipped with the package (see `shipped`).
SHIPPED_MODULE = "scarbook.compiler.generated.validator"


def shipped_source(name: str = TOP_SCHEMA) -> str:
    """The text of the shipped module (`tools/generate_validator.py` writes it as compiler/generated/validator.py):
    the generated code under a header that records the schemas' digest it was made from."""
    import fastjsonschema

    return (f'"""The compiled validator of {name}: generated by `python tools/generate_validator.py` '
            f"(fastjsonschema {fastjsonschema.VERSION}) from the\nschema files whose digest is SCHEMAS_DIGEST. "
            "Do not edit: change the schemas and run the tool again (a test fails until then).\n\n"
            "Shipped so that the first run after an install does not spend ~70 ms generating and compiling it;\n"
            "`scarbook.compiler.compiled.shipped` uses it only while SCHEMAS_DIGEST matches the schemas.\n"
            '"""\n# ruff: noqa\n# mypy: ignore-errors\n'
            "from scarbook.compiler.compiled import Invalid as JsonSchemaValueException\n"
            "from scarbook.compiler.compiled import Invalid as JsonSchemaValuesException\n\n"
            f"SCHEMAS_DIGEST = {_schemas_digest(name)!r}\n"
            f"{_generated_code(name)}")


def shipped_file(name: str = TOP_SCHEMA) -> Path | None:
    """compiler/generated/validator.py when it holds the code of schema file `name` generated from these very
    schemas (the SCHEMAS_DIGEST near its top matches), else None."""
    import re

    if name != TOP_SCHEMA:
        return None
    path = Path(__file__).parent / "generated" / "validator.py"
    try:
        with open(path, encoding="utf-8") as f:
            head = f.read(4096)
    except OSError:
        return None
    found = re.search(r"^SCHEMAS_DIGEST = '([0-9a-f]+)'$", head, re.MULTILINE)
    return path if found and found.group(1) == _schemas_digest(name) else None


def has_bytecode(source: Path) -> bool:
    """Whether Python imports `source` from an up-to-date .pyc (pip writes them at install; an import
    writes one unless PYTHONDONTWRITEBYTECODE is set): its header has this Python's magic number and,
    the source's mtime and size, or its hash (a hash-based .pyc, as pip writes under SOURCE_DATE_EPOCH)."""
    import importlib.util

    try:
        with open(importlib.util.cache_from_source(str(source)), "rb") as f:
            head = f.read(16)
        st = source.stat()
    except (OSError, NotImplementedError, ValueError):
        return False
    if len(head) < 16 or head[:4] != importlib.util.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(head[4:8], "little")
    if flags & 0b1:  # hash-based: checked against the source's hash, or not checked at all
        return not flags & 0b10 or head[8:16] == importlib.util.source_hash(source.read_bytes())
    return (int.from_bytes(head[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(head[12:16], "little") == st.st_size & 0xFFFFFFFF)


def shipped(name: str = TOP_SCHEMA) -> Any:
    """The shipped module's validator, imported from its .pyc, when it is current; else None (then
    `compiled` compiles its source once into the cache folder rather than on every run)."""
    path = shipped_file(name)
    if path is None or not has_bytecode(path):
        return None
    import importlib

    try:
        return importlib.import_module(SHIPPED_MODULE).validate
    except Exception:  # broken: compiled from source or generated instead
        return None


@cache
def compiled(name: str = TOP_SCHEMA) -> Any:
    """The compiled validator of schema file `name` (a function raising `Invalid`), or None when it cannot
    be had (fastjsonschema missing, say: jsonschema then does all the work).

    The package ships the code of the top schema (`shipped`: imported like any module from its .pyc, about
    2 ms). Without a .pyc (PYTHONDONTWRITEBYTECODE on an editable install), its source is compiled
    (about 40 ms); when the schemas have changed since, or for another schema, the code is generated
    and compiled (about 70 ms). Either code object is kept in the cache folder (`validators/`), keyed
    by the bytes of every schema file and the Python version, so later runs load it in about a
    millisecond. Only the newest entry is kept.
    """
    import marshal
    import types

    ready = shipped(name)
    if ready is not None:
        return ready

    from scarbook.kernel.atomic import replace_file
    from scarbook.kernel.cachedir import cache_dir

    key = _schema_files_digest(name)
    folder = cache_dir() / "validators"
    path = folder / f"{name.split('.')[0]}-{key}.marshal"
    code: Any = None
    from scarbook.kernel.trust import private_like, read_trusted

    try:  # code that is `exec`ed: only from the user's own private file (`scarbook.kernel.trust`)
        code = marshal.loads(read_trusted(path))
    except (OSError, ValueError, EOFError, TypeError):
        code = None
    if not isinstance(code, types.CodeType):  # missing or damaged: made again
        try:
            source = shipped_file(name)
            text = source.read_text("utf-8") if source else _generated_code(name)
            code = compile(text, f"<compiled {name}>", "exec")
        except Exception:  # no fastjsonschema, or a schema it cannot compile: jsonschema alone
            return None
        with contextlib.suppress(OSError):  # no cache is slower, never wrong
            for old in folder.glob(f"{name.split('.')[0]}-*.marshal"):
                old.unlink()
            replace_file(path, marshal.dumps(code), like=private_like())
            from scarbook.kernel.cachedir import cache_stored

            cache_stored(path)  # within the cache folder's cap
    namespace: dict[str, Any] = {"JsonSchemaValueException": Invalid, "JsonSchemaValuesException": Invalid,
                                 "__name__": "scarbook_compiled_validator"}
    try:
        exec(code, namespace)  # our own generated code, from our own cache folder (like a .pyc)
        return namespace["validate"]
    except Exception:
        return None


def is_valid(data: Any) -> bool:
    """Whether the compiled validator accepts `data` (a whole content file); False when it refuses it or
    cannot run, and jsonschema then decides."""
    check = compiled()
    if check is None:
        return False
    try:
        check(data)
    except Exception:  # Invalid, or data the generated code did not expect: ask jsonschema
        return False
    return True


