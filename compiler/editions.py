"""Editions of the content format: which edition a file declares, and old constructs read the old way.

A content file may say `edition: N` at its top; none means the first edition. A construct that a later
edition replaced (a row of `compiler.deprecations.DEPRECATIONS`) is rewritten in memory into what
replaced it, before the schema sees the file, with a warning X600 (or the row's own X6xx code) at its line
naming the replacement;
in a file that declares that later edition (or a newer one) the old form is an error X600 instead.
`scarbook migrate` (`compiler.migrate`) makes the same rewrites in the file's text.

Adding a replaced construct is one `Deprecation` row: what it matches, what it becomes, the edition
that replaced it. Nothing here knows any game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from scarbook.compiler.deprecations import DEPRECATIONS, Deprecation
from scarbook.kernel.diagnostics import Diagnostic, error, warning
from scarbook.kernel.yamldoc import Document, escape

#: The edition a file that declares none is read as: the content format of the first release.
FIRST_EDITION = 1
#: The edition `scarbook new` and `scarbook migrate` write, and the newest this scarbook reads.
CURRENT_EDITION = 5


@dataclass(frozen=True)
class Found:
    """An old construct found in a document: where, which row, the node as it was and as it becomes."""

    pointer: str
    row: Deprecation
    old: Any
    new: Any


def declared_edition(data: Any) -> int:
    """The edition a file's data declares (`edition: N` at its top), else the first."""
    if isinstance(data, dict):
        value = data.get("edition")
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
    return FIRST_EDITION


def _rows() -> tuple[Deprecation, ...]:

    return DEPRECATIONS


def _may_hold(data: Any, rows: tuple[Deprecation, ...]) -> bool:
    """Whether any mapping in `data` passes a row's probe (no pointers built: the pass every file takes)."""
    probes = [(row.probe_key, row.probe) for row in rows]
    stack = [data]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            for key, probe in probes:
                if key in node and probe(node[key]):
                    return True
            stack.extend(v for v in node.values() if type(v) in (dict, list))
        elif type(node) is list:
            stack.extend(v for v in node if type(v) in (dict, list))
    return False


def find(data: Any) -> list[Found]:
    """Every old construct in a document's data, outermost first, in document order (nothing is changed)."""
    rows = _rows()
    if not _may_hold(data, rows):
        return []
    out: list[Found] = []
    for pointer, value in _walk(data, ""):
        for row in rows:
            if row.matches(pointer, value):
                out.append(Found(pointer, row, value, row.rewrite(value, data)))
                break
    return out


def _walk(value: Any, pointer: str) -> Iterator[tuple[str, Any]]:
    stack: list[tuple[str, Any]] = [(pointer, value)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, dict):
            yield where, node
            stack.extend((f"{where}/{escape(k)}", v) for k, v in reversed(list(node.items()))
                         if isinstance(v, (dict, list, str)))
        elif isinstance(node, list):
            stack.extend((f"{where}/{i}", v) for i, v in reversed(list(enumerate(node)))
                         if isinstance(v, (dict, list, str)))
        else:
            yield where, node


def _parent(data: Any, pointer: str) -> tuple[Any, str | int] | None:
    parts = pointer.split("/")[1:]
    if not parts:
        return None
    node = data
    for part in parts[:-1]:
        key = part.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    last = parts[-1].replace("~1", "/").replace("~0", "~")
    return node, (int(last) if isinstance(node, list) else last)


def upgrade(doc: Document) -> list[Diagnostic]:
    """Read a loaded file's old constructs with their old meaning: each is replaced in `doc.data` by what
    replaced it, and reported (a warning, or an error when the file declares an edition without it)."""
    data = doc.data
    if not isinstance(data, dict):
        return []
    out: list[Diagnostic] = []
    edition = declared_edition(data)
    raw = data.get("edition")
    if raw is not None and isinstance(raw, int) and not isinstance(raw, bool) and raw > CURRENT_EDITION:
        out.append(error(doc.span("/edition"), "X601", f"this file is written for edition {raw} of the content "
                         f"format; this scarbook reads editions {FIRST_EDITION} to {CURRENT_EDITION}: upgrade "
                         "scarbook (pip install -U scarbook)", "/edition"))
    for found in find(data):
        where = f"{found.pointer}/{found.row.at}" if found.row.at else found.pointer
        told = found.row.replacement(found.old, found.new)
        code, name, since = found.row.code, found.row.name, found.row.edition
        if edition >= since:
            out.append(error(doc.span(where), code, f"{name} was replaced in edition {since} "
                             f"of the content format, and this file declares edition {edition}: write {told} "
                             f"(or declare edition {found.row.edition - 1} and run 'scarbook migrate')", where))
        else:
            out.append(warning(doc.span(where), code, f"{name} was replaced in edition {since} "
                               f"of the content format; read as {told} (this file declares edition {edition}): "
                               f"'scarbook migrate {doc.file}' rewrites it", where))
        for new_at, old_at in found.row.moved(found.old).items():  # a value the file writes elsewhere: its span
            if found.pointer + old_at in doc.spans:
                doc.spans[found.pointer + new_at] = doc.spans[found.pointer + old_at]
        try:
            spot = _parent(data, found.pointer)
        except (KeyError, IndexError, TypeError):  # inside a construct an outer row has rewritten already: gone
            continue
        if spot is None:
            doc.data = data = found.new
        else:
            spot[0][spot[1]] = found.new
    return out
