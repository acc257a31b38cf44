"""The schemas themselves: valid draft 2020-12, resolvable offline by standard tools, and the inlined form
means the same. check-jsonschema (run for real, offline) agrees with scarbook's schema level on every file."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from conftest import PACKS
from scarbook.cli.main import app
from scarbook.compiler import schema, schemacheck
from scarbook.compiler.load import is_playtest, shipped_games
from scarbook.examples import examples
from scarbook.kernel.diagnostics import sort_unique
from scarbook.kernel.yamlload import load_file, loads
from scarbook.schemas import SCHEMA_DIR


@pytest.mark.parametrize("name", sorted(schema.schemas()))
def test_schema_is_valid_2020_12_without_a_web_id(name: str) -> None:
    """No $id: a relative $ref then resolves against the file's own folder, never a web address."""
    doc = schema.schemas()[name]
    Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "$id" not in doc
    refs = re.findall(r'"\$ref": "([^"#]*)#', json.dumps(doc))
    assert all(ref == "" or ref in schema.schemas() for ref in refs), refs


def test_inlined_schema_agrees_with_the_referencing_registry() -> None:
    """Every shipped file and example value is judged alike by the fast inlined schema and by real $refs."""
    top = schema.schemas()[schema.TOP_SCHEMA]
    by_ref = Draft202012Validator(top, registry=schema.registry())
    fast = schema.validator()
    sticker = {"id": "s", "name": "S", "targets": ["territory"], "supply": {"unknown": "?"}}
    samples: list[object] = [{"regions": [{"id": "x", "bonus": "five"}]}, {"edges": [["a"]]}, {"bogus": 1},
                             {"stickers": [sticker]}]
    for folder in shipped_games().values():
        samples.extend(load_file(p, p.name).data for p in sorted(folder.glob("*.yaml")))
    for sample in samples:
        assert by_ref.is_valid(sample) == fast.is_valid(sample), sample if len(str(sample)) < 300 else "file"


def test_every_content_file_has_the_editor_modeline() -> None:
    for folder in shipped_games().values():
        for path in sorted(folder.glob("*.yaml")):
            assert "yaml-language-server: $schema=../../schemas/content-file.schema.json" in path.read_text(), path


def test_every_check_name_has_params_and_an_if_then() -> None:
    """checks.schema.json: the enum, `$defs/params` and the if/then lines that key parameters on `check` agree."""
    checks = schema.schemas()["checks.schema.json"]["$defs"]
    names = checks["check"]["properties"]["check"]["enum"]
    keyed = [rule["if"]["properties"]["check"]["const"] for rule in checks["check"]["allOf"]]
    for name in names:
        assert name in keyed, f"add an if/then line for '{name}' to $defs/check/allOf"
        params = checks["params"][name]
        assert params["additionalProperties"] is False, name
        assert params["properties"]["check"] == {"const": name}, f"params/{name} must accept check: {name}"
        assert "cite" in params["properties"], f"params/{name} must accept cite"
    assert sorted(keyed) == sorted(names) == sorted(checks["params"])


def test_check_parameters_are_in_the_schema() -> None:
    """A parameter the check does not have, or a missing one, fails the plain JSON Schema too."""
    plain = Draft202012Validator(schema.schemas()[schema.TOP_SCHEMA], registry=schema.registry())
    sticker = {"id": "s", "name": "S", "targets": ["territory"], "supply": 1}
    good = {"check": "target-lacks", "kind": "city", "cite": "house § S"}
    assert plain.is_valid({"stickers": [{**sticker, "checks": [good]}]})
    for bad in ({"check": "target-lacks", "kid": "city", "cite": "house § S"},
                {"check": "target-lacks", "cite": "house § S"},
                {"check": "max-value", "field": "resources", "max": -1, "cite": "house § S"}):
        assert not plain.is_valid({"stickers": [{**sticker, "checks": [bad]}]}), bad


def test_parameter_errors_keep_scarbooks_x404_messages() -> None:
    doc = loads(textwrap.dedent("""\
        stickers:
          - id: s
            name: S
            targets: [territory]
            supply: 1
            checks:
              - {check: target-lacks, kid: city, cite: "house § S"}
              - {check: max-value, field: resources, max: -1, cite: "house § S"}
        """), "p.yaml")
    found = [(str(d.span), d.code, d.message) for d in sort_unique(schemacheck.validate_document(doc))]
    assert found == [
        ("p.yaml:7:9", "X404", "check 'target-lacks' needs the parameter 'kind'; add it (required: kind)"),
        ("p.yaml:7:31", "X404", "check 'target-lacks' has no parameter 'kid' (did you mean 'kind'?); "
                                "its parameters: kind"),
        ("p.yaml:8:51", "X404", "check 'max-value': -1 is less than the minimum of 0"),
    ]


def _check_jsonschema() -> str:
    found = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent)) or shutil.which("check-jsonschema")
    if not found:
        pytest.skip("check-jsonschema is not installed (pip install -e '.[test]')")
    return found


def _offline_env() -> dict[str, str]:
    """Any web request goes to a closed loopback port and fails at once: the test proves nothing needs one."""
    dead = "http://127.0.0.1:9"
    return {**os.environ, "HTTP_PROXY": dead, "HTTPS_PROXY": dead, "http_proxy": dead, "https_proxy": dead,
            "NO_PROXY": "", "no_proxy": ""}


def _scarbook_schema_verdicts(files: list[Path]) -> dict[str, bool]:
    """File -> passes scarbook's schema level (YAML loads, no S or X404 diagnostic)."""
    out = {}
    for path in files:
        doc = load_file(path, str(path))
        out[str(path)] = not doc.diagnostics and not schemacheck.validate_document(doc)
    return out


def _check_jsonschema_verdicts(schemafile: Path, files: list[Path], cwd: Path) -> dict[str, bool]:
    done = subprocess.run([_check_jsonschema(), "--no-cache", "--output-format", "json", "--schemafile",
                           str(schemafile), *map(str, files)], capture_output=True, text=True, env=_offline_env(),
                          cwd=cwd, timeout=300)
    result = json.loads(done.stdout)
    assert not result.get("parse_errors"), result["parse_errors"]
    failing = {e["filename"] for e in result.get("errors", [])}
    return {str(path): str(path) not in failing for path in files}


def _all_content_files() -> list[Path]:
    files = [p for folder in shipped_games().values() for p in sorted(folder.glob("*.yaml"))]
    files += [p for folder in examples().values() for p in sorted(folder.glob("*.yaml")) if not is_playtest(p.name)]
    # the invalid example packs whose YAML loads: both tools must reject the same ones
    for case in sorted((PACKS / "invalid").iterdir()):
        for path in sorted(case.glob("*.yaml")):
            if not load_file(path, str(path)).diagnostics:
                files.append(path)
    return files


@pytest.mark.slow
def test_check_jsonschema_agrees_offline_with_the_installed_schemas(tmp_path: Path) -> None:
    """check-jsonschema with only --schemafile, no network: same verdict as scarbook's schema level, file by file.
    Slow: check-jsonschema (jsonschema in Python) over every content file, and scarbook's own verdict on each."""
    files = _all_content_files()
    verdicts = _check_jsonschema_verdicts(SCHEMA_DIR / schema.TOP_SCHEMA, files, tmp_path)
    assert verdicts == _scarbook_schema_verdicts(files)
    assert all(ok for path, ok in verdicts.items() if "/invalid/" not in path)
    assert not verdicts[str(PACKS / "invalid" / "bad-checks" / "pack.yaml")]  # check parameters are schema too


@pytest.mark.slow
def test_exported_standalone_schema_needs_no_other_file(tmp_path: Path) -> None:
    """Slow (every content file checked against the exported schema alone): `schema --export` needs no other file."""
    result = CliRunner().invoke(app, ["schema", "--export", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    exported = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert exported == sorted(schema.schemas())
    alone = json.loads((tmp_path / "out" / schema.TOP_SCHEMA).read_text())
    assert all(ref.startswith("#") for ref in re.findall(r'"\$ref": "([^"]*)"', json.dumps(alone)))
    files = _all_content_files()
    plain = Draft202012Validator(alone)  # no registry: an unresolvable $ref would raise here
    assert {str(p): plain.is_valid(load_file(p, str(p)).data) for p in files} == _scarbook_schema_verdicts(files)
    # the same standalone file, alone in its folder, for check-jsonschema
    (tmp_path / "alone").mkdir()
    shutil.copy(tmp_path / "out" / schema.TOP_SCHEMA, tmp_path / "alone" / schema.TOP_SCHEMA)
    assert _check_jsonschema_verdicts(tmp_path / "alone" / schema.TOP_SCHEMA, files, tmp_path) == \
        _scarbook_schema_verdicts(files)


def test_schema_path_prints_the_installed_folder() -> None:
    result = CliRunner().invoke(app, ["schema", "--path"])
    assert result.exit_code == 0
    assert Path(result.output.strip()) == SCHEMA_DIR
    assert (Path(result.output.strip()) / schema.TOP_SCHEMA).is_file()
    assert CliRunner().invoke(app, ["schema"]).exit_code == 2
