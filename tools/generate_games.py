"""Write compiler/generated/game-ID.json: every shipped game, validated, as the release ships it.

    .venv/bin/python tools/generate_games.py          # after changing shipped content, a schema or the reading
    .venv/bin/python tools/generate_games.py --check  # exit 1 when a file is out of date

A command on a shipped game with an empty cache folder (the first after installing or upgrading) would parse
and validate the game's YAML: ~70 ms of CPU, most of a cold `campaign status`. Each file holds a game's
validated form (`Game.to_json`, file names relative to the content folder) and the key of the bytes it was made
from (`compiler.validate.shipped_key`: the release, the cache version, every content and schema file); the
tracker uses it only while the key still matches, else it validates the game as it would any other. It is a
cache, never a source of meaning: tests/test_shipped_games.py checks each file is current and equal to what
validating the game gives.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from generated import write_if_changed

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "compiler" / "generated"


def texts() -> dict[Path, str]:
    """The file and its text for every shipped game."""
    from scarbook.compiler.load import shipped_games
    from scarbook.compiler.validate import SHIPPED_GAME, shipped_form

    # a value a line (as grammar.json): a content change shows in a diff as the lines it changed; keys in the
    # content's own order (never sorted: the order of regions, stickers and cards is what outputs print)
    return {FOLDER / SHIPPED_GAME.format(game): json.dumps(shipped_form(game), ensure_ascii=False,
                                                          indent=0) + "\n"
            for game in sorted(shipped_games())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the shipped files are current")
    args = parser.parse_args()
    wanted = texts()
    stale = [p for p in sorted(FOLDER.glob("game-*.json")) if p not in wanted]
    if args.check:
        behind = [p for p, text in wanted.items() if not p.exists() or p.read_text("utf-8") != text] + stale
        for path in behind:
            print(f"{path.relative_to(ROOT)} is out of date: run python tools/generate_games.py", file=sys.stderr)
        return 1 if behind else 0
    for path, text in wanted.items():
        write_if_changed(path, text, ROOT)
    for path in stale:
        path.unlink()
        print(f"removed {path.relative_to(ROOT)} (no such shipped game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
