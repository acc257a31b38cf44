"""Outputs written as `build` writes them, and packs that are not packs (issue 26, items 3 and 4).

`schema --export DIR` never writes through a symlink at an output name nor replaces a file it did not write;
`new game DIR` refuses a folder that is not empty (as `examples copy` does) and never writes through a
symlink; `campaign new --pack`, `add-pack` and `open --pack` refuse a folder that is not a pack (empty, `/`,
`/etc`) before anything is written, saying what a pack needs. Real processes on real files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from campaigns.helpers import setup_bytes
from campaigns.procs import sb


# --- 3. schema --export and new game ----------------------------------------------------------------------
def test_schema_export_never_writes_through_a_symlink(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "sx"
    out.mkdir()
    (out / "board.schema.json").symlink_to("../victim.txt")
    result = sb("schema", "--export", str(out))
    assert result.returncode == 2
    assert "board.schema.json is a symbolic link; nothing was written" in result.stderr
    assert victim.read_text() == "precious"
    assert sorted(p.name for p in out.iterdir()) == ["board.schema.json"]  # nothing else either


def test_schema_export_keeps_a_users_own_file_and_replaces_its_own(tmp_path: Path) -> None:
    out = tmp_path / "sx"
    first = sb("schema", "--export", str(out))
    assert first.returncode == 0, first.stderr
    names = sorted(p.name for p in out.iterdir())
    assert "board.schema.json" in names
    again = sb("schema", "--export", str(out))  # its own files: replaced
    assert again.returncode == 0, again.stderr
    assert json.loads((out / "board.schema.json").read_text())["$comment"].startswith("Standalone form")
    (out / "board.schema.json").write_text('{"mine": true}\n')
    mine = sb("schema", "--export", str(out))
    assert mine.returncode == 2 and "was not written by 'scarbook schema --export'" in mine.stderr
    assert (out / "board.schema.json").read_text() == '{"mine": true}\n'


def test_new_game_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    result = sb("new", "game", str(folder))
    assert result.returncode == 2 and "is not empty" in result.stderr, result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    copy = sb("examples", "copy", "tiny-game", str(folder))  # the same as `examples copy`
    assert copy.returncode == 2 and "is not empty" in copy.stderr


def test_new_pack_never_writes_through_a_dangling_symlink(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "pack.yaml").symlink_to(tmp_path / "victim.yaml")  # dangling: `exists()` says False
    result = sb("new", "pack", str(folder), "--extends", "risk-legacy")
    assert result.returncode == 2 and "exists already" in result.stderr
    assert not (tmp_path / "victim.yaml").exists()


# --- 4. a folder that is not a pack -----------------------------------------------------------------------
NOT_PACKS = ["empty", "/", "/etc", "nopack"]


def _non_pack(tmp_path: Path, which: str) -> str:
    if which == "empty":
        (tmp_path / "empty").mkdir()
        return str(tmp_path / "empty")
    if which == "nopack":
        (tmp_path / "nopack").mkdir()
        (tmp_path / "nopack" / "notes.yaml").write_text("title: not a pack\n")
        return str(tmp_path / "nopack")
    return which


@pytest.mark.parametrize("which", NOT_PACKS)
def test_add_pack_refuses_a_folder_that_is_not_a_pack(ledger: Path, tmp_path: Path, which: str) -> None:
    before = ledger.read_bytes()
    pack = _non_pack(tmp_path, which)
    result = sb("campaign", "add-pack", pack, "-c", str(ledger), timeout=30)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "X508" in result.stderr and "a pack is a folder (or one YAML file) whose YAML files hold a " \
        "'pack:' section" in result.stderr
    assert ledger.read_bytes() == before
    assert sb("campaign", "check", "-c", str(ledger)).returncode == 0


@pytest.mark.parametrize("which", NOT_PACKS)
def test_campaign_new_refuses_a_pack_that_is_not_one(tmp_path: Path, which: str) -> None:
    pack = _non_pack(tmp_path, which)
    file = tmp_path / "n.yaml"
    result = sb("campaign", "new", str(file), "--game", "risk-legacy", "--player", "Ann", "--player", "Bob",
                "--player", "Cat", "--pack", pack, timeout=30)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "X508" in result.stderr and "is not a pack" in result.stderr + result.stdout \
        or "system folder" in result.stderr
    assert not file.exists()


def test_open_refuses_a_pack_that_is_not_one(ledger: Path, tmp_path: Path) -> None:
    before = ledger.read_bytes()
    result = sb("campaign", "open", "faction-eliminated", "--pack", _non_pack(tmp_path, "empty"), "-c", str(ledger))
    assert result.returncode == 1 and "X508" in result.stderr, result.stderr
    assert ledger.read_bytes() == before


@pytest.mark.parametrize("which", ["/etc", "empty"])
def test_no_write_onto_a_ledger_whose_recorded_pack_is_not_one(ledger: Path, tmp_path: Path, which: str) -> None:
    """The audit's mutants: a recorded pack edited by hand into `/etc` (or an empty folder). `check` rejects that
    line (L010/X508); every write refuses too (before, `game start` was recorded onto it), until it is undone."""
    ledger.write_bytes(setup_bytes())  # between games (before game 1): a pack may be added
    assert sb("examples", "copy", "new-scar", str(tmp_path / "ns")).returncode == 0
    assert sb("campaign", "add-pack", str(tmp_path / "ns"), "-c", str(ledger)).returncode == 0
    line = ledger.read_bytes().count(b"\n")
    text = ledger.read_text("utf-8")
    assert text.endswith("- {event: add-pack, pack: ns, fingerprint: " + text[-18:]), text[-200:]
    ledger.write_text(text.replace("pack: ns,", f"pack: {_non_pack(tmp_path, which)},"), "utf-8")
    before = ledger.read_bytes()
    check = sb("campaign", "check", "-c", str(ledger))
    assert check.returncode == 1 and f"c.yaml:{line}:3: error L010" in check.stdout, check.stdout
    status = sb("campaign", "status", "-c", str(ledger))  # status still shows the campaign, and says so
    assert status.returncode == 0 and f"warning: the campaign file records a pack with errors at line {line}; run " \
        "'scarbook campaign check'" in status.stderr, status.stderr
    for command in (["campaign", "game", "start", "--play", "Ann=die-mechaniker", "--play", "Bob=khan-industries",
                     "--play", "Cat=saharan-republic"], ["campaign", "place", "bunker", "peru"]):
        write = sb(*command, "-c", str(ledger))
        assert write.returncode == 1, write.stdout + write.stderr
        assert f"error L007: the campaign file already has an illegal or unreadable event (line {line}: a pack " \
            "with errors)" in write.stderr, write.stderr
        assert ledger.read_bytes() == before
    assert sb("campaign", "undo", "-c", str(ledger)).returncode == 0  # the way out
    assert sb("campaign", "check", "-c", str(ledger)).returncode == 0
