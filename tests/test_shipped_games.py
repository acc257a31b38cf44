"""compiler/generated/game-ID.json: each shipped game validated as the release ships it (tools/generate_games.py).

A cold command on a shipped game reads it instead of parsing and validating the YAML, but only while the game's
files (and the schemas) are the very bytes it was made from; the files must be current and equal to what
validating the game gives, or a command would see another game than `validate` does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scarbook.compiler import validate
from scarbook.compiler.generated import GENERATED_DIR
from scarbook.compiler.load import shipped_games

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(shipped_games())


def test_the_generated_files_are_current() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_games.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + "\nrun: python tools/generate_games.py"


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_form_is_the_game_validate_gives(game: str) -> None:
    shipped = validate._shipped(game)
    assert shipped is not None, f"compiler/generated/game-{game}.json is missing or its key is out of date"
    # as text: the same values in the same order (the order of sections' items is what outputs print)
    assert json.dumps(shipped.to_json()) == json.dumps(validate.load_game(game).to_json())


def test_a_changed_file_voids_the_shipped_form(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    game = GAMES[0]
    real = validate.shipped_key(game)
    assert real and validate._shipped(game) is not None
    monkeypatch.setattr(validate, "shipped_key", lambda g: "0" * 24)  # as if a content or schema file changed
    assert validate._shipped(game) is None
    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path))
    called: list[str] = []
    load = validate.load_game
    monkeypatch.setattr(validate, "load_game", lambda g, p=None: called.append(g) or load(g, p))
    assert json.dumps(validate.cached_game(game).to_json()) == json.dumps(load(game).to_json())
    assert called == [game]  # validated afresh, not read from the generated file


def test_a_damaged_shipped_file_is_never_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    game = GAMES[0]
    original = (GENERATED_DIR / validate.SHIPPED_GAME.format(game)).read_text("utf-8")
    monkeypatch.setattr("scarbook.compiler.generated.GENERATED_DIR", tmp_path)
    target = tmp_path / validate.SHIPPED_GAME.format(game)
    for damaged in ("", "[1, 2]", original[: len(original) // 2], json.dumps({"key": json.loads(original)["key"]})):
        target.write_text(damaged, "utf-8")
        assert validate._shipped(game) is None, damaged[:40]
    target.write_text(original, "utf-8")
    assert validate._shipped(game) is not None
