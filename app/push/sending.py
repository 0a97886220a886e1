"""The push channel: hands one notification to the push service of each
browser the account subscribed, encrypted and signed.

pywebpush (with http-ece and py-vapid) does the two parts that are easy to get
subtly wrong: the payload's aes128gcm encryption to the browser's keys (RFC
8291) and the VAPID JWT (RFC 8292). Both are CPU work, done in a worker thread
so the event loop never waits on them. The POST itself is ours, on aiohttp
(pywebpush's own HTTP dependency): it follows no redirect (a push service
never sends one, and following it would call an address nobody checked), reads
no proxy from the environment, and has a deadline.

Each subscription's answer: 201 (or any 2xx) taken; 404 or 410 the subscription
is gone for good, and forgotten; 429 or 5xx, or no answer, busy: try again;
another refusal (400, 403, 413: a subscription made with another key, say) is
logged and not retried. Every browser of the account is pushed to at once;
together: `Delivered` when any service took it (a busy one's browser then
misses this one: trying them all again would tell the others twice), else
`RetryLater` when one was busy, else `Gone`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from pywebpush import WebPusher
from sqlalchemy.ext.asyncio import AsyncEngine

from .away import watching
from .endpoints import BadEndpoint, checked_endpoint
from .keys import VapidKeys
from .outcomes import Delivered, Gone, Outcome, RetryLater
from .payload import PushItem
from .subscriptions import Subscription, forget, of_account

log = logging.getLogger("magery.push")
JWT_HOURS = 12  # a signature's life (RFC 8292 allows at most a day)


@dataclass(frozen=True, slots=True)
class PushSettings:
    """What the channel reads of the configuration (app/config.py)."""

    endpoint_hosts: list[str]
    subject: str  # the JWT's `sub`: who the push service may contact (mailto: or https:)
    timeout_seconds: float
    presence_ttl_ms: int  # REST's presence rule (WS_DEAD_AFTER_SECONDS)


@dataclass(frozen=True, slots=True)
class _Answer:
    status: int | None  # None: no answer (refused, timed out)
    retry_after: float | None = None


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None  # an HTTP date: the outbox's own backoff will do


class PushChannel:
    """The outbox's channel "push" (`deliver`), one per process."""

    name = "push"

    def __init__(self, engine: AsyncEngine, keys: VapidKeys, settings: PushSettings,
                 clock: Callable[[], float] = time.time) -> None:
        self.engine, self.keys, self.settings, self.clock = engine, keys, settings, clock
        self._http: aiohttp.ClientSession | None = None

    async def deliver(self, item: PushItem) -> Outcome:
        now = self.clock()
        if item.match_id is not None and await watching(self.engine, item.account_id, item.match_id,
                                                        round(now * 1000), self.settings.presence_ttl_ms):
            return Delivered(skipped="watching")
        subscriptions = await of_account(self.engine, item.account_id)
        if not subscriptions:
            return Gone("the account has no push subscription")
        payload = item.json()
        answers = await asyncio.gather(*(self._push(sub, payload, item, now) for sub in subscriptions))
        busy: list[_Answer] = []
        sent = 0
        for sub, answer in zip(subscriptions, answers, strict=True):
            if answer.status is not None and 200 <= answer.status < 300:
                sent += 1
            elif answer.status in (404, 410):
                await forget(self.engine, sub)
            elif answer.status is None or answer.status == 429 or answer.status >= 500:
                busy.append(answer)
            else:
                log.warning("push refused with %s by %s", answer.status, urlsplit(sub.endpoint).hostname)
        if sent:
            return Delivered(sent=sent)
        if busy:
            waits = [a.retry_after for a in busy if a.retry_after is not None]
            return RetryLater(f"{len(busy)} push service(s) busy or out of reach", max(waits) if waits else None)
        return Gone("no push service took it: every subscription gone or refused")

    async def _push(self, sub: Subscription, payload: bytes, item: PushItem, now: float) -> _Answer:
        try:
            endpoint = checked_endpoint(sub.endpoint, self.settings.endpoint_hosts)
        except BadEndpoint as why:  # allowed once, no longer: never called
            log.warning("push endpoint no longer allowed, skipped: %s", why)
            return _Answer(status=403)
        signer = await self.keys.signer()
        body, headers = await asyncio.to_thread(self._sealed, sub, payload, item, signer, now)
        try:
            async with self._session().post(endpoint, data=body, headers=headers, allow_redirects=False,
                                            timeout=aiohttp.ClientTimeout(total=self.settings.timeout_seconds)) as r:
                return _Answer(r.status, _retry_after(r.headers.get("Retry-After")))
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("push to %s failed: %s", urlsplit(endpoint).hostname, type(exc).__name__)
            return _Answer(status=None)

    def _sealed(self, sub: Subscription, payload: bytes, item: PushItem, signer: Any,
                now: float) -> tuple[bytes, dict[str, str]]:
        """The encrypted body and the request's headers (in a worker thread)."""
        body = WebPusher(sub.info()).encode(payload, "aes128gcm")["body"]
        url = urlsplit(sub.endpoint)
        claims = {"aud": f"{url.scheme}://{url.netloc}", "exp": int(now) + JWT_HOURS * 3600,
                  "sub": self.settings.subject}
        headers = {**signer.sign(claims), "TTL": str(item.ttl_seconds), "Urgency": item.urgency,
                   "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream"}
        return body, headers

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(trust_env=False)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None
