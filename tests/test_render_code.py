"""What outputs and cached verdicts depend on: the source files whose change must re-render or re-check.

`RENDER_CODE` is derived here from the imports themselves, so a renderer that starts importing one
more module cannot leave stale PDFs reported "up to date".
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scarbook.compiler import build as buildmod

COMPILER = Path(buildmod.__file__).resolve().parent
#: The modules that plan and draw outputs; everything they import belongs in RENDER_CODE too.
DRAWING = ("build.py", "sheets.py", "tables.py", "boardmap.py", "render/html.py", "render/pdf.py", "render/join.py")


def compiler_imports(rel: str) -> set[str]:
    """Modules of the compiler package that `rel` imports (relative imports, at any depth of the code)."""
    package = Path(rel).parent
    found = set()
    for node in ast.walk(ast.parse((COMPILER / rel).read_text("utf-8"))):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = package
        for _ in range(node.level - 1):
            base = base.parent
        target = base / node.module.replace(".", "/") if node.module else base
        candidates = [target / f"{alias.name}.py" for alias in node.names]  # from . import sheets
        if node.module:  # from .render.pdf import inside
            candidates += [target.with_suffix(".py"), target / "__init__.py"]
        found |= {c.as_posix() for c in candidates if (COMPILER / c).is_file()}
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
    assert {"render/join.py", "boardmap.py", "model.py", "atomic.py"} <= compiler_imports("build.py")


def test_render_code_covers_every_module_the_renderer_imports() -> None:
    missing = imported_closure(DRAWING) - set(buildmod.RENDER_CODE)
    assert not missing, f"add to RENDER_CODE in compiler/build.py: {sorted(missing)}"
    assert all((COMPILER / name).is_file() for name in buildmod.RENDER_CODE)


@pytest.mark.parametrize("name", ["render/join.py", "model.py", "sheets.py"])
def test_editing_a_rendering_module_changes_what_outputs_depend_on(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    full = buildmod.templates_hash()
    real = Path.read_bytes
    edited = COMPILER / name

    def read_bytes(self: Path) -> bytes:
        data = real(self)
        return data + b"\n# edited\n" if self.resolve() == edited else data

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert buildmod.templates_hash() != full, f"editing {name} would leave stale outputs 'up to date'"


def test_code_fingerprint_changes_with_the_tracker_and_the_content_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.campaign import engine

    fingerprint = engine.code_fingerprint.__wrapped__  # the uncached function
    plain = fingerprint()
    assert len(plain) == 16 and plain == fingerprint()
    real = Path.read_bytes
    for edited in (Path(engine.__file__).with_name("checks.py"), COMPILER / "model.py"):
        def read_bytes(self: Path, edited: Path = edited) -> bytes:
            data = real(self)
            return data + b"#" if self.resolve() == edited.resolve() else data

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
        assert fingerprint() != plain, edited
    monkeypatch.setattr(Path, "read_bytes", lambda self: (_ for _ in ()).throw(OSError("unreadable")))
    assert fingerprint() == ""
