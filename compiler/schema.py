"""JSON Schema validation of content files, with errors a person can act on.

All schema files are loaded once; their $refs are inlined so validation never resolves a reference
at run time. Each file is validated against `content-file.schema.json`; the error tree is
collapsed with `best_match` to one error per place, unknown keys are reported at the key itself with a "did you mean".
jsonschema is imported here only, so modules that merely use the content model stay light.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, did_you_mean, error
from .model import SINGULAR
from .yamlload import Document, escape

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
    """The schema with every $ref replaced by its target (ours are not recursive).

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
        if (file, pointer) in seen:  # pragma: no cover - a recursive schema stays a $ref
            return node
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
    return Draft202012Validator(_inline(schema, name))


# --- the compiled validator (the valid path) ------------------------------------------------------
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
    return code.replace("from decimal import Decimal\n", "class Decimal:  # see schema._generated_code\n    pass\n")


#: The module that holds the generated code of the top schema, shipped with the package (see `shipped`).
SHIPPED_MODULE = "scarbook.compiler.validator_code"


def shipped_source(name: str = TOP_SCHEMA) -> str:
    """The text of the shipped module (`tools/generate_validator.py` writes it as compiler/validator_code.py):
    the generated code under a header that records the schemas' digest it was made from."""
    import fastjsonschema

    return (f'"""The compiled validator of {name}: generated by `python tools/generate_validator.py` '
            f"(fastjsonschema {fastjsonschema.VERSION}) from the\nschema files whose digest is SCHEMAS_DIGEST. "
            "Do not edit: change the schemas and run the tool again (a test fails until then).\n\n"
            "Shipped so that the first run after an install does not spend ~70 ms generating and compiling it;\n"
            "`scarbook.compiler.schema.shipped` uses it only while SCHEMAS_DIGEST matches the schemas.\n"
            '"""\n# ruff: noqa\n# mypy: ignore-errors\n'
            "from scarbook.compiler.schema import Invalid as JsonSchemaValueException\n"
            "from scarbook.compiler.schema import Invalid as JsonSchemaValuesException\n\n"
            f"SCHEMAS_DIGEST = {_schemas_digest(name)!r}\n"
            f"{_generated_code(name)}")


def shipped_file(name: str = TOP_SCHEMA) -> Path | None:
    """compiler/validator_code.py when it holds the code of schema file `name` generated from these very
    schemas (the SCHEMAS_DIGEST near its top matches), else None."""
    import re

    if name != TOP_SCHEMA:
        return None
    path = Path(__file__).with_name("validator_code.py")
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

    from .atomic import replace_file
    from .cachedir import cache_dir

    key = _schema_files_digest(name)
    folder = cache_dir() / "validators"
    path = folder / f"{name.split('.')[0]}-{key}.marshal"
    code: Any = None
    try:
        code = marshal.loads(path.read_bytes())
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
            replace_file(path, marshal.dumps(code))
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


def known_checks() -> list[str]:
    return sorted(schemas()["checks.schema.json"]["$defs"]["params"])


def pointer_of(path: Any) -> str:
    return "".join(f"/{escape(p)}" for p in path)


def what(pointer: str) -> str:
    """'a territory', 'a card' … from the nearest named section in a pointer."""
    for part in reversed(pointer.split("/")):
        if part in SINGULAR:
            word = SINGULAR[part]
            return f"an {word}" if word[0] in "aeiou" else f"a {word}"
    return "this mapping" if pointer else "the file"


def _leaves(err: Any) -> Any:
    """Pick the error a person should see from a oneOf/anyOf tree."""
    from jsonschema.exceptions import best_match

    if not err.context:
        return err
    flat, stack = [], list(err.context)
    while stack:
        sub = stack.pop()
        if sub.validator in ("oneOf", "anyOf") and sub.context:
            stack.extend(sub.context)
        else:
            flat.append(sub)
    shaped = [e for e in flat if e.validator != "type"]  # the branch whose shape the value already has
    return best_match(shaped or flat)


def _allowed_keys(schema: dict[str, Any]) -> list[str]:
    return sorted(schema.get("properties", {}))


def _check_name(err: Any, doc: Document) -> str | None:
    """The legality check whose parameters `err` is about (an error under checks.schema.json's if/then)."""
    if "then" not in err.schema_path:
        return None
    path = list(err.absolute_path)
    for k in range(len(path) - 2, -1, -1):
        if path[k] == "checks" and isinstance(path[k + 1], int):
            node: Any = doc.data
            for part in path[: k + 2]:
                node = node[part]
            name = node.get("check") if isinstance(node, dict) else None
            return name if isinstance(name, str) else None
    return None


def _describe_params(err: Any, doc: Document, name: str) -> Iterator[Diagnostic]:
    """X404: a legality check's parameters, said in the check's own words."""
    pointer = pointer_of(err.absolute_path)
    allowed = [k for k in _allowed_keys(err.schema) if k not in ("check", "cite")]
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        for key in err.instance:
            if key not in allowed and key not in ("check", "cite"):
                child = f"{pointer}/{escape(key)}"
                yield error(doc.span(child, key=True), "X404", f"check '{name}' has no parameter '{key}'"
                            f"{did_you_mean(key, allowed)}; its parameters: {', '.join(allowed) or 'none'}", child)
    elif err.validator == "required" and isinstance(err.instance, dict):
        for key in err.validator_value:
            if key not in err.instance:
                yield error(doc.span(pointer), "X404", f"check '{name}' needs the parameter '{key}'; add it "
                            f"(required: {', '.join(err.validator_value)})", pointer)
    else:
        leaf = _leaves(err)
        lp = pointer_of(leaf.absolute_path)
        yield error(doc.span(lp), "X404", f"check '{name}': {leaf.message}", lp)


def _describe(err: Any, doc: Document) -> Iterator[Diagnostic]:
    pointer = pointer_of(err.absolute_path)
    validator_name = err.validator
    check = _check_name(err, doc)
    if check is not None:
        path = list(_leaves(err).absolute_path)
        if path and path[-1] in ("check", "cite"):
            return  # every check's own keys: the base schema reports them (S0xx), not twice
        yield from _describe_params(err, doc, check)
        return
    if validator_name in ("additionalProperties", "unevaluatedProperties") and isinstance(err.instance, dict):
        allowed = _allowed_keys(err.schema)
        for key in err.instance:
            if key not in allowed:
                child = f"{pointer}/{escape(key)}"
                hint = did_you_mean(key, allowed) or (f"; allowed: {', '.join(allowed)}" if allowed else "")
                yield error(doc.span(child, key=True), "S001", f"unknown key '{key}' in {what(child)}{hint}",
                            child)
        return
    if validator_name == "required":
        missing = [k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance]
        for key in missing:
            yield error(doc.span(pointer), "S002", f"{what(pointer)} needs '{key}'; add it", pointer)
        return
    if validator_name in ("oneOf", "anyOf"):
        expected = _expected(err)
        if expected:
            yield error(doc.span(pointer), "S003", f"{_show(err.instance)} should be {expected}", pointer)
            return
        leaf = _leaves(err)
        if leaf is not err:
            yield from _describe(leaf, doc)
            return
    leaf = _leaves(err)
    lp = pointer_of(leaf.absolute_path)
    message = leaf.message
    if leaf.validator == "enum" and isinstance(leaf.instance, str):
        message = (f"'{leaf.instance}' is not one of {', '.join(map(str, leaf.validator_value))}"
                   f"{did_you_mean(leaf.instance, map(str, leaf.validator_value))}")
    elif leaf.validator == "pattern" and lp.endswith("/id") or leaf.validator == "pattern" and isinstance(
            leaf.instance, str) and "a-z0-9" in leaf.validator_value:
        suggestion = "-".join("".join(c if c.isalnum() else " " for c in leaf.instance.lower()).split())
        message = f"id '{leaf.instance}' must be lowercase kebab-case" + (
            f" (did you mean '{suggestion}'?)" if suggestion else "")
    elif leaf.validator == "type":
        yield error(doc.span(lp), "S004", f"{leaf.message} in {what(lp)}", lp)
        return
    elif leaf.validator in ("maxLength", "minLength") and isinstance(leaf.instance, str):
        message = (f"'{lp.rsplit('/', 1)[-1]}' {_show(leaf.instance)} is {len(leaf.instance)} characters long; the "
                   f"{'limit' if leaf.validator == 'maxLength' else 'minimum'} is {leaf.validator_value}")
    elif leaf.validator in ("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "maxItems", "minItems"):
        message = _bound_message(leaf, lp)
    if len(message) > 300:  # never echo a huge value back
        message = f"{message[:200]}…{message[-80:]}"
    yield error(doc.span(lp), "S010", message, lp)


def _bound_message(leaf: Any, pointer: str) -> str:
    """"'resources' is 100000, more than the most a pack may ask for (99); use a number up to 99"."""
    name = pointer.rsplit("/", 1)[-1]
    field = f"'{name}'" if name and not name.isdigit() else what(pointer)
    limit = leaf.validator_value
    if leaf.validator in ("maxItems", "minItems"):
        many = len(leaf.instance) if isinstance(leaf.instance, list) else "?"
        word = "at most" if leaf.validator == "maxItems" else "at least"
        return f"{field} lists {many} items; it may list {word} {limit}"
    value = _show(leaf.instance)
    if leaf.validator == "maximum":
        return f"{field} is {value}, more than the most a pack may ask for ({limit}); use a number up to {limit}"
    if leaf.validator == "exclusiveMaximum":
        return f"{field} is {value}; it must be less than {limit}"
    if leaf.validator == "minimum":
        return f"{field} is {value}, less than the least allowed ({limit}); use a number of at least {limit}"
    return f"{field} is {value}; it must be more than {limit}"


_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "array": "a list",
               "object": "a mapping", "boolean": "true or false", "null": "empty"}


def _expected(err: Any) -> str:
    """'a whole number, a list or {unknown: "why"}' from the branches of a oneOf, when all are type errors."""
    words: list[str] = []
    stack = list(err.context)
    while stack:
        sub = stack.pop(0)
        if list(sub.absolute_path) != list(err.absolute_path):
            return ""  # the value has the right shape; a deeper error is the one to show
        if sub.validator in ("oneOf", "anyOf"):
            stack.extend(sub.context)
            continue
        if sub.validator == "type":
            if sub.schema.get("required") == ["unknown"]:
                word = '{unknown: "why it is unknown"}'
            else:
                types = sub.validator_value if isinstance(sub.validator_value, list) else [sub.validator_value]
                word = " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in types)
        elif sub.validator == "const":
            word = repr(sub.validator_value)
        else:
            return ""
        if word not in words:
            words.append(word)
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 40 else text[:37] + "..."


def validate_document(doc: Document) -> list[Diagnostic]:
    """Schema diagnostics for one loaded file (none when it did not load)."""
    if doc.data is None:
        return []
    if not isinstance(doc.data, dict):
        return [error(doc.span(""), "S000", "a content file must be a mapping of sections "
                      "(game:, territories:, cards: …)")]
    if is_valid(doc.data):  # the valid path: compiled code, about 20 x faster than jsonschema
        return []
    out: list[Diagnostic] = []
    for err in validator().iter_errors(doc.data):
        out.extend(_describe(err, doc))
    return out


# --- standalone schemas for other tools -------------------------------------------------------
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
    doc["$comment"] = (f"Standalone form written by 'scarbook schema --export' (scarbook {__version__}); "
                       "the source files are in 'scarbook schema --path'.")
    return doc


def export_standalone(folder: Path) -> list[Path]:
    """Write the standalone form of every schema file into `folder`; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in schemas():
        target = folder / name
        target.write_text(json.dumps(standalone(name), indent=2, ensure_ascii=False) + "\n", "utf-8")
        written.append(target)
    return written
