"""Each game's own words, mark groups and sources (issues 23 item 8, 24 items 9-10).

- No sticker kind of any shipped game is given a meaning in the tracker's Python (campaign/, compiler/,
  scarbook/cli/): kinds are compared nowhere; the words a game declares are not written into the outputs.
- Citations name a declared source; every output prints its title, never a source file's name.
- A game that declares nothing still gets every mark shown, in generic words.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from campaigns.helpers import HERE, invoke, play_once, played_outputs, run_script, set_cache

from scarbook.compiler.words import a, article, kind_name, mark_groups, words

ROOT = Path(__file__).resolve().parent.parent
CODE = [p for d in ("campaign", "compiler", "scarbook/cli") for p in sorted((ROOT / d).rglob("*.py"))
        if "generated" not in p.parts]


def shipped() -> list[dict]:
    return [yaml.safe_load(p.read_text("utf-8")) or {} for p in sorted((ROOT / "content").rglob("*.yaml"))]


def sticker_kinds() -> set[str]:
    """Every sticker kind and slot kind the shipped games declare."""
    return {s[k] for doc in shipped() for s in doc.get("stickers", []) or [] for k in ("kind", "slot")
            if isinstance(s.get(k), str)}


def declared_words() -> set[str]:
    """The words the shipped games declare that differ from the generic ones (continent, envelope …)."""
    from scarbook.compiler.words import DEFAULT_WORDS

    defaults = {w for pair in DEFAULT_WORDS.values() for w in pair}
    out = set()
    for doc in shipped():
        for value in ((doc.get("game") or {}).get("words") or {}).values():
            one = value if isinstance(value, str) else value.get("one")
            if one not in defaults:
                out.add(one)
    return out


def test_the_shipped_games_declare_kinds_and_words_the_greps_look_for() -> None:
    kinds, terms = sticker_kinds(), declared_words()
    assert {"scar", "city", "fortification", "power", "warlord", "stat"} <= kinds  # the greps below can fail
    assert {"continent", "envelope", "zone"} <= terms


def test_no_sticker_kind_has_a_meaning_in_python() -> None:
    """A kind compared with a literal (`m.kind == "scar"`, `"scar" in (kind, slot)`) is a meaning only one game's
    content gives: a homebrew game whose kind is `wound` would get nothing. Kinds mean something only through
    the content's mark groups (`game: marks:`)."""
    # `destroyed` is the one kind the tracker knows (the mark `campaign destroy` places: stickers.schema.json);
    # `name` is also every item's field, so a line naming the field is no comparison with a kind
    kinds = "|".join(re.escape(k) for k in sorted(sticker_kinds() - {"destroyed", "name"}, key=len, reverse=True))
    op = r"(==|!=|\bin\b)"
    compared = re.compile(rf"""(\b(kind|slot)\b\W{{0,8}}{op}[^\n]{{0,30}}["']({kinds})["'])"""
                          rf"""|(["']({kinds})["']\s*{op}[^\n]{{0,40}}\b(kind|slot)\b)""")
    also = re.compile(r"""["'](scar|city|fortification)["']""")  # the review's grep (power is the schema's `powers`)
    hits = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in CODE
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
            if not line.strip().startswith("#") and (compared.search(line) or also.search(line))
            and path.name not in ("effective.py", "scaffold.py")]  # effective content's key for a territory's
    # founded place; the scaffold writes a new game's content, kinds and all
    assert not hits, "\n".join(hits)


def test_no_game_term_is_written_into_the_outputs() -> None:
    """The words a game declares (continent, envelope, starting tactic …) come from content: the code that writes
    status, the sheet and the board picture holds none of them in a string."""
    terms = declared_words()
    files = [ROOT / "campaign" / "report.py", ROOT / "campaign" / "sheet.py", ROOT / "compiler" / "boardmap.py",
             ROOT / "templates" / "campaign-sheet.html.j2"]
    pattern = re.compile(r"\b(" + "|".join(re.escape(t) for t in terms) + r")s?\b", re.IGNORECASE)
    hits = []
    for path in files:
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if path.suffix == ".j2":
                shown = re.sub(r"\{[{%#].*?[}%#]\}", "", line)  # the template's text, not its variables
            else:
                shown = " ".join(s for s in re.findall(r"""["']([^"'\n]*)["']""", line)
                                 if " " in s or s.endswith(":"))  # prose in string literals, not a dict's keys
                shown = re.sub(r"\{[^}]*\}", "", shown)  # not the f-strings' fields
            if pattern.search(shown) and not line.strip().startswith(("#", '"""')):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_articles_come_from_the_names() -> None:
    assert [a(w) for w in ("Upgrade", "Funded event", "Extra tactic", "unit", "hour", "Bunker", "8-sided die")] == [
        "an Upgrade", "a Funded event", "an Extra tactic", "a unit", "an hour", "a Bunker", "an 8-sided die"]
    assert article("") == "a"


def test_a_game_that_declares_nothing_gets_generic_words_and_every_mark_a_group() -> None:
    from scarbook.compiler.model import Game

    game = Game(id="x", meta={"title": "X"})
    w = words(game)
    assert (w["signature"].many, w["region"].one, w["start"].count(2)) == ("signatures", "region",
                                                                            "2 starting territories")
    groups = mark_groups(game)
    assert [g.id for g in groups] == ["founded", "boxed", "marks"]
    assert groups[-1].holds("wound", {"kind": "wound"}) is False and groups[-1].declared is False
    from scarbook.compiler.words import group_of

    assert group_of(groups, "wound", {"kind": "wound"}).id == "marks"  # the generic group holds it
    assert group_of(groups, "hut", {"kind": "hut", "founds": {"population": 1}}).id == "founded"
    game.meta["marks"] = [{"id": "wounds", "title": {"one": "wound", "many": "wounds"}, "kinds": ["wound"],
                           "icon": "slash", "color": "#aa0000"}]
    assert group_of(mark_groups(game), "wound", {"kind": "wound"}).word.many == "wounds"
    assert kind_name(game, "wound") == "wound" and kind_name(game, "closed-lid") == "closed lid"


def test_shipped_games_name_their_groups_from_their_rulebooks() -> None:
    from scarbook.compiler.validate import load_game

    sf = load_game("risk-shadow-forces")
    assert [g.id for g in mark_groups(sf)][:4] == ["devastation", "fortifications", "scars", "warlords"]
    assert words(sf)["packet"].one == "envelope" and words(sf)["region"].many == "continents"
    assert kind_name(sf, "warlord") == "warlord sticker"
    rl = load_game("risk-legacy")
    assert words(rl)["region"].one == "continent" and words(rl)["power"].many == "starting powers"


# --- sources -----------------------------------------------------------------------------------------------

GAME = """\
game:
  id: cited
  title: Cited
  legacy: false
  players: {min: 2, max: 4}
  sources:
    - {id: rulebook, title: Cited rulebook, kind: rulebook, publisher: Us, year: 2024}
source: {cite: "rulebook § Board"}
regions:
  - {id: r, name: R, bonus: 1, source: {cite: "rulebook § Regions"}}
territories:
  - {id: a, name: A, regions: [r], neighbors: [b]}
  - {id: b, name: B, regions: [r], neighbors: [a], source: {cite: "%s"}}
"""


def check(tmp_path: Path, cite: str) -> list[str]:
    from scarbook.compiler.validate import validate_paths

    folder = tmp_path / "cited"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME % cite, "utf-8")
    return [f"{d.span.line} {d.code} {d.message}" for d in validate_paths([folder]).diagnostics
            if d.code == "X314"]


def test_a_cite_names_a_declared_source_at_its_line(tmp_path: Path) -> None:
    assert check(tmp_path, "rulebook § Territories") == []
    wrong = check(tmp_path, "rulbook § Territories")
    assert len(wrong) == 1 and wrong[0].startswith("13 X314 'rulbook' is not a declared source (did you mean "
                                                  "'rulebook'?)"), wrong
    # A shipped game's transcription file, as content of edition 1 cited it: read as that game's declared source,
    # with a warning naming the replacement (issue 33); in a file that declares edition 2, an error.
    from scarbook.compiler.validate import validate_paths

    folder = tmp_path / "cited"
    for edition, severity in (("", "warning"), ("edition: 2\n", "error")):
        (folder / "game.yaml").write_text(edition + GAME % "001_e430d55b72a215e6.txt § Territories", "utf-8")
        found = [d for d in validate_paths([folder]).diagnostics if d.code in ("X314", "X600")]
        assert [(d.code, str(d.severity.value if hasattr(d.severity, "value") else d.severity)) for d in found] \
            == [("X600", severity)], found
        assert "'rulebook § Territories'" in found[0].message and "001_e430d55b72a215e6.txt" in found[0].message
    assert check(tmp_path, "reference/notes.md § Territories")


def test_a_game_without_sources_may_cite_in_free_words_but_never_a_file(tmp_path: Path) -> None:
    from scarbook.compiler.validate import validate_paths

    folder = tmp_path / "free"
    folder.mkdir()
    text = GAME.replace("  sources:\n    - {id: rulebook, title: Cited rulebook, kind: rulebook, publisher: Us, "
                        "year: 2024}\n", "")
    (folder / "game.yaml").write_text(text % "our house rules § Territories", "utf-8")
    assert not [d for d in validate_paths([folder]).diagnostics if d.code == "X314"]
    (folder / "game.yaml").write_text(text % "notes.txt § Territories", "utf-8")
    assert [d.code for d in validate_paths([folder]).diagnostics if d.code == "X314"] == ["X314"]


def test_every_output_cites_by_title() -> None:
    from scarbook.compiler.validate import load_game

    game = load_game("risk-legacy")
    cites = []
    for item in game.section("stickers").values():
        cite = (item.get("source") or {}).get("cite") or []
        cites.extend([cite] if isinstance(cite, str) else cite)
    assert cites and all(c.startswith(("Risk Legacy rulebook § ", "Risk Legacy component scans § ",
                                       "classic Risk world map (community data) § ")) for c in cites), cites


SOURCE_FILE = re.compile(r"\.txt\b|reference/|\.md\b|_[0-9a-f]{16}")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["risk-legacy-15", "risk-shadow-forces-15"])
def test_no_output_on_a_scripted_campaign_names_a_source_file(name: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    """Slow (a whole campaign's outputs, from its one play per run, and its sheet): every command of the scripted
    campaign (its refusals too), then status, log, check, where and the sheet of its end state: no output names a
    source file (the titles stand in their place)."""
    set_cache(monkeypatch, tmp_path_factory)
    file = tmp_path / "c.yaml"
    text = (HERE / f"{name}.txt").read_text("utf-8")
    folder, said = played_outputs(text)  # what each line printed in the play play_once shares
    outputs = [(line, out.replace(str(folder), "")) for line, out in said]
    assert len(outputs) == sum(1 for raw in text.splitlines() if raw.strip() and not raw.strip().startswith("#"))
    assert not play_once(text, file)
    assert any("rulebook §" in out for _, out in outputs)  # refusals cite: the check below can fail
    for args in (["status"], ["status", "--format", "json"], ["log"], ["check"]):
        outputs.append((" ".join(args), invoke(args, file).output))
    html = tmp_path / "sheet.html"
    assert invoke(["sheet", "--format", "html", "--out", str(html)], file).exit_code == 0
    page = re.sub(r"<style>.*?</style>", "", html.read_text("utf-8"), flags=re.S)  # the fonts' licence notes
    outputs.append(("sheet", re.sub(r"data:[^)\"']*", "", page)))
    named = [(line, SOURCE_FILE.search(out.replace(str(tmp_path), "")).group()) for line, out in outputs
             if SOURCE_FILE.search(out.replace(str(tmp_path), ""))]
    assert not named, named[:5]
    assert not run_script("", file)


@pytest.mark.parametrize(("noun", "many"), [
    ("valley", "valleys"), ("try", "tries"), ("city", "cities"), ("box", "boxes"), ("bonus", "bonuses"),
    ("Major City", "Major Cities"), ("city (its size)", "cities (its size)"),
    ("Valley (the low ground)", "Valleys (the low ground)"), ("mark with boxes", "marks with boxes"),
    ("HQ", "HQs"), ("starting territory", "starting territories"), ("Crisis", "Crises")])
def test_plurals_come_from_inflect_in_the_nouns_own_case(noun: str, many: str) -> None:
    from scarbook.compiler.words import Word, plural, plural_of

    assert plural_of(noun) == many
    assert plural(2, noun) == f"2 {many}" and plural(1, noun) == f"1 {noun}"
    assert Word(noun).many == many and Word(noun, "given").many == "given"


def test_a_declared_word_without_its_plural_gets_inflects(tmp_path: Path) -> None:
    from scarbook.compiler.words import _word

    assert _word("valley", ("region", "regions")).count(3) == "3 valleys"
    assert _word({"one": "city (its size)"}, ("x", "xs")).count(2) == "2 cities (its size)"
    assert _word({"one": "hour", "a": "an"}, ("x", "xs")).a() == "an hour"


def test_inflects_answers_are_kept_so_the_next_command_does_not_import_it(tmp_path: Path) -> None:
    """A second process that names the same nouns reads the kept answers and never imports inflect."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "SCARBOOK_CACHE": str(tmp_path)}
    code = ("import sys; from scarbook.compiler.words import plural_of, a; print(plural_of('valley'), a('hour'), "
            "plural_of('territory'), 'inflect' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert first.stdout.split() == ["valleys", "an", "hour", "territories", "True"], first.stderr
    # the user's own words are kept; a shipped noun's answer ships with the package and is not copied
    assert json.loads((tmp_path / "grammar.json").read_text("utf-8")) == {"plural:valley": "valleys", "a:hour": "an"}
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert again.stdout.split() == ["valleys", "an", "hour", "territories", "False"], again.stderr


def test_the_shipped_answers_are_inflects_and_current() -> None:
    """compiler/generated/grammar.json holds inflect's own answer for every noun of the shipped games and examples
    (tools/generate_grammar.py --check asks inflect afresh and compares), and names the nouns a shipped game uses."""
    import json
    import subprocess
    import sys

    from scarbook.compiler.words import SHIPPED_GRAMMAR

    done = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_grammar.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    shipped = json.loads(SHIPPED_GRAMMAR.read_text("utf-8"))
    assert shipped["plural:territory"] == "territories" and shipped["a:Upgrade"] == "an"
    assert shipped["plural:scar"] == "scars" and shipped["singular:scar"] == "scar"
