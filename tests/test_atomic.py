"""scarbook/kernel/atomic.py in-process: temporary files, modes, orphans and fault points (the process tests
in test_faults.py run the same code in child processes, where coverage and mutmut cannot see it)."""

from __future__ import annotations

import io
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from scarbook.kernel import atomic


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_replace_file_keeps_the_mode_of_the_file_it_replaces_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_bytes(b"old")
    target.chmod(0o640)
    atomic.replace_file(target, b"new")
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_a_new_file_gets_0666_less_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        atomic.replace_file(tmp_path / "sub" / "n.txt", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "sub" / "n.txt").stat().st_mode) == 0o640


def test_write_temp_lies_beside_the_target_with_a_recognisable_name(tmp_path: Path) -> None:
    tmp = atomic.write_temp(tmp_path, "c.yaml", b"data")
    assert tmp.parent == tmp_path and tmp.read_bytes() == b"data"
    assert tmp.name.startswith(f".c.yaml.{os.getpid()}.") and tmp.name.endswith(atomic.TMP_SUFFIX)


def test_a_failed_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        atomic.replace_file(tmp_path / "f.txt", b"x")
    assert list(tmp_path.iterdir()) == []


def test_orphans_of_dead_writers_are_removed_and_nothing_else(tmp_path: Path) -> None:
    dead, alive = dead_pid(), os.getpid()
    names = {
        f".c.yaml.{dead}.abc.tmp": False,  # a killed writer's leftover: removed
        f".c.yaml.{alive}.abc.tmp": True,  # a running writer's (this process): kept
        f".other.yaml.{dead}.abc.tmp": True,  # another file's
        f".c.yaml.{dead}.abc.txt": True,  # not a temporary file
        ".c.yaml.nopid.abc.tmp": True,
        "c.yaml": True,
    }
    for name in names:
        (tmp_path / name).write_text("x")
    folder = tmp_path / f".c.yaml.{dead}.dir.tmp"
    folder.mkdir()  # not a regular file: kept
    atomic.clean_orphans(tmp_path, "c.yaml")
    kept = {p.name for p in tmp_path.iterdir()}
    assert kept == {n for n, keep in names.items() if keep} | {folder.name}
    atomic.clean_orphans(tmp_path / "missing", "c.yaml")  # never fails


def test_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    assert atomic._alive(os.getpid()) and not atomic._alive(dead_pid())

    def denied(pid: int, sig: int) -> None:
        raise PermissionError

    monkeypatch.setattr(os, "kill", denied)
    assert atomic._alive(1)  # another user's process: left alone


def test_fault_points_act_only_when_named(monkeypatch: pytest.MonkeyPatch) -> None:
    kills: list[tuple[int, int]] = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: kills.append((pid, sig)))
    monkeypatch.delenv("SCARBOOK_FAULT", raising=False)
    atomic.fault("atomic-before-replace")
    monkeypatch.setenv("SCARBOOK_FAULT", "other-point:kill")
    atomic.fault("atomic-before-replace")
    assert kills == []
    monkeypatch.setenv("SCARBOOK_FAULT", "atomic-before-replace:kill")
    atomic.fault("atomic-before-replace")
    assert kills == [(os.getpid(), signal.SIGKILL)]
    monkeypatch.setenv("SCARBOOK_FAULT", "atomic-before-replace:pause")
    stderr, stdin = io.StringIO(), io.StringIO("go on\nnot read\n")
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "stdin", stdin)
    atomic.fault("atomic-before-replace")
    assert stderr.getvalue() == "paused atomic-before-replace\n" and stdin.read() == "not read\n"


def test_replace_file_makes_missing_folders_and_writes_beside_the_target(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    renames: list[tuple[Path, Path]] = []
    real = os.replace

    def replace(src: str, dst: str) -> None:
        renames.append((Path(src), Path(dst)))
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    target = tmp_path / "a" / "b" / "f.txt"
    orphan = target.with_name(f".f.txt.{dead_pid()}.xyz.tmp")
    target.parent.mkdir(parents=True)
    orphan.write_text("left by a killed writer")
    atomic.replace_file(target, b"x")
    assert not orphan.exists()  # cleaned before the write
    ((src, dst),) = renames
    assert dst == target and src.parent == target.parent and src.name.startswith(".f.txt.")
    atomic.replace_file(tmp_path / "c" / "d" / "g.txt", b"y")  # folders made, parents too
    assert (tmp_path / "c" / "d" / "g.txt").read_bytes() == b"y"


def test_the_fault_point_of_replace_file_is_before_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Killed(Exception):
        pass

    def kill(pid: int, sig: int) -> None:
        raise Killed

    monkeypatch.setattr(os, "kill", kill)
    monkeypatch.setenv("SCARBOOK_FAULT", "atomic-before-replace:kill")
    target = tmp_path / "f.txt"
    target.write_bytes(b"old")
    with pytest.raises(Killed):
        atomic.replace_file(target, b"new")
    assert target.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_a_new_file_with_the_common_umask_is_0644(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        atomic.replace_file(tmp_path / "n.txt", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "n.txt").stat().st_mode) == 0o644


def test_orphan_cleaning_goes_on_past_files_it_keeps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dead = dead_pid()
    order = [f".c.yaml.{os.getpid()}.a.tmp", "c.yaml", f".c.yaml.{dead}.b.tmp"]  # kept ones first
    for name in order:
        (tmp_path / name).write_text("x")
    monkeypatch.setattr(os, "listdir", lambda folder: list(order))
    atomic.clean_orphans(tmp_path, "c.yaml")
    assert not (tmp_path / order[2]).exists() and (tmp_path / order[0]).exists()


def test_alive_asks_without_signalling_a_running_process() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert atomic._alive(child.pid)
        with pytest.raises(subprocess.TimeoutExpired):  # signal 0: nothing was sent, the child runs on
            child.wait(timeout=0.5)
    finally:
        child.kill()
        child.wait()


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_the_new_file_keeps_the_owner_of_the_one_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_bytes(b"old")
    os.chown(target, 12345, 23456)
    atomic.replace_file(target, b"new")
    st = target.stat()
    assert (st.st_uid, st.st_gid) == (12345, 23456)


def test_a_failure_while_writing_the_temporary_removes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fchmod(fd: int, mode: int) -> None:
        raise OSError("no chmod here")

    monkeypatch.setattr(os, "fchmod", fchmod)
    with pytest.raises(OSError, match="no chmod here"):
        atomic.write_temp(tmp_path, "f.txt", b"x")
    assert list(tmp_path.iterdir()) == []


def test_write_temp_closes_its_descriptor(tmp_path: Path) -> None:
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    if before is None:
        pytest.skip("no /proc/self/fd")
    for _ in range(5):
        atomic.write_temp(tmp_path, "f.txt", b"x", durable=True)
    assert len(os.listdir("/proc/self/fd")) == before


def test_an_owner_that_cannot_be_kept_does_not_stop_the_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "f.txt"
    target.write_bytes(b"old")
    like = os.stat_result((0o100644, 0, 0, 1, os.getuid() + 1, os.getgid(), 3, 0, 0, 0))

    def fchown(fd: int, uid: int, gid: int) -> None:
        raise PermissionError("not root")

    monkeypatch.setattr(os, "fchown", fchown)
    atomic.replace_file(target, b"new", like=like)
    assert target.read_bytes() == b"new"
