"""Every Risk Legacy rule on permanent changes, legal and illegal, through the CLI; a whole campaign.

Scripts live in tests/campaigns/: each line is a `scarbook campaign` command, and `!CODE` lines
must be refused with that code, leaving the file byte-for-byte unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script, script

from conftest import check_golden, refused, snapshot


@pytest.fixture(autouse=True)
def _no_env_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)


REFUSALS: list[str] = []  # every refused line of the 15-game script with what it printed, filled by full_campaign


@pytest.fixture(scope="module")
def full_campaign(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # played with the cache folder the tests then read (conftest._isolated_cache's), whatever
    # SCARBOOK_CACHE the suite was started with: a test below asserts the cache entry it left
    mp = pytest.MonkeyPatch()
    mp.setenv("SCARBOOK_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
    file = tmp_path_factory.mktemp("full") / "world.yaml"
    REFUSALS.clear()  # a second pytest run in the same process (mutmut) fills it anew
    failures = run_script(script("risk-legacy-15.txt"), file, refusals=REFUSALS)
    mp.undo()
    assert not failures, "\n".join(failures)
    yield file


def status(file: Path) -> dict:
    result = invoke(["status", "--format", "json"], file)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.slow
def test_whole_fifteen_game_campaign_is_legal_and_checks_clean(full_campaign: Path) -> None:
    """Slow (the fixture plays the 15-game script itself, every write filling the cache append by append): the
    whole Risk Legacy script is legal, each refusal as scripted, and `check` of the end state is clean."""
    result = invoke(["check"], full_campaign)
    assert result.exit_code == 0, result.output
    assert "all legal" in result.output


def test_every_refusal_of_the_fifteen_games_word_for_word(full_campaign: Path) -> None:
    check_golden("risk-legacy-15.refusals.txt", "".join(REFUSALS))


def test_cached_events_and_the_fold_without_checks_match_a_fresh_replay(full_campaign: Path) -> None:
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.ledger.file import parse

    cached, fresh = read(full_campaign), parse(full_campaign.read_text(), full_campaign)
    assert cached.verified  # its cache entry was built append by append
    assert [(e, e.span, e.index) for e in cached.events] == [(e, e.span, e.index) for e in fresh.events]
    campaign = Campaign(fresh)
    checked, folded = campaign.replay(), campaign.replay(check=False)
    assert not checked.problems and (checked.checked, folded.checked) == (len(fresh.events), 0)
    assert folded.state == checked.state and folded.packs == checked.packs


def test_signatures_missiles_red_star_and_overall_winner(full_campaign: Path) -> None:
    data = status(full_campaign)
    players = {p["name"]: p for p in data["players"]}
    assert (players["Ann"]["signatures"], players["Bob"]["signatures"], players["Cat"]["signatures"]) == (6, 5, 4)
    # the content's formulas: one missile per signature, a Red Star token only while unsigned
    assert players["Ann"]["tokens"] == {"missile": 6, "red-star": 0}
    assert data["token_names"]["missile"] == {"name": "missile", "plural": "missiles"}
    # the transcription lacks the Completed World section: no overall-winner rule is declared, none is guessed
    assert data["overall_winner"] is None
    assert data["games_played"] == 16
    assert len(data["signatures"]) == 15  # game 16 gives no signature


def test_state_after_the_campaign(full_campaign: Path) -> None:
    data = status(full_campaign)
    regions = {r["id"]: r for r in data["continents"]}
    assert regions["south-america"]["name"] == "Awesometonia" and regions["south-america"]["named_by"] == "Bob"
    assert regions["europe"]["bonus"] == 6 and regions["asia"]["bonus"] == 6
    cities = {c["territory"]: c for c in data["cities"]}
    assert cities["great-britain"]["name"] == "Sunny Glasgow" and cities["great-britain"]["sticker"] == "major-city"
    assert sum(c["sticker"] == "minor-city" for c in data["cities"]) == 9
    assert data["destroyed_cards"] == ["japan-card"]
    cards = {c["card"]: c["resources"] for c in data["resources"]}
    assert cards["alaska-card"] == 4 and cards["egypt-card"] == 5
    scars = next(g for g in data["mark_groups"] if g["id"] == "scars")  # the game's own group (`game: marks:`)
    assert scars["title"] == "scar" and {m["target"]: m["cancelled"] for m in scars["marks"]} == {"greenland": True}
    assert set(data["opened_packets"]) == {"faction-eliminated", "second-signature", "nine-minor-cities"}
    assert data["pending_packets"] == []
    factions = {f["id"]: f for f in data["factions"]}
    assert factions["khan-industries"]["history"][0] == {"game": 1, "player": "Ann", "start": "alberta",
                                                        "result": "winner"}
    assert factions["enclave-of-the-bear"]["history"][0]["result"] == "not played"
    assert factions["die-mechaniker"]["history"][0]["result"] == "eliminated"
    assert factions["die-mechaniker"]["power"] == "die-mechaniker-fortified-hq"


def test_legal_starting_territories(full_campaign: Path) -> None:
    players = {p["name"]: p for p in status(full_campaign)["players"]}
    assert "great-britain" in players["Ann"]["legal_starts"]  # her major city (even fortified)
    assert "great-britain" not in players["Bob"]["legal_starts"]
    assert "ontario" not in players["Bob"]["legal_starts"]  # a minor city is a mark
    assert "greenland" in players["Bob"]["legal_starts"]  # the scar was cancelled


def _play(tmp_path: Path, text: str) -> list[str]:
    return run_script(SETUP + text, tmp_path / "c.yaml")


RULES = {
    "at most 6 resources per territory card": START + """
game end --winner Ann --held-on Bob --held-on Cat
place major-city peru --by Ann --name Lima
place coin alaska --by Bob
place coin alaska --by Cat
""" + START + """
game end --winner Ann --held-on Bob --held-on Cat
place continent-name europe --by Ann --name Eurasia
place coin alaska --by Bob
!R212 place coin alaska --by Cat
place coin brazil --by Cat
""",
    "held-on players take one reward each": START + """
game end --winner Ann --held-on Bob --held-on Cat
place minor-city ontario --by Bob --name Toronto
!R207 place coin ontario --by Bob
!R205 place coin ontario --by Ann
place coin peru --by Cat
place fortification ontario
""",
    "who a reward is for is inferred when only one player can take it": START + """
game end --winner Ann --held-on Bob --eliminated Cat
place major-city peru --name Lima
place coin peru
""",
    "rewards limited to territories controlled at the end when recorded": START + """
game end --winner Ann --held-on Bob --held-on Cat --controlled Bob=peru,brazil
place major-city argentina --by Ann --name BA
!R216 place minor-city ontario --by Bob --name Toronto
place minor-city peru --by Bob --name Lima
place coin ontario --by Cat
""",
    "refortifying replaces the boxes left": START + """
game end --winner Ann
place major-city peru --by Ann --name Lima
place coin alberta --by Bob
place coin alberta --by Cat
""" + START + """
!R320 tick peru
game end --winner Ann
place fortification peru --by Ann
place coin ontario --by Bob
place coin ontario --by Cat
!R310 """ + START + """
open second-signature
place rules-addition-f rules-addition-f
""" + START + """
tick peru --boxes 3
!R320 tick peru --boxes 8
game end --winner Ann
place fortification peru --by Ann
place coin greenland --by Bob
place coin greenland --by Cat
""",
    "scars: one per territory, on the defending territory only, never on a faction card": START + """
place bunker peru --by Ann
!R238 place ammo-shortage brazil --by Ann
!R202 place ammo-shortage peru --by Bob
!R102 place ammo-shortage die-mechaniker
!R102 place bunker die-mechaniker
place ammo-shortage brazil --by Bob
!R310 place mercenary brazil
game end --winner Ann --eliminated Cat
place scar-cancel peru --by Ann
!R204 place scar-cancel peru --by Ann
place coin peru --by Bob
open faction-eliminated
place rules-addition-e rules-addition-e
""" + START + """
place mercenary peru --by Cat
""",
    "game start and end bookkeeping": """
!R302 game end --winner Ann
!R104 game start --play Zed=khan-industries --play Bob=saharan-republic --play Cat=die-mechaniker
!R303 game start --play Ann=khan-industries --play Bob=khan-industries --play Cat=die-mechaniker
!R303 game start --play Ann=no-such --play Bob=saharan-republic --play Cat=die-mechaniker
!R306 game start --play Ann=khan-industries --play Bob=saharan-republic
""" + START + """
!R307 game end --winner Zed
!R307 game end --winner Ann --eliminated Ann
game end --winner Ann
""",
}


@pytest.mark.parametrize("name", list(RULES))
def test_rule(tmp_path: Path, name: str) -> None:
    failures = _play(tmp_path, RULES[name])
    assert not failures, "\n".join(failures)


def test_refortify_boxes(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + RULES["refortifying replaces the boxes left"], file)
    forts = status(file)["fortifications"]
    assert forts == [{"territory": "peru", "sticker": "fortification", "boxes": 10, "left": 10}]


def test_sealed_content_stays_hidden_until_opened(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --eliminated Cat\n", file)
    before = invoke(["status", "--format", "json"], file).stdout
    assert "mercenary" not in before and "bio-hazard" not in before
    assert json.loads(before)["pending_packets"] == ["faction-eliminated"]
    assert "faction-eliminated" in invoke(["status"], file).stdout
    refused(invoke(["place", "mercenary", "peru"], file), "R310", file_before=snapshot(file))
    result = invoke(["open", "faction-eliminated"], file)
    assert result.exit_code == 0, result.output
    after = invoke(["status", "--format", "json"], file).stdout
    assert "mercenary" in after and "bio-hazard" not in after


def test_command_says_which_packet_to_open(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START, file)
    result = invoke(["game", "end", "--winner", "Ann", "--eliminated", "Cat"], file)
    assert result.exit_code == 0
    assert "open the sealed packet now: faction-eliminated" in result.output


def test_world_capital_asks_for_its_packet(tmp_path: Path) -> None:
    """The mark is sealed in the packet for a second signature (test_risk_legacy_printed has the rest)."""
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP, file)
    result = invoke(["place", "world-capital", "peru"], file)
    refused(result, "R310", file_before=snapshot(file))
    assert "second-signature" in result.output


def test_open_with_a_pack_merges_it(tmp_path: Path) -> None:
    pack = tmp_path / "packet"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "pack: {id: eliminated-packet, title: Eliminated packet, extends: risk-legacy}\n"
        "stickers:\n"
        "  - id: homebrew-mark\n    name: Homebrew mark\n    kind: mark\n    targets: [territory]\n"
        "    supply: 2\n    checks:\n      - {check: supply-left, cite: 'our packet'}\n", "utf-8")
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --eliminated Cat\n", file)
    refused(invoke(["place", "homebrew-mark", "peru"], file), "R101", file_before=snapshot(file))
    result = invoke(["open", "faction-eliminated", "--pack", str(pack)], file)
    assert result.exit_code == 0, result.output
    assert "pack: packet" in file.read_text()
    assert not run_script("place major-city peru --by Ann --name Lima\nplace homebrew-mark peru\n"
                          "place homebrew-mark peru\n!R201 place homebrew-mark brazil", file)


def test_open_with_a_bad_pack_is_refused(tmp_path: Path) -> None:
    pack = tmp_path / "bad"
    pack.mkdir()
    (pack / "pack.yaml").write_text("pack: {id: bad, title: Bad, extends: risk-legacy}\nstickers:\n"
                                    "  - {id: x, name: X, targets: [nowhere]}\n", "utf-8")
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --eliminated Cat\n", file)
    before = file.read_bytes()
    result = invoke(["open", "faction-eliminated", "--pack", str(pack)], file)
    refused(result, "S010", file_before=(file, before))


def test_where_lists_legal_targets(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --held-on Bob --held-on Cat "
                          "--controlled Bob=peru,brazil\n", file)
    result = invoke(["where", "minor-city", "--by", "Bob"], file)
    assert result.exit_code == 0 and result.stdout.split() == ["peru", "brazil"]
    assert invoke(["where", "coin", "--by", "Ann"], file).stdout == ""
    targets = json.loads(invoke(["where", "continent-name", "--format", "json"], file).stdout)["targets"]
    assert len(targets) == 6


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START, file)
    before = file.read_bytes()
    result = invoke(["place", "bunker", "AlAsKa", "--by", "Ann", "--dry-run"], file)
    assert result.exit_code == 0 and "legal" in result.output
    assert file.read_bytes() == before


def test_refusal_format(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --eliminated Bob --eliminated Cat\n"
                          "place major-city alaska --by Ann --name X\nopen faction-eliminated\n"
                          "place rules-addition-e rules-addition-e\n"
                          + START + "\ngame end --winner Ann --eliminated Bob --eliminated Cat\n", file)
    result = invoke(["place", "major-city", "alaska", "--by", "Ann", "--name", "Y"], file)
    refused(result, "R210", file_before=snapshot(file))
    assert ("error R210: alaska already has a city (major-city 'X') (a Major City goes only where no city "
            "stands; Risk Legacy rulebook § If you won)") in result.output
