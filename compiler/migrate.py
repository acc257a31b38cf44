"""`scarbook migrate`: old content rewritten in its own text to the current edition of the content format.

The same rows as loading (`compiler.deprecations.DEPRECATIONS`) say what each old construct becomes;
here the change is made in the file's text, as small edits at the parser's positions: a changed value is
replaced, a removed key is cut with its separator, a new key is written after the key before it in the
new order (in the mapping's own style: `, key: value` in a flow mapping, a line at the same indentation in
a block one). Everything else (comments, key order, quoting, blank lines, line breaks) stays byte for byte.
The file then declares `edition: N` (the current one), so a second run changes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.compiler.editions import CURRENT_EDITION, Found, find
from scarbook.kernel.yamldoc import escape

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_NOT_PLAIN = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n"})


class MigrateError(Exception):
    """A file that cannot be migrated (it is not YAML the parser reads): the message says why."""


@dataclass
class Migrated:
    """One file after migration: its new text and what changed, line by line as people read it."""

    path: Path
    old: str
    new: str
    changes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.old != self.new


def flow(value: Any) -> str:
    """A value as YAML flow text: plain words unquoted, other strings double-quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value if _PLAIN.match(value) and value.lower() not in _NOT_PLAIN else json.dumps(value,
                                                                                                ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def _nodes(node: Any, pointer: str, out: dict[str, Any]) -> None:
    import yaml

    out[pointer] = node
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _nodes(value, f"{pointer}/{escape(str(key.value))}", out)
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _nodes(value, f"{pointer}/{i}", out)


def _line_end(text: str, at: int) -> int:
    """The offset of the line break ending the line that holds `at` (len(text) on the last line)."""
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _mapping_edits(text: str, node: Any, new: dict[str, Any], old: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Edits turning the mapping `node` (whose data is `old`) into `new`, key by key."""
    pairs = {str(k.value): (k, v) for k, v in node.value}
    order = [str(k.value) for k, _ in node.value]
    block = not node.flow_style
    indent = " " * node.value[0][0].start_mark.column if node.value else ""
    edits: list[tuple[int, int, str]] = []
    removed = [k for k in order if k not in new]
    for key in order:
        if key in new and new[key] != old.get(key):
            value = pairs[key][1]
            edits.append((value.start_mark.index, value.end_mark.index, flow(new[key])))
    # a key replaced by a new one at its very place (the same keys before and after it): written over it
    in_place: dict[str, str] = {}
    listed = list(new)
    for j, key in enumerate(listed):
        before, after = (listed[j - 1] if j else None), (listed[j + 1] if j + 1 < len(listed) else None)
        if key in pairs or (before is not None and before not in pairs) or (after is not None and after not in pairs):
            continue
        i = order.index(before) + 1 if before is not None else 0
        if i < len(order) and order[i] in removed and (order[i + 1] if i + 1 < len(order) else None) == after:
            in_place[order[i]] = key
    for gone, key in in_place.items():
        k, v = pairs[gone]
        end = v.end_mark.index
        while end > k.start_mark.index and text[end - 1] in " \t\r\n":  # a block value ends at the next line
            end -= 1
        edits.append((k.start_mark.index, end, f"{key}: {flow(new[key])}"))
    removed = [k for k in removed if k not in in_place]
    for key in removed:
        k, v = pairs[key]
        i = order.index(key)
        if block:
            start = text.rfind("\n", 0, k.start_mark.index) + 1
            end = min(_line_end(text, v.end_mark.index) + 1, len(text))
        elif i > 0:
            start, end = pairs[order[i - 1]][1].end_mark.index, v.end_mark.index
        else:
            start = k.start_mark.index
            end = pairs[order[1]][0].start_mark.index if len(order) > 1 else v.end_mark.index
        edits.append((start, end, ""))
    # new keys: after the nearest earlier key of the new order that the mapping keeps
    anchor: str | None = None
    pending: dict[str | None, list[str]] = {}
    for key in new:
        if key in pairs:
            anchor = key
        elif key not in in_place.values():
            pending.setdefault(anchor, []).append(key)

    def text_of(key: str) -> str:
        for gone in removed:  # a renamed key keeps its value's text (`group: [a, b]` becomes `of: [a, b]`)
            if old.get(gone) == new[key]:
                v = pairs[gone][1]
                return str(text[v.start_mark.index:v.end_mark.index])
        return flow(new[key])

    kept = any(k in new for k in order)
    for after, keys in pending.items():
        if after is None:  # before the first key: a line of its own (block), or joined by commas (flow)
            first = node.value[0][0].start_mark.index
            if block:
                line = text.rfind("\n", 0, first) + 1
                edits.append((line, line, "".join(f"{indent}{k}: {text_of(k)}\n" for k in keys)))
            else:
                edits.append((first, first, ", ".join(f"{k}: {text_of(k)}" for k in keys) + (", " if kept else "")))
            continue
        value = pairs[after][1]
        if block:
            at = _line_end(text, value.end_mark.index)
            edits.append((at, at, "".join(f"\n{indent}{k}: {text_of(k)}" for k in keys)))
        else:
            at = value.end_mark.index
            edits.append((at, at, "".join(f", {k}: {text_of(k)}" for k in keys)))
    return edits


def _scalar_edit(text: str, node: Any, old: str, new: str) -> tuple[int, int, str]:
    """A changed string: the part that changed replaced inside the scalar's own text (its quoting kept)."""
    start, end = node.start_mark.index, node.end_mark.index
    source = text[start:end]
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    gone, put = old[prefix:len(old) - suffix], new[prefix:len(new) - suffix]
    at = source.find(gone) if gone else -1
    if gone and at >= 0 and source.count(gone) == 1:
        return start + at, start + at + len(gone), put
    return start, end, json.dumps(new, ensure_ascii=False)


def _edition_edit(text: str, root: Any, data: dict[str, Any]) -> tuple[int, int, str] | None:
    """`edition: N` (the current one) written at the top of the file, or the declared one raised."""
    for key, value in root.value:
        if key.value == "edition":
            if data.get("edition") == CURRENT_EDITION:
                return None
            return value.start_mark.index, value.end_mark.index, str(CURRENT_EDITION)
    if root.flow_style or not root.value:
        return None
    first = root.value[0][0].start_mark.index
    line = text.rfind("\n", 0, first) + 1
    return line, line, f"edition: {CURRENT_EDITION}  # the content format this file is written in\n"


def migrate_text(text: str, name: str = "") -> tuple[str, list[str]]:
    """The text rewritten to the current edition, and what changed ('LINE: old -> new'); MigrateError when
    the text is not one YAML mapping the parser reads."""
    import yaml

    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise MigrateError(f"{name}: YAML cannot be read ({str(exc).splitlines()[0]}); fix it, then migrate") \
            from None
    if not isinstance(root, yaml.MappingNode) or not isinstance(data, dict):
        return text, []
    nodes: dict[str, Any] = {}
    _nodes(root, "", nodes)
    edits: list[tuple[int, int, str]] = []
    changes: list[str] = []
    for found in find(data):
        node = nodes.get(found.pointer)
        if node is None:
            continue
        line = node.start_mark.line + 1
        changes.append(f"{name}:{line}: {_said(found)}")
        if isinstance(node, yaml.MappingNode) and isinstance(found.new, dict):
            edits.extend(_mapping_edits(text, node, found.new, found.old))
        elif isinstance(node, yaml.ScalarNode) and isinstance(found.new, str):
            edits.append(_scalar_edit(text, node, found.old, found.new))
        else:
            edits.append((node.start_mark.index, node.end_mark.index, flow(found.new)))
    top = _edition_edit(text, root, data)
    if top is not None:
        edits.append(top)
        changes.append(f"{name}:{text.count(chr(10), 0, top[0]) + 1}: edition: {CURRENT_EDITION}")
    out = text
    last = len(text) + 1
    for start, end, put in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        if end > last:
            raise MigrateError(f"{name}: two changes overlap at offset {start}; migrate it by hand "
                               "(see docs/guides/upgrading.md)")
        out = out[:start] + put + out[end:]
        last = start
    return out, changes


def _said(found: Found) -> str:
    """'{check: one-per-game, group: [a]} -> {check: limit, max: 1, of: [a], ...}': only what changed."""
    old, new = found.old, found.new
    if isinstance(old, dict) and isinstance(new, dict):
        old = {k: v for k, v in old.items() if new.get(k) != v}
        new = {k: v for k, v in new.items() if found.old.get(k) != v}
    return f"{flow(old)} -> {flow(new)}"


def migrate_file(path: Path, name: str) -> Migrated:
    """One file migrated in memory (nothing is written); its line breaks and byte-order mark are kept."""
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    crlf = "\r\n" in text
    plain = text.replace("\r\n", "\n") if crlf else text
    new, changes = migrate_text(plain, name)
    if crlf:
        new = new.replace("\n", "\r\n")
    return Migrated(path, ("\ufeff" if bom else "") + text, ("\ufeff" if bom else "") + new, changes)
