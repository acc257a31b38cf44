"""Benchmark of `scarbook build`: full and no-op builds of the shipped games, and 500 cards as
print-and-play sheets against one plain WeasyPrint document of the same cards.

Run: .venv/bin/python bench/bench_build.py [--runs N]. Prints medians (wall seconds) and ratios
against reference commands run in the same script (machines here are shared and noisy).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from benchlib import median_time, print_table, run_command

SCARBOOK = str(Path(sys.executable).parent / "scarbook")


def run(*args: str) -> None:
    run_command(args)


def generated_cards(n: int) -> list[dict]:
    from scarbook.compiler.sheets import POKER_MM

    return [{
        "id": f"card-{i}", "name": f"Card {i}", "deck": "Generated", "deck_id": "generated", "type": "test",
        "zone": None, "where": None, "stats": [("strength", str(i % 5)), ("bounty", str(i % 3))],
        "resources": i % 4, "text": f"Generated card number {i}: draw one card, then discard one card.",
        "unknown": False, "image": None, "image_url": None, "color": "#1f4e79", "back": "Generated",
        "size": POKER_MM, "game": "Bench",
    } for i in range(n)]


def plain_html(cards: list[dict]) -> str:
    from html import escape

    body = "".join(f'<div class="c"><b>{escape(c["name"])}</b><p>{escape(c["text"])}</p>'
                   f'<p>strength {c["stats"][0][1]} · bounty {c["stats"][1][1]}</p></div>' for c in cards)
    return ("<html><head><style>@page{size:A4;margin:10mm} .c{display:inline-block;width:63mm;height:88mm;"
            "border:0.3mm solid #999;margin:1mm;vertical-align:top;font:8pt sans-serif}</style></head>"
            f"<body>{body}</body></html>")


def main() -> None:
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

        from scarbook.compiler.render.html import sheets_html
        from scarbook.compiler.render.pdf import render_pdf
        from scarbook.compiler.sheets import card_sheets
        from scarbook.templates import TEMPLATE_DIR

        cards = generated_cards(500)
        html_plain = plain_html(cards)

        def plain() -> None:
            from weasyprint import HTML

            HTML(string=html_plain).write_pdf()

        def sheets() -> None:
            render_pdf(sheets_html("cards.html.j2", "Bench", card_sheets(cards, "a4"), "a4"), [TEMPLATE_DIR],
                       TEMPLATE_DIR)

        plain()  # warm up (imports, fonts)
        t_plain = median_time(plain, runs)
        rows.append(("500 cards, one plain WeasyPrint document (reference)", f"{t_plain:.3f} s", "1.00×"))
        t_sheets = median_time(sheets, runs)
        rows.append(("500 cards as print-and-play sheets (fronts+backs)", f"{t_sheets:.3f} s",
                     f"{t_sheets / t_plain:.2f}×"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print_table(rows, ("measurement", "median", "ratio"))


if __name__ == "__main__":
    main()
