"""The `scarbook` console script: a start-up fast path for the tracker's most used command.

`scarbook campaign status` runs without building the whole Typer app (every command module and
its options); everything else, `--help` included, goes through `scarbook.cli.main.app`.
"""

from __future__ import annotations

import sys


def run() -> None:
    argv = sys.argv[1:]
    if argv[:2] == ["campaign", "status"] and not {"--help", "-h"} & set(argv):
        from .campaign.status import main as status

        raise SystemExit(status(argv[2:]))
    from .main import app

    app()
