"""The YAML parser behind `yamlload.loads`: PyYAML's events (libyaml when present) to plain values with spans.

Only the core scalar types exist (no tag constructs objects), dates stay text, duplicate keys are
reported, aliases cannot expand without bound, and every value and key has a `Span`. Never raises
on bad input: problems come back as diagnostics. Imported only when a file must be parsed, so a
command served from the caches never imports PyYAML (`yamlload` itself does not).
"""

from __future__ import annotations

import bisect
import gc
import re
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from scarbook.kernel.diagnostics import Span, error
from scarbook.kernel.yamldoc import ALIAS_BUDGET_BASE, ALIAS_BUDGET_FACTOR, MAX_DEPTH, Document, escape

try:  # libyaml is ~10x faster; the pure-Python loader gives identical nodes.
    _BaseLoader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _BaseLoader = yaml.SafeLoader

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


class _TooBig(Exception):
    def __init__(self, span: Span, message: str) -> None:
        self.span = span
        self.message = message


_IMPLICIT = yaml.resolver.Resolver.yaml_implicit_resolvers
_SKIP = object()  # a key or value that is reported and left out
_PLAIN_AS_TEXT = {None, "!", _STR, "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:value",
                  "tag:yaml.org,2002:merge"}


class _Frame:
    """An open mapping or sequence (or a part being skipped) while reading events."""

    __slots__ = ("value", "pointer", "key", "firsts", "size", "anchor", "skip_depth")

    def __init__(self, value: Any, pointer: str, anchor: str | None, skip_depth: int = 0) -> None:
        self.value = value
        self.pointer = pointer
        self.key: Any = None  # in a mapping: None while a key is expected, else the key (or _SKIP)
        self.firsts: dict[str, Span] = {}
        self.size = 1
        self.anchor = anchor
        self.skip_depth = skip_depth


class _EventBuilder:
    """Builds plain values and spans straight from parser events (no node graph, no Python resolver).

    Anchored values are shared, not copied; every alias adds the size of what it names to a budget,
    so an alias bomb is refused long before anything expands it.
    """

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.nodes = 0
        self.expanded = 0
        self.root: Any = None
        self.starts: list[int] | None = None  # line starts as an editor counts lines, when YAML counts otherwise

    def span(self, event: Any) -> Span:
        mark = event.start_mark
        if self.starts is not None:
            return _index_span(self.doc.file, self.starts, mark.index)
        return Span(self.doc.file, mark.line + 1, mark.column + 1)

    def problem(self, event: Any, code: str, message: str) -> None:
        self.doc.diagnostics.append(error(self.span(event), code, message))

    def attach(self, key: Any, value: Any) -> None:
        if not self.stack:
            self.root = value
        elif isinstance(self.stack[-1].value, list):
            self.stack[-1].value.append(value)
        else:
            self.stack[-1].value[key] = value

    def take_key(self, event: Any) -> None:
        top = self.stack[-1]
        if not isinstance(event, yaml.ScalarEvent):
            self.problem(event, "Y006", "a key must be plain text, not a list, mapping or alias")
            top.key = _SKIP
            return
        key = str(event.value)
        if key == "<<" and not event.style:
            self.problem(event, "Y007", "merge keys ('<<') are not supported; write the keys out")
            top.key = _SKIP
            return
        span = self.span(event)
        if key in top.firsts:
            self.problem(event, "Y003", f"duplicate key '{key}' (first at line {top.firsts[key].line}); "
                         "remove one of them")
            top.key = _SKIP
            return
        top.firsts[key] = span
        self.doc.key_spans[f"{top.pointer}/{escape(key)}"] = span
        top.key = key

    def count(self, event: Any, size: int) -> None:
        self.nodes += 1
        self.expanded += size
        if self.expanded > ALIAS_BUDGET_FACTOR * self.nodes + ALIAS_BUDGET_BASE:
            raise _TooBig(self.span(event), "anchors and aliases expand to too many nodes (an alias bomb?); "
                          "write the values out instead of repeating aliases")

    def end(self) -> None:
        frame = self.stack.pop()
        if frame.skip_depth > 1:
            frame.skip_depth -= 1
            self.stack.append(frame)
            return
        if frame.skip_depth == 0:
            if frame.anchor is not None:
                self.anchors[frame.anchor] = (frame.value, frame.size)
            if self.stack:
                self.stack[-1].size += frame.size

    def event(self, ev: Any) -> None:
        cls = type(ev)
        if cls is yaml.MappingEndEvent or cls is yaml.SequenceEndEvent:
            self.end()
            return
        starts = cls is yaml.MappingStartEvent or cls is yaml.SequenceStartEvent
        if not (starts or cls is yaml.ScalarEvent or cls is yaml.AliasEvent):
            return
        top = self.stack[-1] if self.stack else None
        if top is not None:
            if top.skip_depth:
                if starts:
                    top.skip_depth += 1
                return
            if isinstance(top.value, dict):
                if top.key is None:
                    self.take_key(ev)
                    if starts:  # a complex key: skip it (its value is skipped too)
                        self.stack.append(_Frame(None, "", None, skip_depth=1))
                    return
                key = top.key
                top.key = None
                if key is _SKIP:
                    if starts:
                        self.stack.append(_Frame(None, "", None, skip_depth=1))
                    return
                pointer = f"{top.pointer}/{escape(key)}"
            else:
                key = None
                pointer = f"{top.pointer}/{len(top.value)}"
        else:
            key, pointer = None, ""
        if len(self.stack) >= MAX_DEPTH:
            raise _TooBig(self.span(ev), f"nesting deeper than {MAX_DEPTH} levels")
        self.doc.spans[pointer] = self.span(ev)
        if cls is yaml.AliasEvent:
            if ev.anchor not in self.anchors:
                self.problem(ev, "Y001", f"YAML: alias '*{ev.anchor}' names no anchor defined before it")
                self.attach(key, None)
                return
            value, size = self.anchors[ev.anchor]
            self.count(ev, size)
            if top is not None:
                top.size += size
            self.attach(key, value)
            return
        self.count(ev, 1)
        if cls is yaml.ScalarEvent:
            value = self.scalar(ev)
            if ev.anchor is not None:
                self.anchors[ev.anchor] = (value, 1)
            if top is not None:
                top.size += 1
            self.attach(key, value)
            return
        wanted = _MAP if cls is yaml.MappingStartEvent else _SEQ
        if ev.tag not in (None, "!", wanted):
            self.attach(key, self.bad_tag(ev))
            self.stack.append(_Frame(None, "", None, skip_depth=1))
            return
        container: Any = {} if cls is yaml.MappingStartEvent else []
        self.attach(key, container)
        self.stack.append(_Frame(container, pointer, ev.anchor))

    def bad_tag(self, ev: Any) -> str:
        """Report a tag that would construct something; the value becomes inert text."""
        tag = str(ev.tag).replace("tag:yaml.org,2002:", "!!")
        self.problem(ev, "Y004", f"tag '{tag}' is not allowed; content uses plain YAML values only: remove the tag")
        return f"(refused {tag})"

    def scalar(self, ev: Any) -> Any:
        value: str = ev.value
        tag = ev.tag
        if tag is None and not ev.style:  # plain (None or "" by loader): resolve as YAML 1.1 does
            for resolved, regexp in _IMPLICIT.get(value[0] if value else "", []) + _IMPLICIT.get(None, []):
                if regexp.match(value):
                    tag = resolved
                    break
            else:
                return value
        if tag in _PLAIN_AS_TEXT:
            return value
        if tag not in _SCALAR_TAGS:
            return self.bad_tag(ev)
        node = yaml.ScalarNode(tag, value)
        try:
            if tag == "tag:yaml.org,2002:int":
                return _scalars.construct_yaml_int(node)
            if tag == "tag:yaml.org,2002:float":
                return _scalars.construct_yaml_float(node)
            if tag == "tag:yaml.org,2002:bool":
                return _scalars.construct_yaml_bool(node)
            return None
        except (ValueError, ConstructorError, KeyError) as exc:
            self.problem(ev, "Y008", f"cannot read '{value[:40]}' as {tag.rsplit(':', 1)[-1]} ({exc}); "
                         "quote it to keep it as text")
            return value


# YAML also breaks lines at NEL, LS and PS (U+0085, U+2028, U+2029); text editors (and the
# ledger's text operations) do not. Where a file holds one, spans are counted from the character
# offset with the editor's line breaks (CRLF, CR or LF), so a diagnostic names the line one sees.
_EDITOR_BREAK = re.compile(r"\r\n|\r|\n")
_YAML_ONLY_BREAKS = ("\x85", "\u2028", "\u2029")


def editor_line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in _EDITOR_BREAK.finditer(text))]


def _index_span(file: str, starts: list[int], index: int) -> Span:
    line = bisect.bisect_right(starts, index)
    return Span(file, line, index - starts[line - 1] + 1)


def _mark_span(file: str, mark: Any, text: str = "") -> Span:
    if mark is None:
        return Span(file, 1, 1)
    if text and any(c in text for c in _YAML_ONLY_BREAKS) and isinstance(getattr(mark, "index", None), int):
        return _index_span(file, editor_line_starts(text), mark.index)
    line = getattr(mark, "line", None)
    if line is None:  # ReaderError carries a character position only
        pos = getattr(mark, "position", 0)
        return Span(file, text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos))
    return Span(file, line + 1, getattr(mark, "column", 0) + 1)


def loads(text: str, file: str) -> Document:
    """Load one YAML document from text; problems become diagnostics (`yamlload.loads`).

    The cyclic garbage collector is paused while parsing: the values and spans built here form no cycles,
    and with hundreds of thousands of new objects its passes made a 50,000-card file take 1.7 x longer
    (parsing grew faster than the file).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _loads(text, file)
    finally:
        if paused:
            gc.enable()


def _loads(text: str, file: str) -> Document:
    doc = Document(file)
    builder = _EventBuilder(doc)
    if any(c in text for c in _YAML_ONLY_BREAKS):
        builder.starts = editor_line_starts(text)
    loader = ContentLoader(text)
    documents = 0
    try:
        while loader.check_event():
            ev = loader.get_event()
            if isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    doc.diagnostics.append(error(builder.span(ev), "Y001", "YAML syntax: more than one YAML "
                                                 "document ('---'); keep one document per file"))
                    break
                continue
            builder.event(ev)
    except yaml.MarkedYAMLError as exc:
        span, message = explain_syntax_error(exc, text, file)
        doc.diagnostics.append(error(span, "Y001", message))
        return _failed(doc)
    except yaml.reader.ReaderError as exc:
        char = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
        doc.diagnostics.append(error(_mark_span(file, exc, text), "Y002", f"character {char!r} is not allowed in "
                                     "YAML; remove it or save the file as UTF-8 text"))
        return _failed(doc)
    except _TooBig as exc:
        doc.diagnostics.append(error(exc.span, "Y005", exc.message))
        return _failed(doc)
    except (yaml.YAMLError, RecursionError, MemoryError, ValueError) as exc:
        doc.diagnostics.append(error(Span(file, 1, 1), "Y001", f"YAML cannot be read: {type(exc).__name__}"))
        return _failed(doc)
    finally:
        loader.dispose()
    doc.data = builder.root
    return doc


#: PyYAML's wording for a line that does not line up with its block (said in the user's words below).
_INDENTATION_SLIPS = ("did not find expected key", "did not find expected '-' indicator", "expected <block end>",
                      "mapping values are not allowed", "could not find expected ':'")


def _colon_after_a_key(lines: list[str], mark: Any) -> bool:
    """Whether the ':' PyYAML stopped at comes after a key on the same line (`text: a: b`: a value to quote),
    not on a continuation line (an over-indented key)."""
    line = lines[mark.line] if mark is not None and 0 <= mark.line < len(lines) else ""
    return ": " in line[: mark.column] if mark is not None else False


def explain_syntax_error(exc: yaml.MarkedYAMLError, text: str, file: str) -> tuple[Span, str]:
    """Where a YAML syntax error is and what to do, in words a person editing the file uses:
    a tab is named as a tab, an indentation slip says indentation; PyYAML's own words follow."""
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "invalid YAML"
    ctx = exc.context_mark
    block = ""
    if ctx is not None and exc.problem_mark is not None and ctx.line != exc.problem_mark.line:
        what = (exc.context or "while parsing a block").replace("while parsing ", "")
        block = f"{what} that starts at line {ctx.line + 1}, column {ctx.column + 1}"
    lines = text.split("\n")
    line_no = mark.line if mark is not None else 0
    # a tab in the indentation of the line at fault (or of the line PyYAML was reading when it noticed)
    tabby = "tab" in problem or "cannot start any token" in problem
    for n in dict.fromkeys((line_no, line_no - 1) if tabby else (line_no,)):
        if 0 <= n < len(lines):
            indent = lines[n][: len(lines[n]) - len(lines[n].lstrip(" \t"))]
            if "\t" in indent or (n == line_no and "\t" in lines[n][:1]):
                col = indent.index("\t") + 1 if "\t" in indent else 1
                return Span(file, n + 1, col), ("YAML does not allow tabs for indentation; use spaces "
                                                f"(a tab at line {n + 1}, column {col})")
    if mark is not None and 0 <= line_no < len(lines) and lines[line_no][mark.column:mark.column + 1] == "\t":
        return Span(file, line_no + 1, mark.column + 1), "YAML does not allow tabs here; use spaces"
    if any(problem.startswith(slip) for slip in _INDENTATION_SLIPS):
        where = block or "the lines above"
        if problem.startswith("mapping values") and _colon_after_a_key(lines, mark):
            return _mark_span(file, mark, text), ("YAML syntax: a ': ' inside a value starts a mapping there; put the "
                                            f"value in quotes (YAML: {problem})")
        if problem.startswith("mapping values"):
            hint = ("this line is indented further than the key above it, so its ':' would start a mapping inside "
                    "that key's value; indent it like the keys beside it")
        elif "'-'" in problem:
            hint = (f"this line does not line up with {where}; the items of a list start with '-' at the same "
                    "column, and the lines of one item are indented like its first key")
        else:
            hint = (f"this line does not line up with {where}; the keys of one mapping start at the same column, "
                    "and a nested value is indented further than its key")
        return _mark_span(file, mark, text), f"YAML syntax: bad indentation: {hint} (YAML: {problem})"
    if block:
        problem += f" in {block}"
    return _mark_span(file, mark, text), f"YAML syntax: {problem}"


def _failed(doc: Document) -> Document:
    doc.data = None
    doc.spans.clear()
    doc.key_spans.clear()
    return doc
