"""The compiled validator (fastjsonschema) for the valid path: it never lets through what jsonschema
refuses, shipped content takes the fast path, the diagnostics of invalid content are jsonschema's
own (the same with or without the compiled validator), and its code is cached on disk."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import PACKS
from scarbook.compiler import compiled, schema
from scarbook.compiler import load as loadmod
from scarbook.kernel.yamlload import load_file

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for p in [*(ROOT / "content").rglob("*.yaml"), *(ROOT / "examples").rglob("*.yaml"),
                            *(PACKS / "invalid").rglob("*.yaml")] if not loadmod.is_playtest(p.name))  # not content


def jsonschema_ok(data: Any) -> bool:
    return not any(True for _ in schema.validator().iter_errors(data))


def test_every_shipped_file_takes_the_fast_path() -> None:
    shipped = [f for f in FILES if "content" in f.parts or "examples" in f.parts]
    assert shipped
    for path in shipped:
        data = load_file(path, str(path)).data
        if isinstance(data, dict) and jsonschema_ok(data):
            assert compiled.is_valid(data), path


@pytest.mark.slow
def test_the_compiled_validator_never_accepts_what_jsonschema_refuses() -> None:
    """Slow (about 3,000 documents through jsonschema, 15 s of CPU): covers every content file and up to 40 one-value
    mutations of each. jsonschema judges every document the compiled validator accepts; of the ones it refuses,
    only as many as the count of refusals below needs (the verdict of the rest asserts nothing; judging them all
    cost another third of the test)."""
    checked = refused = 0
    for path in FILES:
        data = load_file(path, str(path)).data
        if not isinstance(data, dict):
            continue
        for variant in [data, *mutations(data)]:
            checked += 1
            if compiled.is_valid(variant):
                assert jsonschema_ok(variant), (path, json.dumps(variant)[:300])
            elif refused <= 100:
                refused += not jsonschema_ok(variant)
    assert checked > 500 and refused > 100  # the mutations do make invalid content


def mutations(data: dict[str, Any], limit: int = 40) -> list[dict[str, Any]]:
    """Copies of `data` with one value changed at a time: true for 1 and 1 for true (== in Python, not in
    JSON Schema), 1.5 for a whole number, a list for text, an unknown key, a key left out."""
    out: list[dict[str, Any]] = []
    def walk(node: Any, path: list[Any]) -> None:
        if len(out) >= limit:
            return
        items = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) \
            else []
        for key, value in items:
            replacements: list[Any] = []
            if isinstance(value, bool) or isinstance(value, int) and value in (0, 1):
                replacements.append(int(value) if isinstance(value, bool) else bool(value))
            if isinstance(value, int) and not isinstance(value, bool):
                replacements += [value + 0.5, -value - 1, str(value)]
            if isinstance(value, str):
                replacements += [[value], "", "x" * 3000, "Not Kebab"]
            if isinstance(value, dict):
                replacements.append({**value, "no-such-key": 1})
                if value:
                    replacements.append(dict(list(value.items())[1:]))
            if isinstance(value, list):
                replacements += [[], [*value, *value[:1]], {"unknown": "why"}]
            for new in replacements:
                variant = copy.deepcopy(data)
                target = variant
                for step in path:
                    target = target[step]
                target[key] = new
                out.append(variant)
            walk(value, [*path, key])

    walk(data, [])
    return out


def diagnostics_of(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from scarbook.compiler.validate import validate_paths

    monkeypatch.setattr(loadmod, "_loaded", {})  # parse and validate again
    monkeypatch.chdir(folder.parent)
    report = validate_paths([Path(folder.name)])
    return [f"{d.span}: {d.severity.value} {d.code} {d.message}"
            for d in sorted(report.diagnostics, key=lambda d: d.sort_key())]


@pytest.mark.parametrize("case", sorted(p for p in (PACKS / "invalid").iterdir() if p.is_dir()), ids=lambda p: p.name)
def test_invalid_packs_get_the_same_messages_without_the_compiled_validator(
        case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = diagnostics_of(case, monkeypatch)
    monkeypatch.setattr(compiled, "compiled", lambda name=schema.TOP_SCHEMA: None)  # jsonschema alone, as before
    assert diagnostics_of(case, monkeypatch) == fast


def test_the_shipped_validator_was_generated_from_these_schemas(monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.compiler.generated import validator as validator_code

    assert compiled._schemas_digest(schema.TOP_SCHEMA) == validator_code.SCHEMAS_DIGEST, \
        ("the schemas changed since compiler/generated/validator.py was generated: "
         "run python tools/generate_validator.py")
    assert compiled.shipped_file() == Path(validator_code.__file__)
    monkeypatch.setattr(compiled, "has_bytecode", lambda source: True)  # as after `pip install`
    monkeypatch.setattr(compiled, "_generated_code", lambda name: pytest.fail("generated"))
    compiled.compiled.cache_clear()
    try:
        assert compiled.compiled() is validator_code.validate  # imported: nothing generated, nothing cached
    finally:
        compiled.compiled.cache_clear()


def test_without_bytecode_the_shipped_source_is_compiled_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path))
    monkeypatch.setattr(compiled, "has_bytecode", lambda source: False)  # PYTHONDONTWRITEBYTECODE, editable install
    monkeypatch.setattr(compiled, "_generated_code", lambda name: pytest.fail("generated"))
    compiled.compiled.cache_clear()
    try:
        check = compiled.compiled()
        stored = list((tmp_path / "validators").glob("content-file-*.marshal"))
        assert check is not None and len(stored) == 1
        with pytest.raises(compiled.Invalid):
            check({"cards": "not a list"})
        monkeypatch.setattr(compiled, "compile", lambda *a: pytest.fail("compiled again"), raising=False)
        compiled.compiled.cache_clear()
        assert compiled.compiled() is not None  # the cache folder's code object
    finally:
        compiled.compiled.cache_clear()


def test_a_stale_shipped_validator_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path))
    real = compiled._schemas_digest
    monkeypatch.setattr(compiled, "_schemas_digest",  # the schemas changed (another first digit)
                        lambda name: ("1" if real(name)[0] == "0" else "0") + real(name)[1:])
    monkeypatch.setattr(compiled, "has_bytecode", lambda source: True)
    assert compiled.shipped_file() is None and compiled.shipped() is None
    generated: list[str] = []
    made = compiled._generated_code
    monkeypatch.setattr(compiled, "_generated_code", lambda name: generated.append(name) or made(name))
    compiled.compiled.cache_clear()
    try:
        check = compiled.compiled()
        assert check is not None and generated == [schema.TOP_SCHEMA]
        with pytest.raises(compiled.Invalid):
            check({"cards": "not a list"})
    finally:
        compiled.compiled.cache_clear()


def test_bytecode_is_current_only_for_the_same_source(tmp_path: Path) -> None:
    import importlib.util
    import os
    import py_compile

    source = tmp_path / "mod.py"
    source.write_text("X = 1\n")
    assert not compiled.has_bytecode(source)  # none yet

    def compiled_as(mode: py_compile.PycInvalidationMode) -> None:
        py_compile.compile(str(source), doraise=True, invalidation_mode=mode)

    compiled_as(py_compile.PycInvalidationMode.TIMESTAMP)
    assert compiled.has_bytecode(source)
    source.write_text("X = 12\n")  # another size
    assert not compiled.has_bytecode(source)
    compiled_as(py_compile.PycInvalidationMode.TIMESTAMP)
    st = source.stat()
    os.utime(source, (st.st_atime, st.st_mtime + 5))  # the same size, touched later
    assert not compiled.has_bytecode(source)
    compiled_as(py_compile.PycInvalidationMode.CHECKED_HASH)  # as pip writes them under SOURCE_DATE_EPOCH
    assert compiled.has_bytecode(source)
    source.write_text("X = 13\n")  # the same size, other bytes
    assert not compiled.has_bytecode(source)
    compiled_as(py_compile.PycInvalidationMode.UNCHECKED_HASH)  # Python never looks at the source
    source.write_text("X = 14\n")
    assert compiled.has_bytecode(source)
    cache = Path(importlib.util.cache_from_source(str(source)))
    cache.write_bytes(b"\0" * 16 + cache.read_bytes()[16:])  # another Python's magic number
    assert not compiled.has_bytecode(source)


def test_the_generated_code_is_cached_by_the_schemas_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path))
    monkeypatch.setattr(compiled, "shipped", lambda name=schema.TOP_SCHEMA: None)  # as after a change of the schemas
    compiled.compiled.cache_clear()
    try:
        assert compiled.compiled() is not None
        stored = list((tmp_path / "validators").glob("content-file-*.marshal"))
        assert len(stored) == 1 and compiled._schema_files_digest(schema.TOP_SCHEMA) in stored[0].name
        compiled.compiled.cache_clear()
        monkeypatch.setattr(compiled, "_generated_code", lambda name: pytest.fail("generated again"))
        assert compiled.compiled() is not None  # loaded from the cache folder
        stored[0].write_bytes(b"damaged")
        compiled.compiled.cache_clear()
        monkeypatch.undo()
        monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path))
        monkeypatch.setattr(compiled, "shipped", lambda name=schema.TOP_SCHEMA: None)
        check = compiled.compiled()  # a damaged entry is made again
        assert check is not None
        with pytest.raises(compiled.Invalid):
            check({"cards": "not a list"})
    finally:
        compiled.compiled.cache_clear()


@pytest.mark.parametrize("value", [1, 1.0, 0, "true", None])
def test_one_is_not_true(value: Any) -> None:
    """`board.complete` is `const: true`; Python's 1 == True must not let 1 through the compiled validator."""
    data = load_file(ROOT / "content" / "risk-legacy" / "board.yaml", "board.yaml").data
    assert data["board"]["complete"] is True and compiled.is_valid(data)
    data["board"]["complete"] = value
    assert not jsonschema_ok(data) and not compiled.is_valid(data)


def test_the_build_budget_is_a_warning_in_validate_and_an_error_in_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """B110 bounds what `build` lays out; content over it is valid (validate warns, build refuses)."""
    import shutil

    from scarbook.compiler import build as buildmod
    from scarbook.compiler import printable
    from scarbook.compiler.validate import load_game, validate_paths

    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "examples" / "tiny-game", game)
    monkeypatch.setattr(printable, "MAX_BUILD_CARDS", 1)
    monkeypatch.setattr(loadmod, "_loaded", {})
    report = validate_paths([game])
    budget = [d for d in report.diagnostics if d.code == "B110"]
    assert budget and not any(d.is_error for d in budget) and report.ok
    result = buildmod.build([load_game(str(game))], tmp_path / "out", jobs=1)
    assert [d.code for d in result.diagnostics if d.is_error] == ["B110"] and not result.rendered


def _conditions(values: str) -> list[dict[str, Any]]:
    """`allOf` items as checks.schema.json has them (after `const` became `enum`): value v requires key v."""
    return [{"if": {"properties": {"k": {"enum": [v]}}, "required": ["k"]}, "then": {"required": [v]}}
            for v in values]


def test_the_dispatch_form_and_what_is_left_alone() -> None:
    groups = compiled._dispatch(_conditions("abcde"))
    assert groups is not None
    assert [g["allOf"][0]["properties"]["k"]["enum"] for g in groups] == [["a", "b", "c"], ["d", "e"]]
    assert [b["allOf"] for g in groups for b in g["anyOf"]] == \
        [[{"properties": {"k": {"enum": [v]}}}, {"required": [v]}] for v in "abcde"]
    other_key = _conditions("abcd")
    other_key[1]["if"] = {"properties": {"j": {"enum": ["b"]}}, "required": ["j"]}
    more = _conditions("abcd")
    more[0]["else"] = {}
    plain = [*_conditions("abcd"), {"type": "object"}]
    for conditions in (_conditions("abc"), _conditions("abca"), other_key, more, plain):
        assert compiled._dispatch(conditions) is None


@pytest.mark.parametrize("values", ["abcde", "abcdefghijklmnopq"])
def test_the_dispatch_accepts_exactly_what_the_if_then_accepts_for_the_enum_values(values: str) -> None:
    import itertools

    import fastjsonschema

    base = {"type": "object", "properties": {"k": {"enum": list(values)}}, "required": ["k"],
            "$schema": "http://json-schema.org/draft-07/schema#"}
    plain = fastjsonschema.compile({**base, "allOf": _conditions(values)})
    translated = compiled._for_fastjsonschema({**base, "allOf": _conditions(values)})
    assert "allOf" not in translated and len(translated["anyOf"]) > 1
    fast = fastjsonschema.compile({**translated, "$schema": base["$schema"]})

    def verdict(check: Any, data: Any) -> bool:
        try:
            check(data)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    seen = set()
    for k in [*values, "zz"]:
        for extra in itertools.chain([()], itertools.combinations(values[:4] + k, 1), [tuple(values[:3])]):
            data = {"k": k, **{e: 1 for e in extra}}
            ok = verdict(plain, data)
            assert verdict(fast, data) == ok, data
            seen.add(ok)
    assert seen == {True, False}
    assert not verdict(fast, {"a": 1}) and not verdict(fast, {"k": 1})


def test_the_shipped_validator_is_what_the_generator_writes_now() -> None:
    """A change of the translation (compiled._for_fastjsonschema, _generated_code) must come with the module
    written again (and COMPILED_VERSION bumped, so cached code objects of the old translation are not used)."""
    import re

    import fastjsonschema

    from scarbook.compiler.generated import validator as validator_code

    text = Path(validator_code.__file__).read_text("utf-8")
    made_by = re.search(r"\(fastjsonschema ([^)]+)\)", text)
    assert made_by is not None
    if made_by.group(1) != fastjsonschema.VERSION:
        pytest.skip(f"written by fastjsonschema {made_by.group(1)}, {fastjsonschema.VERSION} installed: "
                    "its code may differ (the digest test still holds)")
    assert text == compiled.shipped_source(), "run python tools/generate_validator.py"
