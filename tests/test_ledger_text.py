"""The ledger's text edited as text (campaign/ledgertext.py), in every layout a hand may leave it.

`with_event` appends one event and `without_last` removes it again; the rest of the file (comments,
other keys, their order) must come through untouched, and the result must read back as the same
events plus (or minus) the one. These run in-process: the process tests cover the writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scarbook.campaign.events import parse_event
from scarbook.campaign.ledger import LedgerError, parse
from scarbook.campaign.ledgertext import with_event, without_last
from scarbook.compiler.diagnostics import Span

HEAD = "# our campaign\ncampaign: {game: risk-legacy, fingerprint: x, players: [A, B, C]}\n"
FIRST = "{event: place, sticker: coin, target: alaska-card}"
NEW = parse_event({"event": "place", "sticker": "coin", "target": "peru-card"}, Span("x"), 0)

LAYOUTS = {
    "no events key": HEAD,
    "no events key, no final newline": HEAD.rstrip("\n"),
    "events: with nothing under it": HEAD + "events:\n",
    "events: then a comment and another key": HEAD + "events:\n# nothing yet\nnotes: keep this\n",
    "empty flow list": HEAD + "events: []\n",
    "flow list with one event": HEAD + f"events: [{FIRST}]  # typed by hand\n",
    "block list then another key": HEAD + f"events:\n  - {FIRST}\n# the end\nnotes: keep this\n",
    "block list, CRLF": (HEAD + f"events:\n- {FIRST}\n").replace("\n", "\r\n"),
    "block list, no final newline": HEAD + f"events:\n- {FIRST}",
    "empty flow list, no final newline": HEAD + "events: []",
    "null events": HEAD + "events: ~\n",
}


def _events(text: str) -> list[dict]:
    return [e.to_dict() for e in parse(text, Path("c.yaml")).events]


@pytest.mark.parametrize("layout", LAYOUTS, ids=list(LAYOUTS))
def test_an_event_is_appended_and_removed_keeping_everything_else(layout: str) -> None:
    text = LAYOUTS[layout]
    before = _events(text)
    ledger = parse(text, Path("c.yaml"))
    assert not ledger.problems, ledger.problems
    added = with_event(ledger, NEW)
    assert _events(added) == [*before, NEW.to_dict()]
    for kept in ("# our campaign", "# nothing yet", "notes: keep this", "# typed by hand", "# the end"):
        assert (kept in added) == (kept in text), (layout, kept, added)
    if "\r\n" in text:
        assert "\n" not in added.replace("\r\n", ""), "a CRLF file keeps CRLF"
    removed, event = without_last(parse(added, Path("c.yaml")))
    assert event.to_dict() == NEW.to_dict()
    assert _events(removed) == before
    for kept in ("# our campaign", "# nothing yet", "notes: keep this", "# typed by hand", "# the end"):
        assert (kept in removed) == (kept in text), (layout, kept, removed)


def test_undo_of_an_empty_ledger_is_refused() -> None:
    with pytest.raises(LedgerError) as caught:
        without_last(parse(HEAD + "events: []\n", Path("c.yaml")))
    assert caught.value.diagnostics[0].code == "L009"


def test_undo_refuses_an_unreadable_last_entry_and_names_its_line() -> None:
    text = HEAD + f"events:\n- {FIRST}\n- {{event: place, sticker: coin}}\n"
    with pytest.raises(LedgerError) as caught:
        without_last(parse(text, Path("c.yaml")))
    message = caught.value.diagnostics[0].message
    assert "the last entry (line 5) cannot be read, so undo will not guess what to remove" in message, message
