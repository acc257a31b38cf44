"""Find, load and merge content: shipped games and homebrew packs into a `Game`.

Data flow: files -> `yamlload` (positions) -> `schema` -> merge into a `Game` -> `semantic`.
Every problem becomes a diagnostic; nothing here raises on bad content.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.compiler.model import ITEM_SECTIONS, Game, as_dict, as_list, cites, singular
from scarbook.compiler.sources import declares_sources, resolve_game
from scarbook.kernel.diagnostics import Diagnostic, Span, error, warning
from scarbook.kernel.paths import display_path
from scarbook.kernel.sha import sha256
from scarbook.kernel.yamlload import Document, load_file

YAML_SUFFIXES = (".yaml", ".yml")


def shipped_dir() -> Path:
    from scarbook.content import CONTENT_DIR

    return CONTENT_DIR


def shipped_games() -> dict[str, Path]:
    """Game id -> folder, for every folder of `content/` holding YAML."""
    root = shipped_dir()
    return {p.name: p for p in sorted(root.iterdir()) if p.is_dir() and any(p.glob("*.yaml"))}


#: A game or pack folder is small: walking one stops after this many entries or YAML bytes.
MAX_FOLDER_ENTRIES = 5000
MAX_FOLDER_YAML_BYTES = 64 * 1024 * 1024
#: Folders that never hold a game or a pack (a ledger's `game: /usr` would walk all of /usr).
SYSTEM_FOLDERS = frozenset({"/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/media",
                            "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr",
                            "/usr/bin", "/usr/lib", "/usr/local", "/usr/share", "/var"})


def system_folder(path: Path) -> bool:
    """Whether `path` is the filesystem root, a system folder, a home folder itself, or inside /proc, /sys, /dev."""
    real = os.path.realpath(path)
    home = os.path.realpath(os.path.expanduser("~"))
    return (real in SYSTEM_FOLDERS or real == home or os.path.dirname(real) == "/home"
            or real.startswith(("/proc/", "/sys/", "/dev/")))


def has_section(path: Path, section: str) -> bool:
    """Whether a YAML file (or a folder's top-level YAML files) has a top-level `section:` key; reads 1 MiB at most."""
    try:
        candidates = [path] if path.is_file() else sorted(p for p in path.iterdir() if p.suffix in YAML_SUFFIXES)
    except OSError:
        return False
    pattern = re.compile(rb"^" + re.escape(section.encode()) + rb"\s*:", re.M)
    for file in candidates[:200]:
        try:
            if not file.is_file():
                continue
            with open(file, "rb") as fh:
                if pattern.search(fh.read(1 << 20)):
                    return True
        except OSError:
            continue
    return False


def not_a_pack(path: Path) -> str | None:
    """Why `path` cannot be a pack (None: it may be one): it must exist, not be a system folder, and hold a
    YAML file with a top-level `pack:` section. Cheap (reads 1 MiB of at most 200 files): asked before any
    pack is merged or recorded, so that `/` or an empty folder is never walked or written into a ledger."""
    what = ("a pack is a folder (or one YAML file) whose YAML files hold a 'pack:' section with its id and "
            "the game it extends; make one with 'scarbook new pack DIR --extends GAME'")
    if not os.path.lexists(path):
        return f"{path} does not exist; {what}"
    if system_folder(path):
        return f"{path} is a system folder, not a pack; {what}"
    if not has_section(path, "pack"):
        kind = "an empty folder" if path.is_dir() and not any(True for _ in _listed(path)) else \
            "a folder without a 'pack:' section" if path.is_dir() else "a file without a 'pack:' section"
        return f"{path} is not a pack ({kind}); {what}"
    return None


def _listed(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def is_playtest(name: str) -> bool:
    """A play-test file (`playtest.yaml`, `*.playtest.yaml`) lives beside the content but is not content."""
    stem = name.rsplit(".", 1)[0]
    return stem == "playtest" or stem.endswith(".playtest")


def content_files(folder: Path) -> tuple[list[Path], list[Diagnostic]]:
    """The YAML files of a pack folder; symlinks leading outside it are refused. Hidden files and folders
    (`.pre-commit-config.yaml`, `.github/`) are not content.

    The walk stops (X507) after MAX_FOLDER_ENTRIES entries or MAX_FOLDER_YAML_BYTES of YAML: a pack
    is a handful of files, and a mistyped path must not walk a whole disk. Only names are reported.
    """
    root = folder.resolve()
    files: list[Path] = []
    problems: list[Diagnostic] = []
    found: list[Path] = []
    entries = 0
    size = 0
    too_big = ""
    for here, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        entries += len(dirs) + len(names)
        if entries > MAX_FOLDER_ENTRIES:
            too_big = (f"{MAX_FOLDER_ENTRIES} files and folders; a game or pack folder holds its YAML files only "
                       "(is this the right folder?)")
            break
        for name in sorted(names):
            if Path(name).suffix in YAML_SUFFIXES and not name.startswith(".") and not is_playtest(name):
                path = Path(here) / name
                found.append(path)
                with contextlib.suppress(OSError):
                    size += path.stat().st_size
        if size > MAX_FOLDER_YAML_BYTES:
            too_big = f"{MAX_FOLDER_YAML_BYTES // (1024 * 1024)} MiB of YAML; split the content into packs"
            break
    if too_big:
        problems.append(error(Span(display_path(folder)), "X507", f"this folder holds more than {too_big}"))
    for path in sorted(found):
        real = path.resolve()
        if root not in real.parents:
            problems.append(error(Span(display_path(path)), "X502", "this file is a link to outside the pack "
                                  "folder; copy the file into the pack instead"))
            continue
        if path.is_file():
            files.append(path)
    return files, problems


def fingerprint(paths: list[Path], base: Path | None = None) -> str:
    """sha256 over the files' relative names and bytes: the content's identity."""
    digest = sha256(large=True)  # the content's bytes: OpenSSL's, faster on ~100 KB and more
    for path in sorted(paths):
        name = str(path.relative_to(base)) if base and base in path.parents else path.name
        digest.update(name.encode())
        digest.update(b"\0")
        try:
            from scarbook.kernel.yamlload import MAX_FILE_BYTES, read_capped

            digest.update(read_capped(path, MAX_FILE_BYTES))
        except OSError:
            digest.update(b"<unreadable>")
        digest.update(b"\0")
    return digest.hexdigest()[:16]


@dataclass
class Origin:
    """Where an item came from: the loaded document and its JSON pointer there."""

    doc: Document
    pointer: str
    layer: str  # "base" or the pack id

    def span(self, suffix: str = "", key: bool = False) -> Span:
        return self.doc.span(self.pointer + suffix, key=key)


@dataclass
class Loaded:
    """A merged game with everything needed to report on it."""

    game: Game | None
    docs: list[Document] = field(default_factory=list)
    origins: dict[str, Origin] = field(default_factory=dict)
    edge_origins: list[Origin] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    pack_files: set[str] = field(default_factory=set)
    unreadable: dict[str, set[str]] = field(default_factory=dict)  # file that did not load -> ids its text defines
    cites_declared: set[str] = field(default_factory=set)  # files of a layer that declares its sources


_loaded: dict[tuple[str, str, int, int], tuple[Document, list[Diagnostic]]] = {}


def load_document(path: Path) -> tuple[Document, list[Diagnostic]]:
    """Load and schema-check one file, once per process for the same file state."""
    from scarbook.compiler.schemacheck import validate_document

    display = display_path(path)
    try:
        stat = path.stat()
        key: tuple[str, str, int, int] | None = (str(path.resolve()), display, stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    if key is not None and key in _loaded:
        return _loaded[key]
    doc = load_file(path, display)
    from scarbook.compiler.editions import upgrade

    doc.diagnostics.extend(upgrade(doc))  # old constructs read the old way (X600), before the schema looks
    schema_problems = validate_document(doc)
    for d in schema_problems:  # an item with a wrong-shaped value is reported, then kept out of the game
        parts = d.path.split("/")
        if d.code in ("S003", "S004") and len(parts) >= 3:
            doc.invalid.add("/".join(parts[:3]))
    result = (doc, doc.diagnostics + schema_problems)
    if key is not None:
        _loaded[key] = result
    return result


def with_paths(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic with its JSON pointer: the node of a loaded file at its line and column (the deepest
    value there, else the deepest key), for those whose check gave a position only."""
    docs = {doc.file: doc for doc, _ in _loaded.values()}
    index: dict[str, dict[tuple[int, int], str]] = {}
    out = []
    for d in diagnostics:
        doc = docs.get(d.span.file)
        if d.path or doc is None or not d.span.line:
            out.append(d)
            continue
        if doc.file not in index:
            at: dict[tuple[int, int], str] = {}
            for table in (doc.spans, doc.key_spans):  # values win over keys; deeper pointers over shallower
                for pointer in sorted(table, key=lambda p: p.count("/"), reverse=True):
                    at.setdefault((table[pointer].line, table[pointer].column), pointer)
            index[doc.file] = at
        pointer = index[doc.file].get((d.span.line, d.span.column), "")
        out.append(dataclasses.replace(d, path=pointer) if pointer else d)
    return out


def load_documents(paths: list[Path]) -> tuple[list[Document], list[Diagnostic]]:
    docs, problems = [], []
    for path in paths:
        doc, found = load_document(path)
        docs.append(doc)
        problems.extend(found)
    return docs, problems


class Merger:
    """Merges documents layer by layer into one `Game`, reporting clashes of ids."""

    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.game = Game(id="")
        loaded.game = self.game
        self.renamed: dict[str, tuple[str, str]] = {}  # territory -> (base name, name now)
        self.named_cards: set[str] = set()  # cards a pack restated with their own name
        self.step_patches: list[tuple[dict[str, Any], Origin]] = []  # packs' `steps`, applied once all are merged

    def add(self, doc: Document, layer: str) -> None:
        data = doc.data
        if not isinstance(data, dict):
            return
        self.game.files.append(doc.file)
        self.loaded.docs.append(doc)
        if cites(data):
            self.game.file_cites[doc.file] = cites(data)
        if isinstance(data.get("game"), dict):
            if self.game.meta and layer == "base":
                self.loaded.diagnostics.append(error(doc.span("/game", key=True), "X103",
                                                     "a second 'game:' block; a game is described once"))
            else:
                self.game.meta = dict(data["game"])
                self.game.id = str(data["game"].get("id", self.game.id))
        pack_sources = as_list(as_dict(data.get("pack")).get("sources"))
        if pack_sources and layer != "base":  # a pack's own sources join the game's, for its cites
            self.game.meta = {**self.game.meta, "sources": [*as_list(self.game.meta.get("sources")), *pack_sources]}
        if isinstance(data.get("board"), dict):
            self.game.board.update(data["board"])
        edges = data.get("edges")
        for i, edge in enumerate(edges if isinstance(edges, list) else []):  # a wrong shape is the schema's S004
            if isinstance(edge, list) and len(edge) >= 2 and all(isinstance(e, str) for e in edge[:3]):
                kind = edge[2] if len(edge) > 2 else str(self.game.board.get("edge_kind", "unknown"))
                self.game.edges.append((edge[0], edge[1], kind))
                self.loaded.edge_origins.append(Origin(doc, f"/edges/{i}", layer))
        removed = data.get("remove_edges")
        for i, edge in enumerate(removed if isinstance(removed, list) else []):
            if isinstance(edge, list) and len(edge) >= 2 and all(isinstance(e, str) for e in edge[:2]):
                self.remove_edge(edge[0], edge[1], Origin(doc, f"/remove_edges/{i}", layer))
        patches = data.get("steps")
        for i, item in enumerate(patches if isinstance(patches, list) else []):
            if isinstance(item, dict) and f"/steps/{i}" not in doc.invalid:
                origin = Origin(doc, f"/steps/{i}", layer)
                if layer == "base":
                    self.loaded.diagnostics.append(error(origin.span(key=False), "X520", "'steps' is for packs: a "
                                                         "game lists its steps in game.campaign.game_types"))
                else:
                    self.step_patches.append((item, origin))
        for section in ITEM_SECTIONS:
            items = data.get(section)
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                if isinstance(item, dict) and isinstance(item.get("id"), str) and f"/{section}/{i}" not in doc.invalid:
                    self.add_item(section, item, Origin(doc, f"/{section}/{i}", layer))

    def add_item(self, section: str, item: dict[str, Any], origin: Origin) -> None:
        item_id = item["id"]
        prev = self.loaded.origins.get(item_id)
        here = origin.span("/id")
        if item.get("patch") and item.get("replace"):
            self.loaded.diagnostics.append(error(origin.span("/patch", key=True), "X513",
                                                 f"'{item_id}' says both 'patch: true' and 'replace: true'; "
                                                 "patch merges the given fields, replace restates the whole "
                                                 "item: keep one"))
            return
        verb = "patches" if item.get("patch") else "replaces"
        if prev is not None:
            prev_section = self.game.item(item_id)
            where = prev.span("/id")
            if prev.layer != origin.layer and (item.get("replace") or item.get("patch")):
                if prev_section and prev_section[0] != section:
                    old = singular(prev_section[0])
                    self.loaded.diagnostics.append(error(here, "X503", f"'{item_id}' {verb} a {old}"
                                                         f" of the base game with a {singular(section)}; "
                                                         f"{'patch' if item.get('patch') else 'replace'} it in "
                                                         f"'{prev_section[0]}'"))
                    return
                if section == "cards" and "name" in item:
                    self.named_cards.add(item_id)  # a card a pack names itself keeps that name
                if prev_section and item.get("patch"):
                    item = self._patched(section, prev_section[1], item, origin)
                elif prev_section:
                    self._replaced(prev_section[1], item, origin)  # it keeps its place: assigned below
                    self._renamed(section, prev_section[1], item)
            elif prev.layer != origin.layer:
                self.loaded.diagnostics.append(error(here, "X501", f"'{item_id}' is already defined by the base "
                                                     f"game at {where}; add 'replace: true' to replace it, "
                                                     "'patch: true' to change only the fields given, or choose "
                                                     "another id"))
                return
            else:
                self.loaded.diagnostics.append(error(here, "X101", f"duplicate id '{item_id}' (first at {where}); "
                                                     "ids are unique across the whole game"))
                return
        elif item.get("replace") and origin.layer != "base":
            self.loaded.diagnostics.append(warning(origin.span("/replace", key=True), "X504",
                                                   f"'{item_id}' replaces nothing: the base game has no such "
                                                   "id; remove 'replace: true'"))
        elif item.get("patch"):
            self.loaded.diagnostics.append(error(origin.span("/patch", key=True), "X514",
                                                 f"'{item_id}' patches nothing: the base game has no such id "
                                                 "(a patch only changes an item the base game has; check the "
                                                 "id, or remove 'patch: true' and give the whole item)"))
            return
        self.game.sections[section][item_id] = item
        self.game.spans[item_id] = here
        self.loaded.origins[item_id] = origin


    def apply_step_patches(self) -> None:
        """A pack's `steps`: each adds one end-of-game step to a game type of the game it extends (after the step
        `after` names, else last), or changes one (`patch: true`: the given fields replace those of the step),
        without restating the campaign block. Unknown types or steps are errors at the entry's own line."""
        from scarbook.kernel.diagnostics import did_you_mean

        if not self.step_patches:
            return
        meta = dict(self.game.meta)
        camp = dict(meta.get("campaign") or {}) if isinstance(meta.get("campaign"), dict) else {}
        types = [dict(t) for t in camp.get("game_types") or [] if isinstance(t, dict)]
        for item, origin in self.step_patches:
            tid = str(item.get("game_type"))
            gtype = next((t for t in types if t.get("id") == tid), None)
            if gtype is None:
                known = [str(t.get("id")) for t in types]
                self.loaded.diagnostics.append(error(origin.span("/game_type"), "X521",
                                                     f"{self.game.title or 'the game'}"
                                                     f" has no game type '{tid}'{did_you_mean(tid, known)}; its types: "
                                                     f"{', '.join(known) or 'none (it declares no game_types)'}"))
                continue
            steps = [dict(st) for st in gtype.get("steps") or [] if isinstance(st, dict)]
            ids = [str(st.get("id")) for st in steps]
            sid = str(item.get("id"))
            fields = {k: v for k, v in item.items() if k not in ("game_type", "patch", "after")}
            if item.get("patch"):
                if sid not in ids:
                    self.loaded.diagnostics.append(error(origin.span("/id"), "X522", f"game type '{tid}' has no step "
                                                         f"'{sid}' to patch{did_you_mean(sid, ids)}; its steps: "
                                                         f"{', '.join(ids)} (remove 'patch: true' to add a new one)"))
                    continue
                steps[ids.index(sid)] = {**steps[ids.index(sid)], **fields}
            elif sid in ids:
                self.loaded.diagnostics.append(error(origin.span("/id"), "X523", f"game type '{tid}' already has a "
                                                     f"step '{sid}'; add 'patch: true' to change it, or choose "
                                                     "another id"))
                continue
            else:
                after = item.get("after")
                if after is not None and str(after) not in ids:
                    self.loaded.diagnostics.append(error(origin.span("/after"), "X524", f"game type '{tid}' has no "
                                                         f"step '{after}' to go after{did_you_mean(str(after), ids)}"
                                                         f"; its steps: {', '.join(ids)}"))
                    continue
                at = ids.index(str(after)) + 1 if after is not None else len(steps)
                steps.insert(at, fields)
            gtype["steps"] = steps
        camp["game_types"] = types
        meta["campaign"] = camp
        self.game.meta = meta

    def remove_edge(self, a: str, b: str, origin: Origin) -> None:
        """A pack's `remove_edges` entry: drop the base edge a-b (from `edges` and both `neighbors` lists)."""
        if origin.layer == "base":
            self.loaded.diagnostics.append(error(origin.span(), "X512", "'remove_edges' is for packs: a game "
                                                 "simply does not list the edge"))
            return
        pair = {a, b}
        keep = [i for i, e in enumerate(self.game.edges) if {e[0], e[1]} != pair]
        found = len(keep) != len(self.game.edges)
        self.game.edges = [self.game.edges[i] for i in keep]
        self.loaded.edge_origins = [self.loaded.edge_origins[i] for i in keep]
        territories = self.game.sections.get("territories", {})
        for end, other in ((a, b), (b, a)):
            item = territories.get(end)
            if isinstance(item, dict) and other in (item.get("neighbors") or []):
                territories[end] = {**item, "neighbors": [n for n in item["neighbors"] if n != other]}
                found = True
        if not found:
            unknown = "" if a in territories and b in territories else " (no such territory)"
            self.loaded.diagnostics.append(error(origin.span(), "X511", f"no edge '{a}' - '{b}' to remove{unknown}"))

    def _patched(self, section: str, old: dict[str, Any], patch: dict[str, Any], origin: Origin) -> dict[str, Any]:
        """`patch: true` merges the given fields into the base item (each given field replaces that field,
        the others stay); the item keeps its place. Restated neighbours are checked as for `replace`."""
        merged = {**old, **{k: v for k, v in patch.items() if k != "patch"}}
        if "neighbors" in patch:
            self._dropped_neighbours(old, merged, origin.span("/patch", key=True))
        self._renamed(section, old, merged)
        return merged

    def _renamed(self, section: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        """Remember a territory renamed by a pack: its cards follow (`rename_cards`)."""
        if section == "territories" and isinstance(old.get("name"), str) and isinstance(new.get("name"), str) \
                and old["name"] != new["name"]:
            first = self.renamed.get(str(new["id"]), (old["name"], ""))[0]
            self.renamed[str(new["id"])] = (first, new["name"])

    def rename_cards(self) -> None:
        """A renamed territory renames its card(s) (`territory:` it) whose name was derived from the
        territory's (`Alaska`, `Alaska card`), unless a pack gave that card its own name."""
        cards = self.game.sections.get("cards", {})
        for cid, card in list(cards.items()):
            tid = card.get("territory")
            name = card.get("name")
            if cid in self.named_cards or not isinstance(tid, str) or tid not in self.renamed \
                    or not isinstance(name, str):
                continue
            before, after = self.renamed[tid]
            if before and before in name:
                cards[cid] = {**card, "name": name.replace(before, after)}

    def _replaced(self, old: dict[str, Any], new: dict[str, Any], origin: Origin) -> None:
        """`replace: true` replaces the whole item: say which fields it drops and which neighbours it no
        longer lists (an edge the other side or `edges` lists stays)."""
        dropped = [k for k in old if k not in new and k not in ("replace", "source", "notes")]
        if dropped:
            self.loaded.diagnostics.append(warning(origin.span("/replace", key=True), "X509",
                                                   f"'{new['id']}' replaces the whole item and drops "
                                                   f"{', '.join(dropped)} (restate what it keeps)"))
        self._dropped_neighbours(old, new, origin.span("/replace", key=True))

    def _dropped_neighbours(self, old: dict[str, Any], new: dict[str, Any], span: Span) -> None:
        gone = [n for n in old.get("neighbors") or [] if n not in (new.get("neighbors") or [])]
        if gone:
            self.loaded.diagnostics.append(warning(span, "X510",
                                                   f"'{new['id']}' no longer lists {', '.join(map(str, gone))} as "
                                                   "neighbours, but an edge the other territory or 'edges' lists "
                                                   "stays: neighbours are symmetric"))


def load_game_folder(base: Path, packs: list[Path] | None = None) -> Loaded:
    """Load a game (a folder, or one YAML file), then each pack on top of it; no semantic checks yet."""
    loaded = Loaded(game=None)
    merger = Merger(loaded)
    all_files: list[Path] = []
    for n, source in enumerate([base, *(packs or [])]):
        files, problems = pack_paths(source)
        docs, load_problems = load_documents(files)
        loaded.diagnostics.extend(problems + load_problems)
        for path, doc in zip(files, docs, strict=True):
            if doc.data is None and doc.diagnostics:
                loaded.unreadable[doc.file] = ids_in_text(path)
        layer = "base"
        if n:
            layer = pack_identity(docs) or source.name
            merger.game.packs.append(layer)
            loaded.pack_files.update(d.file for d in docs)
        for doc in docs:
            merger.add(doc, layer)
        if any(declares_sources(doc.data) for doc in docs):
            loaded.cites_declared.update(doc.file for doc in docs)
        all_files.extend(files)
    merger.rename_cards()
    merger.apply_step_patches()
    game = merger.game
    resolve_game(game)
    root = base if base.is_dir() else base.parent
    if not game.id:
        game.id = base.name if base.is_dir() else base.stem
    game.fingerprint = fingerprint(all_files, root)
    return loaded


_ID_IN_TEXT = re.compile(r"(?:^|[\s{,-])id:[ \t]*[\"']?([a-z0-9]+(?:-[a-z0-9]+)*)", re.MULTILINE)


def ids_in_text(path: Path) -> set[str]:
    """The ids a YAML file that could not be parsed seems to define (`id: x` anywhere in its text)."""
    try:
        from scarbook.kernel.yamlload import read_capped

        return set(_ID_IN_TEXT.findall(read_capped(path, MAX_SCAN_BYTES)[:MAX_SCAN_BYTES].decode("utf-8", "replace")))
    except OSError:
        return set()


MAX_SCAN_BYTES = 4 * 1024 * 1024


def pack_paths(pack: Path) -> tuple[list[Path], list[Diagnostic]]:
    if pack.is_dir():
        return content_files(pack)
    return [pack], []


def pack_identity(docs: list[Document]) -> str | None:
    for doc in docs:
        if isinstance(doc.data, dict) and isinstance(doc.data.get("pack"), dict):
            pid = doc.data["pack"].get("id")
            return str(pid) if pid else None
    return None


def pack_extends(docs: list[Document]) -> tuple[str | None, Document | None]:
    for doc in docs:
        if isinstance(doc.data, dict) and isinstance(doc.data.get("pack"), dict):
            ext = doc.data["pack"].get("extends")
            return (str(ext) if isinstance(ext, str) else None), doc
    return None, None
