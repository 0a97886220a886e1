"""Websockets under load, each figure against a yardstick from the same run.

    .venv/bin/python bench/ws.py [--quick] [--only idle,fanout,bus]

Loopback only, bounded (SIGALRM) and self-stopping; servers are subprocesses.

1. idle: sockets one server process holds, and its memory per socket (RSS delta /
   sockets), against a bare `websockets` server's own per-connection cost in the
   same run (compression off on both). Goal: 10,000 sockets at <= 1.5x.
2. fanout: one action reaching 1,000 spectators of a match. Per-recipient server
   CPU: K times in turn, an action on a match nobody watches and one on the watched
   match; the median over the K pairs of (CPU of the watched one - CPU of the
   other) / 1,000. Against it, the median CPU of one bare `websockets.broadcast()`
   of the same message to 1,000 clients / 1,000 (medians: a heartbeat round lands
   in some windows). And the p50 delivery latency (REST call sent -> update
   received). Goals: <= 1.5x; p50 <= 60 ms.
3. bus: actions/s at 16 concurrent writers on PostgreSQL with the Postgres bus
   (NOTIFY after commit, a second process LISTENing) against the same server with
   no bus. Goal: >= 0.9x.

The table is printed and written to bench/results/ws.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from bench import api  # noqa: E402  (its server helpers and scripted players)

PYTHON = sys.executable
RESULTS = ROOT / "bench" / "results" / "ws.json"
PG = os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
VERSION_RE = re.compile(r'"version":(\d+)')




def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """CPU time of the process's main thread (its event loop), to the nanosecond."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0]) / 1e9


def start_app(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [PYTHON, "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning", "--no-access-log", "--backlog", "4096",
         "--ws-per-message-deflate", "false"],
        # Every client here is 127.0.0.1: the per-address socket cap (64) would refuse
        # all but the first; the yardstick is the socket's cost, not the cap.
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "WS_SOCKETS_PER_ADDRESS": "0", **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def start_bare(port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([PYTHON, __file__, "--role", "bare", "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


# ---- the yardstick: a bare websockets server -----------------------------------

async def bare_server(port: int) -> None:
    """Holds every connection; a connection that sends {"broadcast": msg, "count": k,
    "every": s} makes it broadcast `msg` k times to all the others."""
    from websockets.asyncio.server import broadcast, serve

    clients: set[Any] = set()

    async def handler(ws: Any) -> None:
        clients.add(ws)
        try:
            async for text in ws:
                order = json.loads(text)
                if "broadcast" in order:
                    clients.discard(ws)  # the one ordering is not a recipient
                    for _ in range(order["count"]):
                        broadcast(clients, order["broadcast"])
                        await asyncio.sleep(order["every"])
                    await ws.send("done")
        finally:
            clients.discard(ws)

    # The library's defaults (keepalive pings included) but for compression.
    async with serve(handler, "127.0.0.1", port, compression=None, backlog=4096):
        print("ready", flush=True)
        await asyncio.Future()


# ---- clients (in worker processes) --------------------------------------------

async def _hold(url: str, n: int, hold_until: float, stats: bool) -> dict[str, Any]:
    """Open `n` sockets, answer pings, note when each update arrives; close at `hold_until`."""
    sem = asyncio.Semaphore(50)  # handshakes in flight: transient memory, kept low
    arrivals: dict[int, list[float]] = {}
    opened = 0
    sizes: list[int] = []
    sample: list[str] = []

    async def reader(ws: Any) -> None:
        try:
            async for text in ws:
                if text.startswith('{"type":"update"'):
                    found = VERSION_RE.search(text, 0, 60)
                    version = int(found.group(1)) if found else -1
                    arrivals.setdefault(version, []).append(time.monotonic())
                    if stats and len(sizes) < 50:
                        sizes.append(len(text.encode()))
                        if not sample:
                            sample.append(text)
                elif text == '{"type":"ping"}':
                    await ws.send('{"type":"pong"}')
        except websockets.ConnectionClosed:
            pass

    async def one() -> Any:
        nonlocal opened
        async with sem:
            for attempt in range(5):
                try:
                    ws = await connect(url, compression=None, open_timeout=60, ping_interval=None,
                                       max_size=2**22, close_timeout=1)
                    break
                except (TimeoutError, OSError, websockets.InvalidHandshake):
                    if attempt == 4:
                        raise
                    await asyncio.sleep(0.2)
        opened += 1
        task = asyncio.create_task(reader(ws))
        return ws, task

    pairs = await asyncio.gather(*(one() for _ in range(n)))
    print(f"opened {opened}", flush=True)
    # Until the time is up or the server has closed them all (it is told to stop).
    await asyncio.wait([task for _, task in pairs], timeout=max(0.0, hold_until - time.time()))
    await asyncio.gather(*(ws.close() for ws, _ in pairs), return_exceptions=True)
    for _, task in pairs:
        task.cancel()
    return {"opened": opened, "arrivals": arrivals, "sizes": sizes, "sample": sample}


def hold_process(args: tuple[str, int, float, bool]) -> dict[str, Any]:
    raise_fd_limit()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(_hold(*args))


def open_sockets(pool: Any, procs: int, url: str, n: int, hold_until: float,
                 stats: bool = False) -> Any:
    per = [n // procs + (1 if p < n % procs else 0) for p in range(procs)]
    return pool.map_async(hold_process, [(url, k, hold_until, stats) for k in per if k])


def wait_for_sockets(pid: int, count: Any, target: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while count() < target:
        if time.monotonic() > deadline:
            raise SystemExit(f"only {count()} of {target} sockets after {timeout} s")
        time.sleep(1.0)  # reading /proc/net/tcp at 20,000 sockets is not free


def established(port: int) -> int:
    """Server-side established TCP connections on `port` (from /proc/net/tcp)."""
    hexport = f"{port:04X}"
    n = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        if parts[1].endswith(":" + hexport) and parts[3] == "01":
            n += 1
    return n


# ---- a scripted match (the actor) -----------------------------------------------

class Actor:
    """Plays a custom match (known seed) through REST with the rules engine as a mirror."""

    def __init__(self, http: httpx.AsyncClient, seed: str, rng_seed: int) -> None:
        self.http, self.seed, self.rng = http, seed, random.Random(rng_seed)

    async def create(self) -> str:
        from app.rules import new_match

        r = await self.http.post("/api/v1/matches", json={
            "options": {"variant": "standard", "seed": self.seed}, "seat": "white", "name": "w"})
        assert r.status_code == 201, r.text
        created = r.json()
        self.id, self.version = created["match"]["id"], created["match"]["version"]
        self.tokens = {0: created["token"]}
        r = await self.http.post(f"/api/v1/matches/{self.id}/join", json={"name": "b"})
        assert r.status_code == 200, r.text
        self.tokens[1] = r.json()["token"]
        self.version = r.json()["match"]["version"]
        self.state = new_match(seed=self.seed)
        return self.id

    async def act(self) -> int:
        """One action; the version it leads to."""
        from app.rules import action_json, apply_steps, legal_actions
        from app.rules.minions import TYPES
        from app.rules.state import OVER, SETUP

        if self.state.phase == OVER:
            raise RuntimeError("match over")
        if self.state.phase == SETUP:
            row = list(TYPES)
            self.rng.shuffle(row)
            action: Any = ("setup", tuple(TYPES.index(t) for t in row))
        else:
            action = self.rng.choice(legal_actions(self.state))
        body = {"action": action_json(action), "version": self.version, "id": uuid.uuid4().hex}
        r = await self.http.post(f"/api/v1/matches/{self.id}/actions", json=body,
                                 headers={"Authorization": f"Bearer {self.tokens[self.state.to_move]}"})
        assert r.status_code == 200, r.text
        steps = apply_steps(self.state, action)
        self.state = steps[-1][2]
        self.version = r.json()["match"]["version"]
        return self.version


# ---- the three measures --------------------------------------------------------

def measure_idle(pool: Any, procs: int, n: int, budget: float) -> dict[str, Any]:
    out: dict[str, Any] = {"sockets": n}
    # The yardstick first: a bare websockets server.
    port = api.free_port()
    bare = start_bare(port)
    try:
        assert bare.stdout is not None and bare.stdout.readline().strip() == b"ready"
        time.sleep(0.3)
        before = rss_kib(bare.pid)
        job = open_sockets(pool, procs, f"ws://127.0.0.1:{port}/", n, time.time() + budget)
        wait_for_sockets(bare.pid, lambda: established(port), n, budget)
        time.sleep(1.0)
        after = rss_kib(bare.pid)
        out["bare_kib_per_socket"] = (after - before) / n
        os.killpg(bare.pid, signal.SIGKILL)
        job.wait(30)
    finally:
        if bare.poll() is None:
            os.killpg(bare.pid, signal.SIGKILL)
    print(f"  bare websockets: {out['bare_kib_per_socket']:.1f} KiB per socket", flush=True)

    # The server: spectators of one match, on SQLite (the socket's cost, not the database's).
    with tempfile.TemporaryDirectory() as tmp:
        port = api.free_port()
        env = {"DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/idle.sqlite3",
               "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000"}
        proc = start_app(port, env)
        try:
            base = f"http://127.0.0.1:{port}"
            api.wait_ready(f"{base}/api/v1/matches?limit=1", proc)
            match_id = asyncio.run(_new_match(base))
            url = f"ws://127.0.0.1:{port}/api/v1/matches/{match_id}/ws"
            asyncio.run(_touch_socket(url))  # warm: first socket's imports and caches
            time.sleep(0.5)
            before = rss_kib(proc.pid)
            t0 = time.monotonic()
            job = open_sockets(pool, procs, url, n, time.time() + budget)
            wait_for_sockets(proc.pid, lambda: established(port), n, budget)
            out["open_seconds"] = time.monotonic() - t0
            time.sleep(2.0)
            after = rss_kib(proc.pid)
            out["held"] = established(port)
            out["app_kib_per_socket"] = (after - before) / n
            out["spectators_seen"] = asyncio.run(_spectators(url))
            os.killpg(proc.pid, signal.SIGKILL)
            job.wait(30)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
    out["ratio"] = out["app_kib_per_socket"] / out["bare_kib_per_socket"]
    print(f"  server: {out['held']} sockets held, {out['app_kib_per_socket']:.1f} KiB per socket "
          f"({out['ratio']:.2f}x), opened in {out['open_seconds']:.1f} s", flush=True)
    return out


async def _new_match(base: str) -> str:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/v1/matches", json={"options": {"variant": "standard"},
                                                     "seat": "white", "name": "w"})
        assert r.status_code == 201, r.text
        return str(r.json()["match"]["id"])


async def _touch_socket(url: str) -> None:
    async with connect(url, compression=None) as ws:
        await ws.recv()


async def _spectators(url: str) -> int:
    async with connect(url, compression=None, max_size=2**22) as ws:
        while (message := json.loads(await ws.recv()))["type"] == "hello":  # every socket's first word
            pass
        return int(message["match"].get("spectators", -1))


def measure_fanout(pool: Any, procs: int, n: int, k: int, gap: float) -> dict[str, Any]:
    """The server and the bare yardstick, each with `n` sockets, measured in turns so
    that the machine's drift falls on both alike."""
    out: dict[str, Any] = {"spectators": n, "actions": k}
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp, ctx.Pool(procs) as bare_pool:
        port, bare_port = api.free_port(), api.free_port()
        env = {"DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/fanout.sqlite3",
               "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000", "BOT_DELAY_SECONDS": "0"}
        proc = start_app(port, env)
        bare = start_bare(bare_port)
        try:
            base = f"http://127.0.0.1:{port}"
            api.wait_ready(f"{base}/api/v1/matches?limit=1", proc)
            assert bare.stdout is not None and bare.stdout.readline().strip() == b"ready"
            seed = f"{random.getrandbits(128):032x}"

            async def prepare() -> tuple[Actor, Actor, httpx.AsyncClient]:
                http = httpx.AsyncClient(base_url=base, timeout=30)
                watched, alone = Actor(http, seed, 7), Actor(http, seed, 7)
                await watched.create()
                await alone.create()
                return watched, alone, http

            loop = asyncio.new_event_loop()
            watched, alone, http = loop.run_until_complete(prepare())
            url = f"ws://127.0.0.1:{port}/api/v1/matches/{watched.id}/ws"
            bare_url = f"ws://127.0.0.1:{bare_port}/"
            hold = 90 + k * gap * 6
            job = open_sockets(pool, procs, url, n, time.time() + hold, stats=True)
            bare_job = open_sockets(bare_pool, procs, bare_url, n, time.time() + hold)
            wait_for_sockets(proc.pid, lambda: established(port), n, 60)
            wait_for_sockets(bare.pid, lambda: established(bare_port), n, 60)
            time.sleep(2.0)  # snapshots and presence settle
            # The yardstick broadcasts an update the server sent: one more socket
            # catches one (and closes before anything is measured).
            message = loop.run_until_complete(_one_update(url, watched))
            orders = loop.run_until_complete(connect(bare_url, compression=None))
            # In turns: the same action on a match nobody watches (the cost of an action
            # itself), on the watched one (what differs is the fan-out), and one bare
            # broadcast to as many sockets.
            sent: dict[int, float] = {}
            extra: list[float] = []  # per turn: CPU of the watched action - CPU of the other
            bare_cpu: list[float] = []
            for _ in range(k):
                c0 = cpu_seconds(proc.pid)
                loop.run_until_complete(alone.act())
                time.sleep(gap)
                c1 = cpu_seconds(proc.pid)
                t = time.monotonic()
                version = loop.run_until_complete(watched.act())
                sent[version] = t
                time.sleep(gap)
                extra.append((cpu_seconds(proc.pid) - c1) - (c1 - c0))
                bare_cpu.append(loop.run_until_complete(_order_broadcast(orders, message, bare.pid)))
                time.sleep(gap)
            loop.run_until_complete(orders.close())
            loop.run_until_complete(http.aclose())
            loop.close()
            os.killpg(proc.pid, signal.SIGINT)
            os.killpg(bare.pid, signal.SIGKILL)
            parts = job.get(hold + 30)
            bare_parts = bare_job.get(hold + 30)
        finally:
            for p in (proc, bare):
                if p.poll() is None:
                    os.killpg(p.pid, signal.SIGKILL)
    latencies = [t - sent[v] for part in parts for v, ts in part["arrivals"].items() if v in sent
                 for t in ts]
    delivered = sum(len(ts) for part in parts for v, ts in part["arrivals"].items() if v in sent)
    sizes = [s for part in parts for s in part["sizes"]]
    out["delivered"] = delivered
    out["expected"] = n * k
    out["message_bytes"] = int(statistics.median(sizes)) if sizes else 0
    out["bare_message_bytes"] = len(message.encode())
    # Medians: a heartbeat round (pings to every socket, their pongs) lands in a
    # window now and then and would otherwise count as fan-out, or against it.
    out["app_us_per_recipient"] = 1e6 * statistics.median(extra) / n
    out["app_us_per_recipient_mean"] = 1e6 * statistics.fmean(extra) / n
    out["p50_ms"] = 1000 * statistics.median(latencies) if latencies else float("inf")
    out["p99_ms"] = 1000 * sorted(latencies)[int(0.99 * (len(latencies) - 1))] if latencies else float("inf")
    print(f"  server: {out['app_us_per_recipient']:.1f} us per recipient, p50 {out['p50_ms']:.1f} ms, "
          f"{delivered}/{n * k} delivered, {out['message_bytes']} B each", flush=True)
    out["bare_delivered"] = sum(len(ts) for part in bare_parts for ts in part["arrivals"].values())
    out["bare_us_per_recipient"] = 1e6 * statistics.median(bare_cpu) / n
    out["bare_us_per_recipient_mean"] = 1e6 * statistics.fmean(bare_cpu) / n
    out["ratio"] = out["app_us_per_recipient"] / out["bare_us_per_recipient"]
    print(f"  bare broadcast(): {out['bare_us_per_recipient']:.1f} us per recipient "
          f"({out['ratio']:.2f}x), {out['bare_delivered']}/{n * k} delivered, "
          f"{out['bare_message_bytes']} B each", flush=True)
    return out


async def _one_update(url: str, actor: Actor) -> str:
    async with connect(url, compression=None) as ws:
        await ws.recv()  # the snapshot
        await actor.act()
        while True:
            text = await asyncio.wait_for(ws.recv(), 30)
            if isinstance(text, str) and text.startswith('{"type":"update"'):
                return text


async def _order_broadcast(orders: Any, message: str, pid: int) -> float:
    """Have the bare server broadcast `message` once: the CPU it took."""
    c0 = cpu_seconds(pid)
    await orders.send(json.dumps({"broadcast": message, "count": 1, "every": 0}))
    await asyncio.wait_for(orders.recv(), 60)
    return cpu_seconds(pid) - c0


class NotifyCounter:
    """Counts the announcements on the bus's channel (proof that the bus carried them)."""

    def __init__(self, dsn: str) -> None:
        import threading

        self.count, self.notifies, self.dsn = 0, 0, dsn
        self.done = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._listen()), daemon=True)
        self.thread.start()

    async def _listen(self) -> None:
        import asyncpg

        from app.realtime.postgres import CHANNEL

        conn = await asyncpg.connect(self.dsn)

        def heard(*args: Any) -> None:
            self.count += args[3].count("v|")
            self.notifies += 1

        await conn.add_listener(CHANNEL, heard)
        while not self.done.is_set():
            await asyncio.sleep(0.1)
        await conn.close()

    def stop(self) -> int:
        self.done.set()
        self.thread.join(5)
        return self.count


def postgres_cpu() -> float:
    """CPU seconds used so far by every Postgres process (Linux /proc)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    total += api.cpu_seconds(int(entry.name))
            except OSError:
                continue
    return total


def measure_bus(pool: Any, procs: int, writers: int, warm: float, window: float,
                rounds: int) -> dict[str, Any]:
    """Both servers up at once on one database (the bus's with a second process that
    LISTENs); loads taken in turn, ABBA, so that drift favours neither."""
    out: dict[str, Any] = {"writers": writers, "runs": {"with": [], "without": []}}
    db = f"magery_ws_bench_{os.getpid()}"
    url = f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}"
    asyncio.run(api._pg(f'CREATE DATABASE "{db}"'))
    procs_up: list[subprocess.Popen[bytes]] = []
    try:
        bases, pids, labels = {}, {}, {}
        for label, bus, extra in (("without", "memory", 0), ("with", "postgres", 1)):
            env = {"DATABASE_URL": url, "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000", "REALTIME_BUS": bus}
            for k in range(1 + extra):
                port = api.free_port()
                proc = start_app(port, env)
                procs_up.append(proc)
                labels[proc.pid] = label
                api.wait_ready(f"http://127.0.0.1:{port}/api/v1/matches?limit=1", proc)
                if k == 0:
                    bases[label], pids[label] = f"http://127.0.0.1:{port}", proc.pid
        heard = NotifyCounter(PG + "/" + db)
        cpu: dict[str, list[float]] = {"with": [], "without": []}
        for label in ["without", "with", "with", "without"] * rounds:
            # CPU of every process the configuration runs (its servers and all of
            # Postgres) per action: steadier than throughput on a shared machine.
            mine = [p.pid for p in procs_up if labels[p.pid] == label]
            before = sum(api.cpu_seconds(pid) for pid in mine) + postgres_cpu()
            load = api.run_load(pool, procs, "app", bases[label], writers, None, warm, window,
                                pids[label])
            used = sum(api.cpu_seconds(pid) for pid in mine) + postgres_cpu() - before
            actions = load["per_second"] * (window + warm + 1.0)  # the run's whole length, roughly
            cpu[label].append(1000 * used / max(1.0, actions))
            out["runs"][label].append(load["per_second"])
            print(f"  {label} the bus: {load['per_second']:.0f} actions/s "
                  f"(p50 {load['p50_ms']:.2f} ms, servers + Postgres CPU {cpu[label][-1]:.3f} ms/action)",
                  flush=True)
        out["announcements_heard"] = heard.stop()
        out["notifies_heard"] = heard.notifies
        out["cpu_ms_per_action"] = {k: statistics.fmean(v) for k, v in cpu.items()}
    finally:
        for proc in procs_up:
            api.stop_server(proc)
        asyncio.run(api._pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    out["with"] = statistics.fmean(out["runs"]["with"])
    out["without"] = statistics.fmean(out["runs"]["without"])
    out["ratio"] = out["with"] / out["without"]
    print(f"  {out['announcements_heard']} announcements heard on the bus's channel in "
          f"{out['notifies_heard']} NOTIFYs; CPU per action "
          f"{out['cpu_ms_per_action']['with']:.3f} ms with the bus, "
          f"{out['cpu_ms_per_action']['without']:.3f} ms without", flush=True)
    return out


# ---- the run -----------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller and shorter (a smoke run)")
    ap.add_argument("--only", default="idle,fanout,bus")
    ap.add_argument("--role", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    fd_limit = raise_fd_limit()
    if args.role == "bare":
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        asyncio.run(bare_server(args.port))
        return 0

    budget = 300 if args.quick else 900
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("bench over budget")))
    signal.alarm(budget)
    idle_n = 1000 if args.quick else min(10_000, fd_limit - 500)
    fan_n, fan_k = 1000, (20 if args.quick else 60)
    only = set(args.only.split(","))
    results: dict[str, Any] = {"quick": args.quick, "cpus": os.cpu_count(), "fd_limit": fd_limit}
    rows: list[tuple[str, str, str, str, str, bool]] = []
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    ctx = mp.get_context("spawn")
    try:
        with ctx.Pool(2) as pool:
            if "idle" in only:
                print(f"idle sockets: {idle_n}", flush=True)
                idle = results["idle"] = measure_idle(pool, 2, idle_n, 120)
                rows.append((f"idle sockets held (goal {idle_n})", str(idle["held"]), "", "",
                             f">= {idle_n}", idle["held"] >= idle_n))
                rows.append(("memory per idle socket", f"{idle['app_kib_per_socket']:.1f} KiB",
                             f"{idle['bare_kib_per_socket']:.1f} KiB", f"{idle['ratio']:.2f}x",
                             "<= 1.50x", idle["ratio"] <= 1.5))
            if "fanout" in only:
                print(f"fanout: {fan_n} spectators, {fan_k} actions", flush=True)
                fan = results["fanout"] = measure_fanout(pool, 2, fan_n, fan_k, 0.15)
                rows.append((f"CPU per recipient ({fan_n} spectators)",
                             f"{fan['app_us_per_recipient']:.1f} us",
                             f"{fan['bare_us_per_recipient']:.1f} us", f"{fan['ratio']:.2f}x",
                             "<= 1.50x", fan["ratio"] <= 1.5))
                rows.append(("p50 delivery latency", f"{fan['p50_ms']:.1f} ms", "", "", "<= 60 ms",
                             fan["p50_ms"] <= 60))
                rows.append(("updates delivered", f"{fan['delivered']}", "", "",
                             f"= {fan['expected']}", fan["delivered"] == fan["expected"]))
            if "bus" in only:
                print("bus: 16 writers on PostgreSQL", flush=True)
                warm, window, rounds = (1.0, 3.0, 1) if args.quick else (1.0, 5.0, 4)
                bus = results["bus"] = measure_bus(pool, 2, 16, warm, window, rounds)
                rows.append(("actions/s at 16 writers", f"{bus['with']:.0f}",
                             f"{bus['without']:.0f}", f"{bus['ratio']:.2f}x", ">= 0.90x",
                             bus["ratio"] >= 0.9))
    finally:
        signal.alarm(0)
    head = ("measure", "server", "yardstick", "ratio", "goal")
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(5)]
    line = "  ".join(h.ljust(w) for w, h in zip(widths, head, strict=True))
    print("\n" + line + "  result")
    print("-" * (len(line) + 8))
    for r in rows:
        print("  ".join(str(c).ljust(w) for w, c in zip(widths, r[:5], strict=True))
              + "  " + ("PASS" if r[5] else "MISS"))
    results["goals"] = {r[0]: {"server": r[1], "yardstick": r[2], "ratio": r[3], "goal": r[4],
                               "pass": r[5]} for r in rows}
    RESULTS.write_text(json.dumps(results, indent=2, default=str))
    print(f"written {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
