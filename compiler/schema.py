"""JSON Schema validation of content files, with errors a person can act on.

All schema files are loaded once; their $refs are inlined so validation never resolves a reference
at run time. Each file is validated against `content-file.schema.json`; the error tree is
collapsed with `best_match` to one error per place, unknown keys are reported at the key itself with a "did you mean".
jsonschema is imported here only, so modules that merely use the content model stay light.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from .diagnostics import Diagnostic, did_you_mean, error
from .yamlload import Document, escape

TOP_SCHEMA = "content-file.schema.json"
BASE_URI = "https://scarbook.dev/schemas/"

SINGULAR = {
    "regions": "region", "territories": "territory", "edges": "edge", "decks": "deck", "cards": "card",
    "components": "component", "stickers": "sticker", "factions": "faction", "rewards": "reward",
    "envelopes": "envelope", "rulebook": "rulebook section", "rules": "rule", "tables": "table",
    "schedule": "scheduled game", "checks": "check", "powers": "power", "units": "unit", "slots": "slot",
}


@cache
def schemas() -> dict[str, dict[str, Any]]:
    """Every schema file of the package, by file name."""
    from scarbook.schemas import SCHEMA_DIR

    return {p.name: json.loads(p.read_text("utf-8")) for p in sorted(SCHEMA_DIR.glob("*.schema.json"))}


@cache
def registry() -> Any:
    """All schema files by $id, for checking the schemas themselves and for editors' tools."""
    from referencing import Registry, Resource

    return Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas().values()
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


def check_params_schema(check: str) -> Any | None:
    """The validator of one legality check's parameters, or None for an unknown check."""
    params = schemas()["checks.schema.json"]["$defs"]["params"]
    if check not in params:
        return None
    return validator("checks.schema.json", f"/$defs/params/{escape(check)}")


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


def _describe(err: Any, doc: Document) -> Iterator[Diagnostic]:
    pointer = pointer_of(err.absolute_path)
    validator_name = err.validator
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
    if len(message) > 300:  # never echo a huge value back
        message = f"{message[:200]}…{message[-80:]}"
    yield error(doc.span(lp), "S010", message, lp)


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
    out: list[Diagnostic] = []
    for err in validator().iter_errors(doc.data):
        out.extend(_describe(err, doc))
    return out
