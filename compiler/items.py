"""Typed views of the content items the tracker reads: stickers (with their checks and links), packets, cards,
places and pieces (`Place`: the one view of territories, regions, cards, factions …), rewards, rulebook slots.

NamedTuples (immutable, as beancount's directives): a frozen dataclass of this many fields costs several times as
much to build, and every content the tracker derives (a packet opened …) builds its views again.

Like `compiler/campaign_model.py` for `game.campaign`, each view is built once per content
(`campaign/content.py::Content` builds them lazily, on first use; the stickers once per game, `sticker_views`)
from the merged, effective content. The builders here are where the raw mapping reads are: a reader sees typed
attributes that mypy checks. Content that failed its schema is still merged, so a builder takes what it finds: a
value of the wrong type is absent, an absent optional key is its default, and a value the content marks unknown
(`{unknown: …}`) stays as it is where the tracker shows it (a sticker's `adds`, a packet's name) and is never
guessed.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from scarbook.compiler.model import Game, as_dict, as_list


def _cite(value: Any) -> str:
    """A cite as the tracker prints it: a list joined by '; ' (as `campaign.checks.cite_text`)."""
    if isinstance(value, list):
        return "; ".join(str(c) for c in value)
    return str(value or "")


def _belongs_to(item: dict[str, Any]) -> str | None:
    found = item.get("belongs_to")
    return found if isinstance(found, str) else None


def _source_cite(item: dict[str, Any]) -> Any:
    return as_dict(item.get("source")).get("cite")


class CheckSpec(NamedTuple):
    """One named check on a sticker (`stickers[].checks[]`, or `{check: NAME …}` in the campaign language): its
    name, where and when it applies, and its optional parameters typed (checks.schema.json). A parameter the
    schema requires is read from `params` by its predicate, which fails as before when it is missing."""

    check: str  # the catalog's name (as written; 'None' when the content gives none)
    params: dict[str, Any]  # everything but check, cite and only: the parameters as written
    cite: str
    only: Any = None  # the phase it applies in (campaign/checks.py::phase_applies); None: always
    raw_cite: Any = None  # as written (a check's cite is the first cite some messages find)
    pool: Any = None  # the pool it is about (None: every pool)
    role: Any = None  # actor-is: the role
    field: str = ""  # choice-of: the item's list of options ('' when not given)
    fields: dict[str, Any] | None = None  # steps-value: field -> step
    envelope: Any = None  # opened / placed-once-opened: the packet
    slot: str = ""  # slot-free: the slot ('' : the sticker's own)
    kind: str | None = None  # next-to, in-order, spread-over-regions: a mark's kind
    tag: str = ""  # next-to, in-order: a tag of places
    absent: bool = False  # target-tagged: the tag is absent
    before_first_game: bool = False
    by: bool = False  # target-card-value: the player it concerns is named
    games: int | None = None  # rewards-in-first-games: how many
    max: Any = None  # a number, or {track: ID} / {stat: FIELD} (campaign/checks.py::limit_number)
    min: Any = None
    of: tuple[Any, ...] = ()  # limit, enough-for-each: sticker ids, kinds, tags or {deck: D}
    per: tuple[str, ...] = ()  # limit: the scopes
    name: str = ""  # limit, in-order: what the content calls them
    text: str = ""  # when: the rule in words
    ids: tuple[str, ...] = ()  # in-order: the row of boxes
    types: tuple[str, ...] = ()  # game-type: the types of game
    regions: tuple[str, ...] = ()  # spread-over-regions: the regions ('' : every region)
    per_region: int = 2  # spread-over-regions
    max_track: str | None = None  # a `max` of {track: ID}: the track
    max_stat: str | None = None  # a `max` of {stat: FIELD}: the target's stat

    @classmethod
    def of_raw(cls, raw: dict[str, Any]) -> "CheckSpec":
        params = {k: v for k, v in raw.items() if k not in ("check", "cite", "only")}
        typed = {k: _PARAMS[k](v) for k, v in params.items() if k in _PARAMS}  # only what it gives: the rest default
        bound = params.get("max")
        if isinstance(bound, dict):
            track, stat = bound.get("track"), bound.get("stat")
            typed["max_track"], typed["max_stat"] = (track if isinstance(track, str) else None,
                                                     stat if isinstance(stat, str) else None)
        return cls(str(raw.get("check")), params, _cite(raw.get("cite")), raw.get("only"), raw.get("cite"), **typed)


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(map(str, value)) if isinstance(value, list) and value else ()


def _same(value: Any) -> Any:
    return value


def _str(value: Any) -> str:
    return str(value or "")


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


#: A check's optional parameter -> how it is typed (a value of the wrong type is the default).
_PARAMS: dict[str, Any] = {
    "pool": _same, "role": _same, "envelope": _same, "max": _same, "min": _same,
    "field": _str, "slot": _str, "tag": _str, "name": _str, "text": _str,
    "fields": lambda v: v if isinstance(v, dict) else None,
    "kind": lambda v: str(v) if v is not None else None,
    "absent": bool, "before_first_game": bool, "by": bool,
    "games": _number, "per_region": lambda v: v if isinstance(v, int) else 2,
    "of": lambda v: tuple(v) if isinstance(v, list) else (),
    "per": _strs, "ids": _strs, "types": _strs, "regions": _strs,
}


class Links(NamedTuple):
    """What a sticker's `links` block says: how many lines it brings, whether they cut, where they may go, who
    draws them, and where the rule is (campaign/links.py reads it)."""

    by: str = ""
    text: str = ""  # stripped
    cite: str = ""  # the block's own, else the sticker's
    each: int = 0  # lines owed from each added territory (or each territory that carries it)
    optional: int = 0  # lines it may bring beyond those
    cuts: bool = False  # its lines remove edges (`cuts: true`) instead of drawing them
    kind: str = "unknown"  # the kind of edge a drawn line is on the board as played
    within: int | None = None  # a line joins territories at most this many steps apart (None: any)
    same_region: bool | None = None  # a line joins territories of one region (True), of two (False); None: any

    @classmethod
    def of(cls, raw: dict[str, Any], cite: str) -> "Links":
        """The block as written (`cite`: the sticker's, for a block that gives none)."""
        get = raw.get
        each, optional, within, same = get("each", 0), get("optional", 0), get("within"), get("same_region")
        return cls(str(get("by") or ""), str(get("text") or "").strip(), _cite(get("cite") or cite),
                   each if isinstance(each, int) else 0, optional if isinstance(optional, int) else 0,
                   get("cuts") is True, str(get("kind") or "unknown"),
                   within if isinstance(within, int) and not isinstance(within, bool) else None,
                   same if isinstance(same, bool) else None)


class Sticker(NamedTuple):
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
    named_itself: bool = False  # the sticker itself is `named` (what it founds aside)
    slot: str = ""  # the slot it takes ('' : none)
    covers: tuple[str, ...] = ()  # the kinds of mark it goes over
    adds: Mapping[str, Any] = MappingProxyType({})  # field -> what it adds (a number, or unknown)
    founds_kind: str | None = None  # the kind of what it founds
    tags: tuple[str, ...] = ()
    supply: int | None = None  # how many there are (None: not a number the content gives)
    pools: tuple[tuple[Any, Any], ...] | None = None  # a supply in pools: (pool, count); None: not in pools
    setup_pools: frozenset[Any] = frozenset()  # the pools its `before-first-game` checks name
    deck: Any = None  # the deck of cards it goes on (None: any)
    adds_territories: tuple[str, ...] = ()
    boxes: int | None = None
    cancels: bool = False
    covers_all: bool = False
    destroys_card: bool = False
    text: str = ""  # its rule text ('' when the content transcribes none)
    belongs_to: str | None = None  # the piece it is the own sticker of (a character's)

    @classmethod
    def of(cls, sid: str, raw: dict[str, Any]) -> "Sticker":
        get = raw.get
        founds, links, supply = as_dict(get("founds")), as_dict(get("links")), get("supply")
        boxes, text, checks = get("boxes"), get("text"), [c for c in as_list(get("checks")) if isinstance(c, dict)]
        cite = _cite(_source_cite(raw))
        return cls(sid, str(get("name", sid)), str(get("kind") or ""), _strs(get("targets")),
                   tuple(CheckSpec.of_raw(c) for c in checks), cite, bool(get("named") or founds.get("named")),
                   Links.of(links, cite) if links else Links(cite=cite),
                   bool(boxes), bool(get("named")), str(get("slot") or ""), _strs(get("covers")),
                   dict(as_dict(get("adds"))), str(founds["kind"]) if founds.get("kind") is not None else None,
                   _strs(get("tags")), _number(supply),
                   tuple((p.get("pool"), p.get("count")) for p in supply if isinstance(p, dict))
                   if isinstance(supply, list) else None,
                   frozenset(c.get("pool") for c in checks if c.get("check") == "before-first-game") - {None},
                   get("deck"), _strs(get("adds_territories")), boxes if isinstance(boxes, int) else None,
                   bool(get("cancels")), bool(get("covers_all")), bool(get("destroys_card")),
                   text if isinstance(text, str) else "", _belongs_to(raw))

    def checks_named(self, name: str) -> tuple[CheckSpec, ...]:
        return tuple(c for c in self.checks if c.check == name)


class Envelope(NamedTuple):
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
    def of(cls, eid: str, raw: dict[str, Any]) -> "Envelope":
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


class Card(NamedTuple):
    """A card (`cards`) as the tracker finds it: its deck, its printed type, the territory it stands for, the
    stickers printed on it (a card group's)."""

    id: str
    deck: Any  # None: in no deck
    type: str  # '' : its deck's card type
    territory: str | None
    stickers: tuple[str, ...]

    @classmethod
    def of(cls, cid: str, raw: dict[str, Any]) -> "Card":
        territory = raw.get("territory")
        return cls(cid, raw.get("deck"), str(raw.get("type") or ""), territory if isinstance(territory, str) else None,
                   tuple(map(str, raw.get("stickers") or [])))


def cards_of(section: dict[str, dict[str, Any]]) -> dict[str, Card]:
    return {cid: Card.of(cid, card) for cid, card in section.items()}


#: The last view made of each item, by (view, id): (the raw item it was made from, the view). A view depends only
#: on its id and raw item, and the games a campaign derives as it is played (sealed content left out, the board as
#: played) share the items they do not change: a replay makes ~4 such games and each read the same ~400 items
#: into views again (~10 % of a checked replay). One slot per id, so the memo holds at most one game's items.
_MADE: dict[tuple[str, str], tuple[object, Any]] = {}


def _view(kind: str, key: str, raw: object, make: Any) -> Any:
    """`make(key, raw)`, or the view made of this very raw item before (an item a game changed is a new object)."""
    found = _MADE.get((kind, key))
    if found is not None and found[0] is raw:
        return found[1]
    view = make(key, raw)
    _MADE[(kind, key)] = (raw, view)
    return view


def stickers_of(section: dict[str, dict[str, Any]]) -> dict[str, Sticker]:
    return {sid: _view("sticker", sid, st, Sticker.of) for sid, st in section.items()}


def sticker_views(game: Game) -> dict[str, Sticker]:
    """The game's stickers as views, built once per game and kept on it (as `views_more.more` keeps its views on a
    content) beside the section they were built from: a game whose stickers section is another builds them again."""
    section = game.section("stickers")
    kept = vars(game).get("_sticker_views")
    if kept is None or kept[0] is not section:
        kept = vars(game)["_sticker_views"] = (section, stickers_of(section))
    views: dict[str, Sticker] = kept[1]
    return views


def keep_sticker_views(game: Game, derived: Game) -> Game:
    """`derived` (a game made from `game` with the same stickers section) with the views `game` has built."""
    kept = vars(game).get("_sticker_views")
    if kept is not None:
        vars(derived)["_sticker_views"] = kept
    return derived


def envelopes_of(section: dict[str, dict[str, Any]]) -> dict[str, Envelope]:
    return {eid: Envelope.of(eid, env) for eid, env in section.items()}


class Power(NamedTuple):
    """One of a faction's options (`powers[]`) that has an id."""

    number: int  # its place in the faction's list, from 1 (entries that are not options count too)
    id: str
    name: Any  # as written (None: none given; an unknown name stays unknown)


class Place(NamedTuple):
    """An item of the content as the tracker reads it: a place a sticker can go on (a territory, region, card,
    faction, deck …) or a piece (a character card): its printed name and code, the regions and tags it is in, the
    slots it declares, its card's territory and deck, its stats, the ids of the options it lists (a faction's
    `powers`), a region's bonus and a card's resources. (`compiler/views_more.py::Item` is this view.)"""

    id: str
    name: str  # as `str(name)`; '' when none (or null)
    code: str  # as `str(code)`; '' when none
    regions: tuple[Any, ...] = ()
    tags: tuple[Any, ...] = ()
    slots: Mapping[str, Any] | None = None  # None: it declares none (or not a mapping)
    territory: Any = None  # a card's territory as written (None: none)
    deck: Any = None  # a card's deck as written (None: none)
    stats: Mapping[str, Any] | None = None  # the printed stats, the item's own mapping (None: none, or not a mapping)
    options: Mapping[str, tuple[Any, ...]] = MappingProxyType({})  # list field -> the `id` of each option in it
    card_type: str = ""  # a deck's type of cards ('' when none)
    belongs_to: str | None = None  # a deck: the piece it is the own deck of
    printed_name: Any = None  # the name as written (None: none given; an unknown name stays unknown)
    has_name: bool = False  # the item gives a `name` key (even a null one)
    printed_code: Any = None  # the code printed beside its name (a territory's), as written (None: none)
    powers: tuple[Power, ...] = ()  # a faction's options that have an id
    bonus: int | None = None  # a region's bonus (an int, bools included as the content's readers took them)
    resources: int | None = None  # a card's printed resources
    cites: tuple[Any, ...] = ()  # its `source.cite` when that is a list (the list's entries)

    @classmethod
    def of(cls, pid: str, raw: dict[str, Any]) -> "Place":
        get = raw.get
        slots, stats = get("slots"), get("stats")
        name, code, bonus, resources, powers = get("name"), get("code"), get("bonus"), get("resources"), get("powers")
        return cls(pid, str(name) if name is not None else "", str(get("code", "")), tuple(as_list(get("regions"))),
                   tuple(as_list(get("tags"))), slots if isinstance(slots, dict) else None, get("territory"),
                   get("deck"), stats if isinstance(stats, dict) else None,
                   {k: tuple(o.get("id") for o in v if isinstance(o, dict)) for k, v in raw.items()
                    if isinstance(v, list)}, str(get("card_type", "")), _belongs_to(raw), name, "name" in raw, code,
                   tuple(Power(i, p["id"], p.get("name")) for i, p in enumerate(powers, 1)
                         if isinstance(p, dict) and isinstance(p.get("id"), str)) if isinstance(powers, list) else (),
                   bonus if isinstance(bonus, int) else None, resources if isinstance(resources, int) else None,
                   tuple(as_list(_source_cite(raw))))

    def name_or(self, default: Any) -> Any:
        """The name as `item.get('name', default)` gives it."""
        return self.printed_name if self.has_name else default


def places_of(section: dict[str, dict[str, Any]]) -> dict[str, Place]:
    return {pid: _view("place", pid, item, Place.of) for pid, item in section.items()}


class BookSlot(NamedTuple):
    """A box for a sticker in a rulebook section (`rulebook[].slots[]`, one with an id), as the sheet names it."""

    id: Any  # as written
    label: Any  # as written (None: none)
    section: str  # the rulebook section's id
    title: Any  # the section's title as written (None: none)


def book_slots(rulebook: dict[str, dict[str, Any]]) -> list[BookSlot]:
    """Every slot of the rulebook's sections with an id, in order (what is not a slot is left out)."""
    return [BookSlot(slot["id"], slot.get("label"), bid, book.get("title")) for bid, book in rulebook.items()
            for slot in as_list(book.get("slots")) if isinstance(slot, dict) and slot.get("id")]


class Players(NamedTuple):
    """A game's `players`: how few and how many may play, as written (None: not given)."""

    min: Any = None
    max: Any = None


class Meta(NamedTuple):
    """What the tracker reads of a game's own description (`game.meta`): its players and its source's cite."""

    players: Players | None  # None: the game gives no `players` (or not a mapping)
    cite: Any  # its `source.cite` as written (None: none)

    @classmethod
    def of(cls, meta: dict[str, Any]) -> "Meta":
        players = meta.get("players")
        return cls(Players(players.get("min"), players.get("max")) if isinstance(players, dict) else None,
                   _source_cite(meta))


class Reward(NamedTuple):
    """A reward (`rewards`): the role it is for (winner, held-on …) and the stickers it places."""

    id: str
    role: str  # as `str(for)` ('None' when the content gives none)
    place: tuple[Any, ...]

    @classmethod
    def of(cls, rid: str, raw: dict[str, Any]) -> "Reward":
        return cls(rid, str(raw.get("for")), tuple(as_list(raw.get("place"))))
