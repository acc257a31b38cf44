"""Each game's own words and mark groups, and naming things grammatically.

A game declares in content what it calls things (`game: words:` — a signature, a region, a
starting territory, a game …, each a singular or `{one, many, a}`) and which placed stickers are
shown together (`game: marks:` — a group's title, the sticker kinds or ids it holds, its icon and
colour on the board picture). `status`, the campaign sheet and the board picture read them from
here and never give a sticker kind a meaning of their own. A game that declares nothing gets the
generic words and generic groups: marks that found something named, marks with boxes to tick,
and one group for every other mark, so every mark is shown.

`a("Upgrade")` -> "an Upgrade"; `plural(3, "box")` -> "3 boxes"; `kind_name(game, "closed")` names a
sticker kind or slot as the content does. Articles and plurals come from inflect (imported on the first
noun that needs one, each answer kept). Pure functions of the content.
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scarbook.compiler.model import Game, as_dict, as_list, known

#: Words a game may declare, with the generic default: (one, many).
DEFAULT_WORDS: dict[str, tuple[str, str]] = {
    "signature": ("signature", "signatures"), "region": ("region", "regions"),
    "territory": ("territory", "territories"), "start": ("starting territory", "starting territories"),
    "game": ("game", "games"), "faction": ("faction", "factions"), "packet": ("packet", "packets"),
    "bonus": ("bonus", "bonuses"), "power": ("chosen power", "chosen powers"),
}

#: Icons the board picture can draw for a group (`marks[].icon`).
ICONS = ("house", "slash", "tower", "hatched", "cross", "diamond", "circle", "star", "square", "triangle")

@functools.cache
def _engine() -> Any:
    """inflect's engine, imported on the first noun that needs it (never by a command that names nothing new).

    inflect decorates its methods with typeguard's `@typechecked`, which re-parses inflect's source at import
    (2 to 5 s of CPU, measured: 23 instrumented methods); under `python -O` the decorator is a no-op, and it is
    made one here for the import. The checks it adds only refuse arguments of the wrong type, and every call
    below passes a `str`. When typeguard itself is not imported yet, inflect is given a stand-in module with that
    no-op decorator (typeguard's own import pulls in asyncio and unittest.mock: about 0.12 s on every command
    that first names a noun, issue 36 item 5), and typeguard is left unimported.
    """
    import sys

    def plain(target: Any = None, **_options: Any) -> Any:
        return target if target is not None else (lambda f: f)

    if "typeguard" not in sys.modules:
        import types

        stand_in = types.ModuleType("typeguard")
        stand_in.typechecked = plain  # type: ignore[attr-defined]
        sys.modules["typeguard"] = stand_in
        try:
            import inflect
        finally:
            if sys.modules.get("typeguard") is stand_in:
                del sys.modules["typeguard"]
        return inflect.engine()
    import typeguard

    saved = typeguard.typechecked
    typeguard.typechecked = plain
    try:
        import inflect
    finally:
        typeguard.typechecked = saved
    return inflect.engine()


#: Where inflect's answers are kept between commands (in the cache folder; deleting it is always safe).
GRAMMAR_FILE = "grammar.json"
_MEMO: dict[str, str] | None = None


#: inflect's answers for the nouns of shipped games and examples, shipped with the package
#: (tools/generate_grammar.py writes it; tests/test_game_words.py checks it against inflect).
SHIPPED_GRAMMAR = Path(__file__).resolve().parent / "generated" / GRAMMAR_FILE


def _read_answers(raw: bytes) -> dict[str, str]:
    import json

    loaded = json.loads(raw.decode("utf-8"))
    return {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}


@functools.cache
def _shipped() -> dict[str, str]:
    try:
        return _read_answers(SHIPPED_GRAMMAR.read_bytes())
    except (OSError, ValueError):  # missing or damaged: inflect is asked, never wrong
        return {}


def _memo() -> dict[str, str]:
    """inflect's earlier answers ('plural:valley' -> 'valleys'): the shipped ones, then those kept in the cache
    folder, read once: a command that names only nouns named before never imports inflect (0.3 s of CPU)."""
    global _MEMO
    if _MEMO is None:
        from scarbook.kernel.cachedir import cache_dir
        from scarbook.kernel.trust import read_trusted

        _MEMO = dict(_shipped())
        with contextlib.suppress(OSError, ValueError):  # none kept, or damaged: inflect is asked again
            _MEMO.update(_read_answers(read_trusted(cache_dir() / GRAMMAR_FILE)))
    return _MEMO


def _remembered(key: str, answer: Any) -> str:
    """The kept answer for `key`, else `answer()` (kept in the cache folder for the next command)."""
    memo = _memo()
    if key in memo:
        return memo[key]
    memo[key] = found = str(answer())
    global _SAVING
    if not _SAVING:  # kept once, when the process ends: a command that asks inflect ten times writes one file
        import atexit

        from scarbook.kernel.cachedir import cache_dir

        atexit.register(_save, cache_dir())  # the cache folder of now: a test may point elsewhere by then
        _SAVING = True
    return found


_SAVING = False


def _save(folder: Path) -> None:
    """Keep inflect's answers in the cache folder for the next command (at exit: one write, not one per noun)."""
    import json

    from scarbook.kernel.atomic import replace_file
    from scarbook.kernel.trust import private_like

    shipped = _shipped()
    memo = {k: v for k, v in _memo().items() if shipped.get(k) != v}  # the user's own words only
    with contextlib.suppress(OSError):  # not kept: the next command asks inflect again, never wrong
        folder.mkdir(parents=True, exist_ok=True)
        replace_file(folder / GRAMMAR_FILE, json.dumps(memo, ensure_ascii=False).encode("utf-8"),
                     like=private_like())


@functools.cache
def article(noun: str) -> str:
    """'a' or 'an' for the noun as it is written: 'an Upgrade', 'an Extra tactic', 'a Major City', 'a unit', 'an
    hour', 'an 8' (inflect's rules; a number is read aloud: 'an 8', 'an 11', 'a 12')."""
    text = noun.strip()
    if not text:
        return "a"
    if text[0].isdigit():
        return "an" if text.startswith(("8", "11", "18")) and not text.startswith(("110", "111", "112")) else "a"
    return _remembered(f"a:{text}", lambda: str(_engine().a(text)).split(" ", 1)[0])


def a(noun: object) -> str:
    """The noun with its indefinite article: 'a Bunker', 'an Upgrade', 'an Extra tactic sticker'; a name that
    has its own definite article keeps it alone ('The Guild's Pact', not 'a The Guild's Pact')."""
    text = str(noun)
    if text.split(" ", 1)[0] in ("The", "the") and " " in text.strip():
        return text
    return f"{article(text)} {text}"


def a_game(kind: str) -> str:
    """A game of a kind, with its article: 'a KIND game', 'an open game'; a kind already called a game (the
    default type 'game') is not said twice ('a game', not 'a game game')."""
    text = kind.strip()
    return a(text) if text.split(" ")[-1].lower() in ("game", "games") else f"{a(text)} game"


def plural(count: int, noun: str, many: str = "") -> str:
    """'1 box', '2 boxes', '1 game', '3 games' (the plural, when not given, from `plural_of`)."""
    return f"{count} {noun if count == 1 else (many or plural_of(noun))}"


@dataclass(frozen=True)
class Word:
    """A word of the game's own: singular, plural (`given_many`, else inflect's), and the article its singular
    takes."""

    one: str
    given_many: str = ""
    art: str = ""

    @property
    def many(self) -> str:
        return self.given_many or plural_of(self.one)

    def a(self) -> str:
        return f"{self.art or article(self.one)} {self.one}"

    def count(self, n: int) -> str:
        return f"{n} {self.one if n == 1 else self.many}"

    def title(self, n: int = 2) -> str:
        text = self.one if n == 1 else self.many
        return text[:1].upper() + text[1:]


def _word(value: Any, default: tuple[str, str]) -> Word:
    if isinstance(value, str) and value.strip():
        return Word(value)
    if isinstance(value, dict) and isinstance(value.get("one"), str):
        return Word(value["one"], str(value.get("many") or ""), str(value.get("a") or ""))
    return Word(*default)


@functools.cache
def plural_of(noun: str) -> str:
    """The plural of a noun as content writes it, by inflect, each word in its own case, any words in
    parentheses kept: 'valley' -> 'valleys', 'Major City' -> 'Major Cities', 'city (its size)' -> 'cities (its
    size)', 'mark with boxes' -> 'marks with boxes', 'HQ' -> 'HQs'."""
    head, paren, tail = noun.partition(" (")
    if not head.strip():
        return noun
    words = head.split(" ")
    low = head.lower()
    many = _remembered(f"plural:{low}", lambda: _engine().plural_noun(low) or low + "s").split(" ")
    if len(many) != len(words):  # inflect changed the number of words: its answer as it gave it
        return " ".join(many) + (f"{paren}{tail}" if paren else "")
    out = []
    for was, now in zip(words, many, strict=True):
        if was.lower() == now:
            out.append(was)
        elif was.isupper() and len(was) > 1:
            out.append(was + "s")  # an abbreviation: 'HQ' -> 'HQs'
        elif was[:1].isupper():
            out.append(now[:1].upper() + now[1:])
        else:
            out.append(now)
    return " ".join(out) + (f"{paren}{tail}" if paren else "")


def singular_of(noun: str) -> str:
    """The singular of a plural noun as content writes it, by inflect ('upgrades' -> 'upgrade', 'Major Cities' ->
    'Major City'); a noun already singular, or that inflect does not know, is kept."""
    head, paren, tail = noun.partition(" (")
    low = head.lower()
    one = _remembered(f"singular:{low}", lambda: _engine().singular_noun(low) or low)
    words, ones = head.split(" "), one.split(" ")
    if not head.strip() or len(words) != len(ones):
        return noun
    out = [now[:1].upper() + now[1:] if was[:1].isupper() and not was.isupper() else was if was.lower() == now
           else now for was, now in zip(words, ones, strict=True)]
    return " ".join(out) + (f"{paren}{tail}" if paren else "")


def _meta(game: Game | None) -> dict[str, Any]:
    return as_dict(getattr(game, "meta", None))


def _section(game: Game | None, name: str) -> dict[str, Any]:
    return game.section(name) if isinstance(game, Game) else {}


def words(game: Game | None) -> dict[str, Word]:
    """Every word of the game: what it declares under `game: words:`, else the generic word."""
    declared = as_dict(_meta(game).get("words"))
    return {key: _word(declared.get(key), default) for key, default in DEFAULT_WORDS.items()}


@dataclass(frozen=True)
class MarkGroup:
    """Placed stickers shown together: in status, on the sheet (one section), on the board (one icon)."""

    id: str
    word: Word
    kinds: tuple[str, ...] = ()
    stickers: tuple[str, ...] = ()
    founds: bool = False
    boxes: bool = False
    icon: str = "diamond"
    color: str = "#5b2a86"
    legend: str = ""
    board: bool = True
    declared: bool = True

    def holds(self, sid: str, sticker: dict[str, Any], slot: str | None = None) -> bool:
        if sid in self.stickers:
            return True
        if self.founds and isinstance(sticker.get("founds"), dict):
            return True
        if self.boxes and sticker.get("boxes"):
            return True
        return bool(self.kinds) and (sticker.get("kind") in self.kinds or (slot or sticker.get("slot")) in self.kinds)

    @property
    def legend_text(self) -> str:
        return self.legend or self.word.one


#: What a game that declares no groups gets (and every game, last: the marks no group of its own holds).
GENERIC_FOUNDS = MarkGroup("founded", Word("founded place", "founded places"), founds=True, icon="house",
                           color="#1f4e79", legend="founded place (dots: its size)", declared=False)
GENERIC_BOXES = MarkGroup("boxed", Word("mark with boxes", "marks with boxes"), boxes=True, icon="tower",
                          color="#6b4b12", legend="mark with boxes (boxes left)", declared=False)
GENERIC = MarkGroup("marks", Word("mark", "marks"), icon="diamond", color="#5b2a86", legend="other mark",
                    declared=False)


#: The groups made last, with the `marks` list they were made from: the games a campaign derives as it is played
#: share their meta, and a checked replay asked ~20 times a game (placements name kinds by their group).
_GROUPS: list[tuple[object, list[MarkGroup]]] = []


def mark_groups(game: Game | None) -> list[MarkGroup]:
    """The game's mark groups in the order it declares them, then the generic ones (founds, boxes, the rest)."""
    declared = _meta(game).get("marks")
    if _GROUPS and declared is not None and _GROUPS[0][0] is declared:
        return list(_GROUPS[0][1])
    out = _made_groups(declared)
    if declared is not None:
        _GROUPS[:] = [(declared, out)]
    return list(out)


def _made_groups(declared: object) -> list[MarkGroup]:
    out: list[MarkGroup] = []
    for g in as_list(declared):
        if not isinstance(g, dict) or not isinstance(g.get("id"), str):
            continue
        word = _word(g.get("title"), (g["id"], g["id"]))
        out.append(MarkGroup(
            g["id"], word, tuple(as_list(g.get("kinds"))), tuple(as_list(g.get("stickers"))), bool(g.get("founds")),
            bool(g.get("boxes")), str(g.get("icon") or "diamond"), str(g.get("color") or GENERIC.color),
            str(g.get("legend") or ""), g.get("board") is not False))
    if not any(g.founds for g in out):
        out.append(GENERIC_FOUNDS)
    if not any(g.boxes for g in out):
        out.append(GENERIC_BOXES)
    return [*out, GENERIC]


def group_of(groups: list[MarkGroup], sid: str, sticker: dict[str, Any], slot: str | None = None) -> MarkGroup:
    """The first group that holds this sticker (the generic group holds every other)."""
    return next((g for g in groups if g.holds(sid, sticker, slot)), groups[-1] if groups else GENERIC)


def kind_name(game: Game | None, kind: str) -> str:
    """A sticker kind or slot as the content names it, for messages: the title of the group that holds that kind,
    else the name the stickers of that kind share, else the name a sealed slot declares, else the id in words.
    A sticker's id names that sticker."""
    sticker = _section(game, "stickers").get(kind)
    if sticker is not None and known(sticker.get("name")):
        return str(sticker["name"])
    for g in mark_groups(game):
        if kind in g.kinds:
            return g.word.one
    names = {str(known(st.get("name"))) for st in _section(game, "stickers").values()
             if kind in (st.get("kind"), st.get("slot")) and known(st.get("name"))}
    if len(names) == 1:
        return names.pop()
    for section in ("territories", "cards", "regions", "factions"):
        for item in _section(game, section).values():
            slot = as_dict(as_dict(item.get("sealed_slots")).get(kind))
            if isinstance(slot.get("name"), str):
                return slot["name"]
    return kind.replace("-", " ")
