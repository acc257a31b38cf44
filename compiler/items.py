"""Typed views of the content items the tracker reads: stickers (with their checks), packets, schedule entries.

Like `compiler/campaign_model.py` for `game.campaign`, each view is built once per content
(`campaign/content.py::Content` builds them lazily, on first use) from the merged, effective content. The
builders here are where the raw mapping reads are: a reader sees typed attributes that mypy checks. Content
that failed its schema is still merged, so a builder takes what it finds: a value of the wrong type is
absent, an absent optional key is its default, and a value the content marks unknown (`{unknown: …}`) stays
as it is where the tracker shows it (a sticker's `adds`, a packet's name) and is never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scarbook.compiler.model import as_dict, as_list


def _cite(value: Any) -> str:
    """A cite as the tracker prints it: a list joined by '; ' (as `campaign.checks.cite_text`)."""
    if isinstance(value, list):
        return "; ".join(str(c) for c in value)
    return str(value or "")


def _source_cite(item: dict[str, Any]) -> Any:
    return as_dict(item.get("source")).get("cite")


@dataclass(frozen=True)
class CheckSpec:
    """One named check on a sticker (`stickers[].checks[]`): its name, its parameters, when and where it applies."""

    check: str  # the catalog's name ('' when the content gives none)
    params: dict[str, Any]  # everything but check, cite and only: what the check's predicate reads
    cite: str
    only: Any = None  # the phase it applies in (campaign/rules.py::phase_applies); None: always
    raw_cite: Any = None  # as written (a check's cite is the first cite some messages find)
    pool: Any = None  # the pool it is about (None: every pool)
    role: Any = None  # actor-is: the role
    field: str = ""  # choice-of: the item's list of options ('' when not given)
    fields: dict[str, Any] | None = None  # steps-value: field -> step
    envelope: Any = None  # opened / placed-once-opened: the packet

    @classmethod
    def of(cls, raw: dict[str, Any]) -> CheckSpec:
        fields = raw.get("fields")
        return cls(str(raw.get("check") or ""), {k: v for k, v in raw.items() if k not in ("check", "cite", "only")},
                   _cite(raw.get("cite")), raw.get("only"), raw.get("cite"), raw.get("pool"), raw.get("role"),
                   str(raw.get("field") or ""), fields if isinstance(fields, dict) else None, raw.get("envelope"))


@dataclass(frozen=True)
class Links:
    """What a sticker's `links` block says about who draws its lines, and where the rule is."""

    by: str = ""
    text: str = ""  # stripped
    cite: str = ""  # the block's own, else the sticker's


@dataclass(frozen=True)
class Sticker:
    """A sticker (or mark) of the content as the tracker reads it."""

    id: str
    name: str  # as printed (the id when the content gives none)
    kind: str  # '' when none
    targets: tuple[str, ...]
    checks: tuple[CheckSpec, ...]
    cite: str  # where its source says it is (`source.cite`)
    named: bool  # the player names it (the sticker's `named`, or what it founds is named)
    links: Links
    boxed: bool = False  # it has boxes to tick (`boxes`)

    @classmethod
    def of(cls, sid: str, raw: dict[str, Any]) -> Sticker:
        founds = as_dict(raw.get("founds"))
        links = as_dict(raw.get("links"))
        cite = _cite(_source_cite(raw))
        return cls(sid, str(raw.get("name", sid)), str(raw.get("kind") or ""),
                   tuple(str(t) for t in as_list(raw.get("targets"))),
                   tuple(CheckSpec.of(c) for c in as_list(raw.get("checks")) if isinstance(c, dict)),
                   cite, bool(raw.get("named") or founds.get("named")),
                   Links(str(links.get("by") or ""), str(links.get("text") or "").strip(),
                         _cite(links.get("cite") or _source_cite(raw))), bool(raw.get("boxes")))

    def checks_named(self, name: str) -> tuple[CheckSpec, ...]:
        return tuple(c for c in self.checks if c.check == name)


@dataclass(frozen=True)
class Envelope:
    """A sealed packet (`envelopes`): what opens it and what it holds."""

    id: str
    name: str  # the id when the content gives none
    trigger_text: str
    when: Any  # the trigger's condition (envelopes.schema.json#/$defs/condition); None: none
    cite: str  # the trigger's cite, else the packet's source
    source_cite: str
    contents: tuple[str, ...] | None  # None: the content lists none (not even an empty list)
    opened_at_start: bool = False

    @classmethod
    def of(cls, eid: str, raw: dict[str, Any]) -> Envelope:
        trigger = as_dict(raw.get("trigger"))
        contents = raw.get("contents")
        return cls(eid, str(raw.get("name", eid)), str(trigger.get("text") or ""), trigger.get("when"),
                   _cite(trigger.get("cite") or _source_cite(raw)), _cite(_source_cite(raw)),
                   tuple(str(c) for c in contents) if isinstance(contents, list) else None,
                   bool(raw.get("opened_at_start")))

    def about_to_place(self) -> str | None:
        """The sticker whose placement opens it (`when: {about_to_place: ID}`), if that is its trigger."""
        when = as_dict(self.when)
        found = when.get("about_to_place")
        return str(found) if found is not None else None


def stickers_of(section: dict[str, dict[str, Any]]) -> dict[str, Sticker]:
    return {sid: Sticker.of(sid, st) for sid, st in section.items()}


def envelopes_of(section: dict[str, dict[str, Any]]) -> dict[str, Envelope]:
    return {eid: Envelope.of(eid, env) for eid, env in section.items()}
