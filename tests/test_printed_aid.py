"""What a group prints and takes to the table: the player aid, the digest, and nothing spoiled (issue 25).

Read from the built files themselves (PDF text via poppler's `pdftotext`, word boxes via `pdftotext -bbox`,
HTML, Markdown, CSV, JSON), for the four shipped games on A4 and Letter, without a campaign and with the
end states of the scripted 15-game campaigns (tests/campaigns/) and a campaign in its opening games:

- the player aid (`reference.pdf`) of each game takes at most two pages;
- no word of any page lies outside its page box, and the last column of every table the digest prints as
  a table is on the page (a table too wide is printed as records: every column name is there);
- the aid's words (its board's labels among them) are 6 pt or more at 100 % and never overprint one another;
- no ink lies outside the page box or within 5 mm of any edge of the aid or the digest (pixels, at 72 dpi);
- no output names anything a still-sealed packet holds, nor prints the schedule of a game the campaign
  has not reached (without a campaign: after game 1). The sealed names are computed here from the
  content, independently of `compiler.spoilers`.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from html import escape as html_escape
from pathlib import Path

import pytest
from campaigns.helpers import play_once, script
from campaigns.shared import shipped_build
from typer.testing import CliRunner

from conftest import pdftotext
from scarbook.cli.main import app
from scarbook.compiler.load import shipped_games
from scarbook.compiler.model import Game, as_dict, cites
from scarbook.compiler.validate import cached_game

LEGACY = ("risk-legacy", "risk-shadow-forces")
MM_PER_PT = 25.4 / 72


def _build(out: Path, *args: str) -> None:
    result = CliRunner().invoke(app, ["build", *args, "--out", str(out), "--digest"])
    assert result.exit_code == 0, result.output


def _norm(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def output_text(folder: Path) -> dict[str, str]:
    """Every output file under `folder` -> its text, normalised (lowercase words joined by single spaces)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.name.startswith("."):
            continue
        if path.suffix == ".pdf":
            out[str(path)] = _norm(pdftotext(path) + " " + raw_text(path))
        elif path.suffix in (".html", ".md", ".csv", ".json"):
            raw = path.read_text("utf-8")
            if path.suffix == ".json":
                raw = json.dumps(json.loads(raw), ensure_ascii=False)
            out[str(path)] = _norm(re.sub(r"<[^>]+>", " ", raw) if path.suffix == ".html" else raw)
    assert out, f"no outputs in {folder}"
    return out


# --- what must stay sealed, from the content (independent of compiler.spoilers) ------------------------
def sealed_names(game: Game, opened: set[str]) -> set[str]:
    """Ids and display names of everything the unopened envelopes hold, but not a name printed on a
    packet's outside (its name or trigger) or borne by an item players see."""
    held = {c for eid, env in game.section("envelopes").items() if eid not in opened and not env.get("opened_at_start")
            for c in (env.get("contents") if isinstance(env.get("contents"), list) else [])}
    outside = " ".join(_norm(f"{env.get('name', '')} {as_dict(env.get('trigger')).get('text', '')}")
                       for env in game.section("envelopes").values())
    visible = [item | {"id": iid} for items in game.sections.values() for iid, item in items.items() if iid not in held]
    parts = [p for item in visible for v in item.values() if isinstance(v, list) for p in v
             if isinstance(p, dict) and isinstance(p.get("id"), str)]  # a place printed in the rulebook, say
    seen = {_norm(str(x[k])) for x in visible + parts for k in ("id", "name", "code", "title", "label")
            if isinstance(x.get(k), str)}
    names = set()
    for iid in held:
        found = game.item(iid)
        for v in (iid, *((found[1].get(k) for k in ("name", "code", "title")) if found else ())):
            if isinstance(v, str) and len(_norm(v)) > 4 and _norm(v) not in seen and _norm(v) not in outside + " ":
                names.add(_norm(v))
    return names


def later_texts(game: Game, reached: int) -> set[str]:
    """Sentences (of five words or more) of the schedule's games after `reached`, and the titles of the
    items that only those games' sections give, that no game already reached says too."""
    def sentences(entry: dict) -> set[str]:
        out = set()
        for key in ("title", "objective", "special", "at_end"):
            if isinstance(entry.get(key), str):
                out.update(_norm(s) for s in re.split(r"(?<=[.!?;])\s+", entry[key]) if len(_norm(s).split()) >= 5)
        return out

    schedule = [e for e in game.section("schedule").values() if isinstance(e.get("game"), int)]
    said = " ".join(_norm(str(e.get(k, ""))) for e in schedule if e["game"] <= reached
                    for k in ("title", "objective", "special", "at_end"))
    later = {s for s in set().union(*(sentences(e) for e in schedule if e["game"] > reached)) if s not in said}
    section_game = {c: e["game"] for e in schedule for c in cites(e)}
    for name, items in game.sections.items():
        if name in ("schedule", "envelopes"):
            continue
        for item in items.values():
            games = [section_game.get(c) for c in cites(item)]
            title = item.get("title") or item.get("name")
            if games and all(g is not None and g > reached for g in games) and isinstance(title, str) \
                    and len(_norm(title).split()) >= 3:  # a title of a few words, not a common phrase
                later.add(_norm(title))
    return later


def packet_texts(game: Game, opened: set[str]) -> set[str]:
    """Issue 34 P15: what a schedule entry's `at_end` says a packet still sealed holds ("Open envelope C: add
    five warfare cards; ..."): its clauses of four words or more after the colon."""
    out = set()
    for entry in game.section("schedule").values():
        for eid in entry.get("opens") or []:
            if eid in opened or not isinstance(entry.get("at_end"), str):
                continue
            name = str(game.section("envelopes")[eid].get("name", eid)).split()[-1]
            found = re.search(rf"open\W+[\w ]*?\b{re.escape(name)}\s*:(.*)", entry["at_end"], re.IGNORECASE | re.DOTALL)
            if found:
                out.update(_norm(c) for c in re.split(r"[;.]", found.group(1)) if len(_norm(c).split()) >= 4)
    return out


def later_game_numbers(text: str, reached: int) -> list[str]:
    """Issue 34 P15: the phrases of `text` that name a game after `reached` ("game 14 only", "in games 10 and 13")."""
    return [m.group(0) for m in re.finditer(r"\bgames? (\d+)((?:, \d+)*(?: and \d+)?)", text, re.IGNORECASE)
            if any(int(n) > reached for n in re.findall(r"\d+", m.group(0)))]


def leaks(texts: dict[str, str], names: set[str]) -> list[tuple[str, str]]:
    return [(Path(f).name, n.strip()) for f, t in texts.items() for n in sorted(names) if n in t]


def raw_text(path: Path) -> str:
    """A PDF's text in the order it is drawn (a cell's lines together)."""
    pdftotext(path)  # skips (or fails under CI) without poppler
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout


# --- page geometry ---------------------------------------------------------------------------------------
def pages_of(path: Path) -> list[tuple[float, float, list[tuple[float, float, float, float, str]]]]:
    """(width, height, words (x0, y0, x1, y1, text)) of every page, in points (poppler's word boxes)."""
    if shutil.which("pdftotext") is None:
        pdftotext(path)  # skips (or fails under CI) as every PDF test does
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    out = []
    for w, h, body in re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html, re.S):
        words = [(float(a), float(b), float(c), float(d), t) for a, b, c, d, t in re.findall(
            r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)</word>', body)]
        out.append((float(w), float(h), words))
    return out


def assert_inside(path: Path) -> None:
    for number, (w, h, words) in enumerate(pages_of(path), 1):
        outside = [t for x0, y0, x1, y1, t in words if x0 < 0 or y0 < 0 or x1 > w + 0.5 or y1 > h + 0.5]
        assert not outside, f"{path.name} p. {number}: words outside the page box: {outside[:5]}"
        right = max((x1 for _x0, _y0, x1, _y1, _t in words), default=0)
        assert right <= w - 8 / MM_PER_PT, f"{path.name} p. {number}: text reaches {right * MM_PER_PT:.1f} mm"


def assert_tables_fit(folder: Path) -> None:
    """Every table of the digest has its last column on the page; a table printed as records every column."""
    html = (folder / "digest.html").read_text("utf-8")
    text = _norm(raw_text(folder / "digest.pdf"))
    tables = re.findall(r"<table[^>]*>.*?<thead><tr>(.*?)</tr>", html, re.S)
    assert tables, "the digest prints no table"
    for header in tables:
        last = re.findall(r"<th[^>]*>(.*?)</th>", header, re.S)[-1]
        assert _norm(last) in text, f"{folder.name}/digest.pdf: the last column '{last}' is not on the page"
    for record in re.findall(r'<div class="record">(.*?)</div>', html, re.S):
        for column in re.findall(r"<b>(.*?)</b>", record):
            assert _norm(column) in text, f"{folder.name}/digest.pdf: column '{column}' of a record is missing"


#: DejaVu Sans: poppler's word box is the ascent plus the descent, 1.164 em.
EM_BOX = 1.164


def overprints(words: list[tuple[float, float, float, float, str]]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap by more than a hairline each way."""
    return [(a[4], b[4]) for i, a in enumerate(words) for b in words[i + 1:]
            if min(a[2], b[2]) - max(a[0], b[0]) > 0.3 and min(a[3], b[3]) - max(a[1], b[1]) > 0.3]


def assert_aid_readable(aid: Path) -> None:
    """Every word of the aid (the board's labels, codes and region titles with the rest) is 6 pt or more at
    100 % and overprints no other word."""
    for number, (_w, _h, words) in enumerate(pages_of(aid), 1):
        crossed = overprints(words)
        assert not crossed, f"{aid.parent.name}/{aid.name} p. {number}: words overprint: {crossed[:6]}"
        small = sorted({(round((y1 - y0) / EM_BOX, 1), t) for _x0, y0, _x1, y1, t in words
                        if (y1 - y0) / EM_BOX < 5.95})  # 6 pt, with poppler's rounding
        assert not small, f"{aid.parent.name}/{aid.name} p. {number}: words under 6 pt: {small[:6]}"


#: A table cell that is a list of short values ("1, 1, 2, 3, 4", "1, 2, 4"), defined here, not by the aid's code.
VALUE_LIST = re.compile(r"[^\s,]{1,4}(?:, [^\s,]{1,4}){1,7}")


def split_lists(folder: Path) -> tuple[list[str], list[str]]:
    """(the value lists of the aid's tables, those the PDF does not print on one line as often as the tables hold
    them): a list's words must lie side by side on one line of a page (poppler's word boxes)."""
    html = (folder / "reference.html").read_text("utf-8")
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", html, re.S)]
    lists = [c for c in cells if VALUE_LIST.fullmatch(c)]
    lines: dict[tuple[int, float], list[tuple[float, str]]] = {}
    for number, (_w, _h, words) in enumerate(pages_of(folder / "reference.pdf")):
        for x0, y0, _x1, _y1, text in words:
            lines.setdefault((number, round(y0 * 2) / 2), []).append((x0, text))
    printed = [" ".join(t for _x, t in sorted(line)) for line in lines.values()]
    split = [c for c in sorted(set(lists))
             if sum(len(re.findall(rf"(?<!\S){re.escape(c)}(?!\S)", line)) for line in printed) < lists.count(c)]
    return lists, split


def check_printed(folder: Path, game_ids: tuple[str, ...], tmp: Path) -> None:
    from test_printed_sheets import assert_ink_inside

    for gid in game_ids:
        aid = folder / gid / "reference.pdf"
        pages = pages_of(aid)
        if gid in LEGACY:
            assert 1 <= len(pages) <= 2, f"{gid}: the player aid takes {len(pages)} pages"
        assert_aid_readable(aid)
        lists, split = split_lists(folder / gid)
        assert not split, f"{gid}: value lists broken over two lines: {split} (of {lists})"
        for pdf in (aid, folder / gid / "digest.pdf"):
            assert_inside(pdf)
            assert_ink_inside(pdf, Path(tempfile.mkdtemp(dir=tmp)))
        assert_tables_fit(folder / gid)


# --- builds -----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def plain_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The four shipped games without a campaign, on A4 and on Letter."""
    return {paper: shipped_build(paper) for paper in ("a4", "letter")}  # `_build` of each paper, once per run


def _campaign(tmp_path_factory: pytest.TempPathFactory, name: str, text: str) -> Path:
    file = tmp_path_factory.mktemp(name) / f"{name}.yaml"
    assert not play_once(text, file)
    return file


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The end states of the two scripted 15-game campaigns and the Shadow Forces opening (3 games)."""
    return {"risk-legacy-15": _campaign(tmp_path_factory, "risk-legacy-15", script("risk-legacy-15.txt")),
            "risk-shadow-forces-15": _campaign(tmp_path_factory, "risk-shadow-forces-15",
                                               script("risk-shadow-forces-15.txt")),
            "risk-shadow-forces-opening": _campaign(tmp_path_factory, "risk-shadow-forces-opening",
                                                    script("risk-shadow-forces-opening.txt"))}


def assert_campaign_aid_whole(folder: Path, game_id: str) -> None:
    """Issue 34 P2: a `--campaign` aid keeps every word of its rules and its small tables (at most its board is
    drawn smaller), lists each rule sticker once, and fills its second page past its middle."""
    from scarbook.compiler.aid import _small_tables
    from scarbook.compiler.spoilers import for_players

    html = (folder / "reference.html").read_text("utf-8")
    assert "Shortened to fit two pages" not in html
    full = cached_game(game_id, [])
    for table in _small_tables(for_players(full.effective(), full)):
        assert f"<caption>{html_escape(table['title'], quote=False)}</caption>" in html, table["title"]
    names = re.findall(r'<p class="rule"><b>([^<]+)</b>', html[html.index("Rule stickers"):]) \
        if "Rule stickers" in html else []
    assert len(names) == len(set(names)), names
    # issue 34 P12: a place titled after its one label is named once ('Rules addition F', not 'F: F')
    assert not re.search(r"“([^“”:]+): \1”", html), re.search(r"“([^“”:]+): \1”", html)
    pages = pages_of(folder / "reference.pdf")
    _, height, words = pages[-1]
    body = [w[3] for w in words if w[3] < height - 11 / MM_PER_PT]  # the page's footer sits in its 11 mm margin
    assert len(pages) == 2 and max(body) > height / 2


def _status(file: Path) -> dict:
    result = CliRunner().invoke(app, ["campaign", "status", "--format", "json", "-c", str(file)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_each_game_prints_a_player_aid_and_a_digest_inside_the_page(plain_builds: dict[str, Path],
                                                                    tmp_path: Path) -> None:
    for paper, folder in plain_builds.items():
        check_printed(folder, tuple(shipped_games()), tmp_path)
        w, h, _ = pages_of(folder / "risk-legacy" / "reference.pdf")[0]
        assert (round(w * MM_PER_PT), round(h * MM_PER_PT)) == ((210, 297) if paper == "a4" else (216, 279))


def test_the_widest_table_is_printed_as_records_that_keep_every_column(plain_builds: dict[str, Path]) -> None:
    html = (plain_builds["a4"] / "risk-shadow-forces" / "digest.html").read_text("utf-8")
    section = html.split('id="deck-warlords"')[1].split("</section>")[0]
    assert 'class="record"' in section and "<table" not in section
    text = _norm(raw_text(plain_builds["a4"] / "risk-shadow-forces" / "digest.pdf"))
    for column in ("Shield to block", "Skirmish tactic", "Squad melee dice", "Text"):
        assert _norm(column) in text


def test_no_output_without_a_campaign_names_a_sealed_item(plain_builds: dict[str, Path]) -> None:
    for folder in plain_builds.values():
        for gid in shipped_games():
            game = cached_game(gid, [])
            names = sealed_names(game, set())
            later = later_texts(game, 1)
            texts = output_text(folder / gid)
            assert not leaks(texts, names), leaks(texts, names)[:10]
            assert not leaks(texts, later), leaks(texts, later)[:10]
    # the check can fail: the digest of the content as a whole would (a sanity check of the names)
    sf = cached_game("risk-shadow-forces", [])
    assert {" xenia jones warlord sticker ", " ol 01 ", " energy tactic cards "} <= sealed_names(sf, set())
    assert _norm("A Rogue Element Erupts from the Darkness") in later_texts(sf, 1)


def test_no_table_or_aid_without_a_campaign_names_a_later_game(plain_builds: dict[str, Path]) -> None:
    """Issue 34 P15: no table, digest or aid line says what a later game brings ("(game 14 only)", "Rounds in
    games 10 and 13", "once the six sealed territories are on the board"); a packet's trigger printed on its
    outside ("Game 4's end: ...") and the game's own description (the box's) may name them."""
    folder = plain_builds["a4"]
    for gid in shipped_games():
        game = cached_game(gid, [])
        public = [str(v) for v in [*game.meta.values(), *as_dict(game.meta.get("campaign")).values()]
                  if isinstance(v, str)]
        public += [str(as_dict(env.get("trigger")).get("text", "")) for env in game.section("envelopes").values()]
        texts = {p.name: p.read_text("utf-8") for p in (folder / gid / "tables").glob("*.md")}
        texts.update({p.name: pdftotext(p) for p in (folder / gid).glob("*.pdf") if p.stem in ("reference", "digest")})
        found = []
        for name, text in texts.items():
            flat = " ".join(text.split())
            for said in (c.split() for text in public for c in re.split(r"[.;!]", text) if len(c.split()) >= 3):
                # a clause, or its longest start the page did not break (a column may end inside it)
                for n in range(len(said), min(len(said), 6) - 1, -1):
                    if " ".join(said[:n]) in flat:
                        flat = flat.replace(" ".join(said[:n]), " ")
                        break
            found += [(gid, name, phrase) for phrase in later_game_numbers(flat, 1)]
        assert not found, found
        assert not leaks({n: _norm(t) for n, t in texts.items()}, {_norm("six sealed territories"), _norm("b69s")})
    assert later_game_numbers("Look at a secret territory (game 14 only); rounds in games 10 and 13", 1) == \
        ["game 14", "games 10 and 13"]


@pytest.mark.parametrize("name", ["risk-legacy-15", "risk-shadow-forces-15", "risk-shadow-forces-opening"])
def test_a_campaign_build_shows_only_what_the_campaign_opened(name: str, campaigns: dict[str, Path],
                                                              tmp_path: Path) -> None:
    file = campaigns[name]
    status = _status(file)
    game_id = "risk-legacy" if name.startswith("risk-legacy") else "risk-shadow-forces"
    opened = {p["id"] if isinstance(p, dict) else p for p in status.get("opened_packets", [])}
    games = status.get("games", [])
    reached = len(games) if games and not games[-1].get("ended", True) else len(games) + 1
    for paper in ("a4", "letter"):
        folder = tmp_path / paper
        _build(folder, game_id, "--campaign", str(file), "--paper", paper)
        check_printed(folder, (game_id,), tmp_path)
        game = cached_game(game_id, [])
        texts = output_text(folder / game_id)
        assert not leaks(texts, sealed_names(game, opened)), leaks(texts, sealed_names(game, opened))[:10]
        assert not leaks(texts, later_texts(game, reached)), leaks(texts, later_texts(game, reached))[:10]
        aid = " ".join(t for f, t in texts.items() if f.endswith("reference.pdf"))
        assert _norm(file.stem) in aid and str(file.parent) not in aid  # named by its file, not its folder
        # a territory with no known name is named by the code printed on the board ('NA-01'), never its id
        ids = [tid for tid, t in game.section("territories").items() if t.get("code") and str(t["code"]) != tid]
        page = re.sub(r"<[^>]+>", " ", (folder / game_id / "reference.html").read_text("utf-8").split("</style>")[-1])
        assert not [tid for tid in ids if re.search(rf"(?<![\w-]){re.escape(tid)}(?![\w-])", page)], ids[:5]
        # every word on both papers: on Letter's 17.6 mm shorter page the Shadow Forces campaign aid is set closer
        # (aid.css body.tight) rather than cut (issue 34 P2)
        assert_campaign_aid_whole(folder / game_id, game_id)
        assert not leaks(texts, packet_texts(game, opened)), leaks(texts, packet_texts(game, opened))[:10]
    if name == "risk-shadow-forces-opening":
        assert opened == {"container-b"} and reached == 4
        # game 4's end opens envelope C: the instruction is printed, what the envelope holds is not (P15)
        assert _norm("add five warfare cards, nine warlord upgrade cards, four scar cards") in \
            packet_texts(game, opened)
        assert _norm("Open envelope C") in " ".join(texts.values())


def test_validate_warns_where_free_text_names_a_sealed_item_and_outputs_withhold_it(tmp_path: Path) -> None:
    pack = tmp_path / "leak"
    pack.mkdir()
    (pack / "pack.yaml").write_text("pack: {id: leak, extends: risk-legacy, title: Leak}\nrules:\n  - id: leaky\n"
                                    "    title: Leaky\n    topic: turn\n"
                                    "    text: Before the game, check the Mercenary scar. Then play.\n")
    result = CliRunner().invoke(app, ["validate", str(pack)])
    assert re.search(r"leak/pack\.yaml:6:11: warning X111: the free text of rule 'leaky' names 'Mercenary', which "
                     r"Packet for an eliminated faction holds until it is opened: every output withholds that "
                     r"sentence; move it into the packet's own notes, or word it without the name", result.output), \
        result.output
    tables = CliRunner().invoke(app, ["tables", "risk-legacy", "--pack", str(pack), "--format", "md"])
    assert tables.exit_code == 0, tables.output
    assert "| Leaky | Then play. (More is withheld until Packet for an eliminated faction is opened.) |" in \
        tables.output and "mercenary" not in tables.output.lower()
    shipped = CliRunner().invoke(app, ["validate"])
    assert "X111" not in shipped.output  # the shipped content names nothing sealed where players read it


def test_the_shadow_blades_aid_carries_its_card_reference(plain_builds: dict[str, Path]) -> None:
    """Issue 34: the Shadow Blades help sheet is its card reference, so its aid carries every agent, weapon and
    mission players see, by zone, with strength, bounty, skill and condition (a value no source gives is '?'),
    on its two pages; a game whose content asks for no card reference prints none."""
    from scarbook.compiler.aid import card_reference

    full = cached_game("shadow-blades", [])
    cards = [c for c in full.section("cards").values() if c.get("deck") in ("agents", "missions", "weapons")]
    assert len({c["name"] for c in cards}) >= 25
    for paper, folder in plain_builds.items():
        aid = folder / "shadow-blades" / "reference.pdf"
        assert len(pages_of(aid)) == 2, paper
        text = " ".join(raw_text(aid).split())
        missing = sorted({c["name"] for c in cards if c["name"] not in text})
        assert not missing, (paper, missing)
        for row in ("Assassin 1, 1, 2, 3, 4 No skill.", "Moonlit Specters 3 You must dominate",
                    "Sapphire Illusionist 1 Draw 4 cards", "Prodigious Weapons 2 Linked to an Agent"):
            assert row in text, (paper, row)
        for zone in ("Assassination", "Theft", "Reinforcements", "Infiltration"):
            assert f"{zone} Agent Strength Skill" in text or f"{zone} Mission Bounty Condition" in text, zone
        html = (folder / "shadow-blades" / "reference.html").read_text("utf-8")
        spy = html[html.index("<td>Spy</td>"):].split("</tr>")[0]
        assert '<span class="unknown">?</span>' in spy  # the Spy's skill: not in the sources, not invented
    assert card_reference(cached_game("risk-legacy", [])) is None
    assert "Card reference" not in pdftotext(plain_builds["a4"] / "risk-legacy" / "reference.pdf")


def test_no_value_list_of_an_aid_table_is_broken_over_two_lines(plain_builds: dict[str, Path]) -> None:
    """Issue 34 N9: a short list of values in an aid's table ("1, 1, 2, 3, 4" under an agent's strength on the
    Shadow Blades card reference, "1, 2, 4" as Shadow Forces' wound token values) is printed on one line, never
    "1, 1, 2, 3," above "4" (check_printed asks the same of every aid, with a campaign too)."""
    for paper, folder in plain_builds.items():
        found = {gid: split_lists(folder / gid) for gid in ("shadow-blades", "risk-shadow-forces")}
        assert {"1, 1, 2, 3, 4", "1, 1, 1"} <= set(found["shadow-blades"][0]), (paper, found)
        assert "1, 2, 4" in found["risk-shadow-forces"][0], (paper, found)
        assert not [split for _lists, split in found.values() if split], (paper, found)


def test_the_digest_names_sticker_kinds_in_words(plain_builds: dict[str, Path]) -> None:
    """Issue 34 P11: the digest's 'Stickers and marks' table gives each sticker's kind in words ('restricted
    operating zone'), not as the content's slug ('restricted-operating-zone'), and 'Faction powers' names a power
    the sources do not name by its place on the card, not by its id ('green-starting-tactic-1'), in the PDF."""
    for folder in plain_builds.values():
        for gid in LEGACY:
            full = cached_game(gid, [])
            kinds = {str(st["kind"]) for st in full.section("stickers").values() if isinstance(st.get("kind"), str)}
            slugs = {k for k in kinds if "-" in k}
            assert slugs, gid
            text = " ".join(raw_text(folder / gid / "digest.pdf").split())
            assert not [k for k in slugs if k in text], (gid, sorted(k for k in slugs if k in text)[:5])
            assert [k for k in slugs if k.replace("-", " ") in text], (gid, sorted(slugs)[:5])
            powers = {p["id"] for f in full.section("factions").values() for p in f.get("powers") or []
                      if isinstance(p, dict) and isinstance(p.get("id"), str) and not p.get("name")}
            assert not [p for p in powers if p in text], (gid, sorted(p for p in powers if p in text)[:4])  # no ids
    sf = " ".join(raw_text(plain_builds["a4"] / "risk-shadow-forces" / "digest.pdf").split())
    assert "Power 1 (name not in the sources)" in sf


#: Issue 34 P17: rules the Shadow Blades and Risk Legacy aids printed twice (in two rules, or in a rule and a
#: table); each is printed once. Each pattern matches every way the aid said it.
ONCE = {
    "shadow-blades": {
        "who wins": r"highest total bounty",
        "starting cards dealt": r"one to each player at random|each player is dealt one at random",
        "missions only where you dominate": r"zone tile that you dominate|deployed in dominated zones"
                                            r"|deployed face down only in zones you dominate",
        "weapons add strength": r"linked weapons counts the sum|their strength adds to the agent",
        "weapons linked on deployment": r"link weapon cards to it as you deploy|you may link one or more weapons",
    },
    "risk-legacy": {
        "four red stars win": r"4 red stars wins|4th red star wins|ends when a player has 4 red stars",
        "city populations": r"world capital\W+5",
        "missiles for signatures": r"one missile per signature|one missile in later games",
    },
}


def test_the_shadow_blades_and_risk_legacy_aids_print_each_rule_once(plain_builds: dict[str, Path]) -> None:
    for paper, folder in plain_builds.items():
        for gid, facts in ONCE.items():
            text = " ".join(raw_text(folder / gid / "reference.pdf").lower().split())  # in reading order
            counts = {fact: len(re.findall(pattern, text)) for fact, pattern in facts.items()}
            assert all(n == 1 for n in counts.values()), (paper, gid, counts)
