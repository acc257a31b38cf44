"""The incremental build never reports "up to date" for an output it would draw differently or not find."""

from __future__ import annotations

from pathlib import Path

from test_build_fixtures import tiny_game

from scarbook.compiler.build import build


def test_a_deleted_output_file_is_rendered_again(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = build([tiny_game(tmp_path)], out, jobs=1, only={"tables", "stickers"})
    assert sorted(first.rendered) == ["tiny-isles/stickers", "tiny-isles/tables"]
    assert build([tiny_game(tmp_path)], out, jobs=1, only={"tables", "stickers"}).rendered == []
    (out / "tiny-isles" / "stickers.pdf").unlink()
    (out / "tiny-isles" / "tables" / "recruit.csv").unlink()
    lines: list[str] = []
    again = build([tiny_game(tmp_path)], out, jobs=1, only={"tables", "stickers"}, progress=lines.append)
    assert sorted(again.rendered) == ["tiny-isles/stickers", "tiny-isles/tables"], lines
    assert any("stickers.pdf is missing" in line for line in lines), lines
    assert (out / "tiny-isles" / "stickers.pdf").is_file() and (out / "tiny-isles" / "tables" / "recruit.csv").is_file()


def test_another_paper_size_renders_the_sheets_again(tmp_path: Path) -> None:
    from pypdf import PdfReader

    out = tmp_path / "out"
    build([tiny_game(tmp_path)], out, jobs=1, only={"stickers"})
    a4 = PdfReader(out / "tiny-isles" / "stickers.pdf").pages[0].mediabox
    lines: list[str] = []
    letter = build([tiny_game(tmp_path)], out, jobs=1, paper="letter", only={"stickers"}, progress=lines.append)
    assert letter.rendered == ["tiny-isles/stickers"] and letter.up_to_date == [], lines
    assert any("settings changed" in line for line in lines), lines
    page = PdfReader(out / "tiny-isles" / "stickers.pdf").pages[0].mediabox
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)
    assert (round(float(page.width)), round(float(page.height))) == (612, 792)
    back = build([tiny_game(tmp_path)], out, jobs=1, paper="a4", only={"stickers"})
    assert back.rendered == ["tiny-isles/stickers"]
