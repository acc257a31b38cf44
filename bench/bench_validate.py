"""Benchmark `scarbook validate`: shipped content against check-jsonschema, and 10k/20k-card packs.

Run: .venv/bin/python bench/bench_validate.py [--runs N]
Prints medians of alternating runs and the ratios the quality bars ask for (quality.md):
  - validate of all shipped content, cold, no slower than check-jsonschema on the same files;
  - a 10,000-card pack in <= 3 s, and 20,000 cards <= 2.2 x the 10,000 time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from benchlib import compile_sources, median_command, print_table

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def timed(cmd: list[str], cwd: Path) -> float:
    """Wall time of one run of a validator; the content is valid, so anything but exit 0 stops the benchmark."""
    return median_command(cmd, 1, cwd=cwd).wall


def card_pack(folder: Path, cards: int) -> Path:
    folder.mkdir()
    lines = ["pack: {id: synthetic, title: Synthetic, extends: risk-legacy}",
             "decks:", f"  - {{id: synthetic-deck, name: Synthetic, count: {cards}}}", "cards:"]
    for i in range(cards):
        lines.append(f"  - id: card-{i}\n    deck: synthetic-deck\n    name: Card {i}\n    type: event\n"
                     f"    text: Card number {i} does something.\n    stats: {{strength: {i % 7}, skill: x}}")
    (folder / "pack.yaml").write_text("\n".join(lines) + "\n")
    return folder


def main() -> None:
    compile_sources()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    scarbook = str(BIN / "scarbook")
    checker = shutil.which("check-jsonschema", path=str(BIN)) or shutil.which("check-jsonschema")
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        files = sorted(str(p) for p in (ROOT / "content").rglob("*.yaml"))
        rows = []
        if checker:
            schema = ROOT / "schemas" / "content-file.schema.json"  # as shipped: resolves offline, no --base-uri
            ours, theirs = [], []
            for _ in range(args.runs):  # alternate, so machine noise hits both alike
                ours.append(timed([scarbook, "validate"], ROOT))
                theirs.append(timed([checker, "--schemafile", str(schema), *files], ROOT))
            ours_m, theirs_m = statistics.median(ours), statistics.median(theirs)
            rows.append(("validate shipped content (cold)", ours_m, f"check-jsonschema {theirs_m:.3f}s",
                         f"{ours_m / theirs_m:.2f}x (target <= 1.0x)"))
        else:
            print("check-jsonschema not found: pip install check-jsonschema", file=sys.stderr)
        pack_runs = max(3, args.runs // 2)
        ten = median_command([scarbook, "validate", str(card_pack(tmp / "p10", 10_000))], pack_runs, cwd=ROOT).wall
        twenty = median_command([scarbook, "validate", str(card_pack(tmp / "p20", 20_000))], pack_runs,
                                cwd=ROOT).wall
        rows.append(("validate 10,000-card pack", ten, "target 3.0s", f"{ten / 3.0:.2f} of budget"))
        rows.append(("validate 20,000-card pack", twenty, f"2.2 x 10k = {2.2 * ten:.3f}s",
                     f"{twenty / ten:.2f}x the 10k time (target <= 2.2x)"))
    print_table([(name, f"{value:.3f} s", f"{ref}; {ratio}") for name, value, ref, ratio in rows],
                ("what", "median", "reference / ratio"))


if __name__ == "__main__":
    main()
