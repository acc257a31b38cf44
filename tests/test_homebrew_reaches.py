"""Behaviours only homebrew content reaches (issue 38, items 12 and 14): no shipped game sets these options, so
each is tried here on Option Isles (tests/test_homebrew_options.py), both ways, through the CLI.

Each test names the slip it catches (checked by planting it): a `next-to` check on a card (the card's territory
looked up), a co-op campaign on chapters won lost once it cannot win, one on games won counting the game in
progress as still to win, a threshold obligation's sticker asked for again once covered, the game's own word for
"try", `diff` over a range in which a mark was placed and cancelled, plurals of the game's words, a packet open
from the start never listed as sealed, the aid's "nothing has changed yet"; and item 12's remnants: setup one on
every target honours the sticker's own targets, a covered setup claim does not block game 2, the player count at
`campaign new`, ids shaped like `s02`, a play without `--type` in a game with several types.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from test_homebrew_options import CITE, PLAY, _sticker, both, campaign, do, no, run, status, write_game
from typer.testing import CliRunner

from scarbook.cli.main import app


def isle_cards(data: dict[str, Any]) -> None:
    """A deck of isle cards, one per isle, each naming its territory."""
    data["decks"].append({"id": "isle-cards", "name": "Isle cards", "card_type": "isle", "count": 3})
    data["cards"] += [{"id": f"{t}-card", "deck": "isle-cards", "name": f"{t.upper()} card", "territory": f"{t}-isle"}
                      for t in ("a", "b", "c")]


def add(*stickers: dict[str, Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["stickers"] += list(stickers)
    return edit


# --- a next-to check whose target is a card --------------------------------------------------------------
BEACON = _sticker("beacon", "beacon", ["isle-card"], checks=[{"check": "next-to", "kind": "coin", "cite": CITE}])
LAMP = _sticker("lamp", "lamp", ["isle-card"], checks=[{"check": "when", "cite": CITE, "when": {
    "count": {"sticker": "coin", "next_to": "target"}, "at_least": 1}}])


def test_next_to_on_a_card_looks_up_the_cards_territory(tmp_path: Path) -> None:
    """Slip: the card's `territory` not read (every card refused) or the card itself taken as the territory."""
    file = campaign(tmp_path, both(isle_cards, add(BEACON, LAMP)))
    do(file, "place coin a-isle")
    do(file, "place beacon b-card --dry-run", "place lamp b-card --dry-run")  # b-isle is next to a-isle
    no(file, "place beacon c-card", "R250", "c-isle is not next to a territory that holds a coin (its neighbours: "
       "b-isle)")
    no(file, "place lamp c-card", "R241", "coin next to c-card: 0; at least 1 needed")


# --- co-op campaigns scored on chapters won / games won ----------------------------------------------------
def coop(count: str, at_least: int, chapters: bool = True) -> Any:
    def edit(data: dict[str, Any]) -> None:
        camp = data["game"]["campaign"]
        camp["team"] = True
        camp["game_types"][0]["steps"] = []
        if chapters:
            camp["chapters"] = {"name": "month", "plural": "months", "count": 3, "tries": 2, "again_after": "lost",
                                "try_word": "attempt", "cite": CITE}
        camp["overall_winner"] = {"team": True, "count": count, "at_least": at_least, "cite": CITE}
    return edit


def result(file: Path) -> Any:
    return status(file)["overall_winner"]["result"]


def test_a_campaign_on_chapters_won_is_lost_once_it_cannot_win(tmp_path: Path) -> None:
    """Two of three months must be won. Month 1 lost twice (over), month 2 lost once: month 2's second try and
    month 3 can still win it. Month 2 lost again: only month 3 is left, one short. Slip: the chapters still to
    play counted from the games played (declared lost a game early), or never declared lost."""
    file = campaign(tmp_path, coop("chapters-won", 2))
    for _ in range(3):
        do(file, PLAY, "game end --team lost")
        assert result(file) is None
    do(file, PLAY, "game end --team lost")
    assert result(file) == "lost"
    assert "lost" in run(file, "status").output.splitlines()[-1]


def test_a_campaign_on_chapters_won_is_won_at_its_threshold(tmp_path: Path) -> None:
    file = campaign(tmp_path, coop("chapters-won", 2))
    do(file, PLAY, "game end --team won")
    assert result(file) is None
    do(file, PLAY, "game end --team won")
    assert result(file) == "won"


def test_a_campaign_on_games_won_counts_the_game_in_progress_as_still_to_win(tmp_path: Path) -> None:
    """Six games, four to win: two lost leave four, so it is open while the fourth... is played; a third loss
    loses it. Slip: the game in progress counted as played (lost while it could still be won)."""
    file = campaign(tmp_path, coop("games-won", 4, chapters=False))
    do(file, PLAY, "game end --team lost", PLAY, "game end --team lost", PLAY)
    assert result(file) is None  # games 3 to 6 could all still be won: game 3 is in progress, not lost
    do(file, "game end --team won")
    assert result(file) is None
    do(file, PLAY, "game end --team lost")
    assert result(file) == "lost"


def test_the_games_own_word_for_a_try(tmp_path: Path) -> None:
    """Slip: 'try' written instead of the game's `try_word`."""
    file = campaign(tmp_path, coop("chapters-won", 2))
    do(file, PLAY, "game end --team lost", PLAY)
    out = run(file, "status").output
    assert "Month 1, attempt 2 of 2 (in progress)" in out, out
    assert "try" not in out.lower().replace("entry", "")
    assert status(file)["chapter"]["try_word"] == "attempt"


# --- an obligation on a threshold, its sticker covered -------------------------------------------------------
def threshold(data: dict[str, Any]) -> None:
    data["cards"][0]["stats"] = {"panic": 0}
    data["stickers"] += [_sticker("panic", "panic", ["hero-card"], adds={"panic": 2}),
                         _sticker("fallen", "fallen", ["hero-card"], slot="scar"),
                         _sticker("rebuilt", "rebuilt", ["hero-card"], slot="scar", covers=["fallen"])]
    data["game"]["campaign"]["owed_when"] = [{"id": "falls", "targets": "hero-card", "field": "panic", "at_least": 4,
                                              "place": "fallen", "text": "a hero at panic 4 falls", "cite": CITE}]


def test_a_threshold_obligation_asks_again_once_its_sticker_is_covered(tmp_path: Path) -> None:
    """Kai reaches panic 4: a Fallen is owed. Placed, nothing is owed; covered by a Rebuilt while Kai is still at
    panic 4, it is owed again (the rule asks for an active one). Slip: any mark, covered or not, taken as placed."""
    file = campaign(tmp_path, threshold)
    do(file, "place panic kai", "place panic kai")
    no(file, PLAY, "R316", "kai has 4 panic: a Fallen is owed there")
    do(file, "place fallen kai", PLAY, "game end --winner Ann", "place crown a-isle --by Ann")
    do(file, "place rebuilt kai")
    assert [o["target"] for o in status(file)["owed"]] == ["kai"]
    no(file, PLAY, "R316", "kai has 4 panic")
    do(file, "place fallen kai", PLAY)


# --- diff over a range where a mark was placed and cancelled -------------------------------------------------
def test_diff_tells_a_mark_placed_and_cancelled_in_its_range(tmp_path: Path) -> None:
    """Slip: a mark cancelled in the range told only as cancelled (never as placed), or not at all."""
    file = campaign(tmp_path)
    do(file, PLAY, "game end --winner Ann", "place crown a-isle --by Ann", "place ruin a-isle --by Bob")
    out = run(file, "diff 0").output
    changed = out.split("What changed:\n", 1)[1].splitlines()
    assert "  mark: Crown placed on A Isle" in changed, out
    assert "  mark: Crown on A Isle cancelled" in changed, out
    data = run(file, "diff 0 --format json").output
    assert '"marks_placed"' in data and '"marks_cancelled"' in data


# --- plurals of the game's own words ----------------------------------------------------------------------
def test_the_games_words_are_made_plural_in_its_outputs(tmp_path: Path) -> None:
    """A game that calls its regions valleys and its marks 'coin (its value)': status says 'valleys' and the
    parenthesis stays after the plural. Slip: a hand-written rule ('valleies'), or the parenthesis pluralised."""
    from scarbook.compiler.words import plural, plural_of

    assert plural_of("valley") == "valleys" and plural(2, "valley") == "2 valleys"
    assert plural_of("coin (its value)") == "coins (its value)"

    def valleys(data: dict[str, Any]) -> None:
        data["game"]["words"] = {"region": "valley"}
        data["regions"].append({"id": "south", "name": "South", "bonus": 1})

    file = campaign(tmp_path, valleys)
    out = run(file, "status").output
    assert "Valleys:" in out and "Regions" not in out, out


# --- a packet open from the start -----------------------------------------------------------------------------
def test_a_packet_open_from_the_start_is_never_listed_as_sealed(tmp_path: Path) -> None:
    """Slip: `opened_at_start` ignored by the sheet (the packet shown 'sealed' although it never was)."""
    def packets(data: dict[str, Any]) -> None:
        data["envelopes"] = [
            {"id": "satchel", "name": "Satchel", "contents": [], "opened_at_start": True,
             "trigger": {"text": "open from the start"}},
            {"id": "vault", "name": "Vault", "contents": [], "trigger": {"text": "open with a crown",
                                                                           "when": {"held": "crown"}}}]

    file = campaign(tmp_path, packets)
    out = tmp_path / "sheet.html"
    assert run(file, f"sheet --format html --out {out}").exit_code == 0
    page = out.read_text("utf-8")
    rows = re.findall(r"<tr><td class=\"nowrap\">([^<]*)</td><td>sealed</td>", page)
    assert rows == ["Vault"], rows


# --- the aid's "nothing has changed yet" -----------------------------------------------------------------------
def test_the_aid_tells_a_region_with_marks_but_no_name(tmp_path: Path) -> None:
    """A region carrying a mark but never named has changed: the aid lists it and does not say 'Nothing has
    changed yet'. Slip: only named regions counted as changed."""
    from scarbook.campaign.effective import applied
    from scarbook.campaign.service import reading
    from scarbook.compiler.render.html import aid_html

    file = campaign(tmp_path, add(_sticker("banner", "banner", ["region"])))
    _c, fresh = reading.state(file)
    assert "Nothing has changed yet." in aid_html(applied(fresh), "a4", None, [], campaign="c")
    do(file, "place banner north")
    _c, replay = reading.state(file)
    page = aid_html(applied(replay), "a4", None, [], campaign="c")
    assert "Nothing has changed yet." not in page
    assert "<b>Regions:</b> North: bonus 2." in page


# --- item 12: setup one on every target -------------------------------------------------------------------
def every_target(sticker: str) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["game"]["campaign"]["setup"] = [{"id": "coins", "place": sticker, "each": "target", "cite": CITE,
                                              "text": "a coin on every coastal isle"}]
    return edit


def coastal(data: dict[str, Any]) -> None:
    data["territories"][1]["tags"] = ["coastal"]
    coin = next(s for s in data["stickers"] if s["id"] == "coin")
    coin["checks"].append({"check": "target-tagged", "tag": "coastal", "cite": CITE})


def test_setup_on_every_target_honours_the_stickers_own_targets(tmp_path: Path) -> None:
    """The coin goes only on a coastal isle (b-isle): setup owes it there, not on a-isle or c-isle, where it would
    be refused. Slip: every territory owed (the game could never start)."""
    file = campaign(tmp_path, both(coastal, every_target("coin")))
    no(file, PLAY, "R221", "coin still to place on b-isle before game 1")
    no(file, "place coin a-isle", "R236")
    assert [t["command"] for t in status(file)["todo"] if t["kind"] == "setup"] == \
        ["scarbook campaign place coin b-isle"]
    do(file, "place coin b-isle", PLAY)


def test_a_setup_claim_later_covered_does_not_block_game_two(tmp_path: Path) -> None:
    """required-before-first-game: a crown on every isle before game 1; one covered by a ruin after game 1 does not
    owe a new crown before game 2 (the setup was met). Slip: only active marks counted."""
    def crowns(data: dict[str, Any]) -> None:
        crown = next(s for s in data["stickers"] if s["id"] == "crown")
        crown["checks"].append({"check": "required-before-first-game", "cite": CITE})
        data["game"]["campaign"]["game_types"][0]["steps"] = []

    file = campaign(tmp_path, crowns)
    do(file, "place crown a-isle", "place crown b-isle", "place crown c-isle", PLAY, "game end --winner Ann")
    do(file, "place ruin a-isle --by Bob", PLAY)


# --- item 12: the player count at campaign new ------------------------------------------------------------
def test_campaign_new_refuses_a_player_count_the_game_is_not_for(tmp_path: Path) -> None:
    """Option Isles is for 2 to 3 players: 1 and 4 are refused (R306, with the game's cite), nothing written."""
    folder = write_game(tmp_path)
    for players, words in ((["Ann"], "1 player; Option Isles needs at least 2"),
                           (["Ann", "Bob", "Cat", "Dee"], "4 players; Option Isles takes at most 3")):
        file = tmp_path / f"c{len(players)}.yaml"
        result = CliRunner().invoke(app, ["campaign", "new", str(file), "--game", str(folder),
                                          *[x for p in players for x in ("--player", p)]])
        assert result.exit_code == 1, result.output
        assert f"error R306: {words} (Option Isles is for 2 to 3 players; opt-isles § Rules)" in \
            result.output
        assert not file.exists()
    campaign(tmp_path, name="three", players=("Ann", "Bob", "Cat"))


def test_risk_legacy_is_not_for_two(tmp_path: Path) -> None:
    file = tmp_path / "rl.yaml"
    result = CliRunner().invoke(app, ["campaign", "new", str(file), "--game", "risk-legacy", "--player", "Ann",
                                      "--player", "Bob"])
    assert result.exit_code == 1 and "R306" in result.output and "Risk Legacy rulebook" in result.output
    assert not file.exists()


# --- item 12: ids shaped like s02, and a play without --type -------------------------------------------------
def test_an_id_shaped_like_s02_is_typed_as_it_is_listed(tmp_path: Path) -> None:
    def s02(data: dict[str, Any]) -> None:
        data["territories"].append({"id": "s02", "name": "Skerry", "regions": ["north"], "neighbors": ["c-isle"]})
        data["territories"][2]["neighbors"].append("s02")

    file = campaign(tmp_path, s02)
    assert "s02" in run(file, "where coin").output.split()
    do(file, "place coin s02")
    assert "s02: coin" in run(file, "status").output


def test_a_play_without_type_in_a_game_of_several_types_is_refused(tmp_path: Path) -> None:
    def siege(data: dict[str, Any]) -> None:
        data["game"]["campaign"]["game_types"].append({"id": "siege", "name": "siege", "plays": ["hero"],
                                                       "steps": []})

    file = campaign(tmp_path, siege)
    no(file, PLAY, "R308", "say which type of game 1 is with --type (raid or siege)")
    do(file, PLAY + " --type siege")
