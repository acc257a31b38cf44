"""A loaded YAML file as data with positions (`Document`), JSON-pointer escaping, and the parser's limits.

Shared by `yamlload` (reading) and `yamlparse` (parsing), so neither imports the other for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scarbook.kernel.diagnostics import Diagnostic, Span

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 64
ALIAS_BUDGET_FACTOR = 4
ALIAS_BUDGET_BASE = 10_000


@dataclass
class Document:
    """One YAML file: its data and the span of every value and key, by JSON pointer."""

    file: str
    data: Any = None
    spans: dict[str, Span] = field(default_factory=dict)
    key_spans: dict[str, Span] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    invalid: set[str] = field(default_factory=set)  # pointers of items whose values have the wrong shape

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
