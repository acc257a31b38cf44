"""The smaller findings of issue 26, item 9, with real processes and real files: `build --campaign` blames the
ledger's line for markup a player's name brought; the cache size cap counts every file of the cache folder
(compiled templates, validators, the compiled-code file); a hand edit that rewrites the file in place while
an event is appended is named at the line it changed. (Hard-linked names sharing one lock: test_trust.py.)"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from campaigns.helpers import setup_bytes
from campaigns.procs import PLACE, SCARBOOK, events_of, proc_env, sb

START = ["campaign", "game", "start", "--play", "<i>Ann</i>=die-mechaniker", "--play", "Bob=khan-industries",
         "--play", "Cat=saharan-republic"]


def test_build_campaign_blames_the_ledger_for_markup_in_a_players_name(ledger: Path, tmp_path: Path) -> None:
    ledger.write_bytes(setup_bytes().replace(b"Ann", b"<i>Ann</i>"))  # before game 1
    assert sb(*START, "-c", str(ledger)).returncode == 0
    line = len(ledger.read_text("utf-8").splitlines())  # the game start that recorded the name
    result = sb("build", "risk-legacy", "--campaign", str(ledger), "--out", str(tmp_path / "out"), timeout=300)
    assert result.returncode == 1
    out = result.stdout + result.stderr
    assert f"c.yaml:{line}:1: error B301: faction 'die-mechaniker' has HTML markup in 'record/0/player'" in out, out
    assert "factions.yaml" not in out


def _files(cache: Path) -> list[tuple[float, int, str]]:
    return sorted((p.stat().st_mtime, p.stat().st_size, str(p)) for p in cache.rglob("*") if p.is_file())


def test_the_cache_cap_counts_templates_validators_and_code(ledger: Path, tmp_path: Path) -> None:
    """With a 50 KB cap, every command leaves at most the cap, besides the entry it stored last (which is never
    evicted by itself): before, compiled templates and the compiled-code file were not counted (2.8 x the cap)."""
    cache = tmp_path / "cache"
    cap = int(0.05 * 1024 * 1024)
    for command in (["campaign", "sheet", "--format", "html", "--out", str(tmp_path / "s.html")],
                    ["campaign", "status"], ["campaign", "sheet", "--format", "svg", "--out", str(tmp_path / "s.svg")]):
        result = sb(*command, "-c", str(ledger), SCARBOOK_CACHE=str(cache), SCARBOOK_CACHE_MB="0.05")
        assert result.returncode == 0, result.stderr
        files = _files(cache)
        assert sum(size for _, size, _ in files[:-1]) <= cap, files
    assert (cache / "templates").is_dir()  # the templates were cached (and counted)


def test_a_rewrite_in_place_during_a_write_is_named_at_its_line(ledger: Path) -> None:
    """An editor that saves into the same file (not by rename) inserted a line at line 2 while `place` was
    between its last comparison and its append: the note names line 2, not the end of the file."""
    proc = subprocess.Popen([SCARBOOK, *PLACE, "-c", str(ledger)],
                            env=proc_env(SCARBOOK_FAULT="ledger-after-check:pause"), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert proc.stderr.readline().strip() == "paused ledger-after-check"
    lines = ledger.read_bytes().splitlines(keepends=True)
    edited = b"".join([lines[0], b"# a note typed at the top\n", *lines[1:]])
    fd = os.open(ledger, os.O_WRONLY)  # in place: same inode, like `vim` with backupcopy=yes
    try:
        os.write(fd, edited)
    finally:
        os.close(fd)
    out, err = proc.communicate("\n", timeout=60)
    assert proc.returncode == 0, out + err
    assert "note: the file was changed by hand at line 2 while this event was being written" in out + err, out + err
    assert ledger.read_bytes().startswith(edited)
    assert events_of(ledger)[-1] == {"event": "place", "sticker": "bunker", "target": "peru", "by": "Ann"}
