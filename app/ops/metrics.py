"""What `/metrics` says, in the Prometheus text format (prometheus_client).

Each app has a registry of its own (a test process builds many apps). The
counters are bumped by thin wrappers around the parts (app/ops/meters.py: the
gateway, the bus) and by one hook in the bot runner; what can be read when asked
(open sockets from the hub, matches by status from the database) is read at
scrape time and costs nothing in between. docs/operations.md says what each
metric means and how to read it across replicas.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.matches.saves_together import SavesTogether
from app.notify import Sender
from app.realtime import Hub

log = logging.getLogger(__name__)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
STATUSES = ("waiting", "active", "finished")
# Seconds. An action is a few milliseconds on a quiet server; the top buckets
# catch a database that stalls.
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
BUS_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
COUNT_TIMEOUT_SECONDS = 2.0


class Metrics:
    def __init__(self) -> None:
        # A `_created` twin of every series says nothing we use.
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = registry = CollectorRegistry()
        for collector in (ProcessCollector, PlatformCollector, GCCollector):
            collector(registry=registry)  # memory, CPU, open files, collections
        self.matches = Gauge(
            "magery_matches", "Matches in the database by status (the same on every replica).",
            ["status"], registry=registry)
        self.actions_applied = Counter(
            "magery_actions_applied", "Actions that landed through this process's gateway "
            "(REST, fast path, websocket, bots).", registry=registry)
        self.actions_resent = Counter(
            "magery_actions_resent", "Resends of an action that had landed, answered as the first time.",
            registry=registry)
        self.actions_refused = Counter(
            "magery_actions_refused", "Actions refused, by the contract's error code.", ["error"],
            registry=registry)
        self.action_seconds = Histogram(
            "magery_action_seconds", "Time from the gateway to the answer of an action that landed "
            "(proof of seat, rules, commit, publish).", buckets=ACTION_BUCKETS, registry=registry)
        self.http_responses = Counter(
            "magery_http_responses", "HTTP answers by method, route template and status code.",
            ["method", "route", "code"], registry=registry)
        self.bus_lag = Histogram(
            "magery_bus_lag_seconds", "Sampled: from an announcement queued on the PostgreSQL bus "
            "to this process hearing it back through LISTEN.", buckets=BUS_BUCKETS, registry=registry)
        self.bus_reconnects = Counter(
            "magery_bus_reconnects", "Times the LISTEN link was lost and made again.", registry=registry)
        self.bot_think_seconds = Histogram(
            "magery_bot_think_seconds", "Time a bot's search took in its worker process, by level "
            "(not the wait for a worker: magery_bot_queue_seconds).", ["level"],
            buckets=THINK_BUCKETS, registry=registry)
        self.bot_queue_seconds = Histogram(
            "magery_bot_queue_seconds", "Time a bot's turn waited for a search slot, by level.", ["level"],
            buckets=THINK_BUCKETS, registry=registry)
        self.bot_turns_dropped = Counter(
            "magery_bot_turns_dropped", "Bot turns not searched here: nobody watched the match "
            "(unwatched), or another process had claimed the turn (claimed_elsewhere).", ["reason"],
            registry=registry)
        self._http_children: dict[tuple[str, str, int], Counter] = {}

    def answered(self, method: str, route: str, status: int) -> None:
        """One HTTP answer (the labelled child is found once, then kept)."""
        key = (method, route, status)
        child = self._http_children.get(key)
        if child is None:
            child = self._http_children[key] = self.http_responses.labels(method, route, str(status))
        child.inc()

    def bot_searched(self, level: str, queued: float, thought: float) -> None:
        self.bot_queue_seconds.labels(level).observe(queued)
        self.bot_think_seconds.labels(level).observe(thought)

    def bot_dropped(self, reason: str) -> None:
        self.bot_turns_dropped.labels(reason).inc()

    def watch(self, hub: Hub) -> None:
        """Open sockets, read from `hub` at each scrape."""
        self.registry.register(_Sockets(hub))

    def watch_saves(self, together: SavesTogether) -> None:
        """Saves written together in one transaction (PostgreSQL), read at each scrape."""
        self.registry.register(_SavesTogether(together))

    def watch_outbox(self, sender: Sender) -> None:
        """The notifications' deliveries by channel and outcome, read at each scrape."""
        self.registry.register(_Outbox(sender))

    async def count_matches(self, engine: AsyncEngine) -> None:
        """Matches by status, from the database (kept as they were if it does not answer)."""
        try:
            async with asyncio.timeout(COUNT_TIMEOUT_SECONDS), engine.connect() as conn:
                rows = (await conn.execute(text("SELECT status, count(*) FROM matches GROUP BY status"))).all()
        except Exception as exc:
            log.warning("metrics: counting matches failed: %s", type(exc).__name__)
            return
        found = {str(status): int(count) for status, count in rows}
        for status in {*STATUSES, *found}:
            self.matches.labels(status).set(found.get(status, 0))

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _SavesTogether:
    def __init__(self, together: SavesTogether) -> None:
        self.together = together

    def collect(self) -> Iterable[Metric]:
        yield CounterMetricFamily("magery_save_batches", "Transactions of this process that saved two "
                                  "matches' actions or more at once (app/matches/saves_together.py).",
                                  value=self.together.batches)
        yield CounterMetricFamily("magery_saves_batched", "Saves of actions written in such a shared "
                                  "transaction (the rest were written alone).", value=self.together.batched)


class _Outbox:
    """This process's sender of the notifications' outbox (app/notify/sender.py)."""

    OUTCOMES = ("sent", "retried", "failed", "dropped")

    def __init__(self, sender: Sender) -> None:
        self.sender = sender

    def collect(self) -> Iterable[Metric]:
        done = CounterMetricFamily(
            "magery_notifications", "Deliveries of notifications by this process's sender, by channel and "
            "outcome: sent; retried (put off after a failure); failed (the channel said the player cannot be "
            "reached so); dropped (still undelivered after NOTIFY_GIVE_UP_SECONDS).", labels=["channel", "outcome"])
        for channel in self.sender.channels.names:
            for outcome in self.OUTCOMES:
                done.add_metric([channel, outcome], self.sender.counts[(channel, outcome)])
        yield done
        queued = GaugeMetricFamily("magery_notifications_queued", "Deliveries waiting in the outbox, by "
                                   "channel (the same on every replica; as counted at the sender's last pass).",
                                   labels=["channel"])
        for channel in self.sender.channels.names:
            queued.add_metric([channel], self.sender.queued.get(channel, 0))
        yield queued


class _Sockets:
    """Open websockets of this process: seats and spectators; and the matches they watch."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def collect(self) -> Iterable[Metric]:
        counts = self.hub.counts()
        sockets = GaugeMetricFamily("magery_open_sockets", "Open websockets on this process.",
                                    labels=["kind"])
        sockets.add_metric(["seat"], counts.seats)
        sockets.add_metric(["spectator"], counts.spectators)
        yield sockets
        yield GaugeMetricFamily("magery_watched_matches",
                                "Matches with at least one socket on this process.",
                                value=counts.matches)
