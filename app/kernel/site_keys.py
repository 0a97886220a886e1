"""A secret key the whole site shares, kept in the database by name.

Every process must sign and fold with the same key (a link mailed by one
process is checked by another; an address folded on one is compared on
another), so the key is read from `site_secrets`, or made there by whichever
process asks first: a second maker's insert clashes on the name and it reads
the first's. Each process reads it once.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import site_secrets


class SiteKey:
    def __init__(self, engine: AsyncEngine, name: str) -> None:
        self.engine, self.name = engine, name
        self._key: bytes | None = None

    async def key(self) -> bytes:
        if self._key is None:
            self._key = await self._read_or_make()
        return self._key

    async def _read_or_make(self) -> bytes:
        query = select(site_secrets.c.value).where(site_secrets.c.name == self.name)
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).scalar_one_or_none()
        if found is None:
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(site_secrets.insert().values(name=self.name, value=secrets.token_hex(32)))
            except IntegrityError:
                pass  # another process made it first: theirs is the key
            async with self.engine.connect() as conn:
                found = (await conn.execute(query)).scalar_one()
        return bytes.fromhex(found)
