"""Homebrew that plays (issue 13): packs in a campaign from game 1, slots only some territories offer,
stickers that draw lines on the board, and a homebrew game played from another folder than its ledger's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scarbook.cli.main import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def refused(ledger: Path, code: str, *args: str) -> str:
    before = ledger.read_bytes()
    rc, out = run(*args)
    assert rc == 1 and f"error {code}:" in out, out
    assert ledger.read_bytes() == before
    return out


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    (tmp_path / "ledgers").mkdir()
    (tmp_path / "elsewhere").mkdir()
    shutil.copytree(EXAMPLES / "new-scar", tmp_path / "packs" / "new-scar")
    shutil.copytree(EXAMPLES / "bridge-isles", tmp_path / "games" / "bridge-isles")
    monkeypatch.chdir(tmp_path / "elsewhere")
    return tmp_path, tmp_path / "ledgers"


def test_a_pack_joins_from_game_one_and_is_recorded_relative_to_the_ledger(folders: tuple[Path, Path]) -> None:
    root, ledgers = folders
    ledger = ledgers / "w.yaml"
    rc, out = run("campaign", "new", str(ledger), "--game", "risk-legacy", "-p", "Ann", "-p", "Bob", "-p", "Cat",
                  "--pack", str(root / "packs" / "new-scar"))
    assert rc == 0, out
    text = ledger.read_text()
    assert "{event: add-pack, pack: ../packs/new-scar, fingerprint: " in text
    assert "open" not in text.split("events:")[1]  # no envelope is faked
    rc, out = run("campaign", "status", "--format", "json", "-c", str(ledger))
    assert rc == 0 and json.loads(out)["packs"] == ["../packs/new-scar"], out
    # the pack's own packet is known once the pack is in
    out = refused(ledger, "R313", "campaign", "open", "sinkhole-envelope", "-c", str(ledger))
    assert "Open after the third game" in out
    refused(ledger, "R314", "campaign", "add-pack", str(root / "packs" / "new-scar"), "-c", str(ledger))
    rc, out = run("campaign", "check", "-c", str(ledger))
    assert rc == 0 and "all legal" in out, out
    # a changed pack is reported by check
    (root / "packs" / "new-scar" / "pack.yaml").write_text(
        (root / "packs" / "new-scar" / "pack.yaml").read_text().replace("supply: 2", "supply: 3"))
    rc, out = run("campaign", "check", "-c", str(ledger))
    assert "warning L013: the pack ../packs/new-scar changed since it was added" in out, out


def test_add_pack_between_games_only(folders: tuple[Path, Path]) -> None:
    root, ledgers = folders
    ledger = ledgers / "isles.yaml"
    pack = root / "packs" / "reef.yaml"
    pack.write_text("pack: {id: reef, title: Reef, extends: bridge-isles}\n"
                    "stickers:\n  - {id: reef, name: Reef, kind: scar, slot: scar, targets: [territory], supply: 1,"
                    " checks: [{check: slot-free, cite: house rule}]}\n")
    assert run("campaign", "new", str(ledger), "--game", str(root / "games" / "bridge-isles"), "-p", "Ann",
               "-p", "Bob")[0] == 0
    c = ("-c", str(ledger))
    assert run("campaign", "game", "start", "--play", "Ann=gulls", "--play", "Bob=crabs", *c)[0] == 0
    refused(ledger, "R301", "campaign", "add-pack", str(pack), *c)
    assert run("campaign", "game", "end", "--winner", "Bob", *c)[0] == 0
    rc, out = run("campaign", "add-pack", str(pack), *c)
    assert rc == 0 and "pack ../packs/reef.yaml added" in out, out
    rc, out = run("campaign", "place", "reef", "stone-hill", "--by", "Bob", "--dry-run", *c)
    assert rc == 0, out


def test_homebrew_game_plays_from_another_folder(folders: tuple[Path, Path]) -> None:
    root, ledgers = folders
    ledger = ledgers / "isles.yaml"
    rc, out = run("campaign", "new", str(ledger), "--game", str(root / "games" / "bridge-isles"),
                  "-p", "Ann", "-p", "Bob")
    assert rc == 0, out
    assert "game: ../games/bridge-isles" in ledger.read_text()
    c = ("-c", str(ledger))
    assert run("campaign", "game", "start", "--play", "Ann=gulls", "--play", "Bob=crabs", *c)[0] == 0
    assert run("campaign", "game", "end", "--winner", "Ann", *c)[0] == 0
    # a slot only some territories declare: the others hold none (not "already has")
    out = refused(ledger, "R202", "campaign", "place", "lighthouse", "frost-peak", "--by", "Ann", *c)
    assert "frost-peak has no Lighthouse slot (only salt-marsh, reed-bay offer one)" in out
    assert "already has" not in out
    rc, out = run("campaign", "where", "lighthouse", "--by", "Ann", *c)
    assert out.split() == ["salt-marsh", "reed-bay"], out
    # a bridge: placed, then its one line drawn; the board sees the new edge everywhere
    refused(ledger, "R340", "campaign", "link", "bridge", "frost-peak", "stone-hill", *c)
    assert run("campaign", "place", "bridge", "frost-peak", "--by", "Ann", *c)[0] == 0
    refused(ledger, "R342", "campaign", "link", "bridge", "salt-marsh", "stone-hill", *c)
    refused(ledger, "R341", "campaign", "link", "bridge", "frost-peak", "salt-marsh", *c)
    refused(ledger, "R344", "campaign", "game", "start", "--play", "Ann=gulls", "--play", "Bob=crabs", *c)
    assert run("campaign", "link", "bridge", "frost-peak", "stone-hill", "--by", "Ann", *c)[0] == 0
    refused(ledger, "R343", "campaign", "link", "bridge", "frost-peak", "reed-bay", *c)
    rc, out = run("show", str(root / "games" / "bridge-isles"), "board", "--format", "json", "--campaign",
                  str(ledger))
    assert rc == 0, out
    neighbors = {t["id"]: t["neighbors"] for t in json.loads(out)["territories"]}
    assert "stone-hill" in neighbors["frost-peak"] and "frost-peak" in neighbors["stone-hill"]
    rc, out = run("campaign", "status", "--format", "json", *c)
    data = json.loads(out)
    assert data["lines"] == [{"sticker": "bridge", "between": ["frost-peak", "stone-hill"]}]
    # a bridge is not a mark that forbids starting there (the game records no starts, so the text leaves them out)
    assert [len(p["legal_starts"]) for p in data["players"]] == [4, 4] and not data["starts_used"]
    rc, out = run("campaign", "status", *c)
    assert "(bridge-isles): 1 of 3 games played" in out and "frost-peak: bridge (Ann, after game 1)" in out, out
    assert "legal starting territories" not in out
    rc, out = run("campaign", "check", *c)
    assert rc == 0 and "all legal" in out, out


def test_replace_keeps_the_items_place_and_says_what_it_drops(tmp_path: Path) -> None:
    pack = tmp_path / "renamed.yaml"
    pack.write_text("pack: {id: renamed, title: Renamed, extends: risk-legacy}\n"
                    "territories:\n  - {id: alaska, replace: true, name: Alyeska, regions: [north-america]}\n")
    rc, out = run("validate", str(pack))
    assert "warning X509: 'alaska' replaces the whole item and drops layout" in out, out
    rc, out = run("show", "risk-legacy", "board", "--format", "json", "--pack", str(pack))
    assert rc == 0, out
    territories = json.loads(out)["territories"]
    assert territories[0]["id"] == "alaska" and territories[0]["name"] == "Alyeska"


def test_a_house_rule_pack_on_a_homebrew_game_from_game_one(folders: tuple[Path, Path]) -> None:
    root, ledgers = folders
    shutil.copytree(EXAMPLES / "isle-house-rules", root / "packs" / "isle-house-rules")
    ledger = ledgers / "isles.yaml"
    rc, out = run("campaign", "new", str(ledger), "--game", str(root / "games" / "bridge-isles"), "-p", "Ann",
                  "-p", "Bob", "--pack", str(root / "packs" / "isle-house-rules"))
    assert rc == 0, out
    c = ("-c", str(ledger))
    play = ("campaign", "game", "start", "--play", "Ann=gulls", "--play", "Bob=crabs", *c)
    # the pack's board from game 1: its edge added, its removed edge gone
    rc, out = run("show", str(root / "games" / "bridge-isles"), "board", "--format", "json", "--campaign",
                  str(ledger))
    neighbors = {t["id"]: t["neighbors"] for t in json.loads(out)["territories"]}
    assert "reed-bay" not in neighbors["salt-marsh"] and "stone-hill" in neighbors["frost-peak"], neighbors
    assert run(*play)[0] == 0 and run("campaign", "game", "end", "--winner", "Ann", *c)[0] == 0
    out = refused(ledger, "R217", "campaign", "place", "maelstrom", "frost-peak", "--by", "Ann", *c)
    assert "frost-peak would cut salt-marsh off the rest of the board" in out and "isle house rules § Maelstrom" in out
    assert run("campaign", "place", "maelstrom", "salt-marsh", "--by", "Ann", *c)[0] == 0
    assert run(*play)[0] == 0 and run("campaign", "game", "end", "--winner", "Bob", *c)[0] == 0
    refused(ledger, "R341", "campaign", "place", "bridge", "frost-peak", "--to", "salt-marsh", "--by", "Bob", *c)
    rc, out = run("campaign", "place", "bridge", "reed-bay", "--to", "salt-marsh", "--by", "Bob", *c)
    assert rc == 0 and "bridge on reed-bay, joined to salt-marsh by Bob" in out, out
    assert run(*play)[0] == 0 and run("campaign", "game", "end", "--winner", "Bob", *c)[0] == 0
    assert run("campaign", "place", "lighthouse", "reed-bay", "--by", "Bob", *c)[0] == 0
    rc, out = run("campaign", "status", *c)
    assert "3 of 3 games played; the campaign is over" in out, out
    assert "salt-marsh: maelstrom (" in out and "reed-bay: bridge (Bob, after game" in out
    rc, out = run("campaign", "check", *c)
    assert rc == 0 and "all legal" in out, out


def test_a_pack_removes_an_edge_or_says_there_is_none(tmp_path: Path) -> None:
    pack = tmp_path / "strait.yaml"
    pack.write_text("pack: {id: no-strait, title: No strait, extends: risk-legacy}\n"
                    "remove_edges:\n  - [kamchatka, alaska]\n  - [alaska, brazil]\n")
    rc, out = run("validate", str(pack))
    assert rc == 1 and "strait.yaml:4:5: error X511: no edge 'alaska' - 'brazil' to remove" in out, out
    pack.write_text("pack: {id: no-strait, title: No strait, extends: risk-legacy}\n"
                    "remove_edges:\n  - [kamchatka, alaska]\n")
    rc, out = run("show", "risk-legacy", "board", "--format", "json", "--pack", str(pack))
    alaska = next(t for t in json.loads(out)["territories"] if t["id"] == "alaska")
    assert "kamchatka" not in alaska["neighbors"] and "alberta" in alaska["neighbors"]


def test_validate_finds_the_homebrew_game_a_pack_extends(folders: tuple[Path, Path]) -> None:
    root, _ = folders
    shutil.copytree(EXAMPLES / "isle-house-rules", root / "packs" / "isle-house-rules")
    rc, out = run("validate", str(root / "packs" / "isle-house-rules"))
    assert rc == 1 and "X505" in out and "give its folder too" in out, out
    rc, out = run("validate", str(root / "games" / "bridge-isles"), str(root / "packs" / "isle-house-rules"))
    assert rc == 0 and "0 errors" in out, out


def test_target_tagged_says_where_a_sticker_may_go(folders: tuple[Path, Path]) -> None:
    root, ledgers = folders
    pack = root / "packs" / "tags.yaml"
    pack.write_text("pack: {id: tags, title: Tags, extends: bridge-isles}\n"
                    "stickers:\n"
                    "  - {id: harbor, name: Harbor, kind: harbor, targets: [territory], supply: 2,\n"
                    "     checks: [{check: target-tagged, tag: coastal, cite: house rule § Harbor}]}\n"
                    "  - {id: cairn, name: Cairn, kind: cairn, targets: [territory], supply: 2,\n"
                    "     checks: [{check: target-tagged, tag: coastal, absent: true, cite: house rule § Cairn}]}\n")
    ledger = ledgers / "tags.yaml"
    assert run("campaign", "new", str(ledger), "--game", str(root / "games" / "bridge-isles"), "-p", "Ann",
               "-p", "Bob", "--pack", str(pack))[0] == 0
    c = ("-c", str(ledger))
    assert run("campaign", "where", "harbor", *c)[1].split() == ["salt-marsh", "reed-bay"]
    assert run("campaign", "where", "cairn", *c)[1].split() == ["frost-peak", "stone-hill"]
    out = refused(ledger, "R236", "campaign", "place", "harbor", "frost-peak", *c)
    assert "frost-peak is not coastal (a Harbor goes only on a coastal territory; house rule § Harbor)" in out, out
    out = refused(ledger, "R236", "campaign", "place", "cairn", "reed-bay", *c)
    assert "reed-bay is coastal" in out, out


def test_patch_merges_fields_and_a_renamed_territory_renames_its_card(tmp_path: Path) -> None:
    pack = tmp_path / "renamed.yaml"
    pack.write_text("pack: {id: renamed, title: Renamed, extends: risk-legacy}\n"
                    "territories:\n  - {id: alaska, patch: true, name: Alyeska}\n")
    rc, out = run("validate", str(pack))
    assert rc == 0 and "0 errors, 0 warnings" in out, out  # nothing dropped: no X509
    rc, out = run("show", "risk-legacy", "board", "--format", "json", "--pack", str(pack))
    first = json.loads(out)["territories"][0]
    assert first["id"] == "alaska" and first["name"] == "Alyeska" and first["regions"] == ["north-america"], first
    assert "kamchatka" in first["neighbors"]
    rc, out = run("show", "risk-legacy", "cards", "--pack", str(pack))
    assert "  Alyeska [alaska-card]" in out and out.index("Alyeska") < out.index("[alberta-card]"), out
    # a card the pack names itself keeps its name
    pack.write_text("pack: {id: renamed, title: Renamed, extends: risk-legacy}\n"
                    "territories:\n  - {id: alaska, patch: true, name: Alyeska}\n"
                    "cards:\n  - {id: alaska-card, patch: true, name: Seward's Folly}\n")
    rc, out = run("show", "risk-legacy", "cards", "--pack", str(pack))
    assert "  Seward's Folly [alaska-card], 1 resources" in out and "Alyeska" not in out, out
    # replace keeps its meaning: the whole item, with X509 for what it drops; its card follows the name too
    pack.write_text("pack: {id: renamed, title: Renamed, extends: risk-legacy}\n"
                    "territories:\n  - {id: alaska, replace: true, name: Alyeska, regions: [north-america]}\n")
    rc, out = run("validate", str(pack))
    assert "warning X509" in out, out
    rc, out = run("show", "risk-legacy", "cards", "--pack", str(pack))
    assert "  Alyeska [alaska-card]" in out, out


def test_a_card_named_after_its_territory_follows_a_rename(tmp_path: Path) -> None:
    game = tmp_path / "isle.yaml"
    game.write_text("game: {id: isle, title: Isle, legacy: true, players: {min: 2, max: 2}}\n"
                    "regions:\n  - {id: sea, name: Sea, bonus: 1}\n"
                    "territories:\n  - {id: cove, name: Cove, regions: [sea], neighbors: [cape]}\n"
                    "  - {id: cape, name: Cape, regions: [sea], neighbors: [cove]}\n"
                    "decks:\n  - {id: isles, name: Isle cards, card_type: territory, count: 2}\n"
                    "cards:\n  - {id: cove-card, deck: isles, type: territory, name: Cove card, territory: cove}\n"
                    "  - {id: cape-card, deck: isles, type: territory, name: The Lookout, territory: cape}\n")
    pack = tmp_path / "names.yaml"
    pack.write_text("pack: {id: names, title: Names, extends: isle}\n"
                    "territories:\n  - {id: cove, patch: true, name: Smugglers Cove}\n"
                    "  - {id: cape, patch: true, name: Cape Storm}\n")
    rc, out = run("validate", str(game), str(pack))
    assert rc == 0 and "0 errors" in out, out
    rc, out = run("show", str(game), "cards", "--pack", str(pack))
    assert "Smugglers Cove card [cove-card]" in out, out
    assert "The Lookout [cape-card]" in out, out  # not derived from the territory's name: unchanged


@pytest.mark.parametrize(("items", "code", "message"), [
    ("territories:\n  - {id: alaska, patch: true, replace: true, name: Alyeska}\n", "X513",
     "'alaska' says both 'patch: true' and 'replace: true'"),
    ("territories:\n  - {id: atlantis, patch: true, name: Atlantis}\n", "X514",
     "'atlantis' patches nothing: the base game has no such id"),
    ("regions:\n  - {id: alaska, patch: true, bonus: 3}\n", "X503",
     "'alaska' patches a territory of the base game with a region; patch it in 'territories'"),
])
def test_patch_refusals(tmp_path: Path, items: str, code: str, message: str) -> None:
    pack = tmp_path / "bad.yaml"
    pack.write_text("pack: {id: bad, title: Bad, extends: risk-legacy}\n" + items)
    rc, out = run("validate", str(pack))
    assert rc == 1 and f"error {code}: {message}" in out, out


@pytest.mark.parametrize(("links", "far", "near", "why"), [
    ("within: 2", "stone-hill", "reed-bay", "frost-peak and stone-hill are more than 2 steps apart"),
    ("same_region: true", "reed-bay", "stone-hill", "frost-peak and reed-bay are not in the same region"),
    ("same_region: false", "stone-hill", "reed-bay", "frost-peak and stone-hill are both in highlands"),
])
def test_a_line_checks_its_pair_and_cites_the_stickers_rule(folders: tuple[Path, Path], links: str, far: str,
                                                            near: str, why: str) -> None:
    root, ledgers = folders
    pack = root / "packs" / "short-bridges.yaml"
    pack.write_text("pack: {id: short-bridges, title: Short bridges, extends: bridge-isles}\n"
                    "stickers:\n"
                    f"  - {{id: bridge, patch: true, links: {{each: 1, kind: land, {links},"
                    " cite: house rule § Short bridges}}\n")
    ledger = ledgers / "short.yaml"
    assert run("campaign", "new", str(ledger), "--game", str(root / "games" / "bridge-isles"), "-p", "Ann",
               "-p", "Bob", "--pack", str(pack))[0] == 0
    c = ("-c", str(ledger))
    assert run("campaign", "game", "start", "--play", "Ann=gulls", "--play", "Bob=crabs", *c)[0] == 0
    assert run("campaign", "game", "end", "--winner", "Ann", *c)[0] == 0
    out = refused(ledger, "R345", "campaign", "place", "bridge", "frost-peak", "--to", far, "--by", "Ann", *c)
    assert why in out and "house rule § Short bridges" in out, out
    # placed first, then the line: the same check
    assert run("campaign", "place", "bridge", "frost-peak", "--by", "Ann", *c)[0] == 0
    out = refused(ledger, "R345", "campaign", "link", "bridge", "frost-peak", far, "--by", "Ann", *c)
    assert why in out and "house rule § Short bridges" in out, out
    rc, out = run("campaign", "link", "bridge", "frost-peak", near, "--by", "Ann", *c)
    assert rc == 0, out
    rc, out = run("campaign", "check", *c)
    assert rc == 0 and "all legal" in out, out


def test_where_and_the_tables_show_which_territories_offer_a_slot_or_tag(folders: tuple[Path, Path]) -> None:
    root, ledgers = folders
    game = root / "games" / "bridge-isles"
    rc, out = run("tables", str(game), "--format", "md")
    assert rc == 0 and "| lighthouse slot | slot | Salt Marsh, Reed Bay |" in out, out
    assert "| coastal | tag | Salt Marsh, Reed Bay |" in out, out
    rc, out = run("tables", "risk-legacy", "--format", "md")
    assert rc == 0 and "Slots and tags" not in out  # every territory takes the same stickers
    pack = root / "packs" / "cairns.yaml"
    pack.write_text("pack: {id: cairns, title: Cairns, extends: bridge-isles}\n"
                    "stickers:\n  - {id: cairn, name: Cairn, kind: cairn, targets: [territory], supply: 2,\n"
                    "     checks: [{check: target-tagged, tag: coastal, absent: true, cite: house rule § Cairn}]}\n")
    ledger = ledgers / "w.yaml"
    assert run("campaign", "new", str(ledger), "--game", str(game), "-p", "Ann", "-p", "Bob",
               "--pack", str(pack))[0] == 0
    rc, out = run("campaign", "where", "lighthouse", "--format", "json", "-c", str(ledger))
    assert json.loads(out)["offered_by"] == {"lighthouse slot": ["salt-marsh", "reed-bay"]}, out
    rc, out = run("campaign", "where", "cairn", "--format", "json", "-c", str(ledger))
    assert json.loads(out)["offered_by"] == {"not coastal": ["frost-peak", "stone-hill"]}, out


def test_a_sticker_that_cuts_an_edge_keeps_the_board_connected(folders: tuple[Path, Path]) -> None:
    root, ledgers = folders
    game = root / "games" / "bridge-isles"
    pack = root / "packs" / "rockfall.yaml"
    pack.write_text("pack: {id: rockfall, title: Rockfall, extends: bridge-isles}\n"
                    "edges:\n  - [frost-peak, stone-hill]\n"
                    "stickers:\n  - {id: rockfall, name: Rockfall, kind: rockfall, targets: [territory], supply: 2,\n"
                    "     links: {each: 1, cuts: true, text: Cross out one edge of the isle.,\n"
                    "             cite: house rule § Rockfall}}\n")
    ledger = ledgers / "w.yaml"
    assert run("campaign", "new", str(ledger), "--game", str(game), "-p", "Ann", "-p", "Bob",
               "--pack", str(pack))[0] == 0
    c = ("-c", str(ledger))
    out = refused(ledger, "R341", "campaign", "place", "rockfall", "frost-peak", "--to", "reed-bay", *c)
    assert "frost-peak and reed-bay are not neighbours" in out and "house rule § Rockfall" in out, out
    rc, out = run("campaign", "place", "rockfall", "frost-peak", "--to", "salt-marsh", *c)
    assert rc == 0 and "rockfall on frost-peak, cut from salt-marsh" in out, out
    rc, out = run("show", str(game), "board", "--format", "json", "--campaign", str(ledger))
    neighbors = {t["id"]: t["neighbors"] for t in json.loads(out)["territories"]}
    assert neighbors["frost-peak"] == ["stone-hill"] and "frost-peak" not in neighbors["salt-marsh"], neighbors
    rc, out = run("campaign", "status", "--format", "json", *c)
    data = json.loads(out)
    assert data["cuts"] == [{"sticker": "rockfall", "between": ["frost-peak", "salt-marsh"]}] and not data["lines"]
    rc, out = run("campaign", "status", *c)
    assert "Edges cut: frost-peak - salt-marsh (rockfall)" in out, out
    # the board is a line now: any further cut would split it
    out = refused(ledger, "R217", "campaign", "place", "rockfall", "reed-bay", "--to", "stone-hill", *c)
    assert "cutting reed-bay - stone-hill would cut" in out and "off the rest of the board" in out, out
    assert "house rule § Rockfall" in out, out
    rc, out = run("campaign", "check", *c)
    assert rc == 0 and "all legal" in out, out
