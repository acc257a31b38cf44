"""Golden outputs: what users read, word for word, on realistic campaign states.

For the end states of the three scripted campaigns (tests/campaigns/risk-legacy-15.txt,
risk-shadow-forces-15.txt, harbor-watch-12.txt) and for states in the middle of a campaign where
players differ (some signed and some not, rewards and steps still owed, a packet to open, a scar
not yet cancelled, a game in progress), three files under tests/golden/:

- `STATE.status.txt`: `scarbook campaign status`, as printed;
- `STATE.status.json`: `scarbook campaign status --format json`, as printed;
- `STATE.log.txt` (the whole campaigns only): `scarbook campaign log`, every event as a group would say it;
- `STATE.sheet.txt`: the campaign sheet (`campaign sheet --format html`) reduced to its visible text
  (one line per heading, paragraph or table row, cells joined by ` | `; struck-through text as
  `~~text~~`, a winner's cell as `**text**`, an eliminated one's as `!!text!!`), followed by the
  marks the board picture draws in each territory (`sheet.map_marks`, in order).

Machine-dependent text (the temporary folder) is replaced by `{dir}`. Only `SCARBOOK_UPDATE_GOLDEN=1`
writes them (conftest.check_golden):

    SCARBOOK_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden_outputs.py

Each state is played once per test run (a script through the CLI, in a folder and cache of its own,
shared by the xdist workers: campaigns/shared.py) and kept; under mutmut the children forked for each
mutant inherit it, so a mutant of `report.py` or `sheet.py` costs a replay from the warm cache, not a
whole campaign.

Slow: seven campaign states (three whole campaigns), each played once per run, and every output of each.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from campaigns.helpers import cache_folder, invoke, play_prefix, run_script, script
from campaigns.shared import once_per_run

from conftest import EXAMPLES, check_golden

pytestmark = pytest.mark.slow  # plays whole campaigns (once per run)


@dataclass(frozen=True)
class Cut:
    """A scripted campaign played up to and including the first line equal to `until` (None: all of it),
    and `more` lines after it."""

    script: str
    until: str | None = None
    more: int = 0


STATES = {
    # the end of each scripted campaign
    "risk-legacy-15": Cut("risk-legacy-15.txt"),
    "risk-shadow-forces-15": Cut("risk-shadow-forces-15.txt"),
    "harbor-watch-12": Cut("harbor-watch-12.txt"),
    # after game 3: Ann signed twice, Bob once, Cat never; Ann took her reward, Bob and Cat not yet; the
    # second-signature packet to open; the bunker scar of game 3 still in play (game 4 cancels it)
    "risk-legacy-after-game-3": Cut("risk-legacy-15.txt", "place fortification great-britain --by Ann"),
    # game 1's packet just opened: its rules sticker still to put in place before game 2; Cat eliminated
    "risk-legacy-packet-opened": Cut("risk-legacy-15.txt", "open faction-eliminated"),
    # game 8 started and not ended: a game in progress, every reward of game 7 taken
    "risk-legacy-game-8-playing": Cut("risk-legacy-15.txt", "# --- game 8", 1),
    # after game 1 of Shadow Forces: some warlord stickers placed, others and the upgrades still owed
    "risk-shadow-forces-after-game-1": Cut("risk-shadow-forces-15.txt",
                                           "place raaz-garcia-warlord-sticker na-01 --by Bob"),
}

_PLAYED: dict[str, tuple[Path, Path]] = {}  # state -> (ledger, its cache folder), kept in each process


def _script_text(cut: Cut, folder: Path) -> str:
    text = script(cut.script)
    if cut.script.startswith("harbor-watch"):  # its `= `/`? ` lines are expected output, for test_harbor_watch
        shutil.copytree(EXAMPLES / "harbor-watch", folder / "harbor-watch")
        text = "\n".join(line for line in text.splitlines() if line[:2] not in ("= ", "? "))
        text = text.replace("{game}", str(folder / "harbor-watch")).replace("{dir}", str(folder))
    if cut.until is None:
        return text
    lines = text.splitlines()
    end = lines.index(cut.until) + 1 + cut.more
    return "\n".join(lines[:end]) + "\n"


def played(name: str) -> tuple[Path, Path]:
    """The ledger of the state `name` and its cache folder, played once per run (campaigns/shared.py: the
    first test process to ask plays it, the others wait and read it; each golden test runs in one process,
    so no two write the same file there). A mutant (mutmut) plays it with its own code, once per process."""
    if name not in _PLAYED:

        def make(folder: Path) -> None:
            cut = STATES[name]
            with cache_folder(folder / "cache"):
                if cut.script.startswith("harbor-watch"):
                    failures = run_script(_script_text(cut, folder), folder / "campaign.yaml")
                else:  # the Risk scripts: their one play per run (play_once's), stopped at the cut
                    lines = script(cut.script).splitlines()
                    end = len(lines) if cut.until is None else lines.index(cut.until) + 1 + cut.more
                    failures = play_prefix(script(cut.script), end, folder / "campaign.yaml")
            assert not failures, failures

        if "MUTANT_UNDER_TEST" in os.environ:
            folder = Path(tempfile.mkdtemp(prefix=f"scarbook-golden-{name}-"))
            atexit.register(shutil.rmtree, folder, True)
            make(folder)
        else:
            folder = once_per_run(f"golden state\0{name}\0{STATES[name]}", make)
        _PLAYED[name] = (folder / "campaign.yaml", folder / "cache")
    return _PLAYED[name]


@pytest.fixture(params=sorted(STATES))
def state(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    name = request.param
    ledger, cache = played(name)
    monkeypatch.setenv("SCARBOOK_CACHE", str(cache))  # warm: the replay of these very bytes is cached there
    return name, ledger


def normalised(text: str, ledger: Path) -> str:
    """The output with the state's temporary folder written `{dir}`, and the day the scripts were played (a game
    ended without `--date` is dated today) written `{today}`: a golden file must not expire overnight."""
    import datetime

    folder = str(ledger.parent)
    played_on = datetime.date.fromtimestamp(ledger.stat().st_mtime).isoformat()
    text = text.replace(os.path.realpath(folder), "{dir}").replace(folder, "{dir}")
    return text.replace(f'"{played_on}"', '"{today}"').replace(f" {played_on}\n", " {today}\n")


def test_status_text(state: tuple[str, Path]) -> None:
    name, ledger = state
    result = invoke(["status"], ledger)
    assert result.exit_code == 0, result.output
    check_golden(f"{name}.status.txt", normalised(result.stdout, ledger))


def test_status_json(state: tuple[str, Path]) -> None:
    name, ledger = state
    result = invoke(["status", "--format", "json"], ledger)
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)
    check_golden(f"{name}.status.json", normalised(result.stdout, ledger))


@pytest.mark.parametrize("name", [name for name, cut in STATES.items() if cut.until is None])
def test_log(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`campaign log` of each whole campaign: every event as a group would say it (the mid-campaign states are
    beginnings of these)."""
    ledger, cache = played(name)
    monkeypatch.setenv("SCARBOOK_CACHE", str(cache))
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    result = invoke(["log"], ledger)
    assert result.exit_code == 0, result.output
    check_golden(f"{name}.log.txt", normalised(result.stdout, ledger))


# --- the sheet's visible text -------------------------------------------------------------------------
_BLOCKS = {"h1", "h2", "h3", "h4", "p", "tr", "li", "table", "section", "div", "thead", "tbody"}
_VOID = {"br", "meta", "img", "input", "hr", "link"}
_CELLS = {"td", "th"}
_HIDDEN = {"head", "style", "script", "svg"}
_STYLED = {"gone": "~~", "won": "**", "out": "!!"}  # classes that change what a reader sees


class _Visible(HTMLParser):
    """The text a reader sees on the page, one line per block, table cells joined by ` | `."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[tuple[bool, str]] = []  # (a table cell?, its text): empty cells are kept, loose space not
        self.cell: list[str] | None = None
        self.hidden = 0
        self.styled: list[str] = []  # the marker each open element adds when it closes ('' for none)

    def _flush(self) -> None:
        if self.cell is not None:
            self._end_cell()
        text = " | ".join(" ".join(part.split()) for cell, part in self.line if cell or part.strip())
        if text.strip():
            self.lines.append(text.strip())
        self.line = []

    def _end_cell(self) -> None:
        assert self.cell is not None
        self.line.append((True, "".join(self.cell)))
        self.cell = None

    def _write(self, text: str) -> None:
        if self.cell is None:
            if not self.line or self.line[-1][0]:
                self.line.append((False, ""))
            self.line[-1] = (False, self.line[-1][1] + text)
        else:
            self.cell.append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
            return
        if self.hidden:
            return
        if tag == "br":  # a line break: a space inside a cell, a new line outside
            if self.cell is not None:
                self._write(" ")
            else:
                self._flush()
            return
        if tag in _BLOCKS:
            self._flush()
        elif tag in _CELLS:
            if self.cell is not None:
                self._end_cell()
            self.cell = []
        classes = (dict(attrs).get("class") or "").split()
        marker = next((_STYLED[c] for c in classes if c in _STYLED), "")
        if tag not in _VOID:
            self.styled.append(marker)
        if marker:
            self._write(marker)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden -= 1
            return
        if self.hidden:
            return
        marker = self.styled.pop() if self.styled and tag not in _VOID else ""
        if marker:
            self._write(marker)
        if tag in _CELLS and self.cell is not None:
            self._end_cell()
        elif tag in _BLOCKS:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self._write(data)

    def text(self) -> str:
        self._flush()
        return "\n".join(self.lines) + "\n"


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return parser.text()


def board_marks(ledger: Path) -> str:
    """What the board picture draws in each territory (`sheet.map_marks`), one line per mark."""
    from scarbook.campaign.report import status
    from scarbook.campaign.service import reading
    from scarbook.campaign.sheet import Names, map_marks

    campaign, replay = reading.state(ledger)
    marks = map_marks(replay, status(campaign.ledger, replay), Names(replay))
    lines = [f"{territory}: {m.kind} {m.text!r} value={m.value} total={m.total} {m.icon} {m.color} ({m.legend})"
             for territory, placed in marks.items() for m in placed]
    return "Board picture marks:\n" + "".join(f"  {line}\n" for line in lines)


#: Drawn in place of the board picture in the sheet-text goldens: the picture is no text a reader scans (its marks
#: are the golden's last section), and laying it out takes seconds per sheet (compiler.boardmap places labels).
PICTURE = '<svg xmlns="http://www.w3.org/2000/svg"><text>the board</text></svg>'


def test_sheet_text(state: tuple[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    import scarbook.campaign.sheet as sheet

    name, ledger = state
    monkeypatch.setattr(sheet, "sheet_svg", lambda *args: PICTURE)
    out = ledger.with_name("sheet.html")
    result = invoke(["sheet", "--format", "html", "--out", str(out)], ledger)
    assert result.exit_code == 0, result.output
    text = visible_text(out.read_text("utf-8")) + "\n" + board_marks(ledger)
    check_golden(f"{name}.sheet.txt", normalised(text, ledger))


def test_the_sheet_draws_the_marks_it_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    """The picture in the sheet is `board_svg` of the effective board with `map_marks`' marks and a legend of kinds,
    the very one `--format svg` writes; none when the board is withheld."""
    import scarbook.compiler.boardmap as boardmap
    from scarbook.campaign.effective import applied
    from scarbook.campaign.report import status
    from scarbook.campaign.service import reading
    from scarbook.campaign.sheet import Names, map_marks, sheet_html, sheet_svg, write_sheet

    drawn: list[tuple[object, dict[str, object], dict[str, object]]] = []

    def board_svg(game: object, marks: dict[str, object], **options: object) -> str:
        drawn.append((game, marks, options))
        return f"<svg><text>{len(drawn)}</text></svg>"

    monkeypatch.setattr(boardmap, "board_svg", board_svg)
    ledger, cache = played("risk-legacy-after-game-3")
    monkeypatch.setenv("SCARBOOK_CACHE", str(cache))
    campaign, replay = reading.state(ledger)
    expected = map_marks(replay, status(campaign.ledger, replay), Names(replay))
    assert sheet_svg(campaign.ledger, replay) == "<svg><text>1</text></svg>"
    game, marks, options = drawn[-1]
    assert marks == expected and options == {"legend_kinds": True}
    assert getattr(game, "title", None) == applied(replay).title
    assert "<svg><text>2</text></svg>" in sheet_html(campaign.ledger, replay)
    assert drawn[-1][1] == expected
    out = write_sheet(campaign.ledger, replay, ledger.with_name("board.svg"), "svg")
    # the picture as drawn, then the mark that lets an existing file be written over again
    assert out.read_text("utf-8") == "<svg><text>3</text></svg>\n<!-- made by scarbook -->\n"


def test_visible_text_of_a_page() -> None:
    """The reduction the sheet goldens rest on: blocks on lines, cells joined, hidden parts left out, styles kept."""
    page = ("<html><head><title>T</title><style>p { color: red }</style></head><body><h1>Our  world</h1>"
            "<p class='meta'>3 games <b>played</b></p><svg><text>Alaska</text></svg><table><thead><tr><th>A</th>"
            "<th>B</th></tr></thead><tbody><tr><td class='gone'>x y</td><td><span class='won'>Ann</span> · "
            "winner<br>again</td></tr></tbody></table></body></html>")
    assert visible_text(page) == "Our world\n3 games played\nA | B\n~~x y~~ | **Ann** · winner again\n"
    assert re.search("Alaska", visible_text(page)) is None
