"""Write compiler/generated/aid-fits.json: which version of each shipped game's player aid fits its two pages.

    .venv/bin/python tools/generate_fits.py          # after changing shipped content, the aid or its templates
    .venv/bin/python tools/generate_fits.py --check  # exit 1 when an answer is missing or out of date

A default build lays each aid's versions out, fullest first, until one fits on two pages (`render_fitting`);
the Shadow Forces and Shadow Blades aids fit at the third. The answers of the shipped games' default aids, A4
and Letter, ship with the release (`compiler/render/fitmemo.py`), so a first build lays each aid out once.
An answer is used only for the very versions (by digest) and renderer (WeasyPrint and Pango versions) it was
found with: a stale one only costs the layouts it would have saved. `--check` makes each aid's versions (no
layout) and compares them with the file; writing lays every aid out, about 15 s.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from generated import check_or_write

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "compiler" / "generated" / "aid-fits.json"
PAPERS = ("a4", "letter")


def aids() -> list[tuple[str, str, Any]]:
    """(game id, paper, the game as a default build prints it) for every shipped game with an aid."""
    from scarbook.compiler.load import shipped_games
    from scarbook.compiler.spoilers import for_players
    from scarbook.compiler.validate import load_game

    out = []
    for game_id in sorted(shipped_games()):
        full = load_game(game_id, [])
        for paper in PAPERS:
            out.append((game_id, paper, for_players(full.effective(), full)))
    return out


def found() -> dict[str, list[object]]:
    """Every shipped aid laid out as a default build does (no shipped answers, an empty cache): its answer."""
    import os

    from scarbook.compiler.aid import MAX_PAGES
    from scarbook.compiler.build import aid_versions, roots_for
    from scarbook.compiler.render import fitmemo
    from scarbook.compiler.render.pdf import render_fitting
    from scarbook.templates import TEMPLATE_DIR

    answers: dict[str, list[object]] = {}
    fitmemo.SHIPPED = Path("/nonexistent/aid-fits.json")  # find every answer again
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SCARBOOK_CACHE"] = tmp
        for _game_id, paper, game in aids():
            fitted = render_fitting(aid_versions(game, paper, None), [Path(r) for r in roots_for(game)],
                                    TEMPLATE_DIR, MAX_PAGES)
            versions = []
            for html in aid_versions(game, paper, None):
                versions.append(html)
                if html == fitted.html:
                    break
            key, answer = fitmemo.shipped_entry(versions)
            answers[key] = answer
    return dict(sorted(answers.items()))


def current(shipped: dict[str, Any]) -> list[str]:
    """The aids whose answer the file does not hold for their versions as made now (no layout)."""
    from scarbook.compiler.build import aid_versions
    from scarbook.compiler.render import fitmemo

    behind = []
    for game_id, paper, game in aids():
        made = aid_versions(game, paper, None)
        first = next(made)
        answer = shipped.get(fitmemo.key_of(first))
        versions = [first]
        while isinstance(answer, list) and len(versions) <= int(answer[0]):
            versions.append(next(made))
        if not isinstance(answer, list) or fitmemo.digest_of(versions[: int(answer[0]) + 1]) != answer[1]:
            behind.append(f"{game_id} ({paper})")
    return behind


def main() -> int:
    if "--check" in sys.argv[1:]:
        try:
            shipped = json.loads(TARGET.read_text("utf-8"))
        except (OSError, ValueError):
            shipped = {}
        behind = current(shipped)
        for aid in behind:
            print(f"{TARGET.relative_to(ROOT)} has no current answer for {aid}: run python tools/generate_fits.py",
                  file=sys.stderr)
        return 1 if behind else 0
    return check_or_write(__doc__ or "", TARGET, lambda: json.dumps(found(), indent=0) + "\n", ROOT,
                          "generate_fits.py")


if __name__ == "__main__":
    sys.exit(main())
