"""Compact updates: what a move costs a spectator, and what the fan-out costs the server.

    .venv/bin/python bench/compact.py [--matches 12] [--recipients 1000] [--postgres]

1. bytes: real random matches played through the app in-process (REST actions,
   random legal choices, every variant in turn) with two watchers on the match's
   socket, one full (the default) and one `?updates=compact`; for every version
   the bytes of the text frame each was sent: median, p90 and mean per move.
   Goal: compact <= 600 B at the median.
2. fan-out CPU: the hub alone (no network, no database: every socket's send is a
   coroutine that returns at once) broadcasting the versions recorded in 1 to
   `--recipients` sockets of one room; process CPU per version / recipients, the
   median over the versions, with no compact socket, with one, with half and with
   all of them compact; and the cost of making one delta (its diff and its encoding).

Printed, and written to bench/results/compact.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import logging  # noqa: E402

import httpx  # noqa: E402

from app.config import Settings  # noqa: E402
from app.main import create_app  # noqa: E402
from app.realtime.changes import delta  # noqa: E402
from app.realtime.frames import dumps  # noqa: E402
from app.realtime.hub import Hub  # noqa: E402
from app.rules import VARIANTS  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "compact.json"
PG = os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
BASE = "/api/v1/matches"


class Watcher:
    """A socket on the app in-process, keeping the text of every frame it is sent."""

    def __init__(self, app: Any, path: str, query: str, client: str) -> None:
        self.frames: list[str] = []
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        scope = {"type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "ws",
                 "server": ("bench", 80), "client": (client, 5000), "root_path": "", "path": path,
                 "raw_path": path.encode(), "query_string": query.encode(),
                 "headers": [(b"host", b"bench")], "subprotocols": [], "state": {}}
        self.task = asyncio.create_task(app(scope, self.outbox.get, self._sent))
        self.outbox.put_nowait({"type": "websocket.connect"})

    async def _sent(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            self.frames.append(message["text"])

    def versions(self) -> dict[int, str]:
        """Each version's frame (an update or a delta), by version."""
        out = {}
        for text in self.frames:
            m = json.loads(text)
            if m.get("type") in ("update", "delta"):
                out[m["version"]] = text
        return out

    async def close(self) -> None:
        await self.outbox.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(self.task, 10)


async def a_match(app: Any, client: httpx.AsyncClient, rng: random.Random, variant: str,
                  updates: list[dict[str, Any]]) -> tuple[list[int], list[int]]:
    made = (await client.post(BASE, json={"options": {"variant": variant}, "seat": "white", "name": "Ada"})).json()
    match_id = made["match"]["id"]
    auth = {"white": {"Authorization": f"Bearer {made['token']}"}}
    path = f"{BASE}/{match_id}/ws"
    full, compact = Watcher(app, path, "", "10.0.0.1"), Watcher(app, path, "updates=compact", "10.0.0.2")
    joined = (await client.post(f"{BASE}/{match_id}/join", json={"name": "Bo"})).json()
    auth["black"] = {"Authorization": f"Bearer {joined['token']}"}
    state = joined["match"]
    while state["status"] == "active":
        colour = state["to_move"]
        legal = (await client.get(f"{BASE}/{match_id}/legal", headers=auth[colour])).json()
        if legal["setup"]:
            row = list(legal["setup"])
            rng.shuffle(row)
            action = {"type": "setup", "backrow": row}
        else:
            action = rng.choice(legal["actions"])
        r = await client.post(f"{BASE}/{match_id}/actions", headers=auth[colour],
                              json={"action": action, "version": state["version"]})
        state = r.json()["match"]
    last = state["version"]
    for _ in range(1000):
        if max(full.versions(), default=0) >= last and max(compact.versions(), default=0) >= last:
            break
        await asyncio.sleep(0.01)
    await full.close()
    await compact.close()
    f, c = full.versions(), compact.versions()
    shared = sorted(set(f) & set(c))
    for version in shared:
        updates.append(json.loads(f[version]))
    return [len(f[v].encode()) for v in shared], [len(c[v].encode()) for v in shared]


def spread(sizes: list[int]) -> dict[str, float]:
    ordered = sorted(sizes)
    return {"median": statistics.median(ordered), "p90": ordered[int(len(ordered) * 0.9)],
            "mean": round(statistics.fmean(ordered), 1), "n": len(ordered)}


async def measure_bytes(url: str, matches: int, seed: int) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    settings = Settings(_env_file=None, database_url=url, sweep_seconds=3600.0,
                        rate_limit_writes=10**9, rate_limit_reads=10**9)
    app = create_app(settings)
    full: list[int] = []
    compact: list[int] = []
    games: list[list[dict[str, Any]]] = []
    rng = random.Random(seed)
    async with app.router.lifespan_context(app), \
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as client:
        for i in range(matches):
            updates: list[dict[str, Any]] = []
            f, c = await a_match(app, client, rng, VARIANTS[i % len(VARIANTS)], updates)
            full += f
            compact += c
            games.append(updates)
            print(f"  match {i + 1}/{matches} ({VARIANTS[i % len(VARIANTS)]}): {len(f)} versions, "
                  f"full median {statistics.median(f):.0f} B, compact {statistics.median(c):.0f} B", flush=True)
    return {"full": spread(full), "compact": spread(compact),
            "ratio_median": round(statistics.median(compact) / statistics.median(full), 3)}, games


class Source:
    """The hub's database, standing in: nothing is ever missed here."""

    async def snapshot(self, match_id: str) -> None:
        return None

    async def updates_since(self, match_id: str, version: int) -> list[Any]:
        return []

    async def seat_presence(self, *args: Any) -> None:
        pass

    async def touch(self, seats: Any) -> None:
        pass

    async def seats_here(self, match_ids: Any) -> dict[str, Any]:
        return {}


async def _sink(event: dict[str, Any]) -> None:
    return None


async def fan_out(games: list[list[dict[str, Any]]], recipients: int, compact: int) -> float:
    """Median CPU (us) per recipient of one version's broadcast, `compact` of the sockets compact."""
    per_recipient: list[float] = []
    for g, updates in enumerate(games):
        hub = Hub(Source(), presence_delay=3600.0)
        subs = [hub.join(f"m{g}", _sink, None, 0, address=f"10.{i // 250}.{i % 250}.1", compact=i < compact)
                for i in range(recipients)]
        for _ in range(3):  # each socket's catch-up finds nothing missed
            await asyncio.sleep(0)
        room = hub.rooms[f"m{g}"]
        for sub in subs:
            sub.sent = updates[0]["version"] - 1
        room.broadcast(updates[:1])
        for update in updates[1:]:
            t0 = time.process_time_ns()
            room.broadcast([update])
            per_recipient.append((time.process_time_ns() - t0) / 1000 / recipients)
            await asyncio.sleep(0)
    return round(statistics.median(per_recipient), 3)


def delta_cost(games: list[list[dict[str, Any]]]) -> float:
    """Median us to make and encode one version's delta."""
    spent = []
    for updates in games:
        for before, update in zip(updates, updates[1:], strict=False):
            t0 = time.process_time_ns()
            dumps(delta(update, before["match"], update["match"]))
            spent.append((time.process_time_ns() - t0) / 1000)
    return round(statistics.median(spent), 1)


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--recipients", type=int, default=1000)
    parser.add_argument("--postgres", action="store_true", help="play on PostgreSQL (the default: a SQLite file)")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    logging.disable(logging.INFO)  # a line per request would bury the figures
    with tempfile.TemporaryDirectory() as tmp:
        url = PG + "/test" if args.postgres else f"sqlite+aiosqlite:///{tmp}/bench.db"
        print(f"1. bytes per move to a spectator, {args.matches} random matches", flush=True)
        sizes, games = await measure_bytes(url, args.matches, args.seed)
    print(f"   full:    median {sizes['full']['median']:.0f} B, p90 {sizes['full']['p90']} B, "
          f"mean {sizes['full']['mean']} B over {sizes['full']['n']} versions")
    print(f"   compact: median {sizes['compact']['median']:.0f} B, p90 {sizes['compact']['p90']} B, "
          f"mean {sizes['compact']['mean']} B (x{sizes['ratio_median']} at the median; goal <= 600 B)")
    print(f"2. fan-out CPU per recipient, {args.recipients} sockets in one room", flush=True)
    cpu = {}
    for label, compact in (("none compact", 0), ("one compact", 1), ("half compact", args.recipients // 2),
                           ("all compact", args.recipients)):
        cpu[label] = await fan_out(games, args.recipients, compact)
        print(f"   {label:>12}: {cpu[label]} us per recipient", flush=True)
    made = delta_cost(games)
    print(f"   one delta made and encoded: {made} us (once per version per room)")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"bytes": sizes, "fanout_us_per_recipient": cpu, "delta_us": made,
                                   "recipients": args.recipients, "matches": args.matches}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
