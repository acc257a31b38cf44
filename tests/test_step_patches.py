"""A pack adds or changes one end-of-game step of a shipped game (`steps`, issue 24 item 8), without restating the
campaign block; every mistake is an error at the entry's own file:line:col."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from conftest import EXAMPLES
from scarbook.campaign.model import CampaignModel
from scarbook.cli.main import app
from scarbook.compiler.load import load_game_folder, shipped_games

HEAD = "pack: {id: p, title: P, extends: risk-shadow-forces}\n"


def _validate(tmp_path: Path, body: str) -> tuple[int, str]:
    pack = tmp_path / "p"
    pack.mkdir(exist_ok=True)
    (pack / "pack.yaml").write_text(HEAD + body)
    result = CliRunner().invoke(app, ["validate", str(pack / "pack.yaml")])
    return result.exit_code, result.output


def test_the_example_pack_patches_one_step_and_keeps_the_others() -> None:
    base = CampaignModel.of(load_game_folder(shipped_games()["risk-shadow-forces"]).game)
    loaded = load_game_folder(shipped_games()["risk-shadow-forces"], [EXAMPLES / "shadow-forces-house-reward"])
    assert not [d for d in loaded.diagnostics if d.severity == "error"]
    model = CampaignModel.of(loaded.game)
    step = model.step("global", "winner-reward")
    assert step is not None and step.stickers[-1] == "victory-banner"
    old = base.step("global", "winner-reward")
    assert old is not None and step.stickers[:-1] == old.stickers and step.cite == old.cite and step.who == old.who
    assert [s.id for s in model.types["global"].steps] == [s.id for s in base.types["global"].steps]
    assert model.types["skirmish"] == base.types["skirmish"]


def test_a_new_step_goes_after_the_step_it_names(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "pack.yaml").write_text(HEAD + "steps:\n  - {game_type: skirmish, id: loser-sulks, after: sign, "
                                              "name: The losers sulk, who: eliminated, choose: [cancel-square], "
                                              "cite: \"house rule\"}\n")
    loaded = load_game_folder(shipped_games()["risk-shadow-forces"], [tmp_path / "p"])
    assert not [d for d in loaded.diagnostics if d.severity == "error"], loaded.diagnostics
    ids = [s.id for s in CampaignModel.of(loaded.game).types["skirmish"].steps]
    assert ids[ids.index("sign") + 1] == "loser-sulks"


def test_every_mistake_is_an_error_at_its_line(tmp_path: Path) -> None:
    file = str(tmp_path / "p" / "pack.yaml")
    cases = {
        "steps:\n  - {game_type: globle, id: winner-reward, patch: true, name: X}\n":
            f"{file}:3:18: error X521: Risk: Shadow Forces has no game type 'globle' (did you mean 'global'?); its "
            "types: global, skirmish",
        "steps:\n  - {game_type: global, id: winner-rewards, patch: true, name: X}\n":
            f"{file}:3:34: error X522: game type 'global' has no step 'winner-rewards' to patch (did you mean "
            "'winner-reward'?); its steps: faction-record, warlord-sticker, warlord-sticker-unassigned, "
            "warlord-upgrade, warlord-upgrade-unassigned, sign, winner-reward (remove 'patch: true' to add a new one)",
        "steps:\n  - {game_type: global, id: sign, who: winner, cite: x}\n":
            f"{file}:3:34: error X523: game type 'global' already has a step 'sign'; add 'patch: true' to change "
            "it, or choose another id",
        "steps:\n  - {game_type: global, id: extra, after: sing, who: winner, cite: x}\n":
            f"{file}:3:52: error X524: game type 'global' has no step 'sing' to go after (did you mean 'sign'?); its "
            "steps: faction-record, warlord-sticker, warlord-sticker-unassigned, warlord-upgrade, "
            "warlord-upgrade-unassigned, sign, winner-reward",
        "steps:\n  - {game_type: global, id: extra, who: winner}\n":
            f"{file}:3:5: error S002: this mapping needs 'cite'; add it",
    }
    for body, wanted in cases.items():
        code, out = _validate(tmp_path, body)
        line = body.splitlines()[1]
        token = {"X521": "globle", "X522": "winner-rewards", "X523": "sign", "X524": "sing", "S002": "{"}[
            wanted.split(" error ")[1][:4]]
        at = f"{file}:3:{line.index(token) + 1}:"  # the offending value itself, 1-based
        assert code == 1 and wanted.replace(wanted.split(" error ")[0], at) in out.splitlines(), (body, out)


def test_a_game_lists_its_steps_in_its_campaign_block(tmp_path: Path) -> None:
    game = tmp_path / "g.yaml"
    game.write_text((EXAMPLES / "tiny-game" / "game.yaml").read_text()
                    + "steps:\n  - {game_type: game, id: x, who: winner, cite: x}\n")
    result = CliRunner().invoke(app, ["validate", str(game), "--format", "json"])
    found = [d for d in json.loads(result.stdout) if d["code"] == "X520"]
    line = (EXAMPLES / "tiny-game" / "game.yaml").read_text().count("\n") + 2  # the entry, below 'steps:'
    assert result.exit_code == 1 and found and (found[0]["line"], found[0]["column"]) == (line, 5), result.output
