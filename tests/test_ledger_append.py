"""Appending an event in place (O_APPEND on the ledger's own inode) instead of replacing the file.

A hand `>>` (or a program that keeps the ledger open for appending, like `some_script >> c.yaml`)
racing a write must never lose a line: the kernel serialises O_APPEND writes on one inode, so the
event is appended to the very file the hand editor appends to. A SIGKILL that tears the append is
undone from a journal (`.c.yaml.append`) by the next locked write, and readers never see the half
event. `undo` truncates in place when the last event is the file's tail. Real processes; faults
injected with SCARBOOK_FAULT at named points, never with sleeps.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from campaigns.procs import PLACE, SCARBOOK, events_of, proc_env, sb
from hypothesis import given
from hypothesis import strategies as st

from conftest import proc_refused
from scarbook.campaign.ledger.file import parse

NEW_LINE = "- {event: place, sticker: bunker, target: peru, by: Ann}\n"










def paused(*args: str, point: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen([SCARBOOK, *args], env=proc_env(SCARBOOK_FAULT=f"{point}:pause"), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline().strip()
    if line != f"paused {point}":
        out, err = proc.communicate("\n", timeout=60)
        pytest.fail(f"never paused at {point}: exit {proc.returncode}\n{line}\n{out}{err}")
    return proc




def _side_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".append")))


def append(path: Path, text: str) -> None:
    """Like the shell's `>>`: open with O_APPEND, one write."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


# --- the append is made in place ------------------------------------------------------------------------
def test_an_append_keeps_the_inode_the_mode_and_bak_is_the_previous_version(ledger: Path) -> None:
    ledger.chmod(0o600)
    before, ino = ledger.read_bytes(), ledger.stat().st_ino
    result = sb(*PLACE, "-c", str(ledger))
    assert result.returncode == 0, result.stderr
    assert ledger.stat().st_ino == ino, "the ledger was replaced, not appended to"
    assert ledger.read_bytes() == before + NEW_LINE.encode()
    assert stat.S_IMODE(ledger.stat().st_mode) == 0o600
    bak = ledger.with_name("c.yaml.bak")
    assert bak.read_bytes() == before and stat.S_IMODE(bak.stat().st_mode) == 0o600
    assert _side_files(ledger.parent) == []


def test_a_byte_order_mark_is_kept_by_append_and_undo(ledger: Path) -> None:
    ledger.write_bytes(b"\xef\xbb\xbf" + ledger.read_bytes())  # saved by an editor that writes a BOM
    before = ledger.read_bytes()
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    assert ledger.read_bytes() == before + NEW_LINE.encode()
    undone = sb("campaign", "undo", "-c", str(ledger))
    assert undone.returncode == 0, undone.stderr
    assert ledger.read_bytes() == before


def test_an_append_through_a_symlink_writes_the_target_in_place(ledger: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.yaml"
    link.symlink_to(ledger)
    hard = tmp_path / "hard.yaml"
    os.link(ledger, hard)
    before, ino = ledger.read_bytes(), ledger.stat().st_ino
    assert sb(*PLACE, "-c", str(link)).returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(ledger)
    assert ledger.stat().st_ino == ino and ledger.read_bytes() == before + NEW_LINE.encode()
    assert hard.read_bytes() == ledger.read_bytes(), "a hard link must keep naming the ledger"
    assert ledger.with_name("c.yaml.bak").read_bytes() == before
    assert not (tmp_path / "link.yaml.bak").exists()


def test_a_file_without_a_final_newline_gets_its_own_line_break_first(ledger: Path) -> None:
    crlf = ledger.read_bytes().replace(b"\n", b"\r\n").rstrip(b"\r\n")
    ledger.write_bytes(crlf)
    ino = ledger.stat().st_ino
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    assert ledger.stat().st_ino == ino
    assert ledger.read_bytes() == crlf + b"\r\n" + NEW_LINE.replace("\n", "\r\n").encode()
    assert events_of(ledger)[-1] == {"event": "place", "sticker": "bunker", "target": "peru", "by": "Ann"}


def test_flow_style_empty_events_still_work_through_the_replace_path(ledger: Path) -> None:
    head = ledger.read_text().split("events:")[0]
    ledger.write_text(head + "events: []\n")
    assert sb("campaign", "place", "coin", "alaska", "-c", str(ledger)).returncode == 0
    assert [(e["event"], e["sticker"]) for e in events_of(ledger)] == [("place", "coin")]
    assert ledger.with_name("c.yaml.bak").read_text() == head + "events: []\n"


# --- hand appends racing writes ----------------------------------------------------------------------------
def test_an_appender_that_opened_the_file_before_the_write_keeps_its_line(ledger: Path) -> None:
    """`exec 3>>c.yaml; scarbook campaign place ...; echo '# note' >&3`: the note lands in the ledger."""
    fd = os.open(ledger, os.O_WRONLY | os.O_APPEND)
    try:
        assert sb(*PLACE, "-c", str(ledger)).returncode == 0
        os.write(fd, b"# written through a descriptor opened before the write\n")
    finally:
        os.close(fd)
    text = ledger.read_text()
    assert text.endswith(NEW_LINE + "# written through a descriptor opened before the write\n")


WRITER = r"""
import sys
from pathlib import Path
from scarbook.campaign.ledger.file import LedgerError
from scarbook.campaign.ledger.cache import read
from scarbook.campaign.ledger.write import locked, write_atomic
from scarbook.campaign.ledger.text import with_event
from scarbook.campaign.events import parse_event
from scarbook.kernel.diagnostics import Span
path, count = Path(sys.argv[1]), int(sys.argv[2])
n = 0
while n < count:
    try:
        with locked(path, wait=20):
            ledger = read(path)
            event = parse_event({"event": "place", "sticker": "coin", "target": f"t{n}"}, Span("x"), 0)
            write_atomic(path, with_event(ledger, event), expected=ledger.raw)
        print(f"ack {n}", flush=True)
        n += 1
    except LedgerError as exc:
        assert exc.diagnostics[0].code == "L012", exc
        print("changed", flush=True)
"""


def test_hand_appends_racing_many_writes_are_never_lost(ledger: Path) -> None:
    """A real writer process appends 60 events while this process appends two comment lines per
    acknowledgement: one through a descriptor held open all along (`script >> c.yaml`), one
    through a fresh `>>`. They race the writer's next write; none may be lost, nor any event."""
    count = 60
    held = os.open(ledger, os.O_WRONLY | os.O_APPEND)
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(ledger), str(count)], env=proc_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    notes: list[str] = []
    changed = 0
    try:
        for line in proc.stdout:
            if line.startswith("changed"):
                changed += 1
                continue
            k = line.split()[1]
            for how in ("held", "fresh"):
                note = f"# {how} {k}\n"
                if how == "held":
                    os.write(held, note.encode())
                else:
                    append(ledger, note)
                notes.append(note)
    finally:
        os.close(held)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    text = ledger.read_text()
    lost = [n for n in notes if n not in text]
    assert not lost, f"{len(lost)} of {len(notes)} hand lines lost: {lost[:5]}"
    targets = [e.get("target", "") for e in events_of(ledger)]
    assert [t for t in targets if t.startswith("t")] == [f"t{n}" for n in range(count)]
    assert _side_files(ledger.parent) == []


def place_while_appending(ledger: Path, text: str) -> tuple[str, str]:
    """`place` paused after its last comparison, `text` appended by hand, then let go: its output (it must succeed)."""
    proc = paused(*PLACE, "-c", str(ledger), point="ledger-after-check")
    append(ledger, text)
    out, err = proc.communicate("\n", timeout=60)
    assert proc.returncode == 0, out + err
    return out, err


def test_a_line_without_newline_appended_between_check_and_write_is_not_glued_to_the_event(ledger: Path) -> None:
    """`printf '# x' >> c.yaml` just before the event is appended: the event must not become part of the comment."""
    out, err = place_while_appending(ledger, "# typed without a newline")
    assert "line break" in out + err  # it says what it repaired
    text = ledger.read_text()
    assert text.endswith("# typed without a newline\n" + NEW_LINE)
    assert events_of(ledger)[-1] == {"event": "place", "sticker": "bunker", "target": "peru", "by": "Ann"}
    assert _side_files(ledger.parent) == []


def test_an_append_after_the_last_comparison_is_kept_with_the_event(ledger: Path) -> None:
    place_while_appending(ledger, "# appended at the worst moment\n")
    assert ledger.read_text().endswith("# appended at the worst moment\n" + NEW_LINE)


def test_an_event_typed_by_hand_at_the_same_moment_is_kept_and_reported(ledger: Path) -> None:
    typed = "- {event: place, sticker: bunker, target: egypt, by: Bob}\n"
    out, err = place_while_appending(ledger, typed)
    assert "scarbook campaign check" in err
    assert ledger.read_text().endswith(typed + NEW_LINE)


# --- a SIGKILL that tears the append --------------------------------------------------------------------
def test_a_torn_append_is_never_read_as_an_event_and_is_removed_by_the_next_write(ledger: Path) -> None:
    before = ledger.read_bytes()
    old = events_of(ledger)
    assert sb("campaign", "status", "-c", str(ledger)).returncode == 0  # warm: the bytes' sha256 comes from the cache
    result = sb(*PLACE, "-c", str(ledger), SCARBOOK_FAULT="ledger-append:torn")
    assert result.returncode == -9, result.stdout + result.stderr
    torn = ledger.read_bytes()
    assert torn.startswith(before) and before + NEW_LINE.encode() != torn != before  # half an event is on disk
    assert (ledger.parent / ".c.yaml.append").exists()
    recorded = (ledger.parent / ".c.yaml.append").read_bytes().split(b"\n", 1)[0].split()[4].decode()
    assert recorded == hashlib.sha256(before).hexdigest()  # the journal names exactly the bytes before the event
    # readers never see the half event: the campaign reads as before
    check = sb("campaign", "check", "-c", str(ledger))
    assert check.returncode == 0, check.stdout + check.stderr
    log = sb("campaign", "log", "-c", str(ledger))
    assert log.returncode == 0 and "peru" not in log.stdout, log.stdout + log.stderr
    # a hand edit after the crash is kept; the next write removes exactly the half event
    append(ledger, "# a note after the crash\n")
    assert sb("campaign", "place", "bunker", "egypt", "--by", "Bob", "-c", str(ledger)).returncode == 0
    egypt = b"- {event: place, sticker: bunker, target: egypt, by: Bob}\n"
    assert ledger.read_bytes() == before + b"# a note after the crash\n" + egypt
    assert events_of(ledger) == [*old, {"event": "place", "sticker": "bunker", "target": "egypt", "by": "Bob"}]
    assert _side_files(ledger.parent) == []


def test_a_torn_append_at_the_end_is_cut_in_place(ledger: Path) -> None:
    before, ino = ledger.read_bytes(), ledger.stat().st_ino
    assert sb(*PLACE, "-c", str(ledger), SCARBOOK_FAULT="ledger-append:torn").returncode == -9
    assert sb("campaign", "undo", "-c", str(ledger)).returncode == 0  # any locked write repairs first
    assert ledger.stat().st_ino == ino
    assert events_of(ledger) == [e.to_dict() for e in parse(before.decode(), ledger).events][:-1]
    assert _side_files(ledger.parent) == []


def test_killed_after_the_append_keeps_the_whole_event(ledger: Path) -> None:
    before = ledger.read_bytes()
    assert sb(*PLACE, "-c", str(ledger), SCARBOOK_FAULT="ledger-after-append:kill").returncode == -9
    assert ledger.read_bytes() == before + NEW_LINE.encode()
    assert sb("campaign", "place", "bunker", "egypt", "--by", "Bob", "-c", str(ledger)).returncode == 0
    egypt = b"- {event: place, sticker: bunker, target: egypt, by: Bob}\n"
    assert ledger.read_bytes() == before + NEW_LINE.encode() + egypt
    assert _side_files(ledger.parent) == []


def test_an_ambiguous_torn_append_is_refused_not_guessed(ledger: Path) -> None:
    """Half an event, then text that does not start a line of its own: where our half ends cannot be told
    for sure, so the next write refuses (L014, saying which line to fix) instead of cutting anything."""
    before = ledger.read_bytes()
    assert sb(*PLACE, "-c", str(ledger), SCARBOOK_FAULT="ledger-append:torn").returncode == -9
    half = ledger.read_bytes()[len(before):]
    ledger.write_bytes(before + half + b"xx: 1}\n")
    result = sb("campaign", "place", "bunker", "egypt", "--by", "Bob", "-c", str(ledger))
    proc_refused(result, "L014")
    assert ledger.read_bytes() == before + half + b"xx: 1}\n"
    # once fixed by hand (the half line deleted) and the journal removed as the message says, writes go on
    assert ".c.yaml.append" in result.stderr
    ledger.write_bytes(before)
    (ledger.parent / ".c.yaml.append").unlink()
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0


def test_a_torn_append_after_hand_lines_that_landed_before_it_is_found(ledger: Path) -> None:
    """Hand appends between the writer's last comparison and its (torn) write move the half event past the
    journal's offset: it is found at the next line start, and every hand line is kept."""
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.ledger.journal import _write_journal
    from scarbook.campaign.ledger.write import finish_interrupted_append

    before = ledger.read_bytes()
    suffix = NEW_LINE.encode()
    _write_journal(ledger.parent / ".c.yaml.append", len(before), before, suffix)
    ledger.write_bytes(before + b"# landed before the write\n" + suffix[:20] + b"# after the crash\n")
    assert [e.to_dict() for e in read(ledger).events] == _events_of(before, ledger)  # readers never see it
    finish_interrupted_append(ledger, "c.yaml")
    assert ledger.read_bytes() == before + b"# landed before the write\n# after the crash\n"
    assert _side_files(ledger.parent) == []


def test_a_torn_append_to_a_ledger_without_final_newline_after_hand_lines_is_found(ledger: Path) -> None:
    """The same when neither the ledger nor the hand line ended with a line break: the append's own line
    break (its first byte) ends the hand line and is kept; the half event after it is cut."""
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.ledger.journal import _write_journal
    from scarbook.campaign.ledger.write import finish_interrupted_append

    bare = ledger.read_bytes().rstrip(b"\n")
    suffix = b"\n" + NEW_LINE.encode()
    _write_journal(ledger.parent / ".c.yaml.append", len(bare), bare, suffix)
    ledger.write_bytes(bare + b"\n# landed before the write" + suffix[:20])
    assert [e.to_dict() for e in read(ledger).events] == _events_of(bare, ledger)  # readers never see it
    finish_interrupted_append(ledger, "c.yaml")
    assert ledger.read_bytes() == bare + b"\n# landed before the write\n"
    assert _side_files(ledger.parent) == []


def _events_of(raw: bytes, path: Path) -> list[dict]:
    return [e.to_dict() for e in parse(raw.decode(), path).events]


# --- undo truncates in place ----------------------------------------------------------------------------
def test_undo_truncates_in_place_and_a_held_appender_keeps_its_line(ledger: Path) -> None:
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    before = ledger.read_bytes()
    ino = ledger.stat().st_ino
    fd = os.open(ledger, os.O_WRONLY | os.O_APPEND)
    try:
        assert sb("campaign", "undo", "-c", str(ledger)).returncode == 0
        os.write(fd, b"# after the undo\n")
    finally:
        os.close(fd)
    assert ledger.stat().st_ino == ino
    assert ledger.read_bytes() == before[: -len(NEW_LINE)] + b"# after the undo\n"
    assert ledger.with_name("c.yaml.bak").read_bytes() == before


def test_undo_refuses_when_the_file_grew_before_the_truncation(ledger: Path) -> None:
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    proc = paused("campaign", "undo", "-c", str(ledger), point="ledger-before-truncate")
    append(ledger, "# typed while undo ran\n")
    edited = ledger.read_bytes()
    out, err = proc.communicate("\n", timeout=60)
    assert proc.returncode == 1 and "changed while" in err, out + err
    assert ledger.read_bytes() == edited


# --- the replace path (layouts that cannot be appended to) keeps late appends too -----------------------------
FLOW = "events: [\n  {event: place, sticker: coin, target: alaska}\n]\n"


def test_replace_path_merges_a_late_append_with_appends_to_the_new_file(ledger: Path) -> None:
    """Window (b): an append reaches the old file after the last comparison and another one reaches the
    new file before the check: both are kept (the command refuses with L012, nothing of its own written)."""
    head = ledger.read_text().split("events:")[0]
    ledger.write_text(head + FLOW)
    held = os.open(ledger, os.O_WRONLY | os.O_APPEND)
    try:
        proc = paused("campaign", "place", "coin", "peru", "-c", str(ledger), point="ledger-after-rename")  # legal here
        assert proc.stdin is not None
        os.write(held, b"# late, into the old file\n")
        append(ledger, "# early, into the new file\n")
        out, err = proc.communicate("\n", timeout=60)
    finally:
        os.close(held)
    assert proc.returncode == 1 and "changed while" in err, out + err
    assert ledger.read_text() == head + FLOW + "# late, into the old file\n# early, into the new file\n"
    assert _side_files(ledger.parent) == []


def test_where_a_torn_append_is_in_the_bytes() -> None:
    import hashlib

    from scarbook.campaign.ledger.journal import _torn_part

    old, line = b"events:\n- {a: 1}\n", b"- {event: place, sticker: coin, target: x}\n"
    digest = hashlib.sha256(old).hexdigest()
    at = len(old)
    assert _torn_part(old, at, digest, line) == ("none", 0, 0)  # killed before the first byte
    assert _torn_part(old + line, at, digest, line) == ("none", 0, 0)  # killed after the last
    assert _torn_part(old + line[:9], at, digest, line) == ("cut", at, at + 9)
    assert _torn_part(old + line[:9] + b"# hand\n", at, digest, line) == ("cut", at, at + 9)
    assert _torn_part(old + line[:9] + b"oops\n", at, digest, line) == ("unclear", at, at + 9)
    assert _torn_part(b"rewritten\n" + line[:9], at, digest, line) == ("none", 0, 0)  # the file was saved since
    # a file without a final newline: the line break the event needed is kept, only the half line goes
    bare = old.rstrip(b"\n")
    assert _torn_part(bare + b"\n" + line[:5], len(bare), hashlib.sha256(bare).hexdigest(), b"\n" + line) == (
        "cut", len(bare) + 1, len(bare) + 6)
    # hand lines that landed between the last comparison and the write push the half event further
    moved = old + b"# typed\n" + line[:12]
    assert _torn_part(moved, at, digest, line) == ("cut", at + 8, at + 20)


# --- comparing the file with the bytes read, in place --------------------------------------------------
@given(st.binary(max_size=40), st.binary(max_size=40), st.integers(1, 8))
def test_the_in_place_comparison_is_the_whole_read_s(content: bytes, expected: bytes, chunk: int) -> None:
    """`_holds` (one reused buffer, compared in place) answers as reading the whole file and comparing did,
    for files equal to, shorter than, longer than or different from the bytes read, over several chunks."""
    import tempfile

    from scarbook.campaign.ledger.journal import _holds, _pread_all

    for wanted in (expected, content, content[:-1], content + b"x"):
        with tempfile.TemporaryFile() as f:
            f.write(content)
            f.flush()
            assert _holds(f.fileno(), wanted, chunk) == (_pread_all(f.fileno()) == wanted)
