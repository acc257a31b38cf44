"""The outputs speak a co-operative game's shape (issue 38, item 13): harbor-watch played a month.

`campaign diff` tells a lost team game as "Month 1 lost (try 1 of 2)" (not "Game 1 ends:  wins"), and
`campaign chronicle` (which crashed with "'dict object' has no attribute 'tie'" on every co-operative
campaign) writes its pages with the team's result and no signatures table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from campaigns.helpers import invoke

from conftest import EXAMPLES, pdftotext

HW = EXAMPLES / "harbor-watch"


def _month_lost(tmp_path: Path) -> Path:
    file = tmp_path / "c.yaml"
    for line in (["new", str(file), "--game", str(HW), "--player", "Ann", "--player", "Bob"],
                 ["game", "start", "--play", "Ann=ada", "--play", "Bob=bram"], ["game", "end", "--team", "lost"]):
        done = invoke(line, file)
        assert done.exit_code == 0, done.output
    return file


def test_diff_tells_a_lost_team_game_in_the_games_words(tmp_path: Path) -> None:
    file = _month_lost(tmp_path)
    done = invoke(["diff", "0"], file)
    assert done.exit_code == 0, done.output
    assert "  Game 1 ends: Month 1 lost (try 1 of 2); Ann and Bob held on (line 11)" in done.output.splitlines()
    assert " wins" not in done.output


@pytest.mark.slow
def test_the_chronicle_of_a_co_operative_campaign(tmp_path: Path) -> None:
    """Slow (a chronicle rendered to PDF): the chronicle of a co-operative campaign with a month lost."""
    file = _month_lost(tmp_path)
    out = tmp_path / "chronicle.pdf"
    done = invoke(["chronicle", "--out", str(out)], file)
    assert done.exit_code == 0 and done.exception is None, done.output
    text = pdftotext(out)
    assert "The campaign is still open (0 of 12 months won, at least 8 needed)" in text
    assert "Signatures" not in text and "signature" not in text
