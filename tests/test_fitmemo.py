"""The player aid's fitting remembered (`compiler/render/fitmemo.py`): a build of the very same versions lays out
only the one that fit; anything else (other versions, a damaged entry, a version that no longer fits) is laid out
as before, version by version. The answers shipped for the shipped games are current."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scarbook.compiler.render import fitmemo
from scarbook.compiler.render import pdf as pdfmod

ROOT = Path(__file__).resolve().parent.parent


def page(text: str, pages: int) -> str:
    """An HTML document of `pages` pages, each saying `text`."""
    body = "".join(f'<p style="break-after: page">{text} {i}</p>' for i in range(pages - 1)) + f"<p>{text}</p>"
    return f"<html><body>{body}</body></html>"


@pytest.fixture
def laid_out(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Every HTML WeasyPrint lays out, in order; an empty cache folder, no shipped answers."""
    import weasyprint

    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(fitmemo, "SHIPPED", tmp_path / "none.json")
    seen: list[str] = []
    real = weasyprint.HTML

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, string: str = "", **kwargs: Any) -> None:
            seen.append(string)
            super().__init__(*args, string=string, **kwargs)

    monkeypatch.setattr(weasyprint, "HTML", Counted)
    return seen


VERSIONS = [page("full", 3), page("smaller board", 3), page("closer text", 2), page("shorter", 1)]


def fit(versions: list[str]) -> pdfmod.Fitted:
    from scarbook.templates import TEMPLATE_DIR

    return pdfmod.render_fitting(iter(versions), [TEMPLATE_DIR], TEMPLATE_DIR, 2)


def test_the_same_versions_are_laid_out_once_the_second_time(laid_out: list[str]) -> None:
    first = fit(VERSIONS)
    assert (first.html, first.pages, laid_out) == (VERSIONS[2], 2, VERSIONS[:3])
    laid_out.clear()
    again = fit(VERSIONS)
    assert (again.html, again.pages, laid_out) == (VERSIONS[2], 2, [VERSIONS[2]])
    assert again.data == first.data


def test_other_versions_are_laid_out_one_by_one(laid_out: list[str]) -> None:
    fit(VERSIONS)
    other = [VERSIONS[0], page("another smaller board", 1), *VERSIONS[2:]]  # the same full one, another next
    laid_out.clear()
    got = fit(other)
    assert (got.html, laid_out) == (other[1], other[:2])


def test_a_remembered_version_that_no_longer_fits_is_followed_by_the_next(laid_out: list[str]) -> None:
    fit(VERSIONS)
    entry = fitmemo._entry(fitmemo.key_of(VERSIONS[0]))
    level, _digest, renderer = json.loads(entry.read_text())
    entry.write_text(json.dumps([1, fitmemo.digest_of(VERSIONS[:2]), renderer]))  # says the 3-page one fits
    laid_out.clear()
    got = fit(VERSIONS)
    assert (got.html, laid_out, level) == (VERSIONS[2], VERSIONS[1:3], 2)
    assert json.loads(entry.read_text())[0] == 2  # learned again


@pytest.mark.parametrize("text", ["", "{", "[2]", '[2, "x"]', '[-1, "x", "r"]', '["2", "x", "r"]', "[true, 1, 2]",
                                  '[2, "digest", "another renderer"]'])
def test_a_damaged_or_foreign_entry_is_ignored(laid_out: list[str], text: str) -> None:
    entry = fitmemo._entry(fitmemo.key_of(VERSIONS[0]))
    entry.parent.mkdir(parents=True)
    entry.write_text(text.replace("digest", fitmemo.digest_of(VERSIONS[:3])))
    got = fit(VERSIONS)
    assert (got.html, laid_out) == (VERSIONS[2], VERSIONS[:3])


def test_the_shipped_answers_are_current() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_fits.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr + "\nrun: python tools/generate_fits.py"


def test_a_default_build_of_a_shipped_aid_lays_it_out_once(laid_out: list[str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With the shipped answers (no cache): Shadow Forces' aid, which fits at its third version, is laid out
    once, and is the aid a build without them prints."""
    from scarbook.compiler.aid import MAX_PAGES
    from scarbook.compiler.build import aid_versions, roots_for
    from scarbook.compiler.spoilers import for_players
    from scarbook.compiler.validate import load_game
    from scarbook.templates import TEMPLATE_DIR

    full = load_game("risk-shadow-forces", [])
    game = for_players(full.effective(), full)
    monkeypatch.setattr(fitmemo, "SHIPPED", ROOT / "compiler" / "generated" / "aid-fits.json")
    shipped = pdfmod.render_fitting(aid_versions(game, "a4", None), [Path(r) for r in roots_for(game)], TEMPLATE_DIR,
                                    MAX_PAGES)
    assert len(laid_out) == 1
    laid_out.clear()
    plain = pdfmod.render_fitting(aid_versions(game, "a4", None), [Path(r) for r in roots_for(game)], TEMPLATE_DIR,
                                  MAX_PAGES, memo=False)
    assert len(laid_out) >= 2 and plain.html == shipped.html and plain.data == shipped.data
