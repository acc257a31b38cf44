"""Trust nothing in a shared folder or cache (issue 26, items 1, 2, 7 and the lock of item 9).

Every file the tracker reads beside the ledger (the append journal, the lock) or in the cache folder is used
only when it is a regular file of the user running scarbook that nobody else may write
(`scarbook.kernel.trust`). The tests run as root, so a foreign file is made with `os.chown` to `nobody`;
everything runs real `scarbook` processes on real files.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from campaigns.procs import PLACE, events_of, proc_env, sb

from scarbook.kernel.trust import Untrusted, open_trusted, read_trusted, trusted, why_untrusted

NOBODY = 65534


def _plant_journal(ledger: Path, owner: int, mode: int) -> None:
    """The audit's journal: it names the offset of the last three events and the sha256 of the bytes before
    them (computable by anyone who can read the ledger), and those three lines plus one byte as its suffix."""
    raw = ledger.read_bytes()
    lines = raw.splitlines(True)
    offset = len(b"".join(lines[:-3]))
    suffix = b"".join(lines[-3:]) + b"X"
    journal = ledger.with_name(f".{ledger.name}.append")
    journal.write_bytes(b"scarbook-append 1 %d %d %s\n" % (offset, len(suffix),
                                                            hashlib.sha256(raw[:offset]).hexdigest().encode())
                        + suffix)
    os.chown(journal, owner, owner)
    os.chmod(journal, mode)


# --- the helper itself ----------------------------------------------------------------------------------------
def test_trusted_means_own_regular_and_written_by_nobody_else(tmp_path: Path) -> None:
    own = tmp_path / "own"
    own.write_bytes(b"x")
    os.chmod(own, 0o644)
    assert trusted(os.stat(own)) and read_trusted(own) == b"x" and read_trusted(own, 0) == b""
    os.chmod(own, 0o664)
    assert why_untrusted(os.stat(own)) == "others may write it (mode 0664)"
    os.chmod(own, 0o600)
    os.chown(own, NOBODY, NOBODY)
    assert why_untrusted(os.stat(own)) == f"it belongs to another user (uid {NOBODY})"
    with pytest.raises(Untrusted):
        read_trusted(own)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(Untrusted, match="FIFO"):  # opened without blocking, then refused
        open_trusted(tmp_path / "fifo")
    mine = tmp_path / "mine"
    mine.write_bytes(b"y")
    (tmp_path / "link").symlink_to(mine)
    with pytest.raises(Untrusted, match="symbolic link"):  # never followed
        read_trusted(tmp_path / "link")


# --- 1. a foreign append journal --------------------------------------------------------------------------
@pytest.mark.parametrize(("owner", "mode"), [(NOBODY, 0o644), (0, 0o666)])
def test_a_foreign_journal_never_hides_or_cuts_events(ledger: Path, owner: int, mode: int) -> None:
    before = ledger.read_bytes()
    count = len(events_of(ledger))
    _plant_journal(ledger, owner, mode)
    check = sb("campaign", "check", "-c", str(ledger))
    assert check.returncode == 0, check.stderr
    assert f"{count} events" in check.stdout  # all of them: the journal was ignored
    log = sb("campaign", "log", "-c", str(ledger))
    assert log.returncode == 0 and "saharan-republic-long-maneuver" in log.stdout
    write = sb(*PLACE, "-c", str(ledger))
    assert write.returncode == 1
    assert "L006" in write.stderr and ".c.yaml.append is not scarbook's journal" in write.stderr
    assert "nothing was written" in write.stderr
    assert ledger.read_bytes() == before  # nothing cut, nothing added
    assert ledger.with_name(".c.yaml.append").exists()  # and the other user's file is left alone
    undo = sb("campaign", "undo", "-c", str(ledger))
    assert undo.returncode == 1 and ledger.read_bytes() == before
    ledger.with_name(".c.yaml.append").unlink()
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    assert len(events_of(ledger)) == count + 1


def test_an_own_private_journal_is_still_used(ledger: Path) -> None:
    """The control: a journal scarbook itself wrote for the last three events (private, naming this ledger's
    inode and its own) is the journal of a torn append. (A forged one, even private: test_journal_provenance.)"""
    from scarbook.campaign.ledger.journal import _write_journal, journal_path

    count = len(events_of(ledger))
    raw = ledger.read_bytes()
    lines = raw.splitlines(True)
    offset = len(b"".join(lines[:-3]))
    _write_journal(journal_path(ledger), offset, raw[:offset], b"".join(lines[-3:]) + b"X")
    check = sb("campaign", "check", "-c", str(ledger))
    assert f"{count - 3} events" in check.stdout, check.stdout


# --- 2. compiled templates and other code in the cache ---------------------------------------------------
def _sheet(ledger: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return sb("campaign", "sheet", "--format", "html", "--out", str(ledger.with_name("s.html")), "-c", str(ledger),
              SCARBOOK_CACHE=str(cache))


def _planted_code(canary: Path) -> bytes:
    import marshal

    return marshal.dumps(compile(f"open({str(canary)!r}, 'w').write('ran')", "<planted>", "exec"))


def test_a_planted_compiled_template_is_never_executed(ledger: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _sheet(ledger, cache).returncode == 0
    compiled = sorted((cache / "templates").iterdir())
    assert compiled, "the sheet's template was not cached"
    canary = tmp_path / "canary"
    for path in compiled:
        # keep Jinja2's header (magic and the source's checksum): only the code is replaced
        from jinja2.bccache import bc_magic

        blob = path.read_bytes()
        import pickle

        checksum = pickle.loads(blob[len(bc_magic):])
        path.write_bytes(bc_magic + pickle.dumps(checksum, 2) + _planted_code(canary))
        os.chown(path, NOBODY, NOBODY)
        os.chmod(path, 0o666)
    ledger.with_name("s.html").unlink()
    result = _sheet(ledger, cache)
    assert result.returncode == 0, result.stderr
    assert not canary.exists()
    assert "<html" in ledger.with_name("s.html").read_text("utf-8").lower()


def test_the_own_compiled_template_is_still_used(ledger: Path, tmp_path: Path) -> None:
    """The control: the same planted code in the user's own 0600 file runs (so the test above can fail)."""
    cache = tmp_path / "cache"
    assert _sheet(ledger, cache).returncode == 0
    canary = tmp_path / "canary"
    import pickle

    from jinja2.bccache import bc_magic

    for path in (cache / "templates").iterdir():
        checksum = pickle.loads(path.read_bytes()[len(bc_magic):])
        path.write_bytes(bc_magic + pickle.dumps(checksum, 2) + _planted_code(canary))
        os.chmod(path, 0o600)
    _sheet(ledger, cache)
    assert canary.exists()


def test_planted_validator_and_dataclass_code_are_never_executed(tmp_path: Path) -> None:
    """`validators/*.marshal` and the dataclass code file hold code too: a foreign copy is not loaded."""
    cache = tmp_path / "cache"
    canary = tmp_path / "canary"
    env = {"SCARBOOK_CACHE": str(cache)}
    code = ("import sys; from scarbook.compiler import compiled; compiled.shipped = lambda name: None; "
            "print(compiled.compiled() is not None)")
    first = subprocess.run([sys.executable, "-c", code], env=proc_env(**env), capture_output=True, text=True)
    assert first.stdout.strip() == "True", first.stderr
    files = list((cache / "validators").iterdir())
    assert files
    for path in files:
        path.write_bytes(_planted_code(canary))
        os.chown(path, NOBODY, NOBODY)
    subprocess.run([sys.executable, "-c", code], env=proc_env(**env), capture_output=True, text=True)
    assert not canary.exists()
    from scarbook.cli.codecache import load, store

    store(str(tmp_path / "code.bin"), {"x": compile("1", "<s>", "exec")})
    assert load(str(tmp_path / "code.bin"))
    os.chmod(tmp_path / "code.bin", 0o666)
    assert load(str(tmp_path / "code.bin")) == {}


#: A homebrew game: validated and kept in the cache folder (a shipped game comes validated with the package).
HOMEBREW = Path(__file__).resolve().parent.parent / "examples" / "tiny-game"
CACHED_GAME = ("import sys; from scarbook.compiler.validate import cached_game; "
               "print(cached_game(sys.argv[1]).title)")


def test_a_foreign_cached_game_is_not_used(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = {"SCARBOOK_CACHE": str(cache)}
    code = [sys.executable, "-c", CACHED_GAME, str(HOMEBREW)]
    first = subprocess.run(code, env=proc_env(**env), capture_output=True, text=True)
    title = first.stdout.strip()
    assert title, first.stderr
    entry = next(cache.glob("*tiny_game-*.json"))
    assert entry.stat().st_mode & 0o777 == 0o600
    entry.write_text(entry.read_text("utf-8").replace(title, "PLANTED"), "utf-8")
    os.chown(entry, NOBODY, NOBODY)
    again = subprocess.run(code, env=proc_env(**env), capture_output=True, text=True)
    assert again.stdout.strip() == title


# --- 7. a FIFO in the ledger cache -------------------------------------------------------------------------
@pytest.mark.parametrize("part", ["events", "head", "games"])
def test_a_fifo_in_the_ledger_cache_never_hangs(ledger: Path, tmp_path: Path, part: str) -> None:
    cache = tmp_path / "cache"
    for _ in range(2):
        assert sb("campaign", "check", "-c", str(ledger), SCARBOOK_CACHE=str(cache)).returncode == 0
    found = list((cache / "ledgers").glob(f"*.{part}"))
    if not found:  # a part this ledger has no use for yet: plant it where it would be
        head = next((cache / "ledgers").glob("*.head"))
        found = [head.with_suffix(f".{part}")]
    for path in found:
        if path.exists():
            path.unlink()
        os.mkfifo(path)
    for command in ("check", "log", "status"):
        result = sb("campaign", command, "-c", str(ledger), SCARBOOK_CACHE=str(cache), timeout=30)
        assert result.returncode == 0, (command, result.stderr)
    assert sb(*PLACE, "-c", str(ledger), SCARBOOK_CACHE=str(cache), timeout=30).returncode == 0
    assert sb("campaign", "check", "-c", str(ledger), SCARBOOK_CACHE=str(cache), timeout=30).returncode == 0


def test_a_fifo_at_every_cache_file_never_hangs(ledger: Path, tmp_path: Path) -> None:
    """Every file of the cache folder (cached games, compiled templates, the compiled-code file, the ledger's
    parts) replaced by a FIFO: every command still answers (a cache miss), none blocks opening one."""
    cache = tmp_path / "cache"
    sheet = ["campaign", "sheet", "--format", "html", "--out", str(tmp_path / "s.html")]
    for command in (sheet, ["campaign", "check"]):
        assert sb(*command, "-c", str(ledger), SCARBOOK_CACHE=str(cache)).returncode == 0
    homebrew = [sys.executable, "-c", CACHED_GAME, str(HOMEBREW)]  # a cached game (the shipped one is not cached)
    title = subprocess.run(homebrew, env=proc_env(SCARBOOK_CACHE=str(cache)), capture_output=True, text=True)
    assert title.stdout.strip(), title.stderr
    planted = [p for p in cache.rglob("*") if p.is_file()]
    assert {p.parent.name for p in planted} >= {"cache", "templates", "ledgers"}, planted
    assert any(p.name.endswith(".json") for p in planted) and any(p.name.endswith(".bin") for p in planted)
    for path in planted:
        path.unlink()
        os.mkfifo(path)
    for command in (sheet, ["campaign", "status"], ["campaign", "check"], ["campaign", "log"], PLACE):
        result = sb(*command, "-c", str(ledger), SCARBOOK_CACHE=str(cache), timeout=60)
        assert result.returncode == 0, (command, result.stderr)
    again = subprocess.run(homebrew, env=proc_env(SCARBOOK_CACHE=str(cache)), capture_output=True, text=True,
                           timeout=60)
    assert again.stdout.strip() == title.stdout.strip(), again.stderr


def test_a_symlink_in_the_ledger_cache_is_never_written_through(ledger: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert sb("campaign", "check", "-c", str(ledger), SCARBOOK_CACHE=str(cache)).returncode == 0
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    for path in (cache / "ledgers").glob("*.events"):
        path.unlink()
        path.symlink_to(victim)
    assert sb(*PLACE, "-c", str(ledger), SCARBOOK_CACHE=str(cache)).returncode == 0
    assert sb("campaign", "log", "-c", str(ledger), SCARBOOK_CACHE=str(cache)).returncode == 0
    assert victim.read_bytes() == b"precious"


# --- 9. the lock: another user's lock file; hard links share one lock ---------------------------------------
def test_a_foreign_lock_file_is_refused(ledger: Path) -> None:
    lock = ledger.with_name("c.yaml.lock")
    lock.write_bytes(b"")
    os.chown(lock, NOBODY, NOBODY)
    before = ledger.read_bytes()
    result = sb(*PLACE, "-c", str(ledger))
    assert result.returncode == 1
    assert "L006" in result.stderr and "c.yaml.lock cannot be the campaign's lock" in result.stderr
    assert ledger.read_bytes() == before


_WRITER = r"""
import sys
from pathlib import Path
from scarbook.campaign.ledger.cache import read
from scarbook.campaign.ledger.file import LedgerError
from scarbook.campaign.ledger.text import with_event
from scarbook.campaign.ledger.write import locked, write_atomic
from scarbook.campaign.events import parse_event
from scarbook.kernel.diagnostics import Span
path, name = Path(sys.argv[1]), sys.argv[2]
for n in range(40):
    try:
        with locked(path, wait=30):
            ledger = read(path)
            event = parse_event({"event": "place", "sticker": "coin", "target": f"{name}-{n}"}, Span("x"), 0)
            write_atomic(path, with_event(ledger, event), expected=ledger.raw)
        print("ack", flush=True)
    except LedgerError as exc:
        print(exc.diagnostics[0].code, flush=True)
"""


def test_hard_linked_names_share_one_lock(tmp_path: Path) -> None:
    """Two writer processes, one on each hard-linked name of a ledger, through the real write path: with one
    lock per name (before) some writes overlapped and were refused with L012; with the file locked, none is."""
    ledger = tmp_path / "c.yaml"
    ledger.write_text("campaign: {game: risk-legacy, fingerprint: x, players: [A, B, C]}\nevents:\n")
    hard = tmp_path / "hard.yaml"
    os.link(ledger, hard)
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), name], env=proc_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for path, name in ((ledger, "a"), (hard, "b"))]
    outputs = [p.communicate(timeout=300) for p in procs]
    said = [line for out, _ in outputs for line in out.split()]
    assert said == ["ack"] * 80, (said, outputs[0][1][-500:])
    assert len(events_of(ledger)) == 80 and os.stat(ledger).st_ino == os.stat(hard).st_ino
