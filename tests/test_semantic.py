"""One test per semantic check: the content is in the test, next to what it must report."""

from __future__ import annotations

import textwrap
from pathlib import Path

from scarbook.compiler.validate import validate_paths

GAME = """\
game: {id: t, title: T, legacy: false, players: {min: 2, max: 4}}
regions:
  - {id: r, name: R, bonus: 1}
territories:
  - {id: a, name: A, regions: [r]}
  - {id: b, name: B, regions: [r]}
edges:
  - [a, b]
"""


def check(tmp_path: Path, extra: str, base: str = GAME) -> list[str]:
    path = tmp_path / "game.yaml"
    path.write_text(base + textwrap.dedent(extra))
    report = validate_paths([path])
    return [f"{d.span.line}:{d.span.column} {d.code} {d.message}" for d in
            sorted(report.diagnostics, key=lambda d: d.sort_key())]


def test_a_clean_game_has_no_diagnostics(tmp_path: Path) -> None:
    assert check(tmp_path, "") == []


def test_did_you_mean_for_a_misspelt_territory(tmp_path: Path) -> None:
    out = check(tmp_path, "", GAME.replace("- [a, b]", "- [a, bb]"))
    assert "8:9 X102 edge 'a' -> 'bb': no territory 'bb' (did you mean 'b'?)" in out


def test_one_way_neighbor_listing(tmp_path: Path) -> None:
    base = GAME.replace("{id: a, name: A, regions: [r]}", "{id: a, name: A, regions: [r], neighbors: [b]}")
    base = base.replace("edges:\n  - [a, b]\n", "")
    out = check(tmp_path, "", base)
    assert [line.split(" ")[1] for line in out] == ["X203"]
    assert "'a' lists 'b' as a neighbor but 'b' does not list 'a'" in out[0]


def test_mutual_neighbors_need_no_edges(tmp_path: Path) -> None:
    base = GAME.replace("edges:\n  - [a, b]\n", "")
    base = base.replace("{id: a, name: A, regions: [r]}", "{id: a, name: A, regions: [r], neighbors: [b]}")
    base = base.replace("{id: b, name: B, regions: [r]}", "{id: b, name: B, regions: [r], neighbors: [a]}")
    assert check(tmp_path, "", base) == []


def test_self_loop_and_duplicate_edge(tmp_path: Path) -> None:
    out = check(tmp_path, "", GAME + "  - [b, a]\n  - [a, a]\n")
    assert [line.split(" ")[1] for line in out] == ["X202", "X201"]


def test_disconnected_board(tmp_path: Path) -> None:
    out = check(tmp_path, "", GAME.replace("edges:\n  - [a, b]\n", "edges: []\n"))
    assert [line.split(" ")[1] for line in out] == ["X204"]


def test_incomplete_board_is_not_judged_for_connection(tmp_path: Path) -> None:
    base = GAME.replace("edges:\n  - [a, b]\n", "board: {complete: {unknown: adjacency not legible}}\n")
    assert [line.split(" ")[1] for line in check(tmp_path, "", base)] == ["X310"]


def test_territory_without_region(tmp_path: Path) -> None:
    out = check(tmp_path, "", GAME.replace("{id: b, name: B, regions: [r]}", "{id: b, name: B}"))
    assert [line.split(" ")[1] for line in out] == ["X205"]


def test_territory_in_no_region_on_purpose(tmp_path: Path) -> None:
    """`regions: []` says the territory is in no region (Risk Legacy's Alien Island has no continent)."""
    assert check(tmp_path, "", GAME.replace("{id: b, name: B, regions: [r]}", "{id: b, name: B, regions: []}")) == []


def test_duplicate_id_across_sections(tmp_path: Path) -> None:
    out = check(tmp_path, "decks:\n  - {id: a, name: A deck}\n")
    assert [line.split(" ")[1] for line in out] == ["X101"]


def test_declared_count_gap_names_the_groups(tmp_path: Path) -> None:
    out = check(tmp_path, """\
        decks:
          - {id: agents, name: Agents, count: 5}
        cards:
          - {id: spy, deck: agents, name: Spy, zone: r, copies: 2}
          - {id: thief, deck: agents, name: Thief, type: theft}
        """)
    assert len(out) == 1 and "X302" in out[0] and "declares 5 cards but lists 3 (2 missing)" in out[0]


def test_unknown_values_are_warned_once_per_reason(tmp_path: Path) -> None:
    second = "\n  - {id: s, name: S, bonus: {unknown: not printed}}"
    base = GAME.replace("bonus: 1}", "bonus: {unknown: not printed}}" + second)
    out = check(tmp_path, "", base)
    assert [line.split(" ")[1] for line in out] == ["X310"]
    assert "unknown bonus: not printed (and 1 more like it in this file)" in out[0]


def test_inconsistent_source_is_warned(tmp_path: Path) -> None:
    base = GAME.replace("{id: r, name: R, bonus: 1}",
                        "{id: r, name: R, bonus: 1, source: {cite: x § y, inconsistent: [says 6 lists 7]}}")
    assert [line.split(" ")[1] for line in check(tmp_path, "", base)] == ["X312"]


def test_one_unofficial_source_is_warned_once_per_file_and_reason(tmp_path: Path) -> None:
    source = "source: {cite: notes § B, confidence: L, note: the name}"
    base = GAME.replace("{id: a, name: A, regions: [r]}", "{id: a, name: A, regions: [r], " + source + "}")
    base = base.replace("{id: b, name: B, regions: [r]}", "{id: b, name: B, regions: [r], " + source + "}")
    out = check(tmp_path, "", base)
    assert [line.split(" ")[1] for line in out] == ["X313"]
    assert "rests on one unofficial source (confidence L): the name (notes § B) (and 1 more" in out[0]
    assert check(tmp_path, "", base.replace("confidence: L", "confidence: M")) == []


def test_a_table_row_has_one_cell_per_column(tmp_path: Path) -> None:
    out = check(tmp_path, """\
        tables:
          - id: energy
            title: Energy
            columns: [{id: what, title: What}, {id: energy, title: Energy}]
            rows:
              - [Domination token (start of turn, at most one per turn), 20]
              - ["Domination token (start of turn, at most one per turn)", 20]
              - [Starting energy]
        """)
    assert [line.split(" ")[:2] for line in out] == [["14:9", "X303"], ["16:9", "X303"]]
    assert "row 1 of table 'energy' has 3 cells but the table has 2 columns; in a flow list" in out[0]
    assert "row 3 of table 'energy' has 1 cells" in out[1]


def test_sticker_slot_checks_and_params(tmp_path: Path) -> None:
    out = check(tmp_path, """\
        board: {default_slots: {scar: 1}}
        stickers:
          - id: quake
            name: Quake
            slot: scra
            targets: [territory]
            supply: [{pool: start, count: 2}]
            checks:
              - {check: supply-left, pool: strat, cite: "x § y"}
              - {check: limit, max: 1, of: [quak], per: [target], cite: "x § y"}
        """)
    got = [line.split(" ")[1] for line in out]
    assert got == ["X401", "X405", "X102"], out


def test_envelope_contents_must_exist(tmp_path: Path) -> None:
    out = check(tmp_path, """\
        envelopes:
          - {id: e, name: E, trigger: {text: soon, when: {game: played, at_least: 2}}, contents: [a, zz]}
        """)
    assert [line.split(" ")[1] for line in out] == ["X102"] and "'zz'" in out[0]


def test_player_counts_and_schedule(tmp_path: Path) -> None:
    base = GAME.replace("{min: 2, max: 4}", "{min: 5, max: 4}, campaign: {games: 2}")
    out = check(tmp_path, """\
        schedule:
          - {id: g1, game: 1}
          - {id: g1b, game: 1}
          - {id: g3, game: 3}
        """, base)
    assert sorted(line.split(" ")[1] for line in out) == ["X104", "X105", "X106"]
    text = "\n".join(out)
    assert "players: min (5) is larger than max (4); swap them" in text
    assert "game 1 is scheduled twice (also by 'g1'); give each schedule entry its own game number" in text
    assert "game 3 is past the campaign's 2 games; raise 'games'" in text


def test_a_crashing_check_becomes_a_diagnostic(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from scarbook.compiler import semantic

    def boom(ctx: object) -> list[object]:
        raise RuntimeError("kaput")

    monkeypatch.setattr(semantic, "CHECKS", [boom, *semantic.CHECKS])
    out = check(tmp_path, "")
    assert len(out) == 1 and "X999" in out[0] and "kaput" in out[0]
    line = boom.__code__.co_firstlineno + 1  # where it raised, the innermost frame
    assert f"internal error in boom: RuntimeError: kaput (at boom:{line}); please report it" in out[0], out[0]


def test_sealed_slots_counts_and_card_stickers_name_what_exists(tmp_path: Path) -> None:
    """Issue 12: a sealed slot and a deck's sealed count name an envelope; a card's stickers name stickers;
    the sealed count is the number of the deck's cards the envelope holds."""
    out = check(tmp_path, """\
    envelopes:
      - {id: chest, name: Chest, trigger: {text: Open any time.}, contents: [late-card]}
    factions:
      - {id: f, name: F, slots: {power: 1}, sealed_slots: {weakness: {envelope: chets}}}
    decks:
      - {id: d, name: D, card_type: territory, count: 1, sealed_count: {chest: 2, nowhere: 1}}
    cards:
      - {id: a-card, deck: d, name: A, territory: a, stickers: [no-such]}
      - {id: late-card, deck: d, name: Late, territory: b}
    """)
    joined = "\n".join(out)
    assert "X102 no envelope 'chets' (did you mean 'chest'?)" in joined, out
    assert "X102 no envelope 'nowhere'" in joined
    assert "X302 deck 'd' says envelope 'chest' adds 2 cards but it holds 1 cards of the deck" in joined
    assert "X102 no sticker 'no-such'" in joined
