"""`Idempotency-Key` on create, join and rematch: a resend is
answered as the first request was, and two requests racing with one key make one
match.

Create, join and rematch hand out a seat's token once; a client whose answer was
lost resends the same request with the same key and gets the same answer (status
and body, token included) for a day. The key belongs to its caller (an account,
a seat's token, or a guest's address): another caller using the same key is
another request, and the same caller using it for another call (another match's
join or rematch) or body is refused.

How a request with a key goes:

1. A row is claimed for (call, caller, key) before the work is done; the row's
   primary key makes exactly one of several racing requests the first, on every
   server process alike.
2. The first does the work and stores the answer in the row. An error is not
   kept: the row goes, and a resend is tried afresh.
3. Any other finds the row: a different body is refused 422; otherwise it waits
   for the first's answer (a few seconds at most, then 409 `request_in_flight`
   with a Retry-After) and answers it. A first with no answer after a minute
   died with its process: its row goes and the resend does the work.

What the row holds is of no use to a reader of the database: the row's id is a
hash of the key, and the answer is sealed (AES-GCM) with a key derived from the
Idempotency-Key itself, which only the client holds. Rows older than a day go as
new ones come, as sessions do (app/db/sessions.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.resend_models import kept_answers
from app.kernel.errors import BadRequest, ServiceError
from app.matches import Caller

HEADER = "Idempotency-Key"
KEPT_FOR = timedelta(days=1)
KEY_MIN, KEY_MAX = 16, 255  # long enough to be unguessable: the answer is sealed with it
KEY_PATTERN = "^[!-~]+$"  # visible ASCII: what a header carries as it is
SWEEP_EVERY = timedelta(minutes=1)  # between two sweeps of old rows by one process
STALE_CLAIM = timedelta(minutes=1)  # a first request with no answer by then died with its process


class KeyReused(ServiceError):
    status, code = 422, "idempotency_key_reused"


class InFlight(ServiceError):
    status, code = 409, "request_in_flight"
    headers = {"Retry-After": "1"}


def check_key(key: str) -> str:
    if not KEY_MIN <= len(key) <= KEY_MAX or not all("!" <= c <= "~" for c in key):
        raise BadRequest(f"{HEADER}: {KEY_MIN} to {KEY_MAX} visible ASCII characters (a random UUID does), "
                         f"not {len(key)} characters")
    return key


def caller_of(caller: Caller) -> str:
    """Whose key it is: an account's, whatever its address; else a seat's (a rematch
    is asked with a seat's token: the two seats of a match played from one address
    must not share an answer, which holds a token); else a guest's address."""
    if caller.account_id is not None:
        return f"account:{caller.account_id}"
    if caller.token is not None:
        return "seat:" + _hash("magery seat", caller.token)
    return f"address:{caller.address or '-'}"


def _hash(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _seal_key(key: str, caller: str) -> bytes:
    # Derived from the Idempotency-Key, never stored: the row's id is another hash of it.
    return hmac.new(key.encode(), f"magery kept answer\0{caller}".encode(), hashlib.sha256).digest()


class Resends:
    """The kept answers of one app, in `engine`'s `kept_answers` table."""

    def __init__(self, engine: AsyncEngine, wait_seconds: float = 10.0) -> None:
        self.engine = engine
        self.wait_seconds = wait_seconds  # how long a resend waits for the first request's answer
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)  # tests move it
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep
        self._swept_at: datetime | None = None

    async def answer(self, key: str | None, call: str, caller: Caller, body: Any,
                     work: Callable[[], Awaitable[tuple[int, bytes]]]) -> tuple[int, bytes, bool]:
        """(status, JSON body, replayed): `work`'s answer, or the one kept for this
        key. `call` names the call ("create", "join:<id>"), `body` the request's
        body as validated (its JSON form is compared). A key is its caller's, for one
        call: the same key for another call or body is refused."""
        if key is None:
            status, raw = await work()
            return status, raw, False
        check_key(key)
        who = caller_of(caller)
        row_id = _hash("magery kept answer id", who, key)
        request = _hash(call, json.dumps(body, sort_keys=True, separators=(",", ":")))
        seal = AESGCM(_seal_key(key, who))
        await self._sweep()
        waited_until = time.monotonic() + self.wait_seconds
        pause = 0.01
        while True:
            if await self._claim(row_id, request):
                return (*await self._first(row_id, seal, work), False)
            async with self.engine.connect() as conn:
                row = (await conn.execute(select(kept_answers).where(kept_answers.c.id == row_id))).first()
            if row is None:
                continue  # the first failed and let go: this one may be the first now
            if not hmac.compare_digest(row.request_hash, request):
                raise KeyReused(f"this {HEADER} was used for another request (another body or call) "
                                "within the day: use a new key for a new request")
            if row.status is not None and row.sealed is not None:
                try:
                    return row.status, seal.decrypt(row.sealed[:12], row.sealed[12:], row_id.encode()), True
                except InvalidTag:  # cannot happen with the same key; never a 500 if it does
                    raise KeyReused(f"the answer kept for this {HEADER} cannot be read with it") from None
            if row.created_at < self.clock() - STALE_CLAIM:
                # Its process died between claim and answer: let this one be the first.
                async with self.engine.begin() as conn:
                    await conn.execute(delete(kept_answers).where(
                        kept_answers.c.id == row_id, kept_answers.c.status.is_(None)))
                continue
            if time.monotonic() >= waited_until:
                raise InFlight(f"a request with this {HEADER} is still being answered; resend it in a moment")
            await self.pause(pause)
            pause = min(pause * 2, 0.2)

    async def _claim(self, row_id: str, request: str) -> bool:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(kept_answers.insert().values(
                    id=row_id, request_hash=request, status=None, sealed=None, created_at=self.clock()))
        except IntegrityError:
            return False
        return True

    async def _first(self, row_id: str, seal: AESGCM,
                     work: Callable[[], Awaitable[tuple[int, bytes]]]) -> tuple[int, bytes]:
        try:
            status, raw = await work()
        except BaseException:
            # Not kept: a resend after an error (a 409, a 429, a lost database) is tried afresh.
            async with self.engine.begin() as conn:
                await conn.execute(delete(kept_answers).where(kept_answers.c.id == row_id))
            raise
        nonce = os.urandom(12)
        sealed = nonce + seal.encrypt(nonce, raw, row_id.encode())
        async with self.engine.begin() as conn:
            await conn.execute(kept_answers.update().where(kept_answers.c.id == row_id)
                               .values(status=status, sealed=sealed))
        return status, raw

    async def _sweep(self) -> None:
        """Rows older than a day go, at most once a minute per process."""
        now = self.clock()
        if self._swept_at is not None and now - self._swept_at < SWEEP_EVERY:
            return
        self._swept_at = now
        async with self.engine.begin() as conn:
            await conn.execute(delete(kept_answers).where(kept_answers.c.created_at < now - KEPT_FOR))
