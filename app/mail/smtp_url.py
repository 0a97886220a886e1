"""SMTP_URL read: where mail goes, and how the connection is kept private.

`smtps://user:pass@host[:465]`: TLS from the first byte (implicit TLS, RFC 8314).
`smtp://user:pass@host[:587]`: plain at first, upgraded by STARTTLS whenever the
server offers it (a relay on the same host or network may offer none; then the
mail, and the credentials if any, go in the clear: use smtps:// or a relay that
offers STARTTLS across any network you do not own). User and password are
percent-decoded; without them no AUTH is attempted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True, slots=True)
class SmtpTarget:
    host: str
    port: int
    implicit_tls: bool
    user: str | None = None
    password: str | None = field(default=None, repr=False)  # never in a log line


def parse(url: str) -> SmtpTarget:
    """The target of `url`; ValueError naming what is wrong (never echoing the password)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError("SMTP_URL starts with smtp:// or smtps://")
    if not parts.hostname:
        raise ValueError("SMTP_URL names no host")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("SMTP_URL's port is not a number from 1 to 65535") from None
    implicit = parts.scheme == "smtps"
    return SmtpTarget(host=parts.hostname, port=port or (465 if implicit else 587), implicit_tls=implicit,
                      user=unquote(parts.username) if parts.username else None,
                      password=unquote(parts.password) if parts.password else None)
