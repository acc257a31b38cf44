"""Writing the ledger (campaign/ledger/write.py), in-process: which way each write goes (append in
place, truncate in place, replace), what it keeps (`.bak`, inode, mode, BOM, symlinks), what it
refuses word for word, and the races, made deterministic by hooking the fault points
(`compiler.atomic.fault`) instead of real processes (those are in `test_ledger_append.py`)."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from scarbook.campaign.ledger import write as ledgerwrite
from scarbook.campaign.ledger.file import LedgerBusy, LedgerError
from scarbook.campaign.ledger.journal import _write_journal, journal_path
from scarbook.campaign.ledger.write import (
    LedgerChanged,
    _break_a_glued_line,
    _put_back_a_late_edit,
    _replace_carrying,
    _typed_meanwhile,
    finish_interrupted_append,
    locked,
    write_atomic,
)
from scarbook.kernel import atomic

OLD = b"campaign: {game: g, players: [A]}\nevents:\n- {event: place, sticker: coin, target: x}\n"
LINE = b"- {event: place, sticker: coin, target: y}\n"
CHANGED = ("c.yaml:1:1", "L012", "the file changed while this command ran (saved by hand or by another program); "
           "nothing was written: run the command again")
NOT_REGULAR = ("c.yaml:1:1", "L001", "the campaign file is not a regular file (a folder, FIFO, device or socket); "
               "give the campaign's YAML file")


@pytest.fixture
def ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # the messages name the file as given: c.yaml
    path = tmp_path / "c.yaml"
    path.write_bytes(OLD)
    path.chmod(0o640)
    return path


@pytest.fixture
def at_point(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, Callable[[], object]], None]:
    """Run `action` when the write reaches fault point `point` (once)."""
    def hook(point: str, action: Callable[[], object]) -> None:
        def fault(name: str) -> None:
            if name == point:
                action()

        monkeypatch.setattr(atomic, "fault", fault)
    return hook


def hand_append(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def refusal(caught: pytest.ExceptionInfo[LedgerError]) -> tuple[str, str, str]:
    [d] = caught.value.diagnostics
    return str(d.span), d.code, d.message


def side_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "c.yaml")


# --- which way a write goes ------------------------------------------------------------------------------------
def test_an_appended_suffix_goes_in_place(ledger: Path) -> None:
    ino = ledger.stat().st_ino
    assert write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD) is None
    assert (ledger.read_bytes(), ledger.stat().st_ino, ledger.stat().st_mode & 0o777) == (OLD + LINE, ino, 0o640)
    assert (ledger.parent / "c.yaml.bak").read_bytes() == OLD
    assert (ledger.parent / "c.yaml.bak").stat().st_mode & 0o777 == 0o640  # the ledger's mode
    assert side_files(ledger.parent) == ["c.yaml.bak"]  # no journal, no temporary file left


def test_a_cut_tail_is_truncated_in_place(ledger: Path) -> None:
    ledger.write_bytes(OLD + LINE)
    ino = ledger.stat().st_ino
    assert write_atomic(Path("c.yaml"), OLD.decode(), expected=OLD + LINE) is None
    assert (ledger.read_bytes(), ledger.stat().st_ino) == (OLD, ino)
    assert (ledger.parent / "c.yaml.bak").read_bytes() == OLD + LINE
    assert (ledger.parent / "c.yaml.bak").stat().st_mode & 0o777 == 0o640


def test_any_other_change_replaces_the_file_with_its_mode(ledger: Path) -> None:
    ino = ledger.stat().st_ino
    new = OLD.replace(b"target: x", b"target: z")
    assert write_atomic(Path("c.yaml"), new.decode(), expected=OLD) is None
    assert (ledger.read_bytes(), ledger.stat().st_mode & 0o777) == (new, 0o640)
    assert ledger.stat().st_ino != ino
    assert (ledger.parent / "c.yaml.bak").read_bytes() == OLD
    assert (ledger.parent / "c.yaml.bak").stat().st_mode & 0o777 == 0o640
    assert side_files(ledger.parent) == ["c.yaml.bak"]


def test_the_new_file_is_written_beside_the_ledger(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    seen: list[list[str]] = []
    at_point("ledger-before-replace", lambda: seen.append(side_files(ledger.parent)))
    write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    [[tmp, bak]] = seen  # sorted: the dot first
    assert bak == "c.yaml.bak" and tmp.startswith(f".c.yaml.{os.getpid()}.") and tmp.endswith(".tmp")


def test_the_same_length_or_no_expected_bytes_replace(ledger: Path) -> None:
    ino = ledger.stat().st_ino
    write_atomic(Path("c.yaml"), (OLD + LINE).decode())  # no `expected`: never in place
    assert ledger.read_bytes() == OLD + LINE and ledger.stat().st_ino != ino
    ino = ledger.stat().st_ino
    write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD + LINE)  # the same bytes
    assert ledger.read_bytes() == OLD + LINE and ledger.stat().st_ino != ino


def test_without_backup_no_bak_is_written(ledger: Path) -> None:
    write_atomic(Path("c.yaml"), (OLD + LINE).decode(), backup=False, expected=OLD)
    write_atomic(Path("c.yaml"), OLD.decode(), backup=False, expected=OLD + LINE)
    write_atomic(Path("c.yaml"), "x: 1\n", backup=False, expected=OLD)
    assert ledger.read_bytes() == b"x: 1\n" and side_files(ledger.parent) == []


def test_a_new_file_is_written_without_bak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert write_atomic(Path("new.yaml"), "x: 1\n") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.yaml"]
    assert (tmp_path / "new.yaml").read_bytes() == b"x: 1\n"


def test_a_byte_order_mark_is_kept_each_way(ledger: Path) -> None:
    bom = b"\xef\xbb\xbf"
    ledger.write_bytes(bom + OLD)
    write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=bom + OLD)
    assert ledger.read_bytes() == bom + OLD + LINE
    write_atomic(Path("c.yaml"), OLD.decode(), expected=bom + OLD + LINE)
    assert ledger.read_bytes() == bom + OLD
    write_atomic(Path("c.yaml"), "x: 1\n", expected=bom + OLD)
    assert ledger.read_bytes() == bom + b"x: 1\n"
    write_atomic(Path("c.yaml"), "\ufeffy: 1\n", expected=bom + b"x: 1\n")  # already there: not twice
    assert ledger.read_bytes() == bom + b"y: 1\n"
    write_atomic(Path("c.yaml"), "z: 1\n")  # nothing read, nothing to keep
    assert ledger.read_bytes() == b"z: 1\n"


def test_through_a_symlink_the_target_is_written_and_the_link_stays(ledger: Path) -> None:
    (ledger.parent / "link.yaml").symlink_to("c.yaml")
    write_atomic(Path("link.yaml"), (OLD + LINE).decode(), expected=OLD)
    write_atomic(Path("link.yaml"), "x: 1\n", expected=OLD + LINE)
    assert (ledger.parent / "link.yaml").is_symlink() and ledger.read_bytes() == b"x: 1\n"
    assert (ledger.parent / "c.yaml.bak").read_bytes() == OLD + LINE
    assert not (ledger.parent / "link.yaml.bak").exists()


# --- refusals -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [(OLD + LINE).decode(), OLD[:-4].decode(), "x: 1\n"], ids=["append", "cut", "replace"])
def test_a_file_saved_since_it_was_read_is_refused(ledger: Path, text: str) -> None:
    saved = OLD.replace(b"target: x", b"target: w")
    ledger.write_bytes(saved)
    with pytest.raises(LedgerChanged) as caught:
        write_atomic(Path("c.yaml"), text, expected=OLD)
    assert refusal(caught) == CHANGED
    assert ledger.read_bytes() == saved and side_files(ledger.parent) == []


def test_a_file_deleted_since_it_was_read_is_refused(ledger: Path) -> None:
    ledger.unlink()
    with pytest.raises(LedgerChanged) as caught:
        write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    assert refusal(caught) == CHANGED and not ledger.exists()


def test_a_folder_is_not_written(ledger: Path) -> None:
    ledger.unlink()
    ledger.mkdir()
    with pytest.raises(LedgerError) as caught:
        write_atomic(Path("c.yaml"), "x: 1\n")
    assert refusal(caught) == NOT_REGULAR


# --- races, at the fault points --------------------------------------------------------------------------------
def test_a_change_after_the_bak_stops_an_append(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    at_point("ledger-before-replace", lambda: hand_append(ledger, b"# typed\n"))
    with pytest.raises(LedgerChanged) as caught:
        write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    assert refusal(caught) == CHANGED
    assert ledger.read_bytes() == OLD + b"# typed\n"
    assert side_files(ledger.parent) == ["c.yaml.bak"]


def test_a_same_size_change_after_the_bak_stops_an_append(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    edited = OLD.replace(b"target: x", b"target: w")
    at_point("ledger-before-replace", lambda: ledger.write_bytes(edited))
    with pytest.raises(LedgerChanged):
        write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    assert ledger.read_bytes() == edited


def test_comments_typed_just_before_the_event_need_no_note(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    at_point("ledger-after-check", lambda: hand_append(ledger, b"# typed\n\n"))
    assert write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD) is None
    assert ledger.read_bytes() == OLD + b"# typed\n\n" + LINE
    assert side_files(ledger.parent) == ["c.yaml.bak"]


def test_an_entry_typed_just_before_the_event_gets_a_note(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    at_point("ledger-after-check", lambda: hand_append(ledger, b"- {event: pass}\n"))
    note = write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    assert note == ("note: lines were added by hand at line 4 while this event was being written, just before it; "
                    "the event was checked without them: run 'scarbook campaign check'")
    assert ledger.read_bytes() == OLD + b"- {event: pass}\n" + LINE


def test_a_line_typed_without_a_line_break_is_broken_before_the_event(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    ledger.write_bytes(OLD.replace(b"\n", b"\r\n"))
    old = ledger.read_bytes()
    at_point("ledger-after-check", lambda: hand_append(ledger, b"# no break"))
    note = write_atomic(Path("c.yaml"), (old + LINE.replace(b"\n", b"\r\n")).decode(), expected=old)
    assert note == ("note: a line added by hand without a line break (line 4) ended where this event was appended; "
                    "a line break was inserted before the event")
    assert ledger.read_bytes() == old + b"# no break\r\n" + LINE.replace(b"\n", b"\r\n")
    assert ledger.stat().st_mode & 0o777 == 0o640
    assert side_files(ledger.parent) == ["c.yaml.bak"]


def test_text_typed_meanwhile_need_not_be_utf8(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    at_point("ledger-after-check", lambda: hand_append(ledger, b"# caf\xe9\n"))
    assert write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD) is None  # a comment: no note
    assert ledger.read_bytes() == OLD + b"# caf\xe9\n" + LINE


@pytest.mark.parametrize("text", [(OLD + LINE).decode(), OLD[:-4].decode()], ids=["append", "cut"])
def test_a_ledger_swapped_for_a_symlink_or_a_fifo_is_not_written(ledger: Path, text: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the write's stat and its open (here: when it settles a torn append), the file is replaced."""
    other = ledger.parent / "other.yaml"
    other.write_bytes(OLD)

    def swap(target: Path, shown: str) -> None:
        ledger.unlink()
        ledger.symlink_to(other)

    monkeypatch.setattr(ledgerwrite, "finish_interrupted_append", swap)
    with pytest.raises(LedgerChanged) as caught:
        write_atomic(ledger, text, expected=OLD)
    assert refusal(caught) == CHANGED and other.read_bytes() == OLD

    def fifo(target: Path, shown: str) -> None:
        ledger.unlink()
        os.mkfifo(ledger)

    ledger.unlink()
    ledger.write_bytes(OLD)
    monkeypatch.setattr(ledgerwrite, "finish_interrupted_append", fifo)
    with pytest.raises(LedgerError) as caught:
        write_atomic(ledger, text, expected=OLD)
    assert refusal(caught) == NOT_REGULAR


def test_a_suffix_that_starts_with_its_own_line_break_is_not_broken_again(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    bare = OLD.rstrip(b"\n")
    ledger.write_bytes(bare)
    at_point("ledger-after-check", lambda: hand_append(ledger, b"\n# no break"))
    note = write_atomic(Path("c.yaml"), (bare + b"\n" + LINE).decode(), expected=bare)
    assert (note, ledger.read_bytes()) == (None, bare + b"\n# no break\n" + LINE)


def test_a_save_over_the_file_during_the_append_stands(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    def save() -> None:
        (ledger.parent / "saved").write_bytes(b"theirs\n")
        os.replace(ledger.parent / "saved", ledger)

    at_point("ledger-after-append", save)
    with pytest.raises(LedgerChanged) as caught:
        write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    assert refusal(caught) == CHANGED and ledger.read_bytes() == b"theirs\n"
    assert side_files(ledger.parent) == ["c.yaml.bak"]


def test_a_short_write_of_the_event_is_continued(ledger: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data[:5])))  # 5 bytes at a time
    write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    monkeypatch.undo()
    assert ledger.read_bytes() == OLD + LINE and side_files(ledger.parent) == ["c.yaml.bak"]


@pytest.mark.parametrize("then", ["typed after the half", "ledger removed"])
def test_a_failed_append_that_cannot_be_undone_still_raises_its_own_error(ledger: Path, then: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    class Stop(BaseException):
        pass

    def die() -> None:
        if then == "ledger removed":
            ledger.unlink()
        else:
            hand_append(ledger, b"oops\n")  # where the half ends is unclear now: left for a hand (L014)
        raise Stop

    monkeypatch.setattr(atomic, "fault_action", lambda point: "torn" if point == "ledger-append" else "")
    monkeypatch.setattr(atomic, "die", die)
    with pytest.raises(Stop):
        write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    assert journal_path(ledger).exists()


def test_an_append_that_fails_after_half_its_bytes_is_undone(ledger: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    class Stop(BaseException):
        pass

    def die() -> None:
        assert ledger.read_bytes() == OLD + LINE[: len(LINE) // 2]
        raise Stop

    monkeypatch.setattr(atomic, "fault_action", lambda point: "torn" if point == "ledger-append" else "")
    monkeypatch.setattr(atomic, "die", die)
    with pytest.raises(Stop):
        write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    assert ledger.read_bytes() == OLD
    assert side_files(ledger.parent) == ["c.yaml.bak"]


def test_a_change_before_the_truncation_stops_an_undo(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    ledger.write_bytes(OLD + LINE)
    at_point("ledger-before-truncate", lambda: hand_append(ledger, b"# typed\n"))
    with pytest.raises(LedgerChanged) as caught:
        write_atomic(Path("c.yaml"), OLD.decode(), expected=OLD + LINE)
    assert refusal(caught) == CHANGED
    assert ledger.read_bytes() == OLD + LINE + b"# typed\n"


def test_a_same_size_change_before_the_truncation_stops_an_undo(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    ledger.write_bytes(OLD + LINE)
    edited = OLD + LINE.replace(b"y", b"w")
    at_point("ledger-before-truncate", lambda: ledger.write_bytes(edited))
    with pytest.raises(LedgerChanged):
        write_atomic(Path("c.yaml"), OLD.decode(), expected=OLD + LINE)
    assert ledger.read_bytes() == edited


def test_a_change_before_the_rename_stops_a_replace(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    at_point("ledger-before-replace", lambda: hand_append(ledger, b"# typed\n"))
    with pytest.raises(LedgerChanged) as caught:
        write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    assert refusal(caught) == CHANGED
    assert ledger.read_bytes() == OLD + b"# typed\n"
    assert side_files(ledger.parent) == ["c.yaml.bak"]


def test_a_late_append_to_the_replaced_file_is_put_back(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    held = os.open(ledger, os.O_WRONLY | os.O_APPEND)

    def late() -> None:
        os.write(held, b"# late, into the old file\n")
        hand_append(ledger, b"# early, into the new file\n")

    at_point("ledger-after-rename", late)
    try:
        with pytest.raises(LedgerChanged) as caught:
            write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    finally:
        os.close(held)
    assert refusal(caught) == CHANGED
    assert ledger.read_bytes() == OLD + b"# late, into the old file\n# early, into the new file\n"
    assert side_files(ledger.parent) == ["c.yaml.bak"]


def test_an_append_after_the_last_comparison_is_put_back(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    at_point("ledger-after-check", lambda: hand_append(ledger, b"# typed\n"))
    with pytest.raises(LedgerChanged) as caught:
        write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    assert refusal(caught) == CHANGED
    assert ledger.read_bytes() == OLD + b"# typed\n" and ledger.stat().st_mode & 0o777 == 0o640


def test_a_ledger_removed_during_a_replace_is_refused(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    at_point("ledger-before-replace", ledger.unlink)
    with pytest.raises(LedgerError) as caught:
        write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    assert refusal(caught)[:2] == ("c.yaml", "L001")
    assert not ledger.exists() and side_files(ledger.parent) == ["c.yaml.bak"]


def test_a_ledger_removed_before_it_is_read_again_is_refused(ledger: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ledgerwrite, "finish_interrupted_append", lambda target, shown: ledger.unlink())
    with pytest.raises(LedgerError) as caught:
        write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    assert refusal(caught)[:2] == ("c.yaml", "L001")


def test_an_append_that_continues_the_last_line_is_written_as_given(ledger: Path) -> None:
    ledger.write_bytes(b"a: 1")
    assert write_atomic(Path("c.yaml"), "a: 12\n", expected=b"a: 1") is None
    assert ledger.read_bytes() == b"a: 12\n"


@pytest.mark.parametrize(("typed", "note"), [(b"\r# typed", False), (b"# typed\r", False), (b"- {x: 1}\r", True)],
                         ids=["break first", "break last", "an entry"])
def test_cr_only_ledgers_and_text_typed_meanwhile(ledger: Path, at_point, typed: bytes, note: bool) -> None:  # type: ignore[no-untyped-def]
    bare = OLD.replace(b"\n", b"\r").rstrip(b"\r")
    suffix = b"\r" + LINE.replace(b"\n", b"\r") if typed.startswith(b"\r") else LINE.replace(b"\n", b"\r")
    if not typed.startswith(b"\r"):
        bare += b"\r"
    ledger.write_bytes(bare)
    at_point("ledger-after-check", lambda: hand_append(ledger, typed))
    assert (write_atomic(Path("c.yaml"), (bare + suffix).decode(), expected=bare) is not None) == note
    assert ledger.read_bytes() == bare + typed + suffix  # no line break inserted: none was missing


def test_without_a_late_append_the_replace_stands(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    seen: list[bytes] = []
    at_point("ledger-after-rename", lambda: seen.append(ledger.read_bytes()))
    write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    assert seen == [b"x: 1\n"] and ledger.read_bytes() == b"x: 1\n"


# --- the helpers of the races, called directly ----------------------------------------------------------------
def _fd(path: Path, flags: int = os.O_RDONLY) -> int:
    return os.open(path, flags)


def test_typed_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"a\r\nb\n# c\n  \n\r\n- {x: 1}\n")
    fd = _fd(path)
    try:
        assert _typed_meanwhile(fd, 5, 14) is None  # comments and blank lines only
        assert _typed_meanwhile(fd, 5, 24) == (
            "note: lines were added by hand at line 3 while this event was being written, just before it; "
            "the event was checked without them: run 'scarbook campaign check'")
    finally:
        os.close(fd)


def test_break_a_glued_line_inserts_the_suffix_line_break(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_bytes(b"a\n\n# x- {e: 1}\r\n")
    fd = _fd(path)
    try:
        note = _break_a_glued_line(path, "c.yaml", fd, 6, b"- {e: 1}\r\n", os.fstat(fd))
        assert note.startswith("note: a line added by hand without a line break (line 3) ended where")
        assert path.read_bytes() == b"a\n\n# x\r\n- {e: 1}\r\n"
    finally:
        os.close(fd)
    path.write_bytes(b"# x- {e: 1}")
    fd = _fd(path)
    try:
        _break_a_glued_line(path, "c.yaml", fd, 3, b"- {e: 1}", os.fstat(fd))
        assert path.read_bytes() == b"# x\n- {e: 1}"  # a suffix without a line break: LF
    finally:
        os.close(fd)


def test_replace_carrying_keeps_what_was_appended_to_the_old_file(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import stat

    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    path = tmp_path / "c.yaml"
    path.write_bytes(b"old\n")
    path.chmod(0o604)
    old_fd = _fd(path)
    try:
        _replace_carrying(path, b"new\n", old_fd, 4, os.stat(path))
        assert path.read_bytes() == b"new\n" and path.stat().st_mode & 0o777 == 0o604
        assert synced == ["file", "dir"]  # the new file, then the folder with its new entry
        path.write_bytes(b"old\n")
        os.close(old_fd)
        old_fd = _fd(path)
        hand_append(path, b"# late\n")
        _replace_carrying(path, b"new\n", old_fd, 4, None)
        assert path.read_bytes() == b"new\n# late\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml"]
    finally:
        os.close(old_fd)


def test_put_back_leaves_a_file_replaced_by_someone_else(tmp_path: Path) -> None:
    (tmp_path / "mode").touch(mode=0o604)
    (tmp_path / "mode").chmod(0o604)
    path = tmp_path / "c.yaml"
    path.write_bytes(b"old\n")
    old_fd = _fd(path)
    try:
        assert _put_back_a_late_edit(path, "c.yaml", old_fd, b"old\n", b"new\n", None) is None  # no late edit
        hand_append(path, b"# late\n")
        (tmp_path / "other").write_bytes(b"theirs\n")
        os.replace(tmp_path / "other", path)
        assert _put_back_a_late_edit(path, "c.yaml", old_fd, b"old\n", b"new\n", None) is None
        assert path.read_bytes() == b"theirs\n"
        (tmp_path / "other").write_bytes(b"new\n")
        os.replace(tmp_path / "other", path)
        with pytest.raises(LedgerChanged):
            _put_back_a_late_edit(path, "c.yaml", old_fd, b"old\n", b"new\n", os.stat(tmp_path / "mode"))
        assert path.read_bytes() == b"old\n# late\n" and path.stat().st_mode & 0o777 == 0o604
        path.unlink()  # gone: nothing to put back into
        assert _put_back_a_late_edit(path, "c.yaml", old_fd, b"old\n", b"new\n", None) is None
    finally:
        os.close(old_fd)


def test_put_back_leaves_an_old_file_grown_past_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.yaml"
    path.write_bytes(b"old\n")
    old_fd = _fd(path)
    try:
        hand_append(path, b"# late\n")
        (tmp_path / "new").write_bytes(b"new\n")
        os.replace(tmp_path / "new", path)
        monkeypatch.setattr(ledgerwrite, "MAX_LEDGER_BYTES", len(b"old\n# late\n") - 1)
        assert _put_back_a_late_edit(path, "c.yaml", old_fd, b"old\n", b"new\n", None) is None
        assert path.read_bytes() == b"new\n"
        monkeypatch.setattr(ledgerwrite, "MAX_LEDGER_BYTES", len(b"old\n# late\n"))
        with pytest.raises(LedgerChanged):
            _put_back_a_late_edit(path, "c.yaml", old_fd, b"old\n", b"new\n", None)
        assert path.read_bytes() == b"old\n# late\n"
    finally:
        os.close(old_fd)


# --- a torn append settled by the next write ------------------------------------------------------------------
def journal(ledger: Path, before: bytes = OLD, suffix: bytes = LINE) -> Path:
    _write_journal(journal_path(ledger), len(before), before, suffix)
    return journal_path(ledger)


def test_a_torn_tail_is_truncated_in_place(ledger: Path) -> None:
    ledger.write_bytes(OLD + LINE[:10])
    ino, j = ledger.stat().st_ino, journal(ledger)
    finish_interrupted_append(ledger, "c.yaml")
    assert (ledger.read_bytes(), ledger.stat().st_ino, j.exists()) == (OLD, ino, False)


def test_a_torn_event_with_hand_lines_after_it_is_cut_out(ledger: Path) -> None:
    ledger.write_bytes(OLD + LINE[:10] + b"\n# after the crash\n")
    j = journal(ledger)
    finish_interrupted_append(ledger, "c.yaml")
    assert (ledger.read_bytes(), j.exists()) == (OLD + b"\n# after the crash\n", False)
    assert ledger.stat().st_mode & 0o777 == 0o640 and side_files(ledger.parent) == []


def test_a_hand_append_while_the_torn_tail_is_settled_is_kept(ledger: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger.write_bytes(OLD + LINE[:10])
    journal(ledger)
    real = ledgerwrite._torn_part
    calls: list[int] = []

    def racing(raw: bytes, *args: object) -> object:
        calls.append(len(raw))
        if len(calls) == 1:
            hand_append(ledger, b"\n# typed meanwhile\n")  # lands after the half, before the truncation
        return real(raw, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ledgerwrite, "_torn_part", racing)
    finish_interrupted_append(ledger, "c.yaml")
    assert ledger.read_bytes() == OLD + b"\n# typed meanwhile\n" and len(calls) == 2


def test_a_journaled_ledger_swapped_for_a_symlink_is_not_settled(ledger: Path) -> None:
    other = ledger.parent / "other.yaml"
    other.write_bytes(OLD + LINE[:10])
    ledger.unlink()
    ledger.symlink_to(other)
    journal(ledger)
    with pytest.raises(LedgerChanged) as caught:
        finish_interrupted_append(ledger, "c.yaml")
    assert refusal(caught) == CHANGED and other.read_bytes() == OLD + LINE[:10]


@pytest.mark.parametrize("raw", [OLD, OLD + LINE, b"rewritten\n"], ids=["never began", "complete", "rewritten"])
def test_a_journal_with_nothing_to_cut_is_only_dropped(ledger: Path, raw: bytes) -> None:
    ledger.write_bytes(raw)
    ino, j = ledger.stat().st_ino, journal(ledger)
    finish_interrupted_append(ledger, "c.yaml")
    assert (ledger.read_bytes(), j.exists(), ledger.stat().st_ino) == (raw, False, ino)


def test_a_broken_journal_is_dropped_and_no_journal_is_nothing(ledger: Path) -> None:
    finish_interrupted_append(ledger, "c.yaml")
    assert ledger.read_bytes() == OLD and side_files(ledger.parent) == []
    journal_path(ledger).write_bytes(b"scarbook-append 1 3")
    finish_interrupted_append(ledger, "c.yaml")
    assert ledger.read_bytes() == OLD and side_files(ledger.parent) == []


def test_an_unclear_torn_event_is_refused_and_left_alone(ledger: Path) -> None:
    torn = OLD + LINE[:10] + b"oops: typed after\n"
    ledger.write_bytes(torn)
    j = journal(ledger)
    with pytest.raises(LedgerError) as caught:
        finish_interrupted_append(ledger, "c.yaml")
    assert refusal(caught) == ("c.yaml:4:1", "L014", "a scarbook write was killed halfway through appending an "
                               "event at line 4, and text was added after it since; nothing was written: delete the "
                               "unfinished event on that line by hand, then the file .c.yaml.append")
    assert (ledger.read_bytes(), j.exists()) == (torn, True)


def test_a_write_settles_a_torn_append_first(ledger: Path) -> None:
    ledger.write_bytes(OLD + LINE[:10])
    journal(ledger)
    write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    assert ledger.read_bytes() == OLD + LINE and side_files(ledger.parent) == ["c.yaml.bak"]


# --- the lock -------------------------------------------------------------------------------------------------
def test_the_lock_is_beside_the_file_and_settles_a_torn_append(ledger: Path) -> None:
    ledger.write_bytes(OLD + LINE[:10])
    journal(ledger)
    with locked(Path("c.yaml")):
        assert ledger.read_bytes() == OLD
        assert side_files(ledger.parent) == ["c.yaml.lock"]


def test_a_held_lock_makes_the_next_command_retry(ledger: Path) -> None:
    fd = os.open(ledger.parent / "c.yaml.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(LedgerBusy) as caught, locked(Path("c.yaml"), wait=0.05):
            pytest.fail("the lock was taken twice")
        assert str(caught.value) == ("c.yaml is being changed by another scarbook command; nothing was written: "
                                     "retry in a moment")
    finally:
        os.close(fd)
    with locked(Path("c.yaml"), wait=0):  # released: taken at once
        pass


def test_the_lock_waits_for_its_holder(ledger: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fd = os.open(ledger.parent / "c.yaml.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    naps: list[float] = []

    def sleep(seconds: float) -> None:
        naps.append(seconds)
        os.close(fd)  # the holder finishes while we wait

    monkeypatch.setattr(ledgerwrite.time, "sleep", sleep)
    with locked(Path("c.yaml"), wait=10):
        pass
    assert naps == [0.02]


def test_the_lock_refuses_what_is_not_a_ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(LedgerError) as caught, locked(Path("c.yaml")):
        pass
    assert refusal(caught)[1:] == ("L001", "no campaign file here; create one with 'scarbook campaign new FILE "
                                   "--game GAME --player NAME ...' or pass --campaign FILE")
    (tmp_path / "c.yaml").mkdir()
    with pytest.raises(LedgerError) as caught, locked(Path("c.yaml")):
        pass
    assert refusal(caught) == NOT_REGULAR
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml"]  # no lock file made


def test_a_lock_that_is_not_a_file_is_refused(ledger: Path) -> None:
    os.mkfifo(ledger.parent / "c.yaml.lock")
    with pytest.raises(LedgerError) as caught, locked(Path("c.yaml")):
        pass
    assert refusal(caught) == ("c.yaml:1:1", "L006", "c.yaml.lock cannot be the campaign's lock: it is a FIFO, "
                              "not a regular file; nothing was written: remove it")


def test_the_temporary_files_of_a_killed_writer_are_removed(ledger: Path) -> None:
    dead = 2**22 + 12345  # above pid_max's default: no such process
    for name in (f".c.yaml.{dead}.x1.tmp", f".c.yaml.bak.{dead}.x2.tmp", f".other.yaml.{dead}.x3.tmp"):
        (ledger.parent / name).write_bytes(b"half")
    write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    assert side_files(ledger.parent) == [f".other.yaml.{dead}.x3.tmp", "c.yaml.bak"]  # only this ledger's


def test_bak_is_written_through_its_own_temporary_file_beside_it(ledger: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    renames: list[tuple[str, str]] = []
    real = os.replace

    def replace(src: object, dst: object) -> None:
        renames.append((Path(str(src)).relative_to(ledger.parent).as_posix(), Path(str(dst)).name))
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    write_atomic(Path("c.yaml"), "x: 1\n", expected=OLD)
    assert [dst for _, dst in renames] == ["c.yaml.bak", "c.yaml"]
    assert renames[0][0].startswith(f".c.yaml.bak.{os.getpid()}.") and renames[1][0].startswith(
        f".c.yaml.{os.getpid()}.")


def test_a_change_right_after_the_bak_is_caught(ledger: Path, at_point) -> None:  # type: ignore[no-untyped-def]
    at_point("ledger-after-bak", lambda: hand_append(ledger, b"# typed\n"))
    with pytest.raises(LedgerChanged):
        write_atomic(Path("c.yaml"), (OLD + LINE).decode(), expected=OLD)
    assert ledger.read_bytes() == OLD + b"# typed\n" and (ledger.parent / "c.yaml.bak").read_bytes() == OLD


def test_a_write_refuses_an_unclear_torn_append_naming_the_file(ledger: Path) -> None:
    torn = OLD + LINE[:10] + b"oops\n"
    ledger.write_bytes(torn)
    journal(ledger)
    with pytest.raises(LedgerError) as caught:
        write_atomic(Path("c.yaml"), (torn + LINE).decode(), expected=torn)
    assert refusal(caught)[:2] == ("c.yaml:4:1", "L014")
