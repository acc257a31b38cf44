"""`scarbook playtest FILE…`: play each play-test file's campaign and report every difference at its line."""

from pathlib import Path
from typing import Annotated

import typer

from scarbook.cli.terminal import echo


def playtest(
    files: Annotated[list[Path], typer.Argument(help="Play-test files (YAML: game, players, steps).",
                                                exists=True, dir_okay=False, show_default=False)],
) -> None:
    """Play play-test files: commands and their expected outcomes, on a scratch campaign; differences at their line.

    Each step is a command as typed after 'scarbook campaign', expected to be recorded (exit 0) or
    refused with a code ('refused: R230'), optionally with text its output shows or lacks and fields of
    its JSON output. Prints FILE:LINE:COL: step N `COMMAND`: expected ...; got ... for each difference,
    then a summary. The user's campaign file is never touched. Exit 0 when every step did what its file
    expects, 1 on any difference or a file that cannot be run.

    Example: scarbook playtest my-game/playtest.yaml
    """
    from scarbook.cli.playrun import run
    from scarbook.compiler.playtest import read
    from scarbook.kernel.paths import display_path

    failed = False
    for file in files:
        test, problems = read(file, display_path(file))
        if test is None:
            for problem in problems:
                echo(problem.render())
            echo(f"{display_path(file)}: not run: {len(problems)} problem{'s' if len(problems) != 1 else ''} "
                 "in the play-test file")
            failed = True
            continue
        report = run(test)
        title = f" ({test.title})" if test.title else ""
        if report.setup:
            echo(f"{test.game_span}: the campaign could not be created from 'game:' and 'players:': {report.setup}")
            echo(f"{test.shown}{title}: not run")
            failed = True
            continue
        for difference in report.differences:
            echo(difference.render())
        steps_with = len({d.step for d in report.differences})
        echo(f"{test.shown}{title}: {report.ran} step{'s' if report.ran != 1 else ''}, "
             f"{report.ran - steps_with} as expected, {len(report.differences)} "
             f"difference{'s' if len(report.differences) != 1 else ''}")
        failed = failed or bool(report.differences)
    if failed:
        raise typer.Exit(1)
