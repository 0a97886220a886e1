"""The links a mail carries, signed so no session is needed to use them.

A token is its fields joined by dots and an HMAC-SHA256 of them under a key
the database keeps (`site_secrets` "mail", made at random on first use, so
every process signs alike), keyed by the link's purpose too: a verification
token is never an unsubscribe one. A verification token names the account,
its expiry and a hash of the address it was sent to: a changed address makes
every earlier link useless. An unsubscribe token names the account and the
kind, and has no expiry (an old mail's link still works, as RFC 8058 expects).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import site_secrets

KEY_NAME = "mail"
MAX_TOKEN = 200


class Keys:
    """The database's mail key, read (or made) once per process."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._key: bytes | None = None

    async def key(self) -> bytes:
        if self._key is None:
            self._key = await self._read_or_make()
        return self._key

    async def _read_or_make(self) -> bytes:
        query = select(site_secrets.c.value).where(site_secrets.c.name == KEY_NAME)
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).scalar_one_or_none()
        if found is None:
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(site_secrets.insert().values(name=KEY_NAME, value=secrets.token_hex(32)))
            except IntegrityError:
                pass  # another process made it first: theirs is the key
            async with self.engine.connect() as conn:
                found = (await conn.execute(query)).scalar_one()
        return bytes.fromhex(found)


def _mac(key: bytes, purpose: str, body: str) -> str:
    digest = hmac.new(key, f"{purpose}|{body}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


def sign(key: bytes, purpose: str, *fields: str) -> str:
    body = ".".join(fields)
    return f"{body}.{_mac(key, purpose, body)}"


def read(key: bytes, purpose: str, token: str, count: int) -> list[str] | None:
    """The `count` fields of a token signed for `purpose`; None if forged, cut or another's."""
    if not token or len(token) > MAX_TOKEN:
        return None
    body, _, mac = token.rpartition(".")
    fields = body.split(".")
    if len(fields) != count or not hmac.compare_digest(mac.encode(), _mac(key, purpose, body).encode()):
        return None
    return fields


def address_key(key: bytes, address: str) -> str:
    """What one address is counted by, whatever its case and whichever account names it."""
    return hmac.new(key, b"address|" + address.strip().lower().encode(), hashlib.sha256).hexdigest()
