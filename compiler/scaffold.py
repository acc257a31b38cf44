"""Starting points for authors: a new pack or game folder, and copies of the shipped examples.

Every YAML file written starts with a yaml-language-server modeline that points at this install's schemas
(relative to the file when it can be), so an editor completes and checks it offline. What is written
validates clean and builds; the comments teach the content model. Never overwrites a file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

MODELINE = re.compile(r"^# yaml-language-server: \$schema=\S*\n", re.MULTILINE)


class ScaffoldError(Exception):
    """The folder cannot take the files (they exist already, or it cannot be written)."""


def schema_ref(folder: Path, schema: str = "content-file.schema.json") -> str:
    """The content schema (or `schema`) as a YAML file in `folder` should name it: a relative path where there is
    one."""
    from scarbook.schemas import SCHEMA_DIR

    target = (SCHEMA_DIR / schema).resolve()
    here = folder.resolve()
    try:
        shared = Path(os.path.commonpath([target, here]))
    except ValueError:  # another drive (Windows)
        return target.as_uri()
    if shared == Path(shared.anchor):  # nothing in common but the root: a relative path would break on a move
        return target.as_uri()
    return Path(os.path.relpath(target, here)).as_posix()


def modeline(folder: Path, schema: str = "content-file.schema.json") -> str:
    return f"# yaml-language-server: $schema={schema_ref(folder, schema)}\n"


def with_modeline(text: str, folder: Path, schema: str = "content-file.schema.json") -> str:
    """`text` with its modeline (added, or replaced) pointing at this install's schemas from `folder`."""
    line = modeline(folder, schema)
    if MODELINE.match(text):
        return MODELINE.sub(lambda _m: line, text, count=1)
    return line + text


def with_edition(text: str) -> str:
    """`text` declaring the current edition of the content format, on the line before its first key (a text that
    declares its edition already is left as it is)."""
    from scarbook.compiler.editions import CURRENT_EDITION

    lines = text.splitlines(keepends=True)
    if any(ln.startswith("edition:") for ln in lines):
        return text
    at = next((i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")), len(lines))
    line = f"edition: {CURRENT_EDITION}  # the content format this file is written in (scarbook migrate)\n"
    return "".join(lines[:at] + [line] + lines[at:])


def kebab(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split()) or "my-pack"


PRE_COMMIT = """\
# pre-commit (https://pre-commit.com) runs scarbook on every commit that touches YAML.
# Put this file at the root of the git repository that holds the pack, then: pre-commit install
# It uses the scarbook installed here ('language: system'); scarbook's own .pre-commit-hooks.yaml offers the
# same hook as 'scarbook-validate' for a 'repo:' entry that pins a scarbook version.
repos:
  - repo: local
    hooks:
      - id: scarbook-validate
        name: scarbook validate
        entry: scarbook validate
        language: system
        files: \\.ya?ml$
        exclude: (^|/)\\.
        # Optional, the plain JSON Schema check (offline, from this install's schemas):
        # - id: check-jsonschema ... --schemafile {schemas}/content-file.schema.json
"""

PACK = """\
# A scarbook pack: YAML that adds to a shipped game (or, with 'replace: true', changes one of its items).
# Each top-level key is a section (source, pack, rules, stickers, envelopes, cards ...). You may split the
# sections over several .yaml files in this folder: scarbook merges them.
#   check it:  scarbook validate {folder}
#   build it:  scarbook build {game} --pack {folder}      (writes build/{game}+{id}/)
#   play it:   scarbook campaign new ours.yaml --game {game} --pack {folder} --player Ann --player Bob
# The model: README.md and the schemas in the folder 'scarbook schema --path' prints; examples: scarbook examples --list

source:
  # Where the facts of this file come from; an item can carry its own 'source' instead.
  cite: "house rules § {title}"

pack:
  id: {id}              # lowercase kebab-case, unique across the game
  title: {title}
  extends: {game}       # the game this adds to (scarbook games)

rules:
  # A rule in short: it goes into the reference sheet and the rule tables.
  - id: {id}-house-rule
    title: Our house rule
    topic: house-rules
    text: Write the rule here, as the players should read it.
{stickers}"""

PACK_STICKER = """
stickers:
  # A sticker (a scar, a city, a mark ...): what it goes on, which slot it takes, how many there are.
  # 'checks' are the legality rules the tracker applies before it lets a player place it; each cites its
  # rule. The check names and their parameters are listed in checks.schema.json (your editor completes them).
  - id: {id}-scar
    name: {title} scar
    kind: scar
    slot: {slot}           # a slot the game's territories offer ({slots})
    targets: [territory]
    supply: 2
    effect: Say what the sticker does while it is on the board.
    checks:
      - {{check: slot-free, cite: "house rules § {title}"}}
      - {{check: supply-left, cite: "house rules § {title}"}}
"""

GAME_FILES = {
    "game.yaml": """\
# A whole new game for scarbook. Each top-level key of a file is a section; a game is the merge of every
# .yaml file in this folder, so the file names are up to you (game, board, cards, stickers by convention).
#   check it:  scarbook validate {folder}
#   build it:  scarbook build {folder}                    (writes build/{id}/)
#   play it:   scarbook campaign new ours.yaml --game {folder} --player Ann --player Bob
# The model: README.md and the schemas in the folder 'scarbook schema --path' prints; examples: scarbook examples --list
# Facts the sources do not give are written {{unknown: "why"}} rather than guessed; scarbook lists them.

source:
  cite: "{title} rulebook § Components"   # where this file's facts come from

game:
  id: {id}
  title: {title}
  legacy: true                  # a legacy game: the tracker records permanent changes
  players: {{min: 2, max: 4}}
  campaign: {{games: 10, rewards_in_first_games: 10}}
""",
    "board.yaml": """\
# The board: regions (continents) with their bonus, territories, and which territories touch.
source:
  cite: "{title} rulebook § The board"

board:
  default_slots: {{scar: 1}}      # sticker slots each territory has, unless a territory says otherwise
  edge_kind: land               # the kind of every edge below that gives none (land, sea)

regions:
  - {{id: heartland, name: Heartland, bonus: 2}}

territories:
  # ids are lowercase kebab-case of the printed name, unique across the whole game
  - {{id: north-vale, name: North Vale, regions: [heartland]}}
  - {{id: east-vale, name: East Vale, regions: [heartland]}}
  - {{id: south-vale, name: South Vale, regions: [heartland]}}

edges:
  # undirected: list each pair once; a third value gives the kind ([a, b, sea])
  - [north-vale, east-vale]
  - [east-vale, south-vale]
""",
    "cards.yaml": """\
# Decks declare how many cards they hold; cards name their deck (and the territory they show).
source:
  cite: "{title} rulebook § Territory cards"

decks:
  - {{id: territory-cards, name: Territory cards, count: 3}}

cards:
  - {{id: north-vale-card, deck: territory-cards, name: North Vale, territory: north-vale, resources: 1}}
  - {{id: east-vale-card, deck: territory-cards, name: East Vale, territory: east-vale, resources: 1}}
  - {{id: south-vale-card, deck: territory-cards, name: South Vale, territory: south-vale, resources: 1}}
""",
    "stickers.yaml": """\
# Stickers: what each goes on, the slot it takes, the supply, and the legality checks the tracker applies
# before a player may place it (each cites its rule; names and parameters are in checks.schema.json).
source:
  cite: "{title} rulebook § Scars"

stickers:
  - id: rockslide
    name: Rockslide
    kind: scar
    slot: scar
    targets: [territory]
    supply: 2
    effect: The defender here rolls one die more.
    checks:
      - {{check: slot-free, cite: "{title} rulebook § Scars"}}
      - {{check: supply-left, cite: "{title} rulebook § Scars"}}
""",
}


def _write(folder: Path, files: dict[str, str]) -> list[Path]:
    """Write new files into `folder` as `build` writes (a temporary file and a rename: never through a symlink
    at a name); a name that holds anything already (a file, a folder, a symlink, even a dangling one) refuses
    the whole lot before anything is written."""
    import os

    from scarbook.compiler.load import is_playtest
    from scarbook.kernel.atomic import replace_file

    clashes = [folder / name for name in files if os.path.lexists(folder / name)]
    if clashes:
        raise ScaffoldError(f"{clashes[0]} exists already; choose a new folder (nothing was written)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in files.items():
            path = folder / name
            if not name.endswith(".yaml") or name.startswith("."):
                pass
            elif is_playtest(path.name):  # a play-test file: its own schema, and no content edition
                text = with_modeline(text, path.parent, "playtest.schema.json")
            else:
                text = with_modeline(with_edition(text), path.parent)
            replace_file(path, text.encode("utf-8"))
            written.append(path)
    except OSError as exc:
        raise ScaffoldError(f"cannot write into {folder}: {exc.strerror}") from None
    return written


def _shown(folder: Path) -> str:
    text = folder.as_posix()
    return text if " " not in text else f'"{text}"'


def _pre_commit() -> str:
    from scarbook.schemas import SCHEMA_DIR

    return PRE_COMMIT.replace("{schemas}", SCHEMA_DIR.as_posix())


def new_pack(folder: Path, game: str) -> list[Path]:
    """A pack on shipped game `game` in `folder`: one house rule, and a scar where the board has slots."""
    from scarbook.compiler.validate import load_game

    base = load_game(game)
    slots = [str(s) for s in (base.board.get("default_slots") or {})]
    pid = kebab(folder.resolve().name)
    title = pid.replace("-", " ").capitalize()
    values = {"id": pid, "title": title, "game": game, "folder": _shown(folder)}
    sticker = ""
    if slots and base.section("territories"):
        slot = "scar" if "scar" in slots else slots[0]
        sticker = PACK_STICKER.format(**values, slot=slot, slots=", ".join(slots))
    return _write(folder, {"pack.yaml": PACK.format(**values, stickers=sticker),
                           ".pre-commit-config.yaml": _pre_commit()})


def new_game(folder: Path) -> list[Path]:
    """A small complete game in `folder` (a new or an empty one): a board of three territories, a deck, a scar."""
    _refuse_a_full_folder(folder)
    gid = kebab(folder.resolve().name)
    values = {"id": gid, "title": gid.replace("-", " ").title(), "folder": _shown(folder)}
    files = {name: text.format(**values) for name, text in GAME_FILES.items()}
    return _write(folder, {**files, ".pre-commit-config.yaml": _pre_commit()})


def _refuse_a_full_folder(folder: Path) -> None:
    """`new game` and `examples copy` make a whole game: only in a new folder or an empty one."""
    try:
        full = folder.is_dir() and any(folder.iterdir())
    except OSError as exc:
        raise ScaffoldError(f"cannot read {folder}: {exc.strerror}; nothing was written") from None
    if full:
        raise ScaffoldError(f"{folder} is not empty; choose a new folder (nothing was written)")


def copy_example(source: Path, folder: Path) -> list[Path]:
    """Copy a shipped example into `folder`, its modelines pointing at this install's schemas."""
    files = {p.relative_to(source).as_posix(): p.read_text("utf-8") for p in sorted(source.rglob("*.yaml"))}
    _refuse_a_full_folder(folder)
    written = []
    for name, text in files.items():
        written += _write((folder / name).parent, {Path(name).name: text})
    return written


__all__ = ["ScaffoldError", "copy_example", "new_game", "new_pack", "schema_ref", "with_modeline"]
