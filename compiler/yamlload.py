"""Safe YAML loading that keeps every node's source position.

Parses with PyYAML's safe composer (libyaml when present), then builds plain Python values
itself so that: only the core scalar types exist (no tag constructs objects), dates stay text,
duplicate keys are reported, aliases cannot expand without bound, and every value and key
has a `Span`. Never raises on bad input: problems come back as diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from .diagnostics import Diagnostic, Span, error

try:  # libyaml is ~10x faster; the pure-Python loader gives identical nodes.
    _BaseLoader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _BaseLoader = yaml.SafeLoader

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 64
ALIAS_BUDGET_FACTOR = 4
ALIAS_BUDGET_BASE = 10_000

_STR = "tag:yaml.org,2002:str"
_SCALAR_TAGS = {
    _STR,
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_scalars = SafeConstructor()


class ContentLoader(_BaseLoader):  # type: ignore[misc,valid-type]
    """A private loader class: nothing is registered on PyYAML's global loaders."""


@dataclass
class Document:
    """One YAML file: its data and the span of every value and key, by JSON pointer."""

    file: str
    data: Any = None
    spans: dict[str, Span] = field(default_factory=dict)
    key_spans: dict[str, Span] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def span(self, pointer: str, key: bool = False) -> Span:
        """The span of the node at `pointer` (its key when `key`), or of its nearest parent."""
        table = self.key_spans if key else self.spans
        p = pointer
        while True:
            if p in table:
                return table[p]
            if p in self.spans:
                return self.spans[p]
            if not p:
                return Span(self.file, 1, 1)
            p = p.rsplit("/", 1)[0]


def escape(part: str | int) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


class _TooBig(Exception):
    def __init__(self, span: Span, message: str) -> None:
        self.span = span
        self.message = message


class _Builder:
    def __init__(self, doc: Document, budget: int) -> None:
        self.doc = doc
        self.budget = budget

    def span(self, node: yaml.Node) -> Span:
        mark = node.start_mark
        return Span(self.doc.file, mark.line + 1, mark.column + 1)

    def build(self, node: yaml.Node, pointer: str, depth: int) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise _TooBig(self.span(node), "anchors and aliases expand to too many nodes (an alias bomb?); "
                          "write the values out instead of repeating aliases")
        if depth > MAX_DEPTH:
            raise _TooBig(self.span(node), f"nesting deeper than {MAX_DEPTH} levels")
        self.doc.spans[pointer] = self.span(node)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                return self.bad_tag(node)
            return [self.build(child, f"{pointer}/{i}", depth + 1) for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP:
                return self.bad_tag(node)
            return self.mapping(node, pointer, depth)
        return None  # pragma: no cover

    def mapping(self, node: yaml.MappingNode, pointer: str, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        first: dict[str, Span] = {}
        for key_node, value_node in node.value:
            key_span = self.span(key_node)
            if not isinstance(key_node, yaml.ScalarNode):
                self.doc.diagnostics.append(error(key_span, "Y006", "a key must be plain text, not a list or mapping"))
                continue
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.doc.diagnostics.append(error(key_span, "Y007", "merge keys ('<<') are not supported; "
                                                  "write the keys out"))
                continue
            key = str(key_node.value)
            child = f"{pointer}/{escape(key)}"
            if key in first:
                prev = first[key]
                self.doc.diagnostics.append(error(key_span, "Y003", f"duplicate key '{key}' (first at line "
                                                  f"{prev.line}); remove one of them"))
                continue
            first[key] = key_span
            self.doc.key_spans[child] = key_span
            out[key] = self.build(value_node, child, depth + 1)
        return out

    def bad_tag(self, node: yaml.Node) -> str:
        """Report a tag that would construct something; the value becomes inert text."""
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        self.doc.diagnostics.append(error(self.span(node), "Y004", f"tag '{tag}' is not allowed; "
                                          "content uses plain YAML values only: remove the tag"))
        return f"(refused {tag})"

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        if tag not in _SCALAR_TAGS:
            return self.bad_tag(node)
        if tag in (_STR, "tag:yaml.org,2002:timestamp"):
            return str(node.value)  # dates stay exactly as written
        try:
            if tag == "tag:yaml.org,2002:int":
                return _scalars.construct_yaml_int(node)
            if tag == "tag:yaml.org,2002:float":
                return _scalars.construct_yaml_float(node)
            if tag == "tag:yaml.org,2002:bool":
                return _scalars.construct_yaml_bool(node)
            return None
        except (ValueError, ConstructorError) as exc:
            self.doc.diagnostics.append(error(self.span(node), "Y008", f"cannot read '{node.value[:40]}' as a "
                                              f"number ({exc}); quote it to keep it as text"))
            return str(node.value)


def _count_distinct(root: yaml.Node) -> int:
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                stack.append(k)
                stack.append(v)
    return len(seen)


def _mark_span(file: str, mark: Any, text: str = "") -> Span:
    if mark is None:
        return Span(file, 1, 1)
    line = getattr(mark, "line", None)
    if line is None:  # ReaderError carries a character position only
        pos = getattr(mark, "position", 0)
        return Span(file, text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos))
    return Span(file, line + 1, getattr(mark, "column", 0) + 1)


def loads(text: str, file: str) -> Document:
    """Load one YAML document from text."""
    doc = Document(file)
    try:
        loader = ContentLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        if "expected a single document" in str(exc):
            problem = "more than one YAML document ('---'); keep one document per file"
        ctx = exc.context_mark
        if ctx is not None and exc.problem_mark is not None and ctx.line != exc.problem_mark.line:
            what = (exc.context or "while parsing a block").replace("while parsing ", "")
            problem += f" in {what} that starts at line {ctx.line + 1}, column {ctx.column + 1}"
        doc.diagnostics.append(error(_mark_span(file, mark), "Y001", f"YAML syntax: {problem}"))
        return doc
    except yaml.reader.ReaderError as exc:
        span = _mark_span(file, exc, text)
        char = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
        doc.diagnostics.append(error(span, "Y002", f"character {char!r} is not allowed in YAML; "
                                     "remove it or save the file as UTF-8 text"))
        return doc
    except (yaml.YAMLError, RecursionError, MemoryError) as exc:
        doc.diagnostics.append(error(Span(file, 1, 1), "Y001", f"YAML cannot be read: {type(exc).__name__}"))
        return doc
    if root is None:
        return doc
    try:
        budget = ALIAS_BUDGET_FACTOR * _count_distinct(root) + ALIAS_BUDGET_BASE
        doc.data = _Builder(doc, budget).build(root, "", 0)
    except _TooBig as exc:
        doc.data = None
        doc.spans.clear()
        doc.key_spans.clear()
        doc.diagnostics.append(error(exc.span, "Y005", exc.message))
    return doc


def decode(raw: bytes, file: str) -> tuple[str | None, list[Diagnostic]]:
    """UTF-8 (with or without BOM) to text, or a diagnostic at the first bad byte."""
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        return None, [error(Span(file, line, col), "Y002", f"byte 0x{raw[exc.start]:02x} is not UTF-8; "
                            "save the file as UTF-8 text")]


def load_file(path: Path, display: str) -> Document:
    """Load a YAML file, refusing oversized files before reading them whole."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            doc = Document(display)
            doc.diagnostics.append(error(Span(display, 1, 1), "Y009", f"file is {size // (1024 * 1024)} MiB; "
                                         f"the limit is {MAX_FILE_BYTES // (1024 * 1024)} MiB: split it into "
                                         "several files"))
            return doc
        raw = path.read_bytes()
    except OSError as exc:
        doc = Document(display)
        doc.diagnostics.append(error(Span(display), "Y010", f"cannot read file: {exc.strerror}"))
        return doc
    text, problems = decode(raw, display)
    if text is None:
        doc = Document(display)
        doc.diagnostics.extend(problems)
        return doc
    return loads(text, display)
