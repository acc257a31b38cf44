"""The campaign ledger on disk: parsing it (`file`), its text (`text`), writing it under a lock (`write`),
the append journal a killed write leaves (`journal`), and the cache of parsed ledgers and folded states
(`cache`, with `lazylist`). Nothing here decides what is legal; `scarbook.campaign.service` is the one
caller that writes.
"""
