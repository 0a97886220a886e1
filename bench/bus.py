"""The Redis bus against the PostgreSQL bus: how soon an announcement is heard
by another process's bus, and what each message costs in CPU.

    .venv/bin/python bench/bus.py [--quick] [--database-url URL] [--redis-url URL]

Two buses of each kind in this process (a sender and a listener, each with
its own connections, as two server processes have): first one announcement at
a time, each sent once the last was heard (latency: p50, p99); then a stream
of announcements at a steady rate, as actions land (CPU per message: this
process's, which holds both ends, and the server's, PostgreSQL's backends or
redis-server, read from /proc). PostgreSQL is shared with whatever else runs on
the machine: its CPU is the busier and the noisier figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from app.realtime.bus import Announcement, Message
from app.realtime.postgres import PostgresBus
from app.realtime.redis_bus import RedisBus

RESULTS = Path(__file__).parent / "results"
TICKS = os.sysconf("SC_CLK_TCK")


def server_cpu(names: tuple[str, ...]) -> float:
    """CPU seconds used so far by every process whose name is one of `names`."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        if name in names or any(name.startswith(n) for n in names):
            fields = text[text.rindex(")") + 2:].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


class Ear:
    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.heard = 0
        self.wanted = 0
        self.event = asyncio.Event()

    def message(self, message: Message) -> None:
        if isinstance(message, Announcement) and message.origin == self.origin:
            self.heard += 1
            if self.heard >= self.wanted:
                self.event.set()

    async def until(self, count: int) -> None:
        self.wanted = count
        if self.heard < count:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 60)


async def measure(kind: str, make: Any, pings: int, stream: int, rate: float, server: tuple[str, ...]) -> dict[str, Any]:
    origin = f"bench-{kind}-{os.getpid()}"
    sender, listener = make(), make()
    ear = Ear(origin)
    await sender.start(lambda m: None, lambda *a: None)
    await listener.start(ear.message, lambda *a: None)
    match = "bench-match"
    listener.follow(match)
    await asyncio.sleep(0.5)  # the lane subscribed
    try:
        latencies = []
        for n in range(1, pings + 1):
            started = time.perf_counter()
            sender.send(Announcement(origin, match, n))
            await ear.until(n)
            latencies.append(time.perf_counter() - started)
        base = ear.heard
        cpu, server_before, wall = time.process_time(), server_cpu(server), time.perf_counter()
        for n in range(stream):
            sender.send(Announcement(origin, match, pings + n + 1))
            if n % 10 == 9:
                await asyncio.sleep(10 / rate)
        await ear.until(base + stream)
        cpu, server_used = time.process_time() - cpu, server_cpu(server) - server_before
        wall = time.perf_counter() - wall
    finally:
        await sender.close()
        await listener.close()
    return {"kind": kind, "p50_ms": statistics.median(latencies) * 1000,
            "p99_ms": sorted(latencies)[int(len(latencies) * 0.99) - 1] * 1000,
            "messages": stream, "seconds": wall, "process_us_per_message": cpu / stream * 1e6,
            "server_us_per_message": server_used / stream * 1e6}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--database-url", default=os.environ.get("TEST_POSTGRES_URL",
                                                                 "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--redis-url", default=os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--rate", type=float, default=1000.0, help="announcements per second in the stream")
    args = parser.parse_args()
    pings, stream = (200, 2000) if args.quick else (1000, 10000)
    rows = []
    for kind in ("postgres", "redis", "postgres", "redis"):  # interleaved: the machine's load is shared
        if kind == "postgres":
            row = await measure(kind, lambda: PostgresBus(args.database_url), pings, stream, args.rate,
                                ("postgres",))
        else:
            row = await measure(kind, lambda: RedisBus(args.redis_url, prefix="magery-bench"), pings, stream,
                                args.rate, ("redis-server",))
        rows.append(row)
        print(f"{row['kind']:>8}: heard p50 {row['p50_ms']:.2f} ms, p99 {row['p99_ms']:.2f} ms; "
              f"{row['messages']} at {args.rate:.0f}/s: this process {row['process_us_per_message']:.1f} us/message, "
              f"server {row['server_us_per_message']:.1f} us/message", flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bus.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
