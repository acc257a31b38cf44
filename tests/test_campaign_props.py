"""Property tests: random command sequences never leave a file `check` rejects, never a traceback."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from campaigns.helpers import SETUP, START, invoke, run_script
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import no_internal_errors

PLAYERS = ["Ann", "Bob", "Cat", "Zed"]
STICKERS = ["coin", "minor-city", "major-city", "fortification", "scar-cancel", "continent-plus-one",
            "continent-minus-one", "continent-name", "bunker", "ammo-shortage", "first-game-power",
            "khan-industries-hq-reinforcements", "mercenary", "bio-hazard", "card-destroyed"]
TARGETS = ["alaska", "peru", "AlAsKa", "europe", "asia", "coin-card", "die-mechaniker", "great-britain", "xx",
           "peru-card", "ontario"]

place = st.builds(lambda s, t, p, n: ["place", s, t, *(["--by", p] if p else []), *(["--name", n] if n else [])],
                  st.sampled_from(STICKERS), st.sampled_from(TARGETS), st.sampled_from([*PLAYERS, ""]),
                  st.sampled_from(["", "Xanadu"]))
end = st.builds(lambda w, e: ["game", "end", "--winner", w, *(x for p in e for x in ("--eliminated", p))],
                st.sampled_from(PLAYERS), st.lists(st.sampled_from(PLAYERS), max_size=2))
command = st.one_of(
    place, place, place, end,
    st.just(START.split()),
    st.builds(lambda c, p: ["destroy", c, "--by", p], st.sampled_from(["peru", "coin-card", "japan"]),
              st.sampled_from(PLAYERS)),
    st.builds(lambda e: ["open", e], st.sampled_from(["faction-eliminated", "nine-minor-cities", "nope",
                                                      "three-missiles"])),
    st.just(["undo"]), st.just(["tick", "peru"]),
    st.builds(lambda s: ["where", s], st.sampled_from(STICKERS)),
)


@pytest.fixture(scope="module")
def base_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    file = tmp_path_factory.mktemp("base") / "c.yaml"
    assert not run_script(SETUP + START + "\ngame end --winner Ann --held-on Bob --eliminated Cat\n", file)
    return file


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(command, min_size=1, max_size=10))
def test_random_commands_keep_the_file_legal(base_file: Path, commands: list[list[str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "c.yaml"
        shutil.copy(base_file, file)
        for args in commands:
            before = file.read_bytes()
            result = invoke(args, file)
            assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
            assert result.exit_code in (0, 1, 2)
            no_internal_errors(result.output), (args, result.output)
            assert "Traceback" not in result.output
            no_internal_errors(result.output)
            if result.exit_code != 0:
                assert file.read_bytes() == before, args
        checked = invoke(["check"], file)
        assert checked.exit_code == 0, (commands, checked.output)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300).map(lambda t: t.encode("utf-8", "replace"))))
def test_any_bytes_as_a_ledger_end_in_diagnostics(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "c.yaml"
        file.write_bytes(data)
        for args in (["status"], ["check"], ["place", "coin", "alaska"]):
            result = invoke(args, file)
            assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
            assert result.exit_code in (0, 1, 2)
            no_internal_errors(result.output)
