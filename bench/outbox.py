"""The notifications' outbox on PostgreSQL: how fast senders drain it, and how
long a notice waits between its cause's commit and its delivery.

    .venv/bin/python bench/outbox.py [--notices 3000] [--senders 2]

On a fresh database (made and dropped here, on BENCH_POSTGRES_URL, default the
tests' server): `--notices` your-turn notices are written with their outbox rows
(100 a transaction, as causes would), then `--senders` senders, each on an
engine of its own (two processes), drain them through a channel that answers
at once: deliveries per second, and a check that each row was delivered once.
Then one sender runs as the app runs it (its loop, woken by a local commit)
and 200 notices are written one at a time: the wait from each commit to its
delivery, p50 and p99. Goals: every row delivered exactly once; p99 of the
wait under the poll (1 s), since a local commit wakes the sender.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg

from app.db import make_engine, upgrade
from app.db.account_models import accounts
from app.notify import Channels, Delivered, Notice, OutboxItem, Sender, write

SERVER = os.environ.get("BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
RESULTS = Path(__file__).parent / "results"


class Quick:
    name = "push"

    def __init__(self) -> None:
        self.seen: Counter[int] = Counter()
        self.at: dict[int, float] = {}

    async def deliver(self, item: OutboxItem) -> Delivered:
        self.seen[item.id] += 1
        self.at[int(item.data["n"])] = time.perf_counter()
        return Delivered()


async def main(notices: int, senders: int) -> dict[str, Any]:
    name = f"magery_bench_outbox_{secrets.token_hex(4)}"
    admin_dsn = SERVER.replace("postgresql+asyncpg", "postgresql")
    admin = await asyncpg.connect(admin_dsn)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = SERVER.rsplit("/", 1)[0] + "/" + name
    try:
        engine = make_engine(url, 8, 0)
        await upgrade(engine)
        async with engine.begin() as conn:
            account = (await conn.execute(accounts.insert().values(
                name="Bench", name_lower="bench", password_hash="-", created_at=datetime.now(UTC))
                .returning(accounts.c.id))).scalar_one()
        now = int(time.time() * 1000)
        began = time.perf_counter()
        for start in range(0, notices, 100):
            async with engine.begin() as conn:
                await write(conn, [Notice(account, "your_turn", {"match_id": "m", "n": n})
                                   for n in range(start, min(notices, start + 100))], ["push"], now)
        written = time.perf_counter() - began
        channel = Quick()
        engines = [make_engine(url, 4, 0) for _ in range(senders)]
        made = []
        for i, e in enumerate(engines):
            channels = Channels()
            channels.register(channel)
            made.append(Sender(e, channels, name=f"bench-{i}", most=50))

        async def drain(one: Sender) -> None:
            while await one.send_due():
                pass

        began = time.perf_counter()
        await asyncio.gather(*(drain(s) for s in made))
        drained = time.perf_counter() - began
        once = len(channel.seen) == notices and set(channel.seen.values()) == {1}
        for e in engines:
            await e.dispose()

        # The wait from a commit to its delivery, the sender running as the app runs it.
        channels = Channels()
        live = Quick()
        channels.register(live)
        sender = Sender(engine, channels, poll_seconds=1.0, name="bench-live")
        channels.on_told(lambda _: sender.wake())
        task = asyncio.create_task(sender.run_forever())
        waits = []
        for n in range(200):
            async with engine.begin() as conn:
                await write(conn, [Notice(account, "your_turn", {"match_id": "m", "n": 10**6 + n})], ["push"],
                            int(time.time() * 1000))
            committed_at = time.perf_counter()
            channels.told([account])
            while 10**6 + n not in live.at:
                await asyncio.sleep(0.001)
            waits.append(live.at[10**6 + n] - committed_at)
        task.cancel()
        await engine.dispose()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    waits.sort()
    result = {
        "notices": notices, "senders": senders, "written_per_s": round(notices / written),
        "delivered_per_s": round(notices / drained), "each_once": once,
        "wait_p50_ms": round(statistics.median(waits) * 1000, 2),
        "wait_p99_ms": round(waits[int(len(waits) * 0.99) - 1] * 1000, 2),
        "load": os.getloadavg()[0],
    }
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--notices", type=int, default=3000)
    parser.add_argument("--senders", type=int, default=2)
    args = parser.parse_args()
    found = asyncio.run(main(args.notices, args.senders))
    print(json.dumps(found, indent=1))
    print("each delivered once:", "PASS" if found["each_once"] else "MISS")
    print("p99 commit to delivery under the poll (1 s):", "PASS" if found["wait_p99_ms"] < 1000 else "MISS")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "outbox.json").write_text(json.dumps(found, indent=1))
