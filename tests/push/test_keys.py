"""The VAPID key pair: made once and kept in the database, so every process
signs with the same key, even when two make it at the same moment; or given
by VAPID_PRIVATE_KEY (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import base64

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy import select

from app.db import make_engine, upgrade
from app.db.models import site_secrets
from app.push import keys as keys_module
from app.push.keys import KEY_NAME, VapidKeys, b64url, new_private_key
from app.push.parts import make_push
from tests.conftest import make_settings
from tests.waiting import DEADLINE


async def test_two_processes_making_the_key_at_once_end_with_one(database_url: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def making() -> str:
        made.append(new_private_key())
        return made[-1]

    monkeypatch.setattr(keys_module, "new_private_key", making)
    # Every process reads "no key yet" before any of them writes one: the race, every time.
    read = VapidKeys._read
    looked: asyncio.Barrier | None = None

    async def reading(self: VapidKeys) -> str | None:
        found = await read(self)
        if looked is not None and not getattr(self, "looked", False):
            self.looked = True  # type: ignore[attr-defined]
            await asyncio.wait_for(looked.wait(), DEADLINE)
        return found

    monkeypatch.setattr(VapidKeys, "_read", reading)
    engines = [make_engine(database_url) for _ in range(4)]  # a process each, each with its own pool
    try:
        await upgrade(engines[0])
        for round_ in range(3):
            async with engines[0].begin() as conn:
                await conn.execute(site_secrets.delete().where(site_secrets.c.name == KEY_NAME))
            made.clear()
            looked = asyncio.Barrier(len(engines))
            keys = [VapidKeys(engine) for engine in engines]
            publics = await asyncio.gather(*(k.public_key() for k in keys))
            assert len(set(publics)) == 1, round_
            async with engines[0].connect() as conn:
                rows = (await conn.execute(select(site_secrets.c.value)
                                           .where(site_secrets.c.name == KEY_NAME))).all()
            assert len(rows) == 1
            assert len(made) == len(engines)  # each tried to make it; one insert won
            assert publics[0] in {public_of(m) for m in made}
            looked = None
            # Read again by a process started later: the same key.
            assert await VapidKeys(engines[1]).public_key() == publics[0]
    finally:
        for engine in engines:
            await engine.dispose()


def public_of(private: str) -> str:
    raw = int.from_bytes(base64.urlsafe_b64decode(private + "="), "big")
    return b64url(ec.derive_private_key(raw, ec.SECP256R1()).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint))


async def test_a_given_key_is_used_and_never_stored(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        await upgrade(engine)
        given = new_private_key()
        assert await VapidKeys(engine, given).public_key() == public_of(given)
        async with engine.connect() as conn:
            assert (await conn.execute(select(site_secrets).where(site_secrets.c.name == KEY_NAME))).all() == []
    finally:
        await engine.dispose()


@pytest.mark.parametrize("bad", ["short", "!" * 43, b64url(b"\x00" * 32), b64url(b"\xff" * 32)])
def test_a_bad_key_stops_the_app_at_its_start(bad: str) -> None:
    settings = make_settings("sqlite+aiosqlite://", vapid_private_key=bad)
    with pytest.raises(ValueError, match="VAPID_PRIVATE_KEY"):
        make_push(make_engine(settings.database_url), settings)


def test_a_bad_host_entry_stops_the_app_at_its_start() -> None:
    settings = make_settings("sqlite+aiosqlite://", push_endpoint_hosts=["http://10.0.0.1"])
    with pytest.raises(ValueError, match="PUSH_ENDPOINT_HOSTS"):
        make_push(make_engine(settings.database_url), settings)
