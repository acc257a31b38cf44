"""The campaign tracker: a ledger of permanent changes, folded over a game's content.

`ledger` reads and writes the campaign file (atomic, locked, with a backup); `events` are its
frozen records; `state` folds them; `checks` is the catalog of generic legality predicates
that content names; `rules` puts them together (what is legal now, which packets to open);
`effective` gives the compiler a `Game` as it stands in a campaign. Nothing here imports
jsonschema, Jinja2 or WeasyPrint on the `status` path.
"""
