"""docs/development/options.md names a test for every content option that changes what the tracker does.

The options are read from the schemas, so a new one (a key of `game.campaign` or of a step, a `who` or `does`,
a check, a scope of a limit, a key of a schedule entry, a trigger condition, a key of `links`) fails here until
the table has its row; every test a row names must exist.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
TABLE = ROOT / "docs" / "development" / "options.md"

FILES = {"options": "test_homebrew_options.py", "steps": "test_steps_unit.py", "shapes": "test_campaign_shapes.py",
         "generic": "test_campaign_checks_generic.py", "coverage": "test_campaign_rules_coverage.py",
         "refusals": "test_campaign_refusals.py", "homebrew": "test_homebrew_play.py",
         "patches": "test_step_patches.py", "harbor": "test_harbor_watch.py", "rules": "test_campaign_rules.py",
         "sf": "test_shadow_forces_campaign.py", "partthree": "test_rules_part_three.py",
         "unit": "test_campaign_checks_unit.py",
         "connected": "test_campaign_board_connected.py", "lang": "test_campaign_language.py",
         "sites": "test_campaign_language_sites.py", "players": "test_players_join_leave.py"}
NOT_BEHAVIOUR = {"id", "name", "text", "cite", "source", "replace", "patch", "notes", "game", "title", "objective",
                 "special", "at_end"}


def schema(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))  # type: ignore[no-any-return]


def options_in_schemas() -> set[str]:
    game = schema("game")["$defs"]
    campaign = game["game"]["properties"]["campaign"]["properties"]
    out = {f"campaign.{k}" for k in campaign if k not in NOT_BEHAVIOUR}
    out |= {"campaign.pieces.claim", "campaign.game_types.in_order", "campaign.overall_winner.tie_bonus"}
    step = game["step"]["properties"]
    out |= {f"step.{k}" for k in step if k not in NOT_BEHAVIOUR | {"who", "does"}}
    out |= {f"step.who: {w}" for w in step["who"]["enum"]} | {f"step.does: {d}" for d in step["does"]["enum"]}
    checks = schema("checks")["$defs"]
    out |= {f"check: {c}" for c in checks["params"]}
    limit = checks["params"]["limit"]["properties"]
    out |= {f"limit.per: {p}" for p in limit["per"]["items"]["enum"]}
    out |= {f"limit.only: {o}" for o in limit["only"]["enum"]}
    out |= {"limit.of: sticker or kind", "limit.of: deck", "limit.max: track", "limit.max: stat"}
    entry = schema("rulebook")["$defs"]["scheduled-game"]["properties"]
    out |= {f"schedule.{k}" for k in entry if k not in NOT_BEHAVIOUR}
    for cond in schema("envelopes")["$defs"]["condition"]["oneOf"]:
        out |= {f"trigger.{k}" for k in cond.get("properties", {})} | ({f"trigger.{cond['const']}"}
                                                                        if "const" in cond else set())
    links = schema("stickers")["$defs"]["sticker"]["properties"]["links"]["properties"]
    out |= {f"links.{k}" for k in links if k not in NOT_BEHAVIOUR}
    return out


def rows() -> dict[str, tuple[str, str]]:
    out = {}
    for line in TABLE.read_text("utf-8").splitlines():
        m = re.match(r"\| `([^`]+)` \| (.+?) \| (.+?) \|$", line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(3))
    return out


def test_every_option_of_the_schemas_has_a_row() -> None:
    missing = sorted(options_in_schemas() - set(rows()))
    assert not missing, f"add a row (and a test) to {TABLE.name} for: {', '.join(missing)}"


def test_every_row_is_an_option_of_the_schemas() -> None:
    assert not sorted(set(rows()) - options_in_schemas())


def test_every_test_a_row_names_exists() -> None:
    for option, (tests, both_ways) in rows().items():
        for named in re.findall(r"(\w+)::(\w+)(?:::(\w+))?", tests):
            prefix, first, second = named
            assert prefix in FILES, (option, prefix)
            text = (ROOT / "tests" / FILES[prefix]).read_text("utf-8")
            assert re.search(rf"^\s*(def|class) {first}\b", text, re.M), (option, first)
            if second:
                assert re.search(rf"^\s+def {second}\b", text, re.M), (option, second)
        assert both_ways in ("yes", "yes (unit)", "yes (cancelled marks too)", "one way", "none", "n/a"), option
        assert tests.startswith("none") == (both_ways in ("none", "n/a")), option  # a gap names no test

