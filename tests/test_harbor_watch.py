"""A whole co-operative campaign of the shipped example harbor-watch, through the INSTALLED `scarbook` script.

The example is copied with `scarbook examples copy` (what a user does), then tests/campaigns/harbor-watch-12.txt
is played line by line: team results, months with tries, a track moved by each result, a limit taken from it, an
obligation on a condition, a neighbour check, steps made of --name/--value stickers, sealed envelopes (at the first
fall, after month six) and the campaign won by threshold. Every refusal is compared word for word and must leave
the ledger byte-for-byte unchanged; status, `status --format json` and the campaign sheet must speak the game's own
words (months, tries, the funding level).

Real processes of the installed script run `examples copy`, `validate`, every line of month 1 (a new campaign, a
first game, its refusals on stderr, its end-of-game steps), the last four lines (status, the refusal after the last
month, `check`, `sheet`) and the final `status --format json`; the lines in between run in this process through
Typer's runner (stdout and stderr apart, the same checks): one process per line cost 88 starts of the CLI (about
25 s of CPU, 160 s under load) and tested no more than the first month's processes do.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SCRIPT = Path(sys.executable).parent / "scarbook"
TRANSCRIPT = ROOT / "tests" / "campaigns" / "harbor-watch-12.txt"


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)


def _steps(text: str) -> list[tuple[str, str, list[tuple[str, str]], str]]:
    """(code or '', command line, [(kind '=' or '?', expected text)], the `# ---` heading it is under) for each
    command of the transcript."""
    out: list[tuple[str, str, list[tuple[str, str]], str]] = []
    heading = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("# ---"):
            heading = line
        if not line or line.startswith("#"):
            continue
        if line[:2] in ("= ", "? "):
            out[-1][2].append((line[0], line[2:]))
            continue
        code = ""
        if line.startswith("!"):
            code, line = line[1:].split(" ", 1)
        out.append((code, line, [], heading))
    return out


class _Done:
    """What a command printed and how it ended, from a process or from Typer's runner in this process."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def _in_process(args: list[str]) -> _Done:
    from typer.testing import CliRunner

    from conftest import crashed
    from scarbook.cli.main import app

    result = CliRunner().invoke(app, args)
    exc = crashed(result)
    return _Done(result.exit_code, result.stdout, result.stderr + ("Traceback: " + repr(exc) if exc else ""))


@pytest.mark.slow
def test_a_whole_harbor_watch_campaign_through_the_installed_cli(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Slow (about 20 processes of the installed CLI): covers the example's whole campaign, line by line."""
    if not SCRIPT.exists():
        pytest.skip("scarbook is not installed in this environment")
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "cache"))  # one cache for the processes and this one
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)
    monkeypatch.chdir(tmp_path)  # `--game harbor-watch` is relative, as a user types it
    env = dict(os.environ)
    copied = _run(["examples", "copy", "harbor-watch", "harbor-watch"], tmp_path, env)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    valid = _run(["validate", "--strict", "harbor-watch"], tmp_path, env)
    assert valid.returncode == 0, valid.stdout + valid.stderr
    ledger = tmp_path / "year.yaml"
    subs = {"{file}": str(ledger), "{game}": "harbor-watch", "{dir}": str(tmp_path)}
    played = processes = 0
    steps = _steps(TRANSCRIPT.read_text("utf-8"))
    for number, (code, line, expected, heading) in enumerate(steps):
        for key, value in subs.items():
            line = line.replace(key, value)
        args = shlex.split(line)
        if args[0] != "new":
            args += ["-c", str(ledger)]
        before = ledger.read_bytes() if ledger.exists() else b""
        if heading == "# --- month 1: won" or number >= len(steps) - 4 or not heading:
            done: subprocess.CompletedProcess[str] | _Done = _run(["campaign", *args], tmp_path, env)
            processes += 1
        else:
            done = _in_process(["campaign", *args])
        shown = (done.stderr if code else done.stdout).splitlines()
        assert "Traceback" not in done.stderr, (line, done.stderr)
        if code:
            assert done.returncode == 1, (line, done.stdout, done.stderr)
            assert shown and shown[0].startswith(f"error {code}: "), (line, done.stderr)
            assert ledger.read_bytes() == before, line
        else:
            assert done.returncode == 0, (line, done.stdout, done.stderr)
            played += 1
        for kind, text in expected:
            if kind == "=":
                assert shown and shown[0] == text, (line, shown[:3])
            else:
                assert text in shown, (line, text, shown)
    assert played > 60 and 15 < processes < 25
    status = json.loads(_run(["campaign", "status", "--format", "json", "-c", str(ledger)], tmp_path, env).stdout)
    assert status["team"] is True
    assert status["chapter"]["name"] == "month" and status["chapter"]["over"] is True
    assert status["chapter"]["results"] == {**{str(n): "won" for n in range(1, 13) if n != 7}, "7": "lost"}
    assert status["overall_winner"]["result"] == "won" and status["overall_winner"]["won"] == 11
    assert [t["value"] for t in status["tracks"]] == [0]  # 5, -1 per won month, +1 per lost one, never below 0
    games = status["games"]
    assert len(games) == 14 and all(g["winner"] is None for g in games)
    sheet = (tmp_path / "sheet.html").read_text("utf-8")
    assert "Harbor Watch" in sheet and "Stormy year" in sheet
    for word in ("Month", "Funding level", "The campaign is won"):
        assert word in sheet, word


def test_no_python_names_harbor_watch() -> None:
    """Everything Harbor Watch needs is its content: no id or word of it is in the tracker's, the compiler's or the
    CLI's Python (sticker, card, deck, territory, envelope and track ids, its kinds but the shared `scar`, `upgrade` and
    `rule`, what it calls a chapter)."""
    import re

    import yaml

    data = yaml.safe_load((ROOT / "examples" / "harbor-watch" / "game.yaml").read_text("utf-8"))
    camp = data["game"]["campaign"]
    words = {item["id"] for section in ("stickers", "cards", "decks", "territories", "envelopes")
             for item in data[section]}
    words |= {st["kind"] for st in data["stickers"]} - {"scar", "rule", "upgrade"}
    words |= {t["id"] for t in camp["tracks"]} | {camp["chapters"]["name"], camp["chapters"]["plural"]}
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b", re.IGNORECASE)
    hits = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
            for folder in ("campaign", "compiler", "scarbook/cli") for path in sorted((ROOT / folder).rglob("*.py"))
            if "generated" not in path.parts
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if pattern.search(line)]
    assert not hits, "\n".join(hits)
