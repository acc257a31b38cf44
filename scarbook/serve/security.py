"""Who may use the server and how: the join token, the CSRF check, the allowed Host names, safe headers.

- Bound to loopback (the default), requests must name a loopback Host (no DNS rebinding from a web page).
- Shared on a network (`--host`), every request needs the join token: the join link (`/join?token=...`)
  sets it as a cookie, so a device that was not given the link can neither read nor write.
- Every write (POST) carries a CSRF token equal to the browser's own random cookie (double submit) and,
  when the browser sends an Origin, one naming this server.
- Every page says by CSP that it loads nothing from outside this server and runs no inline script.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

LOOPBACK = ("127.0.0.1", "localhost", "::1")
JOIN_COOKIE = "scarbook_join"
CSRF_COOKIE = "scarbook_csrf"

HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # (no-referrer would make the browser send Origin: null)
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}


@dataclass(frozen=True)
class Guard:
    """The server's access rules: the join token (None on loopback) and the port it listens on."""

    token: str | None
    port: int
    read_only: bool = False

    @classmethod
    def for_host(cls, host: str, port: int, read_only: bool = False) -> Guard:
        """A token only when the server listens beyond this machine."""
        return cls(None if host in LOOPBACK else secrets.token_urlsafe(24), port, read_only)

    def host_allowed(self, host_header: str) -> bool:
        """On loopback only a loopback Host; shared, any (the token guards it)."""
        if self.token is not None:
            return True
        name = urlsplit(f"//{host_header}").hostname or ""
        return name in LOOPBACK

    def joined(self, cookie: str | None) -> bool:
        return self.token is None or (cookie is not None and secrets.compare_digest(cookie, self.token))

    def token_matches(self, given: str) -> bool:
        return self.token is not None and secrets.compare_digest(given, self.token)


def new_csrf() -> str:
    return secrets.token_urlsafe(24)


def csrf_ok(cookie: str | None, posted: str, origin: str | None, host_header: str) -> bool:
    """The posted CSRF token equals the browser's cookie, and the Origin (when sent) is this server."""
    if not cookie or not posted or not secrets.compare_digest(cookie, posted):
        return False
    return origin is None or urlsplit(origin).netloc == host_header
