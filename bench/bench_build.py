"""Benchmark of `scarbook build`, each figure against a reference command run in turn with it.

Run: .venv/bin/python bench/bench_build.py [--runs N] [--sizes 100,500,2000] [--quick | --shipped]

- Card sheets (issue 15, item 5; target CPU <= 1.0 x): a homebrew game of N printable cards built with
  `scarbook build GAME --only cards` (calibration pair, fronts, mirrored backs) against one plain
  WeasyPrint document of the same cards (name, text, stats in a 63 x 88 mm box), laid out 9 to an A4
  page as the sheets are. Both are whole commands: each pays for starting Python and importing
  WeasyPrint. Cold: the output folder and the whole cache folder (content cache, compiled validator)
  are emptied before each run; warm: the caches are full, only the output is removed (so it renders).
- The same game's whole build (reference sheet with its card list, tables, cards), cold.
- The four shipped games' default build (player aid, tables, cards), cold (issue 25: target CPU and wall
  <= 2 x the plain 500-card document), the same with `--digest` (every table in full as well), and the
  no-op build (nothing changed) against `python -c "import typer, yaml"`. `--shipped` runs only these.
- The renderer's floor (issue 34: target CPU <= 1.15 x, wall <= 0.6 x the floor's CPU on two cores): the
  four shipped games' default build, cold, against WeasyPrint rendering the very HTML documents that build
  produces (dumped with SCARBOOK_DUMP_HTML: each card-sheet part, the aid in the version kept, the digest
  when built), each in turn in one plain Python process, with the same fonts and base folder. What is left
  over is scarbook's own cost: starting, loading and validating content, planning, laying the aid out more
  than once, pickling results between workers, joining parts. `--floor` runs only this row, and then where
  the build's CPU goes: the same build run once in one process under cProfile (every task in the build's own
  process, not forked), its own time per function summed by where the function lives (the renderer and its
  libraries, templates, content loading and checking, scarbook's planning and aid fitting, PDF joining, imports),
  and how many documents WeasyPrint laid out against the documents the build wrote.

Every timed command must exit 0, or the benchmark stops (benchlib.run_command). Ratios are medians of
pair-by-pair ratios (CPU: user + system of the command and its worker processes; wall: elapsed);
machines here are shared and noisy, so read the ratios, not the milliseconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchlib import Paired, compile_sources, ms, paired, print_table, run_command

SCARBOOK = str(Path(sys.executable).parent / "scarbook")
PER_PAGE = 9  # 3 x 3 poker cards on A4, as the card sheets lay them out


def generated_game(folder: Path, n: int) -> Path:
    """A homebrew game with one deck of `n` printable cards (a strength and a bounty each)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["game: {id: bench, title: Bench, legacy: false, players: {min: 2, max: 4}}",
             "decks:", f"  - {{id: generated, name: Generated, count: {n}}}", "cards:"]
    for i in range(n):
        lines.append(f"  - {{id: card-{i}, deck: generated, name: Card {i}, type: test, "
                     f"stats: {{strength: {i % 5}, bounty: {i % 3}}}, "
                     f"text: 'Generated card number {i}: draw one card, then discard one card.'}}")
    (folder / "game.yaml").write_text("\n".join(lines) + "\n")
    return folder


def plain_html(n: int) -> str:
    """The same cards as one plain document: a 63 x 88 mm box per card with its name, text and stats,
    9 to an A4 page (3 x 3: 194 mm of width for three 63 mm boxes, 281 mm of height for three 88 mm)."""
    body = "".join(f'<div class="c"><b>Card {i}</b><p>Generated card number {i}: draw one card, then discard '
                   f'one card.</p><p>strength {i % 5} · bounty {i % 3}</p></div>' for i in range(n))
    return ("<html><head><style>@page{size:A4;margin:8mm} body{margin:0} .c{display:inline-block;"
            "box-sizing:border-box;width:63mm;height:88mm;border:0.3mm solid #999;margin:0;vertical-align:top;"
            "overflow:hidden;font:8pt sans-serif}</style></head>"
            f"<body>{body}</body></html>")


def pdf_pages(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(str(path)).pages)


#: One plain process renders every dumped document in turn: WeasyPrint with its own defaults, nothing else.
FLOOR = ("import pathlib, sys\n"
         "from weasyprint import HTML\n"
         "folder, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])\n"
         "out.mkdir(exist_ok=True)\n"
         "for f in sorted(folder.glob('*.html')):\n"
         "    base = pathlib.Path(f.with_suffix('.base').read_text()).as_uri() + '/'\n"
         "    HTML(string=f.read_text(), base_url=base).write_pdf(out / (f.stem + '.pdf'))\n")


def floor_row(work: Path, env: dict[str, str], runs: int, cold: Callable[[Path], Callable[[], None]],
              rows: list[tuple[str, str, str]]) -> None:
    """The default build of the four shipped games against the renderer's floor (see the docstring)."""
    shipped = [SCARBOOK, "build", "--out", str(work / "floor-build")]
    dump = work / "dump"
    shutil.rmtree(dump, ignore_errors=True)
    cold(work / "floor-build")()
    run_command(shipped, env=dict(env, SCARBOOK_DUMP_HTML=str(dump)))
    documents = len(list(dump.glob("*.html")))
    floor = [sys.executable, "-c", FLOOR, str(dump), str(work / "floor-pdf")]
    result = paired(shipped, floor, runs, env=env, before=cold(work / "floor-build"))
    rows.append((f"WeasyPrint alone, the build's {documents} HTML documents in one process (the floor)",
                 ms(result.reference), ""))
    wall_of_floor_cpu = result.command.wall / max(result.reference.cpu, 1e-6)
    rows.append(("scarbook build, the four shipped games, cold, against the floor", ms(result.command),
                 f"CPU {result.cpu_ratio:.2f} x (target <= 1.15 x), wall {wall_of_floor_cpu:.2f} x the floor's CPU "
                 f"(target <= 0.6 x on two cores); load average {' '.join(f'{v:.1f}' for v in os.getloadavg())}"))


#: The build of the four shipped games in this process, every render task in it (`InProcess`), under cProfile.
PROFILED = ("import cProfile, sys\n"
            "from scarbook.compiler import tasks\n"
            "tasks.choose = lambda *args, **kwargs: tasks.InProcess()\n"
            "target, out = sys.argv[1], sys.argv[2]\n"
            "sys.argv = ['scarbook', 'build', '--out', out]\n"
            "from scarbook.cli.main import app\n"
            "profile = cProfile.Profile()\n"
            "try:\n"
            "    profile.runcall(app)\n"
            "except SystemExit as done:\n"
            "    assert not done.code, done.code\n"
            "profile.dump_stats(target)\n")

#: Where a function lives -> the share it counts in (first match wins; paths as cProfile names them).
BUCKETS = (
    ("WeasyPrint and its libraries (layout, fonts, PDF)", ("/weasyprint/", "/tinycss2/", "/cssselect2/", "/pydyf/",
                                                           "/fontTools/", "/PIL/", "/html5lib/", "/pyphen/",
                                                           "/cffi/", "/webencodings/", "/zopfli/", "/brotli",
                                                           "/tinyhtml5/")),
    ("Jinja2 templates", ("/jinja2/", "/markupsafe/")),
    ("content: YAML, schema and semantic checks", ("/compiler/validate.py", "/compiler/load.py",
                                                   "/compiler/semantic", "/compiler/schema", "/compiler/compiled.py",
                                                   "/compiler/generated/", "/compiler/editions.py",
                                                   "/compiler/printable.py", "/kernel/yaml", "/yaml/")),
    ("PDF joining (pypdf)", ("/pypdf/",)),
    ("scarbook's planning, aid fitting, board layout", ("/compiler/", "/campaign/", "/kernel/", "/scarbook/")),
    ("imports (loading modules)", ("<frozen importlib", "{built-in method marshal", "{built-in method _imp.")),
)


def where_rows(work: Path, env: dict[str, str], cold: Callable[[Path], Callable[[], None]],
               rows: list[tuple[str, str, str]]) -> None:
    """Where the default build's CPU goes (see the docstring): shares of the profiled run's own time."""
    import pstats

    prof, out = work / "build.prof", work / "where-build"
    cold(out)()  # as the floor row's build: no outputs, no caches
    run_command([sys.executable, "-c", PROFILED, str(prof), str(out)], env=env)
    stats = pstats.Stats(str(prof)).stats  # type: ignore[attr-defined]
    shares = {name: 0.0 for name, _ in BUCKETS} | {"everything else (Python's own library, the CLI)": 0.0}
    renders = 0
    def bucket(file: str, func: str) -> str:
        where = f"{file} {func}"
        return next((name for name, marks in BUCKETS if any(m in where for m in marks)),
                    "everything else (Python's own library, the CLI)")

    for (file, _line, func), (_cc, calls, own, _cum, callers) in stats.items():
        if file == "~" and callers and not func.startswith(("<built-in method marshal", "<built-in method _imp.")):
            for (cfile, _cline, cfunc), (_ccc, _cnc, ctt, _cct) in callers.items():  # a built-in: its callers'
                shares[bucket(cfile, cfunc)] += ctt
        else:
            shares[bucket(file, func)] += own
        if file.endswith("/weasyprint/__init__.py") and func == "render":
            renders += calls
    total = sum(shares.values()) or 1.0
    documents = len([p for p in out.rglob("*") if p.suffix in (".pdf", ".html", ".svg")])
    rows.append((f"where the build's own time goes (one process, profiled: {total:.1f} s)", "",
                 f"WeasyPrint laid out {renders} documents for the {documents} files written"))
    for name, own in sorted(shares.items(), key=lambda item: -item[1]):
        rows.append((f"  {name}", f"{own:.2f} s", f"{100 * own / total:.0f} %"))


def main() -> None:
    compile_sources()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="paired runs per measurement (medians)")
    parser.add_argument("--sizes", default="100,500,2000", help="card counts of the card-sheet rows")
    parser.add_argument("--quick", action="store_true", help="card sheets only, cold only (no shipped games)")
    parser.add_argument("--shipped", action="store_true", help="only the shipped games against the plain document")
    parser.add_argument("--floor", action="store_true", help="only the default build against the renderer's floor")
    args = parser.parse_args()
    runs = max(1, args.runs)
    sizes = [] if args.shipped or args.floor else [int(s) for s in args.sizes.split(",") if s.strip()]
    rows: list[tuple[str, str, str]] = []
    work = Path(tempfile.mkdtemp(prefix="scarbook-bench-"))
    cache = work / "cache"
    env = dict(os.environ, SCARBOOK_CACHE=str(cache))

    def row(what: str, result: Paired, target: str = "", reference: str = "") -> None:
        note = f"{result.ratios()}" + (f" {reference}" if reference else "") + (f" (target {target})" if target
                                                                               else "")
        rows.append((what, ms(result.command), note))

    def cold(out: Path) -> Callable[[], None]:
        def clean() -> None:  # from scratch: no outputs, no cache (content, compiled validator)
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(cache, ignore_errors=True)
        return clean

    def warm(out: Path) -> Callable[[], None]:
        return lambda: shutil.rmtree(out, ignore_errors=True)  # the caches stay; the outputs are rendered again

    def plain_command(n: int) -> list[str]:
        html = work / f"plain-{n}.html"
        html.write_text(plain_html(n))
        pdf = work / f"plain-{n}.pdf"
        cmd = [sys.executable, "-c", "import sys; from weasyprint import HTML; "
               "HTML(filename=sys.argv[1]).write_pdf(sys.argv[2])", str(html), str(pdf)]
        run_command(cmd, env=env)
        pages = pdf_pages(pdf)
        if pages != -(-n // PER_PAGE):  # the reference must be laid out as described, or its figure lies
            raise SystemExit(f"benchmark stopped: the plain {n}-card document has {pages} pages, not "
                             f"{-(-n // PER_PAGE)} ({PER_PAGE} a page)")
        return cmd

    try:
        if args.floor:
            floor_row(work, env, runs, cold, rows)
            where_rows(work, env, cold, rows)
            return
        plain500: list[str] | None = None
        for n in sizes:
            game = generated_game(work / f"game-{n}", n)
            out = work / f"cards-{n}"
            plain = plain_command(n)
            if n == 500:
                plain500 = plain
            build = [SCARBOOK, "build", str(game), "--out", str(out), "--only", "cards"]
            result = paired(build, plain, runs, env=env, before=cold(out))
            rows.append((f"{n} cards, one plain WeasyPrint document, {PER_PAGE} a page (reference)",
                         ms(result.reference), ""))
            row(f"{n} cards, build --only cards, cold", result, "CPU <= 1.0 x", "the plain document")
            if not args.quick:
                run_command(build, env=env)  # fills the caches
                row(f"{n} cards, build --only cards, warm", paired(build, plain, runs, env=env, before=warm(out)),
                    "CPU <= 1.0 x", "the plain document")
            if n == 500 and not args.quick:
                whole = [SCARBOOK, "build", str(game), "--out", str(work / "whole-500")]
                row("500 cards, whole build (reference sheet with the card list, tables, cards), cold",
                    paired(whole, plain, max(1, min(runs, 2)), env=env, before=cold(work / "whole-500")), "",
                    "the plain document")
        if not args.quick:
            plain500 = plain500 or plain_command(500)
            shipped = [SCARBOOK, "build", "--out", str(work / "shipped")]
            if not sizes:
                rows.append((f"500 cards, one plain WeasyPrint document, {PER_PAGE} a page (reference)",
                             ms(run_command(plain500, env=env)), ""))
            row("scarbook build, the four shipped games (player aid, tables, cards), cold",
                paired(shipped, plain500, runs, env=env, before=cold(work / "shipped")),
                "CPU and wall <= 2 x", "the plain 500-card document")
            digest = [*shipped, "--digest"]
            row("scarbook build --digest, the four shipped games (and every table in full), cold",
                paired(digest, plain500, max(1, min(runs, 2)), env=env, before=cold(work / "shipped")), "",
                "the plain 500-card document")
            reference = [sys.executable, "-c", "import typer, yaml"]
            run_command(shipped, env=env)
            noop = paired(shipped, reference, max(runs, 5), env=env)
            rows.append(("python -c 'import typer, yaml' (reference)", ms(noop.reference), ""))
            row("scarbook build, nothing changed (no-op, warm)", noop, "", "python -c 'import typer, yaml'")
            floor_row(work, env, runs, cold, rows)
            where_rows(work, env, cold, rows)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        print_table(rows, ("measurement", "CPU / wall (median)", "ratio (medians of pairs)"))


if __name__ == "__main__":
    main()
