"""`scarbook serve`: a local web companion over one campaign file, for the phones around the table.

After fava over beancount: the plain-text ledger stays the only state; every page is rendered on the
server from the campaign service (`scarbook.campaign.service`) and every write goes through the same
service functions as the CLI (`writing.record`, `writing.undo`), carrying the sha256 of the file the
page was built from (refused with L012 when another device or the CLI wrote meanwhile). `security`
holds the join token, the CSRF check and the response headers; `app` the routes; `forms` turns a
posted form into an event. Only this command imports Starlette and uvicorn.
"""
