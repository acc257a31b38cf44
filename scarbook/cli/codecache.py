"""A per-user cache of the code that `dataclasses` and `namedtuple` compile, so a command does not compile it again.

Python makes each dataclass's methods (`__init__`, `__eq__`, `__repr__`, `__hash__`, a frozen class's
`__setattr__` ...) from source text that it compiles when the class is defined, one `exec` per method:
the tracker's ~35 classes (events, state, content model) are ~180 compilations, about 10 ms of CPU at
the start of every command (Python 3.11), more than all the rest of a warm `campaign status`.

`install()` (called by the console script only, `entry.run`) gives the `dataclasses` module an `exec` of
its own: a text it has compiled before is taken, compiled, from `$SCARBOOK_CACHE/dataclass-code-*.bin`;
a new one is compiled as `exec` would (same text, file name `<string>`, no inherited flags) and the file
is rewritten when the process ends. A new method other than `__init__` is compiled only when first
called (most commands never call `__repr__`, `__eq__` or a frozen class's `__setattr__`): with an empty
cache a command compiles ~35 texts, not ~180. The code objects are those `exec` would have made, so every class
behaves exactly as before; only the compiling is saved. Anything else that `exec` is given goes to the
built-in `exec` untouched.

`collections.namedtuple` (and so `typing.NamedTuple`, the content's typed views and the status rows) likewise
compiles each class's `__new__` from text with `eval`: ~0.2 ms a class, ~5 ms for the ~26 a warm `status` makes.
`install()` gives `collections` an `eval` of its own that takes the compiled text from the same file (kept apart
from `exec` texts by a prefix).

The file holds code, so it is trusted as the ledger cache's pickles are: read only when it is a regular
file of the user running scarbook that nobody else may write, written 0600 through a temporary file and a
rename, its length and CRC-32 checked before `marshal` reads it, and named by the exact Python build
(code objects are not portable across versions). Anything odd is an empty cache: slower, never wrong.
"""

from __future__ import annotations

import builtins
import os
import sys
from types import CodeType
from typing import Any

MAX_ENTRIES = 1024  # texts kept across commands (the tracker needs ~180, ~240 KB); past it, only the last command's
_MAGIC = b"scarbook-dataclass-code 1\n"
_EVAL = "\0eval\0"  # the key of an `eval` text (namedtuple's `__new__`): never the start of an `exec` text


def cache_file() -> str:
    """Where the compiled texts are kept: in the cache folder, named by this very Python build."""
    from scarbook.kernel.cachedir import cache_dir

    name = f"dataclass-code-{sys.implementation.cache_tag}-{sys.hexversion:x}.bin"
    return os.path.join(cache_dir(), name)


class CodeCache:
    """Compiled `exec` texts by their source: read from `path` on first use, written back at exit when new."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.codes: dict[str, CodeType] | None = None  # read on the first `exec`
        self.used: dict[str, CodeType] = {}
        self.added = False

    def exec(self, source: Any, /, *args: Any, **kwargs: Any) -> None:
        """`exec(source, globals, locals)`, taking the compiled code of a text seen before from the cache."""
        if type(source) is not str:
            return builtins.exec(source, *args, **kwargs)
        if self.codes is None:
            self.codes = load(self.path)
        code = self.codes.get(source)
        if type(code) is not CodeType:
            name = _deferred_name(source) if len(args) == 2 and not kwargs and type(args[1]) is dict else None
            if name is not None:
                args[1]["__create_fn__"] = self._deferred(source, name, args[0])
                return None
            code = self._compile(source)
        self.used[source] = code
        return builtins.exec(code, *args, **kwargs)

    def eval(self, source: Any, /, *args: Any, **kwargs: Any) -> Any:
        """`eval(source, globals)` as `collections.namedtuple` calls it, taking the compiled code of a text seen
        before from the cache."""
        if type(source) is not str:
            return builtins.eval(source, *args, **kwargs)
        if self.codes is None:
            self.codes = load(self.path)
        key = _EVAL + source
        code = self.codes.get(key)
        if type(code) is not CodeType:
            code = self._compile(source, "eval")
        self.used[key] = code
        return builtins.eval(code, *args, **kwargs)

    def _compile(self, source: str, mode: str = "exec") -> CodeType:
        code = compile(source, "<string>", mode, dont_inherit=True)  # as `exec(source)` from dataclasses would
        key = source if mode == "exec" else _EVAL + source
        assert self.codes is not None
        self.codes[key] = code
        self.used[key] = code
        if not self.added:
            import atexit

            atexit.register(self.save)
            self.added = True
        return code

    def _deferred(self, source: str, name: str, globals_: dict[str, Any]) -> Any:
        """What `dataclasses` takes for `__create_fn__` when the method's text is not in the cache: the method,
        compiled (and kept for the next command) when it is first called, not now. Most commands call none
        of `__repr__`, `__eq__`, a frozen class's `__setattr__` ...: a command with an empty cache then
        compiles only the ~35 `__init__`s instead of ~180 texts (about 8 ms less)."""

        def create(**closure: Any) -> Any:
            made: list[Any] = []

            def method(*args: Any, **kwargs: Any) -> Any:
                if not made:
                    namespace: dict[str, Any] = {}
                    builtins.exec(self._compile(source), globals_, namespace)
                    made.append(namespace["__create_fn__"](**closure))
                return made[0](*args, **kwargs)

            method.__name__ = name
            return method

        return create

    def save(self) -> None:
        """Write the cache with what this process compiled; never fails."""
        import contextlib

        codes = self.codes or {}
        keep = codes if len(codes) <= MAX_ENTRIES else self.used
        with contextlib.suppress(Exception):  # noqa: BLE001 - a cache that cannot be written is only slower
            store(self.path, keep)


def _deferred_name(source: str) -> str | None:
    """The method's name when `source` is one method other than `__init__` as `dataclasses._create_fn` (Python
    3.11) writes it: `def __create_fn__(...):`, then ` def NAME(...):` and its body, then ` return NAME`; else
    None. `__init__` is always called; newer Pythons write all of a class's methods in one text (compiled at
    once, as before)."""
    if not source.startswith("def __create_fn__(") or source.count("\n def ") != 1:
        return None
    name = source.split("\n def ", 1)[1].split("(", 1)[0]
    return None if name == "__init__" else name


def load(path: str) -> dict[str, CodeType]:
    """The cached code by source text, or {} (no file, not the user's own private file, a bad length or CRC)."""
    import marshal
    import zlib

    from scarbook.kernel.trust import read_trusted

    try:
        blob = read_trusted(path)
    except OSError:
        return {}
    if not blob.startswith(_MAGIC):
        return {}
    head, _, body = blob[len(_MAGIC):].partition(b"\n")
    try:
        length, crc = (int(x, 16) for x in head.split(b" "))
    except ValueError:
        return {}
    if len(body) != length or zlib.crc32(body) != crc:
        return {}
    try:
        found = marshal.loads(body)
    except Exception:  # noqa: BLE001 - verified already; anything odd is an empty cache
        return {}
    return found if type(found) is dict else {}


def store(path: str, codes: dict[str, CodeType]) -> None:
    """Write `codes` to `path` (0600, a temporary file and a rename: never half a file)."""
    import marshal
    import tempfile
    import zlib

    body = marshal.dumps(codes)
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".dataclass-code-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(_MAGIC + b"%x %x\n" % (len(body), zlib.crc32(body)) + body)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    from pathlib import Path

    from scarbook.kernel.cachedir import cache_stored

    cache_stored(Path(path))  # within the cache folder's cap


def install() -> CodeCache | None:
    """Give `dataclasses` the caching `exec` and `collections` the caching `eval` (once per process); None when
    they have them already."""
    import collections
    import dataclasses

    if "exec" in vars(dataclasses):
        return None
    cache = CodeCache(cache_file())
    dataclasses.exec = cache.exec  # type: ignore[attr-defined]  # module globals come before builtins
    collections.eval = cache.eval  # type: ignore[attr-defined]
    return cache
