"""Cards worth printing (issue 10 item 5): a territory card shows where its territory is on a locator
map and its coins as icons; faction cards show their powers, and a record card per faction a grid of
games to fill in; with `build --campaign` the cards show the campaign (upgraded coins, destroyed card
marked, the chosen power, the records filled in)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, play_once, run_script
from campaigns.shared import shipped_build
from typer.testing import CliRunner

from conftest import pdftotext
from scarbook.cli.main import app
from scarbook.compiler.boardmap import locator_spots, locator_svg
from scarbook.compiler.render.html import card_sheets_html
from scarbook.compiler.sheets import card_sheets, printable_cards
from scarbook.compiler.validate import load_game


@pytest.fixture(autouse=True)
def _no_env_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCARBOOK_CAMPAIGN", raising=False)


def _html(game_id: str = "risk-legacy") -> str:
    game = load_game(game_id)
    html, _ = card_sheets_html(game.title, card_sheets(printable_cards(game), "a4"), "a4", locator_svg(game))
    return html


def test_every_territory_card_highlights_its_own_territory_on_one_shared_map() -> None:
    game = load_game("risk-legacy")
    html = _html()
    located = re.findall(r'data-locator="([^"]+)"><img src="([^"]+)" alt=""><i class="hl (q\d+)">', html)
    assert {t for t, _, _ in located} == set(game.section("territories"))
    assert len({url for _, url, _ in located}) == 1  # one picture for the whole deck
    spots = locator_spots(game)
    classes = dict(re.findall(r"\.(q\d+) \{ (left: [\d.]+%; top: [\d.]+%) \}", html))
    for tid, _, cls in located:
        x, y = spots[tid]
        assert classes[cls] == f"left: {x:.2f}%; top: {y:.2f}%"
    assert 'data-coins="1"><i class="coin"></i>' in html


def test_faction_cards_show_powers_and_a_record_grid() -> None:
    html = _html()
    assert "Fortified HQ" in html and "Double-six shield" in html
    assert html.count('data-record="15"') == 5  # 5 factions, 15 rewarded games


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = {}
    tmp = tmp_path_factory.mktemp("cards")
    # `scarbook build` of the shipped games (A4, the default paper), made once per run (campaigns/shared.py)
    out["plain"] = pdftotext(shipped_build("a4") / "risk-legacy" / "cards.pdf")
    file = tmp / "world.yaml"
    failures = play_once(SETUP + START + "\ngame end --winner Ann --held-on Bob --eliminated Cat\n"
                          "destroy japan --by Ann\n", file)
    assert not failures, failures
    result = CliRunner().invoke(app, ["build", "--campaign", str(file), "--only", "cards", "--out", str(tmp / "c")])
    assert result.exit_code == 0, result.output
    out["campaign"] = pdftotext(tmp / "c" / "risk-legacy" / "cards.pdf")
    return out


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.slow
def test_printed_territory_and_faction_cards(built: dict[str, str]) -> None:
    """Slow (its fixture waits for the shipped games' build on A4, once per run): the printed territory and faction
    cards of Risk Legacy without a campaign."""
    text = _words(built["plain"])
    assert "Alaska" in text and "1 resource" in text
    assert "upgraded (+" not in text and "DESTROYED" not in text
    assert "Fortified HQ" in text and "Keep 1 of these" in text
    assert "Game Player Start Result" in text and "FACTION RECORD" in text


def test_campaign_build_shows_upgrades_destroyed_card_chosen_power_and_records(built: dict[str, str]) -> None:
    text = _words(built["campaign"])
    assert "3 resources · upgraded (+2)" in text  # alaska: two coins placed in the setup
    assert "DESTROYED" in text  # japan's card, destroyed by the winner
    assert "★ Fortified HQ" in text and "(destroyed)" in text  # die mechaniker kept its HQ power
    assert re.search(r"\b1 Ann\b.{0,40}?winner", text)  # Khan Industries' record: game 1, Ann, won
    assert re.search(r"\b1 Cat\b.{0,40}?eliminated", text)


def test_a_destroyed_card_is_still_printed_stamped_destroyed_with_campaign_only(tmp_path: Path) -> None:
    """Intended behaviour (README § Building the printables): a `--campaign` card sheet prints every card of
    the deck, a destroyed one stamped DESTROYED across its face (the sheet stays a record of the whole deck);
    only the destroyed card carries the stamp, and a build without a campaign never does."""
    from conftest import ROOT
    from scarbook.campaign.service.reading import campaign_game

    file = tmp_path / "world.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --held-on Bob --eliminated Cat\n"
                          "destroy japan --by Ann\n", file)
    game = campaign_game(file, [])
    html, _ = card_sheets_html(game.title, card_sheets(printable_cards(game), "a4"), "a4", locator_svg(game))
    fronts = re.findall(r'<div class="c front[^"]*"( data-destroyed="true")?>(.*?)</div>\s*</div>\s*</div>', html,
                        re.S)
    stamped = [body for flag, body in fronts if flag]
    assert len(stamped) == 1 and "Japan" in stamped[0] and "DESTROYED" in stamped[0]
    assert html.count(">DESTROYED<") == 1
    assert "Japan" in _html() and "DESTROYED" not in _html()
    readme = " ".join((ROOT / "README.md").read_text("utf-8").split())
    assert "stamped DESTROYED" in readme


def test_scar_cards_show_the_sticker_they_place(built: dict[str, str], tmp_path: Path) -> None:
    """Issue 10 item 5: each scar card shows its scar sticker: an icon like the board's marks, the sticker's
    printed name and its effect; a sealed scar's card (and its sticker) only once its packet is opened."""
    import base64

    from scarbook.campaign.service.reading import campaign_game

    base = load_game("risk-legacy").effective()  # as a build without a campaign prints it: nothing sealed
    html, _ = card_sheets_html(base.title, card_sheets(printable_cards(base), "a4"), "a4", locator_svg(base))
    shown = re.findall(r'<div class="stk" data-sticker="([^"]+)"><img src="data:image/svg\+xml;base64,([^"]+)" '
                       r'alt=""><b>([^<]+)</b><br><small>([^<]+)</small></div>', html)
    assert {(s, name) for s, _, name, _ in shown} == {("bunker", "Bunker"), ("ammo-shortage", "Ammo Shortage")}
    assert len(shown) == 6  # 3 copies of each card
    effects = {s: effect for s, _, _, effect in shown}
    assert effects["bunker"] == "The defender in this territory adds 1 to its higher die."
    icon = base64.b64decode(shown[0][1]).decode()
    assert icon.startswith("<svg") and 'stroke="#b01818"' in icon  # the scar's jagged slash, as on the board
    assert "Bio-Hazard" not in html and "Mercenary" not in html  # still sealed
    lines = [ln.strip() for ln in built["plain"].splitlines()]  # the sticker's name, then its effect beneath
    assert any(a.startswith("Bunker") and b.startswith("The defender in this territory adds 1")
               for a, b in zip(lines, lines[1:], strict=False))
    file = tmp_path / "world.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --held-on Bob --eliminated Cat\n"
                          "place continent-plus-one asia --by Ann\nplace coin peru --by Bob\n"
                          "open faction-eliminated\n", file)
    game = campaign_game(file, [])
    opened, _ = card_sheets_html(game.title, card_sheets(printable_cards(game), "a4"), "a4", locator_svg(game))
    assert opened.count('data-sticker="mercenary"') == 3 and "gains 1 troop there at the end of their turn" in opened
