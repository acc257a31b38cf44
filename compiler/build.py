"""`scarbook build`: plan every output of every game, render only what changed, in parallel.

Outputs per game, under OUT/<game>/: `reference.pdf` + `reference.html` (the player aid, at most two
pages: compiler/aid.py), `cards.pdf` (games with printable cards), `stickers.pdf` (games with stickers),
`tables/<id>.{md,csv,json}`, and when asked for (`--only digest`, `--digest`) `digest.pdf` +
`digest.html`: every rule table in full, with its sources.

Incremental: each output has dependencies (the content items it uses, the templates, the
settings), each hashed; `OUT/.scarbook-manifest.json` records them. An output whose hashes and
files are unchanged is skipped; otherwise the build says why it renders it. Planning is pure
Python: a no-op build never imports WeasyPrint or Jinja2 (they load in `render_job` only).

Untrusted packs: card images must be files inside the card's own pack folder; text holding
HTML markup is refused; the PDF renderer's URL fetcher refuses anything else. Problems are
diagnostics (codes B…) at the content line, never tracebacks. Nothing is written outside OUT.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.compiler import sheets as sheetmod
from scarbook.compiler import tables as tablemod
from scarbook.compiler.model import Game, singular
from scarbook.compiler.printable import check_content, image_path
from scarbook.compiler.sizes import PAPER_MM
from scarbook.compiler.tasks import JobArgs, JobResult, Problem, Worker, choose
from scarbook.kernel.diagnostics import Diagnostic, Span, error

#: Bump when the manifest's format changes. Changes to the templates or to the rendering code
#: (`RENDER_CODE`) are noticed from their bytes. RENDER_CODE is every module of the compiler the
#: build and its renderers import, directly or not (tests/test_render_code.py derives the list from
#: the imports and fails when a module is missing).
BUILD_VERSION = "1"
RENDER_CODE = ("scarbook.compiler.aid", "scarbook.compiler.boardmap", "scarbook.compiler.build",
               "scarbook.compiler.compiled", "scarbook.compiler.deprecations", "scarbook.compiler.editions",
               "scarbook.compiler.load", "scarbook.compiler.model", "scarbook.compiler.printable",
               "scarbook.compiler.schema", "scarbook.compiler.schemacheck", "scarbook.compiler.sheets",
               "scarbook.compiler.sizes", "scarbook.compiler.sources", "scarbook.compiler.stickerfit",
               "scarbook.compiler.tables", "scarbook.compiler.tasks",
               "scarbook.compiler.words", "scarbook.compiler.render",
               "scarbook.compiler.render.fitmemo", "scarbook.compiler.render.html", "scarbook.compiler.render.join",
               "scarbook.compiler.render.pdf",
               "scarbook.compiler.render.raster", "scarbook.kernel.atomic", "scarbook.kernel.cachedir",
               "scarbook.kernel.diagnostics", "scarbook.kernel.outputs",
               "scarbook.kernel.paths", "scarbook.kernel.sha", "scarbook.kernel.trust",
               "scarbook.kernel.yamldoc", "scarbook.kernel.yamlload", "scarbook.kernel.yamlparse")
MANIFEST = ".scarbook-manifest.json"
#: What a build without `--only` renders: everything but the full digest (`--only digest`, or `--digest`).
DEFAULT_OUTPUTS = frozenset({"reference", "tables", "cards", "stickers"})
TABLE_FORMATS = {"md": tablemod.to_markdown, "csv": tablemod.to_csv, "json": tablemod.to_json}


def _hash(data: Any) -> str:
    raw = data if isinstance(data, bytes) else json.dumps(data, sort_keys=True, ensure_ascii=False,
                                                         default=str).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def module_file(name: str) -> Path:
    """The source file of module `name` (found without importing it)."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin, name
    return Path(spec.origin).resolve()


def templates_hash() -> str:
    from scarbook.templates import TEMPLATE_DIR

    digest = hashlib.sha256(BUILD_VERSION.encode())
    for path in sorted(TEMPLATE_DIR.rglob("*")):
        if path.is_file() and path.suffix in (".j2", ".css", ".ttf", ".html"):
            digest.update(path.relative_to(TEMPLATE_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    for name in RENDER_CODE:  # a change to how pages are drawn re-renders them too
        digest.update(name.encode())
        digest.update(module_file(name).read_bytes())
    return digest.hexdigest()[:16]


@dataclass
class Output:
    """One output of one game: its files, what it depends on, and how to render it."""

    game: str
    name: str
    files: list[str]  # relative to OUT, posix
    deps: dict[str, str]
    job: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.game}/{self.name}"


def _item_deps(game: Game, ids: list[str]) -> dict[str, str]:
    deps = {}
    for item_id in ids:
        found = game.item(item_id)
        if found:
            deps[f"{singular(found[0])} '{item_id}'"] = _hash(found[1])
    return deps


def roots_for(game: Game) -> list[str]:
    from scarbook.templates import TEMPLATE_DIR

    folders = {str(Path(f).resolve().parent) for f in game.files}
    return [str(TEMPLATE_DIR)] + sorted(folders)


def out_folder(game: Game, campaign: str | None = None) -> str:
    """The folder (under OUT) of a game's outputs: `<game>`, or `<game>+<pack>...` with packs merged, so a build
    with a pack never replaces the build without it. A campaign's build stays in `<game>`."""
    if campaign or not game.packs:
        return game.id
    return "+".join([game.id, *("".join(c if c.isalnum() or c in "-_." else "-" for c in p) for p in game.packs)])


def boardmap_inputs(game: Game) -> list[Any]:
    """What the locator map on the territory cards is drawn from besides the board: each territory's
    place and regions, and the regions' order (their colours)."""
    return [[(tid, t.get("layout"), t.get("regions")) for tid, t in game.section("territories").items()],
            list(game.section("regions"))]


def plan_game(game: Game, paper: str, campaign: str | None, templates: str,
              gutter: float = sheetmod.DEFAULT_GUTTER_MM) -> list[Output]:
    """Every output of one game, with its dependencies and render job (pure; cheap). `gutter` (mm
    between the cards of a card sheet) is a dependency of the card sheet only."""
    settings = {"settings": _hash([BUILD_VERSION, paper, campaign or ""]), "templates": templates}
    header = {"game": _hash([game.id, game.meta, game.packs])}
    tables = tablemod.rule_tables(game)
    uses = list(dict.fromkeys(u for t in tables for u in t.uses))
    tables_data = [t.to_json() for t in tables]
    out: list[Output] = []
    g = out_folder(game, campaign)
    board = {"board": _hash([game.board, game.edges])} if game.section("territories") else {}
    ref_deps = {**settings, **header, **board, **_item_deps(game, uses), "tables": _hash(tables_data)}
    # `reference` is the player aid (at most two pages); `digest` every table in full (built when asked for)
    aid_deps = {**settings, **header, **board, "aid": _hash([game.sections, game.meta, game.reached, game.over,
                                                                       game.standing])}
    out.append(Output(g, "reference", [f"{g}/reference.pdf", f"{g}/reference.html"], aid_deps,
                      {"kind": "aid", "game": game, "paper": paper, "campaign": campaign}))
    out.append(Output(g, "digest", [f"{g}/digest.pdf", f"{g}/digest.html"], ref_deps,
                      {"kind": "reference", "game": game, "tables": tables, "paper": paper, "campaign": campaign}))
    table_files = [f"{g}/tables/{t.id}.{ext}" for t in tables for ext in TABLE_FORMATS]
    out.append(Output(g, "tables", table_files,
                      {"settings": settings["settings"], **_item_deps(game, uses), "tables": _hash(tables_data)},
                      {"kind": "tables", "tables": tables}))
    cards = sheetmod.printable_cards(game)
    if cards:
        card_ids = list(dict.fromkeys(c["id"] for c in cards))
        deck_ids = list(dict.fromkeys(c["deck_id"] for c in cards))
        images = {}
        for c in cards:
            if isinstance(c.get("image"), str) and not c["image"].startswith("data:"):
                path, _ = image_path(game, c["id"], c["image"])
                if path:
                    images[f"image of '{c['id']}'"] = _hash(path.read_bytes())
        located = {"board": _hash([game.board, game.edges, boardmap_inputs(game)])} \
            if any(c.get("spot") for c in cards) else {}
        deps = {**settings, **header, **_item_deps(game, deck_ids + card_ids), **images, **located,
                "cards": _hash(cards), **({"gutter": _hash(gutter)} if gutter else {})}
        out.append(Output(g, "cards", [f"{g}/cards.pdf"], deps,
                          {"kind": "cards", "game": game, "cards": cards, "paper": paper, "gutter": gutter,
                           "parts": sheetmod.part_count(len(cards))}))
    stickers = sheetmod.sticker_items(game)
    if stickers:
        ids = list(dict.fromkeys(s["id"] for s in stickers))
        deps = {**settings, **header, **_item_deps(game, ids), "stickers": _hash(stickers)}
        out.append(Output(g, "stickers", [f"{g}/stickers.pdf"], deps,
                          {"kind": "stickers", "game": game, "stickers": stickers, "paper": paper}))
    return out


# --- the manifest -------------------------------------------------------------------------------
def load_manifest(out_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((out_dir / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != BUILD_VERSION:
        return {}
    outputs = data.get("outputs")
    return outputs if isinstance(outputs, dict) else {}


def save_manifest(out_dir: Path, outputs: dict[str, Any]) -> None:
    from scarbook.kernel.atomic import replace_file

    data = {"version": BUILD_VERSION, "outputs": dict(sorted(outputs.items()))}
    replace_file(out_dir / MANIFEST, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())


def recorded_files(out_dir: Path) -> set[str]:
    """Every file an earlier build recorded in `out_dir`'s manifest, whatever the manifest's version."""
    try:
        data = json.loads((out_dir / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return set()
    outputs = data.get("outputs") if isinstance(data, dict) else None
    return {f for entry in (outputs.values() if isinstance(outputs, dict) else []) if isinstance(entry, dict)
            for f in (entry.get("files") or []) if isinstance(f, str)}


def refuse_foreign(out_dir: Path, files: list[str], force: bool) -> None:
    """OutputRefused (nothing written) when one of `files` exists in `out_dir` and is not a regular file, or is
    one that no earlier build recorded (its manifest) and that carries no scarbook mark, unless `force`."""
    import stat

    from scarbook.kernel.outputs import OutputRefused, is_scarbook_output

    recorded = recorded_files(out_dir) if not force else set()
    for rel in files:
        path = out_dir / rel
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise OutputRefused(f"{path}: {exc.strerror}; nothing was written: choose another --out") from None
        if not stat.S_ISREG(st.st_mode):
            raise OutputRefused(f"{path} exists and is not a regular file (a folder, link, FIFO or device); nothing "
                                "was written: remove it, or choose another --out")
        if not force and rel not in recorded and not is_scarbook_output(path):
            raise OutputRefused(f"{path} exists and is not a previous output of scarbook; nothing was written: "
                                "choose another --out, or add --force to replace it")


def remove_stale(out_dir: Path, recorded: Any, files: list[str]) -> None:
    """Remove files the manifest says an earlier build wrote that this one no longer writes (only those)."""
    if not isinstance(recorded, list):
        return
    for rel in recorded:
        if not isinstance(rel, str) or rel in files:
            continue
        try:
            path = _safe_out(out_dir, rel)
        except (ValueError, OSError):
            continue
        if path != out_dir.resolve() / rel:  # a link on the way (`path` is resolved): not the file the build wrote
            continue
        with contextlib.suppress(OSError):
            if path.is_file():
                path.unlink()


def why_rebuild(output: Output, recorded: dict[str, Any] | None, out_dir: Path) -> list[str]:
    """Why an output must be rendered again; empty when it is up to date."""
    if not recorded:
        return ["not built yet"]
    missing = [f for f in output.files if not (out_dir / f).is_file()]
    if missing:
        return [f"{missing[0]} is missing"]
    old = recorded.get("deps", {})
    if sorted(recorded.get("files", [])) != sorted(output.files):
        return ["its list of files changed"]
    reasons = []
    for label, digest in output.deps.items():
        if label not in old:
            reasons.append(f"{label} added")
        elif old[label] != digest:
            reasons.append(f"{label} changed")
    reasons += [f"{label} removed" for label in old if label not in output.deps]
    if len(reasons) > 1:  # the aggregate hashes only matter when nothing more precise changed
        precise = [r for r in reasons if not r.startswith(("tables ", "cards ", "stickers "))]
        reasons = precise or reasons
    if len(reasons) > 4:
        reasons = reasons[:4] + [f"and {len(reasons) - 4} more"]
    return reasons


# --- rendering (in worker processes) ------------------------------------------------------------
def _safe_out(out_dir: Path, rel: str) -> Path:
    path = (out_dir / rel).resolve()
    if out_dir.resolve() not in path.parents:
        raise ValueError(f"refusing to write {rel} outside {out_dir}")
    return path


def _fonts_beside(html_file: Path) -> None:
    """The fonts an HTML output's `@font-face` rules load (`url(fonts/...)`), copied into a `fonts` folder beside
    it (with their licence), so that the page a browser shows or prints is set in the fonts of the PDF."""
    from scarbook.kernel.atomic import replace_file
    from scarbook.templates import TEMPLATE_DIR

    folder = html_file.parent / "fonts"
    folder.mkdir(exist_ok=True)
    for font in sorted((TEMPLATE_DIR / "fonts").iterdir()):
        target = folder / font.name
        if font.suffix in (".ttf", ".txt") and (not target.exists() or target.stat().st_size != font.stat().st_size):
            replace_file(target, font.read_bytes())


def _with_images(cards: list[dict[str, Any]], game: Game) -> list[dict[str, Any]]:
    result = []
    for c in cards:
        url = None
        if isinstance(c.get("image"), str):
            if c["image"].startswith("data:image/"):
                url = c["image"]
            else:
                path, _ = image_path(game, c["id"], c["image"])
                url = path.as_uri() if path else None
        result.append({**c, "image_url": url})
    return result


def estimated_seconds(output: Output) -> float:
    """A rough guess of how long one task of `output` takes to render (only its order matters):
    reference sheets grow with their table rows, card sheets with their cards."""
    job = output.job
    if output.name == "reference":
        return 1.5
    if output.name == "digest":
        return 1.0 + 0.03 * sum(len(t.rows) for t in job["tables"]) + (1.0 if job["game"].section("territories")
                                                                        else 0.0)
    if output.name == "cards":
        return 0.5 + 0.012 * len(job["cards"]) / job.get("parts", 1)
    if output.name == "stickers":
        return 0.5 + 0.005 * len(job["stickers"])
    return 0.0


def aid_versions(game: Game, paper: str, campaign: str | None) -> Iterator[str]:
    """The player aid's versions (HTML), from the fullest to the shortest, each made only when asked for: the
    full one, then a smaller board, then smaller and closer text with every word kept, then shorter texts."""
    from scarbook.compiler.aid import LEVELS, map_marks
    from scarbook.compiler.boardmap import board_svg, legend, map_withheld, mark_legend, view_width_for
    from scarbook.compiler.render import html as htmlmod

    withheld = map_withheld(game)
    # the picture's printed box in aid.css: the page less 11 mm each side, at most 112 mm tall
    view = view_width_for(game, PAPER_MM[paper][0] - 22, 112)
    marks = map_marks(game)
    svg = None if withheld else board_svg(game, marks, view_width=view, compact=True)  # type: ignore[arg-type]
    keys = [] if withheld else legend(game)
    icons = [] if withheld else mark_legend(marks)
    picture = svg
    for level in range(LEVELS):
        if level in (1, 3) and svg is not None:  # the board drawn smaller (aid.css: 88 mm, then 84 mm in
            # body.tight), its text as large
            picture = board_svg(game, marks, view_width=view_width_for(
                game, PAPER_MM[paper][0] - 22, 88 if level == 1 else 84), compact=True)  # type: ignore[arg-type]
        yield htmlmod.aid_html(game, paper, picture, keys, campaign, level,
                               withheld if game.section("territories") else None, icons)


def render_job(job: dict[str, Any], files: list[str], out_dir: str) -> JobResult:
    """Render one output (or one part of it) to its files; runs in a worker.

    A part of a long card sheet (`job["part"]` = (index, count)) is not written: its PDF comes
    back to the build, which joins the parts.
    """
    started = time.perf_counter()
    from scarbook.compiler.render import html as htmlmod
    from scarbook.compiler.render.pdf import UnsafeResource
    from scarbook.kernel.atomic import replace_file

    out = Path(out_dir)
    kind = job["kind"]
    index, count = job.get("part", (0, 1))
    # A layout makes millions of objects and keeps most of them to the end: the cyclic collector's passes
    # over them cost about a fifth of the CPU and free nothing. Paused for the job; after it, one pass frees
    # the layout (its objects hold one another), except in a worker, which usually ends after its job: there
    # the collector stays paused (the pass cost about 10 % of a 500-card sheet's CPU) and the pass is made
    # only if another job comes to this worker.
    if Worker.paused:
        gc.collect()
        gc.enable()
        Worker.paused = False
    collecting = gc.isenabled() and kind != "tables"
    if collecting:
        gc.disable()
    try:
        if kind == "tables":
            write_tables(out, files, job["tables"])
            return JobResult([], time.perf_counter() - started, None)
        game: Game = job["game"]
        paper = job["paper"]
        pages: list[int] | None = None  # every laid-out page once, in order
        boxes: list[Any] | None = None  # a card sheet's TrimBox and BleedBox per printed page
        if kind == "aid":
            from scarbook.compiler.aid import MAX_PAGES
            from scarbook.compiler.render.pdf import render_fitting
            from scarbook.templates import TEMPLATE_DIR

            fitted = render_fitting(aid_versions(game, paper, job.get("campaign")), [Path(r) for r in roots_for(game)],
                                    TEMPLATE_DIR, MAX_PAGES)
            data = fitted.data
            replace_file(_safe_out(out, files[1]), fitted.html.encode())
            _fonts_beside(_safe_out(out, files[1]))
            replace_file(_safe_out(out, files[0]), data)
            return JobResult([], time.perf_counter() - started, None)
        if kind == "reference":
            from scarbook.compiler.boardmap import board_svg, legend, map_withheld, view_width_for

            withheld = map_withheld(game)
            view = view_width_for(game, PAPER_MM[paper][0] - 26)  # reference.css: 13 mm margins
            html = htmlmod.reference_html(game, job["tables"], paper,
                                          None if withheld else board_svg(game, view_width=view),
                                          [] if withheld else legend(game), job.get("campaign"),
                                          withheld if game.section("territories") else None)
            replace_file(_safe_out(out, files[1]), html.encode())
            _fonts_beside(_safe_out(out, files[1]))
        elif kind == "cards":
            from scarbook.compiler.boardmap import locator_svg

            sheets = sheetmod.card_sheets(_with_images(job["cards"], game), paper,
                                          job.get("gutter", sheetmod.DEFAULT_GUTTER_MM))
            locator = locator_svg(game) if any(c.get("spot") for c in job["cards"]) else None
            part = sheetmod.split_sheets(sheets, count)[index]
            html, pages = htmlmod.card_sheets_html(game.title, part, paper, locator)
            boxes = [sheetmod.trim_boxes(sheet) for sheet in part]
        else:
            sheets = sheetmod.sticker_sheets(job["stickers"], paper)
            html = htmlmod.sheets_html("stickers.html.j2", game.title, sheets, paper)
        from scarbook.compiler.render.pdf import render_pdf
        from scarbook.templates import TEMPLATE_DIR

        data = render_pdf(html, [Path(r) for r in roots_for(game)], TEMPLATE_DIR, pages, boxes)
        if count > 1:
            return JobResult([], time.perf_counter() - started, data)
        replace_file(_safe_out(out, files[0]), data)
    except UnsafeResource as exc:
        return JobResult([Problem("B310", str(exc))], time.perf_counter() - started, None)
    except Exception as exc:  # a crashing renderer becomes a diagnostic, never a traceback
        return JobResult([Problem("B399", f"rendering {kind} failed: {type(exc).__name__}: {exc}")],
                         time.perf_counter() - started, None)
    finally:
        if collecting:
            if Worker.dedicated:
                Worker.paused = True
            else:
                gc.enable()
    return JobResult([], time.perf_counter() - started, None)


def preload_renderers() -> None:
    """Import WeasyPrint and compile the templates before the workers fork: each worker then starts
    with them loaded (about 0.3 s of CPU each that no worker pays again)."""
    from scarbook.compiler.render import html as htmlmod
    from scarbook.compiler.render.pdf import load_weasyprint

    load_weasyprint()

    env = htmlmod.environment()
    for name in ("cards.html.j2", "aid.html.j2", "reference.html.j2", "stickers.html.j2"):
        env.get_template(name)


def write_tables(out: Path, files: list[str], tables: list[tablemod.Table]) -> None:
    from scarbook.kernel.atomic import replace_file

    for table in tables:
        for ext, fmt in TABLE_FORMATS.items():
            rel = f"{files[0].split('/tables/')[0]}/tables/{table.id}.{ext}"
            replace_file(_safe_out(out, rel), fmt(table).encode())
    # Files of tables no longer in the content are removed by `build` from what the previous
    # manifest says it wrote (`remove_stale`): the user's own files in that folder are never touched.


# --- the build --------------------------------------------------------------------------------
@dataclass
class BuildResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)
    up_to_date: list[str] = field(default_factory=list)


def build(games: list[Game], out_dir: Path, *, jobs: int | None = None, paper: str = "a4",
          campaign: str | None = None, progress: Callable[[str], None] = lambda line: None,
          step: Callable[[int, int], None] = lambda done, total: None, only: set[str] | None = None,
          gutter: float = sheetmod.DEFAULT_GUTTER_MM, force: bool = False) -> BuildResult:
    """Build every output of `games` into `out_dir`, rendering only what changed.

    `progress` gets a line per output to render (with why) and per output done; `step` gets
    (tasks done, tasks) as each task (an output, or a part of a long card sheet) finishes.
    `only` limits the build to outputs of those names ("reference", "digest", "tables", "cards", "stickers");
    without it every output but the digest is built (`DEFAULT_OUTPUTS`).
    `gutter` is the space between the cards of the card sheets (mm).
    An existing file where an output goes that no earlier build recorded and that carries no scarbook mark is
    not replaced without `force` (`scarbook.kernel.outputs.OutputRefused`, before anything is written).
    """
    result = BuildResult()
    for game in games:
        result.diagnostics += check_content(game)
    if any(d.is_error for d in result.diagnostics):
        return result
    manifest = load_manifest(out_dir)
    todo, result.up_to_date = plan_todo(games, paper, campaign, gutter, only, manifest, out_dir)
    if not todo:
        return result
    refuse_foreign(out_dir, [f for output, _ in todo for f in output.files], force)
    out_dir.mkdir(parents=True, exist_ok=True)
    if not (out_dir / MANIFEST).exists():  # the folder is a build's from now on, even if this one is interrupted
        save_manifest(out_dir, manifest)
    for output, reasons in todo:
        progress(f"{output.key}: rendering ({'; '.join(reasons)})")
    tasks = [(output, part) for output, _ in todo for part in range(output.job.get("parts", 1))]
    results: dict[str, JobResult] = {}
    pieces: dict[str, dict[int, JobResult]] = {}

    def finished(task: tuple[Output, int], res: JobResult) -> None:
        output, part = task
        parts = output.job.get("parts", 1)
        got = pieces.setdefault(output.key, {})
        got[part] = res
        step(sum(len(p) for p in pieces.values()), len(tasks))
        if len(got) < parts:
            return
        joined = JobResult([p for r in got.values() for p in r.problems], sum(r.seconds for r in got.values()), None)
        if parts > 1 and not joined.problems:
            from scarbook.compiler.render.join import join_pdfs
            from scarbook.kernel.atomic import replace_file

            replace_file(_safe_out(out_dir, output.files[0]), join_pdfs([got[i].data or b"" for i in range(parts)]))
        results[output.key] = joined
        status = "failed" if joined.problems else "done"
        progress(f"[{len(results)}/{len(todo)}] {output.key} {status} ({joined.seconds:.1f} s)")

    def job_args(task: tuple[Output, int]) -> JobArgs:
        """The arguments of `render_job` for one task (a part knows which one it is)."""
        output, part = task
        job = {**output.job, "part": (part, output.job["parts"])} if output.job.get("parts", 1) > 1 else output.job
        return job, output.files, str(out_dir)

    # the tables are written here (no renderer); the rest, the longest first, so that no worker is left alone
    # with a long one at the end
    heavy = sorted((t for t in tasks if t[0].name != "tables"), key=lambda t: -estimated_seconds(t[0]))
    for task in tasks:
        if task[0].name == "tables":
            finished(task, render_job(*job_args(task)))
    if heavy:
        strategy = choose(jobs or os.cpu_count() or 1, len(heavy), preload_renderers)
        strategy.run(heavy, job_args, render_job, finished)
    record(result, todo, results, manifest, out_dir, {out_folder(g, campaign): g for g in games})
    save_manifest(out_dir, manifest)
    return result


def plan_todo(games: list[Game], paper: str, campaign: str | None, gutter: float, only: set[str] | None,
              manifest: dict[str, Any], out_dir: Path) -> tuple[list[tuple[Output, list[str]]], list[str]]:
    """The outputs to render (each with why) and the keys of those already up to date."""
    templates = templates_hash()
    outputs = [o for game in games for o in plan_game(game, paper, campaign, templates, gutter)
               if (o.name in only if only is not None else o.name in DEFAULT_OUTPUTS)]
    todo: list[tuple[Output, list[str]]] = []
    up_to_date: list[str] = []
    for output in outputs:
        reasons = why_rebuild(output, manifest.get(output.key), out_dir)
        if reasons:
            todo.append((output, reasons))
        else:
            up_to_date.append(output.key)
    return todo, up_to_date


def record(result: BuildResult, todo: list[tuple[Output, list[str]]], results: dict[str, JobResult],
           manifest: dict[str, Any], out_dir: Path, by_game: dict[str, Game]) -> None:
    """Each rendered output into the manifest (and its stale files away); each problem a diagnostic at its
    game's first content file."""
    for output, _ in todo:
        problems = results[output.key].problems
        if problems:
            span = Span(by_game[output.game].files[0] if by_game[output.game].files else output.game)
            for problem in problems:
                result.diagnostics.append(error(span, problem.code, f"{output.key}: {problem.message}"))
            manifest.pop(output.key, None)
        else:
            result.rendered.append(output.key)
            old = manifest.get(output.key) or {}
            remove_stale(out_dir, old.get("files") if isinstance(old, dict) else None, output.files)
            manifest[output.key] = {"files": output.files, "deps": output.deps}
