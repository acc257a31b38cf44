"""Two narrow races of the write path (issue 36, item 4), with real processes paused at fault points.

- An editor saving the ledger by rename while `undo` is about to truncate: `undo` must not say "undone" while
  the event is still in the file (L012; the editor's save stands).
- A same-size in-place rewrite of the file after the last comparison of an append: the event must not land on
  top of it silently (L012, our event taken back out; the edit stands).
"""

from __future__ import annotations

import os
from pathlib import Path

from campaigns.procs import PLACE, events_of, sb
from test_ledger_append import paused


def test_undo_overtaken_by_an_editor_save_is_not_reported_done(ledger: Path) -> None:
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    saved = ledger.read_bytes()  # what the editor saves: the file with the event
    count = len(events_of(ledger))
    proc = paused("campaign", "undo", "-c", str(ledger), point="ledger-before-truncate")
    copy = ledger.with_name("c.yaml.editor")
    copy.write_bytes(saved)
    os.replace(copy, ledger)  # the editor's save by rename
    out, err = proc.communicate("\n", timeout=60)
    assert proc.returncode == 1, out + err
    assert "undone" not in out and "L012" in err, out + err
    assert ledger.read_bytes() == saved and len(events_of(ledger)) == count  # the save stands, and says so


def test_a_same_size_edit_after_the_last_comparison_is_not_written_over(ledger: Path) -> None:
    before = ledger.read_bytes()
    # the audit's edit: a value rewritten in place, same length (here the game's seat of Ann)
    edited = before.replace(b"{Ann: khan-industries,", b"{Ann: khan-industriez,")
    assert len(edited) == len(before) and edited != before
    proc = paused(*PLACE, "-c", str(ledger), point="ledger-after-check")
    fd = os.open(ledger, os.O_WRONLY)  # an editor writing into the same file (no rename), same size
    try:
        os.pwrite(fd, edited, 0)
    finally:
        os.close(fd)
    out, err = proc.communicate("\n", timeout=60)
    assert proc.returncode == 1, out + err
    assert "L012" in err and "recorded" not in out, out + err
    assert ledger.read_bytes() == edited  # the edit stands; our event was taken back out
    assert not ledger.with_name(".c.yaml.append").exists()
