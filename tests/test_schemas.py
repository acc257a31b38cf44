"""The schemas themselves: valid draft 2020-12, each with an $id, and the inlined form means the same."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from scarbook.compiler import schema
from scarbook.compiler.load import shipped_games
from scarbook.compiler.yamlload import load_file


@pytest.mark.parametrize("name", sorted(schema.schemas()))
def test_schema_is_valid_2020_12_with_id(name: str) -> None:
    doc = schema.schemas()[name]
    Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert doc["$id"].endswith("/" + name)


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
