"""The caches stay small and portable (issue 15): one ledger entry per ledger, a size cap with
least-recently-used eviction, and a content cache that does not depend on the current folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script

from scarbook.compiler.validate import cached_game
from scarbook.kernel.cachedir import cache_stored

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SCARBOOK_CACHE", str(folder))
    return folder


def test_one_ledger_entry_per_ledger_replaced_by_each_write(cache: Path, tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP, file)
    for _ in range(3):
        assert invoke(START.split(), file).exit_code == 0
        assert invoke(["undo"], file).exit_code == 0
    assert invoke(["status"], file).exit_code == 0
    assert len(entries(cache)) == 1
    other = tmp_path / "d.yaml"
    other.write_bytes(file.read_bytes())
    assert invoke(["status"], other).exit_code == 0
    assert len(entries(cache)) == 2


def entries(cache: Path) -> set[str]:
    """The ledger entries in the cache: each is the files sharing a name up to the first dot (its parts)."""
    return {p.name.split(".", 1)[0] for p in (cache / "ledgers").iterdir()}


def test_an_entry_of_older_bytes_is_not_used(cache: Path, tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP, file)
    file.write_text(file.read_text() + "- {event: place, sticker: coin, target: nowhere}\n")  # by hand
    result = invoke(["check"], file)
    assert result.exit_code == 1 and "nowhere" in result.output


def test_the_cache_is_capped_least_recently_used_first(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (cache / "ledgers").mkdir(parents=True)
    entries = []
    for i in range(5):
        entry = cache / "ledgers" / f"{i}.json"
        entry.write_bytes(b"x" * 10_000)
        os.utime(entry, (1000 + i, 1000 + i))
        entries.append(entry)
    os.utime(entries[0], (2000, 2000))  # the oldest was used last
    monkeypatch.setenv("SCARBOOK_CACHE_MB", str(30_000 / 1024 / 1024))
    cache_stored(entries[1])
    assert sorted(e.name for e in (cache / "ledgers").iterdir()) == ["0.json", "1.json", "4.json"]


@pytest.mark.parametrize("shipped", [True, False], ids=["shipped validated", "cache folder"])
def test_the_content_cache_does_not_depend_on_the_current_folder(cache: Path, tmp_path: Path, shipped: bool,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.compiler import validate

    if not shipped:  # as if the game's files had changed since the release: validated, kept in the cache folder
        monkeypatch.setattr(validate, "_shipped", lambda game_id: None)
    monkeypatch.chdir(ROOT)
    here = cached_game("risk-legacy")
    monkeypatch.chdir(tmp_path)
    there = cached_game("risk-legacy")
    assert len(list(cache.glob("risk-legacy-*.json"))) == (0 if shipped else 1)
    board = here.spans["north-america"].file
    assert not os.path.isabs(board) and (ROOT / board).is_file()  # shown relative inside the folder
    assert Path(there.spans["north-america"].file) == ROOT / board  # absolute outside it
    monkeypatch.chdir(ROOT)
    assert cached_game("risk-legacy").spans == here.spans


def test_undo_replaces_the_entry_and_keeps_the_verdict(cache: Path, tmp_path: Path) -> None:
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.ledger.file import parse

    file = tmp_path / "c.yaml"
    assert not run_script(SETUP, file)
    assert invoke(["check"], file).exit_code == 0
    verdict = read(file).verified
    assert verdict
    assert invoke(START.split(), file).exit_code == 0
    assert invoke(["undo"], file).exit_code == 0
    cached = read(file)  # from the entry the undo wrote: nothing parsed
    assert cached.cache and cached.verified == verdict
    assert cached.events == parse(file.read_text(), file).events
    assert len(entries(cache)) == 1


def test_a_ledger_entry_is_evicted_with_all_its_parts(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (cache / "ledgers").mkdir(parents=True)
    for i, stamp in ((0, 1000), (1, 3000), (2, 2000)):
        for part, size in (("head", 100), ("events", 9_000), ("games", 900)):
            entry = cache / "ledgers" / f"k{i}.{part}"
            entry.write_bytes(b"x" * size)
            os.utime(entry, (stamp + (50 if part == "head" else 0),) * 2)  # a read touches the head only
    monkeypatch.setenv("SCARBOOK_CACHE_MB", str(25_000 / 1024 / 1024))
    cache_stored(cache / "ledgers" / "k1.head")
    assert entries(cache) == {"k1", "k2"}
    assert len(list((cache / "ledgers").iterdir())) == 6
