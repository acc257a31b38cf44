"""Diagnostics as values: what is wrong, where, and how to fix it.

Every stage returns `Diagnostic` values instead of raising; one reporter prints them.
This module must never import anything heavy: the tracker prints diagnostics too.
"""

from __future__ import annotations

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


#: Where a refusal of a command line points: at no file (the command itself).
COMMAND_LINE = Span("")


@dataclass(frozen=True)
class Diagnostic:
    """One problem: where (`span`), how bad, its code and message; a refused move also names the rule that
    forbids it in short (`rule`) and where that rule is written (`cite`)."""

    span: Span
    severity: Severity
    code: str
    message: str
    path: str = field(default="")  # JSON pointer into the document, when it applies
    rule: str = ""
    cite: str = ""

    @property
    def explained(self) -> str:
        """The message with the rule and its citation: "alaska already has a city (one city a territory; ...)"."""
        why = "; ".join(x for x in (self.rule, self.cite) if x)
        return f"{self.message} ({why})" if why else self.message

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.span.file, self.span.line, self.span.column, self.code, self.message)

    def render(self) -> str:
        where = f"{self.span}: " if str(self.span) else ""
        return f"{where}{self.severity.value} {self.code}: {self.explained}"

    def at(self, span: Span, path: str = "") -> Diagnostic:
        """The same problem pointed at `span` (a refused event found again at its line)."""
        return Diagnostic(span, self.severity, self.code, self.message, path or self.path, self.rule, self.cite)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.explained,
            "path": self.path,  # a JSON pointer into the file; "" is the whole file (or no file)
        }
        if self.rule or self.cite:
            out["rule"], out["cite"] = self.rule, self.cite
        return out


def error(span: Span, code: str, message: str, path: str = "") -> Diagnostic:
    return Diagnostic(span, Severity.ERROR, code, message, path)


def warning(span: Span, code: str, message: str, path: str = "") -> Diagnostic:
    return Diagnostic(span, Severity.WARNING, code, message, path)


def refusal(code: str, message: str, rule: str = "", cite: str = "", span: Span = COMMAND_LINE) -> Diagnostic:
    """Why a move is refused: a code, what is wrong, the rule in short and where it is written."""
    return Diagnostic(span, Severity.ERROR, code, message, "", rule, cite)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a close choice exists, else ''."""
    import difflib  # only a refusal asks; the module costs ~1 ms at every start-up

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def strict(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """--strict: every warning becomes an error."""
    return [
        Diagnostic(d.span, Severity.ERROR, d.code, d.message, d.path, d.rule, d.cite) if not d.is_error else d
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


__all__ = ["COMMAND_LINE", "Diagnostic", "Severity", "Span", "error", "refusal", "warning"]
