"""scarbook: content compiler and campaign tracker for legacy board games.

The installed package holds everything: `scarbook.compiler` (load, validate, render),
`scarbook.campaign` (the ledger and the legality engine), `scarbook.cli` (the Typer face),
and the data folders `scarbook.content`, `scarbook.schemas`, `scarbook.templates`.
This module must stay import-light: the tracker's start-up path goes through it.
"""

__version__ = "0.1.0"
