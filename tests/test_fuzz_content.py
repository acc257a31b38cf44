"""Property tests: any bytes, any YAML document, as content or pack, end in diagnostics, never a traceback."""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import no_internal_errors
from scarbook.compiler.validate import validate_paths
from scarbook.kernel.diagnostics import Diagnostic
from scarbook.kernel.yamlload import loads

SECTIONS = ["game", "pack", "board", "regions", "territories", "edges", "decks", "cards", "stickers", "envelopes",
            "factions", "rewards", "rules", "tables", "schedule", "rulebook", "components", "source", "bogus"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["alaska", "risk-legacy", "scar", "territory", "unknown"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["id", "name", "regions", "deck", "count", "check", "targets", "unknown"])
                    | st.text(max_size=5), inner, max_size=4)), max_leaves=20)
documents = st.dictionaries(st.sampled_from(SECTIONS), values, max_size=5)


def run(text: bytes) -> list[Diagnostic]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pack.yaml"
        path.write_bytes(text)
        return validate_paths([path]).diagnostics


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    diags = run(data)
    for d in diags:
        assert d.code and d.span.file
    no_internal_errors("\n".join(d.render() for d in diags))


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}&*!|>'\"#\n ,?%@`\t0") + ["\x00", "é"]), max_size=80))
def test_yaml_like_text_never_raises(text: str) -> None:
    loads(text, "t.yaml")
    no_internal_errors("\n".join(d.render() for d in run(text.encode("utf-8"))))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
@example({"edges": True, "game": None})  # once crashed the merger
@example({"territories": [{"id": "a", "neighbors": [{"b": 1}, None, "a"]}]})
def test_arbitrary_documents_give_diagnostics_not_tracebacks(doc: dict[str, object]) -> None:
    diags = run(yaml.safe_dump(doc).encode())
    no_internal_errors("\n".join(d.render() for d in diags))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(st.sampled_from(["id", "name", "regions", "neighbors", "code", "slots", "layout"]),
                                values, max_size=5), max_size=5))
def test_arbitrary_territories_on_a_pack(territories: list[object]) -> None:
    doc = {"pack": {"id": "p", "title": "P", "extends": "risk-legacy"}, "territories": territories}
    diags = run(yaml.safe_dump(doc).encode())
    no_internal_errors("\n".join(d.render() for d in diags))
