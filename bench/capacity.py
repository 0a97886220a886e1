"""Capacity: how many live matches one server process holds before its action
latency gives.

    .venv/bin/python bench/capacity.py                 # the ramp, about ten minutes
    .venv/bin/python bench/capacity.py --quick         # a smoke run: a few matches, seconds
    .venv/bin/python bench/capacity.py --profile       # the same under cProfile: the server's hot spots

Loopback only, bounded (SIGALRM) and self-stopping. It makes a fresh PostgreSQL
database (dropped at the end) and starts ONE server process on it (uvicorn
--factory app.main:create_app, as scripts/serve does). Simulated people play
against it from `--procs` load-generator processes (multiprocessing, many
asyncio clients each), the way the match page does:

- a match is two players and two watchers; each of the four holds the match's
  websocket with `?updates=compact` (the players with their seat's token),
  answering the server's pings;
- the player to move waits for its legal actions, then sends the action with
  `POST /actions`: with `--legal socket` (the default, as the match page does)
  its socket is opened with `?legal=true` and the state that makes it its turn
  carries them (`GET /legal` only when they have not come within a few
  seconds: counted as `legal late`); with `--legal rest` it asks `GET /legal`
  on its turn, as the page did before (`--act socket` sends the action as
  an `action` message on the seat's socket instead, answered by its `ack`:
  the page posts, so this measures what acting on the socket would spare);
  each player acts every
  `--interval` seconds on average (default 10: a match makes an action every
  5 s), each gap jittered in [0.5, 1.5) so the matches never fire in step;
- the games are bench/api.py's scripts (random legal games on seeded matches,
  worked out once per load process), so a client spends no CPU on the rules;
  a finished match is replaced by a new one (its sockets close, new ones open);
- REST goes over a pool of keep-alive connections per load process, as a
  reverse proxy in front of the servers keeps them (the production layout).

It first measures the quiet p99 of `POST /actions` (`--quiet` matches), then
ramps in `--steps` of live matches: each step opens the new matches and their
sockets, lets them settle, then measures a window. The ramp stops at the first
step whose p99 passes 2x the quiet p99 (or whose actions fall 10% short of
what the people asked, or that saw errors): the capacity is the last step
before it. Per step: sockets held (the server's /metrics), actions/s, p50/p99,
the server process's CPU (share of one core) and RSS, PostgreSQL's CPU (the
backends of this run's database, from /proc), the load generator's CPU, the
machine's load average; per action, the server's CPU, the database's commits,
rollbacks and rows written (pg_stat_database) and the WAL written
(pg_current_wal_lsn(): the whole cluster's, so on a shared machine an upper bound).

`--profile` runs the server under cProfile for the whole ramp (slower: the
figures are for finding what limits it, not for the capacity); the hot spots
are printed and the profile kept in bench/results/capacity-server.prof.

Figures are printed and written to bench/results/capacity.json; the last line:
`capacity: N live matches (2 players + 2 watchers, an action every 10 s each) per process at p99 <= 2x quiet`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import api  # noqa: E402  (servers, scripted games, CPU from /proc)
from bench.wire import Connection  # noqa: E402

PYTHON = sys.executable
RESULTS = ROOT / "bench" / "results" / "capacity.json"
PROFILE = ROOT / "bench" / "results" / "capacity-server.prof"
GIVES = 2.0  # the ramp stops where p99 passes this times the quiet p99
SHORT = 0.9  # ... or where the actions made fall under this share of those asked


# ---- the people (in a load-generator process) ------------------------------------

LEGAL_LATE = 5.0  # seconds a seat waits for its socket's legal actions before it asks GET /legal


class Told:
    """A seat's socket as its player uses it: the newest version it carried the
    seat's legal actions at, and (`--act socket`) the socket itself with the
    actions sent on it that await their answer (`ack` or `error`), by id."""

    def __init__(self) -> None:
        self.version = -1
        self.changed = asyncio.Event()
        self.ws: Any = None
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def answered(self, message: dict[str, Any]) -> None:
        future = self.waiting.pop(message.get("id") or "", None)
        if future is not None and not future.done():
            future.set_result(message)

    def at(self, version: int) -> None:
        self.version = max(self.version, version)
        self.changed.set()

    async def wait(self, version: int, limit: float) -> bool:
        """Whether the legal actions at `version` (or later) came within `limit` seconds."""
        deadline = time.monotonic() + limit
        while self.version < version:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                return self.version >= version
        return True


class People:
    """Every match one load process plays, with what they measured."""

    def __init__(self, port: int, interval: float, seed: int, legal: str = "socket", act: str = "rest") -> None:
        self.port, self.interval = port, interval
        self.legal = legal  # "socket": the seats' sockets carry their legal actions; "rest": GET /legal
        self.act = act  # "rest": POST /actions; "socket": an `action` message on the seat's socket
        self.rng = random.Random(seed)
        self.idle: list[Connection] = []  # the keep-alive pool
        self.handshakes = asyncio.Semaphore(16)  # sockets opening at once: a page load's pace, not a flood
        self.window = (float("inf"), float("inf"))
        self.latencies: list[float] = []
        self.asked = self.actions = self.messages = self.sockets = self.reopened = 0
        self.errors: dict[str, int] = {}
        self.matches: list[asyncio.Task[None]] = []
        self.up = 0  # matches whose first four sockets have opened
        self.grew = asyncio.Event()  # set at each match up
        self.stopping = asyncio.Event()

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    async def request(self, method: str, path: str, body: Any = None,
                      headers: dict[str, str] | None = None) -> Any:
        """One request over a pooled connection; one the server closed while idle
        (its keep-alive timeout) is replaced and the request sent again once (an
        action carries its id: sent twice, it is played once)."""
        conn = self.idle.pop() if self.idle else Connection("127.0.0.1", self.port)
        try:
            answer = await conn.request(method, path, body, headers)
        except (OSError, asyncio.IncompleteReadError):
            await conn.close()
            conn = Connection("127.0.0.1", self.port)
            answer = await conn.request(method, path, body, headers)
        self.idle.append(conn)
        return answer

    async def follow(self, match_id: str, token: str | None, done: asyncio.Event,
                     opened: asyncio.Event, told: Told | None = None) -> None:
        """One socket on the match until `done`, as the page holds it (compact updates,
        pings answered); one the server closes is opened again with `?since=`.
        `opened` is set once it is open. `told`: a seat's socket, which says there
        each version it was told its legal actions at (with `--legal socket` it asks
        `?legal=true`) and the answers to the actions sent on it."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        query = "updates=compact" + (f"&token={token}" if token else "") + ("&legal=true" if told and self.legal == "socket" else "")
        since = None
        while not done.is_set():
            url = f"ws://127.0.0.1:{self.port}/api/v1/matches/{match_id}/ws?{query}"
            if since is not None:
                url += f"&since={since}"
            try:
                async with self.handshakes:
                    ws = await connect(url, compression=None, ping_interval=None, max_size=2**22,
                                       open_timeout=120, close_timeout=2)
            except Exception as exc:
                self.error(f"socket open: {type(exc).__name__}")
                await asyncio.sleep(1.0)
                continue
            self.sockets += 1
            opened.set()
            if told is not None:
                told.ws = ws
            closer = asyncio.create_task(done.wait())
            try:
                while True:
                    receiving = asyncio.ensure_future(ws.recv())
                    finished, _ = await asyncio.wait((receiving, closer), return_when=asyncio.FIRST_COMPLETED)
                    if receiving not in finished:
                        receiving.cancel()
                        break
                    text = receiving.result()
                    self.messages += 1
                    if text.startswith('{"type":"ping"'):
                        await ws.send('{"type":"pong"}')
                    elif text.startswith(('{"type":"delta"', '{"type":"update"', '{"type":"snapshot"')):
                        message = json.loads(text)
                        version = message["version"] if "version" in message else message["match"]["version"]
                        since = version
                        if told is not None and "legal" in message:
                            told.at(message["legal"]["version"])
                    elif told is not None and text.startswith('{"type":"legal"'):
                        told.at(json.loads(text)["version"])
                    elif told is not None and text.startswith(('{"type":"ack"', '{"type":"error"')):
                        told.answered(json.loads(text))
            except ConnectionClosed:
                if not done.is_set():
                    self.reopened += 1
            finally:
                closer.cancel()
                self.sockets -= 1
                if told is not None:
                    told.ws = None
                with contextlib.suppress(Exception):
                    await ws.close()

    async def play(self) -> None:
        """One match after another until told to stop."""
        first = True
        while not self.stopping.is_set():
            try:
                await self.one_match(first)
                first = False
            except Exception as exc:
                self.error(f"match: {type(exc).__name__}")
                await asyncio.sleep(1.0)

    async def one_match(self, first: bool) -> None:
        seed, steps = api.script(self.rng.randrange(api.SCRIPTS))
        made = await self.request("POST", "/api/v1/matches", {
            "options": {"variant": "standard", "seed": seed}, "seat": "white", "name": "cap-w"})
        if made.status != 201:
            raise RuntimeError(f"create {made.status}")
        match_id, tokens = made.json()["match"]["id"], {0: made.json()["token"]}
        joined = await self.request("POST", f"/api/v1/matches/{match_id}/join", {"name": "cap-b"})
        if joined.status != 200:
            raise RuntimeError(f"join {joined.status}")
        tokens[1] = joined.json()["token"]
        done = asyncio.Event()
        opened = [asyncio.Event() for _ in range(4)]
        told = [Told(), Told()]
        sockets = [asyncio.create_task(self.follow(match_id, t, done, o, k))
                   for t, o, k in zip((tokens[0], tokens[1], None, None), opened, (*told, None, None), strict=True)]
        if first:  # the step's window waits for every match's sockets to be open
            await asyncio.gather(*(o.wait() for o in opened))
            self.up += 1
            self.grew.set()
        version = 1
        gap = self.interval / 2  # two players, each acting every `interval`
        try:
            for mover, action, after in steps:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), gap * (0.5 + self.rng.random()))
                if self.stopping.is_set():
                    return
                auth = {"Authorization": f"Bearer {tokens[mover]}"}
                seat_told = told[mover]
                if self.legal == "rest" or not await seat_told.wait(version, LEGAL_LATE):
                    if self.legal == "socket":
                        self.error("legal late")  # the page asks GET /legal then
                    legal = await self.request("GET", f"/api/v1/matches/{match_id}/legal", None, auth)
                    if legal.status != 200:
                        self.error(f"legal {legal.status}")
                sent = time.time()
                inside = self.window[0] <= sent < self.window[1]
                self.asked += inside
                started = time.perf_counter()
                body = {"action": action, "version": version, "id": uuid.uuid4().hex}
                if self.act == "socket" and seat_told.ws is not None:
                    said = asyncio.get_running_loop().create_future()
                    seat_told.waiting[body["id"]] = said
                    await seat_told.ws.send(json.dumps({"type": "action", **body}))
                    answered = await asyncio.wait_for(said, 120)
                    status = 200 if answered["type"] == "ack" else answered.get("error")
                else:
                    status = (await self.request("POST", f"/api/v1/matches/{match_id}/actions", body, auth)).status
                took = time.perf_counter() - started
                if status != 200:
                    self.error(f"action {status}")
                    return  # a new match
                if inside:
                    self.latencies.append(took)
                    self.actions += 1
                version = after
        finally:
            done.set()
            await asyncio.gather(*sockets, return_exceptions=True)

    def grow(self, count: int, over: float) -> None:
        """Start `count` more matches, spread over `over` seconds."""
        for k in range(count):
            self.matches.append(asyncio.create_task(self._start_later(over * k / max(1, count))))

    async def _start_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.play()

    async def all_up(self, limit: float) -> int:
        """Wait (at most `limit` seconds) until every match started has its sockets open."""
        deadline = time.monotonic() + limit
        while self.up < len(self.matches) and time.monotonic() < deadline:
            self.grew.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.grew.wait(), max(0.0, deadline - time.monotonic()))
        return self.up

    def take(self) -> dict[str, Any]:
        out = {"latencies": self.latencies, "asked": self.asked, "actions": self.actions,
               "errors": dict(self.errors), "sockets": self.sockets, "messages": self.messages,
               "reopened": self.reopened, "matches": len(self.matches)}
        self.latencies, self.asked, self.actions, self.errors = [], 0, 0, {}
        return out

    async def stop(self) -> None:
        self.stopping.set()
        done, waiting = await asyncio.wait(self.matches, timeout=30)
        for task in waiting:  # a request still unanswered (a starved server): not waited for
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        for conn in self.idle:
            await conn.close()


async def _load_main(index: int, port: int, interval: float, orders: Any, reports: Any, legal: str,
                     act: str) -> None:
    for number in range(api.SCRIPTS):  # the games, worked out before anything is timed
        api.script(number)
    people = People(port, interval, seed=index * 7919 + os.getpid(), legal=legal, act=act)
    loop = asyncio.get_running_loop()
    reports.put(("ready", index, None))
    while True:
        order = await loop.run_in_executor(None, orders.get)
        if order[0] == "step":  # ("step", more matches, open them over s): say when all are up
            _, more, over = order
            people.grow(more, over)
            reports.put(("up", index, await people.all_up(over + 600)))
        elif order[0] == "window":  # ("window", start, end): measure it, say what it saw
            _, start, end = order
            people.window = (start, end)
            await asyncio.sleep(max(0.0, end - time.time()) + 0.5)  # an action sent inside has answered
            reports.put(("window", index, people.take()))
        elif order[0] == "stop":
            await people.stop()
            reports.put(("stopped", index, None))
            return


def load_process(index: int, port: int, interval: float, orders: Any, reports: Any, legal: str,
                 act: str = "rest") -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_load_main(index, port, interval, orders, reports, legal, act))


# ---- what the server and the database used -----------------------------------------

def waited_for_cpu(pid: int) -> float:
    """Seconds the process's main thread (its event loop) has spent runnable but
    waiting for a core (/proc/PID/schedstat's second field): on a shared machine,
    the time the others' work took from it."""
    try:
        return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def backends_cpu(database: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving `database` (its
    process title names the database): this run's share of a shared server."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            words = (entry / "cmdline").read_bytes().replace(b"\0", b" ").split()
        except OSError:
            continue
        if database.encode() in words[1:5]:  # postgres: [cluster:] user database client state
            out[int(entry.name)] = api.cpu_seconds(int(entry.name))
    return out


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(t - before.get(pid, 0.0) for pid, t in after.items() if t == t)


async def database_figures(url: str, database: str) -> dict[str, float]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, "
            "pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS wal, "
            "(SELECT count(*) FROM pg_stat_activity WHERE datname = $1) AS connections "
            "FROM pg_stat_database WHERE datname = $1", database)
    finally:
        await conn.close()
    return {k: float(v) for k, v in dict(row).items()}


def metric_sockets(port: int) -> int | None:
    """The server's own count of open sockets (magery_open_sockets in /metrics)."""
    import httpx

    try:
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=30).text
    except httpx.HTTPError:
        return None
    return sum(int(float(line.split()[-1])) for line in text.splitlines()
               if line.startswith("magery_open_sockets{"))


def serve_options() -> list[str]:
    """uvicorn's options as scripts/serve gives them (sockets and frames), but the address."""
    import shlex

    line = next(text for text in (ROOT / "scripts" / "serve").read_text().split("exec ", 1)[1].splitlines()
                if "--ws" in text)
    words = shlex.split(line.rstrip("\\"))
    return [w for w in words if w != "$@"]


def start_server(port: int, env: dict[str, str], log: Path, profile: bool) -> subprocess.Popen[bytes]:
    PROFILE.parent.mkdir(parents=True, exist_ok=True)
    cmd = [PYTHON, *(["-m", "cProfile", "-o", str(PROFILE)] if profile else []),
           "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1", "--port", str(port),
           "--log-level", "warning", "--no-access-log", "--backlog", "4096",
           *serve_options()]
    with log.open("wb") as out:
        return subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


# ---- the ramp ------------------------------------------------------------------------

def split(n: int, parts: int) -> list[int]:
    return [n // parts + (1 if p < n % parts else 0) for p in range(parts)]


class LoadGenerator:
    """The load processes, told what to do step by step (bench/soak.py drives them too)."""

    def __init__(self, port: int, procs: int, interval: float, legal: str = "socket", act: str = "rest") -> None:
        ctx = mp.get_context("spawn")
        self.reports = ctx.Queue()
        self.orders: list[Any] = []
        self.procs: list[Any] = []
        for i in range(procs):
            q = ctx.Queue()
            proc = ctx.Process(target=load_process, args=(i, port, interval, q, self.reports, legal, act),
                               daemon=True)
            proc.start()
            self.orders.append(q)
            self.procs.append(proc)
        for _ in self.procs:
            self.reports.get(timeout=300)

    def cpu(self) -> float:
        return sum(api.cpu_seconds(p.pid) for p in self.procs)

    def order(self, more: int, over: float, settle: float, window: float) -> tuple[float, float]:
        """Open `more` matches over `over` seconds; once every match's sockets are
        open, wait `settle` seconds and measure a window of `window` seconds (its
        start and end, on time.time()'s clock, are answered)."""
        for q, k in zip(self.orders, split(more, len(self.orders)), strict=True):
            q.put(("step", k, over))
        for _ in self.orders:
            self.reports.get(timeout=over + 900)
        start = time.time() + settle
        end = start + window
        for q in self.orders:
            q.put(("window", start, end))
        return start, end

    def results(self) -> dict[str, Any]:
        """What the window of the last order measured, from every process."""
        parts = [self.reports.get(timeout=300)[2] for _ in self.orders]
        errors: dict[str, int] = {}
        for part in parts:
            for k, v in part["errors"].items():
                errors[k] = errors.get(k, 0) + v
        return {"latencies": sorted(x for part in parts for x in part["latencies"]),
                "actions": sum(p["actions"] for p in parts), "asked": sum(p["asked"] for p in parts),
                "sockets": sum(p["sockets"] for p in parts), "messages": sum(p["messages"] for p in parts),
                "reopened": sum(p["reopened"] for p in parts), "errors": errors}

    def close(self) -> None:
        for q in self.orders:
            q.put(("stop",))
        deadline = time.monotonic() + 60
        for proc in self.procs:  # each closes its sockets and says so; one that failed is ended
            proc.join(max(0.1, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()


def percentile(ordered: list[float], share: float) -> float | None:
    return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else None


def run_step(matches: int, held: int, args: argparse.Namespace, load: LoadGenerator,
             server: subprocess.Popen[bytes], port: int, admin_url: str, database: str) -> dict[str, Any]:
    """Grow to `matches` (from `held`), settle, measure a window."""
    open_over = max(1.0, (matches - held) / args.open_rate)
    start, end = load.order(matches - held, open_over, args.settle, args.window)
    time.sleep(max(0.0, start - time.time()))
    server0, pg0, gen0 = api.cpu_seconds(server.pid), backends_cpu(database), load.cpu()
    waited0 = waited_for_cpu(server.pid)
    db0 = asyncio.run(database_figures(admin_url, database))
    time.sleep(max(0.0, end - time.time()))
    server_cpu = api.cpu_seconds(server.pid) - server0
    waited = waited_for_cpu(server.pid) - waited0
    pg_cpu = cpu_used(pg0, backends_cpu(database))
    gen_cpu = load.cpu() - gen0
    db1 = asyncio.run(database_figures(admin_url, database))
    load_average = os.getloadavg()
    rss = rss_mib(server.pid)
    got = load.results()
    lat, actions = got["latencies"], got["actions"]
    per = max(1, actions)
    return {
        "matches": matches, "sockets_client": got["sockets"], "sockets_server": metric_sockets(port),
        "actions": actions, "asked": got["asked"], "actions_per_second": actions / args.window,
        "p50_ms": 1000 * statistics.median(lat) if lat else None, "p99_ms": percentile(lat, 0.99),
        "server_cpu_share": server_cpu / args.window, "server_rss_mib": rss,
        "server_waited_for_cpu_share": waited / args.window,
        "postgres_cpu_share": pg_cpu / args.window, "load_generator_cpu_share": gen_cpu / args.window,
        "load_average": [round(x, 2) for x in load_average],
        "commits_per_action": (db1["xact_commit"] - db0["xact_commit"]) / per,
        "rollbacks_per_action": (db1["xact_rollback"] - db0["xact_rollback"]) / per,
        "server_cpu_ms_per_action": 1000 * server_cpu / per,
        "rows_written_per_action": sum(db1[k] - db0[k] for k in ("tup_inserted", "tup_updated", "tup_deleted")) / per,
        "wal_bytes_per_action": (db1["wal"] - db0["wal"]) / per,
        "db_connections": db1["connections"],
        "socket_messages": got["messages"], "sockets_reopened": got["reopened"], "errors": got["errors"],
    }


def show(step: dict[str, Any], label: str) -> None:
    p99 = f"{step['p99_ms']:.1f}" if step["p99_ms"] is not None else "-"
    p50 = f"{step['p50_ms']:.1f}" if step["p50_ms"] is not None else "-"
    print(f"  {label:>6} {step['matches']:6d} matches, {step['sockets_server']} sockets: "
          f"{step['actions_per_second']:6.1f} actions/s (asked {step['asked'] / max(1, step['actions']):.2f}x), "
          f"p50 {p50} ms, p99 {p99} ms; server CPU {100 * step['server_cpu_share']:.0f}% "
          f"(and {100 * step['server_waited_for_cpu_share']:.0f}% waiting for a core) "
          f"RSS {step['server_rss_mib']:.0f} MiB, PostgreSQL CPU {100 * step['postgres_cpu_share']:.0f}%, "
          f"load generator CPU {100 * step['load_generator_cpu_share']:.0f}%; "
          f"{step['server_cpu_ms_per_action']:.2f} ms of server CPU, {step['commits_per_action']:.2f} commits and "
          f"{step['rollbacks_per_action']:.2f} rollbacks per action; "
          f"WAL {step['wal_bytes_per_action']:.0f} B/action; load average {step['load_average'][0]:.2f}"
          + (f"; errors {step['errors']}" if step["errors"] else ""), flush=True)


def gives(step: dict[str, Any], quiet_p99: float) -> str | None:
    """Why this step is past the capacity, or None."""
    if step["p99_ms"] is None:
        return "no action answered"
    if step["p99_ms"] > GIVES * quiet_p99:
        return f"p99 {step['p99_ms']:.1f} ms > {GIVES:g} x quiet {quiet_p99:.1f} ms"
    if step["actions"] < SHORT * step["asked"]:
        return f"{step['actions']} actions answered of {step['asked']} asked"
    if sum(step["errors"].values()) > 0.01 * max(1, step["actions"]):
        return f"errors {step['errors']}"
    return None


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run: a few matches, short windows")
    ap.add_argument("--steps", help="live matches at each step, comma-separated (default 250,500,1000,...)")
    ap.add_argument("--quiet", type=int, help="matches of the quiet measure (default 50)")
    ap.add_argument("--interval", type=float, help="seconds between one player's actions (default 10)")
    ap.add_argument("--window", type=float, help="seconds measured per step (default 40)")
    ap.add_argument("--settle", type=float, help="seconds between opening a step's matches and its window (default 10)")
    ap.add_argument("--open-rate", type=float, default=50.0, help="new matches a second while ramping")
    ap.add_argument("--procs", type=int, default=3, help="load-generator processes")
    ap.add_argument("--no-stop", action="store_true", help="run every step, past the capacity too")
    ap.add_argument("--profile", action="store_true", help="run the server under cProfile")
    ap.add_argument("--legal", choices=("socket", "rest"), default="socket",
                    help="how a player learns its legal actions: its socket's ?legal=true, as the page does "
                         "(default), or GET /legal on its turn")
    ap.add_argument("--act", choices=("rest", "socket"), default="rest",
                    help="how a player sends its action: POST /actions, as the page does (default), or an `action` "
                         "message on its socket (answered by an `ack`), to measure what that would spare")
    ap.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting of the server (e.g. DB_POOL_SIZE=8)")
    ap.add_argument("--database-setting", action="append", default=[], metavar="NAME=VALUE",
                    help="a PostgreSQL setting of the run's database (ALTER DATABASE ... SET), e.g. "
                         "synchronous_commit=off to see what the disk's flush at each commit costs the tail")
    ap.add_argument("--cluster", type=int, metavar="PORT",
                    help="run on a throwaway PostgreSQL cluster of this run on PORT (pg_createcluster, dropped at "
                         "the end): its CPU, WAL and connections are then this run's alone")
    ap.add_argument("--output", default=str(RESULTS))
    args = ap.parse_args(argv)
    quick = args.quick
    steps = [int(s) for s in args.steps.split(",")] if args.steps else (
        [4, 8] if quick else [100, 150, 200, 250, 350, 500, 750, 1000, 1500, 2000, 2500, 3000, 3500, 4000])
    args.quiet = args.quiet or (2 if quick else 50)
    args.interval = args.interval or (1.0 if quick else 10.0)
    args.window = args.window or (4.0 if quick else 40.0)
    args.settle = args.settle if args.settle is not None else (1.0 if quick else 10.0)
    quiet_window = args.window if quick else max(args.window, 60.0)

    budget = 240 if quick else 3000
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("capacity bench over budget")))
    signal.alarm(budget)
    cluster = None
    pg = api.PG
    if args.cluster:
        from bench.proofs import Cluster

        cluster = Cluster(args.cluster, name="capacity").__enter__()
        pg = cluster.url
    database = f"magery_capacity_{os.getpid()}"
    admin_url = f"{pg}/{database}"
    env = {"DATABASE_URL": f"{pg.replace('postgresql://', 'postgresql+asyncpg://')}/{database}",
           "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000",
           "WS_SOCKETS_PER_ADDRESS": "0",  # every person here is 127.0.0.1
           "DB_POOL_SIZE": "16", "DB_MAX_OVERFLOW": "4",  # PostgreSQL's 100 connections are shared here
           "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT),
           **dict(pair.split("=", 1) for pair in args.server_env)}
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(api._pg(f'CREATE DATABASE "{database}"', pg))
    for pair in args.database_setting:
        name, value = pair.split("=", 1)
        if not name.replace("_", "").replace(".", "").isalnum():
            raise SystemExit(f"--database-setting: {name!r} is no setting's name")
        asyncio.run(api._pg(f'ALTER DATABASE "{database}" SET {name} = {_quoted(value)}', pg))
    server = None
    load: LoadGenerator | None = None
    rows: list[dict[str, Any]] = []
    quiet: dict[str, Any] = {}
    capacity, why = 0, "every step held"
    try:
        port = api.free_port()
        server = start_server(port, env, out.with_name("capacity-server.log"), args.profile)
        api.wait_ready(f"http://127.0.0.1:{port}/readyz", server, timeout=180)  # a loaded machine starts slowly
        load = LoadGenerator(port, args.procs, args.interval, args.legal, args.act)
        print(f"capacity: one server process (pid {server.pid}) on {database}; {args.procs} load processes; "
              f"an action every {args.interval:g} s per player; legal actions by {args.legal}, actions by {args.act}; "
              f"{os.cpu_count()} CPUs; database settings {args.database_setting or 'as the cluster has them'}; "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
        window = args.window
        args.window = quiet_window
        quiet = run_step(args.quiet, 0, args, load, server, port, admin_url, database)
        args.window = window
        show(quiet, "quiet")
        if quiet["p99_ms"] is None:
            raise SystemExit("no action answered in the quiet window")
        held = args.quiet
        for matches in steps:
            if matches <= held:
                continue
            row = run_step(matches, held, args, load, server, port, admin_url, database)
            held = matches
            rows.append(row)
            show(row, "step")
            row["gives"] = reason = gives(row, quiet["p99_ms"])
            if reason is None and why == "every step held":
                capacity = matches
            elif reason is not None and why == "every step held":
                why = f"at {matches}: {reason}"
                if not args.no_stop:
                    break
    finally:
        signal.alarm(0)
        if load is not None:
            load.close()
        api.stop_server(server)
        asyncio.run(api._pg(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)', pg))
        if cluster is not None:
            cluster.drop()
    at = next((r for r in rows if r["matches"] == capacity), None)
    result = {"quick": quick, "interval": args.interval, "legal": args.legal, "act": args.act, "own_cluster": bool(args.cluster), "procs": args.procs, "cpus": os.cpu_count(),
              "profile": args.profile, "quiet": quiet, "steps": rows, "capacity": capacity, "stopped": why,
              "at_capacity": at}
    out.write_text(json.dumps(result, indent=1))
    print(f"\nquiet p99 {quiet['p99_ms']:.1f} ms ({args.quiet} matches, load average {quiet['load_average'][0]:.2f}); "
          f"stopped {why}")
    if at is not None:
        print(f"at {capacity} matches: {at['sockets_server']} sockets held, {at['actions_per_second']:.0f} actions/s, "
              f"p99 {at['p99_ms']:.1f} ms; server CPU {100 * at['server_cpu_share']:.0f}% of a core "
              f"(waiting for one {100 * at['server_waited_for_cpu_share']:.0f}% of the time), "
              f"RSS {at['server_rss_mib']:.0f} MiB; PostgreSQL CPU {100 * at['postgres_cpu_share']:.0f}%; "
              f"load generator CPU {100 * at['load_generator_cpu_share']:.0f}%; "
              f"{at['commits_per_action']:.2f} commits and {at['rows_written_per_action']:.1f} rows written per action, "
              f"WAL {at['wal_bytes_per_action']:.0f} B per action"
              f"{'' if args.cluster else ' (the shared cluster: an upper bound)'}; "
              f"load average {at['load_average'][0]:.2f}")
    print(f"written {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    if args.profile:
        api.print_profile(str(PROFILE))
    print(f"capacity: {capacity} live matches (2 players + 2 watchers, an action every {args.interval:g} s each) "
          f"per process at p99 <= 2x quiet")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
