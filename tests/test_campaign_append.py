"""Appending to a ledger the cache vouches for: the old events are folded without being checked again.

The parsed-ledger cache records "every event of these very bytes is legal under this content key"
after a full check; a write then checks only its new event. A hand edit (other bytes), a changed
pack or a changed tracker voids that, and `check` always re-checks everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script

from conftest import refused as refuses
from conftest import snapshot
from scarbook.campaign import engine, replaycache
from scarbook.campaign.engine import Campaign
from scarbook.campaign.ledger.cache import read

PACK = ("pack: {id: eliminated-packet, title: Eliminated packet, extends: risk-legacy}\nstickers:\n"
        "  - id: homebrew-mark\n    name: Homebrew mark\n    kind: mark\n    targets: [territory]\n"
        "    supply: SUPPLY\n    checks:\n      - {check: supply-left, cite: 'our packet'}\n")


@pytest.fixture(autouse=True)
def _no_env_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the legality of one event was checked (a full re-check runs it per event)."""
    calls = [0]
    real = engine.admit

    def counting(*args: object) -> object:
        calls[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "admit", counting)
    return calls


@pytest.fixture
def setup_file(tmp_path: Path) -> Path:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP, file)
    return file


def test_an_append_checks_only_the_new_event(setup_file: Path, checks: list[int]) -> None:
    assert read(setup_file).verified  # the last write vouched for the file it wrote
    assert invoke(START.split(), setup_file).exit_code == 0
    assert checks == [1]
    assert invoke(["place", "bunker", "peru", "--by", "Ann"], setup_file).exit_code == 0
    assert checks == [2]


def test_without_a_verdict_every_event_is_checked(setup_file: Path, checks: list[int], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "empty-cache"))
    events = len(read(setup_file).events)
    assert invoke(START.split(), setup_file).exit_code == 0
    assert checks == [events + 1]
    assert invoke(["place", "bunker", "brazil", "--by", "Ann"], setup_file).exit_code == 0
    assert checks == [events + 2]  # and the next one is fast again


def test_check_always_rechecks_every_event(setup_file: Path, checks: list[int]) -> None:
    ledger = read(setup_file)
    assert ledger.verified
    result = invoke(["check"], setup_file)
    assert result.exit_code == 0, result.output
    assert checks == [len(ledger.events)]


def test_a_hand_edited_illegal_event_is_caught_by_the_next_append(setup_file: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    assert not run_script(START + "\nplace bunker peru --by Ann\ngame end --winner Ann --held-on Bob --held-on Cat\n",
                          setup_file)
    assert read(setup_file).verified
    lines = setup_file.read_text().splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines, 1) if "target: brazil-card" in line)
    lines[number - 1] = lines[number - 1].replace("brazil-card", "alaska-card")  # a 3rd coin on Alaska
    setup_file.write_text("".join(lines))
    edited = setup_file.read_bytes()

    refused = invoke(["place", "coin", "peru", "--by", "Ann"], setup_file)
    refuses(refused, "L007", file_before=(setup_file, edited))
    assert refused.output == (f"error L007: the campaign file already has an illegal or unreadable event (line "
                              f"{number}); see 'scarbook campaign check', then fix it by hand or 'scarbook "
                              "campaign undo'\nnothing was written\n")
    assert setup_file.read_bytes() == edited
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "no-cache"))  # what a tracker without any cache says
    cold = invoke(["place", "coin", "peru", "--by", "Ann"], setup_file)
    assert (cold.exit_code, cold.output) == (refused.exit_code, refused.output)
    assert setup_file.read_bytes() == edited


def test_a_changed_pack_voids_the_verdict(tmp_path: Path, checks: list[int]) -> None:
    pack = tmp_path / "packet"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK.replace("SUPPLY", "2"), "utf-8")
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --eliminated Cat\n"
                          f"open faction-eliminated --pack {pack}\nplace homebrew-mark peru\n"
                          "place homebrew-mark brazil\n", file)
    assert read(file).verified
    (pack / "pack.yaml").write_text(PACK.replace("SUPPLY", "1"), "utf-8")  # now the second mark is one too many
    checks[0] = 0
    refused = invoke(["place", "bunker", "alaska"], file)
    refuses(refused, "L007", file_before=snapshot(file))
    assert checks[0] == len(read(file).events)


def test_a_changed_tracker_voids_the_verdict(setup_file: Path, checks: list[int],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    events = len(read(setup_file).events)
    monkeypatch.setattr(replaycache, "code_fingerprint", lambda: "another-version")
    replay = replaycache.for_state(Campaign(read(setup_file)))
    assert replay.checked == events and checks == [events] and replay.verified
    again = replaycache.for_state(Campaign(read(setup_file)))  # the new verdict is kept
    assert again.checked == 0 and again.verified == replay.verified and checks == [events]


def test_undo_cuts_the_last_line_without_parsing_the_ledger_again(setup_file: Path, checks: list[int],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.campaign.ledger import cache as ledger_module  # where `read` parses a ledger

    assert invoke(START.split(), setup_file).exit_code == 0
    before = setup_file.read_bytes()
    assert invoke(["place", "bunker", "peru", "--by", "Ann"], setup_file).exit_code == 0

    def no_parsing(*args: object) -> object:
        raise AssertionError("the ledger was parsed again")

    with monkeypatch.context() as patch:
        patch.setattr(ledger_module, "parse", no_parsing)
        assert invoke(["undo"], setup_file).exit_code == 0
    assert setup_file.read_bytes() == before
    checks[0] = 0
    assert invoke(["place", "bunker", "peru", "--by", "Ann"], setup_file).exit_code == 0
    assert checks[0] == 1  # the verdict on the shorter file still holds: only the new event is checked


def test_undo_of_a_hand_written_last_event_in_block_style(setup_file: Path) -> None:
    text = setup_file.read_text() + "- event: place\n  sticker: coin\n  target: alaska-card\n"
    setup_file.write_text(text)
    assert invoke(["undo"], setup_file).exit_code == 0
    assert "alaska-card" not in setup_file.read_text().split("events:")[1].splitlines()[-1]
    assert invoke(["check"], setup_file).exit_code == 0
