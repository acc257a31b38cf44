"""The campaign language (campaign/lang.py): every query, comparison and composition, each both ways.

`ROWS` is the table: a condition, and whether it holds on one campaign played through the CLI (a homebrew game
with two owned regions, huts, a scenario won, scores, a packet opened, a place destroyed). Every row is checked
against `schemas/conditions.schema.json` too, and `test_every_form_of_the_schema_has_a_row_each_way` fails when
the schema gains a query key or a form that no row uses both ways (as tests/test_options_table.py does for options).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from test_homebrew_options import CITE, _sticker, do

from scarbook.compiler import schema as schemas

ROOT = Path(__file__).resolve().parent.parent


def language_game(data: dict[str, Any]) -> None:
    """Option Isles with the parts the language reads: regions to own, huts, scenarios, a level, packets."""
    camp = data["game"]["campaign"]
    data["regions"].append({"id": "south", "name": "South", "bonus": 1})
    data["territories"][1]["tags"] = ["coastal"]
    data["cards"][0]["stats"] = {"might": 2}
    data["territories"][2]["neighbors"] = ["b-isle", "d-isle"]
    data["territories"].append({"id": "d-isle", "name": "D Isle", "regions": ["south"], "neighbors": ["c-isle"]})
    data["stickers"] += [
        _sticker("deed", "deed", ["region"]),
        _sticker("hut", "hut", ["territory"], slot="scar"),
        _sticker("blessing", "blessing", ["hero-card"], adds={"might": 1}),
        _sticker("blight", "destroyed", ["territory"]),
        _sticker("elder", "elder", ["territory"]),
        _sticker("flag", "flag", ["territory"], named=True),
        _sticker("pennant", "flag", ["territory"]),  # a flag nobody names
    ]
    data["game"]["marks"] = [{"id": "homes", "title": "Homes", "kinds": ["hut"]}]
    camp["claims"] = ["deed"]
    camp["tracks"] = [{"id": "fame", "name": "fame", "start": 1, "min": 0, "max": 5, "after": {"won": 1},
                       "cite": CITE}]
    camp["conditions"] = [{"id": "three-huts", "when": {"count": {"sticker": "hut"}, "at_least": 3}},
                          {"id": "five-huts", "when": {"count": {"sticker": "hut"}, "at_least": 5}}]
    camp["levels"] = [{"id": "village", "name": "village level", "of": {"count": {"kind": "hut", "own": "actor"}},
                       "at": [0, 2], "per": "player", "cite": CITE}]
    camp["scenarios"] = [{"id": "s01", "name": "The Landing", "cite": CITE},
                         {"id": "s02", "name": "The Cave", "open": {"scenario": "s01", "equals": "won"},
                          "cite": CITE}]
    data["envelopes"] = [
        {"id": "chest", "name": "Chest", "contents": [], "trigger": {"text": "open when a hut stands",
                                                                     "when": {"held": "hut"}}},
        {"id": "vault", "name": "Vault", "contents": [], "trigger": {"text": "open with five huts",
                                                                     "when": {"condition": "five-huts"}}},
    ]


PLAYED = ("place deed north --by Ann", "place deed south --by Bob",
          "game start --play Ann=kai --play Bob=raaz --scenario s01",
          "game end --winner Ann --score Ann=7 --score Bob=3", "place crown a-isle --by Ann",
          "place hut a-isle --by Ann", "place hut b-isle --by Ann", "place hut d-isle --by Bob",
          "place coin c-isle --by Bob", "place ruin a-isle --by Bob", "open chest", "place blight d-isle",
          "place blessing kai", "place elder c-isle --by Bob", "retire elder c-isle", "place elder b-isle --by Ann",
          "retire elder b-isle --as lost", "place flag c-isle --by Ann --name Hope",
          "place pennant c-isle --by Bob")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The content and state after `PLAYED`, through the CLI."""
    from test_homebrew_options import campaign

    from scarbook.campaign.service import reading

    tmp = tmp_path_factory.mktemp("lang")
    file = campaign(tmp, language_game)
    do(file, *PLAYED)
    _campaign, replay = reading.state(file)
    return replay.content, replay.state


# (id, condition, holds) on the campaign after PLAYED, asked about Ann placing on a-isle
ROWS: list[tuple[str, dict[str, Any], bool]] = [
    ("count sticker", {"count": {"sticker": "hut"}, "equals": 3}, True),
    ("count sticker more", {"count": {"sticker": "hut"}, "at_least": 4}, False),
    ("count kind by actor", {"count": {"kind": "hut", "by": "actor"}, "equals": 2}, True),
    ("count kind by Bob", {"count": {"kind": "hut", "by": "Bob"}, "equals": 2}, False),
    ("count owned_by", {"count": {"sticker": "hut", "owned_by": "Bob"}, "equals": 1}, True),
    ("count owned_by more", {"count": {"sticker": "hut", "owned_by": "Bob"}, "at_least": 2}, False),
    ("count cancelled", {"count": {"sticker": "crown", "status": "cancelled"}, "equals": 1}, True),
    ("count active of cancelled", {"count": {"sticker": "crown"}, "at_least": 1}, False),
    ("count any status", {"count": {"sticker": "crown", "status": "any"}, "equals": 1}, True),
    ("count on target", {"count": {"sticker": "hut", "on": "target"}, "equals": 1}, True),
    ("count on target none", {"count": {"sticker": "coin", "on": "target"}, "at_least": 1}, False),
    ("count in region", {"count": {"sticker": "hut", "in": "north"}, "equals": 2}, True),
    ("count in other region", {"count": {"sticker": "hut", "in": "south"}, "at_least": 2}, False),
    ("count in target's region", {"count": {"sticker": "hut", "in": "target"}, "equals": 2}, True),
    ("count next to place", {"count": {"sticker": "coin", "next_to": "b-isle"}, "equals": 1}, True),
    ("count next to target", {"count": {"sticker": "coin", "next_to": "target"}, "at_least": 1}, False),
    ("count own", {"count": {"kind": "hut", "own": "actor"}, "equals": 2}, True),
    ("count own Bob", {"count": {"kind": "hut", "own": "Bob"}, "at_least": 2}, False),
    ("count tag", {"count": {"sticker": "hut", "tag": "coastal"}, "equals": 1}, True),
    ("count tag more", {"count": {"tag": "coastal"}, "at_least": 2}, False),
    ("count group", {"count": {"group": "homes"}, "equals": 3}, True),
    ("count group none", {"count": {"group": "homes", "by": "Bob"}, "at_least": 2}, False),
    ("track", {"track": "fame", "equals": 1}, True),
    ("track more", {"track": "fame", "at_least": 2}, False),
    ("stat", {"stat": {"field": "might", "of": "kai"}, "equals": 3}, True),
    ("stat of target", {"stat": "might", "at_least": 1}, False),
    ("level", {"level": "village", "at_least": 2}, True),
    ("level of Bob", {"level": {"id": "village", "player": "Bob"}, "at_least": 2}, False),
    ("game number", {"game": "number", "equals": 1}, True),
    ("game played", {"game": "played", "at_least": 2}, False),
    ("game played once", {"game": "played", "equals": 1}, True),
    ("game number fails", {"game": "number", "at_least": 2}, False),
    ("game players fails", {"game": "players", "at_least": 3}, False),
    ("game result fails", {"game": "result", "equals": "lost"}, False),
    ("game winner fails", {"game": "winner", "equals": "Bob"}, False),
    ("count any status fails", {"count": {"sticker": "ruin", "status": "cancelled"}, "at_least": 1}, False),
    ("game winner", {"game": "winner", "equals": {"who": "actor"}}, True),
    ("game scenario", {"game": "scenario", "equals": "s02"}, False),
    ("game result", {"game": "result", "equals": "won"}, True),
    ("game type", {"game": "type", "in": ["skirmish"]}, False),
    ("game players", {"game": "players", "equals": 2}, True),
    ("games won by actor", {"games": {"winner": "actor"}, "equals": 1}, True),
    ("games of scenario", {"games": {"scenario": "s02"}, "at_least": 1}, False),
    ("games of type and result", {"games": {"type": "raid", "result": "won"}, "equals": 1}, True),
    ("scenario won", {"scenario": "s01", "equals": "won"}, True),
    ("scenario not won", {"scenario": "s02", "equals": "won"}, False),
    ("scenario unplayed", {"scenario": "s02", "in": ["unplayed", "lost"]}, True),
    ("score", {"score": "actor", "equals": 7}, True),
    ("score total", {"score": {"player": "Bob", "total": True}, "at_least": 5}, False),
    ("rank", {"rank": "actor", "equals": 1}, True),
    ("rank Bob", {"rank": {"player": "Bob"}, "equals": 1}, False),
    ("rank points", {"rank": {"player": "actor", "points": [3, 1]}, "equals": 3}, True),
    ("rank points Bob", {"rank": {"player": "Bob", "points": [3, 1]}, "at_least": 2}, False),
    ("rank points total", {"rank": {"points": [5, 2], "total": True}, "equals": 5}, True),
    ("rank points total Bob", {"rank": {"player": "Bob", "points": [5, 2], "total": True}, "at_least": 3}, False),
    ("wins", {"wins": "actor", "at_least": 1}, True),
    ("wins Bob", {"wins": {"player": "Bob"}, "at_least": 1}, False),
    ("owner of target", {"owner": "target", "equals": {"who": "actor"}}, True),
    ("owner of elsewhere", {"owner": {"of": "d-isle"}, "equals": {"who": "actor"}}, False),
    ("who", {"who": "actor", "in": ["Ann", "Cat"]}, True),
    ("who is not", {"who": {"player": "actor"}, "equals": "Bob"}, False),
    ("opened", {"opened": "chest"}, True),
    ("opened not", {"opened": "vault"}, False),
    ("held", {"held": "hut"}, True),
    ("held by", {"held": {"id": "coin", "by": "Ann"}}, False),
    ("held by Bob", {"held": {"id": "coin", "by": "Bob"}}, True),
    ("held cancelled", {"held": "crown"}, False),
    ("destroyed", {"destroyed": "d-isle"}, True),
    ("destroyed not", {"destroyed": "target"}, False),
    ("at_most", {"count": {"sticker": "hut"}, "at_most": 3}, True),
    ("at_most fails", {"count": {"sticker": "hut"}, "at_most": 2}, False),
    ("compare with a query", {"count": {"sticker": "hut", "by": "actor"}, "at_least": {"count": {"sticker": "hut",
                                                                                               "by": "Bob"}}}, True),
    ("compare with a query fails", {"count": {"sticker": "hut", "by": "Bob"}, "at_least": {"count": {
        "sticker": "hut", "by": "actor"}}}, False),
    ("in fails", {"count": {"sticker": "hut"}, "in": [1, 2]}, False),
    ("equals fails", {"track": "fame", "equals": 2}, False),
    ("all", {"all": [{"opened": "chest"}, {"held": "hut"}]}, True),
    ("all fails", {"all": [{"opened": "chest"}, {"opened": "vault"}]}, False),
    ("any", {"any": [{"opened": "vault"}, {"held": "hut"}]}, True),
    ("any fails", {"any": [{"opened": "vault"}, {"held": "crown"}]}, False),
    ("not", {"not": {"opened": "vault"}}, True),
    ("not fails", {"not": {"opened": "chest"}}, False),
    ("condition", {"condition": "three-huts"}, True),
    ("condition fails", {"condition": "five-huts"}, False),
    ("count retired", {"count": {"kind": "elder", "status": "retired", "by": "Bob"}, "equals": 1}, True),
    ("count retired fails", {"count": {"kind": "elder", "status": "retired"}, "at_least": 2}, False),
    ("count lost", {"count": {"kind": "elder", "status": "lost", "by": "actor"}, "equals": 1}, True),
    ("count lost fails", {"count": {"kind": "elder", "status": "lost", "by": "Bob"}, "at_least": 1}, False),
    ("count retired not active", {"count": {"kind": "elder"}, "at_least": 1}, False),
    ("count retired not held", {"not": {"held": "elder"}}, True),
    ("check", {"check": "target-has", "kind": "hut", "cite": CITE}, True),
    ("check fails", {"check": "target-lacks", "kind": "hut", "cite": CITE}, False),
    ("not check", {"not": {"check": "target-lacks", "kind": "hut", "cite": CITE}}, True),
    # each query's other form (a plain id or player, or a mapping) and each key of its mapping, both ways
    ("game type holds", {"game": "type", "equals": "raid"}, True),
    ("game scenario holds", {"game": "scenario", "equals": "s01"}, True),
    ("games of scenario holds", {"games": {"scenario": "s01"}, "equals": 1}, True),
    ("games of type and result fails", {"games": {"type": "raid", "result": "lost"}, "at_least": 1}, False),
    ("games won by Bob", {"games": {"winner": "Bob"}, "at_least": 1}, False),
    ("level of Ann", {"level": {"id": "village", "player": "Ann"}, "equals": 2}, True),
    ("level fails", {"level": "village", "at_most": 1}, False),
    ("owner of a place", {"owner": {"of": "d-isle"}, "equals": "Bob"}, True),
    ("owner named fails", {"owner": "d-isle", "equals": "Ann"}, False),
    ("rank of Bob", {"rank": {"player": "Bob"}, "equals": 2}, True),
    ("rank fails", {"rank": "actor", "equals": 2}, False),
    ("score total of Ann", {"score": {"player": "Ann", "total": True}, "at_least": 7}, True),
    ("score fails", {"score": "actor", "at_most": 3}, False),
    ("stat of target holds", {"stat": "might", "equals": 0}, True),
    ("stat of a card fails", {"stat": {"field": "might", "of": "kai"}, "at_most": 2}, False),
    ("who of Bob", {"who": {"player": "Bob"}, "equals": "Bob"}, True),
    ("wins of Ann", {"wins": {"player": "Ann"}, "equals": 1}, True),
    ("signatures", {"signatures": "actor", "equals": 1}, True),
    ("signatures fails", {"signatures": "actor", "at_least": 2}, False),
    ("signatures of Ann", {"signatures": {"player": "Ann"}, "equals": 1}, True),
    ("signatures of Bob", {"signatures": {"player": "Bob"}, "at_least": 1}, False),
    ("signatures most", {"signatures": {"most": True}, "equals": 1}, True),
    ("signatures most fails", {"signatures": {"most": True}, "at_least": 2}, False),
    ("game eliminated", {"game": "eliminated", "equals": 0}, True),
    ("game eliminated fails", {"game": "eliminated", "at_least": 1}, False),
    ("game chapters", {"game": "chapters", "equals": 0}, True),
    ("game chapters fails", {"game": "chapters", "at_least": 1}, False),
    ("wins fails", {"wins": "actor", "equals": 0}, False),
    ("text holds", {"opened": "chest", "text": "the chest is open", "cite": CITE}, True),
    ("text fails", {"opened": "vault", "text": "the vault is open", "cite": CITE}, False),
    ("in a query", {"who": "actor", "in": [{"game": "winner"}, "Cat"]}, True),
    ("in a query fails", {"who": "actor", "in": [{"owner": "d-isle"}, "Cat"]}, False),
    ("equals a query fails", {"owner": "target", "equals": {"who": "Bob"}}, False),
    ("at_most a query", {"count": {"sticker": "hut", "by": "Bob"}, "at_most": {"track": "fame"}}, True),
    ("at_most a query fails", {"count": {"sticker": "hut"}, "at_most": {"track": "fame"}}, False),
    # a tie-break's bonus (`outcome.ties`): only the marks placed with a name; chapters; a sum; games left
    ("count named", {"count": {"kind": "flag", "named": True}, "equals": 1}, True),
    ("count named by Bob", {"count": {"kind": "flag", "by": "Bob", "named": True}, "at_least": 1}, False),
    ("count named or not", {"count": {"kind": "flag", "named": False}, "equals": 2}, True),
    ("chapters won", {"chapters": "won", "equals": 0}, True),
    ("chapters left fails", {"chapters": "left", "at_least": 1}, False),
    ("sum", {"sum": [{"count": {"sticker": "hut"}}, {"game": "played"}], "equals": 4}, True),
    ("sum fails", {"sum": [{"track": "fame"}, {"wins": "actor"}], "at_least": 3}, False),
    ("game left", {"game": "left", "equals": 5}, True),
    ("game left fails", {"game": "left", "at_most": 4}, False),
]


def ask(played: Any, cond: dict[str, Any]) -> Any:
    from scarbook.campaign.checks import Placement
    from scarbook.campaign.lang import Scope

    content, state = played
    target = content.target_of_kind("territory", "a-isle")
    p = Placement(content, state, "crown", content.sticker_views["crown"], target, "Ann")
    return content.conditions.holds(cond, Scope(content, state, "Ann", target, p))


@pytest.mark.parametrize(("name", "cond", "expected"), ROWS, ids=[r[0] for r in ROWS])
def test_each_row_holds_or_fails_as_the_table_says(played: Any, name: str, cond: dict[str, Any],
                                                    expected: bool) -> None:
    verdict = ask(played, cond)
    assert verdict.ok is expected, (name, verdict.why)
    assert verdict.why  # every verdict says why, with the values read


def condition_schema() -> Draft202012Validator:
    top = schemas.schemas()["conditions.schema.json"]
    return Draft202012Validator({"$ref": "conditions.schema.json#/$defs/condition", "$defs": top["$defs"]},
                                registry=schemas.registry())


@pytest.mark.parametrize(("name", "cond", "expected"), ROWS, ids=[r[0] for r in ROWS])
def test_each_row_is_valid_by_the_schema(name: str, cond: dict[str, Any], expected: bool) -> None:
    errors = [e.message for e in condition_schema().iter_errors(cond)]
    assert not errors, (name, errors)


def _forms(cond: Any) -> set[str]:
    """Every form a condition uses: each query key, the form of its argument (`KEY:plain` or `KEY:object`) and each
    key of its mapping (`KEY.SUB`), each `game:` fact, each comparison (and `OP query` when it compares with a
    query), each composition, `condition`, `check`, `text` and `cite`."""
    from scarbook.campaign.lang import COMPARISONS, QUERY_KEYS

    out: set[str] = set()
    if not isinstance(cond, dict):
        return out
    for key, value in cond.items():
        if key in QUERY_KEYS:
            out |= {key, f"{key}:{'object' if isinstance(value, dict) else 'plain'}"}
            if isinstance(value, dict):
                out |= {f"{key}.{k}" for k in value}
            if key == "game":
                out.add(f"game: {value}")
        if key in (*COMPARISONS, "all", "any", "not", "condition", "check", "text", "cite"):
            out.add(key)
        for part in value if isinstance(value, list) else [value]:
            if key in COMPARISONS and isinstance(part, dict):
                out.add(f"{key} query")
            out |= _forms(part)
    return out


def schema_forms() -> set[str]:
    """Every form `schemas/conditions.schema.json` allows, as `_forms` names them."""
    conds = schemas.schemas()["conditions.schema.json"]["$defs"]
    wanted = {"check", "all", "any", "not", "condition", "text", "cite"}
    for op in ("at_least", "at_most", "equals", "in"):
        wanted |= {op, f"{op} query"}
    for key, query in conds["queries"].items():
        alts = query.get("oneOf", [query])
        wanted.add(key)
        wanted |= {f"{key}:{'object' if alt.get('type') == 'object' else 'plain'}" for alt in alts}
        wanted |= {f"{key}.{sub}" for alt in alts for sub in alt.get("properties", {}) if sub != "name"}
    wanted |= {f"game: {f}" for f in conds["queries"]["game"]["enum"]}
    return wanted


def test_every_form_of_the_schema_has_a_row_each_way() -> None:
    wanted = schema_forms()
    holds = set().union(*(_forms(c) for _, c, ok in ROWS if ok))
    fails = set().union(*(_forms(c) for _, c, ok in ROWS if not ok))
    assert not sorted(wanted - holds), "add a row that holds for these"
    assert not sorted(wanted - fails), "add a row that fails for these"


def test_the_table_covers_every_query_key_and_condition_form() -> None:
    """The query keys the compiler checks (`compiler/conditions.py` QUERY_KEYS) are the schema's, each used both
    ways; so is every property of a condition's form in the schema (a form added to either without a row
    fails here)."""
    from scarbook.compiler.conditions import QUERY_KEYS

    conds = schemas.schemas()["conditions.schema.json"]["$defs"]
    assert set(QUERY_KEYS) == set(conds["queries"])
    form_keys = set(conds["form"]["properties"]) | {"check"}
    assert set(QUERY_KEYS) <= form_keys
    for ok in (True, False):
        used = set().union(*(_forms(c) for _, c, holds in ROWS if holds is ok))
        assert not sorted(set(QUERY_KEYS) - used), ok
        assert not sorted(form_keys - used), ok


def test_a_failure_names_the_part_and_the_values_read(played: Any) -> None:
    verdict = ask(played, {"all": [{"opened": "chest"}, {"count": {"kind": "hut", "own": "actor"}, "at_least": 3,
                                                          "text": "Ann's village needs three huts"}]})
    assert not verdict.ok
    assert verdict.why == "Ann's village needs three huts (hut on places Ann owns: 2; at least 3 needed)"
    nope = ask(played, {"any": [{"opened": "vault"}, {"track": "fame", "at_least": 3}]})
    assert nope.why == "none of these holds: not so: packet vault is open; or fame: 1; at least 3 needed"


def test_conditions_are_compiled_once_per_content(played: Any) -> None:
    content, _state = played
    cond = {"not": {"opened": "vault"}}
    assert content.conditions.compile(cond) is content.conditions.compile(cond)
    assert content.conditions.named("three-huts") is content.conditions.named("three-huts")


def test_the_counts_the_fold_keeps_match_a_count_from_the_start(played: Any) -> None:
    """`state.live` (kept as marks come and go) gives what counting every mark gives."""
    content, state = played
    for key in ("hut", "crown", "coin", "ruin", "deed", "destroyed", "city", "elder"):
        slow = sum(1 for ms in state.marks.values() for m in ms if m.active and m.is_a(key))
        assert state.live[key] == slow, key


def test_a_condition_names_itself() -> None:
    from scarbook.campaign.lang import LanguageError, Library

    lib = Library({"loop": {"condition": "loop"}})
    with pytest.raises(LanguageError, match="names itself"):
        lib.named("loop").holds(None)  # type: ignore[arg-type]


# --- validation at the line ---------------------------------------------------------------------------------
def validate(tmp_path: Path, edit: Any) -> list[str]:
    from test_homebrew_options import write_game
    from typer.testing import CliRunner

    from scarbook.cli.main import app

    def both(data: dict[str, Any]) -> None:
        language_game(data)
        edit(data)

    folder = write_game(tmp_path, both)
    result = CliRunner().invoke(app, ["validate", str(folder)])
    return result.output.splitlines()


def _when(cond: dict[str, Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["game"]["campaign"]["conditions"] += [{"id": "loop-a", "when": {"not": {"condition": "loop-b"}}},
                                                   {"id": "loop-b", "when": {"condition": "loop-a"}}]
        hut = next(s for s in data["stickers"] if s["id"] == "hut")
        hut["checks"].append({"check": "when", "when": cond, "cite": CITE})
    return edit


def test_the_language_game_validates_clean(tmp_path: Path) -> None:
    assert validate(tmp_path, lambda d: None)[-1].startswith("0 errors")


@pytest.mark.parametrize(("cond", "code", "words"), [
    ({"count": {"sticker": "hat"}, "at_least": 1}, "X102", "no sticker 'hat' (did you mean 'hut'?)"),
    ({"all": [{"opened": "chset"}]}, "X102", "no packet 'chset' (did you mean 'chest'?)"),
    ({"not": {"condition": "six-huts"}}, "X102", "no named condition 'six-huts'"),
    ({"scenario": "s03", "equals": "won"}, "X102", "no scenario 's03'"),
    ({"track": "fmae", "at_least": 1}, "X102", "no track 'fmae' (did you mean 'fame'?)"),
    ({"level": "villag", "at_least": 1}, "X102", "no level 'villag'"),
    ({"count": {"sticker": "hut", "in": "west"}, "at_least": 1}, "X102", "no region or territory 'west'"),
    ({"owner": "target", "at_least": 2}, "X530", "'owner' reads a name"),
    ({"count": {"sticker": "hut"}, "equals": "three"}, "X530", "reads a number, not the name 'three'"),
    ({"count": {"sticker": "hut"}, "at_most": -1}, "X531", "never holds"),
    ({"level": "village", "at_least": 3}, "X531", "never reaches 3"),
    ({"rank": {"points": [3, 1]}, "at_least": 4}, "X531", "a rank earns at most 3 points in one game"),
    ({"condition": "loop-a"}, "X532", "condition 'loop-a' names itself (loop-a -> loop-b -> loop-a)"),
])
def test_a_mistake_in_a_condition_is_an_error_at_its_line(tmp_path: Path, cond: dict[str, Any], code: str,
                                                           words: str) -> None:
    out = validate(tmp_path, _when(cond))
    hit = [line for line in out if code in line and words in line]
    assert hit, out
    assert "game.yaml:" in hit[0]  # FILE:LINE:COL of the mistake itself


@pytest.mark.parametrize("cond", [
    {"count": {"sticker": "hut"}},  # a count alone is not a condition
    {"count": {"sticker": "hut"}, "at_least": 1, "at_most": 2},  # two comparisons: join them with all
    {"all": []},
    {"count": {"sticker": "hut", "where": "north"}, "at_least": 1},
    {"game": "colour", "equals": "red"},
    {"rank": {"total": True}, "equals": 3},  # a total of ranks: only points by rank add up
])
def test_a_malformed_condition_is_refused_by_the_schema(tmp_path: Path, cond: dict[str, Any]) -> None:
    out = validate(tmp_path, _when(cond))
    assert not out[-1].startswith("0 errors"), out


def test_a_count_alone_is_not_a_condition() -> None:
    from scarbook.campaign.lang import LanguageError, Library

    with pytest.raises(LanguageError, match="compare it"):
        Library({}).compile({"count": {"sticker": "hut"}})

