"""The incremental build's decisions in process, without WeasyPrint: fingerprints, the plan of each
game's outputs, the manifest, why an output is rendered again, the content checks a renderer needs,
and `build` itself with a stand-in renderer (`render_job` replaced: it writes what it was asked for).

The PDF tests (`test_build.py`, `test_build_incremental.py`) show the real renderer end to end; these
pin every decision so a mistake in one shows here in seconds.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from test_build_fixtures import tiny_game

from scarbook.compiler import build as buildmod
from scarbook.compiler import sheets as sheetmod
from scarbook.compiler import tasks as tasksmod
from scarbook.compiler.build import (
    MANIFEST,
    Output,
    _hash,
    _item_deps,
    _safe_out,
    _with_images,
    boardmap_inputs,
    build,
    estimated_seconds,
    load_manifest,
    out_folder,
    plan_game,
    remove_stale,
    render_job,
    roots_for,
    save_manifest,
    why_rebuild,
    write_tables,
)
from scarbook.compiler.model import Game
from scarbook.compiler.printable import (
    _budget,
    _strings,
    check_content,
    field_span,
    image_path,
    text_capacity,
)
from scarbook.compiler.tasks import JobResult, Problem
from scarbook.kernel.diagnostics import Severity, Span

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c63f8cfc0f00f0004850180848c98210000000049454e44ae426082")


# --- fingerprints --------------------------------------------------------------------------------
def test_hash_is_sixteen_hex_digits_of_canonical_json() -> None:
    assert _hash({"b": 1, "a": [1, "é"]}) == _hash({"a": [1, "é"], "b": 1})  # key order does not matter
    assert len(_hash({"a": 1})) == 16 and int(_hash({"a": 1}), 16) >= 0
    assert _hash({"a": 1}) != _hash({"a": 2}) != _hash({"a": "1"})
    assert _hash(b"raw") == hashlib.sha256(b"raw").hexdigest()[:16]  # bytes are hashed as they are
    assert _hash(b"raw") != _hash("raw")
    assert _hash([Path("x/y")]) == _hash(["x/y"])  # anything else as its text


def test_templates_hash_follows_template_bytes_only_of_template_files(monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.templates import TEMPLATE_DIR

    full = buildmod.templates_hash()
    assert len(full) == 16 and full == buildmod.templates_hash()
    real = Path.read_bytes

    def edited(name: str) -> str:
        def read_bytes(self: Path) -> bytes:
            data = real(self)
            return data + b"/* edited */" if self == TEMPLATE_DIR / name else data

        with monkeypatch.context() as m:
            m.setattr(Path, "read_bytes", read_bytes)
            return buildmod.templates_hash()

    for name in ("cards.html.j2", "cards.css", "fonts/DejaVuSans.ttf"):
        assert edited(name) != full, name
    assert edited("__init__.py") == edited("fonts/LICENSE-DejaVu.txt") == full  # not templates
    monkeypatch.setattr(buildmod, "BUILD_VERSION", "2")
    assert buildmod.templates_hash() != full


# --- content checks ------------------------------------------------------------------------------
def test_strings_are_every_text_with_its_pointer() -> None:
    value = {"a": "x", "b/c~d": ["y", {"e": "z", "n": 3}], "f": None}
    assert list(_strings(value)) == [("/a", "x"), ("/b~1c~0d/0", "y"), ("/b~1c~0d/1/e", "z")]
    assert list(_strings("top")) == [("", "top")]
    assert list(_strings(7)) == []


def real_game(tmp_path: Path, text: str, section: str = "cards") -> Game:
    """The tiny game, the items of one section and their spans those of a real YAML file (as the loader
    gives them)."""
    from scarbook.compiler.load import load_document

    path = tmp_path / f"{section}.yaml"
    path.write_text(text)
    doc, _ = load_document(path)
    items = [dict(c) for c in doc.data[section]]
    game = tiny_game(tmp_path, **{section: items})
    for i, c in enumerate(items):
        game.spans[c["id"]] = doc.spans[f"/{section}/{i}/id"]
    return game


def at(path: Path, line: int, marker: str) -> Span:
    """The span of `marker` (its first character) on a line of a file."""
    return Span(str(path), line, path.read_text().splitlines()[line - 1].index(marker) + 1)


def test_field_span_is_the_field_in_the_items_file(tmp_path: Path) -> None:
    game = real_game(tmp_path, "cards:\n  - id: a\n    deck: isle-cards\n    name: A\n    text: hello\n"
                                "  - id: b\n    deck: isle-cards\n    name: B\n")
    file = str(tmp_path / "cards.yaml")
    assert field_span(game, "a", "/text") == Span(file, 5, 11)
    assert field_span(game, "a", "/name") == Span(file, 4, 11)
    assert field_span(game, "b", "/text") == game.span("b") == Span(file, 6, 9)  # no such field: the item's id
    assert field_span(game, "nowhere", "/text") == Span(game.files[0])  # no line: as it is
    game.spans["a"] = Span(str(tmp_path / "gone.yaml"), 3, 5)
    assert field_span(game, "a", "/text") == Span(str(tmp_path / "gone.yaml"), 3, 5)  # unreadable file


def test_image_path_inside_the_pack_or_why_not(tmp_path: Path) -> None:
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "a.png").write_bytes(PNG)
    (tmp_path / "outside.png").write_bytes(PNG)
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "ok.png").write_bytes(PNG)
    (pack / "link.png").symlink_to(tmp_path / "outside.png")
    (pack / "sub").mkdir()
    game = Game(id="g", files=[str(pack / "game.yaml")], spans={"c": Span(str(pack / "game.yaml"), 3, 5)})
    assert image_path(game, "c", "data:image/png;base64,AAAA") == (None, None)
    assert image_path(game, "c", "ok.png") == ((pack / "ok.png").resolve(), None)
    assert image_path(game, "c", "sub/../ok.png")[1] == ("image 'sub/../ok.png' leads out of the pack folder ('..'); "
                                                         "put the image inside the pack")
    url = "image '{}' is a URL or an absolute path; give a path inside the pack folder"
    for ref in ("http://x/a.png", "file:///etc/passwd", "/etc/passwd", "\\\\server\\a.png", "~/a.png",
                "C:/a.png", "data:text/html,x", "a+b.c-d:x"):
        assert image_path(game, "c", ref) == (None, url.format(ref)), ref
    assert image_path(game, "c", "sub")[1] == f"image 'sub' not found in {pack}"  # a folder is not an image
    assert image_path(game, "c", "missing.png") == (None, f"image 'missing.png' not found in {pack}")
    assert image_path(game, "c", "link.png") == (None, "image 'link.png' is a link to outside the pack folder; "
                                                       "copy the file into the pack")
    (pack / "9a:b.png").write_bytes(PNG)  # not a URL scheme (a digit first): a file name
    assert image_path(game, "c", "9a:b.png") == ((pack / "9a:b.png").resolve(), None)


def test_text_capacity_of_a_card_face() -> None:
    assert text_capacity(63, 88) == 37 * 15  # (63 - 9) / 1.45 = 37.2 across, (88 - 32) / 3.6 = 15.6 lines
    assert text_capacity(70, 120) == 42 * 24
    assert text_capacity(9, 100) == 0 and text_capacity(100, 32) == 0
    assert text_capacity(5, 20) == 0  # both negative: still nothing fits
    assert text_capacity(10.5, 35.7) == 1  # one character, one line


def long_text_game(tmp_path: Path) -> Game:
    cards = ("cards:\n"
             f"  - {{id: full, deck: isle-cards, name: F, text: '{'x' * 555}'}}\n"
             f"  - {{id: over, deck: isle-cards, name: O, text: '{'x' * 556}'}}\n"
             f"  - {{id: big, deck: big-cards, name: B, text: '{'x' * 1008}'}}\n"
             f"  - {{id: bigger, deck: big-cards, name: C, text: '{'x' * 1009}'}}\n"
             "  - {id: unknown, deck: isle-cards, name: U, text: {unknown: lost}}\n"
             f"  - {{id: nodeck, deck: nothing, name: N, text: '{'x' * 556}'}}\n")
    return real_game(tmp_path, cards)


def test_card_text_longer_than_its_card_holds_is_a_warning_at_the_text(tmp_path: Path) -> None:
    game = long_text_game(tmp_path)
    file = tmp_path / "cards.yaml"
    got = [d for d in check_content(game) if d.code == "B303"]
    assert [(d.span, d.severity) for d in got] == [(at(file, 3, "'x"), Severity.WARNING),
                                                   (at(file, 5, "'x"), Severity.WARNING),
                                                   (at(file, 7, "'x"), Severity.WARNING)]
    assert got[0].message == ("card 'over': its text (556 characters) will not all fit on a 63×88 mm card (about "
                              "555 do) and is cut off at the card's edge; shorten it, or give the deck a larger "
                              "'card_size'")
    assert "on a 70×120 mm card (about 1008 do)" in got[1].message and "'bigger'" in got[1].message
    assert "'nodeck'" in got[2].message  # a card of no known deck is poker size


def test_sticker_text_that_will_not_fit(tmp_path: Path) -> None:
    stickers = [  # 20 x 20 mm: 15 mm inside the 2.5 mm padding, a name line, then 4 lines of 10 characters
        {"id": "fits", "size": {"width": 20, "height": 20}, "effect": "x" * 40},
        {"id": "cut", "size": {"width": 20, "height": 20}, "effect": "x" * 41},
        {"id": "short", "size": {"width": 20, "height": 20}, "text": "Short.", "effect": "x" * 500},
        {"id": "long-text", "size": {"width": 20, "height": 20}, "text": "y" * 41, "effect": "x"},
        {"id": "low", "size": {"width": 40, "height": 10}, "effect": "Any."},
        {"id": "no-size", "effect": "x" * 500},  # sized for a territory: widened to 52 mm, cut at 40 mm high
        {"id": "no-size-fits", "effect": "x" * 300},  # widened to 44 mm, 39 mm high: it fits
        {"id": "no-text", "size": {"width": 20, "height": 20}, "effect": {"unknown": "lost"}},
        {"id": "half-size", "size": {"width": 20}, "effect": "z"},
        {"id": "no-width", "size": {"height": 20}, "effect": "z"},
        {"id": "token", "targets": ["card"], "adds": {"resources": 1}, "effect": "x" * 500},  # prints "+1" only
        {"id": "blank", "targets": ["continent"], "named": True, "effect": "x" * 500},  # a line to write on
    ]
    game = tiny_game(tmp_path, stickers=stickers)
    got = [d for d in check_content(game) if d.code == "B304"]
    assert [d.message.split("'")[1] for d in got] == ["cut", "long-text", "low", "no-size", "half-size", "no-width"]
    cut, long_text, low, no_size, half, no_width = got
    assert "on a 52×40 mm sticker and is cut off" in no_size.message
    assert cut.severity == Severity.WARNING and cut.span == game.span("cut")
    assert cut.message == ("sticker 'cut': its effect (41 characters) will not fit on a 20×20 mm sticker and is cut "
                           "off at the sticker's edge (about 40 characters fit); shorten it (a short 'text' to "
                           "print instead of the effect), or give the sticker a larger 'size'")
    assert long_text.message.startswith("sticker 'long-text': its text (41 characters)")
    assert low.message == ("sticker 'low': its effect (4 characters) will not fit on a 40×10 mm sticker and is left "
                           "off: only its name fits; shorten it (a short 'text' to print instead of the effect), or "
                           "give the sticker a larger 'size'")
    assert "on a 20×0 mm sticker and is left off" in half.message
    assert no_width.message.startswith("sticker 'no-width': its effect (1 characters) will not fit on a 0×20 mm "
                                       "sticker and is left off")  # no width: nothing fits


def test_sticker_text_warning_is_at_the_field_that_is_printed(tmp_path: Path) -> None:
    game = real_game(tmp_path, "stickers:\n  - id: s\n    name: S\n    size: {width: 20, height: 20}\n"
                               f"    effect: {'x' * 109}\n"
                               "  - id: t\n    name: T\n    size: {width: 20, height: 20}\n    effect: e\n"
                               f"    text: {'y' * 109}\n", section="stickers")
    got = [d.span for d in check_content(game) if d.code == "B304"]
    file = tmp_path / "stickers.yaml"
    assert got == [at(file, 5, "x"), at(file, 10, "y")]


@pytest.mark.parametrize(("copies", "faces"), [
    (1, 5001), (2, 5002), (True, 5001), (0, 5001), (-3, 5001), ("9000", 5001), (None, 5001),
])
def test_budget_counts_card_faces(tmp_path: Path, copies: Any, faces: int) -> None:
    """A card is printed `copies` times, once when `copies` is not a positive number."""
    card = {"id": "c", "deck": "isle-cards", "name": "C"}
    if copies is not None:
        card["copies"] = copies
    game = tiny_game(tmp_path, cards=[card, {"id": "many", "deck": "isle-cards", "name": "M", "copies": 5000}])
    (d,) = _budget(game)
    assert (d.code, d.severity, d.span) == ("B110", Severity.ERROR, Span(game.files[0]))
    assert d.message == (f"the game prints {faces} card faces (cards × copies); the limit is 5000: lower 'copies', "
                         "or split the game into packs")


def test_budget_allows_up_to_the_limit(tmp_path: Path) -> None:
    cards = [{"id": "a", "copies": 4999}, {"id": "b", "copies": True, "text": "x" * 2_000_000}]
    assert _budget(tiny_game(tmp_path, cards=cards)) == []


def test_budget_adds_copies_of_every_card_and_text_of_every_card(tmp_path: Path) -> None:
    cards = [{"id": "a", "copies": 2500, "text": "x" * 1_000_000},
             {"id": "b", "copies": 2500, "text": "y" * 1_000_000}, {"id": "c", "text": 5}]
    game = tiny_game(tmp_path, cards=cards)
    (d,) = _budget(game)  # 5001 faces, 2,000,000 characters: only the faces are too many
    assert d.code == "B110" and "5001 card faces" in d.message
    cards[2]["text"] = "z"
    game = tiny_game(tmp_path, cards=cards)
    b110, b111 = _budget(game)
    assert (b111.code, b111.severity) == ("B111", Severity.ERROR)
    assert b111.message == ("the cards hold 2000001 characters of text; the limit is 2000000: shorten the card "
                            "texts")
    game.files = []
    assert {d.span for d in _budget(game)} == {Span("tiny-isles")}


def test_markup_in_any_text_is_refused_once_per_item_at_its_field(tmp_path: Path) -> None:
    game = real_game(tmp_path, "cards:\n  - id: a\n    deck: isle-cards\n    name: A\n"
                               "    stats: {power: '<b>x</b>'}\n    text: '<i>y</i>'\n"
                               "  - id: b\n    deck: isle-cards\n    name: 'B < 3 and 4 > 2'\n"
                               "  - {id: c, deck: isle-cards, name: C, image: '<x>.png'}\n")
    game.section("regions")["isles"]["name"] = "<script>"
    diags = [d for d in check_content(game) if d.code == "B301"]
    assert [(d.span, d.severity) for d in diags] == [(game.span("isles"), Severity.ERROR),
                                                     (at(tmp_path / "cards.yaml", 5, "'<b>"), Severity.ERROR)]
    assert diags[0].message == ("region 'isles' has HTML markup in 'name' ('<script>'); content text is plain text, "
                                "write it without tags")
    assert diags[1].message.startswith("card 'a' has HTML markup in 'stats/power' ('<b>')")
    long_tag = "<a " + "x" * 60 + ">"
    game = tiny_game(tmp_path, cards=[{"id": "t", "deck": "isle-cards", "name": long_tag}])
    (d,) = [d for d in check_content(game) if d.code == "B301"]
    assert f"({long_tag[:40]!r})" in d.message


def test_check_content_refuses_images_outside_the_pack_at_the_image(tmp_path: Path) -> None:
    game = real_game(tmp_path, "cards:\n  - {id: a, deck: isle-cards, name: A, image: /etc/passwd}\n"
                               "  - {id: b, deck: isle-cards, name: B, image: 7}\n")
    (d,) = check_content(game)
    assert (d.code, d.severity, d.span) == ("B302", Severity.ERROR, Span(str(tmp_path / "cards.yaml"), 2, 47))
    assert d.message == "card 'a': image '/etc/passwd' is a URL or an absolute path; give a path inside the pack folder"
    assert check_content(tiny_game(tmp_path)) == []


# --- the plan -----------------------------------------------------------------------------------
def plan(game: Game, paper: str = "a4", campaign: str | None = None, templates: str = "T") -> dict[str, Output]:
    return {o.name: o for o in plan_game(game, paper, campaign, templates)}


def test_the_plan_of_the_tiny_game(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    outs = plan(game)
    assert list(outs) == ["reference", "digest", "tables", "cards", "stickers"]
    assert [o.key for o in outs.values()] == [f"tiny-isles/{n}" for n in outs]
    assert outs["reference"].files == ["tiny-isles/reference.pdf", "tiny-isles/reference.html"]
    assert outs["digest"].files == ["tiny-isles/digest.pdf", "tiny-isles/digest.html"]
    aid = outs["reference"]  # the player aid: drawn from the content as players see it, and the board
    assert list(aid.deps) == ["settings", "templates", "game", "board", "aid"]
    assert aid.job == {"kind": "aid", "game": game, "paper": "a4", "campaign": None}
    assert outs["cards"].files == ["tiny-isles/cards.pdf"] and outs["stickers"].files == ["tiny-isles/stickers.pdf"]
    assert outs["tables"].files[:3] == ["tiny-isles/tables/recruit.md", "tiny-isles/tables/recruit.csv",
                                        "tiny-isles/tables/recruit.json"]
    assert len(outs["tables"].files) == 3 * len(outs["tables"].job["tables"])
    ref = outs["digest"]
    assert list(ref.deps)[:4] == ["settings", "templates", "game", "board"] and list(ref.deps)[-1] == "tables"
    assert "card 'north-card'" in ref.deps and ref.deps["templates"] == "T"
    assert ref.job == {"kind": "reference", "game": game, "tables": outs["tables"].job["tables"], "paper": "a4",
                       "campaign": None}
    assert "templates" not in outs["tables"].deps and "game" not in outs["tables"].deps
    assert list(outs["tables"].deps)[0] == "settings" and list(outs["tables"].deps)[-1] == "tables"
    assert outs["tables"].job == {"kind": "tables", "tables": outs["tables"].job["tables"]}
    assert list(outs["cards"].deps) == ["settings", "templates", "game", "deck 'isle-cards'", "deck 'big-cards'",
                                        "card 'north-card'", "card 'east-card'", "card 'giant-card'", "cards"]
    assert outs["cards"].job == {"kind": "cards", "game": game, "cards": sheetmod.printable_cards(game),
                                 "paper": "a4", "gutter": 0.0, "parts": 1}
    assert list(outs["stickers"].deps) == ["settings", "templates", "game", "sticker 'kraken'", "stickers"]
    assert outs["stickers"].job == {"kind": "stickers", "game": game, "stickers": sheetmod.sticker_items(game),
                                    "paper": "a4"}
    assert outs["cards"].deps["card 'east-card'"] == _hash(game.section("cards")["east-card"])


def test_settings_templates_and_game_change_what_depends_on_them(tmp_path: Path) -> None:
    base = plan(tiny_game(tmp_path))
    for other in (plan(tiny_game(tmp_path), paper="letter"), plan(tiny_game(tmp_path), campaign="c.yaml")):
        assert all(other[n].deps["settings"] != base[n].deps["settings"] for n in base)
    assert plan(tiny_game(tmp_path), templates="U")["cards"].deps["templates"] == "U"
    one, two = plan(tiny_game(tmp_path), campaign="a.yaml"), plan(tiny_game(tmp_path), campaign="b.yaml")
    assert one["cards"].deps["settings"] != two["cards"].deps["settings"]  # another campaign's cards differ
    game = tiny_game(tmp_path)
    game.meta["title"] = "Other"
    assert plan(game)["cards"].deps["game"] != base["cards"].deps["game"]
    game = tiny_game(tmp_path)
    game.packs = ["p"]
    assert plan(game)["stickers"].deps["game"] != base["stickers"].deps["game"]
    game = tiny_game(tmp_path)
    game.id = "other"
    assert plan(game)["reference"].deps["game"] != base["reference"].deps["game"]


def test_the_board_is_a_dependency_of_what_draws_it(tmp_path: Path) -> None:
    base = plan(tiny_game(tmp_path))
    assert "board" not in base["cards"].deps  # no card of the tiny game is a territory card
    game = tiny_game(tmp_path)
    game.edges = [("north", "south", "sea")]
    assert plan(game)["reference"].deps["board"] != base["reference"].deps["board"]
    game = tiny_game(tmp_path)
    game.board = {"image": "x"}
    assert plan(game)["reference"].deps["board"] != base["reference"].deps["board"]
    no_board = plan(tiny_game(tmp_path, territories=[]))
    assert "board" not in no_board["reference"].deps

    located = tiny_game(tmp_path, cards=[{"id": "t", "deck": "isle-cards", "name": "T", "territory": "north"}])
    board = plan(located)["cards"].deps["board"]
    located.section("territories")["east"]["layout"] = {"x": 50, "y": 60}  # another place on the locator map
    assert plan(located)["cards"].deps["board"] != board
    located.section("territories")["east"]["regions"] = ["reef"]
    moved = plan(located)["cards"].deps["board"]
    located.edges = []
    assert plan(located)["cards"].deps["board"] != moved
    located.board = {"width": 3}
    assert plan(located)["cards"].deps["board"] not in (moved, board)


def test_a_campaign_build_of_a_game_with_packs_stays_in_the_game_folder(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    game.packs = ["extra"]
    assert plan(game)["cards"].files == ["tiny-isles+extra/cards.pdf"]
    outs = plan(game, campaign="world.yaml")
    assert outs["cards"].files == ["tiny-isles/cards.pdf"] and outs["cards"].key == "tiny-isles/cards"
    assert outs["reference"].job["campaign"] == "world.yaml"


def test_the_computed_tables_and_stickers_are_dependencies_themselves(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A change in what a table or sticker sheet shows re-renders it even when no item it names changed
    (how a table is computed, a sticker's printed text)."""
    from scarbook.compiler import tables as tablemod

    base = plan(tiny_game(tmp_path))
    real = tablemod.rule_tables

    def one_more_row(game: Game) -> list[Any]:
        tables = real(game)
        tables[0].rows.append(list(tables[0].rows[0]))
        return tables

    monkeypatch.setattr(tablemod, "rule_tables", one_more_row)
    more = plan(tiny_game(tmp_path))
    for name in ("digest", "tables"):
        changed = {k for k in base[name].deps if base[name].deps[k] != more[name].deps[k]}
        assert changed == {"tables"}, name
    real_items = sheetmod.sticker_items
    monkeypatch.setattr(sheetmod, "sticker_items", lambda game: [{**s, "text": "other"} for s in real_items(game)])
    other = plan(tiny_game(tmp_path))["stickers"].deps
    assert {k for k in other if other[k] != base["stickers"].deps[k]} == {"stickers"}


def test_an_image_is_found_in_the_folder_of_the_cards_own_file(tmp_path: Path) -> None:
    """A pack's card names an image in the pack's folder, not in the game's."""
    (tmp_path / "base").mkdir()
    game = tiny_game(tmp_path / "base")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "p.png").write_bytes(PNG)
    game.files.append(str(pack / "pack.yaml"))
    game.section("cards")["pc"] = {"id": "pc", "deck": "isle-cards", "name": "Pack card", "image": "p.png"}
    game.spans["pc"] = Span(str(pack / "pack.yaml"), 3, 5)
    assert check_content(game) == []
    assert plan(game)["cards"].deps["image of 'pc'"] == _hash(PNG)
    (url,) = [c["image_url"] for c in _with_images(plan(game)["cards"].job["cards"], game) if c["id"] == "pc"]
    assert url == (pack / "p.png").resolve().as_uri()


def test_boardmap_inputs_are_places_regions_and_region_order(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    assert boardmap_inputs(game) == [[("north", {"x": 10, "y": 10}, ["isles"]), ("east", None, ["isles", "reef"]),
                                      ("south", None, ["reef"])], ["isles", "reef"]]


def test_one_changed_card_changes_its_deps_and_the_aggregate_only(tmp_path: Path) -> None:
    base = plan(tiny_game(tmp_path))
    game = tiny_game(tmp_path)
    game.section("cards")["giant-card"]["text"] = "Enormous."
    now = plan(game)
    changed = {k for k in base["cards"].deps if base["cards"].deps[k] != now["cards"].deps[k]}
    assert changed == {"card 'giant-card'", "cards"}
    assert now["stickers"].deps == base["stickers"].deps


def test_a_card_image_is_a_dependency_by_its_bytes(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    cards = [{"id": "p", "deck": "isle-cards", "name": "P", "image": "a.png"},
             {"id": "d", "deck": "isle-cards", "name": "D", "image": "data:image/png;base64,AAAA"},
             {"id": "m", "deck": "isle-cards", "name": "M", "image": "missing.png"}]
    game = tiny_game(tmp_path, cards=cards)
    deps = plan(game)["cards"].deps
    assert deps["image of 'p'"] == _hash(PNG)
    assert not any(k in deps for k in ("image of 'd'", "image of 'm'"))
    (tmp_path / "a.png").write_bytes(PNG + b"more")
    assert plan(game)["cards"].deps["image of 'p'"] == _hash(PNG + b"more")


def test_outputs_a_game_has_nothing_for(tmp_path: Path) -> None:
    game = tiny_game(tmp_path, cards=[], stickers=[])
    assert list(plan(game)) == ["reference", "digest", "tables"]
    assert plan(game)["reference"].job["paper"] == "a4"


def test_a_sticker_without_a_size_still_gets_a_sticker_sheet(tmp_path: Path) -> None:
    game = tiny_game(tmp_path, cards=[], stickers=[{"id": "s", "name": "S"}])
    assert list(plan(game)) == ["reference", "digest", "tables", "stickers"]
    (item,) = plan(game)["stickers"].job["stickers"]
    # no targets: sized for a territory, 36 mm wide, as high as its name needs (2.5 mm padding each side)
    assert (item["w"], item["h"], item["sized"], item["basis"]) == (36.0, 8.0, False, "a territory")


def test_the_gutter_is_a_dependency_of_the_card_sheet_only(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    plain = {o.name: o for o in plan_game(game, "a4", None, "t")}
    wide = {o.name: o for o in plan_game(game, "a4", None, "t", 6.0)}
    assert wide["cards"].job["gutter"] == 6.0 and plain["cards"].job["gutter"] == 0.0
    assert "gutter" in wide["cards"].deps and "gutter" not in plain["cards"].deps  # old manifests still hold
    assert wide["reference"].deps == plain["reference"].deps


def test_a_long_sheet_is_planned_in_parts(tmp_path: Path) -> None:
    cards = [{"id": "c", "deck": "isle-cards", "name": "C", "copies": 2501}]
    assert plan(tiny_game(tmp_path, cards=cards))["cards"].job["parts"] == 2


def test_item_deps_name_each_item_by_kind(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    deps = _item_deps(game, ["north", "kraken", "no-such", "isle-cards"])
    assert deps == {"territory 'north'": _hash(game.section("territories")["north"]),
                    "sticker 'kraken'": _hash(game.section("stickers")["kraken"]),
                    "deck 'isle-cards'": _hash(game.section("decks")["isle-cards"])}


def test_out_folder_and_roots(tmp_path: Path) -> None:
    from scarbook.templates import TEMPLATE_DIR

    game = tiny_game(tmp_path)
    assert out_folder(game) == "tiny-isles"
    game.packs = ["my pack/v2", "b_c.d-e"]
    assert out_folder(game) == "tiny-isles+my-pack-v2+b_c.d-e"
    assert out_folder(game, "world.yaml") == "tiny-isles"  # a campaign's build stays in <game>
    game.files = [str(tmp_path / "z" / "a.yaml"), str(tmp_path / "a" / "b.yaml"), str(tmp_path / "z" / "c.yaml")]
    assert roots_for(game) == [str(TEMPLATE_DIR), str((tmp_path / "a").resolve()), str((tmp_path / "z").resolve())]


# --- the manifest -------------------------------------------------------------------------------
def test_manifest_round_trip_sorted_and_versioned(tmp_path: Path) -> None:
    outputs = {"g/z": {"files": ["g/z.pdf"], "deps": {"a": "1"}}, "g/a": {"files": ["g/a.pdf"], "deps": {}}}
    save_manifest(tmp_path, outputs)
    text = (tmp_path / MANIFEST).read_text("utf-8")
    assert text == json.dumps({"outputs": {"g/a": outputs["g/a"], "g/z": outputs["g/z"]}, "version": "1"},
                              indent=1, sort_keys=True) + "\n"
    assert load_manifest(tmp_path) == outputs


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"version": "0", "outputs": {"a": {}}}',
                                  '{"outputs": {"a": {}}}', '{"version": "1", "outputs": [1]}', '{"version": "1"}'])
def test_an_unreadable_or_foreign_manifest_is_no_manifest(tmp_path: Path, text: str) -> None:
    (tmp_path / MANIFEST).write_text(text)
    assert load_manifest(tmp_path) == {}


def test_no_manifest(tmp_path: Path) -> None:
    assert load_manifest(tmp_path / "nothing") == {}
    (tmp_path / MANIFEST).write_bytes(b"\xff\xfe")
    assert load_manifest(tmp_path) == {}


def test_remove_stale_removes_only_files_an_earlier_build_wrote(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for name in ("g/keep.md", "g/old.md", "g/mine.md", "g/dir/x.md"):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(name)
    (tmp_path / "outside.md").write_text("not ours")
    (out / "g" / "link.md").symlink_to(tmp_path / "outside.md")
    remove_stale(out, ["g/keep.md", 7, "../outside.md", "g/link.md", "g/dir", "g/none.md", "g/old.md"],
                 ["g/keep.md"])
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "g", "g/dir", "g/dir/x.md", "g/keep.md", "g/link.md", "g/mine.md"]
    assert (tmp_path / "outside.md").read_text() == "not ours"
    (out / "g" / "alias.md").symlink_to("mine.md")  # links inside OUT: their targets are not the build's
    (out / "h").symlink_to("g")
    (out / "g" / "old2.md").write_text("stale")
    remove_stale(out, ["g/alias.md", "h/mine.md", "g/old2.md"], [])
    assert (out / "g" / "mine.md").read_text() == "g/mine.md" and (out / "g" / "alias.md").is_symlink()
    assert not (out / "g" / "old2.md").exists()  # what follows a link is still cleaned
    remove_stale(out, "g/keep.md", [])  # not a list: nothing
    remove_stale(out, None, [])
    assert (out / "g" / "keep.md").is_file()


# --- why an output is rendered again -------------------------------------------------------------
def made(tmp_path: Path, files: list[str], deps: dict[str, str]) -> Output:
    for f in files:
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text("x")
    return Output("g", "cards", files, deps)


def test_why_rebuild_reasons(tmp_path: Path) -> None:
    out = made(tmp_path, ["g/a.pdf", "g/b.pdf"], {"settings": "1", "card 'x'": "2", "cards": "3"})
    same = {"files": ["g/b.pdf", "g/a.pdf"], "deps": dict(out.deps)}
    assert why_rebuild(out, same, tmp_path) == []  # up to date (the files in any order)
    assert why_rebuild(out, None, tmp_path) == ["not built yet"]
    assert why_rebuild(out, {}, tmp_path) == ["not built yet"]
    assert why_rebuild(out, {**same, "files": ["g/a.pdf"]}, tmp_path) == ["its list of files changed"]
    assert why_rebuild(out, {**same, "files": ["g/a.pdf", "g/b.pdf", "g/c.pdf"]}, tmp_path) == [
        "its list of files changed"]
    assert why_rebuild(out, {"files": same["files"]}, tmp_path) == ["settings added", "card 'x' added"]  # not cards
    assert why_rebuild(out, {"deps": same["deps"]}, tmp_path) == ["its list of files changed"]
    assert why_rebuild(out, {**same, "deps": {**same["deps"], "settings": "0"}}, tmp_path) == ["settings changed"]
    assert why_rebuild(out, {**same, "deps": {**same["deps"], "cards": "0"}}, tmp_path) == ["cards changed"]
    assert why_rebuild(out, {**same, "deps": {**same["deps"], "card 'x'": "0", "cards": "0"}}, tmp_path) == [
        "card 'x' changed"]  # the aggregate is left out when something precise changed
    assert why_rebuild(out, {**same, "deps": {**same["deps"], "card 'y'": "5"}}, tmp_path) == ["card 'y' removed"]
    assert why_rebuild(out, {**same, "deps": {"card 'x'": "2", "cards": "3"}}, tmp_path) == ["settings added"]
    (tmp_path / "g" / "b.pdf").unlink()
    assert why_rebuild(out, {**same, "files": ["other"]}, tmp_path) == ["g/b.pdf is missing"]
    (tmp_path / "g" / "a.pdf").unlink()
    (tmp_path / "g" / "a.pdf").mkdir()  # a folder is not the file
    assert why_rebuild(out, same, tmp_path) == ["g/a.pdf is missing"]


def test_why_rebuild_keeps_the_aggregates_when_nothing_precise_changed(tmp_path: Path) -> None:
    out = made(tmp_path, ["g/t.md"], {"tables": "1", "stickers": "2", "cards": "3", "settings": "4"})
    old = {"files": ["g/t.md"], "deps": {"tables": "0", "stickers": "0", "cards": "0", "settings": "4"}}
    assert why_rebuild(out, old, tmp_path) == ["tables changed", "stickers changed", "cards changed"]


def test_why_rebuild_names_four_reasons_then_how_many_more(tmp_path: Path) -> None:
    deps = {f"card '{i}'": str(i) for i in range(7)}
    out = made(tmp_path, ["g/c.pdf"], deps)
    old = {"files": ["g/c.pdf"], "deps": {**{k: "old" for k in list(deps)[:5]}, "card 'gone'": "x"}}
    assert why_rebuild(out, old, tmp_path) == ["card '0' changed", "card '1' changed", "card '2' changed",
                                               "card '3' changed", "and 4 more"]
    old = {"files": ["g/c.pdf"], "deps": {**{k: "old" for k in list(deps)[:4]}, **dict(list(deps.items())[4:])}}
    assert why_rebuild(out, old, tmp_path) == [f"card '{i}' changed" for i in range(4)]  # four: all named
    old["deps"]["card '4'"] = "old"
    assert why_rebuild(out, old, tmp_path)[-1] == "and 1 more"


# --- rendering helpers ---------------------------------------------------------------------------
def test_safe_out_refuses_paths_outside_out(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _safe_out(out, "g/a.pdf") == (out / "g" / "a.pdf").resolve()
    for rel in ("../a.pdf", "g/../../a.pdf", "/etc/passwd", "", "."):
        with pytest.raises(ValueError, match="refusing to write"):
            _safe_out(out, rel)


def test_with_images_gives_each_card_its_image_url(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    game = tiny_game(tmp_path)
    for cid in ("p", "d", "m", "n"):
        game.spans[cid] = game.span("north-card")
    cards = [{"id": "p", "image": "a.png"}, {"id": "d", "image": "data:image/png;base64,AA"},
             {"id": "m", "image": "missing.png"}, {"id": "n", "image": None}]
    got = _with_images(cards, game)
    assert [c["image_url"] for c in got] == [(tmp_path / "a.png").resolve().as_uri(), "data:image/png;base64,AA",
                                             None, None]
    assert [c["id"] for c in got] == ["p", "d", "m", "n"] and "image_url" not in cards[0]


def test_estimated_seconds_grow_with_what_is_drawn(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    outs = plan(game)
    rows = sum(len(t.rows) for t in outs["digest"].job["tables"])
    assert estimated_seconds(outs["digest"]) == pytest.approx(2.0 + 0.03 * rows)  # with a board: 1 s more
    assert estimated_seconds(plan(tiny_game(tmp_path, territories=[]))["digest"]) == pytest.approx(
        1.0 + 0.03 * sum(len(t.rows) for t in plan(tiny_game(tmp_path, territories=[]))["digest"].job["tables"]))
    assert estimated_seconds(outs["reference"]) == pytest.approx(1.5)  # the player aid: two pages at most
    assert estimated_seconds(outs["cards"]) == pytest.approx(0.5 + 0.012 * 4)
    parted = Output("g", "cards", [], {}, {"cards": [{}] * 1000, "parts": 4})
    assert estimated_seconds(parted) == pytest.approx(0.5 + 0.012 * 250)
    assert estimated_seconds(Output("g", "cards", [], {}, {"cards": [{}] * 100})) == pytest.approx(1.7)
    assert estimated_seconds(outs["stickers"]) == pytest.approx(0.5 + 0.005 * 3)
    assert estimated_seconds(outs["tables"]) == 0.0


def test_write_tables_writes_every_format_of_every_table(tmp_path: Path) -> None:
    from scarbook.compiler import tables as tablemod

    outs = plan(tiny_game(tmp_path))
    out = tmp_path / "out"
    write_tables(out, outs["tables"].files, outs["tables"].job["tables"])
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == sorted(outs["tables"].files)
    recruit = next(t for t in outs["tables"].job["tables"] if t.id == "recruit")
    assert (out / "tiny-isles/tables/recruit.csv").read_text() == tablemod.to_csv(recruit)
    assert (out / "tiny-isles/tables/recruit.md").read_text() == tablemod.to_markdown(recruit)
    assert (out / "tiny-isles/tables/recruit.json").read_text() == tablemod.to_json(recruit)


# --- render_job, the PDF renderer stood in for -----------------------------------------------------
@pytest.fixture
def fake_pdf(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[str], str, Any]]:
    """`render_pdf` replaced: records its arguments and returns a marker instead of a PDF."""
    from scarbook.compiler.render import pdf as pdfmod

    calls: list[tuple[str, list[str], str, Any]] = []

    def render_pdf(html: str, roots: list[Path], base: Path, pages: Any = None, boxes: Any = None) -> bytes:
        calls.append((html, [str(r) for r in roots], str(base), pages))
        return b"%PDF-fake " + str(len(calls)).encode()

    def render_fitting(versions: Any, roots: list[Path], base: Path, max_pages: int) -> pdfmod.Fitted:
        first = next(iter(versions))  # the full version, taken as fitting
        return pdfmod.Fitted(render_pdf(first, roots, base, f"at most {max_pages}"), 1, first)

    monkeypatch.setattr(pdfmod, "render_pdf", render_pdf)
    monkeypatch.setattr(pdfmod, "render_fitting", render_fitting)
    return calls


def test_render_job_writes_each_output(tmp_path: Path, fake_pdf: list[Any]) -> None:
    from scarbook.templates import TEMPLATE_DIR

    game = tiny_game(tmp_path)
    outs = plan(game)
    out = tmp_path / "out"
    for name in ("reference", "digest", "cards", "stickers", "tables"):
        problems, seconds, data = render_job(outs[name].job, outs[name].files, str(out))
        assert (problems, data) == ([], None) and 0 <= seconds < 60, name
    assert (out / "tiny-isles/reference.pdf").read_bytes() == b"%PDF-fake 1"
    assert (out / "tiny-isles/digest.pdf").read_bytes() == b"%PDF-fake 2"
    assert (out / "tiny-isles/cards.pdf").read_bytes() == b"%PDF-fake 3"
    assert (out / "tiny-isles/stickers.pdf").read_bytes() == b"%PDF-fake 4"
    assert "Tiny Isles" in (out / "tiny-isles/reference.html").read_text("utf-8")
    assert (out / "tiny-isles/tables/recruit.md").is_file() and len(fake_pdf) == 4
    aid_html, roots, base, pages = fake_pdf[0]
    assert aid_html == (out / "tiny-isles/reference.html").read_text("utf-8") and pages == "at most 2"
    assert "<title>Tiny Isles · player aid</title>" in aid_html
    ref_html, roots, base, pages = fake_pdf[1]
    assert ref_html == (out / "tiny-isles/digest.html").read_text("utf-8") and pages is None
    assert "<title>Tiny Isles · digest</title>" in ref_html
    assert roots == roots_for(game) and base == str(TEMPLATE_DIR)
    cards_html, _, _, pages = fake_pdf[2]
    assert "North Card" in cards_html and pages == [0, 1, 2, 3, 4, 5]
    assert "<title>Tiny Isles · print and play</title>" in cards_html and "data-locator" not in cards_html
    assert "Kraken" in fake_pdf[3][0] and fake_pdf[3][3] is None
    assert "<title>Tiny Isles · stickers</title>" in fake_pdf[3][0]


def test_render_job_draws_card_images_and_the_locator_map(tmp_path: Path, fake_pdf: list[Any]) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    cards = [{"id": "t", "deck": "isle-cards", "name": "T", "territory": "north", "image": "a.png"}]
    game = tiny_game(tmp_path, cards=cards)
    game.spans["t"] = game.span("north")
    outs = plan(game)
    assert render_job(outs["cards"].job, outs["cards"].files, str(tmp_path / "out"))[0] == []
    html = fake_pdf[0][0]
    assert (tmp_path / "a.png").resolve().as_uri() in html
    assert 'data-locator="north"' in html


def test_render_job_of_a_part_returns_its_pdf_and_writes_nothing(tmp_path: Path, fake_pdf: list[Any]) -> None:
    cards = [{"id": f"c{i}", "deck": "isle-cards", "name": f"Card {i}"} for i in range(30)]
    outs = plan(tiny_game(tmp_path, cards=cards))
    out = tmp_path / "out"
    job = {**outs["cards"].job, "part": (1, 2)}
    problems, seconds, data = render_job(job, outs["cards"].files, str(out))
    assert (problems, data) == ([], b"%PDF-fake 1") and not out.exists() and 0 <= seconds < 60
    html = fake_pdf[0][0]
    # 30 cards: the calibration pair and 4 fronts/backs pairs; the second part holds the last 2 pairs
    assert "Card 18" in html and "Card 29" in html and "Card 17" not in html


def test_render_job_turns_failures_into_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.compiler.render import pdf as pdfmod

    outs = plan(tiny_game(tmp_path))

    def unsafe(*args: Any, **kwargs: Any) -> bytes:
        raise pdfmod.UnsafeResource(["file:///etc/passwd"])

    monkeypatch.setattr(pdfmod, "render_pdf", unsafe)
    problems, seconds, data = render_job(outs["stickers"].job, outs["stickers"].files, str(tmp_path / "out"))
    assert 0 <= seconds < 60
    assert (problems, data) == ([Problem("B310", "refused to load file:///etc/passwd (only files inside the pack and "
                                         "template folders, and data: URLs, are allowed)")], None)
    monkeypatch.setattr(pdfmod, "render_pdf", lambda *a, **k: 1 / 0)
    problems, seconds, _ = render_job(outs["cards"].job, outs["cards"].files, str(tmp_path / "out"))
    assert 0 <= seconds < 60
    assert problems == [Problem("B399", "rendering cards failed: ZeroDivisionError: division by zero")]
    assert not (tmp_path / "out" / "tiny-isles" / "cards.pdf").exists()


def test_render_job_pauses_the_cyclic_collector_and_restores_it(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.compiler.render import pdf as pdfmod

    seen: list[bool] = []
    monkeypatch.setattr(pdfmod, "render_pdf", lambda *a, **k: seen.append(gc.isenabled()) or b"%PDF")
    outs = plan(tiny_game(tmp_path))
    assert gc.isenabled()
    render_job(outs["stickers"].job, outs["stickers"].files, str(tmp_path / "out"))
    assert seen == [False] and gc.isenabled()
    monkeypatch.setattr(pdfmod, "render_pdf", lambda *a, **k: 1 / 0)
    render_job(outs["stickers"].job, outs["stickers"].files, str(tmp_path / "out"))
    assert gc.isenabled()  # restored after a failure too
    gc.disable()
    try:
        render_job(outs["stickers"].job, outs["stickers"].files, str(tmp_path / "out"))
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


# --- build, the renderer stood in for ----------------------------------------------------------
FAIL: set[str] = set()  # output names the stand-in fails (read in forked workers: set before the build)


def fake_render_job(job: dict[str, Any], files: list[str], out_dir: str) -> JobResult:
    """Stands in for `render_job` (module level: workers get it by name): each file holds what was asked."""
    kind = job["kind"]
    if kind in FAIL:
        return JobResult([Problem("B399", f"rendering {kind} failed: planted")], 0.25, None)
    if "part" in job:
        from pypdf import PdfWriter

        writer = PdfWriter()
        index, count = job["part"]
        writer.add_blank_page(width=100 + index, height=200)
        import io

        data = io.BytesIO()
        writer.write(data)
        return JobResult([], 0.5, data.getvalue())
    for rel in files:
        path = Path(out_dir) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{kind} {job.get('paper')} {job.get('campaign')} {os.getpid()}")
    with open(Path(out_dir) / "order.log", "a") as log:  # the order tasks ran in
        log.write(kind + "\n")
    return JobResult([], 0.5, None)


def made_by(path: Path) -> tuple[str, int]:
    """What the stand-in wrote: "kind paper campaign", and the id of the process that wrote it."""
    *what, pid = path.read_text().split()
    return " ".join(what), int(pid)


@pytest.fixture
def fake_render(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(buildmod, "render_job", fake_render_job)
    FAIL.clear()
    yield
    FAIL.clear()


ALL = ["tiny-isles/cards", "tiny-isles/reference", "tiny-isles/stickers", "tiny-isles/tables"]


@pytest.mark.usefixtures("fake_render")
@pytest.mark.parametrize("jobs", [1, 2])
def test_build_renders_everything_then_nothing(tmp_path: Path, jobs: int) -> None:
    out = tmp_path / "out"
    lines: list[str] = []
    steps: list[tuple[int, int]] = []
    first = build([tiny_game(tmp_path)], out, jobs=jobs, progress=lines.append,
                  step=lambda done, total: steps.append((done, total)))
    assert (sorted(first.rendered), first.up_to_date, first.diagnostics) == (ALL, [], [])
    assert lines[:4] == [f"{k}: rendering (not built yet)" for k in
                         ("tiny-isles/reference", "tiny-isles/tables", "tiny-isles/cards", "tiny-isles/stickers")]
    assert lines[4] == "[1/4] tiny-isles/tables done (0.5 s)"  # tables render here, first
    assert sorted(line[:5] for line in lines[4:]) == ["[1/4]", "[2/4]", "[3/4]", "[4/4]"]
    assert steps == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert made_by(out / "tiny-isles/cards.pdf")[0] == "cards a4 None"
    manifest = load_manifest(out)
    outs = plan(tiny_game(tmp_path), templates=buildmod.templates_hash())
    assert manifest == {o.key: {"files": o.files, "deps": o.deps} for o in outs.values()
                        if o.name in buildmod.DEFAULT_OUTPUTS}  # the digest only when asked for
    lines.clear()
    again = build([tiny_game(tmp_path)], out, jobs=jobs, progress=lines.append)
    assert (again.rendered, sorted(again.up_to_date), lines) == ([], ALL, [])


@pytest.mark.usefixtures("fake_render")
def test_build_renders_only_what_changed_and_says_why(tmp_path: Path) -> None:
    out = tmp_path / "out"
    build([tiny_game(tmp_path)], out, jobs=1)
    game = tiny_game(tmp_path)
    game.section("stickers")["kraken"]["effect"] = "Roll two less."
    lines: list[str] = []
    result = build([game], out, jobs=1, progress=lines.append)
    assert sorted(result.rendered) == ["tiny-isles/reference", "tiny-isles/stickers", "tiny-isles/tables"]
    assert sorted(result.up_to_date) == ["tiny-isles/cards"]
    assert "tiny-isles/stickers: rendering (sticker 'kraken' changed)" in lines
    assert "[1/3] tiny-isles/tables done (0.5 s)" in lines


@pytest.mark.usefixtures("fake_render")
def test_build_only_the_outputs_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = build([tiny_game(tmp_path)], out, jobs=1, only={"stickers", "tables"})
    assert sorted(result.rendered) == ["tiny-isles/stickers", "tiny-isles/tables"]
    assert not (out / "tiny-isles/cards.pdf").exists()
    assert sorted(load_manifest(out)) == ["tiny-isles/stickers", "tiny-isles/tables"]
    result = build([tiny_game(tmp_path)], out, jobs=1, only={"cards"})
    assert result.rendered == ["tiny-isles/cards"] and result.up_to_date == []
    assert sorted(load_manifest(out)) == ["tiny-isles/cards", "tiny-isles/stickers", "tiny-isles/tables"]


@pytest.mark.usefixtures("fake_render")
def test_nothing_to_do_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = build([tiny_game(tmp_path, cards=[], stickers=[])], out, jobs=1, only={"cards"})
    assert result == buildmod.BuildResult() and not out.exists()


@pytest.mark.usefixtures("fake_render")
def test_refused_content_builds_nothing(tmp_path: Path) -> None:
    game = tiny_game(tmp_path, cards=[{"id": "e", "deck": "isle-cards", "name": "<b>E</b>"}])
    result = build([tiny_game(tmp_path), game], tmp_path / "out", jobs=1)
    assert [d.code for d in result.diagnostics] == ["B301"] and result.rendered == []
    assert not (tmp_path / "out").exists()
    warned = tiny_game(tmp_path, cards=[{"id": "w", "deck": "isle-cards", "name": "W", "text": "word " * 120}])
    result = build([warned], tmp_path / "out", jobs=1, only={"cards"})
    assert [d.code for d in result.diagnostics] == ["B303"] and result.rendered == ["tiny-isles/cards"]


@pytest.mark.usefixtures("fake_render")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failed_output_is_an_error_and_is_tried_again(tmp_path: Path, jobs: int) -> None:
    out = tmp_path / "out"
    FAIL.add("stickers")
    lines: list[str] = []
    result = build([tiny_game(tmp_path)], out, jobs=jobs, progress=lines.append)
    assert sorted(result.rendered) == ["tiny-isles/cards", "tiny-isles/reference", "tiny-isles/tables"]
    (d,) = result.diagnostics
    assert (d.code, d.severity, d.span) == ("B399", Severity.ERROR, Span(tiny_game(tmp_path).files[0]))
    assert d.message == "tiny-isles/stickers: rendering stickers failed: planted"
    assert any(line.endswith("tiny-isles/stickers failed (0.2 s)") for line in lines), lines
    assert "tiny-isles/stickers" not in load_manifest(out)
    FAIL.clear()
    again = build([tiny_game(tmp_path)], out, jobs=jobs)
    assert again.rendered == ["tiny-isles/stickers"] and again.diagnostics == []


@pytest.mark.usefixtures("fake_render")
def test_a_failure_of_a_game_without_files_is_reported_at_the_game(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    game.files = []
    FAIL.add("tables")
    (d,) = build([game], tmp_path / "out", jobs=1, only={"tables"}).diagnostics
    assert d.span == Span("tiny-isles") and d.message == "tiny-isles/tables: rendering tables failed: planted"


@pytest.mark.usefixtures("fake_render")
def test_a_rebuilt_output_removes_the_files_it_no_longer_writes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    build([tiny_game(tmp_path)], out, jobs=1, only={"tables"})
    assert (out / "tiny-isles/tables/recruit.md").is_file()
    (out / "tiny-isles/tables/notes.md").write_text("the user's own")
    build([tiny_game(tmp_path, tables=[])], out, jobs=1, only={"tables"})
    assert not (out / "tiny-isles/tables/recruit.md").exists()
    assert (out / "tiny-isles/tables/notes.md").read_text() == "the user's own"
    assert (out / "tiny-isles/tables/stickers.md").is_file()


@pytest.mark.usefixtures("fake_render")
def test_a_manifest_entry_that_is_not_a_mapping_is_rebuilt_over(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / MANIFEST).write_text(json.dumps({"version": "1", "outputs": {"tiny-isles/tables": ["junk"]}}))
    result = build([tiny_game(tmp_path)], out, jobs=1, only={"tables"})
    assert result.rendered == ["tiny-isles/tables"]
    assert load_manifest(out)["tiny-isles/tables"]["files"][0] == "tiny-isles/tables/recruit.md"


@pytest.mark.usefixtures("fake_render")
@pytest.mark.parametrize("jobs", [1, 3])
def test_a_long_sheet_is_rendered_in_parts_and_joined_in_order(tmp_path: Path, jobs: int,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from pypdf import PdfReader

    monkeypatch.setattr(sheetmod, "CARDS_PER_PART", 2)
    out = tmp_path / "out"
    cards = [{"id": f"c{i}", "deck": "isle-cards", "name": f"C{i}"} for i in range(5)]  # 3 parts
    steps: list[tuple[int, int]] = []
    lines: list[str] = []
    result = build([tiny_game(tmp_path, cards=cards)], out, jobs=jobs, only={"cards"},
                   step=lambda done, total: steps.append((done, total)), progress=lines.append)
    assert result.rendered == ["tiny-isles/cards"] and result.diagnostics == []
    assert steps == [(1, 3), (2, 3), (3, 3)]
    assert lines == ["tiny-isles/cards: rendering (not built yet)", "[1/1] tiny-isles/cards done (1.5 s)"]
    pages = PdfReader(out / "tiny-isles/cards.pdf").pages
    assert [round(float(p.mediabox.width)) for p in pages] == [100, 101, 102]
    FAIL.add("cards")
    cards.append({"id": "c5", "deck": "isle-cards", "name": "C5"})
    failed = build([tiny_game(tmp_path, cards=cards)], out, jobs=jobs, only={"cards"})
    assert [d.message for d in failed.diagnostics] == ["tiny-isles/cards: rendering cards failed: planted"] * 3
    assert len(PdfReader(out / "tiny-isles/cards.pdf").pages) == 3  # a failed build leaves the last good one


def test_a_dead_worker_is_a_diagnostic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(buildmod, "render_job", dying_render_job)
    lines: list[str] = []
    result = build([tiny_game(tmp_path)], tmp_path / "out", jobs=2, only={"stickers", "cards"}, progress=lines.append)
    assert sorted(d.code for d in result.diagnostics) == ["B399", "B399"]
    assert sorted(d.message.split(": rendering failed: BrokenProcessPool: ")[0] for d in result.diagnostics) == [
        "tiny-isles/cards", "tiny-isles/stickers"]
    assert sorted(line.split("] ")[1] for line in lines[2:]) == ["tiny-isles/cards failed (0.0 s)",
                                                                  "tiny-isles/stickers failed (0.0 s)"]
    assert result.rendered == []


def dying_render_job(job: dict[str, Any], files: list[str], out_dir: str) -> Any:
    import os

    os._exit(3)


def reference_page(tmp_path: Path, game: Game, campaign: str | None = None, output: str = "digest") -> str:
    outs = plan(game, campaign=campaign)
    out = tmp_path / "out"
    problems, _, _ = render_job(outs[output].job, outs[output].files, str(out))
    assert problems == []
    return (out / outs[output].files[1]).read_text("utf-8")


def test_the_reference_sheet_draws_the_board_or_says_why_not(tmp_path: Path, fake_pdf: list[Any]) -> None:
    drawn = reference_page(tmp_path, tiny_game(tmp_path))
    assert '<div class="legend">' in drawn and "<svg" in drawn and "No board map" not in drawn
    assert "in the campaign" not in drawn
    game = tiny_game(tmp_path)
    game.board["complete"] = {"unknown": "a photo of part of the board"}
    withheld = reference_page(tmp_path, game)
    assert ("No board map: the sources give 3 territories only (a photo of part of the board)." in withheld
            and '<div class="legend">' not in withheld)
    none = reference_page(tmp_path, tiny_game(tmp_path, territories=[]))
    assert "No board map" not in none and '<div class="legend">' not in none
    in_campaign = reference_page(tmp_path, tiny_game(tmp_path), "camps/world.yaml")
    assert "as it stands in the campaign <b>world</b>" in in_campaign and "camps" not in in_campaign  # no folder
    aid = reference_page(tmp_path, game, output="reference")  # the player aid says why there is no map too
    assert "No board map: the sources give 3 territories only (a photo of part of the board)." in aid
    assert "<svg" in reference_page(tmp_path, tiny_game(tmp_path), output="reference")


def test_tables_are_written_with_the_collector_left_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(buildmod, "write_tables", lambda *args: seen.append(gc.isenabled()))
    outs = plan(tiny_game(tmp_path))
    problems, seconds, _ = render_job(outs["tables"].job, outs["tables"].files, str(tmp_path))
    assert problems == [] and seen == [True] and 0 <= seconds < 60


@pytest.mark.usefixtures("fake_render")
def test_outputs_render_in_forked_workers_longest_first_and_tables_here(tmp_path: Path) -> None:
    """On Linux with one worker each task renders in a child forked for it (no pool); tables are written by
    the build process itself; the longest task (by `estimated_seconds`) is started first."""
    out = tmp_path / "out"
    build([tiny_game(tmp_path)], out, jobs=1)
    assert made_by(out / "tiny-isles/tables/recruit.md")[1] == os.getpid()
    pids = {made_by(out / f"tiny-isles/{n}.pdf")[1] for n in ("reference", "cards", "stickers")}
    assert os.getpid() not in pids and len(pids) == 3  # a child of its own for each task
    # estimates: reference 2 s and more, cards 0.548, stickers 0.515
    assert (out / "order.log").read_text().split() == ["tables", "aid", "cards", "stickers"]


@pytest.mark.usefixtures("fake_render")
@pytest.mark.parametrize(("jobs", "only", "forked"), [
    (1, None, False), (2, None, True), (2, {"cards", "stickers"}, True), (2, {"cards", "tables"}, False),
])
def test_elsewhere_a_lone_task_renders_in_the_build_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             jobs: int, only: set[str] | None, forked: bool) -> None:
    """Where forking is unsafe for a lone worker (not Linux), one worker or one task renders here."""
    from types import SimpleNamespace

    monkeypatch.setattr(tasksmod, "sys", SimpleNamespace(platform="darwin", stdout=sys.stdout, stderr=sys.stderr))
    out = tmp_path / "out"
    result = build([tiny_game(tmp_path)], out, jobs=jobs, only=only)
    assert result.diagnostics == [] and (out / "tiny-isles/cards.pdf").is_file()
    pid = made_by(out / "tiny-isles/cards.pdf")[1]
    assert (pid != os.getpid()) is forked


@pytest.mark.usefixtures("fake_render")
def test_a_campaign_build_is_its_own_setting(tmp_path: Path) -> None:
    out = tmp_path / "out"
    game = tiny_game(tmp_path)
    game.packs = ["extra"]
    first = build([game], out, jobs=1, campaign="world.yaml", only={"reference"})
    assert first.rendered == ["tiny-isles/reference"]
    assert made_by(out / "tiny-isles/reference.pdf")[0] == "aid a4 world.yaml"
    assert build([game], out, jobs=1, campaign="world.yaml", only={"reference"}).rendered == []
    lines: list[str] = []
    other = build([game], out, jobs=1, campaign="other.yaml", only={"reference"}, progress=lines.append)
    assert other.rendered == ["tiny-isles/reference"]
    assert lines[0] == "tiny-isles/reference: rendering (settings changed)"
    FAIL.add("aid")
    (d,) = build([game], out, jobs=1, campaign="world.yaml", only={"reference"}).diagnostics
    assert d.span == Span(game.files[0]) and d.message.startswith("tiny-isles/reference: ")


@pytest.mark.usefixtures("fake_render")
def test_the_first_games_refusals_are_kept_and_out_may_be_deep(tmp_path: Path) -> None:
    bad = tiny_game(tmp_path, cards=[{"id": "e", "deck": "isle-cards", "name": "<b>E</b>"}])
    result = build([bad, tiny_game(tmp_path)], tmp_path / "out", jobs=1)
    assert [d.code for d in result.diagnostics] == ["B301"] and not (tmp_path / "out").exists()
    deep = tmp_path / "a" / "b" / "out"
    assert build([tiny_game(tmp_path)], deep, jobs=1, only={"stickers"}).rendered == ["tiny-isles/stickers"]


@pytest.mark.usefixtures("fake_render")
def test_every_reason_is_said(tmp_path: Path) -> None:
    out = tmp_path / "out"
    build([tiny_game(tmp_path)], out, jobs=1, only={"cards"})
    game = tiny_game(tmp_path)
    game.section("cards")["north-card"]["text"] = "Other."
    game.section("cards")["giant-card"]["text"] = "Other."
    lines: list[str] = []
    build([game], out, jobs=1, only={"cards"}, progress=lines.append)
    assert lines[0] == "tiny-isles/cards: rendering (card 'north-card' changed; card 'giant-card' changed)"


@pytest.mark.usefixtures("fake_render")
def test_a_failure_forgets_what_was_built_before(tmp_path: Path) -> None:
    out = tmp_path / "out"
    build([tiny_game(tmp_path)], out, jobs=1, only={"stickers"})
    assert "tiny-isles/stickers" in load_manifest(out)
    FAIL.add("stickers")
    game = tiny_game(tmp_path)
    game.section("stickers")["kraken"]["effect"] = "Other."
    assert build([game], out, jobs=1, only={"stickers"}).rendered == []
    assert "tiny-isles/stickers" not in load_manifest(out)


@pytest.mark.usefixtures("fake_render")
@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_two_parts_are_joined_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, platform: str) -> None:
    """Two parts, in forked workers or (not Linux, one worker) in the build process."""
    from types import SimpleNamespace

    from pypdf import PdfReader

    monkeypatch.setattr(tasksmod, "sys", SimpleNamespace(platform=platform, stdout=sys.stdout, stderr=sys.stderr))
    monkeypatch.setattr(sheetmod, "CARDS_PER_PART", 2)
    cards = [{"id": f"c{i}", "deck": "isle-cards", "name": f"C{i}"} for i in range(4)]
    out = tmp_path / "out"
    assert build([tiny_game(tmp_path, cards=cards)], out, jobs=1, only={"cards"}).rendered == ["tiny-isles/cards"]
    assert [round(float(p.mediabox.width)) for p in PdfReader(out / "tiny-isles/cards.pdf").pages] == [100, 101]


def raising_render_job(job: dict[str, Any], files: list[str], out_dir: str) -> Any:
    raise RuntimeError("planted outside render_job's own guard")


def killed_render_job(job: dict[str, Any], files: list[str], out_dir: str) -> Any:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize(("job", "status"), [(dying_render_job, 3 << 8), (raising_render_job, 1 << 8),
                                             (killed_render_job, signal.SIGKILL)])
def test_a_lone_task_whose_child_dies_is_a_diagnostic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      job: Any, status: int) -> None:
    """One worker: each task in a child of its own (tasks.forked); one killed, or one whose job raised (it exits
    1), sends nothing back and is a B399 with the child's wait status; the build goes on with the next task."""
    monkeypatch.setattr(buildmod, "render_job", job)
    assert tasksmod.forked(job, {}, [], str(tmp_path)) == (
        [Problem("B399", f"rendering failed: the render process ended with status {status}")], 0.0, None)
    result = build([tiny_game(tmp_path)], tmp_path / "out", jobs=1, only={"stickers", "cards"})
    assert [d.message for d in result.diagnostics] == [
        f"tiny-isles/{n}: rendering failed: the render process ended with status {status}" for n in ("cards",
                                                                                                    "stickers")]
    assert result.rendered == []


@pytest.mark.parametrize(("platform", "workers", "tasks", "strategy"), [
    ("linux", 1, 5, "ForkedSerial"), ("linux", 4, 1, "ForkedSerial"), ("linux", 2, 5, "ForkPool"),
    ("darwin", 1, 5, "InProcess"), ("darwin", 4, 1, "InProcess"), ("darwin", 2, 5, "ForkPool"),
])
def test_the_strategy_follows_the_workers_and_the_platform(platform: str, workers: int, tasks: int,
                                                           strategy: str) -> None:
    chosen = tasksmod.choose(workers, tasks, lambda: None, platform)
    assert type(chosen).__name__ == strategy
    if strategy == "ForkPool":
        assert chosen.size == min(workers, tasks)  # type: ignore[attr-defined]


@pytest.mark.parametrize("strategy", [tasksmod.InProcess(), tasksmod.ForkedSerial(lambda: None),
                                      tasksmod.ForkPool(2, lambda: None)])
def test_every_strategy_hands_back_structured_problems(tmp_path: Path, strategy: Any) -> None:
    """A problem crosses the process boundary as (code, message): a message with spaces, colons and a code-like
    word comes back whole, for every strategy."""
    got: dict[str, JobResult] = {}
    tasks = ["a", "b", "c"]
    strategy.run(tasks, lambda t: ({"kind": t}, [], str(tmp_path)), problem_render_job,
                 lambda t, res: got.__setitem__(t, res))
    assert sorted(got) == tasks
    assert got["b"].problems == [Problem("B399", "rendering b failed: B310 said: no")]
    assert got["a"].problems == [] and got["a"].data == b"a"


def problem_render_job(job: dict[str, Any], files: list[str], out_dir: str) -> JobResult:
    kind = job["kind"]
    if kind == "b":
        return JobResult([Problem("B399", "rendering b failed: B310 said: no")], 0.1, None)
    return JobResult([], 0.1, kind.encode())
