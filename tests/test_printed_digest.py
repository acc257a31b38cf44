"""Issue 34 D16, P15, P17, measured in what `scarbook build --digest` writes for the four shipped games (A4):

- D16: a table whose cells are all unknown is one line saying what is unknown and that `scarbook validate` lists
  it, not a table of "?"; a computed table left with nothing but names ("Zone bonuses" of zones without bonuses)
  is not printed; a list two sections print (the rulebook's list of the War of Plots cards and the Plot cards
  deck; the Warhammer 40k objectives and rewards and their decks) is printed once, the other points to it;
- P15: no output of a build without a campaign says anything about what a sealed packet holds or adds (the
  words sealed, packet, pocket, envelope, container only where a packet's outside is printed: its name and
  trigger, the game's own description, the header saying nothing sealed is shown, the sources' titles);
- P17: the rules are grouped in the order a player meets them (goal, setup, terms, the turn from its start
  through combat to its end, cards and marks, the end of the game, variants) in the aid and in the digest.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from campaigns.shared import shipped_build
from test_printed_aid import raw_text

from conftest import pdftotext
from scarbook.compiler.load import shipped_games
from scarbook.compiler.model import as_dict, is_unknown
from scarbook.compiler.validate import cached_game


def _flat(text: str) -> str:
    return " ".join(text.replace("\u00ad", "").split())


@pytest.fixture(scope="module")
def a4() -> Path:
    return shipped_build("a4")


def _sections(html: str) -> list[tuple[str, str]]:
    """(title, body without its notes) of every table section of a digest's HTML."""
    out = []
    for body in re.findall(r'<section class="table[^"]*"[^>]*>(.*?)</section>', html, re.S):
        title = unescape(re.sub(r"<[^>]+>", "", re.search(r"<h2>(.*?)</h2>", body, re.S).group(1))).strip()
        shown = re.sub(r'<ul class="notes">.*?</ul>', "", body.split("</h2>", 1)[1], flags=re.S)
        out.append((title, _flat(unescape(re.sub(r"<[^>]+>", " ", shown)))))
    return out


# --- D16 -------------------------------------------------------------------------------------------------
def test_no_digest_table_of_unknowns_or_of_names_only(a4: Path) -> None:
    """A declared table the sources give no row of prints one line (what is unknown, and that `scarbook
    validate` lists it): before, the Mercenaries table and the Warhammer 40k recruitment table printed '?1 ·'.
    Shadow Blades' zones have no bonus: no 'Zone bonuses' table of names only."""
    said = 0
    for gid in shipped_games():
        game = cached_game(gid, [])
        html = (a4 / gid / "digest.html").read_text("utf-8")
        text = _flat(pdftotext(a4 / gid / "digest.pdf"))
        for title, shown in _sections(html):
            marks = re.sub(r"\?\s*\d*", "", shown)
            assert re.search(r"\w", marks), (gid, title, shown)  # not a table of '?' alone
        for tid, t in game.section("tables").items():
            if not t.get("rows") and is_unknown(t.get("text")):
                reason = _flat(t["text"]["unknown"])
                line = f"Unknown: {reason}. scarbook validate lists it"
                assert line in text, (gid, tid, line)
                said += 1
        regions = game.section("regions")
        if regions and not any(r.get("bonus") is not None or r.get("territory_count") is not None
                               for r in regions.values()):
            kind = {str(r.get("kind")) for r in regions.values()}.pop().capitalize()
            assert f"{kind} bonuses" not in [t for t, _ in _sections(html)], gid
            assert f"{kind} bonuses" not in text, gid
    assert said == 2  # Shadow Blades' Mercenaries, Warhammer 40k's recruitment table


def test_a_list_two_sections_hold_is_printed_once(a4: Path) -> None:
    """The War of Plots cards and the help sheet's Agents and Missions (Shadow Blades), the objectives and rewards
    (Warhammer 40k) were each printed twice in the digest: in the rulebook's list and in the deck's table. Each
    card text is printed once now, and the rulebook's list points to the deck's table."""
    copies = {"shadow-blades": {"plots": "Plot cards", "agents": "Agent cards", "missions": "Mission cards"},
              "risk-warhammer-40k": {"objective-cards": "Objective Cards", "reward-cards": "Reward Cards"}}
    for gid, decks in copies.items():
        game = cached_game(gid, [])
        text = _flat(raw_text(a4 / gid / "digest.pdf"))  # in the order drawn: a cell's lines together
        for deck, title in decks.items():
            # the card's text, or its name where that is the text (an objective card)
            said = [c.get("text") or c.get("name") for c in game.section("cards").values() if c.get("deck") == deck]
            texts = [_flat(t) for t in said if isinstance(t, str) and len(t.split()) >= 5]
            assert len(texts) >= 4, (gid, deck)
            # a text the page wrapped is found by its first ten words
            twice = {t for t in texts if text.count(" ".join(t.split()[:10])) != 1}
            assert not twice, (gid, deck, sorted(twice))
            pointers = re.findall(r"Listed in full in (.*?) below\.", text)
            assert any(f"“{title}”" in p for p in pointers), (gid, title, pointers)


# --- P15 -------------------------------------------------------------------------------------------------
PACKET_WORDS = re.compile(r"\b(sealed|unopened|packets?|pockets?|envelopes?|containers?)\b", re.I)
#: What every output says of sealed content in general (nothing of what a packet holds).
HEADERS = ("Nothing sealed is shown", "Sealed content is never shown",
           "Only names and triggers are listed; contents stay sealed", "Sealed envelopes and their triggers",
           "Envelope Open when", "| Envelope | Open when |")


def _said_outside(gid: str) -> list[str]:
    """What may speak of packets: their names and triggers (printed on their outside), the game's description,
    the titles of the sources (a rulebook section "Sealed Components"), the headers."""
    game = cached_game(gid, [])
    out = list(HEADERS)
    for env in game.section("envelopes").values():
        out += [str(env.get("name", "")), str(as_dict(env.get("trigger")).get("text", ""))]
    out += [str(v) for v in game.meta.values() if isinstance(v, str)]
    out += [str(s.get("title", "")) for s in game.meta.get("sources") or [] if isinstance(s, dict)]
    return sorted({_flat(x) for x in out if x.strip()}, key=len, reverse=True)


def test_no_output_without_a_campaign_says_what_a_sealed_packet_holds(a4: Path) -> None:
    """Before: 'the other scar cards come from sealed packets' (Risk Legacy scar deck), 'the text of rules
    addition D comes from a sealed packet', 'blank until a rules sticker from a sealed envelope is placed here'
    (Shadow Forces rules additions A-D), in the digest and tables/*.md."""
    found = []
    for gid in shipped_games():
        outside = _said_outside(gid)
        files = [a4 / gid / "digest.pdf", a4 / gid / "reference.pdf", *sorted((a4 / gid / "tables").glob("*.md"))]
        for path in files:
            text = _flat(pdftotext(path) if path.suffix == ".pdf" else path.read_text("utf-8"))
            text = re.sub(r"Source: [^•]*", " ", text)  # the sources' sections ('§ Sealed packets: ...')
            text = re.sub(r"- Source: .*?(?=- |$)", " ", text)
            for said in outside:
                text = text.replace(said, " ")
            text = re.sub(r"\(More is withheld until [^)]* opened\.\)", " ", text)
            for sentence in re.split(r"(?<=[.;:!?])\s+", text):
                if PACKET_WORDS.search(sentence):
                    found.append((gid, path.name, sentence[:160]))
    assert not found, found


# --- P17 -------------------------------------------------------------------------------------------------
IN_PLAY_ORDER = {
    "shadow-blades": ["Goal", "Setup", "Glossary", "Domination", "Turn", "Cards", "End", "Variant"],
    "risk-legacy": ["Winning", "Setup", "Start of turn", "Turn", "Combat", "End of turn"],
    "risk-shadow-forces": ["Terms", "Global", "Skirmish", "Marks"],
    "risk-warhammer-40k": ["Goal", "Play mode", "Setup", "Turn", "Objectives", "Leaders"],
}


def test_rules_are_grouped_in_the_order_a_player_meets_them(a4: Path) -> None:
    """Before: the Shadow Blades aid put Variant, End, then Cards; the Risk Legacy aid Combat after End of turn;
    the digest kept the content's order (Risk Legacy: Start of turn, Combat, Setup ...)."""
    assert sorted(IN_PLAY_ORDER) == sorted(shipped_games())
    for gid, order in IN_PLAY_ORDER.items():
        aid = (a4 / gid / "reference.html").read_text("utf-8")
        turn = aid[aid.index('<section class="turn">'):]
        turn = turn[:turn.index("</section>")]
        assert [unescape(t) for t in re.findall(r'<div class="group"><h3>(.*?)</h3>', turn)] == order, gid
        digest = (a4 / gid / "digest.html").read_text("utf-8")
        topics = [unescape(t) for t in re.findall(r"<h2>Rules in short: (.*?)</h2>", digest)]
        assert [t.capitalize() for t in topics if t != "campaign"] == order, (gid, topics)
        assert topics[-1] == "campaign" or "campaign" not in topics, (gid, topics)
        # the printed aid reads in that order too (its text in the order it is drawn: a page's columns in turn):
        # each heading with the title of its first rule
        firsts = [unescape(f"{h} {r}") for h, r in re.findall(
            r'<div class="group"><h3>(.*?)</h3>\s*<p class="rule"><b>(.*?)</b>', turn)]
        text = " ".join(raw_text(a4 / gid / "reference.pdf").split())
        at = [text.find(f) for f in firsts]
        assert -1 not in at and at == sorted(at), (gid, list(zip(firsts, at, strict=True)))


def test_the_order_of_play_is_a_rule_for_any_game() -> None:
    """Topics of a game the code has never seen: placed by their phrases of play, the rest with the turn."""
    from scarbook.compiler.tables import in_play_order

    topics = ["end", "cards", "combat", "Harvest", "end of turn", "setup", "start of turn", "variants", "winning",
              "campaign", "glossary", "movement", "turn"]
    assert in_play_order(topics) == ["winning", "setup", "glossary", "start of turn", "Harvest", "turn", "combat",
                                     "movement", "end of turn", "cards", "end", "variants", "campaign"]


def test_the_digest_names_its_game_as_printed(a4: Path) -> None:
    """The digest's first line named the game by the content's id only ("from the content of risk-legacy", audit
    N6); it names the game's title, the id (what `build` takes) beside it."""
    for game_id in sorted(shipped_games()):
        first = _flat(pdftotext(a4 / game_id / "digest.pdf").split("\f")[0])
        said = f"computed by scarbook from its content for {cached_game(game_id).title} ({game_id})"
        assert said in first, (game_id, first[:300])
