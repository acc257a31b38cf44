"""The ledger cache's folded state (issue 15 item 3): after any sequence of writes, undos and hand edits, the
state a command starts from is the one a cold full replay gives; a damaged or tampered entry is discarded.

Each comparison runs `status --format json` twice: with the cache the commands kept filling (warm), and with
a cache holding only the validated content (cold: the ledger is parsed, every event checked and folded).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script, script
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_campaign_props import command

from scarbook.campaign import replaycache
from scarbook.campaign.engine import Campaign
from scarbook.campaign.ledger.cache import read

END = "game end --winner Ann --held-on Bob --eliminated Cat"
_LINES = script("risk-legacy-15.txt").splitlines(keepends=True)
_STARTS = [n for n, line in enumerate(_LINES) if line.startswith("game start")]  # the legal ones (no !CODE)
FIVE_GAMES = "".join(_LINES[:_STARTS[5]])  # five games played, their rewards taken
SIXTH_START = _LINES[_STARTS[5]].strip()


@contextmanager
def cache_at(folder: Path) -> Iterator[None]:
    before = os.environ.get("SCARBOOK_CACHE")
    os.environ["SCARBOOK_CACHE"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SCARBOOK_CACHE", None)
        else:
            os.environ["SCARBOOK_CACHE"] = before


def content_only(warm: Path, cold: Path) -> None:
    """A cache folder with the warm one's validated content and no ledger entry."""
    shutil.rmtree(cold, ignore_errors=True)
    cold.mkdir(parents=True)
    for entry in warm.glob("*.json"):
        shutil.copy(entry, cold / entry.name)


def status_json(file: Path) -> tuple[int, str]:
    result = invoke(["status", "--format", "json"], file)
    return result.exit_code, result.output


def same_as_cold(file: Path, warm: Path, cold: Path, what: object) -> None:
    with cache_at(warm):
        fast = status_json(file)
    content_only(warm, cold)
    with cache_at(cold):
        full = status_json(file)
    assert fast == full, what


HAND_EDITS = {
    "append a coin by hand": lambda text: text + "- {event: place, sticker: coin, target: peru-card}\n",
    "cut the last line by hand": lambda text: "".join(text.splitlines(keepends=True)[:-1]),
    "a comment": lambda text: text + "# a note\n",
    "peru for alaska": lambda text: text.replace("alaska", "peru", 1),
}
step = st.one_of(command, command, command, st.just(START.split()), st.just(END.split()), st.just(["undo"]),
                 st.sampled_from(sorted(HAND_EDITS)))


@pytest.fixture(scope="module")
def base_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("state-cache")
    file = folder / "c.yaml"
    with cache_at(folder / "cache"):
        assert not run_script(FIVE_GAMES, file)
    return file


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(step, min_size=1, max_size=12))
def test_the_cached_state_is_the_cold_replay_after_any_sequence(base_file: Path, steps: list[object]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        file, warm, cold = Path(tmp) / "c.yaml", Path(tmp) / "warm", Path(tmp) / "cold"
        shutil.copy(base_file, file)
        for done, args in enumerate(steps):
            if isinstance(args, str):
                file.write_text(HAND_EDITS[args](file.read_text("utf-8")), "utf-8")
            else:
                with cache_at(warm):
                    result = invoke(args, file)  # type: ignore[arg-type]
                assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
            same_as_cold(file, warm, cold, steps[:done + 1])


def test_undo_after_undo_and_old_games_come_from_the_cache(tmp_path: Path) -> None:
    warm, cold, file = tmp_path / "warm", tmp_path / "cold", tmp_path / "c.yaml"
    with cache_at(warm):
        assert not run_script(FIVE_GAMES + SIXTH_START, file)
        replay = replaycache.for_state(Campaign(read(file)))
        assert replay.verified and replay.checked == 0  # the state, from the cache
        games = replay.state.games
        assert not getattr(games, "loaded", True)  # the old games are still on disk
        assert [g.number for g in games] == [1, 2, 3, 4, 5, 6]
    same_as_cold(file, warm, cold, "start")
    for n in range(14):  # past the 8 states kept for undo: then the events are folded again
        with cache_at(warm):
            assert invoke(["undo"], file).exit_code == 0
        same_as_cold(file, warm, cold, f"undo {n + 1}")
    for args in (["place", "bunker", "peru", "--by", "Bob"], ["undo"], ["place", "minor-city", "peru", "--by", "Bob",
                                                                         "--name", "Lima"]):
        with cache_at(warm):
            assert invoke(args, file).exit_code in (0, 1)
        same_as_cold(file, warm, cold, args)


@pytest.mark.parametrize("part", ["head", "events", "games"])
@pytest.mark.parametrize("damage", ["flip", "cut", "garbage"])
def test_a_damaged_cache_entry_is_discarded(tmp_path: Path, part: str, damage: str) -> None:
    warm, cold, file = tmp_path / "warm", tmp_path / "cold", tmp_path / "c.yaml"
    with cache_at(warm):
        assert not run_script(FIVE_GAMES, file)
        assert invoke(["status"], file).exit_code == 0
    [entry] = (warm / "ledgers").glob(f"*.{part}")
    data = bytearray(entry.read_bytes())
    if damage == "flip":
        data[len(data) * 2 // 3] ^= 0x41
    elif damage == "cut":
        del data[len(data) // 2:]
    else:
        data[:] = b"\x80\x05garbage" * 10
    entry.write_bytes(bytes(data))
    same_as_cold(file, warm, cold, (part, damage))
    with cache_at(warm):
        for args in (["log"], ["check"], ["where", "bunker"], START.split(), ["undo"], ["undo"]):
            result = invoke(args, file)
            assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
            assert result.exit_code in (0, 1), (args, result.output)
            assert "Traceback" not in result.output
    same_as_cold(file, warm, cold, (part, damage, "after"))


def test_a_changed_tracker_voids_the_cached_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.campaign import replaycache

    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "cache"))
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + "\n" + START, file)
    assert replaycache.for_state(Campaign(read(file))).checked == 0
    monkeypatch.setattr(replaycache, "code_fingerprint", lambda: "another-version")
    assert replaycache.for_state(Campaign(read(file))).checked == len(read(file).events)


def test_a_cache_entry_others_may_write_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The entries hold pickles: one that another user could have written (a shared or planted folder) is a miss."""
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "cache"))
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + "\n" + START, file)
    assert replaycache.for_state(Campaign(read(file))).checked == 0
    [entry] = (tmp_path / "cache" / "ledgers").glob("*.head")
    entry.chmod(0o666)
    assert replaycache.for_state(Campaign(read(file))).checked == len(read(file).events)  # checked again ...
    assert replaycache.for_state(Campaign(read(file))).checked == 0  # ... and a private entry written in its place


@given(st.text(alphabet="ab \n\r\u2028\x85", max_size=40))
def test_line_starts_counts_lines_as_an_editor_does(text: str) -> None:
    import re

    from scarbook.campaign.ledger.file import line_starts

    assert line_starts(text) == [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]


def _illegal(file: Path) -> None:
    """Five games played, then a hand-written event the rules refuse (a sticker the game does not have)."""
    assert not run_script(FIVE_GAMES, file)
    with file.open("a", encoding="utf-8") as out:
        out.write("- {event: place, sticker: no-such-sticker, target: peru}\n")


def test_a_ledger_with_illegal_events_is_judged_once_for_its_bytes(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """D6: reading a ledger with an illegal event again takes the verdict kept for these very bytes (no event
    checked), with the same problems and state as a cold replay; other bytes, a damaged entry or another tracker
    check it all again."""
    warm, cold, file = tmp_path / "warm", tmp_path / "cold", tmp_path / "c.yaml"
    with cache_at(warm):
        _illegal(file)
        first = replaycache.for_state(Campaign(read(file)))
        events = len(read(file).events)
        assert first.problems and first.checked == events
        again = replaycache.for_state(Campaign(read(file)))
        assert again.checked == 0 and not again.verified
        assert [(e.span.line, d.code, d.message) for e, d in again.problems] == \
            [(e.span.line, d.code, d.message) for e, d in first.problems]
        assert invoke(["place", "bunker", "peru", "--by", "Ann"], file).exit_code == 1  # still no write onto it
        assert replaycache.checked(Campaign(read(file))).checked == events  # `check` checks every event
    same_as_cold(file, warm, cold, "illegal, judged")
    with cache_at(warm):
        [entry] = (warm / "ledgers").glob("*.judged")
        entry.write_bytes(entry.read_bytes()[:-7] + b"garbage")
        assert replaycache.for_state(Campaign(read(file))).checked == events  # damaged: checked again ...
        assert replaycache.for_state(Campaign(read(file))).checked == 0  # ... and kept again
        monkeypatch.setattr(replaycache, "code_fingerprint", lambda: "another-version")
        assert replaycache.for_state(Campaign(read(file))).checked == events
        monkeypatch.undo()
        with file.open("a", encoding="utf-8") as out:
            out.write("# a comment: other bytes\n")
        assert replaycache.for_state(Campaign(read(file))).checked == events
    same_as_cold(file, warm, cold, "illegal, edited")
