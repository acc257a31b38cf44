"""The cache of the code `dataclasses` compiles (scarbook/cli/codecache.py): classes behave exactly as without it,
a second process takes the code from the file, and a file that is not the user's own or does not verify is ignored.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scarbook.cli import codecache

PY = sys.executable
# Every kind of method dataclasses generates: frozen, defaults, factories, fields out of eq/repr, inheritance,
# order, a class-level annotation as a string (this file has no `from __future__ import annotations`).
PROBE = """
import dataclasses, inspect, json, sys
from dataclasses import dataclass, field
if sys.argv[1] == "on":
    import scarbook.cli.codecache as cc
    cache = cc.install()

@dataclass(frozen=True)
class Base:
    span: str
    index: int = -1

@dataclass(frozen=True)
class Child(Base):
    names: tuple = ()
    note: str = field(default="", compare=False, repr=False)

@dataclass(order=True)
class Loose:
    items: list = field(default_factory=list)
    count: 'int' = 0

from collections import namedtuple
from typing import NamedTuple

class View(NamedTuple):
    id: str
    count: int = 0
    tags: tuple = ()

    def label(self) -> str:
        return f"{self.id}:{self.count}"

Pair = namedtuple("Pair", ["left", "class", "left"], rename=True, defaults=[2])

out = {}
v = View("x", 3)
out["namedtuple"] = [repr(v), v.label(), v._replace(count=4).count, View._fields, View._field_defaults,
                     repr(Pair(1, 5)), Pair._fields, repr(View.__new__.__defaults__), View.__new__.__doc__]
a, b = Child("x", 1, ("p",), "n"), Child("x", 1, ("p",), "other")
out["repr"] = [repr(a), repr(Loose([1], 2)), repr(Base("s"))]
out["eq"] = [a == b, hash(a) == hash(b), Loose() < Loose([1]), Loose() == Loose()]
try:
    a.span = "y"
except dataclasses.FrozenInstanceError as exc:
    out["frozen"] = str(exc)
out["signatures"] = [str(inspect.signature(c)) for c in (Base, Child, Loose)]
out["annotations"] = [repr(c.__init__.__annotations__) for c in (Base, Child, Loose)]
out["defaults"] = [repr(Loose().items), Child("z").names]
out["cached"] = -1 if sys.argv[1] != "on" else len(cache.codes or {})
out["evals"] = -1 if sys.argv[1] != "on" else sum(k.startswith("\\0eval\\0") for k in cache.used)
out["compiled"] = -1 if sys.argv[1] != "on" else cache.added
print(json.dumps(out))
"""


def _probe(mode: str, cache: Path) -> dict:
    env = dict(os.environ, SCARBOOK_CACHE=str(cache))
    done = subprocess.run([PY, "-c", PROBE, mode], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _same(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k not in ("cached", "compiled", "evals")} == \
        {k: v for k, v in b.items() if k not in ("cached", "compiled", "evals")}


def test_classes_behave_the_same_with_the_cache_and_the_second_process_compiles_nothing(tmp_path: Path) -> None:
    plain = _probe("off", tmp_path / "cache")
    first = _probe("on", tmp_path / "cache")
    second = _probe("on", tmp_path / "cache")
    assert _same(plain, first) and _same(plain, second), (plain, first, second)
    assert first["compiled"] is True
    assert second["compiled"] is False and second["cached"] > 10  # every method came from the file
    assert second["evals"] == 2  # both namedtuples' __new__ too
    [file] = (tmp_path / "cache").glob("dataclass-code-*.bin")
    assert file.stat().st_mode & 0o777 == 0o600


def test_a_file_others_may_write_or_that_does_not_verify_is_not_read(tmp_path: Path) -> None:
    _probe("on", tmp_path / "cache")
    [file] = (tmp_path / "cache").glob("dataclass-code-*.bin")
    assert codecache.load(str(file))
    file.chmod(0o666)
    assert codecache.load(str(file)) == {}  # it holds code: a shared or planted file is never trusted
    file.chmod(0o600)
    good = file.read_bytes()
    for bad in (good[:-1], good[:-1] + bytes([good[-1] ^ 1]), b"garbage", good.replace(b"dataclass-code 1", b"x", 1)):
        file.write_bytes(bad)
        assert codecache.load(str(file)) == {}
    file.write_bytes(good)
    assert codecache.load(str(file))
    plain, again = _probe("off", tmp_path / "cache"), _probe("on", tmp_path / "cache")
    assert _same(plain, again)


def test_a_damaged_file_only_costs_a_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    file = Path(codecache.cache_file())
    file.write_bytes(codecache._MAGIC + b"4 0\n\x00\x01\x02\x03")
    file.chmod(0o600)
    result = _probe("on", tmp_path / "cache")
    assert result["compiled"] is True and _same(result, _probe("off", tmp_path / "cache"))


def test_the_file_keeps_what_the_last_command_used_once_it_holds_too_much(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "code.bin")
    stale = codecache.CodeCache(path)
    for n in range(3):
        stale.exec(f"x{n} = {n}", {})
    stale.save()
    assert len(codecache.load(path)) == 3
    monkeypatch.setattr(codecache, "MAX_ENTRIES", 3)
    fresh = codecache.CodeCache(path)
    namespace: dict = {}
    fresh.exec("y = 1", namespace)  # a new text: now 4 entries, one more than the cap
    fresh.exec("x0 = 0", namespace)  # taken from the file
    assert namespace == {"__builtins__": namespace["__builtins__"], "y": 1, "x0": 0}
    fresh.save()
    assert sorted(codecache.load(path)) == ["x0 = 0", "y = 1"]


def test_methods_other_than_init_are_compiled_when_first_called(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    cache = codecache.CodeCache(str(tmp_path / "code.bin"))
    monkeypatch.setattr(cache, "save", lambda: None)  # nothing written at exit
    monkeypatch.setattr(dataclasses, "exec", cache.exec, raising=False)

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 0

    def compiled() -> set[str]:
        return {text.split("\n def ", 1)[1].split("(", 1)[0] for text in cache.codes or {}}

    assert compiled() == {"__init__"}  # __repr__, __eq__, __hash__, __setattr__, __delattr__ deferred
    p = Point(1)
    assert repr(p) == "test_methods_other_than_init_are_compiled_when_first_called.<locals>.Point(x=1, y=0)"
    assert compiled() == {"__init__", "__repr__"}
    assert p == Point(1, 0) and p != Point(1, 2) and (p == 1) is False
    assert hash(p) == hash(Point(1)) and len({p, Point(1)}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        p.x = 2  # type: ignore[misc]
    assert compiled() == {"__init__", "__repr__", "__eq__", "__hash__", "__setattr__"}
    assert Point.__repr__.__qualname__.endswith("Point.__repr__") and Point.__eq__.__name__ == "__eq__"
    assert cache.added  # what was compiled is kept for the next command


@pytest.mark.parametrize(("text", "deferred"), [
    ("def __create_fn__(a):\n def __repr__(self):\n  return ''\n return __repr__", "__repr__"),
    ("def __create_fn__(a):\n def __eq__(self, other):\n  return True\n return __eq__", "__eq__"),
    ("def __create_fn__(a):\n def __init__(self):\n  pass\n return __init__", None),  # always called
    ("def __create_fn__(a):\n def __eq__(s, o):\n  pass\n def __hash__(s):\n  pass\n return (__eq__, __hash__)",
     None),  # a newer Python's one text for all of a class's methods
    ("x = 1", None),
])
def test_what_is_deferred(text: str, deferred: str | None) -> None:
    assert codecache._deferred_name(text) == deferred
