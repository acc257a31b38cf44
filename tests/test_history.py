"""The campaign's history (issue 28): `status --after N`, `sheet --after N`, `build --after N`, `diff N [M]`,
`chronicle`, on the scripted 15-game campaigns of Risk Legacy and Shadow Forces.

The reference for "the world after game N" is computed independently of `campaign.history`: the campaign
file's text cut by hand just before the line of the (N+1)-th `game-start` event (the whole file for the
last game), then the ordinary `status` of that file.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from campaigns.helpers import invoke, play_once, run_script, script
from campaigns.shared import once_per_run

from scarbook.campaign.ledger.file import parse

GAMES = {"risk-legacy": "risk-legacy-15.txt", "risk-shadow-forces": "risk-shadow-forces-15.txt"}


@pytest.fixture(autouse=True)
def _no_env_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)


@pytest.fixture(scope="module", params=list(GAMES))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scripted campaign, played through the CLI."""
    file = tmp_path_factory.mktemp(request.param) / "world.yaml"
    assert not play_once(script(GAMES[request.param]), file)
    return file


def starts(file: Path) -> list[int]:
    """The line of every `game-start` event, read afresh."""
    ledger = parse(file.read_text("utf-8"), file)
    return [ev.span.line for ev in ledger.events if ev.kind == "game-start"]


def cut(file: Path, game: int, folder: Path) -> Path:
    """The campaign file as it was when game `game + 1` was about to start: its lines before that start."""
    lines = file.read_text("utf-8").splitlines(keepends=True)
    at = starts(file)
    keep = lines if game >= len(at) else lines[:at[game] - 1]
    out = folder / f"cut-{game}" / file.name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(keep), "utf-8")
    return out


def ended(file: Path) -> int:
    data = json.loads(invoke(["status", "--format", "json"], file).stdout)
    return int(data["games_played"])


def test_status_after_n_is_status_of_the_file_cut_at_the_end_of_game_n(played: Path, tmp_path: Path) -> None:
    last = ended(played)
    assert last >= 15
    for n in range(last + 1):
        short = cut(played, n, tmp_path)
        for fmt in ("text", "json"):
            after = invoke(["status", "--after", str(n), "--format", fmt], played)
            truth = invoke(["status", "--format", fmt], short)
            assert after.exit_code == truth.exit_code == 0, (n, after.output, truth.output)
            assert after.stdout == truth.stdout, (n, fmt)
        data = json.loads(truth.stdout)
        assert data["games_played"] == n and data["game_in_progress"] is None  # the cut is a point between games
    whole = invoke(["status"], played)
    assert invoke(["status", "--after", str(last)], played).stdout == whole.stdout
    assert invoke(["status", "--after", "1"], played).stdout != whole.stdout


def _events(file: Path) -> list[dict]:
    ledger = parse(file.read_text("utf-8"), file)
    return [{"line": ev.span.line, "event": ev.to_dict()} for ev in ledger.events]


def test_diff_lists_exactly_the_events_between_two_ends(played: Path) -> None:
    events = _events(played)
    at = starts(played)  # the world after game n holds the lines before at[n] (every line after the last game)

    def between(n: int, m: int | None) -> list[dict]:
        low = at[n] if n < len(at) else 10**9
        high = at[m] if m is not None and m < len(at) else 10**9
        return [e for e in events if low <= e["line"] < high]

    last = ended(played)
    pairs = [(n, n + 1) for n in range(last)] + [(0, last), (3, 7), (last, None), (last - 2, None), (5, 5)]
    for n, m in pairs:
        args = ["diff", str(n)] + ([] if m is None else [str(m)]) + ["--format", "json"]
        result = invoke(args, played)
        assert result.exit_code == 0, (args, result.output)
        got = json.loads(result.stdout)
        want = between(n, m)
        assert want or n == m or (m is None and n == last)
        assert [{"line": e["line"], "event": e["event"]} for e in got["events"]] == want, (n, m)
        assert all(e["text"] for e in got["events"])
        text = invoke(args[:-2], played)
        assert text.exit_code == 0
        assert [int(x) for x in re.findall(r"\(line (\d+)\)$", text.stdout, re.M)] == [e["line"] for e in want]


def test_diff_tells_what_changed_as_a_group_would_say_it(played: Path) -> None:
    text = invoke(["diff", "0", "1"], played).stdout
    data = json.loads(invoke(["diff", "0", "1", "--format", "json"], played).stdout)
    if "risk-legacy" in data["game"] and "shadow" not in data["game"]:
        assert "Ann founds 'Sunny Glasgow' (Major City) in Great Britain (line" in text
        assert "Game 1 ends: Ann wins; Bob held on; Cat was eliminated" in text
        assert "city 'Sunny Glasgow' founded in Great Britain (Major City, Ann)" in text
        later = invoke(["diff", "1", "3"], played).stdout
        assert "Bob names South America 'Awesometonia' (Continent name)" in later
        assert "Alaska: resources 3 -> 4" in later
        assert "Cat cancels the Bunker on Greenland (Scar Cancel (white sticker))" in invoke(["diff", "3", "4"],
                                                                                            played).stdout
    else:
        assert "Ann names South America 'Paradise' (Continent name)" in text
        assert "Ann plays The Green Faction and Kai Weller from NA-01" in text
        assert "Ann passes: Choose a tactic from the warlord upgrade cards for Kai Weller" in text
        assert "South America: named 'Paradise'" in text
    assert data["changes"]["signatures"] == [{"player": "Ann", "game": 1}]
    assert "Ann signs after game 1" in text


def test_a_number_past_the_campaign_is_a_wrong_command_line(played: Path) -> None:
    last = ended(played)
    for args in (["status", "--after", str(last + 1)], ["diff", str(last + 1)], ["diff", "4", "2"],
                 ["sheet", "--after", "99"], ["status", "--after", "-1"], ["diff"]):
        result = invoke(args, played)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
    assert f"the campaign has {last} games ended" in invoke(["status", "--after", str(last + 1)], played).output


def test_sheet_after_n_is_the_sheet_of_the_file_cut_there(played: Path, tmp_path: Path) -> None:
    for n in (1, 6):
        mine, theirs = tmp_path / f"after-{n}.svg", tmp_path / f"cut-{n}.svg"
        assert invoke(["sheet", "--after", str(n), "--format", "svg", "--out", str(mine)], played).exit_code == 0
        short = cut(played, n, tmp_path)
        assert invoke(["sheet", "--format", "svg", "--out", str(theirs)], short).exit_code == 0
        assert mine.read_bytes() == theirs.read_bytes()
    assert (tmp_path / "after-1.svg").read_bytes() != (tmp_path / "after-6.svg").read_bytes()


def test_build_after_n_builds_the_game_as_it_stood_then(played: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from scarbook.cli.main import app

    runner = CliRunner()
    short = cut(played, 2, tmp_path)
    for name, args in (("after", ["--campaign", str(played), "--after", "2"]), ("cut", ["--campaign", str(short)]),
                       ("now", ["--campaign", str(played)])):
        result = runner.invoke(app, ["build", *args, "--only", "tables", "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    after = sorted((tmp_path / "after").glob("*/tables/*.json"))

    def same(other: str) -> bool:
        return [p.read_bytes() for p in after] == [
            (tmp_path / other / p.relative_to(tmp_path / "after")).read_bytes() for p in after]

    assert after and same("cut") and not same("now")
    assert runner.invoke(app, ["build", "--after", "2"]).exit_code == 2


# --- the chronicle ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def chronicles(played: Path) -> tuple[Path, Path]:
    """`chronicle` and `chronicle --format html` of the played campaign (a board drawn per game: seconds each),
    written once per run beside a copy of its ledger (campaigns/shared.py), read by the tests below. The two
    commands tell the same ledger: what `history.chronicle` makes of it (its pages, a board laid out per game: 26 s
    of CPU for Shadow Forces' 15) is made by the first and given to the second as made, each then writing its own
    file (the HTML with its fonts inlined, the PDF rendered)."""
    import copy

    from scarbook.campaign import history

    def make(folder: Path) -> None:
        file = folder / played.name
        file.write_bytes(played.read_bytes())
        told: dict[bytes, object] = {}
        real = history.chronicle

        def once(campaign: object, progress: object = None) -> object:
            key = file.read_bytes()  # the same ledger, byte for byte: the same chronicle
            if key not in told:
                told[key] = real(campaign, progress)  # type: ignore[arg-type]
            return copy.deepcopy(told[key])

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(history, "chronicle", once)
            for args in (["chronicle"], ["chronicle", "--format", "html"]):
                result = invoke(args, file)
                assert result.exit_code == 0, result.output
        assert len(told) == 1

    file = once_per_run(f"chronicles\0{hashlib.sha256(played.read_bytes()).hexdigest()}", make) / played.name
    return file.with_suffix(".chronicle.pdf"), file.with_suffix(".chronicle.html")


def test_the_chronicle_has_a_title_page_a_page_per_game_with_its_board_and_an_end(
        played: Path, chronicles: tuple[Path, Path]) -> None:
    """A game that changed the board starts a page and draws it; a game after which the board looks exactly as
    before says after which game it was drawn (Risk Legacy's game 16 gives no rewards) and follows on the page."""
    import re

    from pypdf import PdfReader

    pdf, _ = chronicles
    games = len(starts(played))
    pages = [page.extract_text() for page in PdfReader(pdf).pages]
    board_word = "Alaska" if "Test World" in pages[0] else "NA-01"  # a territory's label on each game's board
    parts = re.split(r"(?m)^\s*(?=Game \d+ · )", "\n".join(pages[1:-1]))
    told = {int(re.match(r"Game (\d+)", part)[1]): part for part in parts if part.startswith("Game ")}  # type: ignore[index]
    assert sorted(told) == list(range(1, games + 1))
    drawn, same = 0, []
    for n, part in told.items():
        if f"The board after game {n}" in part:
            own = [page for page in pages if page.lstrip().startswith(f"Game {n} ")]  # a page of its own
            assert own and board_word in own[0].split(f"The board after game {n}")[1], n
            drawn = n
        else:
            assert f"The board is as it was after game {drawn}." in part, (n, part[-200:])
            same.append(n)
    assert len(pages) <= games + 2  # a game that follows on needs no page of its own where it fits
    if "Test World" in pages[0]:
        assert same == [16], same  # the game without rewards; every rewarded game changed the board
        assert len(pages) == games + 1  # game 16 fits under game 15's board
    assert "The end of the campaign" in pages[-1]
    assert "Ann" in pages[1] and "winner" in pages[1]
    if board_word == "NA-01":  # the Shadow Forces campaign ends in a three-way tie: a list, not 'Ann and Bob and Cat'
        assert "a tie between Ann, Bob and Cat (5 signatures each)" in " ".join(pages[-1].split()), pages[-1][:300]


def test_the_chronicle_html_stands_alone_and_tells_nothing_before_its_packet_opens(
        played: Path, chronicles: tuple[Path, Path]) -> None:
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.history import replay_after
    from scarbook.campaign.ledger.cache import read

    _, html_file = chronicles
    html = html_file.read_text("utf-8")
    assert "url(fonts/" not in html and "http://" not in html.replace("http://www.w3.org", "")
    assert "data:font/ttf;base64," in html
    sections = re.split(r'<section class="(?:page|flow)">', html)[1:]
    games = len(starts(played))
    assert len(sections) == games + 2
    campaign = Campaign(read(played))
    final = campaign.replay(check=False).content
    names = {sid: str(st.get("name") or sid) for sid, st in final.stickers.items()}
    checked = 0
    for n in range(1, games + 1):
        assert "<svg" in sections[n] or "The board is as it was after game" in sections[n]
        if n >= len(starts(played)) or n > ended(played):
            continue
        then = replay_after(campaign, n, check=False).content
        visible = " ".join(str(v.get("name", "")) for sec in ("territories", "regions", "cards", "stickers",
                                                             "envelopes") for v in then.game.section(sec).values()
                           if isinstance(v, dict))
        sealed = [names[s] for s in final.stickers if s not in then.stickers and names[s] not in visible]
        checked += len(sealed)
        for name in sealed:
            assert name not in sections[n], (n, name)
    assert checked  # some content is opened later in each campaign: the check is not vacuous


def test_the_chronicle_never_writes_over_the_campaign_file(played: Path, tmp_path: Path) -> None:
    before = played.read_bytes()
    result = invoke(["chronicle", "--out", str(played)], played)
    assert result.exit_code == 2 and "is the campaign file" in result.output
    assert played.read_bytes() == before


def test_a_game_in_progress_has_no_end_yet(tmp_path: Path) -> None:
    from campaigns.helpers import SETUP, START

    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\nplace bunker greenland --by Ann\n", file)
    result = invoke(["status", "--after", "1"], file)
    assert result.exit_code == 2 and "game 1 has not ended" in result.output
    setup_only = cut(file, 0, tmp_path)
    assert invoke(["status", "--after", "0"], file).stdout == invoke(["status"], setup_only).stdout
    told = json.loads(invoke(["diff", "0", "--format", "json"], file).stdout)["events"]
    assert [(e["when"], e["event"]["event"]) for e in told] == [("start", "game-start"), ("during", "place")]
    assert told[1]["text"] == "Ann places Bunker on Greenland"


def test_a_chronicle_before_the_first_game_has_its_title_and_its_end(tmp_path: Path) -> None:
    from campaigns.helpers import SETUP

    file = tmp_path / "c.yaml"
    assert not run_script(SETUP, file)
    assert invoke(["chronicle", "--format", "html"], file).exit_code == 0
    html = (tmp_path / "c.chronicle.html").read_text("utf-8")
    sections = html.split('<section class="page">')[1:]
    assert len(sections) == 2 and "Before the first game" in sections[0] and "The end of the campaign" in sections[1]
    # the +1 is said once: the sticker's name says it (issue 34 P8)
    assert "the group places Coin (+1 resource) on Alaska (x2)" in sections[0] and "(resources +1)" not in html


def test_the_chronicle_prose_says_stats_in_words_not_keys() -> None:
    """Issue 34 P8: a stat a sticker sets or raises reads "melee dice", never the key "melee_dice"."""
    from scarbook.campaign.narrate import plain

    assert plain("melee_dice") == "melee dice" and plain("cyber_tech") == "cyber tech"
    assert plain("Kai Weller") == "Kai Weller"  # a name is left as it is


def test_the_chronicle_names_no_internal_id(played: Path, chronicles: tuple[Path, Path]) -> None:
    """Issue 34 item 5: a faction's chosen power is told by its name, or by its place on the faction's card when no
    source names it ("starting tactic 2 (its name is not known)"), never by its id ("white-starting-tactic-2")."""
    from conftest import pdftotext
    from scarbook.compiler.validate import cached_game

    pdf, _ = chronicles
    text = " ".join(pdftotext(pdf).split())
    game = "risk-shadow-forces" if "NA-01" in text else "risk-legacy"
    ids = {str(p["id"]) for f in cached_game(game).section("factions").values() for p in f.get("powers") or []
           if isinstance(p, dict) and "-" in str(p.get("id", ""))}
    shown = sorted(i for i in ids if i in text)
    assert not shown, shown
    if game == "risk-shadow-forces":
        assert "on The White Faction: starting tactic 2 (its name is not known)" in text
