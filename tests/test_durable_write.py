"""Durable writes reach the disk: the data is fsynced before the rename, the folder after it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from scarbook.campaign.ledger import write as ledger_mod
from scarbook.kernel import atomic


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object]]:
    """Every fsync (with what the descriptor is: 'file' and its bytes, or 'dir') and every rename, in order."""
    seen: list[tuple[str, object]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            seen.append(("fsync-dir", None))
        else:
            try:
                data = os.pread(fd, 1 << 20, 0)
            except OSError:  # opened write-only (the append journal): read it by its /proc name
                data = Path(f"/proc/self/fd/{fd}").read_bytes()
            seen.append(("fsync-file", data))
        real_fsync(fd)

    def replace(src: object, dst: object) -> None:
        seen.append(("replace", Path(str(dst)).name))
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return seen


def test_a_durable_replace_fsyncs_the_data_before_the_rename(tmp_path: Path, calls: list[tuple[str, object]]) -> None:
    target = tmp_path / "f.bin"
    atomic.replace_file(target, b"new data", durable=True)
    assert target.read_bytes() == b"new data"
    assert calls[:2] == [("fsync-file", b"new data"), ("replace", "f.bin")]


def test_a_plain_replace_does_not_fsync(tmp_path: Path, calls: list[tuple[str, object]]) -> None:
    atomic.replace_file(tmp_path / "f.bin", b"x")
    assert calls == [("replace", "f.bin")]


def test_the_ledger_write_fsyncs_file_and_backup_then_the_folder(tmp_path: Path,
                                                                  calls: list[tuple[str, object]]) -> None:
    file = tmp_path / "c.yaml"
    file.write_text("old: 1\n")
    ledger_mod.write_atomic(file, "new: 2\n")
    assert file.read_text() == "new: 2\n" and (tmp_path / "c.yaml.bak").read_text() == "old: 1\n"
    kinds = [c for c in calls if c[0] != "fsync-dir"]
    assert kinds == [("fsync-file", b"old: 1\n"), ("replace", "c.yaml.bak"),
                     ("fsync-file", b"new: 2\n"), ("replace", "c.yaml")]
    last_replace = max(i for i, c in enumerate(calls) if c == ("replace", "c.yaml"))
    assert ("fsync-dir", None) in calls[last_replace:], calls  # the rename itself made durable


def test_write_temp_is_not_durable_unless_asked(tmp_path: Path, calls: list[tuple[str, object]]) -> None:
    atomic.write_temp(tmp_path, "f.bin", b"x")
    assert calls == []
    atomic.write_temp(tmp_path, "f.bin", b"y", durable=True)
    assert calls == [("fsync-file", b"y")]


def test_an_appended_event_is_journaled_then_appended_then_the_journal_removed(
        tmp_path: Path, calls: list[tuple[str, object]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The append path: `.bak` (fsync, rename), the journal (fsync), the ledger itself (fsync), and only
    then is the journal removed; no rename of the ledger, so its inode stays."""
    real_unlink = os.unlink

    def unlink(path: object, *args: object, **kwargs: object) -> None:
        calls.append(("unlink", Path(str(path)).name))
        real_unlink(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "unlink", unlink)
    file = tmp_path / "c.yaml"
    file.write_text("events:\n- {a: 1}\n")
    ino = file.stat().st_ino
    ledger_mod.write_atomic(file, "events:\n- {a: 1}\n- {b: 2}\n", expected=b"events:\n- {a: 1}\n")
    assert file.read_text() == "events:\n- {a: 1}\n- {b: 2}\n" and file.stat().st_ino == ino
    steps = [c for c in calls if c[0] != "fsync-dir" and not (c[0] == "unlink" and str(c[1]).endswith(".tmp"))]
    journal = steps[2]
    assert steps[:2] == [("fsync-file", b"events:\n- {a: 1}\n"), ("replace", "c.yaml.bak")]
    assert journal[0] == "fsync-file" and isinstance(journal[1], bytes) and journal[1].endswith(b"- {b: 2}\n")
    assert journal[1].startswith(b"scarbook-append 2 17 9 ")
    assert steps[3:] == [("fsync-file", b"events:\n- {a: 1}\n- {b: 2}\n"), ("unlink", ".c.yaml.append")]
