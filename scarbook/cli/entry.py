"""The `scarbook` console script: the lazy Typer app of `scarbook.cli.main`."""

from __future__ import annotations


def run() -> None:
    import gc

    from scarbook.cli.codecache import install

    install()  # the methods of dataclasses compiled once per user, not once per command
    from scarbook.cli.main import app

    try:
        app()
    finally:
        # The process ends here: Python's last garbage collection would walk every object still alive (a
        # 50,000-card pack's parsed values: 1.3 s of CPU); frozen, they are left to the operating system.
        gc.freeze()
