"""A journal delivered by git or a sync tool is never applied (issue 36, item 1).

A `.FILE.append` proves it belongs to an unfinished write of this very ledger: it names its own inode and the
ledger's (a copy made by git, a sync tool, `cp` or `unzip` is a new inode on another machine's folder), the
sha256 of the bytes it extends, and it is no newer than the ledger (the torn bytes were written after it).
Anything else is ignored and reported by readers and refused (L006, nothing written) by writers; it never
cuts an event. Real `git` clones and real `scarbook` processes on real files.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from campaigns.procs import PLACE, events_of, sb

from scarbook.campaign.ledger.journal import _write_journal, journal_path

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com",
                           "-c", "init.defaultBranch=main", *args], capture_output=True, text=True, check=True)


def _craft(ledger: Path, version: bytes = b"1") -> None:
    """The audit's journal: it names the offset of the last three events and the sha256 of the bytes before
    them (anyone who can read the ledger can compute both), and those three lines plus one byte."""
    raw = ledger.read_bytes()
    lines = raw.splitlines(True)
    offset = len(b"".join(lines[:-3]))
    suffix = b"".join(lines[-3:]) + b"X"
    journal_path(ledger).write_bytes(b"scarbook-append %s %d %d %s\n" % (
        version, offset, len(suffix), hashlib.sha256(raw[:offset]).hexdigest().encode()) + suffix)


def test_a_journal_committed_by_a_teammate_never_cuts_events(ledger: Path, tmp_path: Path) -> None:
    origin, alice, bob = tmp_path / "origin.git", tmp_path / "alice", tmp_path / "bob"
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True)
    alice.mkdir()
    shutil.copy(ledger, alice / "c.yaml")
    (alice / ".gitignore").write_text("c.yaml.*\n.c.yaml.*\n")
    git(alice, "init", "-q")
    git(alice, "add", ".")
    git(alice, "commit", "-qm", "the campaign")
    git(alice, "remote", "add", "origin", str(origin))
    git(alice, "push", "-q", "origin", "HEAD:main")
    subprocess.run(["git", "clone", "-q", "-b", "main", str(origin), str(bob)], check=True, capture_output=True)
    # bob forges a journal in every format scarbook knows: the old one, and the new one naming bob's own inodes
    _craft(bob / "c.yaml")
    git(bob, "add", "-f", ".c.yaml.append")
    git(bob, "commit", "-qm", "innocuous")
    git(bob, "push", "-q", "origin", "HEAD:main")
    count = len(events_of(alice / "c.yaml"))
    before = (alice / "c.yaml").read_bytes()
    git(alice, "pull", "-q", "origin", "main")
    pulled = journal_path(alice / "c.yaml")
    assert pulled.exists() and os.stat(pulled).st_uid == os.getuid()
    check = sb("campaign", "check", "-c", str(alice / "c.yaml"))
    assert check.returncode == 0, check.stderr
    assert f"{count} events" in check.stdout  # every event: the journal was not applied
    assert ".c.yaml.append" in check.stderr and "ignored" in check.stderr  # and it was reported
    write = sb(*PLACE, "-c", str(alice / "c.yaml"))
    assert write.returncode == 1 and "L006" in write.stderr and "nothing was written" in write.stderr, write.stderr
    assert (alice / "c.yaml").read_bytes() == before  # nothing cut
    undo = sb("campaign", "undo", "-c", str(alice / "c.yaml"))
    assert undo.returncode == 1 and (alice / "c.yaml").read_bytes() == before
    assert not (alice / "c.yaml.bak").exists() or (alice / "c.yaml.bak").read_bytes() == before


def test_a_real_journal_copied_elsewhere_is_not_applied(ledger: Path, tmp_path: Path) -> None:
    """A journal scarbook itself wrote for a torn append, carried with its ledger to another folder (a sync
    tool, `cp -r`, `unzip`): both files are new inodes there, so it proves nothing and is not applied."""
    count = len(events_of(ledger))
    raw = ledger.read_bytes()
    lines = raw.splitlines(True)
    offset = len(b"".join(lines[:-3]))
    _write_journal(journal_path(ledger), offset, raw[:offset], b"".join(lines[-3:]) + b"X")
    here = sb("campaign", "check", "-c", str(ledger))
    assert f"{count - 3} events" in here.stdout, here.stdout + here.stderr  # the control: here it is applied
    synced = tmp_path / "synced"
    synced.mkdir()
    shutil.copy2(ledger, synced / "c.yaml")
    shutil.copy2(journal_path(ledger), journal_path(synced / "c.yaml"))
    there = sb("campaign", "check", "-c", str(synced / "c.yaml"))
    assert f"{count} events" in there.stdout, there.stdout + there.stderr
    assert "ignored" in there.stderr
    assert (synced / "c.yaml").read_bytes() == raw


def test_a_hand_placed_private_journal_is_not_applied(ledger: Path) -> None:
    """The audit's `jr/` case: the forged journal, the user's own and even mode 0600, names no inode of this
    ledger: not applied, and the next write refuses (L006) without cutting anything."""
    count = len(events_of(ledger))
    _craft(ledger)
    os.chmod(journal_path(ledger), 0o600)
    before = ledger.read_bytes()
    assert f"{count} events" in sb("campaign", "check", "-c", str(ledger)).stdout
    write = sb(*PLACE, "-c", str(ledger))
    assert write.returncode == 1 and "L006" in write.stderr
    assert ledger.read_bytes() == before
    journal_path(ledger).unlink()
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0 and len(events_of(ledger)) == count + 1
