"""No argument ends in a traceback or a hang (issue 36, item 3): the installed `scarbook`, in real processes.

- Named cases from the audit: `show`, `tables` and `build GAME -c LEDGER` on a ledger with conflict markers, a
  YAML syntax error or a byte that is not UTF-8 (a located diagnostic, as `campaign status` gives); `-c .` and a
  folder standing for the root (and `-c /` itself, only for commands that read); names over 255 bytes; `new
  pack|game` with a name that is not UTF-8 (refused, nothing created); standard output on a full device.
- The argument matrix: every command of the Typer app (walked from `scarbook.cli.main.app`, so a new command or
  option joins it by itself) with each of its arguments and options given each hostile value in turn, the other
  required ones filled with ordinary values. Each run must exit 0, 1 or 2, print no traceback and end within
  its timeout. The fast profile (CI) gives each (command, parameter) pair one hostile value, rotated; the whole
  matrix is marked slow.

Every hostile file (a FIFO, a character device like the full one, a folder standing for the root) is made here
in a temporary folder: the machine's own system files and devices are never named, except `-c /` for commands
that only read.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from campaigns.forkserver import ForkServer
from campaigns.helpers import playing_bytes
from campaigns.procs import SCARBOOK, proc_env, sb

from scarbook.cli.lazy import click


def _is_argument(param: click.Parameter) -> bool:
    return param.param_type_name == "argument"


def _is_option(param: click.Parameter) -> bool:
    return param.param_type_name == "option"


#: Commands never run by the matrix: `serve` serves until stopped (a valid case would run forever; its own tests
#: cover its arguments).
SKIPPED = {("serve",)}
#: Commands that only read (`-c /` may be tried on them: nothing is written beside the root).
READERS = {("campaign", c) for c in ("status", "check", "log", "where", "sheet", "chronicle", "diff")} | {
    ("show",), ("tables",)}
TIMEOUT = 90  # per run; a hang is a run still going then (the slowest legitimate run here takes a few seconds)
BAD_UTF8 = os.fsdecode(b"\xff\xfe-name")


def _device(folder: Path, name: str, minor: int) -> Path | None:
    node = folder / name
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except (PermissionError, OSError):
        return None
    return node


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a ledger (c.yaml), an unrelated file, a FIFO, a full device (where mknod is permitted), an
    empty folder and a folder standing for the root (bin, etc, usr in it)."""
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "c.yaml").write_bytes(playing_bytes())
    (folder / "afile").write_text("my notes\n")
    os.mkfifo(folder / "fifo")
    _device(folder, "full", 7)
    (folder / "emptyd").mkdir()
    for sub in ("bin", "etc", "usr"):
        (folder / "root" / sub).mkdir(parents=True)
    return folder


def hostile_values(scene: Path) -> list[str]:
    values = ["", "-", ".", "-1", "nan", "1e9", str(10**23), "x" * 300, "y" * 100_000, BAD_UTF8, "afile",
              "afile/x", "fifo", "emptyd", "root", "../../../../../../nope", "\u202eevil"]
    if (scene / "full").exists():
        values.append("full")
    return values


# --- the commands of the app ----------------------------------------------------------------------------------
def _commands() -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every leaf command of the app with its path of names (`('campaign', 'game', 'start')`)."""
    import typer

    from scarbook.cli.main import app

    root = typer.main.get_command(app)

    def walk(path: tuple[str, ...], command: click.Command) -> Iterator[tuple[tuple[str, ...], click.Command]]:
        if hasattr(command, "list_commands"):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None:
                    yield from walk((*path, name), sub)
        else:
            yield path, command

    for path, command in walk((), root):
        if path not in SKIPPED:
            yield path, command


def _ordinary(path: tuple[str, ...], param: click.Parameter) -> list[str]:
    """An ordinary value for a required parameter (or for `-c`, always given to campaign commands)."""
    name = (param.name or "").lower()
    if hasattr(param.type, "choices"):
        return [str(param.type.choices[0])]  # type: ignore[attr-defined]
    if name in ("game", "games"):
        return ["risk-legacy"]
    if name == "campaign":
        return ["c.yaml"]
    if param.type.name.startswith(("integer", "float")):
        return ["1"]
    if name == "play":
        return ["Ann=khan-industries"]
    return ["x"]


def _flag(param: Any) -> str:
    return next((o for o in param.opts if o.startswith("--")), param.opts[0])


def invocation(path: tuple[str, ...], command: click.Command, target: click.Parameter, value: str) -> list[str]:
    """The command line giving `value` to `target` and ordinary values to the other required parameters (and a
    ledger to `-c`, and `--only tables` to `build`, so that a case that is legal stays cheap)."""
    args: list[str] = [*path]
    for param in command.params:
        if _is_argument(param):
            if param is target:
                args.append(value)
            elif param.required:
                args.extend(_ordinary(path, param))
        elif _is_option(param):
            if param is target:
                args.extend([_flag(param), value])
            elif param.required or param.name == "campaign":
                args.extend([_flag(param), *_ordinary(path, param)])
    if path == ("build",) and target.name != "only":
        args.extend(["--only", "tables"])
    return args


def matrix(scene: Path, every: bool) -> list[list[str]]:
    """The cases: every command given nothing, and each (command, parameter that takes a value) with each hostile
    value (`every`); or (the fast profile, for CI) one case a command: one of its parameters with one hostile
    value, both rotated, so that successive commands try different values."""
    values = hostile_values(scene)
    cases: list[list[str]] = []
    for turn, (path, command) in enumerate(_commands()):
        params = [p for p in command.params
                  if not (_is_option(p) and (getattr(p, "is_flag", False) or p.name == "help"))]
        if every:
            cases.append([*path, *(["--only", "tables"] if path == ("build",) else [])])  # nothing given
            cases.extend(invocation(path, command, param, value) for param in params for value in values)
            if path in READERS and any(p.name == "campaign" for p in params):
                cases.append(invocation(path, command, next(p for p in params if p.name == "campaign"), "/"))
        elif params:
            cases.append(invocation(path, command, params[turn % len(params)], values[turn % len(values)]))
    return cases


def run_case(args: list[str], cwd: Path, server: ForkServer | None = None) -> str | None:
    """None when the run ended cleanly (exit 0, 1 or 2, no traceback, in time); else what went wrong. With a
    `server`, the run is a process forked from it (campaigns/forkserver.py), not a fresh start of the script."""
    env = proc_env(SCARBOOK_CACHE=str(cwd / ".cache"))
    if server is not None:
        returncode, stdout, stderr = server.run(args, cwd, env, TIMEOUT)
        if returncode is None:
            return f"{args!r}: still running after {TIMEOUT} s"
    else:
        try:
            done = subprocess.run([SCARBOOK, *args], cwd=cwd, env=env, capture_output=True, timeout=TIMEOUT,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return f"{args!r}: still running after {TIMEOUT} s"
        returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
    err = stderr.decode("utf-8", "replace")
    said = (err + stdout.decode("utf-8", "replace")[-3000:]).lower()
    if b"Traceback" in stderr or returncode not in (0, 1, 2):
        return f"{[a[:60] for a in args]!r}: exit {returncode}\n{err[-1500:]}"
    if returncode != 0 and "error" not in said and "usage" not in said:
        return f"{[a[:60] for a in args]!r}: exit {returncode} with no message: {err[-300:]!r}"
    return None


def _run_all(scene: Path, cases: list[list[str]], forked: bool = False) -> list[str]:
    """Every case, two at a time: each a start of the installed script, or (`forked`) a process forked from one of
    two fork servers that imported it once."""
    import queue

    ledger = (scene / "c.yaml").read_bytes()
    servers: queue.Queue[ForkServer | None] = queue.Queue()
    made = [ForkServer(SCARBOOK, proc_env(SCARBOOK_CACHE=str(scene / ".cache"))) for _ in range(2)] if forked else []
    for server in made or [None, None]:
        servers.put(server)

    def one(args: list[str]) -> str | None:
        server = servers.get()
        try:
            return run_case(args, scene, server)
        finally:
            servers.put(server)

    try:
        with ThreadPoolExecutor(2) as pool:
            problems = [p for p in pool.map(one, cases) if p]
    finally:
        for server in made:
            server.close()
    (scene / "c.yaml").write_bytes(ledger)
    return problems


def test_the_matrix_covers_every_command(scene: Path) -> None:
    paths = {p for p, _ in _commands()}
    for wanted in (("build",), ("show",), ("tables",), ("new", "pack"), ("new", "game"), ("campaign", "sheet"),
                   ("campaign", "chronicle"), ("campaign", "game", "start"), ("campaign", "status")):
        assert wanted in paths
    assert len(matrix(scene, every=False)) >= len(paths) - 3
    assert len(matrix(scene, every=True)) > 10 * len(paths)


def test_no_argument_ends_in_a_traceback_or_a_hang_fast_profile(scene: Path) -> None:
    problems = _run_all(scene, matrix(scene, every=False))
    assert not problems, "\n\n".join(problems)


@pytest.mark.slow
def test_no_argument_ends_in_a_traceback_or_a_hang_every_value(scene: Path) -> None:
    """Slow (2,150 runs of the console script): covers every command, each parameter with each hostile value. Each
    run is a process of its own forked from a server that imported scarbook once (campaigns/forkserver.py): a
    fresh start of the script for each cost 0.18 s of CPU a run, 400 s in all; the fast profile above starts the
    script itself for each of its cases."""
    problems = _run_all(scene, matrix(scene, every=True), forked=True)
    assert not problems, "\n\n".join(problems)


# --- the named cases of the audit ---------------------------------------------------------------------------
def _unreadable(folder: Path) -> dict[str, tuple[Path, str]]:
    """Ledgers `campaign status` reports cleanly: conflict markers (L015), a YAML error (Y001), Latin-1 (Y002)."""
    good = playing_bytes()
    lines = good.splitlines(keepends=True)
    conflicted = folder / "conflicted.yaml"
    conflicted.write_bytes(b"".join([*lines[:-1], b"<<<<<<< HEAD\n", lines[-1], b"=======\n", lines[-1],
                                     b">>>>>>> theirs\n"]))
    syntax = folder / "syntax.yaml"
    syntax.write_bytes(b"campaign: [\n")
    latin1 = folder / "latin1.yaml"
    latin1.write_bytes(good + b"- {event: place, sticker: minor-city, target: peru, by: Ann, name: Z\xfcrich}\n")
    return {"conflict": (conflicted, "L015"), "syntax": (syntax, "Y001"), "latin1": (latin1, "Y002")}


@pytest.mark.parametrize("command", [["show", "risk-legacy"], ["tables", "risk-legacy"],
                                     ["build", "risk-legacy", "--out", "bo", "--only", "tables"]])
def test_content_commands_report_an_unreadable_ledger_at_its_line(tmp_path: Path, command: list[str]) -> None:
    for kind, (file, code) in _unreadable(tmp_path).items():
        status = sb("campaign", "status", "-c", str(file), cwd=tmp_path)
        result = sb(*command, "-c", str(file), cwd=tmp_path, timeout=120)
        assert "Traceback" not in result.stderr, (kind, result.stderr)
        assert result.returncode == 1 and f"error {code}" in result.stderr, (kind, result.stderr)
        assert f"{file.name}:" in result.stderr and code in status.stdout + status.stderr, kind
    assert not (tmp_path / "bo").exists()


@pytest.mark.parametrize("command", [["campaign", "sheet"], ["campaign", "chronicle"], ["campaign", "status"],
                                     ["campaign", "check"], ["campaign", "log"], ["campaign", "undo"],
                                     ["campaign", "redo"], ["campaign", "game", "end"]])
def test_a_folder_as_the_ledger_is_l001(tmp_path: Path, command: list[str]) -> None:
    root = tmp_path / "root"  # stands for the file system's root
    (root / "etc").mkdir(parents=True)
    work = tmp_path / "work"
    work.mkdir()
    for ledger in (".", str(root), *(["/"] if tuple(command) in READERS else [])):
        result = sb(*command, "-c", ledger, cwd=work)
        assert "Traceback" not in result.stderr, (ledger, result.stderr)
        wanted = ("L001", "L019") if command[-1] == "redo" else ("L001",)  # redo: nothing to redo there
        assert result.returncode == 1 and any(c in result.stderr for c in wanted), (ledger, result.stderr)
    assert sorted(p.name for p in root.iterdir()) == ["etc"] and not any(work.iterdir())


@pytest.mark.parametrize("command", [["show"], ["tables"], ["build", "--only", "tables"]])
def test_a_name_over_255_bytes_is_a_diagnostic(tmp_path: Path, command: list[str]) -> None:
    result = sb(*command[:1], "g" * 300, *command[1:], cwd=tmp_path)
    assert "Traceback" not in result.stderr and result.returncode in (1, 2), result.stderr
    assert "too long" in result.stderr
    out = sb("build", "risk-legacy", "--out", "o" * 300, "--only", "tables", cwd=tmp_path)
    assert "Traceback" not in out.stderr and out.returncode in (1, 2) and "too long" in out.stderr


@pytest.mark.parametrize("kind", ["pack", "game"])
def test_new_with_a_name_that_is_not_utf8_creates_nothing(tmp_path: Path, kind: str) -> None:
    extra = ["--extends", "risk-legacy"] if kind == "pack" else []
    done = subprocess.run([SCARBOOK, "new", kind, os.fsdecode(b"\xff\xfe"), *extra], cwd=tmp_path, env=proc_env(),
                          capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr and done.returncode == 2, done.stderr
    assert "UTF-8" in done.stderr and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["games"], ["campaign", "log", "-c", "c.yaml"],
                                     ["campaign", "status", "-c", "c.yaml"], ["tables", "risk-legacy"],
                                     ["show", "risk-legacy"], ["campaign", "diff", "0", "0", "-c", "c.yaml"]])
def test_standard_output_on_a_full_device(tmp_path: Path, command: list[str]) -> None:
    full = _device(tmp_path, "full", 7)
    if full is None:
        pytest.skip("mknod is not permitted here")
    (tmp_path / "c.yaml").write_bytes(playing_bytes())
    with open(full, "wb") as out:
        done = subprocess.run([SCARBOOK, *command], stdout=out, stderr=subprocess.PIPE, text=True, timeout=60,
                              env=proc_env(), cwd=tmp_path)
    assert "Traceback" not in done.stderr and done.returncode in (1, 2), done.stderr
    assert "No space left" in done.stderr or "standard output" in done.stderr, done.stderr
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_build_out_onto_an_existing_unrelated_file(tmp_path: Path) -> None:
    victim = tmp_path / "notes.txt"
    victim.write_text("mine\n")
    result = sb("build", "risk-legacy", "--out", str(victim), "--only", "tables", cwd=tmp_path)
    assert "Traceback" not in result.stderr and result.returncode == 2, result.stderr
    assert victim.read_text() == "mine\n"


def test_migrate_never_reads_a_fifo(tmp_path: Path) -> None:
    """A FIFO given to `migrate` is refused at once (read, it would block until a writer came)."""
    os.mkfifo(tmp_path / "fifo")
    result = sb("migrate", "fifo", cwd=tmp_path, timeout=60)
    assert result.returncode == 1 and "not a regular file" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)
