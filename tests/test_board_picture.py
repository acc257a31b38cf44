"""What the board picture shows a group, read back territory by territory (issue 29), as golden files.

The scripted campaigns (`tests/campaigns/`) are played to their end; `scarbook campaign sheet --format svg` draws
the board of their end state and of a state halfway (Risk Legacy after game 7: a scar cancelled, a city
fortified; Risk: Shadow Forces after game 5), and `tests/boardread.py` reads every territory's marks back (icon,
colour, text, a city's size as dots, positions rounded) with, under each territory, the marks the campaign holds
there that the picture does not draw (cancelled, covered, or of a group kept off the board, from `status --format
json`). The boards `scarbook build --campaign` prints (reference sheet and play aid) must draw the same.

Slow: five campaign states drawn as SVG and read back, and `build --campaign` of each for its boards.

Golden files `tests/golden/*.board.txt`: written only by
`SCARBOOK_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_board_picture.py tests/test_board_printed.py`; review
the diff.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from boardread import board_text, read_board
from campaigns.helpers import invoke, play_once, script
from typer.testing import CliRunner

from conftest import ROOT, check_golden
from scarbook.cli.main import app

pytestmark = pytest.mark.slow

#: (golden name, campaign, --after N or None for its end)
STATES = [
    ("risk-legacy-15", "risk-legacy-15", None),
    ("risk-legacy-15-after-7", "risk-legacy-15", 7),
    ("risk-shadow-forces-15", "risk-shadow-forces-15", None),
    ("risk-shadow-forces-15-after-5", "risk-shadow-forces-15", 5),
    ("harbor-watch-12", "harbor-watch-12", None),
]


def _play_harbor_watch(folder: Path) -> Path:
    """tests/campaigns/harbor-watch-12.txt in-process (test_harbor_watch.py plays it through the installed
    script and checks what each line prints; here only the end state matters)."""
    runner = CliRunner()
    copied = runner.invoke(app, ["examples", "copy", "harbor-watch", str(folder / "harbor-watch")])
    assert copied.exit_code == 0, copied.output
    file = folder / "year.yaml"
    subs = {"{file}": str(file), "{game}": str(folder / "harbor-watch"), "{dir}": str(folder)}
    for raw in script("harbor-watch-12.txt").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "= ", "? ")):
            continue
        code = ""
        if line.startswith("!"):
            code, line = line[1:].split(" ", 1)
        for key, value in subs.items():
            line = line.replace(key, value)
        result = invoke(shlex.split(line), file)
        assert result.exit_code == (1 if code else 0), (line, result.output)
    return file


@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each scripted campaign played to its end."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SCARBOOK_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
    mp.delenv("SCARBOOK_CAMPAIGN", raising=False)
    out = {}
    for name in ("risk-legacy-15", "risk-shadow-forces-15"):
        file = tmp_path_factory.mktemp(name) / "world.yaml"
        failures = play_once(script(f"{name}.txt"), file)
        assert not failures, "\n".join(failures)
        out[name] = file
    out["harbor-watch-12"] = _play_harbor_watch(tmp_path_factory.mktemp("harbor-watch"))
    mp.undo()
    return out


def _after(after: int | None) -> list[str]:
    return [] if after is None else ["--after", str(after)]


def sheet_svg(file: Path, after: int | None) -> str:
    out = file.parent / f"board-{after}.svg"
    result = invoke(["sheet", "--format", "svg", "--out", str(out), *_after(after)], file)
    assert result.exit_code == 0, result.output
    return out.read_text("utf-8")


def not_drawn(file: Path, after: int | None) -> dict[str, list[str]]:
    """Printed territory name (or code) -> a line for each mark the campaign holds there that the board must
    not draw: cancelled, covered, or in a group kept off the board (`status --format json`)."""
    from scarbook.campaign.views.status import when_placed
    from scarbook.compiler.model import known
    from scarbook.compiler.validate import cached_game

    result = invoke(["status", "--format", "json", *_after(after)], file)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    game = cached_game(str(ROOT / "examples" / "harbor-watch")) if data["game"] == "harbor-watch" else \
        cached_game(data["game"])
    territories = game.section("territories")
    out: dict[str, list[str]] = {}
    for group in data["mark_groups"]:
        for m in group["marks"]:
            terr = territories.get(m.get("target"))
            if terr is None or (m.get("active") and group.get("board", True)):
                continue
            if m.get("cancelled"):
                why = "cancelled" + (f" by {m['covered_by']}" if m.get("covered_by") else "")
            elif m.get("covered_by"):
                why = f"covered by {m['covered_by']}"
            else:
                why = "inactive" if not m.get("active") else f"the group '{group['id']}' is not on the board"
            title = str(known(terr.get("name")) or terr.get("code") or m["target"])
            by = f" by {m['by']}" if m.get("by") else ""
            out.setdefault(title, []).append(f"not drawn ({why}): {m['sticker']}{by}, "
                                             f"{when_placed(m.get('game') or 0, m.get('during_game'))}")
    return out


@pytest.mark.parametrize(("golden", "campaign", "after"), STATES, ids=[s[0] for s in STATES])
def test_the_board_picture_of_a_campaign_state(ended: dict[str, Path], golden: str, campaign: str,
                                               after: int | None) -> None:
    file = ended[campaign]
    svg = sheet_svg(file, after)
    text = board_text(svg, not_drawn(file, after))
    assert "not understood:" not in text and "NOT ON THE BOARD" not in text, text
    check_golden(f"{golden}.board.txt", text)


@pytest.mark.parametrize(("golden", "campaign", "after"), STATES, ids=[s[0] for s in STATES])
def test_the_built_boards_draw_what_the_sheet_draws(ended: dict[str, Path], golden: str, campaign: str,
                                                     after: int | None) -> None:
    """`build --campaign` (reference sheet: `board_svg(game)`; play aid: `aid.map_marks`) draws every territory
    and region title as the sheet does; only the legend strip is the sheet's own."""
    from scarbook.campaign.service.history import game_after
    from scarbook.campaign.service.reading import campaign_game
    from scarbook.compiler.aid import map_marks
    from scarbook.compiler.boardmap import board_svg

    file = ended[campaign]
    sheet = read_board(sheet_svg(file, after))
    game = campaign_game(file, []) if after is None else game_after(file, [], after)
    for svg in (board_svg(game), board_svg(game, map_marks(game))):  # type: ignore[arg-type]
        built = read_board(svg)
        assert [t.lines() for t in built.territories] == [t.lines() for t in sheet.territories], golden
        assert built.titles == sheet.titles and built.legend == [], golden


def test_what_the_readings_say_about_the_campaigns(ended: dict[str, Path]) -> None:
    """The facts the issue names, said plainly: a cancelled scar is not drawn, a city's size shows as dots, a
    fortification shows its boxes left, a destroyed card is a cross, devastation hatches the circle."""
    rl7 = read_board(sheet_svg(ended["risk-legacy-15"], 7))
    assert rl7.territory("Greenland").marks == []  # the bunker is cancelled (game 4): nothing drawn
    britain = rl7.territory("Great Britain").marks
    assert [(m.icon, m.dots, m.text) for m in britain] == [("house", 2, "Sunny Glasgow"), ("tower", 0, "10/10")]
    assert [m.icon for m in rl7.territory("Japan").marks] == ["cross"]
    assert [(m.icon, m.dots) for m in rl7.territory("Ontario").marks] == [("house", 1)]
    rl3 = read_board(sheet_svg(ended["risk-legacy-15"], 3))
    assert [m.text for m in rl3.territory("Greenland").marks] == ["Bunker"]  # before it was cancelled
    sf = read_board(sheet_svg(ended["risk-shadow-forces-15"], None))
    hatched = [t.title for t in sf.territories if t.hatched]
    assert hatched and all(any(m.icon == "hatched" for m in sf.territory(t).marks) for t in hatched)
