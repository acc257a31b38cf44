"""The safe loader: positions, duplicate keys, tags, dates, aliases, size limits."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from scarbook.kernel import yamlload
from scarbook.kernel.yamlload import load_file, loads


def codes(doc: yamlload.Document) -> list[str]:
    return [f"{d.span.line}:{d.span.column} {d.code}" for d in doc.diagnostics]


def test_positions_of_values_and_keys() -> None:
    doc = loads("territories:\n  - id: alaska\n    name: Alaska\n", "t.yaml")
    assert doc.data == {"territories": [{"id": "alaska", "name": "Alaska"}]}
    assert (doc.spans["/territories/0/name"].line, doc.spans["/territories/0/name"].column) == (3, 11)
    assert (doc.key_spans["/territories/0/name"].line, doc.key_spans["/territories/0/name"].column) == (3, 5)
    assert doc.span("/territories/0/missing").line == 2  # falls back to the nearest parent


def test_duplicate_key_is_reported_at_the_second_key() -> None:
    doc = loads("a: 1\nb: 2\na: 3\n", "t.yaml")
    assert codes(doc) == ["3:1 Y003"]
    assert "first at line 1" in doc.diagnostics[0].message


def test_dates_stay_text_and_numbers_are_numbers() -> None:
    doc = loads("signed: 2024-05-01\ncount: 0x10\nratio: 1.5\nok: true\nnothing: ~\n", "t.yaml")
    assert doc.data == {"signed": "2024-05-01", "count": 16, "ratio": 1.5, "ok": True, "nothing": None}


def test_python_tags_never_construct_objects() -> None:
    doc = loads("a: !!python/object/apply:os.system [echo hacked]\nb: !custom x\n", "t.yaml")
    assert [d.code for d in doc.diagnostics] == ["Y004", "Y004"]
    assert all(isinstance(v, str) for v in doc.data.values())


def test_alias_bomb_is_refused_quickly() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    start = time.perf_counter()
    doc = loads("\n".join(lines), "bomb.yaml")
    assert time.perf_counter() - start < 2
    assert [d.code for d in doc.diagnostics] == ["Y005"]


def test_a_few_aliases_are_fine() -> None:
    doc = loads("base: &b {scar: 1}\nx: *b\ny: *b\n", "t.yaml")
    assert doc.diagnostics == [] and doc.data["y"] == {"scar": 1}


def test_recursive_alias_is_refused() -> None:
    doc = loads("a: &x [*x]\n", "t.yaml")
    assert [d.code for d in doc.diagnostics] == ["Y001"] and "no anchor defined before it" in doc.diagnostics[0].message


def test_syntax_error_points_at_line() -> None:
    doc = loads("a:\n  - b\n c: d\n", "t.yaml")
    assert [d.code for d in doc.diagnostics] == ["Y001"] and doc.diagnostics[0].span.line == 3


def test_two_documents_are_refused() -> None:
    doc = loads("a: 1\n---\nb: 2\n", "t.yaml")
    assert "more than one YAML document" in doc.diagnostics[0].message


def test_non_utf8_and_control_characters(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"a: 1\nb: \xff\n")
    assert codes(load_file(bad, "bad.yaml")) == ["2:4 Y002"]
    assert [d.code for d in loads("a: \x00", "t.yaml").diagnostics] == ["Y002"]


def test_oversized_file_is_refused_before_reading(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 2000)
    monkeypatch.setattr(yamlload, "MAX_FILE_BYTES", 1000)
    assert [d.code for d in load_file(big, "big.yaml").diagnostics] == ["Y009"]


def test_huge_integer_is_a_diagnostic() -> None:
    doc = loads("n: " + "9" * 5000, "t.yaml")
    assert [d.code for d in doc.diagnostics] == ["Y008"]


def test_deep_nesting_is_refused() -> None:
    doc = loads("a: " + "[" * 200 + "]" * 200, "t.yaml")
    assert [d.code for d in doc.diagnostics] in (["Y005"], ["Y001"])


@pytest.mark.parametrize(("text", "where"), [
    ("a: \x01\n", (1, 4)),
    ("a: 1\nb: 2\nc: x\x07y\n", (3, 5)),
    ("a: 1\n\n\n# comment\nlong: \x1b\n", (5, 7)),
])
def test_a_control_character_is_reported_at_its_line_and_column(text: str, where: tuple[int, int]) -> None:
    diags = loads(text, "t.yaml").diagnostics
    assert [(d.code, d.span.line, d.span.column) for d in diags] == [("Y002", *where)]
