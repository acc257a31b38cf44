"""The reporter table: every format renders every view, JSON is the data itself, and an unknown pair is refused."""

from __future__ import annotations

import json

import pytest

from scarbook.cli.common import TextOrJson
from scarbook.cli.reporters import REPORTERS, as_json, render


def test_every_format_the_cli_offers_has_a_reporter_for_every_view() -> None:
    assert set(REPORTERS) == {f.value for f in TextOrJson}
    views = {view for table in REPORTERS.values() for view in table}
    assert views == {"status", "diff"} and all(set(table) == views for table in REPORTERS.values())


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
