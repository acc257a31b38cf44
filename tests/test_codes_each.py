"""The diagnostic codes no invalid pack reached before (issue 29): each mistake, made once, gives its code and words.

S000 a file that is a list, S004 a value of the wrong type, X103 a second `game:` block, X502 a file linked from
outside the pack, X506 a folder that is neither a pack nor a game, X510 a patched territory that drops a
neighbour, X512 `remove_edges` in a game. Each fixture is the tiny example game with one mistake; the same
game without it validates clean (so the code comes from the mistake, not from the fixture).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from conftest import EXAMPLES
from scarbook.cli.main import app

TINY = (EXAMPLES / "tiny-game" / "game.yaml").read_text("utf-8")


def validate(*paths: Path) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["validate", *map(str, paths)])
    return result.exit_code, result.output.splitlines()


def tiny(folder: Path, text: str = TINY) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(text, "utf-8")
    return folder


def test_the_tiny_game_alone_is_clean(tmp_path: Path) -> None:
    assert validate(tiny(tmp_path / "g")) == (0, ["0 errors, 0 warnings in 1 file"])


def test_s000_a_file_that_is_not_a_mapping(tmp_path: Path) -> None:
    game = tiny(tmp_path / "g")
    (game / "extra.yaml").write_text("- just\n- a list\n")
    rc, out = validate(game)
    assert rc == 1 and out[0].endswith("extra.yaml:1:1: error S000: a content file must be a mapping of sections "
                                       "(game:, territories:, cards: …)"), out


def test_s004_a_value_of_the_wrong_type(tmp_path: Path) -> None:
    rc, out = validate(tiny(tmp_path / "g", TINY.replace("  legacy: true", '  legacy: "yes"')))
    assert rc == 1 and out[0].endswith("game.yaml:7:11: error S004: 'yes' is not of type 'boolean' in this "
                                       "mapping"), out


def test_x103_a_second_game_block(tmp_path: Path) -> None:
    game = tiny(tmp_path / "g")
    (game / "more.yaml").write_text("game:\n  id: tiny-isles\n  title: Again\n  legacy: true\n"
                                    "  players: {min: 2, max: 3}\n")
    rc, out = validate(game)
    assert rc == 1 and out[0].endswith("more.yaml:1:1: error X103: a second 'game:' block; a game is described "
                                       "once"), out


def test_x502_a_file_linked_from_outside_the_pack(tmp_path: Path) -> None:
    game = tiny(tmp_path / "g")
    (tmp_path / "outside.yaml").write_text("stickers: []\n")
    (game / "more.yaml").symlink_to(tmp_path / "outside.yaml")
    rc, out = validate(game)
    assert rc == 1 and out[0].endswith("more.yaml: error X502: this file is a link to outside the pack folder; copy "
                                       "the file into the pack instead"), out
    (game / "more.yaml").unlink()
    shutil.copy(tmp_path / "outside.yaml", game / "more.yaml")
    assert validate(game)[0] == 0


def test_x506_neither_pack_nor_game(tmp_path: Path) -> None:
    folder = tmp_path / "loose"
    folder.mkdir()
    (folder / "stickers.yaml").write_text("stickers:\n  - {id: kraken2, name: Kraken, kind: scar, targets: "
                                          "[territory], supply: 1, effect: x}\n")
    rc, out = validate(folder)
    assert rc == 1 and out[0].endswith("stickers.yaml:1:1: error X506: a pack needs 'pack: {id: ..., title: ..., "
                                       "extends: GAME}' (to add to a game) or 'game: {...}' (a new game)"), out


def test_x510_a_patch_that_drops_a_neighbour(tmp_path: Path) -> None:
    game = tiny(tmp_path / "g")
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.yaml").write_text("pack: {id: p510, title: P510, extends: tiny-isles}\nterritories:\n"
                                    "  - {id: east-isle, patch: true, neighbors: [north-isle]}\n")
    rc, out = validate(pack, game)
    assert [line.split(": ", 1)[1] for line in out if "X510" in line] == [
        "warning X510: 'east-isle' no longer lists south-isle as neighbours, but an edge the other territory or "
        "'edges' lists stays: neighbours are symmetric"], out
    (pack / "pack.yaml").write_text("pack: {id: p510, title: P510, extends: tiny-isles}\nterritories:\n"
                                    "  - {id: east-isle, patch: true, neighbors: [north-isle, south-isle]}\n")
    assert validate(pack, game)[1][-1] == "0 errors, 0 warnings in 2 files"


def test_x512_remove_edges_in_a_game(tmp_path: Path) -> None:
    text = TINY.replace("board:", "remove_edges:\n  - [north-isle, east-isle]\nboard:", 1)
    rc, out = validate(tiny(tmp_path / "g", text))
    assert rc == 1 and out[0].endswith("game.yaml:11:5: error X512: 'remove_edges' is for packs: a game simply does "
                                       "not list the edge"), out


def test_x102_a_packs_step_naming_an_unknown_reward_is_reported_at_the_packs_line(tmp_path: Path) -> None:
    """A step a pack adds or patches is checked where the pack says it, not in the base game's file."""
    pack = tmp_path / "p"
    shutil.copytree(EXAMPLES / "shadow-forces-house-reward", pack)
    text = (pack / "pack.yaml").read_text("utf-8")
    (pack / "pack.yaml").write_text(text.replace("global-cancel-sticker, global-victory-banner]",
                                                 "global-cancel-sticker, global-victory-baner]"), "utf-8")
    rc, out = validate(pack)
    assert rc == 1 and out[0].endswith("pack.yaml:38:37: error X102: no sticker or reward 'global-victory-baner' "
                                       "(did you mean 'global-victory-banner'?); define it under 'stickers:' or fix "
                                       "the id"), out
    assert len(out) == 2, out


def test_x102_a_tie_bonus_names_stickers_or_kinds_one_or_a_list(tmp_path: Path) -> None:
    def with_bonus(per: str) -> str:
        return TINY.replace("campaign: {games: 3, rewards_in_first_games: 3}",
                            "campaign: {games: 3, rewards_in_first_games: 3, overall_winner: {after_game: 3, most: "
                            f"signatures, tie_bonus: {{per: {per}, text: roll off}}, cite: t § end}}}}")

    def with_ties(kind: str) -> str:  # the same in the language (edition 5)
        return TINY.replace("campaign: {games: 3, rewards_in_first_games: 3}",
                            "campaign: {games: 3, rewards_in_first_games: 3, outcome: {when: {game: played, "
                            "at_least: 3}, rank_by: [{signatures: actor}], ties: {roll_off: {bonus: {count: "
                            f"{{kind: {kind}, by: actor}}}}}}, text: roll off}}, show: winner, cite: t § end}}}}")

    for make in (with_bonus, with_ties):
        name = make.__name__
        assert validate(tiny(tmp_path / f"{name}-one", make("kraken")))[0] == 0
        assert validate(tiny(tmp_path / f"{name}-kinds", make("[scar, kraken]")))[0] == 0
        rc, out = validate(tiny(tmp_path / f"{name}-bad", make("[scar, krakn]")))
        x102 = [line for line in out if "X102" in line]
        assert rc == 1 and "error X102: no sticker or sticker kind 'krakn' (did you mean 'kraken'?)" in x102[0], out
        assert "game.yaml:9:" in x102[0], out  # at the id, where the file writes it (the old form's too)
        rc, out = validate(tiny(tmp_path / f"{name}-bad-one", make("krakn")))
        assert rc == 1 and any("error X102: no sticker or sticker kind 'krakn'" in line for line in out), out


def test_x102_in_the_file_that_holds_the_game_block(tmp_path: Path) -> None:
    """A game in several files: the campaign block's mistake is reported in the file that holds `game:`."""
    game = tmp_path / "g"
    game.mkdir()
    head, _, rest = TINY.partition("board:")
    (game / "a-board.yaml").write_text("source: {cite: \"homebrew: tiny board\"}\nboard:" + rest, "utf-8")
    (game / "game.yaml").write_text(head.replace("campaign: {games: 3, rewards_in_first_games: 3}",
                                                 "campaign: {games: 3, setup: [{id: s, place: krakn, count: 1, "
                                                 "text: one kraken first, cite: t § setup}]}"), "utf-8")
    rc, out = validate(game)
    assert rc == 1 and "game.yaml:" in out[0] and "error X102: no sticker 'krakn'" in out[0], out


def test_x102_a_packs_step_naming_an_unknown_piece_kind_at_the_packs_line(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "pack: {id: p, title: P, extends: risk-shadow-forces}\nsteps:\n"
        "  - {game_type: global, id: extra, name: Extra, who: winner, piece: warlrd, choose: [global-warlord-sticker],"
        " cite: \"house rule § Extra\"}\n", "utf-8")
    rc, out = validate(pack)
    assert rc == 1 and out[0].endswith("pack.yaml:3:69: error X102: no piece kind 'warlrd' (did you mean 'warlord'?);"
                                       " define it under 'game: campaign: pieces:' or fix the id"), out
