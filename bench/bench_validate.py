"""Benchmark `scarbook validate`: shipped content against check-jsonschema, and 10,000- and 50,000-card packs.

Run: .venv/bin/python bench/bench_validate.py [--runs N]
Prints medians (CPU and wall) of alternating runs and the ratios the targets ask for; every timed
command must exit 0 (the content is valid), or the benchmark stops. Cold: the cache folder (content
cache, compiled validator) is emptied before each run; warm: it is full.
  - validate of all shipped content, cold and warm, no slower than check-jsonschema on the same files;
  - a 10,000-card pack: <= 1.2 s CPU cold (issue 15, item 7), shown against `python -c "import typer, yaml"`;
  - a 50,000-card pack: <= 5 x the 10,000-card pack (cold and warm).
A game may print at most 5,000 card faces (B110): that bounds what `build` lays out; `validate` says
so as a warning (valid content, too big to print), so these packs validate with exit 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from benchlib import compile_sources, emptied, ms, paired, print_table

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def card_pack(folder: Path, cards: int) -> Path:
    """A pack of `cards` event cards on Risk Legacy, in decks of 10,000 (a deck's `count` is at most 10,000)."""
    folder.mkdir()
    decks = -(-cards // 10_000)
    lines = ["pack: {id: synthetic, title: Synthetic, extends: risk-legacy}", "decks:"]
    lines += [f"  - {{id: synthetic-deck-{d}, name: Synthetic {d}, count: {min(10_000, cards - d * 10_000)}}}"
              for d in range(decks)]
    lines.append("cards:")
    for i in range(cards):
        lines.append(f"  - id: card-{i}\n    deck: synthetic-deck-{i // 10_000}\n    name: Card {i}\n    type: event\n"
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
            checking = [checker, "--schemafile", str(schema), *files]
            shipped = paired([scarbook, "validate"], checking, args.runs, cwd=ROOT, env=env,
                             before=emptied(tmp / "cache"))
            rows.append(("check-jsonschema, shipped content (reference)", ms(shipped.reference), ""))
            rows.append(("scarbook validate, shipped content, cold", ms(shipped.command),
                         f"{shipped.ratios()} (target <= 1.0 x)"))
            warm = paired([scarbook, "validate"], checking, args.runs, cwd=ROOT, env=env)
            rows.append(("scarbook validate, shipped content, warm", ms(warm.command),
                         f"{warm.ratios()} (target <= 1.0 x)"))
        else:
            print("check-jsonschema not found: pip install check-jsonschema", file=sys.stderr)
        pack_runs = max(3, args.runs // 2)
        reference = [sys.executable, "-c", "import typer, yaml"]
        cache = tmp / "cache"
        small = [scarbook, "validate", str(card_pack(tmp / "p10000", 10_000))]
        big = [scarbook, "validate", str(card_pack(tmp / "p50000", 50_000))]
        cold10 = paired(small, reference, pack_runs, cwd=ROOT, env=env, before=emptied(cache))
        rows.append(("python -c 'import typer, yaml' (reference)", ms(cold10.reference), ""))
        rows.append(("scarbook validate, 10,000-card pack, cold", ms(cold10.command),
                     f"{cold10.ratios()} the reference (target <= 1.2 s CPU)"))
        warm10 = paired(small, reference, pack_runs, cwd=ROOT, env=env)
        rows.append(("scarbook validate, 10,000-card pack, warm", ms(warm10.command),
                     f"{warm10.ratios()} the reference"))
        cold50 = paired(big, small, pack_runs, cwd=ROOT, env=env, before=emptied(cache),
                        before_reference=emptied(cache))
        rows.append(("scarbook validate, 50,000-card pack, cold", ms(cold50.command),
                     f"{cold50.ratios()} the 10,000-card pack, cold too (target <= 5 x)"))
        warm50 = paired(big, small, pack_runs, cwd=ROOT, env=env)
        rows.append(("scarbook validate, 50,000-card pack, warm", ms(warm50.command),
                     f"{warm50.ratios()} the 10,000-card pack (target <= 5 x)"))
    print_table(rows, ("what", "CPU / wall (median)", "reference / ratio"))


if __name__ == "__main__":
    main()
