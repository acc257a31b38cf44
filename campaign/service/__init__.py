"""The campaign service: every operation a command asks of a campaign file, as one call each.

`reading` answers (the state for `status`, `where`, `sheet`; the full re-check for `check`; the game as
the campaign has it for `build --campaign`); `writing` changes the file (`record` a new event, `undo`,
`create` a campaign). Both read the ledger through the cache and replay through `replaycache`, so they
are the only modules above the domain that know a cache exists. They return values (results,
diagnostics); the CLI turns those into text, JSON and exit codes. Failures the CLI reports as
diagnostics are raised as `LedgerError`, `LedgerBusy`, `ContentError` or `OSError`.
"""

from scarbook.campaign.ledger.file import LedgerBusy, LedgerError

__all__ = ["LedgerBusy", "LedgerError"]
