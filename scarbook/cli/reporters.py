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
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scarbook.compiler.model import Game
    from scarbook.compiler.tables import Table
    from scarbook.kernel.diagnostics import Diagnostic

Renderer = Callable[[Any], str]


@dataclass(frozen=True)
class PartView:
    """`show`: one part of a game (its JSON is `compiler.views.part`, its text `compiler.views.text`)."""

    game: Game
    part: str


@dataclass(frozen=True)
class TablesView:
    """`tables`: a game's rule tables, with the game they come from (titles, sources) and its campaign."""

    game: Game
    tables: list[Table]
    campaign: str | None = None


@dataclass(frozen=True)
class DiagnosticsView:
    """`validate`, `check`: problems, and how many files were read (None: not said)."""

    diagnostics: list[Diagnostic]
    files: int | None = None


def as_json(data: Any) -> str:
    """The view's data as JSON, indented, non-ASCII kept (what every `--format json` prints)."""
    return json.dumps(data, indent=2, ensure_ascii=False)


def status_text(data: Any) -> str:
    """`campaign status`: `scarbook.campaign.views.status.status_text` (of the typed status or its JSON)."""
    from scarbook.campaign.views.status import status_text as text

    return text(data)


def diff_text(data: dict[str, Any]) -> str:
    """`campaign diff`: `scarbook.campaign.history.diff_text` (through the service)."""
    from scarbook.campaign.service.history import diff_text as text

    return text(data)


def games_text(rows: list[dict[str, Any]]) -> str:
    """`games`: one line per shipped game: id, title, kind and player count."""
    width = max((len(str(r["id"])) for r in rows), default=0)
    lines = []
    for r in rows:
        p = r["players"] if isinstance(r["players"], dict) else {}
        players = f"{p.get('min')}-{p.get('max')} players" if p else ""
        kind = "legacy" if r["legacy"] else "standard"
        lines.append(f"{r['id']:<{width}}  {r['title']} ({kind}, {players})")
    return "\n".join(lines)


def part_json(view: PartView) -> str:
    """`show --format json`: `scarbook.compiler.views.part`."""
    from scarbook.compiler import views

    return as_json(views.part(view.game, view.part))


def part_text(view: PartView) -> str:
    """`show`: `scarbook.compiler.views.text`."""
    from scarbook.compiler import views

    return views.text(view.game, view.part)


def tables_md(view: TablesView) -> str:
    """`tables`: one Markdown document (`scarbook.compiler.tables`)."""
    from scarbook.compiler import tables as tablemod

    return tablemod.document_markdown(view.game, view.tables)


def tables_csv(view: TablesView) -> str:
    """`tables --format csv`: every table, one CSV."""
    from scarbook.compiler import tables as tablemod

    return tablemod.document_csv(view.tables)


def tables_json(view: TablesView) -> str:
    """`tables --format json`: every table with its sources."""
    from scarbook.compiler import tables as tablemod

    return tablemod.document_json(view.game, view.tables)


def tables_html(view: TablesView) -> str:
    """`tables --format html`: the digest's page (`scarbook.compiler.render.html.reference_html`), A4."""
    from scarbook.compiler.render.html import reference_html

    return reference_html(view.game, view.tables, "a4", None, [], view.campaign) + "\n"


def diagnostics_text(view: DiagnosticsView) -> str:
    """`validate`, `check`: FILE:LINE:COL: SEVERITY CODE: MESSAGE per problem, then a summary."""
    from scarbook.kernel.diagnostics import render_text

    return render_text(view.diagnostics, view.files)


def diagnostics_json(view: DiagnosticsView) -> str:
    """`validate --format json`, `check --format json`: the problems, with their files' paths."""
    from scarbook.compiler.load import with_paths
    from scarbook.kernel.diagnostics import render_json

    return render_json(with_paths(view.diagnostics))


@dataclass(frozen=True)
class CheckView:
    """`campaign check`: the ledger's problems, its name and how many events it holds."""

    diagnostics: list[Diagnostic]
    display: str
    events: int


def check_text(view: CheckView) -> str:
    """`campaign check`: the problems at their lines; without an error, a last line saying all is legal."""
    from scarbook.kernel.diagnostics import render_text

    lines = [render_text(view.diagnostics, 1)] if view.diagnostics else []
    if not any(d.is_error for d in view.diagnostics):
        kept = len({d.span.line for d in view.diagnostics if d.code == "L016"})
        lines.append(f"{view.display}: {view.events} events, all legal" if not kept else
                     f"{view.display}: {view.events} events, all legal but {kept} recorded under an earlier "
                     "release (kept: see the warnings)")
    return "\n".join(lines)


def check_json(view: CheckView) -> str:
    """`campaign check --format json`: the problems (as `validate --format json`)."""
    return diagnostics_json(DiagnosticsView(view.diagnostics))


def where_text(data: dict[str, Any]) -> str:
    """`campaign where`: one legal target per line (nothing when there is none: the command says why)."""
    return "\n".join(data["targets"])


def compact_json(data: Any) -> str:
    """JSON on one line (`campaign where --format json`, which scripts read line by line)."""
    return json.dumps(data, ensure_ascii=False)


#: format -> view -> renderer of the view's data.
REPORTERS: dict[str, dict[str, Renderer]] = {
    "text": {"status": status_text, "diff": diff_text, "games": games_text, "part": part_text,
             "diagnostics": diagnostics_text, "where": where_text, "check": check_text},
    "json": {"status": as_json, "diff": as_json, "games": as_json, "part": part_json, "tables": tables_json,
             "diagnostics": diagnostics_json, "where": compact_json, "check": check_json},
    "md": {"tables": tables_md},
    "csv": {"tables": tables_csv},
    "html": {"tables": tables_html},
}


def render(fmt: str | Enum, view: str, data: Any) -> str:
    """The text a command prints for `view`'s `data` in format `fmt` (a name or a format option's value)."""
    name = str(fmt.value if isinstance(fmt, Enum) else fmt)
    reporter = REPORTERS.get(name, {}).get(view)
    if reporter is None:
        raise ValueError(f"no {name!r} reporter for {view!r}; formats: {', '.join(REPORTERS)}")
    return reporter(data)
