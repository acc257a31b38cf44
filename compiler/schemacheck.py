"""Checking one content file against the schema, with errors a person can act on.

The compiled code answers first (`compiled.is_valid`, about 20 x faster than jsonschema); only a
refused file goes through jsonschema, whose error tree is collapsed with `best_match` to one error
per place; unknown keys are reported at the key itself with a "did you mean".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from scarbook.compiler.compiled import is_valid
from scarbook.compiler.model import SINGULAR
from scarbook.compiler.schema import schemas, validator
from scarbook.kernel.diagnostics import Diagnostic, did_you_mean, error
from scarbook.kernel.yamlload import Document, escape


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
    allowed = [k for k in _allowed_keys(err.schema) if k not in ("check", "cite", "only")]
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        for key in err.instance:
            if key not in allowed and key not in ("check", "cite", "only"):
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
        message = f"'{leaf.instance}' is not one of {choices(list(map(str, leaf.validator_value)))}" + (
            close_enough(leaf.instance, list(map(str, leaf.validator_value))))
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


def choices(values: list[str], room: int = 160) -> str:
    """The allowed values in whole words: as many as fit in `room` characters, then how many more and where
    to read them all (never a value cut in the middle)."""
    shown: list[str] = []
    used = 0
    for value in values:
        if shown and used + len(value) + 2 > room:
            rest = len(values) - len(shown)
            return f"{', '.join(shown)} … and {rest} more (all in 'scarbook schema --path')"
        shown.append(value)
        used += len(value) + 2
    return ", ".join(shown)


def close_enough(word: str, values: list[str]) -> str:
    """' (did you mean 'x'?)' for a likely slip of the pen only (a close match sharing the word's start or end):
    a removed name such as 'one-reward-per-game' is not offered an unrelated 'rewards-in-first-games'."""
    import difflib

    close = difflib.get_close_matches(word, values, n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


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
