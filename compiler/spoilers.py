"""What players may not read yet, and the one place that keeps it out of every output.

Two kinds of content are sealed, both declared as content data, never by game:

- everything an unopened envelope (packet, container, pocket) lists in its `contents`: those items are
  left out by `Game.effective`; their ids and display names (`name`, `code`, `title`) are the *sealed
  names*, except a name printed on the outside of a packet (its name or trigger) or borne by an item
  players already see;
- the campaign schedule's later games: a `schedule` entry whose `game` the campaign has not reached yet
  (without a campaign, every game after game 1), and every item whose sources are only such a game's
  rulebook sections (the cites of its schedule entry): a table of game 9's rolls is game 9's.

`for_players` is what every output is built from (`show`, `tables`, `build`, with or without a
campaign): the later games' items are left out, so are the later games' sections from the sources
printed under a table (a section's name is its game's title), and in the free text of what remains (notes, texts,
effects, a schedule entry's objective...) each sentence that names a sealed item is withheld, with a
line saying until when; a schedule entry whose game ends by opening a packet still sealed keeps "Open
envelope C" of its `at_end` and withholds what it says the packet holds. `mentions` is what `validate`
warns with (X111) where unsealed free text names a sealed item, so the authors can move that sentence into
the packet's own notes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from scarbook.compiler.model import Game, Item, as_dict, as_list, cites

#: Keys of an item whose strings are free text a player reads (everything else holds ids, numbers or
#: structure). A declared table's `rows` are cells of free text.
FREE_TEXT = ("text", "notes", "note", "effect", "special", "at_end", "objective", "description", "summary",
             "rows", "flavor", "reminder")
#: Keys whose strings name the item itself (the sealed names), or a named part of it (a rulebook place's label).
NAME_KEYS = ("name", "code", "title", "label")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+")


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@dataclass
class Sealed:
    """The sealed names of a game as players see it now: name (as tokens joined by spaces) -> the envelope
    whose opening reveals it (its display name), and the schedule's games not reached yet."""

    names: dict[str, str] = field(default_factory=dict)
    reached: int = 1
    shown: dict[str, str] = field(default_factory=dict)  # name as tokens -> as the content spells it

    def __post_init__(self) -> None:
        self.lengths = sorted({len(name.split()) for name in self.names}, reverse=True)
        self.firsts = {name.split()[0] for name in self.names}

    @property
    def active(self) -> bool:
        return bool(self.names)

    def found(self, text: str) -> list[str]:
        """The sealed names `text` mentions (as whole words, whatever lies between them), each once, in order."""
        if not self.names or not text:
            return []
        words = _tokens(text)
        out: list[str] = []
        for i, word in enumerate(words):
            if word not in self.firsts:
                continue
            for n in self.lengths:
                name = " ".join(words[i:i + n])
                if name in self.names and name not in out:
                    out.append(name)
                    break
        return out


def _names_of(item_id: str, item: Item | None) -> Iterator[str]:
    for key in NAME_KEYS:
        value = (item or {}).get(key)
        if isinstance(value, str):
            yield value
    yield item_id


def _parts(item: Item) -> Iterator[Item]:
    """The named parts of an item: the objects with an `id` in its lists (slots, powers, units...)."""
    for value in item.values():
        for part in value if isinstance(value, list) else []:
            if isinstance(part, dict) and isinstance(part.get("id"), str):
                yield part


def sealed(full: Game, opened: Iterable[str] = (), reached: int = 1) -> Sealed:
    """The sealed names of `full` (the whole content) with `opened` envelopes opened, `reached` the game
    the campaign is at (1 without a campaign)."""
    opened = set(opened) | {e for e, env in full.section("envelopes").items() if env.get("opened_at_start")}
    sealed_ids = full.sealed_ids(opened)
    outside = " ".join(" ".join(_tokens(f"{env.get('name', '')} {as_dict(env.get('trigger')).get('text', '')}"))
                       for env in full.section("envelopes").values())
    public: set[str] = set()
    for items in full.sections.values():
        for iid, item in items.items():
            if iid not in sealed_ids:
                public.update(" ".join(_tokens(n)) for n in _names_of(iid, item))
                for part in _parts(item):  # a named part players see (a place printed in the rulebook)
                    public.update(" ".join(_tokens(n)) for n in _names_of(str(part.get("id", "")), part))
    holder: dict[str, str] = {}
    for eid, env in full.section("envelopes").items():
        if eid in opened:
            continue
        for cid in as_list(env.get("contents")):
            if isinstance(cid, str):
                holder.setdefault(cid, str(env.get("name") or eid))
    names: dict[str, str] = {}
    shown: dict[str, str] = {}
    for iid in sorted(sealed_ids):
        found = full.item(iid)
        for name in _names_of(iid, found[1] if found else None):
            key = " ".join(_tokens(name))
            if len(key) < 3 or key in public or f" {key} " in f" {outside} ":
                continue
            names.setdefault(key, holder.get(iid, "its packet"))
            shown.setdefault(key, name)
    return Sealed(names, reached, shown)


def later_items(game: Game, reached: int) -> dict[str, int]:
    """Item id -> the game whose section it belongs to, for the schedule's games after `reached` and every
    item whose cites are all of such games' rulebook sections."""
    section_game: dict[str, int] = {}
    out: dict[str, int] = {}
    for sid, entry in game.section("schedule").items():
        number = entry.get("game")
        if not isinstance(number, int):
            continue
        for cite in cites(entry):
            section_game[cite] = min(number, section_game.get(cite, number))
        if number > reached:
            out[sid] = number
    if not out:
        return out
    for name, items in game.sections.items():
        if name in ("schedule", "envelopes"):  # a packet's name and trigger are printed on its outside
            continue
        for iid, item in items.items():
            own = cites(item)
            games = [section_game.get(c) for c in own]
            if own and all(g is not None for g in games):
                first = min(g for g in games if g is not None)
                if first > reached:
                    out[iid] = first
    return out


def _withhold_text(text: str, seal: Sealed) -> str:
    kept, withheld = [], []
    for sentence in _SENTENCE.split(text):
        names = seal.found(sentence)
        if names:
            withheld += [seal.names[n] for n in names if seal.names[n] not in withheld]
        else:
            kept.append(sentence)
    if not withheld:
        return text
    note = f"(More is withheld until {' and '.join(dict.fromkeys(withheld))} "\
           f"{'is' if len(set(withheld)) == 1 else 'are'} opened.)"
    return " ".join([*kept, note]) if kept else note


def _withhold(value: Any, seal: Sealed) -> Any:
    if isinstance(value, str):
        return _withhold_text(value, seal)
    if isinstance(value, list):
        return [_withhold(v, seal) for v in value]
    if isinstance(value, dict) and "unknown" not in value:
        return {k: _withhold(v, seal) for k, v in value.items()}
    return value


def _free_text(item: Any, seal: Sealed) -> Any:
    """The item with the sentences of its free text that name a sealed item withheld (nested items too)."""
    if isinstance(item, list):
        return [_free_text(v, seal) for v in item]
    if not isinstance(item, dict):
        return item
    out = {}
    for key, value in item.items():
        if key in FREE_TEXT:
            out[key] = _withhold(value, seal)
        elif isinstance(value, dict | list) and key not in ("source", "contents", "checks"):
            out[key] = _free_text(value, seal)
        else:
            out[key] = value
    return out


def later_cites(game: Game, reached: int) -> set[str]:
    """The rulebook sections (cites) of the schedule's games after `reached` that no game reached cites too."""
    later: set[str] = set()
    now: set[str] = set()
    for entry in game.section("schedule").values():
        if isinstance(entry.get("game"), int):
            (later if entry["game"] > reached else now).update(cites(entry))
    return later - now


def _without_cites(item: Item, hidden: set[str]) -> Item:
    """The item with the cites of `hidden` sections left out of its `source` (a section's name is its game's
    title)."""
    own = cites(item)
    if not any(c in hidden for c in own):
        return item
    return {**item, "source": {**item["source"], "cite": [c for c in own if c not in hidden]}}


def _opening(entry: Item, full: Game, opened: set[str]) -> Item:
    """A schedule entry whose game ends by opening a packet still sealed, without what its `at_end` says the
    packet holds: the rulebook's "Open envelope C: add five warfare cards ..." keeps "Open envelope C" and
    the rest is withheld until the packet is opened (the packet's name is printed on its outside)."""
    text = entry.get("at_end")
    if not isinstance(text, str):
        return entry
    envelopes = full.section("envelopes")
    for eid in as_list(entry.get("opens")):
        env = envelopes.get(eid) if isinstance(eid, str) else None
        if env is None or eid in opened or env.get("opened_at_start"):
            continue
        name = str(env.get("name") or eid)
        words = _tokens(name)
        for start in range(max(len(words) - 1, 1)):  # "Sealed container B" is opened as "container B"
            spelled = r"\W+".join(re.escape(w) for w in words[start:])
            found = re.search(rf"\bopen\W+(?:the\W+)?{spelled}\s*:", text, re.IGNORECASE)
            if found:
                kept = text[:found.end()].rstrip(" :")
                return {**entry, "at_end": f"{kept}. (More is withheld until {name} is opened.)"}
    return entry


def for_players(visible: Game, full: Game, opened: Iterable[str] = (), reached: int = 1, over: bool = False,
                standing: tuple[str, ...] = ()) -> Game:
    """`visible` (the game as `Game.effective` or a campaign left it) as every output shows it: the
    schedule's later games and their items left out, and each sentence of free text that names a sealed
    item withheld (see the module's docstring)."""
    import dataclasses

    opened = set(opened)
    seal = sealed(full, opened, reached)
    later = later_items(full, reached)
    if not later and not seal.active:
        return dataclasses.replace(visible, reached=reached, over=over, standing=standing)
    hidden = later_cites(full, reached)
    sections = {name: {iid: _without_cites(_free_text(item, seal) if seal.active else item, hidden)
                       for iid, item in items.items() if iid not in later}
                for name, items in visible.sections.items()}
    if "schedule" in sections:
        sections["schedule"] = {sid: _opening(entry, full, opened) for sid, entry in sections["schedule"].items()}
    file_cites = {f: [c for c in cs if c not in hidden] for f, cs in visible.file_cites.items()}
    meta = _free_text(visible.meta, seal) if seal.active else visible.meta
    board = _free_text(visible.board, seal) if seal.active else visible.board
    return Game(visible.id, meta, board, sections, visible.edges, visible.spans, visible.files,
                visible.packs, visible.fingerprint, file_cites, reached, over, standing)


def free_text_mentions(game: Game) -> Iterator[tuple[str | None, str, str]]:
    """(item id, JSON pointer, sealed name) for each place where free text of an item no envelope holds and
    no later game's section keeps (reached: game 1) names an item an envelope holds (for `validate`). The
    id is None for the board's settings (pointer `/board/...`) and the game's (`/game/...`)."""
    seal = sealed(game, (), reached=10**6)  # the schedule's own sections are read when their game comes
    if not seal.active:
        return
    inside = game.sealed_ids()
    later = set(later_items(game, 1))

    def walk(value: Any, pointer: str, free: bool) -> Iterator[tuple[str, str]]:
        if isinstance(value, str):
            if free:
                for name in seal.found(value):
                    yield pointer, name
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from walk(v, f"{pointer}/{i}", free)
        elif isinstance(value, dict) and "unknown" not in value:
            for k, v in value.items():
                if k in ("source", "contents", "checks", "id"):
                    continue
                yield from walk(v, f"{pointer}/{k}", free or k in FREE_TEXT)

    for key, settings in (("board", game.board), ("game", game.meta)):
        for pointer, sealed_name in walk(settings, f"/{key}", False):
            yield None, pointer, sealed_name
    for name, items in game.sections.items():
        if name in ("envelopes", "schedule"):
            continue
        for iid, item in items.items():
            if iid in inside or iid in later:
                continue
            for pointer, sealed_name in walk(item, "", False):
                yield iid, pointer, sealed_name
