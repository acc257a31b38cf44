"""The `scarbook` console script: the lazy Typer app of `scarbook.cli.main`."""

from __future__ import annotations


def run() -> None:
    from .main import app

    app()
