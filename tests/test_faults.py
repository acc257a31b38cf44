"""Never lose a campaign (issue 11): symlinks, outputs onto the ledger, undo of an unreadable entry,
hand edits racing a write, comments and modes kept, temporary files, odd files, hostile caches,
packs and content. Everything about processes runs real `scarbook` processes; faults are injected
deterministically with SCARBOOK_FAULT (see `scarbook.kernel.atomic.fault`), never with sleeps.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from campaigns.procs import PLACE, SCARBOOK, events_of, proc_env, sb

from scarbook.campaign.ledger.file import parse


def _no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr + result.stdout, result.stderr[-2000:]


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- 1. a ledger reached through a symlink ----------------------------------------------------------
def test_symlinked_ledger_is_written_through_not_forked(tmp_path: Path, ledger: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    target = real / "ours.yaml"
    ledger.rename(target)
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    result = sb(*PLACE, "-c", str(link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert events_of(target)[-1] == {"event": "place", "sticker": "bunker", "target": "peru", "by": "Ann"}
    assert (real / "ours.yaml.bak").is_file() and (real / "ours.yaml.lock").exists()
    assert not (tmp_path / "link.yaml.bak").exists() and not (tmp_path / "link.yaml.lock").exists()
    undo = sb("campaign", "undo", "-c", str(link))
    assert undo.returncode == 0 and link.is_symlink()


# --- 2. never write an output over the ledger -------------------------------------------------------
@pytest.mark.parametrize("out", ["c.yaml", "c.yaml.bak", "c.yaml.lock", ".c.yaml.append", "alias.yaml",
                                 "./sub/../c.yaml"])
def test_sheet_refuses_to_overwrite_the_ledger(ledger: Path, out: str) -> None:
    (ledger.parent / "alias.yaml").symlink_to(ledger)
    (ledger.parent / "sub").mkdir()
    (ledger.parent / "c.yaml.bak").write_bytes(b"old")
    (ledger.parent / "c.yaml.lock").write_bytes(b"")
    before = {p.name: p.read_bytes() for p in ledger.parent.iterdir() if p.is_file()}
    result = sb("campaign", "sheet", "--out", out, "-c", "c.yaml", cwd=ledger.parent)
    _no_traceback(result)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "campaign file" in result.stderr
    assert {p.name: p.read_bytes() for p in ledger.parent.iterdir() if p.is_file()} == before


def test_sheet_of_a_ledger_named_pdf_refuses(ledger: Path) -> None:
    pdf = ledger.with_name("ours.pdf")
    ledger.rename(pdf)
    before = pdf.read_bytes()
    result = sb("campaign", "sheet", "-c", str(pdf))
    _no_traceback(result)
    assert result.returncode in (1, 2) and "--out" in result.stderr
    assert pdf.read_bytes() == before


# --- 3. undo removes exactly the last event, or refuses ----------------------------------------------
@pytest.mark.parametrize("entry", [
    "- {event: plce, sticker: bunker, target: peru}",           # a typo
    "- !!python/object:os.system {event: place}",               # a YAML tag
    "- {event: place, sticker: bunker, target: peru, target: brazil}",  # a duplicate key
    "- event: place\n  sticker: bunker\n  sticker: scar\n  target: peru",
])
def test_undo_refuses_when_the_last_entry_does_not_parse(ledger: Path, entry: str) -> None:
    ledger.write_text(ledger.read_text() + entry + "\n")
    before = ledger.read_bytes()
    line = before.decode().count("\n") - entry.count("\n")
    result = sb("campaign", "undo", "-c", str(ledger))
    _no_traceback(result)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f":{line}:" in result.stderr and "nothing was written" in result.stderr
    assert ledger.read_bytes() == before


def test_undo_of_a_block_style_last_event_removes_only_it(ledger: Path) -> None:
    before = ledger.read_text()
    ledger.write_text(before + "# a note about the bunker\n- event: place\n  sticker: bunker\n  target: peru\n"
                      "\n# trailing comment\nnotes: keep me\n")
    result = sb("campaign", "undo", "-c", str(ledger))
    assert result.returncode == 0, result.stderr
    text = ledger.read_text()
    assert "sticker: bunker" not in text and "# a note about the bunker" in text
    assert "notes: keep me" in text and "# trailing comment" in text
    assert events_of(ledger) == [e.to_dict() for e in parse(before, ledger).events]
    assert sb("campaign", "check", "-c", str(ledger)).returncode == 0


def test_undo_of_flow_style_events(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_text("campaign: {game: risk-legacy, players: [A, B, C]}  # ours\nevents: [\n  {event: place, sticker: "
                    "coin, target: alaska-card},  # first\n  {event: place, sticker: coin, target: brazil-card}\n]\n"
                    "notes: {x: 1}\n")
    result = sb("campaign", "undo", "-c", str(file))
    assert result.returncode == 0, result.stderr
    assert "# ours" in file.read_text() and "# first" in file.read_text() and "notes: {x: 1}" in file.read_text()
    assert [e["target"] for e in events_of(file)] == ["alaska-card"]


# --- 4. a hand edit saved while a command writes -------------------------------------------------------
def test_hand_edit_while_writing_is_never_lost(ledger: Path) -> None:
    proc = subprocess.Popen([SCARBOOK, *PLACE, "-c", str(ledger)],
                            env=proc_env(SCARBOOK_FAULT="ledger-before-replace:pause"),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None and proc.stdin is not None
    assert proc.stderr.readline().strip() == "paused ledger-before-replace"
    edited = ledger.read_text() + "# a note typed while scarbook was writing\n"
    ledger.write_text(edited)
    out, err = proc.communicate("\n", timeout=60)
    assert proc.returncode == 1, out + err
    assert "changed while" in err and "nothing was written" in err
    assert ledger.read_text() == edited
    assert _temps(ledger.parent) == []


def test_append_landing_after_the_last_comparison_is_put_back(ledger: Path) -> None:
    """`echo '# note' >> c.yaml` between the last byte comparison and the rename: the edit survives.

    Only a layout that cannot be appended to (here a flow list followed by another key) is written by
    a rename; an event appended to a block list is written in place and keeps the note *and* the event
    (tests/test_ledger_append.py)."""
    ledger.write_text(LAYOUTS["flow"](ledger.read_text()))
    proc = subprocess.Popen([SCARBOOK, *PLACE, "-c", str(ledger)],
                            env=proc_env(SCARBOOK_FAULT="ledger-after-check:pause"), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert proc.stderr.readline().strip() == "paused ledger-after-check"
    with open(ledger, "a", encoding="utf-8") as fh:
        fh.write("# appended at the worst moment\n")
    edited = ledger.read_text()
    out, err = proc.communicate("\n", timeout=60)
    assert proc.returncode == 1 and "changed while" in err, out + err
    assert ledger.read_text() == edited and _temps(ledger.parent) == []


# --- 5. comments, unknown keys, layouts, modes ---------------------------------------------------------
LAYOUTS = {
    "notes-after": lambda t: t + "\n# our house notes\nnotes:\n  - remember the sinkhole\n",
    "flow": lambda t: t.replace("events:\n", "events: [\n", 1).replace("}\n- {", "},\n  {").replace("\n- {", "\n  {")
    + "]\nnotes: x\n",
    "blank-lines-and-comments": lambda t: t.replace("\n- {event: place, sticker: coin, target: egypt",
                                                   "\n\n# egypt\n\n- {event: place, sticker: coin, target: egypt"),
    "block-events": lambda t: t + "- event: place\n  sticker: ammo-shortage\n  # why\n  target: brazil\n  by: Bob\n",
    "empty-events-then-key": lambda t: t.split("events:")[0] + "events:\nextra: {a: 1}\n",
    "null-events": lambda t: t.split("events:")[0] + "events: ~  # nothing yet\nextra: 1\n",
    "no-events": lambda t: t.split("events:")[0] + "# the end\n",
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_write_keeps_comments_unknown_keys_and_layout(ledger: Path, layout: str) -> None:
    original = LAYOUTS[layout](ledger.read_text())
    ledger.write_text(original)
    old = events_of(ledger)
    comments = [ln.split("#", 1)[1] for ln in original.splitlines() if "#" in ln]
    # with the events gone no game is in progress: a setup coin is what is legal then
    coin = {"event": "place", "sticker": "coin", "target": "peru-card"}
    place, placed = ((PLACE, {"event": "place", "sticker": "bunker", "target": "peru", "by": "Ann"}) if old else
                     (["campaign", "place", "coin", "peru"], coin))
    result = sb(*place, "-c", str(ledger))
    assert result.returncode == 0, (original, result.stderr)
    text = ledger.read_text()
    assert all(c in text for c in comments)
    assert events_of(ledger) == [*old, placed]
    for key in ("notes:", "extra:"):
        assert (key in text) == (key in original)
    assert sb("campaign", "undo", "-c", str(ledger)).returncode == 0
    assert events_of(ledger) == old and all(c in ledger.read_text() for c in comments)


def test_write_keeps_modes(ledger: Path) -> None:
    ledger.chmod(0o640)
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    assert stat.S_IMODE(ledger.stat().st_mode) == 0o640
    assert stat.S_IMODE(ledger.with_name("c.yaml.bak").stat().st_mode) == 0o640


# --- 6. temporary files, planted symlinks, kills ---------------------------------------------------------
def test_planted_symlinks_never_redirect_a_write(tmp_path: Path) -> None:
    from scarbook.kernel.atomic import replace_file

    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    out = tmp_path / "out"
    out.mkdir()
    for pid in {os.getpid(), *range(os.getpid() - 3, os.getpid() + 3)}:
        (out / f".reference.pdf.{pid}.tmp").symlink_to(victim)
    replace_file(out / "reference.pdf", b"%PDF new")
    assert victim.read_bytes() == b"precious" and (out / "reference.pdf").read_bytes() == b"%PDF new"


def test_planted_bak_symlink_is_not_followed(ledger: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    ledger.with_name("c.yaml.bak").symlink_to(victim)
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    assert victim.read_bytes() == b"precious"


@pytest.mark.parametrize("point", ["ledger-after-bak", "ledger-before-replace"])
def test_killed_between_bak_and_ledger_keeps_the_previous_version(ledger: Path, point: str) -> None:
    ledger.with_name("c.yaml.bak").write_bytes(b"older")
    before = ledger.read_bytes()
    result = sb(*PLACE, "-c", str(ledger), SCARBOOK_FAULT=f"{point}:kill")
    assert result.returncode == -9
    assert ledger.read_bytes() == before
    assert ledger.with_name("c.yaml.bak").read_bytes() in (before, b"older")
    assert sb(*PLACE, "-c", str(ledger)).returncode == 0
    assert ledger.with_name("c.yaml.bak").read_bytes() == before
    assert _temps(ledger.parent) == []  # the dead writer's temporary file is gone


# --- 8. odd files -------------------------------------------------------------------------------------
def test_cr_only_line_endings(ledger: Path) -> None:
    ledger.write_bytes(ledger.read_bytes().replace(b"\n", b"\r"))
    for args in (["status"], ["check"], ["log"], PLACE[1:], ["undo"], ["undo"]):
        result = sb("campaign", *args, "-c", str(ledger))
        _no_traceback(result)
        assert result.returncode == 0, (args, result.stderr)
    assert b"\n" not in ledger.read_bytes()


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
def test_line_break_characters_in_a_name(ledger: Path, char: str) -> None:
    before = ledger.read_bytes()
    result = sb("campaign", "place", "continent-name", "australia", "--name", f"Oz{char}land", "-c", str(ledger))
    if result.returncode == 0:
        undo = sb("campaign", "undo", "-c", str(ledger))
        _no_traceback(undo)
        assert undo.returncode == 0 and ledger.read_bytes() == before
    _no_traceback(result)
    for entry in (f"- {{event: place, sticker: minor-city, target: peru, name: 'Li{char}ma'}}\n",
                  f"- {{event: place, sticker: minor-city, target: peru, name: \"Li{char}ma\"}}\n"):
        ledger.write_bytes(before + entry.encode())
        undo = sb("campaign", "undo", "-c", str(ledger))
        _no_traceback(undo)
        assert undo.returncode == 0 and ledger.read_bytes() == before, undo.stderr
    text = ledger.read_text() + f"- {{event: place, sticker: scar-cancel, target: a{char}b}}\n"
    ledger.write_text(text)
    check = sb("campaign", "check", "-c", str(ledger))
    _no_traceback(check)
    assert f":{text.count(chr(10))}:" in check.stderr + check.stdout  # the line a text editor shows


def test_fifo_and_devices_are_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    for file in (fifo, zero, tmp_path):
        for args in (["status"], ["undo"], PLACE[1:]):
            result = sb("campaign", *args, "-c", str(file), timeout=20)
            _no_traceback(result)
            assert result.returncode == 1 and "L001" in result.stderr, result.stderr


# --- 10. the parsed-ledger cache is verified, never trusted --------------------------------------------
def test_forged_cache_entry_is_not_trusted(ledger: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert sb("campaign", "status", "-c", str(ledger), SCARBOOK_CACHE=str(cache)).returncode == 0
    truth = sb("campaign", "log", "-c", str(ledger), SCARBOOK_CACHE=str(cache)).stdout
    entries = list((cache / "ledgers").iterdir())
    assert entries
    for entry in entries:  # three events fewer in the events part, and in the header's count
        if entry.suffix == ".events":
            entry.write_bytes(b"".join(entry.read_bytes().splitlines(keepends=True)[:-3]))
        elif entry.suffix == ".head":  # (its CRC no longer matches: the whole entry is discarded)
            head, tail = entry.read_bytes().split(b"\n", 1)
            crc, data = head.split(b" ", 1)
            forged = json.loads(data)
            forged["entries"] -= 3
            entry.write_bytes(crc + b" " + json.dumps(forged).encode() + b"\n" + tail)
    forged = sb("campaign", "log", "-c", str(ledger), SCARBOOK_CACHE=str(cache))
    assert forged.stdout == truth
    for garbage in ("", "{}\n[]", "\x00" * 50, '{"name": 1}\n[[1, 1, "place", 5]]'):
        for entry in (cache / "ledgers").iterdir():
            entry.write_text(garbage)
        result = sb("campaign", "log", "-c", str(ledger), SCARBOOK_CACHE=str(cache))
        _no_traceback(result)
        assert result.stdout == truth


# --- 11. smaller ones -----------------------------------------------------------------------------------
def test_no_lock_file_beside_a_missing_ledger(tmp_path: Path) -> None:
    result = sb(*PLACE, "-c", str(tmp_path / "missing.yaml"))
    assert result.returncode == 2 and "L001" in result.stderr  # a missing file: the command line is wrong
    assert list(tmp_path.iterdir()) == []
    undo = sb("campaign", "undo", "-c", str(tmp_path / "missing.yaml"))
    assert undo.returncode == 2 and list(tmp_path.iterdir()) == []


def test_read_only_status_never_says_cannot_write(ledger: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from campaigns.helpers import invoke

    from scarbook.campaign import replaycache
    from scarbook.campaign.engine import Campaign

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    result = sb("campaign", "status", "-c", str(ledger), SCARBOOK_CACHE=str(blocker / "cache"))
    _no_traceback(result)
    assert "cannot write" not in result.stderr and result.returncode == 0, result.stderr

    def unreadable(self: Campaign) -> None:
        raise PermissionError(13, "Permission denied", "content/risk-legacy/board.yaml")

    monkeypatch.setattr(replaycache, "checked", unreadable)
    for args in (["status"], ["check"]):
        out = invoke(args, ledger)
        assert out.exit_code == 1 and "cannot write" not in out.output and "board.yaml" in out.output, out.output


def test_player_named_with_equals_can_play(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert sb("campaign", "new", str(file), "--game", "risk-legacy", "--player", "A=B", "--player", "C",
              "--player", "D").returncode == 0
    result = sb("campaign", "game", "start", "--play", "A=B=khan-industries", "--play", "C=saharan-republic",
                "--play", "D=die-mechaniker", "-c", str(file))
    assert "R104" not in result.stderr, result.stderr


def _on_a_terminal(*args: str) -> tuple[int, bytes]:
    """Run scarbook with stdout and stderr on a pseudo-terminal (click strips ESC only when piped)."""
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen([SCARBOOK, *args], env=proc_env(), stdout=follower, stderr=follower)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return proc.wait(timeout=60), b"".join(chunks)


def test_terminal_output_escapes_control_characters(tmp_path: Path) -> None:
    pack = tmp_path / "evil"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "new-scar", pack)
    text = (pack / "pack.yaml").read_text().replace("name: The Sinkhole envelope",
                                                    'name: "The \\e]0;pwned\\a\\e[2JSink\\x9bhole"')
    (pack / "pack.yaml").write_text(text)
    (tmp_path / "bad.yaml").write_text(text.replace("contents: [sinkhole]", 'contents: ["\\e[2Jsink"]'))
    for args in (["show", "risk-legacy", "envelopes", "--pack", str(pack)],
                 ["show", "risk-legacy", "envelopes", "--pack", str(pack), "--format", "json"],
                 ["tables", "risk-legacy", "--pack", str(pack)], ["validate", str(tmp_path / "bad.yaml")]):
        code, out = _on_a_terminal(*args)
        assert b"Traceback" not in out and code in (0, 1), out[-500:]
        assert b"\x1b" not in out and "\x9b".encode() not in out and b"\x07" not in out, (args, out[-800:])
        assert b"Sink" in out or b"sink" in out


def test_build_keeps_the_users_own_files_in_tables(tmp_path: Path) -> None:
    game = tmp_path / "tiny"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "tiny-game", game)
    out = tmp_path / "out"
    tables = out / "tiny-isles" / "tables"
    tables.mkdir(parents=True)
    (tables / "my-notes.md").write_text("mine")
    (tables / "house.csv").write_text("a,b")
    first = sb("build", str(game), "--only", "tables", "--out", str(out))
    assert first.returncode == 0, first.stderr
    built = {p.name for p in tables.iterdir()} - {"my-notes.md", "house.csv"}
    assert built and (tables / "my-notes.md").read_text() == "mine" and (tables / "house.csv").read_text() == "a,b"
    # a table that disappears from the content: its files (and only they) are removed
    text = (game / "game.yaml").read_text()
    assert "isle-cards" in text
    (game / "game.yaml").write_text(text.replace("isle-cards", "islet-cards"))
    second = sb("build", str(game), "--only", "tables", "--out", str(out))
    assert second.returncode == 0, second.stderr
    names = {p.name for p in tables.iterdir()}
    assert "deck-isle-cards.md" not in names and "deck-islet-cards.md" in names
    assert {"my-notes.md", "house.csv"} <= names


# --- 9. a recorded game or pack path naming any folder -----------------------------------------------
@pytest.mark.parametrize("game", ["/usr", "/", "/etc", "{home}"])
def test_ledger_game_naming_a_system_folder_is_refused_at_once(tmp_path: Path, game: str) -> None:
    file = tmp_path / "c.yaml"
    file.write_text(f"campaign: {{game: {game.format(home=Path.home())}, players: [A]}}\nevents: []\n")
    for args in (["status"], ["check"]):
        result = sb("campaign", *args, "-c", str(file), timeout=10)
        _no_traceback(result)
        assert result.returncode == 1, result.stderr
        assert "game" in result.stderr


@pytest.mark.slow
def test_walking_a_huge_folder_stops_at_a_budget(tmp_path: Path) -> None:
    """Slow (a folder of many files made and walked by a real process): the walk stops at its budget."""
    game = tmp_path / "big"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "tiny-game", game)
    junk = game / "junk"
    junk.mkdir()
    for i in range(6000):
        (junk / f"{i}.txt").write_bytes(b"secret")
    result = sb("validate", str(game), timeout=30)
    _no_traceback(result)
    assert result.returncode == 1 and "X507" in result.stdout + result.stderr
    assert "secret" not in result.stdout + result.stderr
    pack = tmp_path / "c.yaml"
    pack.write_text("campaign: {game: risk-legacy, players: [A, B, C]}\nevents:\n"
                    f"- {{event: open, envelope: x, pack: {tmp_path / 'nothing'}}}\n")
    (tmp_path / "nothing").mkdir()
    (tmp_path / "nothing" / "notes.txt").write_text("secret")
    opened = sb("campaign", "check", "-c", str(pack), timeout=30)
    _no_traceback(opened)
    assert opened.returncode == 1 and "secret" not in opened.stdout + opened.stderr


# --- 7. content that validates but would exhaust the machine in `build` ------------------------------
@pytest.mark.parametrize("edit, field", [
    (("isle-cards, name: Isle cards, count: 3}", "isle-cards, name: Isle cards, count: 3, "
      "card_size: {width: 0.01, height: 0.01}}"), "width"),
    (("territory: north-isle, resources: 1}", "territory: north-isle, resources: 1000000000000000000000000000000}"),
     "resources"),
    (("territory: north-isle, resources: 1}", "territory: north-isle, resources: 1, copies: 100000}"), "copies"),
    (("territory: north-isle, resources: 1}", "territory: north-isle, resources: 1, text: '" + "x" * 1_000_000 + "'}"),
     "text"),
])
def test_hostile_sizes_are_refused_at_the_field(tmp_path: Path, edit: tuple[str, str], field: str) -> None:
    game = tmp_path / "tiny"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "tiny-game", game)
    text = (game / "game.yaml").read_text()
    assert edit[0] in text
    (game / "game.yaml").write_text(text.replace(edit[0], edit[1], 1))
    result = sb("validate", str(game), timeout=60)
    _no_traceback(result)
    assert result.returncode == 1, result.stdout[-500:]
    line = next(n for n, ln in enumerate((game / "game.yaml").read_text().splitlines(), 1) if edit[1][:20] in ln)
    assert f"game.yaml:{line}:" in result.stdout and len(result.stdout) < 5000, (field, result.stdout[-800:])
    assert f"'{field}'" in result.stdout, result.stdout[-800:]  # the message names the field it is about
    built = sb("build", str(game), "--out", str(tmp_path / "out"), timeout=120)
    _no_traceback(built)
    assert built.returncode == 1


def test_build_has_an_overall_budget(tmp_path: Path) -> None:
    from scarbook.compiler import printable

    game = tmp_path / "tiny"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "tiny-game", game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("resources: 1}", "resources: 1, copies: 100}"))
    code = ("import sys; from scarbook.compiler import printable as p; p.MAX_BUILD_CARDS = 250\n"
            "from scarbook.cli.main import app\nsys.argv = ['scarbook', 'build', sys.argv[1], '--out', sys.argv[2]]\n"
            "app()")
    result = subprocess.run([sys.executable, "-c", code, str(game), str(tmp_path / "out")], env=proc_env(),
                            capture_output=True, text=True, timeout=120)
    _no_traceback(result)
    assert result.returncode == 1 and "B11" in result.stdout + result.stderr, result.stdout + result.stderr
    assert printable.MAX_BUILD_CARDS >= 2000


def test_content_fifo_or_device_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pack.yaml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    for file in (fifo, zero):
        result = sb("validate", str(file), timeout=20)
        _no_traceback(result)
        assert result.returncode in (1, 2) and "regular file" in result.stdout + result.stderr, result.stdout
        shown = sb("show", "risk-legacy", "--pack", str(file), timeout=20)
        _no_traceback(shown)
        assert shown.returncode in (1, 2)
