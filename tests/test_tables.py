"""Rule tables: computed from content only, golden files per shipped game, and `scarbook tables`.

Golden files live in tests/golden/; after a deliberate content change regenerate them with
`SCARBOOK_UPDATE_GOLDEN=1 pytest tests/test_tables.py` and review the diff.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from test_build_fixtures import tiny_game
from typer.testing import CliRunner

from conftest import check_golden
from scarbook.cli.main import app
from scarbook.compiler import tables as T
from scarbook.compiler.load import shipped_games


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_shipped_game_tables_match_golden(game_id: str) -> None:
    from scarbook.compiler.validate import ContentError, load_game

    try:
        game = load_game(game_id).effective()
    except ContentError:
        pytest.skip(f"{game_id} has content errors right now (the validator's tests report them)")
    computed = T.rule_tables(game)
    check_golden(f"{game_id}.tables.md", T.document_markdown(game, computed))
    ids = [t.id for t in computed]
    assert len(ids) == len(set(ids))
    sealed = game.sealed_ids()
    dump = T.document_json(game, computed)
    for table in computed:
        assert not sealed & set(table.uses)
    for env in game.section("envelopes").values():
        contents = env.get("contents")
        for item in contents if isinstance(contents, list) else []:
            assert f"'{item}'" not in dump


def test_tiny_game_golden(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    computed = T.rule_tables(game)
    check_golden("tiny-isles.tables.md", T.document_markdown(game, computed))
    check_golden("tiny-isles.tables.csv", T.document_csv(computed))


def test_formula_expands_into_bands() -> None:
    rows, rule = T.formula_rows({"sum": ["territories", "population"], "divide_by": 3, "minimum": 3,
                                 "range": [1, 20]}, 99)
    assert rows == [["1–11", 3], ["12–14", 4], ["15–17", 5], ["18–20", 6]]
    assert "at least 3" in rule
    rows, _ = T.formula_rows({"sum": ["x"], "divide_by": 2, "round": "up"}, 5)
    assert rows == [["1–2", 1], ["3–4", 2], ["5", 3]]


def test_tables_are_derived_from_sections(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    by_id = {t.id: t for t in T.rule_tables(game)}
    assert set(by_id) >= {"recruit", "board-regions", "stickers", "rewards-winner", "envelopes", "deck-isle-cards",
                          "deck-big-cards", "components"}
    regions = by_id["board-regions"]
    assert regions.rows[1][-1] == {"unknown": "not printed"}
    assert "? unknown: not printed" in T.unknown_notes(regions)
    deck = by_id["deck-isle-cards"]
    assert [c.title for c in deck.columns] == ["Card", "Copies", "Resources", "Strength", "Skill", "Text"]
    assert "3 of the 4 cards the source declares are listed." in deck.notes
    envelopes = by_id["envelopes"]
    assert envelopes.rows == [["Sealed one", "Open after game 2."]] and "secret-card" not in json.dumps(
        envelopes.to_json())
    empty = tiny_game(tmp_path, **{s: [] for s in ("regions", "territories", "decks", "cards", "stickers",
                                                   "envelopes", "rewards", "tables")})
    assert T.rule_tables(empty) == []


def test_campaign_changes_show(tmp_path: Path) -> None:
    game = tiny_game(tmp_path, regions=[{"id": "isles", "name": "Pirate Bay", "named_by": "Ann", "bonus": 3}],
                     cards=[{"id": "north-card", "deck": "isle-cards", "name": "North Card", "resources": 4,
                             "destroyed": True}])
    by_id = {t.id: t for t in T.rule_tables(game)}
    assert by_id["board-regions"].rows[0] == ["Pirate Bay", 2, 3, "named by Ann"]
    assert by_id["deck-isle-cards"].rows[0][-1] == "destroyed"


def test_cli_tables_formats() -> None:
    runner = CliRunner()
    md = runner.invoke(app, ["tables", "risk-legacy"])
    assert md.exit_code == 0 and "## Recruit chart" in md.output and "| 12–14 | 4 |" in md.output
    data = json.loads(runner.invoke(app, ["tables", "risk-legacy", "--format", "json"]).output)
    assert data["game"] == "risk-legacy" and any(t["id"] == "trade-in" for t in data["tables"])
    out = runner.invoke(app, ["tables", "risk-legacy", "--format", "csv"]).output
    block = out.split("\n\n")[0].splitlines()
    assert block[0].startswith("# ") and list(csv.reader(io.StringIO("\n".join(block[1:]))))[0]
    html = runner.invoke(app, ["tables", "risk-legacy", "--format", "html"]).output
    assert html.startswith("<!DOCTYPE html>") and "Recruit chart" in html
    assert runner.invoke(app, ["tables", "risk-legacyy"]).exit_code == 2
    assert runner.invoke(app, ["tables", "risk-legacy", "--format", "xml"]).exit_code == 2


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_every_row_has_one_cell_per_column(game_id: str) -> None:
    from scarbook.compiler.validate import load_game

    game = load_game(game_id).effective()
    for table in T.rule_tables(game):
        for row in table.rows:
            assert len(row) == len(table.columns), (table.id, row)


def test_a_partly_known_board_reaches_its_declared_size(tmp_path: Path) -> None:
    game = tiny_game(tmp_path)
    game.board.update({"territory_count": 42, "complete": {"unknown": "names not legible"}})
    game.sections["tables"] = {"reinforcements": {
        "id": "reinforcements", "title": "Reinforcements", "columns": [{"id": "n", "title": "Territories"},
                                                                       {"id": "a", "title": "Armies"}],
        "formula": {"sum": ["territories"], "divide_by": 3, "minimum": 3}}}
    table = T.declared_tables(game)[0]
    assert table.rows[0] == ["1–11", 3] and table.rows[-1] == ["42", 14]
    assert "shown up to 42" in table.notes[0]


def test_unofficial_facts_are_marked_in_every_format() -> None:
    from scarbook.compiler.validate import load_game

    game = load_game("risk-warhammer-40k").effective()
    tables = {t.id: t for t in T.rule_tables(game)}
    regions = tables["board-regions"]
    assert regions.marks == "‡" and any("territory's name and regions" in e for e in regions.low_confidence)
    assert [r[1] for r in regions.rows] == [5, 6, 8, 4, 8, 7, 7]
    assert "## Region bonuses ‡" in T.to_markdown(regions)
    assert "- ‡ from one unofficial source (low confidence): the territory's name" in T.to_markdown(regions)
    assert "# Region bonuses ‡ (board-regions)" in T.document_csv([regions])
    assert json.loads(T.to_json(regions))["low_confidence"] == regions.low_confidence
    assert tables["starting-armies"].marks == ""
    assert tables["reinforcements-from-territories"].rows[-1] == ["42", 14]


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_digest_columns_give_the_prose_the_room(game_id: str) -> None:
    """Issue 34 P11: a digest table's short columns (a kind, a count, a value) are no wider than their
    longest text; the room nobody needs goes to the prose column, not spread over every column (the Shadow
    Forces "Energy" table gave its one-number column 31 % of the page)."""
    from scarbook.compiler.render.html import TABLE_CHARS, table_parts
    from scarbook.compiler.validate import load_game

    game = load_game(game_id).effective()
    checked = 0
    for table in T.rule_tables(game):
        part = table_parts(table)[0]
        if not part["cols"]:
            continue
        widths = [float(w) * TABLE_CHARS / 100 for w in part["cols"]]
        longest = [max([1.2 * len(title)] + [len(r[i]["text"]) for r in part["rows"]]) + 2.5
                   for i, title in enumerate(part["columns"])]
        prose = max(range(len(widths)), key=lambda i: longest[i])
        for i, (w, most) in enumerate(zip(widths, longest, strict=True)):
            if i != prose and most < TABLE_CHARS / 2:  # a short column: one line of its longest text at most
                assert w <= most + 0.5, (table.id, part["columns"][i], w, most)
        checked += 1
    assert checked


@pytest.mark.parametrize(("game_id", "least"), [("risk-shadow-forces", 48.0), ("risk-legacy", 42.0)])
def test_the_stickers_effect_column_gets_the_room_that_saves_lines(game_id: str, least: float) -> None:
    """Issue 34 P11: the digest's "Stickers and marks" table gives its width where it takes lines off the rows
    (the Effect prose), not in proportion to every column's longest text counted in characters: Shadow Forces'
    Effect column was 36.5 % of the width (the table 638 mm tall over pp. 4-7 of the A4 digest), now 50.1 %
    (537 mm, pp. 4-6); Risk Legacy's 33.5 % -> 44.7 % (367 -> 314 mm)."""
    from scarbook.compiler.render.html import table_parts
    from scarbook.compiler.validate import load_game

    game = load_game(game_id).effective()
    table = next(t for t in T.rule_tables(game) if t.id == "stickers")
    part = table_parts(table)[0]
    widths = dict(zip(part["columns"], (float(w) for w in part["cols"]), strict=True))
    assert widths["Effect"] >= least, widths
