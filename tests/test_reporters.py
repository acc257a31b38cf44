"""The reporter table: every format renders every view, JSON is the data itself, and an unknown pair is refused."""

from __future__ import annotations

import json

import pytest

from scarbook.cli.common import TextOrJson
from scarbook.cli.reporters import REPORTERS, as_json, render
from scarbook.cli.tables import TableFormat

#: each view, and the formats its commands offer (their --format option's choices)
OFFERED = {"status": TextOrJson, "diff": TextOrJson, "games": TextOrJson, "part": TextOrJson,
           "diagnostics": TextOrJson, "where": TextOrJson, "check": TextOrJson, "tables": TableFormat}


def test_every_format_the_cli_offers_has_a_reporter_for_its_view() -> None:
    """No command picks a format in an `if`: every choice of each --format option is a reporter of the table,
    and the table holds nothing no command offers."""
    offered = {(view, f.value) for view, formats in OFFERED.items() for f in formats}
    held = {(view, fmt) for fmt, table in REPORTERS.items() for view in table}
    assert held == offered


def test_no_command_picks_a_format_in_an_if() -> None:
    """The commands with a --format option leave the choice to the reporter table (sheet and chronicle choose a
    file type, not a reporter)."""
    import re
    from pathlib import Path

    import scarbook.cli as cli

    found = []
    for path in sorted(Path(cli.__file__).parent.rglob("*.py")):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if re.search(r"\bif fmt is (TableFormat|TextOrJson)\.(md|csv|html|text)\b", line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert found == []


def test_json_is_the_data_indented_with_non_ascii_kept() -> None:
    data = {"campaign": "Welt", "name": "Søren", "games": [1, 2]}
    assert render(TextOrJson.json, "status", data) == as_json(data) == json.dumps(data, indent=2, ensure_ascii=False)
    assert json.loads(render("json", "diff", data)) == data


def test_text_is_the_views_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text goes to `campaign.views.status.status_text` and the service's `diff_text` (looked up when used);
    the golden tests hold their output word for word."""
    import scarbook.campaign.service.history as history
    import scarbook.campaign.views.status as status

    monkeypatch.setattr(status, "status_text", lambda data: f"status of {data['campaign']}")
    monkeypatch.setattr(history, "diff_text", lambda data: f"diff of {data['campaign']}")
    assert render(TextOrJson.text, "status", {"campaign": "Welt"}) == "status of Welt"
    assert render("text", "diff", {"campaign": "Welt"}) == "diff of Welt"


def test_an_unknown_format_or_view_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="no 'xml' reporter for 'status'; formats: text, json"):
        render("xml", "status", {})
    with pytest.raises(ValueError, match="no 'text' reporter for 'nothing'"):
        render("text", "nothing", {})
