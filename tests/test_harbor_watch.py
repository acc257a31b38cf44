"""A whole co-operative campaign of the shipped example harbor-watch, through the INSTALLED `scarbook` script.

The example is copied with `scarbook examples copy` (what a user does), then tests/campaigns/harbor-watch-12.txt
is played line by line as subprocesses: team results, months with tries, a track moved by each result, a limit
taken from it, an obligation on a condition, a neighbour check, steps made of --name/--value stickers, sealed
envelopes (at the first fall, after month six) and the campaign won by threshold. Every refusal is compared word
for word and must leave the ledger byte-for-byte unchanged; status, `status --format json` and the campaign sheet
must speak the game's own words (months, tries, the funding level).
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


def _steps(text: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(code or '', command line, [(kind '=' or '?', expected text)]) for each command of the transcript."""
    out: list[tuple[str, str, list[tuple[str, str]]]] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        if line[:2] in ("= ", "? "):
            out[-1][2].append((line[0], line[2:]))
            continue
        code = ""
        if line.startswith("!"):
            code, line = line[1:].split(" ", 1)
        out.append((code, line, []))
    return out


def test_a_whole_harbor_watch_campaign_through_the_installed_cli(tmp_path: Path) -> None:
    if not SCRIPT.exists():
        pytest.skip("scarbook is not installed in this environment")
    env = {**os.environ, "SCARBOOK_CACHE": str(tmp_path / "cache")}
    env.pop("SCARBOOK_CAMPAIGN", None)
    copied = _run(["examples", "copy", "harbor-watch", "harbor-watch"], tmp_path, env)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    valid = _run(["validate", "--strict", "harbor-watch"], tmp_path, env)
    assert valid.returncode == 0, valid.stdout + valid.stderr
    ledger = tmp_path / "year.yaml"
    subs = {"{file}": str(ledger), "{game}": "harbor-watch", "{dir}": str(tmp_path)}
    played = 0
    for code, line, expected in _steps(TRANSCRIPT.read_text("utf-8")):
        for key, value in subs.items():
            line = line.replace(key, value)
        args = shlex.split(line)
        if args[0] != "new":
            args += ["-c", str(ledger)]
        before = ledger.read_bytes() if ledger.exists() else b""
        done = _run(["campaign", *args], tmp_path, env)
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
    assert played > 60
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
