"""The layers, read from the source's imports (every import, at module level or inside a function).

CLI -> campaign service -> domain: a command imports the campaign service (and the events it builds
from its options, and the status reporter), never the fold, the rules or the ledger; only the service
and the cache itself import the ledger cache; the compiler never imports the tracker; the kernel imports
neither half; no core module imports the CLI; and there is no import cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import scarbook
import scarbook.campaign
import scarbook.compiler
import scarbook.kernel

PACKAGES = {"scarbook.campaign": scarbook.campaign, "scarbook.compiler": scarbook.compiler,
            "scarbook.kernel": scarbook.kernel, "scarbook.cli": None}


def _modules() -> dict[str, Path]:
    found = {}
    roots = {name: Path(str(pkg.__file__)).parent for name, pkg in PACKAGES.items() if pkg is not None}
    roots["scarbook.cli"] = Path(str(scarbook.__file__)).parent / "cli"
    for name, root in roots.items():
        for path in root.rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            found[".".join((name, *parts))] = path
    return found


MODULES = _modules()


def _typing_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements under `if TYPE_CHECKING:` (annotations only: never run)."""
    return {child for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for stmt in node.body for child in ast.walk(stmt)}


def _imports(module: str, typing: bool = True) -> set[str]:
    """The project modules `module` imports (a name imported from a module counts as that module); without
    `typing`, only the imports that run (not those under `if TYPE_CHECKING:`)."""
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    is_package = MODULES[module].name == "__init__.py"
    skip = set() if typing else _typing_only(tree)
    out = set()
    for node in ast.walk(tree):
        if node in skip:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".") if is_package else module.split(".")[:-1]
                here = here[: len(here) - node.level + 1]
                base = ".".join([*here, *([node.module] if node.module else [])])
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for name in names:
            while name and name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in MODULES and name != module:
                out.add(name)
    return out


GRAPH = {m: _imports(m) for m in MODULES}
RUNS = {m: _imports(m, typing=False) for m in MODULES}


def _in(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_the_lister_finds_imports_inside_functions() -> None:
    assert "scarbook.campaign.service.writing" in GRAPH["scarbook.cli.campaign._shared"]  # imported in `record`
    assert len(MODULES) > 60


def test_commands_reach_the_tracker_through_the_service_only() -> None:
    allowed = ("scarbook.campaign.service", "scarbook.campaign.events", "scarbook.campaign.views")
    wrong = {(m, t) for m, targets in GRAPH.items() if _in(m, "scarbook.cli") for t in targets
             if _in(t, "scarbook.campaign") and not _in(t, *allowed) and t != "scarbook.campaign"}
    assert not wrong, sorted(wrong)


def test_only_the_service_and_the_cache_import_the_ledger_cache() -> None:
    importers = {m for m, targets in GRAPH.items() if "scarbook.campaign.ledger.cache" in targets}
    assert importers, "the lister lost the ledger cache"
    wrong = {m for m in importers if not _in(m, "scarbook.campaign.service", "scarbook.campaign.replaycache",
                                             "scarbook.campaign.ledger")}
    assert not wrong, sorted(wrong)


@pytest.mark.parametrize(("lower", "upper"), [
    ("scarbook.compiler", "scarbook.campaign"), ("scarbook.compiler", "scarbook.cli"),
    ("scarbook.campaign", "scarbook.cli"), ("scarbook.kernel", "scarbook.compiler"),
    ("scarbook.kernel", "scarbook.campaign"), ("scarbook.kernel", "scarbook.cli")])
def test_a_lower_layer_never_imports_a_higher_one(lower: str, upper: str) -> None:
    wrong = {(m, t) for m, targets in GRAPH.items() if _in(m, lower) for t in targets if _in(t, upper)}
    assert not wrong, sorted(wrong)


def test_the_domain_never_imports_the_service() -> None:
    wrong = {(m, t) for m, targets in GRAPH.items()
             if _in(m, "scarbook.campaign") and not _in(m, "scarbook.campaign.service")
             for t in targets if _in(t, "scarbook.campaign.service")}
    assert not wrong, sorted(wrong)


def test_there_is_no_import_cycle() -> None:
    """Tarjan's strongly connected components over every import that runs (an annotation-only import under
    TYPE_CHECKING is left out: `steps` names the state's types that `state` folds with it)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in RUNS[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                cycles.append(sorted(part))

    for module in sorted(RUNS):
        if module not in index:
            visit(module)
    assert not cycles, cycles
