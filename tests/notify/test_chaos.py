"""The outbox under chaos, on SQLite (the lease, one writer) and PostgreSQL
(FOR UPDATE SKIP LOCKED): no notice lost, and none doubled but in the one
window no sender can close.

1. A server process's sender is SIGKILLed in the middle of its deliveries: it
   holds the leases of eight notices, each in a different state. By push: two
   whose push the push service had not taken yet, two it had taken (decrypted)
   but not answered. By mail: two whose DATA the SMTP server had not answered
   yet, two it had accepted (250) whose session had not ended (QUIT unanswered).
   A sender in this test's process takes over once the leases run out (its
   clock moved past them, not waited for). Every notice then arrived; each
   arrived once, except the pushes the service had taken before the kill: they
   arrive twice, carrying the same notice `id` (at least once: the dead sender
   could never say it was done). The mails accepted before the kill are not sent
   again: the mail is noted sent as soon as the server's 250 comes.
2. The SMTP server down (nothing listening), then deferring (451), while notices
   queue: each try is put off with the backoff (the sender's clock moved, not
   waited for), counted as retried in /metrics with the queue's size; once it is
   back every mail arrives exactly once, and the counts say sent 5, retried 10.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.engine import make_engine
from app.db.mail_models import mail_addresses, mail_sends
from app.db.notify_models import notify_outbox
from app.mail import Mailer
from app.mail.notices import MailNotices
from app.mail.switches import write as write_switches
from app.notify import Channels, Notice, Sender, write
from app.push.keys import VapidKeys
from app.push.notices import PushNotices
from app.push.sending import PushChannel, PushSettings
from tests.conftest import make_settings
from tests.mail.conftest import SITE, Sink, free_port
from tests.ops.conftest import metric
from tests.push.conftest import HOSTS
from tests.push.stand_in import PushServiceStandIn
from tests.push.test_away_processes import players
from tests.realtime.test_processes import Server

from ..api.members import member
from ..waiting import until

LEASE_SECONDS = 60.0  # NOTIFY_LEASE_SECONDS's default, as the killed server runs


class ChaosSink(Sink):
    """The tests' SMTP sink, able to hold a session at two moments: before it
    answers a message's DATA (`hold_data`: the mail is not taken; let go, it
    answers 451 and keeps nothing, its client being gone), or after it accepted
    the message, before it answers QUIT (`hold_quit`)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold_data: set[str] = set()
        self.hold_quit: set[str] = set()
        self.held = 0
        self.released = threading.Event()

    async def _held(self) -> None:
        with self.lock:
            self.held += 1
        while not self.released.is_set():
            await asyncio.sleep(0.01)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if set(envelope.rcpt_tos) & self.hold_data:
            await self._held()
            return "451 4.3.0 the client is gone"
        answer = await super().handle_DATA(server, session, envelope)
        if set(envelope.rcpt_tos) & self.hold_quit:
            session.hold_quit = True
        return answer

    async def handle_QUIT(self, server: Any, session: Any, envelope: Any) -> str:
        if getattr(session, "hold_quit", False):
            await self._held()
        return "221 Bye"

    def release(self) -> None:
        self.hold_data.clear()
        self.hold_quit.clear()
        self.released.set()

    def message_ids(self, address: str) -> Counter[str]:
        return Counter(str(m["Message-ID"]) for m in self.to(address))


class SmtpServer:
    """A ChaosSink on a port of its own, which the test may stop and start again."""

    def __init__(self) -> None:
        self.sink, self.port = ChaosSink(), free_port()
        self.controller: Controller | None = None
        self.start()

    def start(self) -> None:
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    try:
        yield server
    finally:
        server.sink.release()
        server.stop()


@pytest.fixture
def settings(database_url: str, smtp: SmtpServer) -> Settings:
    return make_settings(database_url, push_endpoint_hosts=HOSTS, smtp_url=f"smtp://127.0.0.1:{smtp.port}",
                         public_url=SITE, mail_digest_tick_seconds=3600.0)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    made = make_engine(database_url, pool_size=4, max_overflow=0)
    yield made
    await made.dispose()


async def mail_wanted(engine: AsyncEngine, account_id: int, address: str) -> None:
    """A verified address, "your turn" by email chosen (as the email flow's tests reach it through the API)."""
    async with engine.begin() as conn:
        await conn.execute(mail_addresses.insert().values(
            account_id=account_id, address=address, address_key=f"chaos-{account_id}".ljust(64, "0"),
            added_ms=0, verified_ms=1))
    await write_switches(engine, account_id, {"turn": True})


def turn(account_id: int, n: int) -> Notice:
    return Notice(account_id, "your_turn", {"match_id": f"chaos{n}", "colour": "white", "opponent": "Zed",
                                            "variant": "standard"})


async def outbox(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(select(notify_outbox).order_by(notify_outbox.c.id))).all())


async def test_a_sender_killed_mid_delivery_loses_nothing_and_doubles_only_what_the_far_end_took(
        database_url: str, engine: AsyncEngine, smtp: SmtpServer) -> None:
    sink = smtp.sink
    made = await players(engine, database_url, "Ann", "Bob", "Cid", "Dee")
    ann, bob, cid, dee = (made[name][0] for name in ("Ann", "Bob", "Cid", "Dee"))
    await mail_wanted(engine, cid, "cid@example.org")
    await mail_wanted(engine, dee, "dee@example.org")
    sink.hold_data.add("cid@example.org")
    sink.hold_quit.add("dee@example.org")

    server = Server(database_url, push_endpoint_hosts=json.dumps(HOSTS), smtp_url=f"smtp://127.0.0.1:{smtp.port}",
                    public_url=SITE, notify_sender="true")
    stand_in: PushServiceStandIn | None = None
    try:
        await asyncio.to_thread(server.wait_ready)  # this loop free meanwhile (its engine's connections too)
        async with httpx.AsyncClient(timeout=10) as http:
            key = (await http.get(f"{server.base}/api/v1/push/key")).json()["public_key"]
            stand_in = await PushServiceStandIn(key).start()
            browsers = {}
            for name in ("Ann", "Bob"):
                browsers[name] = stand_in.browser()
                r = await http.post(f"{server.base}/api/v1/account/push", json=browsers[name].subscription(),
                                    headers=made[name][1])
                assert r.status_code == 201, r.text
        stand_in.hold_before.add(browsers["Ann"].id)
        stand_in.hold_after.add(browsers["Bob"].id)

        async with engine.begin() as conn:  # eight notices, as causes write them
            await write(conn, [turn(a, n) for n in (1, 2) for a in (ann, bob)], ["push"], int(time.time() * 1000))
            await write(conn, [turn(a, n) for n in (1, 2) for a in (cid, dee)], ["email"], int(time.time() * 1000))
        rows = await outbox(engine)
        ids = {who: sorted(r.id for r in rows if r.account_id == who) for who in (ann, bob, cid, dee)}
        assert [len(i) for i in ids.values()] == [2, 2, 2, 2]

        # The server's sender takes all eight and is held at each one's far end.
        await until(lambda: stand_in is not None and stand_in.held == 4, "four pushes held at the push service")
        await until(lambda: sink.held == 4, "two mails held before their 250 and two before the QUIT's answer")
        held = await outbox(engine)
        assert len(held) == 8 and {r.claimed_by for r in held} != {None} and len({r.claimed_by for r in held}) == 1
        assert Counter(str(m["To"]) for m in sink.mails) == {"dee@example.org": 2}  # Dee's accepted, not ended

        server.proc.kill()  # SIGKILL: no cleanup, its leases stay
        server.proc.wait(30)
        assert server.proc.returncode == -9

        settings = make_settings(database_url, push_endpoint_hosts=HOSTS, smtp_url=f"smtp://127.0.0.1:{smtp.port}",
                                 public_url=SITE)
        channels = Channels()
        push = PushChannel(engine, VapidKeys(engine), PushSettings(HOSTS, "mailto:ops@magery.example", 10.0, 30_000))
        channels.register(PushNotices(push))
        channels.register(MailNotices(Mailer(engine, settings)))
        try:
            # While the dead sender's leases last, nobody takes its rows.
            assert await Sender(engine, channels, name="too-early").send_due() == 0
            stand_in.release()
            sink.release()
            survivor = Sender(engine, channels, name="survivor", clock=lambda: time.time() + LEASE_SECONDS + 1)
            assert await survivor.send_due() == 8
            assert await outbox(engine) == []
            assert survivor.counts == {("push", "sent"): 4, ("email", "sent"): 4}
            assert await survivor.send_due() == 0
        finally:
            await push.close()

        def pushed_ids(name: str) -> Counter[int]:
            return Counter(int(p.said["id"]) for p in browsers[name].pushed)

        # Ann's pushes were never taken before the kill: each arrives once.
        assert pushed_ids("Ann") == Counter({i: 1 for i in ids[ann]})
        # Bob's were taken, their 201 lost with the sender: each arrives twice, the
        # same id on both (the window of at-least-once), never a third time.
        assert pushed_ids("Bob") == Counter({i: 2 for i in ids[bob]})
        assert all(p.said["title"] == "Your turn" for p in browsers["Bob"].pushed)
        assert stand_in.refused == []
        # Cid's mails were never accepted before the kill: sent by the survivor, once each.
        assert sorted(sink.message_ids("cid@example.org").values()) == [1, 1]
        # Dee's were accepted and noted before the QUIT: not sent again.
        assert sorted(sink.message_ids("dee@example.org").values()) == [1, 1]
        async with engine.connect() as conn:
            noted = set((await conn.execute(select(mail_sends.c.once_key).where(
                mail_sends.c.once_key.like("outbox:%")))).scalars())
        assert noted == {f"outbox:{i}" for i in ids[cid] + ids[dee]}
    finally:
        if stand_in is not None:
            stand_in.release()
            await stand_in.stop()
        server.stop()


async def test_an_smtp_outage_delays_mail_and_loses_or_doubles_none(
        app: Any, client: httpx.AsyncClient, smtp: SmtpServer) -> None:
    parts = app.state.parts
    sink = smtp.sink
    bea = await member(app, "Bea")
    await mail_wanted(parts.engine, bea.account.id, "bea@example.org")
    now = [time.time()]
    sender = parts.sender  # this process's sender (NOTIFY_SENDER is off in tests: its passes are run here)
    sender.clock = lambda: now[0]

    async def metrics() -> str:
        r = await client.get("/metrics")
        assert r.status_code == 200
        return r.text

    smtp.stop()  # the SMTP server down: nothing listens
    async with parts.engine.begin() as conn:
        await write(conn, [turn(bea.account.id, n) for n in range(5)], ["email"], int(now[0] * 1000))
    assert await sender.send_due() == 5  # each tried, each refused a connection
    await sender.count_queued()
    page = await metrics()
    assert metric(page, "magery_notifications_total", channel="email", outcome="retried") == 5
    assert metric(page, "magery_notifications_queued", channel="email") == 5
    assert await sender.send_due() == 0  # put off: not due again yet

    smtp.start()  # up again, but deferring every mail to Bea
    sink.answers["bea@example.org"] = "451 4.3.0 try again later"
    now[0] += sender.backoff(1)
    assert await sender.send_due() == 5
    assert [r.tries for r in await outbox(parts.engine)] == [2] * 5
    assert sink.mails == []

    del sink.answers["bea@example.org"]  # back: it takes mail
    now[0] += sender.backoff(2) - 1
    assert await sender.send_due() == 0  # the doubled pause is kept
    now[0] += 1
    assert await sender.send_due() == 5
    await sender.count_queued()
    assert await outbox(parts.engine) == []
    ids = sink.message_ids("bea@example.org")
    assert len(ids) == 5 and set(ids.values()) == {1}  # five mails, each once
    assert sorted(str(m["Subject"]) for m in sink.mails) == ["Your turn against Zed"] * 5
    now[0] += 86_400
    assert await sender.send_due() == 0  # nothing left to send again
    page = await metrics()
    assert metric(page, "magery_notifications_total", channel="email", outcome="sent") == 5
    assert metric(page, "magery_notifications_total", channel="email", outcome="retried") == 10
    assert metric(page, "magery_notifications_total", channel="email", outcome="failed") == 0
    assert metric(page, "magery_notifications_queued", channel="email") == 0
