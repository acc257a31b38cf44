"""Output formats: one table of reporters, by format name, that the commands pick from.

A command asks the service for a view's plain data (the JSON shape of `--format json`), then prints
`render(fmt, VIEW, data)`: JSON is the data itself, indented; text is the view's renderer for people. A new
format is one more column in `REPORTERS`, a new view one more row, and no command changes (check-jsonschema's
`REPORTER_BY_NAME` is the model).

The text renderers are imported when first used (start-up: `tests/test_startup.py`); each entry below names
the module it imports.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import Enum
from typing import Any

Renderer = Callable[[Any], str]


def as_json(data: Any) -> str:
    """The view's data as JSON, indented, non-ASCII kept (what every `--format json` prints)."""
    return json.dumps(data, indent=2, ensure_ascii=False)


def status_text(data: dict[str, Any]) -> str:
    """`campaign status`: `scarbook.campaign.views.status.status_text`."""
    from scarbook.campaign.views.status import status_text as text

    return text(data)


def diff_text(data: dict[str, Any]) -> str:
    """`campaign diff`: `scarbook.campaign.history.diff_text` (through the service)."""
    from scarbook.campaign.service.history import diff_text as text

    return text(data)


#: format -> view -> renderer of the view's data.
REPORTERS: dict[str, dict[str, Renderer]] = {
    "text": {"status": status_text, "diff": diff_text},
    "json": {"status": as_json, "diff": as_json},
}


def render(fmt: str | Enum, view: str, data: Any) -> str:
    """The text a command prints for `view`'s `data` in format `fmt` (a name or a format option's value)."""
    name = str(fmt.value if isinstance(fmt, Enum) else fmt)
    reporter = REPORTERS.get(name, {}).get(view)
    if reporter is None:
        raise ValueError(f"no {name!r} reporter for {view!r}; formats: {', '.join(REPORTERS)}")
    return reporter(data)
