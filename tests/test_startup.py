"""What each tracker command loads (issue 15): only its own module, never the heavy libraries,
and no PyYAML when the ledger and the content come from the caches.

Each command runs in a fresh interpreter (subprocess) and prints what `sys.modules` holds at the end.
The lazy groups' static summaries are kept equal to each command's own help here too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from campaigns.helpers import PLAYING, run_script

PY = sys.executable
HEAVY = ("weasyprint", "jinja2", "jsonschema", "rich", "markdown_it", "pydantic", "pypdf", "starlette", "uvicorn",
         "anyio")  # the web stack: only `scarbook serve` imports it
PROBE = """
import json, sys
sys.argv = ['scarbook', *json.loads(sys.argv[1])]
from scarbook.cli.entry import run
try:
    run()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print('MODULES ' + json.dumps(sorted(sys.modules)))
sys.exit(code)
"""


def loaded(args: list[str], env: dict[str, str], ok: tuple[int, ...] = (0,)) -> set[str]:
    done = subprocess.run([PY, "-c", PROBE, json.dumps(args)], env=env, capture_output=True, text=True)
    assert done.returncode in ok and "Traceback" not in done.stderr, done.stderr[-2000:]
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


def roots(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.fixture(scope="module")
def campaign_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("startup")
    file = folder / "c.yaml"
    assert not run_script(PLAYING, file)  # game 1 in progress: a scar card may be played
    env = dict(os.environ, SCARBOOK_CACHE=str(folder / "cache"))
    env.pop("SCARBOOK_CAMPAIGN", None)
    return file, env


READS = [  # (what follows `scarbook campaign`, the command module it may load); the dry run is refused (exit 1)
    (["status"], "status"),
    (["status", "--format", "json"], "status"),
    (["status", "--after", "0"], "status"),
    (["diff", "0", "--format", "json"], "diff"),
    (["log"], "status"),
    (["check"], "status"),
    (["where", "fortification"], "where"),
    (["place", "fortification", "alaska", "--dry-run", "--by", "Ann"], "place"),
]
HELPS = [["--help"], ["campaign", "--help"], ["campaign", "status", "--help"], ["campaign", "place", "--help"],
         ["campaign", "game", "--help"], ["campaign", "game", "start", "--help"], ["campaign", "sheet", "--help"],
         ["serve", "--help"]]


@pytest.mark.parametrize(("args", "own"), READS, ids=[" ".join(a) for a, _ in READS])
def test_a_warm_read_loads_its_module_only_and_no_yaml(campaign_file: tuple[Path, dict[str, str]],
                                                        args: list[str], own: str) -> None:
    file, env = campaign_file
    argv = ["campaign", *args, "-c", str(file)]
    subprocess.run([PY, "-c", PROBE, json.dumps(argv)], env=env, capture_output=True)  # fill the caches
    modules = loaded(argv, env, ok=(0, 1) if "--dry-run" in args else (0,))
    assert not roots(modules) & {*HEAVY, "yaml"}, sorted(roots(modules) & {*HEAVY, "yaml"})
    commands = {m.rsplit(".", 1)[1] for m in modules if m.startswith("scarbook.cli.campaign.")} - {"_shared", "group"}
    assert commands == {own}
    assert not {m for m in modules if m.startswith("scarbook.compiler.")} & {
        "scarbook.compiler.schema", "scarbook.compiler.semantic",
        "scarbook.compiler.build", "scarbook.kernel.yamlparse"}
    assert "_hashlib" not in modules  # OpenSSL (2.3 ms): small keys and ledgers hash by the built-in SHA-256
    # the cached state is unpickled by the C pickler; nothing is written (coverage, when it measures the child
    # process, imports pickle and random itself)
    if args[0] in ("status", "where", "place") and "coverage" not in roots(modules):
        assert not modules & {"pickle", "tempfile", "random"}, sorted(modules & {"pickle", "tempfile", "random"})


COUNTING = """
import gc, json, sys
runs = []
gc.callbacks.append(lambda phase, info: runs.append(phase) if phase == "start" else None)
sys.argv = ['scarbook', *json.loads(sys.argv[1])]
from scarbook.cli.entry import run
try:
    run()
except SystemExit:
    pass
print('COLLECTIONS', len(runs))
"""


def test_a_warm_read_leaves_the_garbage_collector_almost_idle(campaign_file: tuple[Path, dict[str, str]]) -> None:
    # the default thresholds walked the command's young objects 52 times in a warm status (~5 % of its CPU)
    file, env = campaign_file
    argv = json.dumps(["campaign", "status", "-c", str(file)])
    subprocess.run([PY, "-c", PROBE, argv], env=env, capture_output=True)  # fill the caches
    done = subprocess.run([PY, "-c", COUNTING, argv], env=env, capture_output=True, text=True)
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("COLLECTIONS "))
    assert int(line.split()[1]) <= 8, line


WRITES = [  # a warm write and its undo: an event of plain words is written (and recognised by undo) without PyYAML
    (["place", "bunker", "peru", "--by", "Ann"], "place"),
    (["undo"], "undo"),
]


def test_a_warm_write_and_undo_load_their_module_only(campaign_file: tuple[Path, dict[str, str]]) -> None:
    file, env = campaign_file
    subprocess.run([PY, "-c", PROBE, json.dumps(["campaign", "status", "-c", str(file)])], env=env,
                   capture_output=True)  # fill the caches
    before = file.read_bytes()
    for args, own in WRITES:
        modules = loaded(["campaign", *args, "-c", str(file)], env)
        assert not roots(modules) & {*HEAVY, "yaml"}, (args, sorted(roots(modules) & {*HEAVY, "yaml"}))
        commands = {m.rsplit(".", 1)[1] for m in modules if m.startswith("scarbook.cli.campaign.")}
        commands -= {"_shared", "group"}
        assert commands == {own}, args
        assert not {m for m in modules if m.startswith("scarbook.compiler.")} & {
            "scarbook.compiler.schema", "scarbook.compiler.semantic", "scarbook.compiler.build",
            "scarbook.kernel.yamlparse"}, args
        assert "_hashlib" not in modules, args
    assert file.read_bytes() == before  # the undo cut exactly the line the place wrote


def test_a_cold_read_parses_but_stays_light(campaign_file: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    file, env = campaign_file
    modules = loaded(["campaign", "status", "-c", str(file)], dict(env, SCARBOOK_CACHE=str(tmp_path / "empty")))
    assert "yaml" in modules  # nothing cached: the ledger and the content are parsed
    assert not roots(modules) & {"weasyprint", "jinja2", "rich", "pydantic", "pypdf"}
    # the shipped game's nouns are answered by compiler/generated/grammar.json, not by importing inflect
    assert not roots(modules) & {"inflect", "typeguard"}
    # the shipped game comes validated (compiler/generated/game-ID.json): no content schema, no semantic checks
    assert not modules & {"scarbook.compiler.semantic", "scarbook.compiler.generated.validator"}


@pytest.mark.parametrize("args", HELPS, ids=[" ".join(a) for a in HELPS])
def test_help_loads_no_tracker_and_no_yaml(campaign_file: tuple[Path, dict[str, str]], args: list[str]) -> None:
    _, env = campaign_file
    modules = loaded(args, env)
    assert not roots(modules) & {*HEAVY, "yaml"}
    assert not {m for m in modules if m.startswith(("scarbook.campaign", "scarbook.compiler."))} - {
        "scarbook.kernel.diagnostics",  # the diagnostics' text is shared by every command
        "scarbook.kernel.cachedir"}  # where the cache folder is (cli/codecache: the dataclasses' compiled code)
    if args[-1] == "--help" and len(args) <= 2:  # a group's help lists its commands without importing them
        assert not {m for m in modules if m.startswith("scarbook.cli.campaign.")} - {"scarbook.cli.campaign.group"}


def test_lazy_summaries_are_the_commands_own_help() -> None:
    from scarbook.cli.campaign.group import CampaignGroup, GameGroup
    from scarbook.cli.lazy import load_command
    from scarbook.cli.main import ScarbookGroup

    for group in (ScarbookGroup, CampaignGroup, GameGroup):
        for name, (target, summary) in group.commands_to_load.items():
            command = load_command(target, name)
            first = " ".join((command.help or "").split("\n\n")[0].split())
            assert summary == first, name


def _command_modules_with_postponed_annotations() -> list[str]:
    import ast

    found = []
    root = Path(__file__).resolve().parent.parent
    for path in sorted((root / "scarbook" / "cli").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        postponed = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" for n in tree.body)
        commands = any(isinstance(n, ast.FunctionDef) and any(
            a.annotation is not None and "Annotated[" in ast.unparse(a.annotation) or
            a.annotation is not None and ast.unparse(a.annotation).endswith(("Option", "CampaignFile"))
            for a in n.args.args) for n in tree.body)
        if postponed and commands:
            found.append(path.relative_to(root).as_posix())
    return found


def test_command_modules_give_typer_their_annotations_evaluated() -> None:
    """Typer reads a command's parameters with `typing.get_type_hints`: under `from __future__ import annotations`
    every annotation is a string it compiles again on every start (103 compilations, ~5 ms of a warm `place`).
    Only a module that needs a TYPE_CHECKING import in a command's annotations may postpone them."""
    assert _command_modules_with_postponed_annotations() == ["scarbook/cli/build.py"]
