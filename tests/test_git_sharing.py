"""A ledger shared through git (issue 26, item 8), with real `git` in a temporary repository and real
`scarbook` processes: a conflicted merge is named as one at the marker's line, with each side's events and
how to resolve it; what `merge=union` does (docs/sharing-with-git.md): `check` names the first illegal
interleaving, but identical events recorded on both sides silently become one."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from campaigns.helpers import setup_bytes
from campaigns.procs import PLACE, events_of, sb

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
START = ["campaign", "game", "start", "--play", "Ann=die-mechaniker", "--play", "Bob=khan-industries",
         "--play", "Cat=saharan-republic"]
OTHER_START = ["campaign", "game", "start", "--play", "Ann=khan-industries", "--play", "Bob=die-mechaniker",
               "--play", "Cat=saharan-republic"]  # the same game recorded on another table: another line


@pytest.fixture
def before_game_1(ledger: Path) -> Path:
    """SETUP's ledger (the `ledger` fixture's is game 1 in progress): a game start is legal."""
    ledger.write_bytes(setup_bytes())
    return ledger


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                          capture_output=True, text=True, check=check)


def two_branches(ledger: Path, ann: list[str], bob: list[str], union: bool = False) -> Path:
    """A repository holding the ledger; Ann's branch (main) and Bob's each record one command; main is merged
    with bob. The ledger's path."""
    repo = ledger.parent
    git(repo, "init", "-q", "-b", "main")
    if union:
        (repo / ".gitattributes").write_text("c.yaml merge=union\n")
    (repo / ".gitignore").write_text("c.yaml.*\n.c.yaml.*\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "the campaign")
    git(repo, "checkout", "-qb", "bob")
    assert sb(*bob, "-c", str(ledger)).returncode == 0
    git(repo, "commit", "-qam", "bob's game")
    git(repo, "checkout", "-q", "main")
    assert sb(*ann, "-c", str(ledger)).returncode == 0
    git(repo, "commit", "-qam", "ann's game")
    git(repo, "merge", "-q", "bob", "-m", "merge", check=False)
    return ledger


def test_a_conflicted_merge_is_named_at_the_marker(before_game_1: Path) -> None:
    ledger = two_branches(before_game_1, START, OTHER_START)
    text = ledger.read_text("utf-8")
    assert "<<<<<<< HEAD" in text, text[-400:]
    marker = text.splitlines().index("<<<<<<< HEAD") + 1
    before = ledger.read_bytes()
    for command in (["campaign", "check"], ["campaign", "status"], ["campaign", "log"], ["campaign", "undo"], PLACE):
        result = sb(*command, "-c", str(ledger))
        assert result.returncode == 1, (command, result.stdout, result.stderr)
        out = result.stdout + result.stderr
        assert f"c.yaml:{marker}:1: error L015: unresolved git merge conflict (lines {marker}-{marker + 4}): HEAD " \
               f"holds 1 event (game-start) at line {marker + 1}; bob holds 1 event (game-start) at line " \
               f"{marker + 3}. " \
               "Resolve it by keeping both sides' events, in the order they were played" in out, out
        assert "campaign check" in out and "Y001" not in out
    assert ledger.read_bytes() == before  # nothing written


def test_resolving_by_keeping_both_sides_then_check(before_game_1: Path) -> None:
    """Keeping both sides (markers deleted) in the wrong order: `check` names the first illegal event; in the
    order they were played, it is legal."""
    ledger = two_branches(before_game_1, START, OTHER_START)
    lines = ledger.read_text("utf-8").splitlines(keepends=True)
    kept = [ln for ln in lines if not ln.startswith(("<<<<<<<", "=======", ">>>>>>>"))]
    ledger.write_text("".join(kept), "utf-8")
    check = sb("campaign", "check", "-c", str(ledger))
    assert check.returncode == 1
    assert f"c.yaml:{len(kept)}:" in check.stdout, check.stdout  # the second game start: the first illegal one
    ledger.write_text("".join(kept[:-1]), "utf-8")  # one game start only: what was really played
    assert sb("campaign", "check", "-c", str(ledger)).returncode == 0


def test_merge_union_interleaves_and_check_names_the_first_illegal_event(before_game_1: Path) -> None:
    ledger = two_branches(before_game_1, START, OTHER_START, union=True)
    text = ledger.read_text("utf-8")
    assert "<<<<<<<" not in text and text.count("event: game-start") == 2  # merged without a word from git
    check = sb("campaign", "check", "-c", str(ledger))
    assert check.returncode == 1 and f"c.yaml:{len(text.splitlines())}:" in check.stdout, check.stdout


@pytest.mark.parametrize("union", [True, False])
def test_an_event_both_sides_recorded_comes_out_once(ledger: Path, union: bool) -> None:
    """Why docs/sharing-with-git.md says to look at every merge: the same event recorded on both branches comes
    out once, and `check` cannot tell (git merges identical changes into one, with or without `merge=union`)."""
    count = len(events_of(ledger))
    two_branches(ledger, PLACE, PLACE, union=union)
    assert len(events_of(ledger)) == count + 1  # two were recorded
    assert sb("campaign", "check", "-c", str(ledger)).returncode == 0
