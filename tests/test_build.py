"""`scarbook build`: outputs, PDFs by their text, incremental rebuilds, determinism, unsafe packs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_build_fixtures import tiny_game
from typer.testing import CliRunner

from conftest import pdftotext, refused
from scarbook.cli.main import app
from scarbook.compiler.build import build
from scarbook.compiler.printable import check_content

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"



def pdfinfo(path: Path) -> dict[str, str]:
    if shutil.which("pdfinfo") is None:
        pytest.skip("pdfinfo (poppler-utils) is not installed")
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in out.splitlines() if ":" in line)}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny game built once (A4, two workers)."""
    folder = tmp_path_factory.mktemp("tiny")
    out = folder / "out"
    result = build([tiny_game(folder)], out, jobs=2, only={"reference", "digest", "tables", "cards", "stickers"})
    assert not result.diagnostics, result.diagnostics
    assert sorted(result.rendered) == [f"tiny-isles/{n}" for n in ("cards", "digest", "reference", "stickers",
                                                                   "tables")]
    return out


def test_every_output_is_written_under_out(built: Path) -> None:
    game = built / "tiny-isles"
    for name in ("reference.pdf", "reference.html", "digest.pdf", "digest.html", "cards.pdf", "stickers.pdf",
                 "tables/recruit.md",
                 "tables/recruit.csv", "tables/recruit.json", "tables/board-regions.md"):
        assert (game / name).is_file(), name
    assert json.loads((game / "tables" / "recruit.json").read_text())["rows"][0] == ["1–11", 3]


def test_digest_pdf_text_pages_and_size(built: Path) -> None:
    text = pdftotext(built / "tiny-isles" / "digest.pdf")
    assert "Tiny Isles" in text and "Recruit" in text and "12–14" in text
    assert "Sealed one" in text and "Open after game 2." in text
    assert "secret-card" not in text  # envelope contents are never printed
    assert "unknown: not printed" in text  # unknown values are marked, with why
    info = pdfinfo(built / "tiny-isles" / "digest.pdf")
    assert "A4" in info["Page size"]


def test_the_player_aid_is_the_reference_pdf(built: Path) -> None:
    text = pdftotext(built / "tiny-isles" / "reference.pdf")
    assert "Tiny Isles player aid" in text and "digest.pdf" in text and "secret-card" not in text
    info = pdfinfo(built / "tiny-isles" / "reference.pdf")
    assert "A4" in info["Page size"] and int(info["Pages"]) <= 2


def test_card_sheets_calibration_fronts_mirrored_backs(built: Path) -> None:
    pdf = built / "tiny-isles" / "cards.pdf"
    info = pdfinfo(pdf)
    assert info["Pages"] == "6"  # calibration pair + poker fronts/backs + big fronts/backs
    assert "A4" in info["Page size"]
    text = pdftotext(pdf)
    assert "Calibration (front)" in text and "50 mm" in text
    assert text.count("East Card") == 2 and "Giant Card" in text and "Isles" in text


def test_sticker_sheet(built: Path) -> None:
    text = pdftotext(built / "tiny-isles" / "stickers.pdf")
    assert text.count("Kraken") == 3


def test_no_op_rebuild_renders_nothing(built: Path, tmp_path: Path) -> None:
    folder = built.parent
    result = build([tiny_game(folder)], built, jobs=2)
    assert result.rendered == [] and len(result.up_to_date) == 4


def test_changing_one_card_rerenders_only_what_uses_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    build([tiny_game(tmp_path)], out, jobs=1)
    stickers_before = (out / "tiny-isles" / "stickers.pdf").stat().st_mtime_ns
    cards = [dict(c) for c in tiny_game(tmp_path).section("cards").values()]
    cards[2]["text"] = "Even bigger."
    lines: list[str] = []
    result = build([tiny_game(tmp_path, cards=cards)], out, jobs=1, progress=lines.append)
    assert sorted(result.rendered) == ["tiny-isles/cards", "tiny-isles/reference", "tiny-isles/tables"]
    assert result.up_to_date == ["tiny-isles/stickers"]
    assert any("card 'giant-card' changed" in line for line in lines)
    assert (out / "tiny-isles" / "stickers.pdf").stat().st_mtime_ns == stickers_before
    assert "Even bigger." in pdftotext(out / "tiny-isles" / "cards.pdf")


def test_two_builds_are_byte_identical(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "again"
    build([tiny_game(built.parent)], out, jobs=1)
    for name in ("reference.pdf", "cards.pdf", "stickers.pdf", "reference.html"):
        assert (out / "tiny-isles" / name).read_bytes() == (built / "tiny-isles" / name).read_bytes(), name


def test_letter_paper(tmp_path: Path) -> None:
    game = tiny_game(tmp_path, stickers=[], regions=[], territories=[], tables=[], rewards=[], envelopes=[])
    build([game], tmp_path / "out", paper="letter", jobs=1)
    info = pdfinfo(tmp_path / "out" / "tiny-isles" / "cards.pdf")
    assert "letter" in info["Page size"].lower()


def test_no_op_build_does_not_import_weasyprint_or_jinja(built: Path) -> None:
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from pathlib import Path
        from test_build_fixtures import tiny_game
        from scarbook.compiler.build import build
        result = build([tiny_game(Path({str(built.parent)!r}))], Path({str(built)!r}))
        assert result.rendered == [], result.rendered
        print(sorted(m for m in ("weasyprint", "jinja2", "jsonschema") if m in sys.modules))
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", run.stderr


# --- unsafe packs ---------------------------------------------------------------------------
@pytest.mark.parametrize(("card", "code"), [
    ({"image": "../../../../etc/passwd"}, "B302"),
    ({"image": "/etc/passwd"}, "B302"),
    ({"image": "file:///etc/passwd"}, "B302"),
    ({"image": "http://example.com/a.png"}, "B302"),
    ({"text": '<img src="file:///etc/passwd">'}, "B301"),
    ({"text": "<link rel=stylesheet href=http://example.com/x.css>"}, "B301"),
])
def test_unsafe_card_is_an_error_at_its_line_and_nothing_is_written(tmp_path: Path, card: dict, code: str) -> None:
    cards = [{"id": "evil", "deck": "isle-cards", "name": "Evil", **card}]
    game = tiny_game(tmp_path, cards=cards)
    diags = check_content(game)
    assert [d.code for d in diags] == [code]
    assert diags[0].span == game.span("evil") and diags[0].span.line > 0  # no such file: the item's line
    result = build([game], tmp_path / "out")
    assert result.rendered == [] and not (tmp_path / "out").exists()


def test_image_symlinked_out_of_the_pack_is_refused(tmp_path: Path) -> None:
    (tmp_path / "art.png").symlink_to("/etc/passwd")
    game = tiny_game(tmp_path, cards=[{"id": "evil", "deck": "isle-cards", "name": "Evil", "image": "art.png"}])
    assert [d.code for d in check_content(game)] == ["B302"]


def test_image_inside_the_pack_is_printed(tmp_path: Path) -> None:
    import base64

    (tmp_path / "art.png").write_bytes(base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="))
    game = tiny_game(tmp_path, cards=[{"id": "ok", "deck": "isle-cards", "name": "Pictured", "image": "art.png"}],
                     stickers=[], tables=[], rewards=[], envelopes=[], regions=[], territories=[])
    result = build([game], tmp_path / "out", jobs=1)
    assert not result.diagnostics and "tiny-isles/cards" in result.rendered
    from pypdf import PdfReader

    pages = PdfReader(tmp_path / "out" / "tiny-isles" / "cards.pdf").pages
    def art(page: object) -> int:  # the 1×1 PNG (cut marks are drawn from another, page-sized image)
        return sum(1 for im in page.images if im.image is not None and im.image.size == (1, 1))  # type: ignore[attr-defined]

    assert art(pages[2]) == 1  # the fronts page (WeasyPrint shares one resource dict between pages)


# --- the command line -----------------------------------------------------------------------
EVIL_PACK = """\
pack: {id: evil, title: Evil pack, extends: shadow-blades}
decks:
  - {id: evil-deck, name: Evil deck}
cards:
  - id: evil-card
    deck: evil-deck
    name: Evil
    text: '<img src="file:///etc/passwd">'
"""


@pytest.mark.parametrize(("text", "expected"), [
    (EVIL_PACK, "evil/pack.yaml:8:11: error B301: card 'evil-card' has HTML markup in 'text'"),
    (EVIL_PACK.replace("    text:", "    stats: {power: 1}\n    image: ../../etc/passwd\n    text: x\n    notes:"),
     "evil/pack.yaml:9:12: error B302: card 'evil-card': image '../../etc/passwd' leads out of the pack folder"),
])
def test_cli_refuses_a_malicious_pack_at_the_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str,
                                                   expected: str) -> None:
    pack = tmp_path / "evil"
    pack.mkdir()
    (pack / "pack.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["build", "shadow-blades", "--pack", "evil", "--out", "out"])
    refused(result, expected.split(" error ")[1].split(":")[0])
    assert expected in result.output
    assert not (tmp_path / "out").exists()


def test_cli_usage_errors() -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["build", "no-such-game", "--out", "x"]).exit_code == 2
    assert runner.invoke(app, ["build", "--paper", "a3"]).exit_code == 2
    assert "Example: scarbook build" in runner.invoke(app, ["build", "--help"]).output


@pytest.mark.slow
def test_cli_builds_a_shipped_game_then_is_up_to_date(tmp_path: Path) -> None:
    """End to end on the real content: the installed script, then a no-op rebuild. Slow: a whole shipped game
    rendered to PDF by a real process."""
    out = tmp_path / "out"
    exe = Path(sys.executable).parent / "scarbook"
    env = {**os.environ, "CI": "1"}
    first = subprocess.run([str(exe), "build", "risk-warhammer-40k", "--out", str(out), "--digest"],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stderr + first.stdout
    assert "rendering (not built yet)" in first.stdout
    aid = pdftotext(out / "risk-warhammer-40k" / "reference.pdf")
    # the board's longest name, on one row or (where one row would run into lines) on two
    assert "player aid" in aid and re.search(r"Dontoria-Megaborealis\s+Fortwall", aid) and aid.count("\f") <= 2
    text = pdftotext(out / "risk-warhammer-40k" / "digest.pdf")
    assert "Starting armies" in text and "Risk: Warhammer 40,000" in text
    assert "Region bonuses ‡" in text and "‡ from one unofficial source (low confidence)" in text
    assert "Dontoria-Megaborealis Fortwall" in text  # the board map is drawn
    assert (out / "risk-warhammer-40k" / "cards.pdf").is_file()
    assert (out / "risk-warhammer-40k" / "tables" / "starting-armies.csv").read_text().startswith("Players,")
    second = subprocess.run([str(exe), "build", "risk-warhammer-40k", "--out", str(out), "--digest"],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert second.returncode == 0 and "everything is up to date" in second.stdout


def test_rendering_code_is_part_of_what_outputs_depend_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Changing how pages are drawn (boardmap, sheets …) must re-render, not leave stale PDFs."""
    from scarbook.compiler import build as buildmod

    full = buildmod.templates_hash()
    kept = tuple(n for n in buildmod.RENDER_CODE if n != "scarbook.compiler.boardmap")
    monkeypatch.setattr(buildmod, "RENDER_CODE", kept)
    assert buildmod.templates_hash() != full


def test_cli_only_builds_the_named_outputs_of_a_homebrew_game_folder(tmp_path: Path) -> None:
    game = str(EXAMPLES / "tiny-game")
    result = CliRunner().invoke(app, ["build", game, "--only", "tables", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tiny-isles" / "tables").is_dir() and not (tmp_path / "tiny-isles" / "reference.pdf").exists()
    assert "[1/1] tiny-isles/tables done" in result.output
    none = CliRunner().invoke(app, ["build", "shadow-blades", "--only", "stickers", "--out", str(tmp_path)])
    assert none.exit_code == 0 and "nothing to build: shadow-blades has no stickers output" in none.output
    wrong = CliRunner().invoke(app, ["build", game, "--only", "card", "--out", str(tmp_path)])
    assert wrong.exit_code == 2 and "'card' is not one of" in wrong.output


def test_progress_is_plain_lines_off_a_terminal_and_a_bar_on_one(capsys: pytest.CaptureFixture[str]) -> None:
    from scarbook.cli.build import ProgressDisplay

    plain = ProgressDisplay(tty=False)
    plain.line("a/cards: rendering (not built yet)")
    plain.step(1, 2)
    assert plain.bar is None and capsys.readouterr().out == "a/cards: rendering (not built yet)\n"
    tty = ProgressDisplay(tty=True)
    tty.step(1, 4)
    try:
        assert tty.bar is not None and tty.bar.tasks[0].completed == 1 and tty.bar.tasks[0].total == 4
        tty.line("[1/4] a/cards done")
    finally:
        tty.close()
    assert "[1/4] a/cards done" in capsys.readouterr().err


def test_card_text_too_long_for_its_card_is_a_warning_at_the_text(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.compiler.printable import text_capacity

    assert 400 < text_capacity(63, 88) < 700 and text_capacity(70, 120) > text_capacity(63, 88)
    game = tmp_path / "long"
    game.mkdir()
    (game / "game.yaml").write_text(
        "game: {id: long, title: Long, legacy: false, players: {min: 2, max: 4}}\n"
        "decks:\n  - {id: d, name: D, count: 2}\n"
        "  - {id: big, name: Big, count: 1, card_size: {width: 120, height: 180}}\n"
        "cards:\n"
        f"  - {{id: a, deck: d, name: A, text: '{'word ' * 200}'}}\n"
        "  - {id: b, deck: d, name: B, text: short}\n"
        f"  - {{id: c, deck: big, name: C, text: '{'word ' * 200}'}}\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["validate", "long"])
    assert result.exit_code == 0 and result.output.count("B303") == 1, result.output
    assert "long/game.yaml:6:37: warning B303: card 'a': its text (1000 characters) will not all fit" in result.output


def test_validate_reports_what_the_build_would_refuse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "evil").mkdir()
    (tmp_path / "evil" / "pack.yaml").write_text(EVIL_PACK)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["validate", "evil"])
    refused(result, "B301")
    assert "evil/pack.yaml:8:11: error B301" in result.output


def test_cached_game_names_files_as_seen_from_the_current_folder(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from scarbook.compiler.validate import cached_game

    monkeypatch.setenv("SCARBOOK_CACHE", str(tmp_path / "cache"))
    game = EXAMPLES / "tiny-game"
    monkeypatch.chdir(game)
    assert cached_game(str(game)).span("north-isle").file == "game.yaml"
    monkeypatch.chdir(tmp_path)
    assert cached_game(str(game)).span("north-isle").file == str(game / "game.yaml")
