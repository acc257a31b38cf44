"""Validation entry points: shipped content, packs, and loading a game for later stages.

`validate_paths` is what `scarbook validate` runs. `load_game` gives a validated `Game`
(with packs merged) to `show`, `tables`, `build` and the tracker; `cached_game` serves the
same from a cache keyed by the content's hash without importing jsonschema.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.compiler.load import (
    Loaded,
    load_documents,
    load_game_folder,
    pack_extends,
    pack_paths,
    shipped_dir,
    shipped_games,
)
from scarbook.compiler.model import Game
from scarbook.kernel.cachedir import cache_dir, cache_stored, cache_used
from scarbook.kernel.diagnostics import Diagnostic, Span, did_you_mean, error, warning
from scarbook.kernel.paths import display_path


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


class UnknownGame(Exception):
    """A game id on the command line that names no game (exit code 2)."""

    def __init__(self, game_id: str) -> None:
        choices = list(shipped_games())
        super().__init__(f"unknown game '{game_id}'{did_you_mean(game_id, choices)}; games: {', '.join(choices)} "
                         "(or the folder or YAML file of a homebrew game)")


#: What only `build` refuses: how many card faces and characters it lays out (a memory and page bound
#: against hostile packs). Content over them is still valid content (the tracker plays it, a
#: 50,000-card pack validates in seconds), so validation warns and the build refuses.
BUILD_BUDGET_CODES = ("B110", "B111")


def _checked(loaded: Loaded) -> list[Diagnostic]:
    """Every diagnostic of a loaded game: loading, semantic checks, and what the build would refuse
    (the build's budget, B110 and B111, as warnings: `build` itself refuses it)."""
    from scarbook.compiler.printable import check_content
    from scarbook.compiler.semantic import run_checks

    found = loaded.diagnostics + run_checks(loaded)
    if loaded.game is not None and not any(d.is_error for d in found):
        for d in check_content(loaded.game):
            if d.code in BUILD_BUDGET_CODES and d.is_error:
                d = warning(d.span, d.code, f"{d.message} (valid content: 'scarbook build' refuses to print it)",
                            d.path)
            found.append(d)
    return found


def game_source(game_id: str) -> Path:
    """Where a game's content is: a shipped game's folder, or a homebrew game's folder or YAML file
    (a path holding a `game:` section); raises UnknownGame."""
    games = shipped_games()
    if game_id in games:
        return games[game_id]
    from scarbook.compiler.load import has_section, system_folder

    path = Path(game_id)
    if path.is_dir() and not system_folder(path) and (
            (path / "game.yaml").is_file() or (path / "game.yml").is_file() or has_section(path, "game")):
        return path
    if path.is_file() and path.suffix in (".yaml", ".yml") and has_section(path, "game"):
        return path
    raise UnknownGame(game_id)


def validate_game(game_id: str, packs: list[Path] | None = None) -> tuple[Loaded, list[Diagnostic]]:
    loaded = load_game_folder(game_source(game_id), packs)
    if loaded.game is not None and not loaded.game.meta and not any(d.is_error for d in loaded.diagnostics):
        raise UnknownGame(game_id)  # a folder, but of no game
    return loaded, _checked(loaded)


def _only_pack(diags: list[Diagnostic], pack_files: set[str]) -> list[Diagnostic]:
    """A pack is judged by its own files; base-game warnings are not its business."""
    return [d for d in diags if d.span.file in pack_files or d.is_error]


def _shipped_game_holding(path: Path) -> tuple[str | None, bool]:
    """The shipped game whose folder is `path` (exact) or holds it, if any."""
    real = path.resolve()
    for gid, folder in shipped_games().items():
        home = folder.resolve()
        if real == home or home in real.parents:
            return gid, real == home
    return None, False


def homebrew_game(game_id: str, pack: Path, given: list[Path]) -> Path | None:
    """The homebrew game folder (or file) with this id that a pack extends: among the other paths given on
    the command line, else among the pack's sibling folders and files (at most 100 looked at)."""
    from scarbook.compiler.load import has_section, system_folder

    parent = pack.resolve().parent
    try:
        siblings = [] if system_folder(parent) else sorted(parent.iterdir())[:100]
    except OSError:
        siblings = []
    for candidate in [*given, *siblings]:
        if candidate.resolve() == pack.resolve() or not (candidate.is_dir() or candidate.suffix in (".yaml", ".yml")):
            continue
        if not has_section(candidate, "game"):
            continue
        files, _ = pack_paths(candidate)
        docs, _ = load_documents(files)
        if any(isinstance(d.data, dict) and isinstance(d.data.get("game"), dict)
               and d.data["game"].get("id") == game_id for d in docs):
            return candidate
    return None


def validate_pack(path: Path, given: list[Path] | None = None) -> Report:
    """One PATH of `scarbook validate`: a pack on a game, a new game, or part of a shipped game."""
    games = shipped_games()
    home, exact = _shipped_game_holding(path)
    if home is not None and exact:
        loaded, diags = validate_game(home)
        return Report(diags, len(loaded.docs))
    files, problems = pack_paths(path)
    docs, load_problems = load_documents(files)
    extends, ext_doc = pack_extends(docs)
    if extends is not None and ext_doc is not None:
        base = homebrew_game(extends, path, given or []) if extends not in games else None
        if base is not None:
            loaded = load_game_folder(base, [path])
            return Report(problems + _only_pack(_checked(loaded), loaded.pack_files), len(files))
        if extends not in games:
            return Report(problems + load_problems + [error(
                ext_doc.span("/pack/extends"), "X505", f"pack extends unknown game '{extends}'"
                f"{did_you_mean(extends, games)}; games: {', '.join(games)} (for a homebrew game, give its folder too: "
                f"scarbook validate GAME-DIR PACK)")], len(files))
        loaded = load_game_folder(games[extends], [path])
        return Report(problems + _only_pack(_checked(loaded), loaded.pack_files), len(files))
    if home is not None:  # a file or folder inside a shipped game: check it within its game
        loaded, diags = validate_game(home)
        shown = {display_path(f) for f in files}
        return Report([d for d in diags if d.span.file in shown], len(files))
    if any(isinstance(d.data, dict) and "game" in d.data for d in docs):
        return Report(_checked(load_game_folder(path)), len(files))
    if any(d.is_error for d in load_problems):
        return Report(problems + load_problems, len(files))
    span = Span(display_path(files[0] if files else path), 1, 1)
    return Report(problems + load_problems + [error(
        span, "X506", "a pack needs 'pack: {id: ..., title: ..., extends: GAME}' (to add to a game) or "
        "'game: {...}' (a new game)")], len(files))


_DECLARES = re.compile(rb"^(pack|game):", re.MULTILINE)


def _declares_pack_or_game(path: Path) -> bool:
    try:
        from scarbook.kernel.yamlload import read_capped

        return bool(_DECLARES.search(read_capped(path, 1_000_000)[:1_000_000]))
    except OSError:
        return False


def content_root(path: Path, levels: int = 3) -> Path:
    """The pack or game folder a lone YAML file belongs to (so `scarbook validate board.yaml`, and pre-commit
    passing changed files, check it with the rest of its pack), else the path itself. Looks in the file's folder
    and, while inside the current folder, a few above it (never above a git repository's root)."""
    if not path.is_file() or _declares_pack_or_game(path) or _shipped_game_holding(path)[0] is not None:
        return path
    here = Path.cwd().resolve()
    for folder in list(path.resolve().parents)[:levels]:
        try:
            siblings = sorted(p for s in ("*.yaml", "*.yml") for p in folder.glob(s) if not p.name.startswith("."))
        except OSError:
            break
        if any(_declares_pack_or_game(f) for f in siblings):
            return Path(os.path.relpath(folder)) if here in [folder, *folder.parents] else folder
        if here not in folder.parents or (folder / ".git").exists():  # climb only inside the current folder
            break
    return path


def validate_paths(paths: list[Path]) -> Report:
    """`scarbook validate`: every shipped game when no path is given, else each pack (a file of a pack is
    checked with its whole pack, once however many of its files are given).

    The cyclic garbage collector is paused meanwhile: the parsed files are millions of live objects that
    form no cycles, and its passes over them cost a tenth of a 50,000-card pack's time."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _validate_paths(paths)
    finally:
        if collecting:
            gc.enable()


def _validate_paths(paths: list[Path]) -> Report:
    report = Report()
    if not paths:
        for gid in shipped_games():
            loaded, diags = validate_game(gid)
            report.diagnostics.extend(diags)
            report.files += len(loaded.docs)
        return report
    roots = list(dict.fromkeys(content_root(p) for p in paths))
    for path in roots:
        sub = validate_pack(path, roots)
        report.diagnostics.extend(sub.diagnostics)
        report.files += sub.files
    return report


class ContentError(Exception):
    """The content of a game (or a pack on it) has errors: the diagnostics say which."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{sum(d.is_error for d in diagnostics)} errors in the content")
        self.diagnostics = diagnostics


def refuse_non_packs(packs: list[Path], where: Span | None = None) -> None:
    """ContentError X508 for the first of `packs` that is not a pack (`load.not_a_pack`), before anything is
    read or recorded: at `where` (the ledger's line that names it), else at the pack's path."""
    from scarbook.compiler.load import not_a_pack

    for pack in packs:
        why = not_a_pack(pack)
        if why is not None:
            raise ContentError([error(where or Span(display_path(pack)), "X508", why)])


def load_game(game_id: str, packs: list[Path] | None = None) -> Game:
    """A validated game with packs merged; raises ContentError or UnknownGame."""
    loaded, diags = validate_game(game_id, packs)
    errors = [d for d in diags if d.is_error]
    if errors or loaded.game is None:
        raise ContentError(errors)
    return loaded.game


# --- the cache the tracker reads ------------------------------------------------------------
#: 2: Game.file_cites; 3: file names stored absolute, the key without the current folder;
#: 4: a replaced item keeps its place
#: 5: `patch: true` merges into the base item; a renamed territory renames its card
#: 6: cites printed by their source's title (`sources:`)
CACHE_VERSION = "6"


def _cache_key(game_id: str, packs: list[Path]) -> str | None:
    from scarbook import __version__
    from scarbook.kernel.sha import key
    from scarbook.kernel.yamlload import MAX_FILE_BYTES, read_capped
    from scarbook.schemas import SCHEMA_DIR

    try:
        source = game_source(game_id)
    except UnknownGame:
        return None
    files = pack_paths(source)[0] + sorted(SCHEMA_DIR.glob("*.json"))
    for pack in packs:
        files.extend(pack_paths(pack)[0])
    # not the current folder: the cached game names its files by absolute path (`_stored_paths`)
    digest = key(f"{CACHE_VERSION}:{__version__}:{game_id}".encode())
    for path in files:
        digest.update(str(path.resolve()).encode())
        try:
            digest.update(read_capped(path, MAX_FILE_BYTES))
        except OSError:
            return None
    return digest.hexdigest()[:24]


def _stored_paths(data: dict[str, Any], name: Callable[[str], str]) -> dict[str, Any]:
    """A cached game's JSON with every file name it holds (spans, files, file cites) passed through `name`."""
    data = dict(data)
    data["spans"] = {k: [name(f), line, col] for k, (f, line, col) in data["spans"].items()}
    data["files"] = [name(f) for f in data["files"]]
    data["file_cites"] = {name(f): c for f, c in data.get("file_cites", {}).items()}
    return data


#: A shipped game, validated when it was generated (tools/generate_games.py): `compiler/generated/game-ID.json`.
SHIPPED_GAME = "game-{}.json"


def shipped_key(game_id: str) -> str | None:
    """The key of a shipped game's validated form: the cache version, the release, and the name (relative to the
    content folder) and bytes of every file it is read from, schemas included (None when one is unreadable)."""
    from scarbook import __version__
    from scarbook.kernel.sha import key
    from scarbook.kernel.yamlload import MAX_FILE_BYTES, read_capped
    from scarbook.schemas import SCHEMA_DIR

    root = shipped_dir()
    digest = key(f"{CACHE_VERSION}:{__version__}:{game_id}".encode())
    named = [(p.relative_to(root).as_posix(), p) for p in pack_paths(shipped_games()[game_id])[0]]
    named += [(f"schemas/{p.name}", p) for p in sorted(SCHEMA_DIR.glob("*.json"))]
    for name, path in named:
        digest.update(f"\0{name}\0".encode())
        try:
            digest.update(read_capped(path, MAX_FILE_BYTES))
        except OSError:
            return None
    return digest.hexdigest()[:24]


def _shipped(game_id: str) -> Game | None:
    """A shipped game as it was validated when the release was made, when its files are still those bytes (a
    cold command on a shipped game then parses and validates nothing: ~70 ms of CPU); None otherwise."""
    from scarbook.compiler.generated import GENERATED_DIR

    path = GENERATED_DIR / SHIPPED_GAME.format(game_id)
    try:
        stored = json.loads(path.read_bytes())
        if not isinstance(stored, dict) or stored.get("key") != shipped_key(game_id):
            return None
        root = str(shipped_dir())
        shown = functools.cache(lambda f: display_path(Path(root, f)))
        return Game.from_json(_stored_paths(stored["game"], shown))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing or out of date: validated as any game is


def shipped_form(game_id: str) -> dict[str, Any]:
    """What `compiler/generated/game-ID.json` holds for a shipped game: its key and its validated form, with
    file names relative to the content folder (tools/generate_games.py)."""
    root = os.path.abspath(shipped_dir())
    game = load_game(game_id)
    return {"key": shipped_key(game_id),
            "game": _stored_paths(game.to_json(), lambda f: os.path.relpath(os.path.abspath(f), root))}


def cached_game(game_id: str, packs: list[Path] | None = None) -> Game:
    """`load_game`, served from a cache keyed by the bytes of every file it depends on (not by the current
    folder: file names are stored absolute and shown relative to wherever the command runs)."""
    packs = list(packs or [])
    refuse_non_packs(packs)
    is_shipped = game_id in shipped_games()
    if is_shipped and not packs:  # validated as the release ships it, while its files are unchanged: nothing to look up
        shipped = _shipped(game_id)
        if shipped is not None:
            return shipped
    key = _cache_key(game_id, packs)
    name = game_id if is_shipped else "".join(c if c.isalnum() else "_" for c in game_id)[-40:]
    path = cache_dir() / f"{name}-{key}.json" if key else None
    if path is not None and os.path.lexists(path):
        try:
            from scarbook.kernel.trust import read_trusted  # the user's own private file only

            shown = functools.cache(lambda f: display_path(Path(f)))  # a few files, thousands of spans
            game = Game.from_json(_stored_paths(json.loads(read_trusted(path).decode("utf-8")), shown))
            cache_used(path)
            return game
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a damaged cache entry is rebuilt below
    game = load_game(game_id, packs)
    if path is not None:
        with contextlib.suppress(OSError):  # no cache is slower, never wrong
            stored = _stored_paths(game.to_json(), os.path.abspath)
            from scarbook.kernel.atomic import replace_file  # tempfile and random: only when a cache entry is written
            from scarbook.kernel.trust import private_like

            replace_file(path, json.dumps(stored).encode("utf-8"), like=private_like())
            cache_stored(path)
    return game
