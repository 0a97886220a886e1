"""The counters' hooks, kept out of the perf-tuned parts they count.

- `MeteredGateway` is the gateway (app/matches/gateway.py) with a stopwatch on `play`,
  the one call every action takes (REST, the fast path, a socket, a bot): a
  counter and a histogram per action. It also gives a request id to a call
  that came without one (a socket's message, a bot's move: no HTTP request
  carried them past OpsOutermost), so the service's log lines about that call can
  be told apart: `ws-…` and `bot-…`.
- `MeteredBus` wraps this process's bus (app/realtime): it counts the LISTEN
  link's reconnects, and about once a second times one of its own
  announcements from the moment it is queued to the moment PostgreSQL
  delivers it back to this process's LISTEN (every listener hears every
  NOTIFY, its sender's own included): the bus's lag. On the Redis bus a
  process hears back only the lanes it follows: an announcement of a match
  followed elsewhere is never timed, and the next one is tried after
  PROBE_LOST_SECONDS.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from app.kernel.errors import ServiceError
from app.matches import Acted, Caller, Gateway
from app.realtime.bus import Announcement, Bus, Message

from .logs import REQUEST_ID
from .metrics import Metrics

PROBE_EVERY_SECONDS = 1.0
PROBE_LOST_SECONDS = 30.0  # an announcement never heard back (the link was down): try another


class MeteredGateway(Gateway):
    """The gateway, counting the actions through it (`metrics` is its only addition)."""

    def __init__(self, *args: Any, metrics: Metrics, **kwargs: Any) -> None:
        """Built as a Gateway is (whatever it is built with), plus the metrics it counts in."""
        super().__init__(*args, **kwargs)
        self.metrics = metrics

    async def play(self, match_id: str, caller: Caller, action: Any, version: int,
                   client_id: str | None = None) -> Acted:
        started = time.perf_counter()
        try:
            with traced(caller):
                acted = await super().play(match_id, caller, action, version, client_id)
        except ServiceError as refused:
            self.metrics.actions_refused.labels(refused.code).inc()
            raise
        if acted.duplicate:
            self.metrics.actions_resent.inc()
        else:
            self.metrics.actions_applied.inc()
            self.metrics.action_seconds.observe(time.perf_counter() - started)
        return acted


@contextlib.contextmanager
def traced(caller: Caller) -> Iterator[None]:
    """A request id for this call, if the HTTP front gave it none (put back after)."""
    if REQUEST_ID.get() is not None:
        yield
        return
    reset = REQUEST_ID.set(f"{'bot' if caller.bot is not None else 'ws'}-{os.urandom(8).hex()}")
    try:
        yield
    finally:
        REQUEST_ID.reset(reset)


class MeteredBus:
    """A `Bus` that is another bus, measured."""

    def __init__(self, inner: Bus, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics
        self._probe: Announcement | None = None
        self._probe_at = 0.0
        self._next_probe = 0.0

    async def start(self, on_message: Callable[[Message], None],
                    on_reconnect: Callable[..., None]) -> None:
        def heard(message: Message) -> None:
            if self._probe is not None and message == self._probe:
                self.metrics.bus_lag.observe(time.monotonic() - self._probe_at)
                self._probe = None
            on_message(message)

        def reconnected(match_ids: list[str] | None = None) -> None:
            if match_ids is None:  # the link came back (not a lane newly heard)
                self.metrics.bus_reconnects.inc()
                on_reconnect()
            else:
                on_reconnect(match_ids)

        await self.inner.start(heard, reconnected)

    def send(self, message: Message) -> None:
        if isinstance(message, Announcement):
            now = time.monotonic()
            if (self._probe is None and now >= self._next_probe) or now - self._probe_at > PROBE_LOST_SECONDS:
                self._probe, self._probe_at = message, now
                self._next_probe = now + PROBE_EVERY_SECONDS
        self.inner.send(message)

    def follow(self, match_id: str) -> None:
        self.inner.follow(match_id)

    def unfollow(self, match_id: str) -> None:
        self.inner.unfollow(match_id)

    async def close(self) -> None:
        await self.inner.close()


def metered_bus(bus: Bus, metrics: Metrics | None) -> Bus:
    return bus if metrics is None else MeteredBus(bus, metrics)
