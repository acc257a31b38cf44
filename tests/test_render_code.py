"""What outputs and cached verdicts depend on: the source files whose change must re-render or re-check.

`RENDER_CODE` is derived here from the imports themselves, so a renderer that starts importing one
more module cannot leave stale PDFs reported "up to date".
"""

from __future__ import annotations

import ast
import importlib.util
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from scarbook.compiler import build as buildmod

COMPILER = Path(buildmod.__file__).resolve().parent
#: The modules that plan and draw outputs; everything they import belongs in RENDER_CODE too.
DRAWING = ("scarbook.compiler.build", "scarbook.compiler.sheets", "scarbook.compiler.tables",
           "scarbook.compiler.boardmap", "scarbook.compiler.render.html", "scarbook.compiler.render.pdf",
           "scarbook.compiler.render.join")
#: What a change to the drawing code can reach: the compiler and the kernel (never the tracker or the CLI).
DRAWN_BY = ("scarbook.compiler", "scarbook.kernel")


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ModuleNotFoundError, ValueError):  # a name inside a module (`atomic.replace_file`)
        return False


def compiler_imports(module: str) -> set[str]:
    """Modules of the compiler and the kernel that `module` imports (at any depth of its code)."""
    found = set()
    for node in ast.walk(ast.parse(buildmod.module_file(module).read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith(DRAWN_BY) and name not in DRAWN_BY and _is_module(name):
                found.add(name)
    return found


def imported_closure(start: tuple[str, ...]) -> set[str]:
    seen: set[str] = set()
    todo = list(start)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(compiler_imports(module))
    return seen


def test_the_import_walk_sees_lazy_imports() -> None:
    # build.py imports join.py and boardmap.py inside functions: the walk must still find them
    assert {"scarbook.compiler.render.join", "scarbook.compiler.boardmap", "scarbook.compiler.model",
            "scarbook.kernel.atomic"} <= compiler_imports("scarbook.compiler.build")


def test_render_code_covers_every_module_the_renderer_imports() -> None:
    missing = imported_closure(DRAWING) - set(buildmod.RENDER_CODE)
    assert not missing, f"add to RENDER_CODE in compiler/build.py: {sorted(missing)}"
    assert all(buildmod.module_file(name).is_file() for name in buildmod.RENDER_CODE)


@pytest.mark.parametrize("name", ["scarbook.compiler.render.join", "scarbook.compiler.model", "scarbook.kernel.atomic"])
def test_editing_a_rendering_module_changes_what_outputs_depend_on(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    full = buildmod.templates_hash()
    real = Path.read_bytes
    edited = buildmod.module_file(name)

    def read_bytes(self: Path) -> bytes:
        data = real(self)
        return data + b"\n# edited\n" if self.resolve() == edited else data

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert buildmod.templates_hash() != full, f"editing {name} would leave stale outputs 'up to date'"


def test_code_fingerprint_changes_with_the_tracker_and_the_content_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.campaign import engine, replaycache

    fingerprint = replaycache.code_fingerprint.__wrapped__  # the uncached function
    plain = fingerprint()
    assert len(plain) == 16 and plain == fingerprint()
    real = os.stat
    for edited in (Path(engine.__file__).with_name("checks.py"), COMPILER / "model.py"):
        for change in ("st_size", "st_mtime_ns"):  # an edit changes one or both; either must count
            def stat(path: object, *args: object, edited: Path = edited, change: str = change, **kw: object) -> object:
                st = real(path, *args, **kw)  # type: ignore[arg-type]
                if os.path.realpath(str(path)) != os.path.realpath(edited):
                    return st
                fields = {"st_size": st.st_size, "st_mtime_ns": st.st_mtime_ns}
                fields[change] += 1
                return SimpleNamespace(**fields)

            monkeypatch.setattr(os, "stat", stat)
            assert fingerprint() != plain, (edited, change)
    monkeypatch.setattr(os, "stat", lambda *a, **k: (_ for _ in ()).throw(OSError("unreadable")))
    assert fingerprint() == ""
