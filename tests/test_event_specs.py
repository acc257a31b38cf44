"""One spec per event kind (issue 35 item 3): parsing never raises, every kind is registered once and each
spec's narration and JSON form run, and no code outside the registry dispatches over event kinds with an
`isinstance` chain (a new kind would need a branch there, and a forgotten one used to fall through silently).
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from campaigns.helpers import run_script
from hypothesis import given, settings
from hypothesis import strategies as st

from scarbook.campaign.events import EVENT_TYPES, Event, ParseProblem, parse_event
from scarbook.kernel.diagnostics import Span

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "tests" / "packs" / "valid" / "checks-isles"

#: Every field name any kind reads from the ledger, and the note: the keys the property test draws from.
KEYS = ["play", "start", "type", "seating", "scenario", "winner", "team", "held_on", "eliminated", "controlled",
        "date", "lost", "scores", "sticker", "target", "by", "name", "value", "to", "card", "envelope", "pack",
        "fingerprint", "a", "b", "boxes", "step", "piece", "why", "player", "replaces", "status", "note"]

#: A ledger value of any shape YAML gives: scalars, lists and mappings of them, nested.
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4) | st.integers(), inner,
                                                                max_size=3),
    max_leaves=8)


def _entries() -> st.SearchStrategy[Any]:
    kinds = st.sampled_from(sorted(EVENT_TYPES)) | st.text(max_size=8) | VALUES
    fields = st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5) | st.integers(), VALUES, max_size=6)
    mapping = st.builds(lambda kind, rest: {"event": kind, **rest}, kinds, fields)
    return mapping | VALUES | st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4)


@settings(max_examples=600, deadline=None)
@given(_entries())
def test_parsing_any_entry_gives_an_event_or_a_problem_never_an_exception(data: Any) -> None:
    found = parse_event(data, Span("c.yaml", 3, 1), 7)
    assert isinstance(found, Event | ParseProblem), found
    if isinstance(found, ParseProblem):
        assert found.message and found.span == Span("c.yaml", 3, 1)
    else:  # what parses writes back as itself
        assert type(found) is EVENT_TYPES[found.kind] and found.index == 7
        assert parse_event(found.to_dict(), Span("c.yaml", 3, 1), 7) == found


@pytest.mark.parametrize("data", [{"event": ["place"]}, {"event": {"kind": "place"}}])
def test_an_event_whose_kind_is_a_list_or_a_mapping_is_a_problem(data: Any) -> None:
    """YAML's `event: [place]` raised TypeError (unhashable) before."""
    found = parse_event(data, Span("x"), 0)
    assert isinstance(found, ParseProblem) and found.message.startswith("unknown event")


@dataclass(frozen=True)
class _Heir(Event):
    """A kind added with its fields and no parser of its own (the review's `leave --heir` experiment)."""

    player: str
    heir: str = ""

    kind = "heir-test"
    ledger_fields: ClassVar[dict[str, bool]] = {"player": True, "heir": False}


def test_a_kind_with_no_parser_of_its_own_is_read_from_its_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the registry, a kind in the tables but with no branch in `parse_event` raised KeyError: 'target'."""
    monkeypatch.setitem(EVENT_TYPES, "heir-test", _Heir)
    assert parse_event({"event": "heir-test", "player": "Cat", "heir": "Dan"}, Span("x"), 0) == _Heir("Cat", "Dan")
    assert isinstance(parse_event({"event": "heir-test", "player": ["Cat"]}, Span("x"), 0), ParseProblem)
    assert isinstance(parse_event({"event": "heir-test", "heir": "Dan"}, Span("x"), 0), ParseProblem)


# --- one spec per kind ------------------------------------------------------------------------------
#: A ledger entry of every kind, each field set (a new kind must add one here: the test below says so).
SAMPLES: dict[str, dict[str, Any]] = {
    "game-start": {"play": {"Ann": "khan", "Bob": ["x", "y"]}, "start": {"Ann": "a-isle"}, "type": "war",
                   "seating": ["Ann", "Bob"], "scenario": "cave"},
    "game-end": {"winner": "Ann", "held_on": ["Bob"], "eliminated": ["Cat"], "controlled": {"Ann": ["a-isle"]},
                 "date": "2026-12-04", "lost": ["x"], "team": "won", "scores": {"Ann": 3}},
    "place": {"sticker": "banner", "target": "a-isle", "by": "Ann", "name": "Hold", "value": 2, "to": "b-isle"},
    "destroy": {"card": "c1", "by": "Ann"},
    "open": {"envelope": "e1", "pack": "packs/e1"},
    "add-pack": {"pack": "packs/p", "fingerprint": "abc"},
    "link": {"sticker": "bridge", "a": "a-isle", "b": "b-isle", "by": "Bob"},
    "tick": {"target": "a-isle", "boxes": 2},
    "pass": {"step": "sign", "by": "Ann", "piece": "khan", "why": "no room"},
    "join": {"player": "Dan", "replaces": "Bob"},
    "leave": {"player": "Bob", "to": "Ann"},
    "retire": {"sticker": "banner", "target": "a-isle", "status": "lost", "by": "Ann"},
}


def _event_classes() -> set[type[Event]]:
    """Every subclass of Event the tracker defines (a test's own subclass is not one)."""
    found, todo = set(), [Event]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("scarbook.campaign"):
                found.add(sub)
    return found


def test_every_event_class_has_exactly_one_spec_and_a_sample() -> None:
    from scarbook.campaign.eventspecs import SPECS

    classes = [spec.cls for spec in SPECS.values()]
    assert sorted(c.__name__ for c in classes) == sorted(c.__name__ for c in _event_classes())
    assert len(set(classes)) == len(classes) and all(cls is spec.cls for cls, spec in SPECS.items())
    assert {spec.kind for spec in SPECS.values()} == set(EVENT_TYPES) == set(SAMPLES)


@pytest.fixture(scope="module")
def words(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.history import Words
    from scarbook.campaign.ledger.cache import read

    file = tmp_path_factory.mktemp("specs") / "c.yaml"
    assert run_script(f"new {{file}} --game {GAME} --player Ann --player Bob\n", file) == []
    return Words(Campaign(read(file)).replay())


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_spec_parses_writes_and_tells_its_sample(kind: str, words: Any) -> None:
    from scarbook.campaign.eventspecs import SPECS, describe, tell

    event = parse_event({"event": kind, **SAMPLES[kind], "note": "why"}, Span("c.yaml", 4, 3), 2)
    assert not isinstance(event, ParseProblem), event
    spec = SPECS[type(event)]
    assert spec.kind == kind and event.kind == kind
    data = spec.to_json(event)
    assert json.loads(json.dumps(data)) == {"event": kind, **SAMPLES[kind], "note": "why"}
    assert parse_event(data, Span("c.yaml", 4, 3), 2) == event
    line, told = describe(event), tell(event, words, 1)
    assert line == spec.line(event, frozenset()) and told == spec.tell(event, words, 1)
    for text in (line, told):  # a forgotten narration used to print the bare kind
        assert isinstance(text, str) and text.strip() and text != kind


# --- the design stays: no isinstance chains over event kinds outside the registry -------------------
#: The modules that may name several event classes in one place: the classes themselves and the table.
REGISTRY = {"campaign/events.py", "campaign/eventspecs.py"}


def _isinstance_classes(node: ast.AST, names: set[str]) -> set[str]:
    """The event classes `isinstance(x, …)` or `type(x) is …` tests name within `node`."""
    out: set[str] = set()
    for sub in ast.walk(node):
        tested: ast.AST | None = None
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "isinstance" \
                and len(sub.args) == 2:
            tested = sub.args[1]
        elif isinstance(sub, ast.Compare) and isinstance(sub.left, ast.Call) and isinstance(sub.left.func, ast.Name) \
                and sub.left.func.id == "type":
            tested = ast.Tuple(elts=list(sub.comparators))
        elif isinstance(sub, ast.MatchClass):
            tested = sub.cls
        if tested is not None:
            out |= {n.id for n in ast.walk(tested) if isinstance(n, ast.Name) and n.id in names}
            out |= {n.attr for n in ast.walk(tested) if isinstance(n, ast.Attribute) and n.attr in names}
    return out


def chains(source: str, names: set[str]) -> list[tuple[str, int, list[str]]]:
    """(function, line, the event classes it tests) for every function testing two or more event classes."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            found = _isinstance_classes(node, names)
            if len(found) >= 2:
                out.append((getattr(node, "name", "<lambda>"), node.lineno, sorted(found)))
    return out


def test_the_chain_finder_finds_a_chain_and_passes_single_tests() -> None:
    names = {"Placed", "Opened", "Linked"}
    assert chains("def f(ev):\n    if isinstance(ev, Placed):\n        return 1\n"
                  "    elif isinstance(ev, events.Opened):\n        return 2\n", names) == [
        ("f", 1, ["Opened", "Placed"])]
    assert chains("def g(ev):\n    return isinstance(ev, (Placed, Linked))\n", names) == [
        ("g", 1, ["Linked", "Placed"])]
    assert chains("def h(ev):\n    return type(ev) is Placed or type(ev) is Opened\n", names) == [
        ("h", 1, ["Opened", "Placed"])]
    assert chains("def k(ev):\n    return isinstance(ev, Placed) and ev.to\n", names) == []


def test_no_isinstance_chain_over_event_kinds_outside_the_registry() -> None:
    names = {cls.__name__ for cls in _event_classes()}
    assert {"Placed", "GameStarted", "Retired"} <= names
    found = []
    for folder in ("campaign", "scarbook/cli", "scarbook/serve", "scarbook/kernel"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in REGISTRY:
                found += [(rel, *chain) for chain in chains(path.read_text("utf-8"), names)]
    assert found == [], ("dispatch over event kinds through campaign/eventspecs.py's SPECS, not an isinstance "
                         f"chain: {found}")

