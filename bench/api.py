"""The REST API under load, against a bare FastAPI + PostgreSQL yardstick.

    .venv/bin/python bench/api.py [--quick] [--profile] [--clients 32]

Loopback only, bounded and self-stopping. It creates a fresh PostgreSQL
database (dropped at the end), starts two uvicorn processes on it — the real
server (`app.main:create_app`) and the yardstick (`bench/api_yardstick.py`: one endpoint,
a small JSON body, one conditional UPDATE through the same driver and pool) —
and drives both with scripted clients (bench/wire.py: a minimal keep-alive
HTTP/1.1 client, one connection per client, so the load generator's own CPU and
queueing stay small next to what it measures):

- peak: 32 concurrent clients, each playing whole matches (create, join, both
  setups, then random legal actions until the match ends, then the next match)
  as fast as the answers come, against the yardstick's 32 clients doing the
  same number of writes in a loop: throughput and p50 submit latency, measured
  in turns (yardstick, app; three times, once with --quick) and reported for
  the turn whose ratio is the median;
- half load: the same clients paced to half of the peak rate: p99 latency. Each
  client spaces its requests by the mean interval times a uniform jitter in
  [0.5, 1.5), starting at a random phase, so the 32 clients never fire in
  step. The yardstick is paced the same way at half of *its* peak: its p99 is
  what this machine allows (clients, two servers and PostgreSQL on the same
  cores), printed next to the app's.

Clients play scripted matches: random legal games worked out with the rules
engine once per client process, on custom matches whose seed the script
holds, and replayed as new matches while the window lasts (each answer's
version is checked against the script's), so every timed request is one
action and the clients spend their CPU on requests, as the yardstick's do.

The same server with `FAST_PATH=false` (app/api/fast.py off) is measured at
peak in turns with the real one: the fast path stays only while it is worth
>= 10% of throughput (issue 8).

Goals (issue 3, throughput raised by issue 22): actions/s >= 1.0 x the
yardstick's requests/s; p50 submit
latency <= 1.3 x the yardstick's; p99 <= 5 ms at half of peak load. The table
is printed and written to bench/results/api.json. `--profile` runs the server
under cProfile and prints its hot spots. `--sweep 100,200,400` adds p50/p99 of
both servers at those paced rates: how low this machine's latency tail goes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402  (only to wait for the servers to come up)

from app.rules import action_json, apply_steps, legal_actions, new_match  # noqa: E402
from app.rules.minions import TYPES  # noqa: E402
from app.rules.state import OVER, SETUP  # noqa: E402
from bench.wire import Connection  # noqa: E402

PG = os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
PYTHON = sys.executable
RESULTS = ROOT / "bench" / "results" / "api.json"
PEAK_TURNS = 3  # yardstick-then-app windows at peak; the median turn is reported


# ---- processes ---------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(module: str, port: int, env: dict[str, str], profile: str | None) -> subprocess.Popen[bytes]:
    cmd = [PYTHON]
    if profile:
        cmd += ["-m", "cProfile", "-o", profile]
    # The server is built by its factory; a yardstick module is a plain ASGI attribute.
    factory = ["--factory"] if module.endswith(":create_app") else []
    cmd += ["-m", "uvicorn", *factory, module, "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "warning", "--no-access-log"]
    return subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"server {url} exited at start:\n{err[-3000:]}")
        try:
            if httpx.get(url, timeout=1.0).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"server {url} not ready after {timeout} s")


def stop_server(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)  # uvicorn shuts down cleanly; cProfile then writes
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


async def _pg(sql: str, server: str = PG) -> None:
    """Run one statement on `server`'s maintenance database (CREATE/DROP DATABASE)."""
    import asyncpg

    conn = await asyncpg.connect(f"{server}/postgres")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


# ---- the clients (run in a worker process) -----------------------------------

BACKROW = list(TYPES)


class Recorder:
    """Latencies of requests sent inside the measuring window."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = start, end
        self.latencies: list[float] = []
        self.errors = 0
        self.other = 0  # untimed requests: create, join
        self.total = 0  # timed requests, in the window or not

    def add(self, sent: float, took: float) -> None:
        self.total += 1
        if self.start <= sent < self.end:
            self.latencies.append(took)


class Pacer:
    """Spaces one client's requests `interval` apart on average (None: as fast as
    it can), each gap jittered uniformly in [0.5, 1.5) x `interval` so that clients
    started together drift apart instead of firing in step."""

    def __init__(self, interval: float | None, rng: random.Random) -> None:
        self.interval = interval
        self.rng = rng
        self.next = time.time() + (rng.random() * interval if interval else 0)

    async def wait(self) -> None:
        if self.interval is None:
            return
        now = time.time()
        gap = self.interval * (0.5 + self.rng.random())
        if self.next > now:
            await asyncio.sleep(self.next - now)
            self.next += gap
        else:
            self.next = now + gap  # behind: no catch-up burst


# A client plays matches from scripts: each a custom match's seed and a random
# legal game on it, worked out with the rules engine once per client process
# (at first use, during the warm-up) and replayed as often as the window lasts.
# Every replay is a new match on the server, which does all the work of each
# action; the client only sends the next one and checks the answer's version
# against the script's. So the load generator's CPU, which shares the cores
# with the servers, is spent on requests as the yardstick's clients' is, not on
# legal-action lists (issue 22: 0.13 ms of client CPU per action before, 0.06 ms
# for the yardstick's clients).
SCRIPTS = 48  # scripts per client process
_scripts: dict[int, tuple[str, list[tuple[int, dict[str, Any], int]]]] = {}


def script(number: int) -> tuple[str, list[tuple[int, dict[str, Any], int]]]:
    """The seed and (seat to move, action, version after) of script `number`;
    the version starts at 1, the join's (the log's first entry)."""
    if number not in _scripts:
        rng = random.Random(number)
        seed = f"{rng.getrandbits(128):032x}"
        state, version, steps = new_match(seed=seed), 1, []
        while state.phase != OVER:
            if state.phase == SETUP:
                row = BACKROW[:]
                rng.shuffle(row)
                action = ("setup", tuple(TYPES.index(t) for t in row))
            else:
                action = rng.choice(legal_actions(state))
            mover = state.to_move
            applied = apply_steps(state, action)
            state = applied[-1][2]
            version += len(applied)
            steps.append((mover, action_json(action), version))
        _scripts[number] = seed, steps
    return _scripts[number]


async def play_matches(http: Connection, rec: Recorder, stop: float, pacer: Pacer,
                       rng: random.Random) -> None:
    while time.time() < stop:
        seed, steps = script(rng.randrange(SCRIPTS))
        r = await http.post("/api/v1/matches", json_body={
            "options": {"variant": "standard", "seed": seed}, "seat": "white", "name": "bench-w"})
        if r.status_code != 201:
            raise RuntimeError(f"create: {r.status_code} {r.text[:300]}")
        created = r.json()
        mid, tokens = created["match"]["id"], {0: created["token"]}
        r = await http.post(f"/api/v1/matches/{mid}/join", json_body={"name": "bench-b"})
        if r.status_code != 200:
            raise RuntimeError(f"join: {r.status_code} {r.text[:300]}")
        joined = r.json()
        tokens[1] = joined["token"]
        version = joined["match"]["version"]  # the join is an entry of the log too
        if version != 1:
            raise RuntimeError(f"version {version} after the join; the scripts start at 1")
        rec.other += 2
        for mover, action, after in steps:
            if time.time() >= stop:
                break
            body = {"action": action, "version": version, "id": uuid.uuid4().hex}
            headers = {"Authorization": f"Bearer {tokens[mover]}"}
            await pacer.wait()
            sent = time.time()
            t0 = time.perf_counter()
            r = await http.post(f"/api/v1/matches/{mid}/actions", json_body=body, headers=headers)
            took = time.perf_counter() - t0
            if r.status_code != 200:
                rec.errors += 1
                raise RuntimeError(f"action {body}: {r.status_code} {r.text[:300]}")
            rec.add(sent, took)
            got = r.json()["match"]["version"]
            if got != after:
                raise RuntimeError(f"version {got} from the server, {after} in the script")
            version = after


async def hit_yardstick(http: Connection, rec: Recorder, stop: float, pacer: Pacer,
                        row: int) -> None:
    version = (await http.get(f"/rows/{row}")).json()["version"]
    while time.time() < stop:
        body = {"action": {"type": "remove", "mage": "animist", "power": {"move": ["b1", "c3"]}},
                "version": version, "id": uuid.uuid4().hex}
        await pacer.wait()
        sent = time.time()
        t0 = time.perf_counter()
        r = await http.post(f"/rows/{row}", json_body=body)
        took = time.perf_counter() - t0
        if r.status_code != 200:
            rec.errors += 1
            raise RuntimeError(f"yardstick: {r.status_code} {r.text[:200]}")
        rec.add(sent, took)
        version = r.json()["version"]


async def _client_main(kind: str, base: str, clients: int, first: int, interval: float | None,
                       start: float, end: float, seed: int) -> dict[str, object]:
    rec = Recorder(start, end)

    async def one(i: int) -> None:
        # One keep-alive connection per client.
        rng = random.Random(seed * 1000 + first + i)
        pacer = Pacer(interval, rng)
        host, port = base.removeprefix("http://").rsplit(":", 1)
        async with Connection(host, int(port)) as http:
            if kind == "app":
                await play_matches(http, rec, end, pacer, rng)
            else:
                await hit_yardstick(http, rec, end, pacer, first + i)

    await asyncio.gather(*(one(i) for i in range(clients)))
    return {"latencies": rec.latencies, "errors": rec.errors, "other": rec.other, "total": rec.total}


def client_process(args: tuple) -> dict[str, object]:  # type: ignore[type-arg]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    before = time.process_time()
    out = asyncio.run(_client_main(*args))
    out["cpu"] = time.process_time() - before  # the load generator's own share of the cores
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu() -> dict[int, float]:
    """CPU time so far of each PostgreSQL process on this machine (its backends,
    WAL writer, checkpointer...): what the database spent is the sum of the
    growth; a backend started meanwhile counts from zero. On a quiet machine
    that is this bench's, since its two servers are the only clients."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    out[int(entry.name)] = cpu_seconds(int(entry.name))
            except OSError:
                continue
    return out


def run_load(pool: mp.pool.Pool, procs: int, kind: str, base: str, clients: int,
             rate: float | None, warm: float, measure: float, server_pid: int) -> dict[str, float]:
    """`clients` concurrent clients over `procs` processes; figures of the window,
    and the server's CPU time per request over the whole run."""
    cpu0, db0 = cpu_seconds(server_pid), postgres_cpu()
    start = time.time() + 1.0 + warm  # 1 s for the workers to start their clients
    end = start + measure
    interval = clients / rate if rate else None
    per = [clients // procs + (1 if p < clients % procs else 0) for p in range(procs)]
    jobs = []
    first = 0
    for p, n in enumerate(per):
        jobs.append((kind, base, n, first, interval, start, end, random.randrange(1 << 30) + p))
        first += n
    parts = pool.map(client_process, jobs)
    cpu = cpu_seconds(server_pid) - cpu0
    db1 = postgres_cpu()
    db_cpu = sum(t - db0.get(p, 0.0) for p, t in db1.items() if t == t)
    clients_cpu = sum(part["cpu"] for part in parts)  # type: ignore[misc]
    total = sum(part["total"] + part["other"] for part in parts)  # type: ignore[operator]
    lat = sorted(x for part in parts for x in part["latencies"])  # type: ignore[union-attr]
    if not lat:
        raise SystemExit(f"{kind}: no request completed in the window")
    return {
        "requests": len(lat),
        "per_second": len(lat) / measure,
        "p50_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "mean_ms": 1000 * statistics.fmean(lat),
        "server_cpu_ms_per_request": 1000 * cpu / max(1, total),
        "postgres_cpu_ms_per_request": 1000 * db_cpu / max(1, total),
        "clients_cpu_ms_per_request": 1000 * clients_cpu / max(1, total),
    }


def cpu_split(run: dict[str, float]) -> str:
    return "/".join(f"{run[k + '_cpu_ms_per_request']:.2f}" for k in ("server", "postgres", "clients"))


# ---- the run -----------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="short windows (a smoke run)")
    ap.add_argument("--profile", action="store_true", help="run the server under cProfile")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--procs", type=int, default=2, help="client processes")
    ap.add_argument("--app-env", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting for the real server only (e.g. REALTIME_BUS=memory), to measure what it costs")
    ap.add_argument("--sweep", metavar="RATES", help="also measure p50/p99 of both servers at these "
                    "paced rates (comma-separated requests/s): where this machine's latency floor lies")
    args = ap.parse_args()
    if any("=" not in pair for pair in args.app_env):
        ap.error("--app-env takes NAME=VALUE")
    warm, measure = (1.0, 3.0) if args.quick else (3.0, 12.0)
    budget = 120 if args.quick else 540
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("bench over budget")))
    signal.alarm(budget)

    db = f"magery_bench_{os.getpid()}"
    url = f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}"
    env = {"DATABASE_URL": url, "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000", "SWEEP_SECONDS": "1",
           "PYTHONPATH": str(ROOT)}
    profile = str(ROOT / "bench" / "results" / "api-server.prof") if args.profile else None
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(_pg(f'CREATE DATABASE "{db}"'))
    app_proc = yard_proc = slow_proc = None
    mp_ctx = mp.get_context("spawn")
    try:
        app_port, yard_port = free_port(), free_port()
        app_env = dict(pair.split("=", 1) for pair in args.app_env)
        app_proc = start_server("app.main:create_app", app_port, {**env, **app_env}, profile)
        yard_proc = start_server("bench.api_yardstick:app", yard_port, env, None)
        app_base, yard_base = f"http://127.0.0.1:{app_port}", f"http://127.0.0.1:{yard_port}"
        wait_ready(f"{app_base}/api/v1/matches?limit=1", app_proc)
        wait_ready(f"{yard_base}/health", yard_proc)
        print(f"servers up on {db}; {args.clients} clients over {args.procs} processes, "
              f"{measure:g} s windows after {warm:g} s warm-up", flush=True)
        with mp_ctx.Pool(args.procs) as pool:
            # The peaks in turns, yardstick then app, PEAK_TURNS times: on a shared
            # machine one window's throughput swings by a sixth or more, so a single
            # pair of windows can say 0.8x or 1.2x of the same two servers. Each turn's
            # two windows give a ratio; the table reports the median turn.
            yard_runs: list[dict[str, Any]] = []
            app_runs: list[dict[str, Any]] = []
            for turn in range(1 if args.quick else PEAK_TURNS):
                yard_runs.append(run_load(pool, args.procs, "yardstick", yard_base, args.clients, None, warm,
                                          measure, yard_proc.pid))
                app_runs.append(run_load(pool, args.procs, "app", app_base, args.clients, None, warm, measure,
                                         app_proc.pid))
                print(f"  turn {turn + 1}: yardstick {yard_runs[-1]['per_second']:.0f} req/s, "
                      f"app {app_runs[-1]['per_second']:.0f} actions/s: "
                      f"{app_runs[-1]['per_second'] / yard_runs[-1]['per_second']:.2f}x; CPU ms per request "
                      f"(server/PostgreSQL/clients) yardstick {cpu_split(yard_runs[-1])}, app {cpu_split(app_runs[-1])}",
                      flush=True)
            turns = sorted(zip(app_runs, yard_runs, strict=True), key=lambda t: t[0]["per_second"] / t[1]["per_second"])
            app_peak, yard_peak = turns[len(turns) // 2]
            turn_ratios = [a["per_second"] / y["per_second"] for a, y in turns]
            half = app_peak["per_second"] / 2
            app_half = run_load(pool, args.procs, "app", app_base, args.clients, half, warm, measure,
                                app_proc.pid)
            print(f"  app at {half:.0f}/s:  p99 {app_half['p99_ms']:.2f} ms", flush=True)
            yard_half = run_load(pool, args.procs, "yardstick", yard_base, args.clients,
                                 yard_peak["per_second"] / 2, warm, measure, yard_proc.pid)
            sweep = []
            for rate in [float(r) for r in args.sweep.split(",")] if args.sweep else []:
                for kind, base, pid in (("yardstick", yard_base, yard_proc.pid), ("app", app_base, app_proc.pid)):
                    got = run_load(pool, args.procs, kind, base, args.clients, rate, 2.0, 8.0, pid)
                    sweep.append({"kind": kind, "rate": rate, **got})
                    print(f"  sweep: {kind:9} at {rate:5.0f}/s: p50 {got['p50_ms']:.2f} ms, "
                          f"p99 {got['p99_ms']:.2f} ms", flush=True)
            # The yardstick stops first: three servers' pools would pass PostgreSQL's
            # 100 connections. Then the same server without app/api/fast.py (every
            # action through FastAPI's routing) starts beside the real one.
            stop_server(yard_proc)
            yard_proc = None
            slow_port = free_port()
            slow_proc = start_server("app.main:create_app", slow_port, {**env, **app_env, "FAST_PATH": "false"}, None)
            slow_base = f"http://127.0.0.1:{slow_port}"
            wait_ready(f"{slow_base}/api/v1/matches?limit=1", slow_proc)
            # With and without the fast path, twice each in turns, so drift falls on both.
            fast_runs, slow_runs = [app_peak], []  # the median turn's window, and two more below
            for turn in range(3):
                if turn % 2 == 0:
                    slow_runs.append(run_load(pool, args.procs, "app", slow_base, args.clients, None, warm,
                                              measure, slow_proc.pid))
                else:
                    fast_runs.append(run_load(pool, args.procs, "app", app_base, args.clients, None, warm,
                                              measure, app_proc.pid))
            fast_tp = statistics.median(r["per_second"] for r in fast_runs)
            slow_tp = statistics.median(r["per_second"] for r in slow_runs)
            fast_p50 = statistics.median(r["p50_ms"] for r in fast_runs)
            slow_p50 = statistics.median(r["p50_ms"] for r in slow_runs)
            print(f"  fast path on:   {fast_tp:.0f} actions/s, p50 {fast_p50:.2f} ms; "
                  f"off: {slow_tp:.0f} actions/s, p50 {slow_p50:.2f} ms", flush=True)
    finally:
        stop_server(app_proc)
        stop_server(yard_proc)
        stop_server(slow_proc)
        signal.alarm(0)
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))

    ratio_tp = app_peak["per_second"] / yard_peak["per_second"]
    ratio_p50 = app_peak["p50_ms"] / yard_peak["p50_ms"]
    rows = [
        (f"actions/s at {args.clients} clients", f"{app_peak['per_second']:.0f}",
         f"{yard_peak['per_second']:.0f} req/s", f"{ratio_tp:.2f}x", ">= 1.00x", ratio_tp >= 1.0),
        ("p50 submit latency", f"{app_peak['p50_ms']:.2f} ms", f"{yard_peak['p50_ms']:.2f} ms",
         f"{ratio_p50:.2f}x", "<= 1.30x", ratio_p50 <= 1.3),
        ("fast path: actions/s on vs off", f"{fast_tp:.0f}", f"{slow_tp:.0f} (off)",
         f"{fast_tp / slow_tp:.2f}x", ">= 1.10x", fast_tp / slow_tp >= 1.10),
        ("fast path: p50 on vs off", f"{fast_p50:.2f} ms", f"{slow_p50:.2f} ms (off)",
         f"{fast_p50 / slow_p50:.2f}x", "", True),
        (f"p99 at half peak ({half:.0f}/s)", f"{app_half['p99_ms']:.2f} ms",
         f"{yard_half['p99_ms']:.2f} ms", "", "<= 5 ms", app_half["p99_ms"] <= 5.0),
    ]
    head = ("measure", "app", "yardstick", "ratio", "goal", "")
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(5)]
    line = "  ".join(h.ljust(w) for w, h in zip(widths, head[:5], strict=True))
    print("\n" + line + "  result")
    print("-" * (len(line) + 8))
    for r in rows:
        print("  ".join(str(c).ljust(w) for w, c in zip(widths, r[:5], strict=True))
              + "  " + ("PASS" if r[5] else "MISS"))
    print(f"(app p99 at peak {app_peak['p99_ms']:.2f} ms, yardstick p99 at peak "
          f"{yard_peak['p99_ms']:.2f} ms; {os.cpu_count()} CPUs shared by clients, servers and PostgreSQL)")
    print(f"(yardstick at half of its peak, {yard_peak['per_second'] / 2:.0f}/s: p50 "
          f"{yard_half['p50_ms']:.2f} ms, p99 {yard_half['p99_ms']:.2f} ms: the floor this machine and "
          f"load generator allow; app at {half:.0f}/s: p50 {app_half['p50_ms']:.2f} ms)")
    print(f"(server CPU per request, peak / half load: app {app_peak['server_cpu_ms_per_request']:.2f} / "
          f"{app_half['server_cpu_ms_per_request']:.2f} ms, yardstick "
          f"{yard_peak['server_cpu_ms_per_request']:.2f} / {yard_half['server_cpu_ms_per_request']:.2f} ms)")
    print(f"(CPU per request at peak, server / PostgreSQL / clients: app "
          f"{app_peak['server_cpu_ms_per_request']:.2f} / {app_peak['postgres_cpu_ms_per_request']:.2f} / "
          f"{app_peak['clients_cpu_ms_per_request']:.2f} ms, yardstick "
          f"{yard_peak['server_cpu_ms_per_request']:.2f} / {yard_peak['postgres_cpu_ms_per_request']:.2f} / "
          f"{yard_peak['clients_cpu_ms_per_request']:.2f} ms)")
    RESULTS.write_text(json.dumps({
        "quick": args.quick, "clients": args.clients, "client_processes": args.procs,
        "window_seconds": measure, "cpus": os.cpu_count(),
        "yardstick_peak": yard_peak, "app_peak": app_peak,
        "app_half_load": app_half, "fast_path_on": fast_runs, "fast_path_off": slow_runs, "yardstick_half_load": yard_half, "sweep": sweep,
        "ratios": {"throughput": ratio_tp, "p50": ratio_p50, "throughput_turns": turn_ratios},
        "goals": {r[0]: {"value": r[1], "goal": r[4], "pass": r[5]} for r in rows},
    }, indent=2))
    print(f"written {RESULTS.relative_to(ROOT)}")
    if profile:
        print_profile(profile)
    return 0


def print_profile(path: str) -> None:
    import pstats

    if not os.path.exists(path):
        print("no profile written")
        return
    print("\nserver hot spots (cumulative, top 30):")
    pstats.Stats(path).sort_stats("cumulative").print_stats(30)
    print("server hot spots (own time, top 25):")
    pstats.Stats(path).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    raise SystemExit(main())
