"""Benchmark `scarbook validate`: shipped content against check-jsonschema, and 10k/20k-card packs.

Run: .venv/bin/python bench/bench_validate.py [--runs N]
Prints medians (CPU and wall) of alternating runs and the ratios the quality bars ask for (quality.md);
every timed command must exit 0 (the content is valid), or the benchmark stops:
  - validate of all shipped content, cold, no slower than check-jsonschema on the same files;
  - packs of 2,400 and 4,800 cards, the second about 2 x the first (linear). quality.md names 10,000
    and 20,000 cards, but a game may print at most 5,000 card faces now (B110): such a pack exits 1,
    and a benchmark never times a command that failed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from benchlib import compile_sources, median_command, ms, paired, print_table

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


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
        env = dict(os.environ, SCARBOOK_CACHE=str(tmp / "cache"))
        files = sorted(str(p) for p in (ROOT / "content").rglob("*.yaml"))
        rows = []
        if checker:
            schema = ROOT / "schemas" / "content-file.schema.json"  # as shipped: resolves offline, no --base-uri
            shipped = paired([scarbook, "validate"], [checker, "--schemafile", str(schema), *files], args.runs,
                             cwd=ROOT, env=env)
            rows.append(("check-jsonschema, shipped content (reference)", ms(shipped.reference), ""))
            rows.append(("scarbook validate, shipped content (cold)", ms(shipped.command),
                         f"{shipped.ratios()} (target <= 1.0 x)"))
        else:
            print("check-jsonschema not found: pip install check-jsonschema", file=sys.stderr)
        pack_runs = max(3, args.runs // 2)
        # A pack must be valid to be timed (exit 0): a game prints at most MAX_BUILD_CARDS card faces (B110),
        # so the packs are 2,400 and 4,800 cards (Risk Legacy's own 64 included: under 5,000), not 10k and 20k.
        half = median_command([scarbook, "validate", str(card_pack(tmp / "p2400", 2_400))], pack_runs, cwd=ROOT,
                              env=env)
        full = median_command([scarbook, "validate", str(card_pack(tmp / "p4800", 4_800))], pack_runs, cwd=ROOT,
                              env=env)
        rows.append(("scarbook validate, 2,400-card pack", ms(half), ""))
        rows.append(("scarbook validate, 4,800-card pack", ms(full),
                     f"CPU {full.cpu / half.cpu:.2f} x, wall {full.wall / half.wall:.2f} x the 2,400-card pack "
                     "(linear: about 2 x)"))
    print_table(rows, ("what", "CPU / wall (median)", "reference / ratio"))


if __name__ == "__main__":
    main()
