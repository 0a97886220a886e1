"""Where a seat was taken from, kept without keeping the address.

Fair play asks whether two seats, or two accounts, came from one place; the
answer must not need the addresses themselves, which are a person's private
data and must never reach a page. So an address is folded to a keyed hash:
HMAC-SHA256 under a key this database keeps (`site_secrets`, made at random
the first time any process asks), cut to 16 hex characters. Equal addresses
give equal origins on every process; without the key nobody can walk the
small IPv4 space back to an address, as they could from a plain hash.
"""

from __future__ import annotations

import hashlib
import hmac

from sqlalchemy.ext.asyncio import AsyncEngine

from .networks import network_of
from .site_keys import SiteKey

KEY_NAME = "origin"
LENGTH = 16  # hex characters: 64 bits, no two addresses of one site alike in practice


def fold(address: str, key: bytes) -> str:
    """`address` as an origin under `key`.

    >>> fold("203.0.113.7", b"k") == fold("203.0.113.7", b"k") != fold("203.0.113.8", b"k")
    True
    >>> len(fold("::1", b"k"))
    16
    """
    return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()[:LENGTH]


class Origins:
    """Folds addresses under the database's key, read (or made) once per process."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.site_key = SiteKey(engine, KEY_NAME)

    async def of(self, address: str | None) -> str | None:
        """The origin of `address`; None when the address is unknown."""
        if not address:
            return None
        return fold(network_of(address), await self.key())

    async def key(self) -> bytes:
        return await self.site_key.key()
