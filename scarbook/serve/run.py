"""Start the server: check the campaign file reads, print the address (with the join link when shared),
and run uvicorn until Ctrl-C."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

from scarbook.serve.security import Guard


def lan_address() -> str:
    """This machine's address on the home network, as its name resolves (no packet is sent); '' if unknown."""
    try:
        found = socket.gethostbyname(socket.gethostname())
    except OSError:
        return ""
    return "" if found.startswith("127.") else found


def serve(path: Path, host: str, port: int, read_only: bool, echo: Callable[[str], object] | None = None) -> None:
    """Serve the campaign in `path` on host:port (blocks)."""
    import uvicorn

    from scarbook.campaign.service import table
    from scarbook.serve.app import create_app, join_link

    say = echo or print
    table.fingerprint(path)  # a missing or unreadable file: LedgerError now, not on the first page
    guard = Guard.for_host(host, port, read_only)
    say(f"serving {path} at {join_link('127.0.0.1' if host in ('0.0.0.0', '::') else host, port, None)}"
        + (" (read-only)" if read_only else "") + "; Ctrl-C stops it")
    if guard.token is not None:
        shown = lan_address() if host in ("0.0.0.0", "::") else host
        say(f"join link for the other devices (it holds the table's token; every page needs it): "
            f"{join_link(shown or host, port, guard.token)}")
    uvicorn.run(create_app(path, guard), host=host, port=port, log_level="warning", access_log=False)
