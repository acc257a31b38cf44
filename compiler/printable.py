"""What a renderer must not see, checked before any output is planned: raw markup in text (B301), card
images outside their pack (B302), text too long for its card or sticker (B303, B304 warnings), more card
faces or text than one build may print (B110, B111), and text that costs a renderer minutes to lay out
though it is short enough for the schema (B305 a word longer than any line, B306 a letter under a stack of
combining marks, B307 a card or sticker text many times what its face holds).

`validate` runs these too (the budget as warnings), so this module stays light: it imports no renderer,
only `sizes` for the card and sticker sizes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scarbook.compiler.model import Game, known, singular
from scarbook.compiler.sizes import POKER_MM
from scarbook.kernel.diagnostics import Diagnostic, Span, error, warning
from scarbook.kernel.yamlload import escape as escape_pointer

MARKUP = re.compile(r"<\s*/?\s*[a-zA-Z!?][^<>]*>")


def _strings(value: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """Every text in `value`, with its JSON pointer below `value`."""
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{pointer}/{i}")
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{pointer}/{escape_pointer(str(k))}")


def field_span(game: Game, item_id: str, pointer: str) -> Span:
    """Where a field of an item is (`pointer` below the item, e.g. "/text"), found again in the
    item's file; the item's id when the file cannot tell. Only called for errors, so it may parse. What a
    campaign wrote into the item (`campaign.effective.applied`: `ITEM/record/0`...) is where the ledger
    recorded it."""
    parts = pointer.split("/")
    for end in range(len(parts), 1, -1):
        recorded = game.spans.get(item_id + "/".join(parts[:end]))
        if recorded is not None:
            return recorded
    at = game.span(item_id)
    if not at.line:
        return at
    from scarbook.compiler.load import load_document

    try:
        doc, _ = load_document(Path(at.file))
    except OSError:
        return at
    for key, span in doc.spans.items():
        if key.endswith("/id") and span == at:
            return doc.spans.get(key[:-3] + pointer, at)
    return at


def image_path(game: Game, item_id: str, ref: str) -> tuple[Path | None, str | None]:
    """The file a card's `image` names, or why it is refused."""
    if ref.startswith("data:image/"):
        return None, None
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", ref) or ref.startswith(("/", "\\", "~")):
        return None, f"image '{ref}' is a URL or an absolute path; give a path inside the pack folder"
    if ".." in Path(ref).parts:
        return None, f"image '{ref}' leads out of the pack folder ('..'); put the image inside the pack"
    folder = Path(game.span(item_id).file).parent
    path = folder / ref
    if not path.is_file():
        return None, f"image '{ref}' not found in {folder}"
    from scarbook.compiler.render.pdf import inside

    if not inside(path, [folder]):
        return None, f"image '{ref}' is a link to outside the pack folder; copy the file into the pack"
    return path.resolve(), None


#: The longest word (a run without a space) any text may hold: a line breaks only at spaces, and a renderer
#: tries every split of an unbreakable word against every line (one 19,990-character word took 15 s to build).
#: The longest in the shipped games is 49 (a cited file name); a URL in a cite is a few dozen.
MAX_WORD_CHARS = 200
#: The most combining marks (accents, diacritics) on one letter: scripts use up to 3 or 4 (Vietnamese 2); a
#: letter under 19,000 of them took 14 s to build.
MAX_COMBINING_MARKS = 8
#: A card's or sticker's text may hold at most this many times what its face holds (`text_capacity`), and
#: never less than MIN_TEXT_CAP characters: more is cut off at the edge anyway (B303, B304), and 100 cards of
#: 20,000 characters took 86 s to lay out.
TEXT_OVER_CAPACITY = 4
MIN_TEXT_CAP = 2000
_LONG_WORD = re.compile(rf"[^\s]{{{MAX_WORD_CHARS + 1},}}")


def _hard_to_lay_out(text: str) -> str | None:
    """Why a text would cost a renderer minutes (None: it would not): a word longer than MAX_WORD_CHARS, or more
    than MAX_COMBINING_MARKS combining marks on one letter (at which character)."""
    if not text.isascii():
        import unicodedata

        run = 0
        for at, ch in enumerate(text):
            if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
                run += 1
                if run > MAX_COMBINING_MARKS:
                    return (f"more than {MAX_COMBINING_MARKS} combining marks on one letter at character "
                            f"{at - run + 1} (no script needs more than a few); remove the extra accents")
            else:
                run = 0
    found = _LONG_WORD.search(text)
    if found:
        return (f"a {len(found.group()):,}-character word at character {found.start() + 1} (no word may be "
                f"longer than {MAX_WORD_CHARS}: a line breaks only at spaces); put spaces in it or shorten it")
    return None


def _over_capacity(what: str, text: str, capacity: int, field_name: str) -> str | None:
    cap = max(MIN_TEXT_CAP, TEXT_OVER_CAPACITY * capacity)
    if len(text) <= cap:
        return None
    return (f"{what}: its {field_name} has {len(text):,} characters; at most {cap:,} may be given "
            f"({TEXT_OVER_CAPACITY} times the about {capacity:,} its face holds, or {MIN_TEXT_CAP:,}): the rest "
            "would be cut off anyway; shorten it")


def text_capacity(width: float, height: float) -> int:
    """About how many characters of 8 pt card text fit on a card face of that size (mm): the
    width less the frame, over ~1.45 mm a character; the height less frame, title and stats,
    over a 3.6 mm line."""
    return max(0, int((width - 9) / 1.45)) * max(0, int((height - 32) / 3.6))


def _text_fits(game: Game, card_id: str, card: dict[str, Any]) -> list[Diagnostic]:
    text = card.get("text")
    if not isinstance(text, str):
        return []
    size = game.section("decks").get(str(card.get("deck")), {}).get("card_size") or {}
    width, height = float(size.get("width", POKER_MM[0])), float(size.get("height", POKER_MM[1]))
    capacity = text_capacity(width, height)
    if len(text) <= capacity:
        return []
    refused = _over_capacity(f"card '{card_id}'", text, capacity, "text")
    if refused:
        return [error(field_span(game, card_id, "/text"), "B307", refused)]
    return [warning(field_span(game, card_id, "/text"), "B303", f"card '{card_id}': its text ({len(text)} "
                    f"characters) will not all fit on a {width:g}×{height:g} mm card (about {capacity} do) and "
                    "is cut off at the card's edge; shorten it, or give the deck a larger 'card_size'")]


def _sticker_text_fits(game: Game, sticker_id: str, sticker: dict[str, Any]) -> list[Diagnostic]:
    from scarbook.compiler.stickerfit import fit

    field_name = "text" if sticker.get("text") is not None else "effect"
    text = sticker.get(field_name)
    if not isinstance(text, str):
        return []
    printed = fit(sticker, str(known(sticker.get("name"), sticker_id)))
    if printed.token or printed.write or len(text) <= printed.capacity:
        return []
    width, height, capacity = printed.w, printed.h, printed.capacity
    refused = _over_capacity(f"sticker '{sticker_id}'", text, capacity, field_name)
    if refused:
        return [error(field_span(game, sticker_id, f"/{field_name}"), "B307", refused)]
    fate = (f"is cut off at the sticker's edge (about {capacity} characters fit)" if capacity else
            "is left off: only its name fits")
    return [warning(field_span(game, sticker_id, f"/{field_name}"), "B304", f"sticker '{sticker_id}': its "
                    f"{field_name} ({len(text)} characters) will not fit on a {width:g}×{height:g} mm sticker and "
                    f"{fate}; shorten it (a short 'text' to print instead of the {field_name}), or give the "
                    "sticker a larger 'size'")]


#: The most card faces (cards × copies) one game may print: beyond, `build` refuses with B110
#: instead of running out of memory (the schemas bound each number; this bounds their product).
MAX_BUILD_CARDS = 5000
#: The most characters of text (all cards) one game may print.
MAX_BUILD_TEXT = 2_000_000


def _budget(game: Game) -> list[Diagnostic]:
    cards = game.section("cards")
    faces = 0
    chars = 0
    for card in cards.values():
        copies = card.get("copies", 1)
        faces += copies if isinstance(copies, int) and not isinstance(copies, bool) and copies > 0 else 1
        text = card.get("text")
        chars += len(text) if isinstance(text, str) else 0
    span = Span(game.files[0]) if game.files else Span(game.id)
    diags = []
    if faces > MAX_BUILD_CARDS:
        diags.append(error(span, "B110", f"the game prints {faces} card faces (cards × copies); the limit is "
                           f"{MAX_BUILD_CARDS}: lower 'copies', or split the game into packs"))
    if chars > MAX_BUILD_TEXT:
        diags.append(error(span, "B111", f"the cards hold {chars} characters of text; the limit is "
                           f"{MAX_BUILD_TEXT}: shorten the card texts"))
    return diags


def check_content(game: Game) -> list[Diagnostic]:
    """Refuse what a renderer must not see: raw markup in text, images outside the pack, more cards
    or text than a build may print (B110, B111); warn about card text too long for its card."""
    diags = _budget(game)
    for section, items in game.sections.items():
        for item_id, item in items.items():
            texts = {k: v for k, v in item.items() if k not in ("id", "image")}
            for pointer, text in _strings(texts):
                why = _hard_to_lay_out(text)
                if why:
                    code = "B305" if "word" in why else "B306"
                    diags.append(error(field_span(game, item_id, pointer), code,
                                       f"{singular(section)} '{item_id}': '{pointer[1:]}' has {why}"))
                    break
            for pointer, text in _strings(texts) if "<" in repr(texts) else ():
                found = MARKUP.search(text)
                if found:
                    diags.append(error(field_span(game, item_id, pointer), "B301",
                                       f"{singular(section)} '{item_id}' has HTML markup in '{pointer[1:]}' "
                                       f"({found.group(0)[:40]!r}); content text is plain text, write it "
                                       "without tags"))
                    break
            if section == "cards":
                diags.extend(_text_fits(game, item_id, item))
            if section == "stickers":
                diags.extend(_sticker_text_fits(game, item_id, item))
            if section == "cards" and isinstance(item.get("image"), str):
                _path, problem = image_path(game, item_id, item["image"])
                if problem:
                    diags.append(error(field_span(game, item_id, "/image"), "B302", f"card '{item_id}': {problem}"))
    return diags
