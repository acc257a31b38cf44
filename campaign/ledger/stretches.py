"""Which stretch of a campaign's events was recorded under which content (the ledger's fingerprint history).

The header's `fingerprint` is the content the campaign began with; each `recorded_under` entry says that
from event number `from` on, events were recorded under content `fingerprint`, and that the events
before it hashed to `digest` when scarbook wrote the entry. A write under content other than the
stretch's adds an entry (`new_stretch`), so the history grows once per upgrade (or content change).

An event recorded under earlier content stays: it is on the physical board. If today's rules refuse
it, the replay keeps it as a warning (L016), not an error (`earlier`). Only events scarbook recorded get
that: a stretch whose events no longer hash to the digest written after it (an event added or edited
by hand) is checked as new (L018 says so); events after the last entry were recorded by the release
that wrote them, under the content of that entry, and are judged like any other when it is today's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from scarbook.campaign.events import Event
from scarbook.campaign.ledger.file import Ledger
from scarbook.kernel.diagnostics import Diagnostic, Span, warning
from scarbook.kernel.sha import sha256

#: A content fingerprint as scarbook writes it (`compiler.load.fingerprint`: 16 hex digits).
FINGERPRINT = re.compile(r"[0-9a-f]{16}")


def digest(events: Sequence[Event], before: int | None = None) -> str:
    """A digest of the events (those whose entry index is below `before`), as their fields say them: comments,
    spacing, key order and notes (free text the rules never read) do not count; a changed field, an added or a
    removed event does."""
    h = sha256(large=len(events) > 2000)
    for ev in events:
        if before is not None and ev.index >= before:
            break
        fields = ev.to_dict()
        fields.pop("note", None)
        h.update(json.dumps(fields, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()[:16]


def recording(ledger: Ledger) -> str:
    """The content fingerprint the campaign's latest events were recorded under."""
    entries = ledger.recorded_under
    return str(entries[-1]["fingerprint"]) if entries else ledger.fingerprint


def new_stretch(ledger: Ledger, now: str, release: str) -> dict[str, Any] | None:
    """The `recorded_under` entry a write under content `now` adds (None when the latest stretch is `now`)."""
    if not now or recording(ledger) == now:
        return None
    return {"from": ledger.entries + 1, "fingerprint": now, "digest": digest(ledger.events), "release": release}


def earlier(ledger: Ledger, now: str) -> tuple[frozenset[int], list[Diagnostic]]:
    """The entry indexes of events recorded under content other than `now` by scarbook (kept when today's rules
    refuse them), and a warning L018 for each stretch whose events changed by hand since."""
    if not now or (not ledger.recorded_under and ledger.fingerprint == now):
        return frozenset(), []  # the usual case: one stretch, today's content (the events are not even listed)
    bounds = [0] + [int(e["from"]) - 1 for e in ledger.recorded_under]
    prints = [ledger.fingerprint] + [str(e["fingerprint"]) for e in ledger.recorded_under]
    kept: set[int] = set()
    notes: list[Diagnostic] = []
    for k, (start, fingerprint) in enumerate(zip(bounds, prints, strict=True)):
        end = bounds[k + 1] if k + 1 < len(bounds) else None
        if fingerprint == now or not FINGERPRINT.fullmatch(fingerprint):
            continue  # today's content, or no fingerprint scarbook wrote (a header made by hand): checked as new
        if end is not None:
            wanted = str(ledger.recorded_under[k]["digest"])
            if digest(ledger.events, end) != wanted:
                notes.append(warning(Span(ledger.display, 1, 1), "L018", f"events {start + 1}-{end} changed since "
                                     f"scarbook recorded them (their digest was {wanted}); they are checked by "
                                     "today's rules like an event added by hand", "/campaign/recorded_under"))
                continue
        kept.update(ev.index for ev in ledger.events if ev.index >= start and (end is None or ev.index < end))
    return frozenset(kept), notes
