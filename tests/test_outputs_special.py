"""Outputs onto special and existing files (issue 36, item 2), with real processes in a scratch folder.

A FIFO or a character device given as --out is written as a stream, never renamed over (the node stays); a
FIFO nobody reads is refused at once (no hang); an existing file that is not a previous output of scarbook
is refused unless --force; `--out -` is standard output; `build --out /` and onto a file are refused; a
`-c FILE` that is not a ledger gets no FILE.lock. The device nodes are made here (`os.mknod`, as root in CI);
the machine's own are never named.
"""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from pathlib import Path

import pytest
from campaigns.procs import PLACE, SCARBOOK, proc_env, sb


def _device(folder: Path, name: str, minor: int) -> Path:
    """A private character device (1, minor) in `folder`: 3 is like the null device, 7 like the full one."""
    node = folder / name
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("mknod is not permitted here")
    return node


@pytest.mark.parametrize("command", [["campaign", "sheet"], ["campaign", "sheet", "--format", "html"],
                                     ["campaign", "chronicle", "--format", "html"]])
def test_a_character_device_is_written_as_a_stream_and_stays_a_device(ledger: Path, command: list[str]) -> None:
    node = _device(ledger.parent, "mynull", 3)
    result = sb(*command, "--out", str(node), "-c", str(ledger), timeout=120)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.lstat(node).st_mode)  # not replaced by a regular file


@pytest.mark.parametrize("fmt", ["pdf", "html", "svg"])
def test_a_fifo_with_a_reader_gets_the_output_and_stays_a_fifo(ledger: Path, fmt: str) -> None:
    fifo = ledger.parent / "f"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = sb("campaign", "sheet", "--format", fmt, "--out", str(fifo), "-c", str(ledger), timeout=120)
    if result.returncode != 0:  # release the reader before failing
        with open(fifo, "wb"):
            pass
    reader.join(60)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith({"pdf": b"%PDF", "html": b"<!DOCTYPE", "svg": b"<svg"}[fmt]), got[:1]


@pytest.mark.parametrize("fmt", ["pdf", "html", "svg"])
def test_a_fifo_nobody_reads_is_refused_without_hanging(ledger: Path, fmt: str) -> None:
    fifo = ledger.parent / "f"
    os.mkfifo(fifo)
    result = sb("campaign", "sheet", "--format", fmt, "--out", str(fifo), "-c", str(ledger), timeout=60)
    assert result.returncode == 1 and "no program is reading" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_full_device_is_an_error_not_a_traceback(ledger: Path) -> None:
    full = _device(ledger.parent, "full", 7)
    result = sb("campaign", "sheet", "--format", "html", "--out", str(full), "-c", str(ledger), timeout=60)
    assert result.returncode == 1 and "No space left" in result.stderr and "Traceback" not in result.stderr
    with open(full, "wb") as out:  # standard output on a full device
        games = subprocess.run([SCARBOOK, "games"], stdout=out, stderr=subprocess.PIPE, text=True, timeout=60,
                               env=proc_env())
    assert games.returncode == 1 and "standard output" in games.stderr and "Traceback" not in games.stderr


@pytest.mark.parametrize("command", [["campaign", "sheet", "--format", "html"], ["campaign", "chronicle",
                                                                                "--format", "html"]])
def test_an_unrelated_existing_file_needs_force(ledger: Path, command: list[str]) -> None:
    victim = ledger.parent / "notes.txt"
    victim.write_text("my notes\n")
    refused = sb(*command, "--out", str(victim), "-c", str(ledger))
    assert refused.returncode == 1 and "not a previous output of scarbook" in refused.stderr
    assert "--force" in refused.stderr and victim.read_text() == "my notes\n"
    forced = sb(*command, "--out", str(victim), "--force", "-c", str(ledger))
    assert forced.returncode == 0, forced.stderr
    again = sb(*command, "--out", str(victim), "-c", str(ledger))  # now a previous output: no --force needed
    assert again.returncode == 0, again.stderr


def test_a_previous_pdf_output_is_replaced_without_force(ledger: Path) -> None:
    out = ledger.parent / "s.pdf"
    assert sb("campaign", "sheet", "--out", str(out), "-c", str(ledger), timeout=120).returncode == 0
    again = sb("campaign", "sheet", "--out", str(out), "-c", str(ledger), timeout=120)
    assert again.returncode == 0, again.stderr


def test_out_dash_is_standard_output(ledger: Path) -> None:
    result = sb("campaign", "sheet", "--format", "html", "--out", "-", "-c", str(ledger))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("<!DOCTYPE html>") and "wrote" in result.stderr
    assert not (ledger.parent / "-").exists()


def test_build_out_root_or_a_file_is_refused(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out in ("/", str(afile), str(afile / "x")):
        result = sb("build", "risk-legacy", "--out", out, "--only", "tables", cwd=tmp_path)
        assert result.returncode == 2 and "Traceback" not in result.stderr, (out, result.stderr)
    assert afile.read_text() == "x"


def test_a_file_that_is_not_a_ledger_gets_no_lock(tmp_path: Path) -> None:
    other = tmp_path / "passwd"
    other.write_text("root:x:0:0:root:/root:/bin/bash\n")
    for command in (PLACE, ["campaign", "undo"], ["campaign", "status"], ["campaign", "check"]):
        result = sb(*command, "-c", str(other))
        assert result.returncode in (1, 2) and "Traceback" not in result.stderr, (command, result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["passwd"]  # no passwd.lock, nothing else


def test_build_out_a_folder_of_other_things_is_refused(tmp_path: Path) -> None:
    """A folder standing for the root (or a home folder): things in it, no earlier build: refused, exit 1,
    nothing written; an empty or new folder, or one an earlier build wrote, is built in."""
    root = tmp_path / "root"
    for sub in ("bin", "etc", "usr"):
        (root / sub).mkdir(parents=True)
    result = sb("build", "risk-legacy", "--out", str(root), "--only", "tables", cwd=tmp_path)
    assert result.returncode == 1 and "no earlier build" in result.stderr and "--force" in result.stderr, result.stderr
    assert sorted(p.name for p in root.iterdir()) == ["bin", "etc", "usr"]
    fresh = tmp_path / "fresh"
    assert sb("build", "risk-legacy", "--out", str(fresh), "--only", "tables", cwd=tmp_path).returncode == 0
    again = sb("build", "risk-legacy", "--out", str(fresh), "--only", "tables", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    kept = tmp_path / "kept"  # a repository's empty build/ folder: only a .gitkeep (the README's first command)
    kept.mkdir()
    (kept / ".gitkeep").write_text("")
    built = sb("build", "risk-legacy", "--out", str(kept), "--only", "tables", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert (kept / ".gitkeep").read_text() == "" and (kept / "risk-legacy").is_dir()


def test_build_refuses_to_replace_an_unrelated_file_without_force(tmp_path: Path) -> None:
    out = tmp_path / "b"
    assert sb("build", "risk-legacy", "--out", str(out), "--only", "tables", cwd=tmp_path).returncode == 0
    table = next((out / "risk-legacy" / "tables").glob("*.md"))
    manifest = out / ".scarbook-manifest.json"
    manifest.write_text("{}")  # the build's record lost: the tables are no longer known as its outputs
    table.write_text("my own notes\n")
    refused = sb("build", "risk-legacy", "--out", str(out), "--only", "tables", cwd=tmp_path)
    assert refused.returncode == 1 and "not a previous output of scarbook" in refused.stderr, refused.stderr
    assert table.read_text() == "my own notes\n" and "Traceback" not in refused.stderr
    forced = sb("build", "risk-legacy", "--out", str(out), "--only", "tables", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert table.read_text() != "my own notes\n"


def test_build_out_dash_writes_the_one_file_to_standard_output(tmp_path: Path) -> None:
    done = subprocess.run([SCARBOOK, "build", "examples/tiny-game", "--only", "stickers", "--out", "-"],
                          cwd=Path(__file__).resolve().parent.parent, env=proc_env(), capture_output=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"%PDF") and b"wrote stickers.pdf" in done.stderr
    many = sb("build", "risk-legacy", "--out", "-", cwd=tmp_path)
    assert many.returncode == 2 and "one file" in many.stderr and list(tmp_path.iterdir()) == []
