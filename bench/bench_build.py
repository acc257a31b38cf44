"""Benchmark of `scarbook build`: full and no-op builds of the shipped games, and a homebrew game
of 500 cards built with `scarbook build --only cards` (print-and-play fronts, mirrored backs,
calibration page) against one plain WeasyPrint document of the same cards, both run as commands
(each pays for starting Python and importing WeasyPrint).

Run: .venv/bin/python bench/bench_build.py [--runs N]. Prints medians (wall seconds) and ratios
against reference commands run in the same script (machines here are shared and noisy).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from benchlib import compile_sources, median_time, print_table, run_command

SCARBOOK = str(Path(sys.executable).parent / "scarbook")


def run(*args: str) -> None:
    run_command(args)


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
    """The same cards as one plain document: a box per card with its name, text and stats."""
    body = "".join(f'<div class="c"><b>Card {i}</b><p>Generated card number {i}: draw one card, then discard '
                   f'one card.</p><p>strength {i % 5} · bounty {i % 3}</p></div>' for i in range(n))
    return ("<html><head><style>@page{size:A4;margin:10mm} .c{display:inline-block;width:63mm;height:88mm;"
            "border:0.3mm solid #999;margin:1mm;vertical-align:top;font:8pt sans-serif}</style></head>"
            f"<body>{body}</body></html>")


def main() -> None:
    compile_sources()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (median)")
    args = parser.parse_args()
    runs = max(1, args.runs)
    rows: list[tuple[str, str, str]] = []
    work = Path(tempfile.mkdtemp(prefix="scarbook-bench-"))
    try:
        base = median_time(lambda: run(sys.executable, "-c", "import typer, yaml"), runs)
        rows.append(("python -c 'import typer, yaml' (reference)", f"{base:.3f} s", "1.00×"))

        def full() -> None:
            shutil.rmtree(work / "out", ignore_errors=True)
            run(SCARBOOK, "build", "--out", str(work / "out"))

        t_full = median_time(full, max(1, min(runs, 2)))
        rows.append(("scarbook build, all shipped games, from scratch", f"{t_full:.3f} s", f"{t_full / base:.1f}×"))
        t_noop = median_time(lambda: run(SCARBOOK, "build", "--out", str(work / "out")), max(runs, 5))
        rows.append(("scarbook build, nothing changed (no-op)", f"{t_noop:.3f} s", f"{t_noop / base:.2f}×"))

        game = generated_game(work / "bench-game", 500)
        (work / "plain.html").write_text(plain_html(500))
        plain = [sys.executable, "-c", "import sys; from weasyprint import HTML; "
                 "HTML(filename=sys.argv[1]).write_pdf(sys.argv[2])", str(work / "plain.html"), str(work / "plain.pdf")]
        t_plain = median_time(lambda: run(*plain), runs)
        rows.append(("500 cards, one plain WeasyPrint document (python -c ..., reference)", f"{t_plain:.3f} s",
                     "1.00×"))

        def cards(*only: str) -> float:
            def once() -> None:
                shutil.rmtree(work / "cards-out", ignore_errors=True)
                run(SCARBOOK, "build", str(game), "--out", str(work / "cards-out"), *only)

            return median_time(once, runs)

        t_cards = cards("--only", "cards")
        rows.append(("500 cards: scarbook build GAME --only cards (fronts, backs, calibration)", f"{t_cards:.3f} s",
                     f"{t_cards / t_plain:.2f}×"))
        t_all = cards()
        rows.append(("500 cards: scarbook build GAME (also the reference with its 36-page card list, tables)",
                     f"{t_all:.3f} s", f"{t_all / t_plain:.2f}×"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print_table(rows, ("measurement", "median", "ratio"))


if __name__ == "__main__":
    main()
