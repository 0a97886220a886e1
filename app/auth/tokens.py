"""Secret tokens (a session's cookie, an API token): made random, kept only as
their sha256, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """What is stored of a token: a copy of the table proves nothing."""
    return hashlib.sha256(token.encode()).hexdigest()


def same(given: str | None, expected: str) -> bool:
    """Constant-time comparison, so timing tells nothing of the token."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())
