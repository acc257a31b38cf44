"""Content that validates never makes `build` take minutes (issue 26, item 6): the text a renderer gets is
bounded in validation, at the line of the text: a word longer than any line (B305), a letter under a stack of
combining marks (B306), a card text many times what its face holds (B307). Real processes on real files; the
audit's cases: one 19,990-character word (15 s a card), `a` + 19,000 combining accents (14 s a card), 100
cards of 20,000 characters (86 s)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from campaigns.procs import sb

from scarbook.compiler.printable import MAX_COMBINING_MARKS, MAX_WORD_CHARS

TINY = Path(__file__).resolve().parent.parent / "examples" / "tiny-game"


def _game_with_text(tmp_path: Path, text: str, cards: int = 1) -> tuple[Path, int]:
    """tiny-game whose first `cards` cards hold `text`; the line of the first card's text."""
    folder = tmp_path / "g"
    shutil.copytree(TINY, folder)
    game = folder / "game.yaml"
    lines = game.read_text("utf-8").splitlines(keepends=True)
    out, first = [], 0
    done = 0
    for line in lines:
        if line.startswith("  - {id: ") and "deck: isle-cards" in line and done < cards:
            out.append(line.replace("  - {id: ", "  - id: ", 1).rstrip().rstrip("}").replace(", ", "\n    ") + "\n")
            first = first or len(out) + out[-1].count("\n")
            out.append(f'    text: "{text}"\n')
            done += 1
        else:
            out.append(line)
    game.write_text("".join(out), "utf-8")
    return folder, first


@pytest.mark.parametrize(("text", "code", "says"), [
    ("x" * 19_990, "B305", f"a 19,990-character word at character 1 (no word may be longer than {MAX_WORD_CHARS}"),
    ("a" + "\u0301" * 19_000, "B306", f"more than {MAX_COMBINING_MARKS} combining marks on one letter"),
    ("lorem ipsum " * 1666, "B307", "its text has 19,992 characters; at most 2,220 may be given"),
])
def test_text_that_takes_minutes_to_lay_out_is_refused_at_its_line(tmp_path: Path, text: str, code: str,
                                                                   says: str) -> None:
    folder, line = _game_with_text(tmp_path, text)
    result = sb("validate", str(folder))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout + result.stderr
    assert f"game.yaml:{line}:" in out and f"error {code}:" in out and says in out, out[-800:]
    started = time.monotonic()
    built = sb("build", str(folder), "--out", str(tmp_path / "out"), timeout=120)
    assert built.returncode == 1 and f"error {code}:" in built.stdout + built.stderr
    assert time.monotonic() - started < 60  # refused before any render (it ran past 150 s for 50 such cards)


def test_ordinary_text_still_validates(tmp_path: Path) -> None:
    """The control: words, accents and a text a little over its card still validate (B303 is a warning)."""
    folder, _ = _game_with_text(tmp_path, ("Rücksichtslosigkeit " + "e\u0301\u0323 " + "x" * MAX_WORD_CHARS + " ") * 4
                                + "word " * 150)
    result = sb("validate", str(folder))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "B303" in result.stdout + result.stderr
