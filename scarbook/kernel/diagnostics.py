"""Diagnostics as values: what is wrong, where, and how to fix it.

Every stage returns `Diagnostic` values instead of raising; one reporter prints them.
This module must never import anything heavy: the tracker prints diagnostics too.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


class Span(NamedTuple):
    """A position in a source file, 1-based line and column (a tuple: cheap to make by the hundred thousand)."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file


@dataclass(frozen=True)
class Diagnostic:
    span: Span
    severity: Severity
    code: str
    message: str
    path: str = field(default="")  # JSON pointer into the document, when it applies

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.span.file, self.span.line, self.span.column, self.code, self.message)

    def render(self) -> str:
        return f"{self.span}: {self.severity.value} {self.code}: {self.message}"

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "path": self.path,  # a JSON pointer into the file; "" is the whole file (or no file)
        }
        return out


def error(span: Span, code: str, message: str, path: str = "") -> Diagnostic:
    return Diagnostic(span, Severity.ERROR, code, message, path)


def warning(span: Span, code: str, message: str, path: str = "") -> Diagnostic:
    return Diagnostic(span, Severity.WARNING, code, message, path)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a close choice exists, else ''."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def strict(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """--strict: every warning becomes an error."""
    return [
        Diagnostic(d.span, Severity.ERROR, d.code, d.message, d.path) if not d.is_error else d
        for d in diagnostics
    ]


def sort_unique(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        key = (d.span, d.severity, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def summary(diagnostics: list[Diagnostic], files: int) -> str:
    errors = sum(d.is_error for d in diagnostics)
    warnings = len(diagnostics) - errors
    noun = "file" if files == 1 else "files"

    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    return f"{plural(errors, 'error')}, {plural(warnings, 'warning')} in {files} {noun}"


def render_text(diagnostics: list[Diagnostic], files: int | None = None) -> str:
    lines = [d.render() for d in sort_unique(diagnostics)]
    if files is not None:
        lines.append(summary(diagnostics, files))
    return "\n".join(lines)


def render_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([d.as_json() for d in sort_unique(diagnostics)], indent=2)


__all__ = ["Diagnostic", "Severity", "Span", "error", "warning"]
