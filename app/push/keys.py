"""The server's VAPID key pair (RFC 8292): the one every process signs its
pushes with, and whose public half the browsers subscribe with.

A push service ties a subscription to the public key it was made with and
refuses a push signed by any other, so every process must sign with the same
key, for good: it is either given (`VAPID_PRIVATE_KEY`, the raw 32-byte P-256
private key in URL-safe base64, as `vapid --gen` or web-push's tools print it)
or made once, the first time any process asks, and kept in the database
(`site_secrets`, name "vapid"). Two processes making it at once insert under
one primary key: one insert wins and both read the winner's.
"""

from __future__ import annotations

import base64
import binascii
import secrets

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import site_secrets

KEY_NAME = "vapid"
# P-256's order: a private key is a number from 1 to this, less one.
_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def b64url(raw: bytes) -> str:
    """URL-safe base64 without padding, as the Push API writes keys."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def from_b64url(text: str) -> bytes:
    """The bytes of URL-safe base64, padded or not; ValueError when it is none."""
    if not isinstance(text, str) or not text.isascii() or not text.replace("-", "a").replace("_", "a").rstrip(
            "=").isalnum():
        raise ValueError("not URL-safe base64")
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not URL-safe base64") from None


def private_key_of(text: str) -> ec.EllipticCurvePrivateKey:
    """The P-256 private key written raw in URL-safe base64; ValueError otherwise."""
    raw = from_b64url(text.strip())
    number = int.from_bytes(raw, "big")
    if len(raw) != 32 or not 0 < number < _ORDER:
        raise ValueError("a VAPID private key is 32 bytes of URL-safe base64, a P-256 private key")
    return ec.derive_private_key(number, ec.SECP256R1())


def new_private_key() -> str:
    """A new P-256 private key, raw, in URL-safe base64."""
    while True:  # all but never more than once
        raw = secrets.token_bytes(32)
        if 0 < int.from_bytes(raw, "big") < _ORDER:
            return b64url(raw)


class VapidKeys:
    """The key pair, read (or made) once per process."""

    def __init__(self, engine: AsyncEngine, given: str | None = None) -> None:
        self.engine = engine
        self._given = given
        self._vapid: Vapid02 | None = None
        self._public: str | None = None

    async def signer(self) -> Vapid02:
        """What signs a push's JWT (py_vapid's RFC 8292 signer)."""
        if self._vapid is None:
            key = private_key_of(self._given if self._given else await self._read_or_make())
            point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
            self._vapid, self._public = Vapid02(key), b64url(point)
        return self._vapid

    async def public_key(self) -> str:
        """The public key as `PushManager.subscribe`'s `applicationServerKey` takes
        it: the uncompressed P-256 point (65 bytes), URL-safe base64."""
        await self.signer()
        assert self._public is not None
        return self._public

    async def _read_or_make(self) -> str:
        found = await self._read()
        if found is None:
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(site_secrets.insert().values(name=KEY_NAME, value=new_private_key()))
            except IntegrityError:
                pass  # another process made it first: theirs is the key
            found = await self._read()
            assert found is not None
        return found

    async def _read(self) -> str | None:
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(site_secrets.c.value).where(site_secrets.c.name == KEY_NAME))
                     ).scalar_one_or_none()
        return None if found is None else str(found)
