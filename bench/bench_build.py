"""Benchmark of `scarbook build`: full and no-op builds of the shipped games, and a homebrew game
of 500 cards built with `scarbook build --only cards` (print-and-play fronts, mirrored backs,
calibration page) against one plain WeasyPrint document of the same cards, both run as commands
(each pays for starting Python and importing WeasyPrint).

Run: .venv/bin/python bench/bench_build.py [--runs N]. Prints medians of CPU and wall time and the
medians of pair-by-pair ratios against reference commands run in turn with them (machines here are
shared and noisy). "From scratch" empties the output folder and the content cache before each run;
every timed command must exit 0, or the benchmark stops.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchlib import compile_sources, ms, paired, print_table

SCARBOOK = str(Path(sys.executable).parent / "scarbook")


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
    9 to an A4 page (3 x 3, as the card sheets lay them out)."""
    body = "".join(f'<div class="c"><b>Card {i}</b><p>Generated card number {i}: draw one card, then discard '
                   f'one card.</p><p>strength {i % 5} · bounty {i % 3}</p></div>' for i in range(n))
    return ("<html><head><style>@page{size:A4;margin:8mm} body{margin:0} .c{display:inline-block;"
            "box-sizing:border-box;width:63mm;height:88mm;border:0.3mm solid #999;margin:0;vertical-align:top;"
            "overflow:hidden;font:8pt sans-serif}</style></head>"
            f"<body>{body}</body></html>")


def main() -> None:
    compile_sources()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="paired runs per measurement (medians)")
    args = parser.parse_args()
    runs = max(1, args.runs)
    rows: list[tuple[str, str, str]] = []
    work = Path(tempfile.mkdtemp(prefix="scarbook-bench-"))
    cache = work / "cache"
    env = dict(os.environ, SCARBOOK_CACHE=str(cache))
    reference = [sys.executable, "-c", "import typer, yaml"]
    try:
        def scratch(out: Path) -> Callable[[], None]:
            def clean() -> None:  # from scratch: no outputs, no content cache
                shutil.rmtree(out, ignore_errors=True)
                shutil.rmtree(cache, ignore_errors=True)
            return clean

        full = paired([SCARBOOK, "build", "--out", str(work / "out")], reference, max(1, min(runs, 2)), env=env,
                      before=scratch(work / "out"))
        rows.append(("python -c 'import typer, yaml' (reference)", ms(full.reference), ""))
        rows.append(("scarbook build, all shipped games, from scratch", ms(full.command), full.ratios()))
        noop = paired([SCARBOOK, "build", "--out", str(work / "out")], reference, max(runs, 5), env=env)
        rows.append(("scarbook build, nothing changed (no-op, warm)", ms(noop.command), noop.ratios()))

        game = generated_game(work / "bench-game", 500)
        (work / "plain.html").write_text(plain_html(500))
        plain = [sys.executable, "-c", "import sys; from weasyprint import HTML; "
                 "HTML(filename=sys.argv[1]).write_pdf(sys.argv[2])", str(work / "plain.html"), str(work / "plain.pdf")]
        for what, only in (("--only cards (fronts, backs, calibration)", ["--only", "cards"]),
                           ("(also the reference with its card list, tables)", [])):
            cards = paired([SCARBOOK, "build", str(game), "--out", str(work / "cards-out"), *only], plain, runs,
                           env=env, before=scratch(work / "cards-out"))
            if not any(r[0].startswith("500 cards, one plain") for r in rows):
                rows.append(("500 cards, one plain WeasyPrint document, 9 a page (reference)", ms(cards.reference),
                             ""))
            rows.append((f"500 cards from scratch: scarbook build GAME {what}", ms(cards.command),
                         f"{cards.ratios()} the plain document"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print_table(rows, ("measurement", "CPU / wall (median)", "ratio (medians of pairs)"))


if __name__ == "__main__":
    main()
