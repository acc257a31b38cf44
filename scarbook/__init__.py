"""scarbook: content compiler and campaign tracker for legacy board games.

The installed package holds everything: `scarbook.compiler` (load, validate, render),
`scarbook.campaign` (the ledger and the legality engine), `scarbook.cli` (the Typer face),
and the data folders `scarbook.content`, `scarbook.schemas`, `scarbook.templates`.
This module must stay import-light: the tracker's start-up path goes through it.
"""

__version__ = "0.3.0"  # the release; pyproject.toml reads it from here (CHANGELOG.md says what changed)


def installed_version() -> str:
    """The version in the installed package's metadata (what pip installed), else this source's."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scarbook")
    except PackageNotFoundError:
        return __version__
