"""Soak: the server under steady load for as long as you say, its memory sampled.

    .venv/bin/python bench/soak.py --duration 3600          # the one-hour soak
    .venv/bin/python bench/soak.py --duration 120 --rate 20  # a short one

Loopback only, bounded by `--duration`, and it stops by itself. It makes a
fresh PostgreSQL database (dropped at the end), starts `--replicas` server
processes on it (uvicorn --factory app.main:create_app, as scripts/serve does), and keeps
`--matches` matches going at once: two seats per match playing random legal
actions (asked of GET /legal) at `--rate` actions a second in all, `--watchers`
websockets watching each match (on the other replica when there are two, so the
bus carries every move), and `--bots` of the matches played against a bot. A
match that ends is replaced by a new one; its sockets close and new ones open.

Every `--sample` seconds it records, per server process: resident memory
(VmRSS), open file descriptors, CPU time, open sockets (from /metrics); and
for the load: actions answered, errors by status, latency p50/p99 of the period.
The figures go to `--output` (default bench/results/soak.json) as they come, so
a run cut short still leaves them; each server's log (warnings and worse) goes
beside it (soak-server0.log, ...).

The verdict: memory after the warm-up (`--warmup` seconds) must not grow: the
median of the last quarter of the samples at most 10% above the first
quarter's, per process; the least-squares slope (MiB per hour) is printed too.
The state cache is set small (`--state-cache`, default 64 matches) so that it
fills during the warm-up: a bounded cache filling up is not a leak, and with
the default of 4096 it would still be filling after an hour.

`--people N` puts bench/capacity.py's simulated people on one server process
instead (N live matches, each two players and two watchers holding compact
websockets, a player acting every `--interval` seconds; run it at half of the
capacity that bench/capacity.py measured). Each sample then also counts the
database's connections (pg_stat_activity) and the sockets the load holds; when
the load has stopped, the leak check: the server's open sockets back to 0, its
open files and the database's connections back to what they were before the
load (a few over for what a pool keeps), judged beside the memory.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

from bench import capacity  # noqa: E402
from bench.api import PG, PYTHON, _pg, cpu_seconds, free_port, stop_server, wait_ready  # noqa: E402
from bench.wire import Connection  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "soak.json"
GROWTH_GOAL = 1.10  # last quarter's median RSS over the first quarter's (after warm-up)


# ---- what the load did ----------------------------------------------------------

@dataclass
class Tally:
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    matches_finished: int = 0
    socket_messages: int = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def take_latencies(self) -> list[float]:
        got, self.latencies = self.latencies, []
        return got


class Pacer:
    """Hands out turns at `rate` a second in all, however many players ask."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self.next = time.monotonic()

    async def turn(self) -> None:
        now = time.monotonic()
        self.next = max(self.next + self.interval, now)
        await asyncio.sleep(self.next - now)


# ---- the players and the watchers ----------------------------------------------

async def watch(port: int, match_id: str, tally: Tally, stop: asyncio.Event) -> None:
    """One spectator socket until the match ends or `stop`; answers pings. A socket
    the server closes (it closes one that stopped answering pings: a stalled
    machine) is counted and opened again, with `?since=` as a client would."""
    version = None
    while not stop.is_set():
        since = f"?since={version}" if version is not None else ""
        try:
            async with connect(f"ws://127.0.0.1:{port}/api/v1/matches/{match_id}/ws{since}") as ws:
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:
                        continue
                    tally.socket_messages += 1
                    message = json.loads(text)
                    if message.get("type") == "ping":
                        await ws.send('{"type":"pong"}')
                        continue
                    version = message.get("version", message.get("match", {}).get("version", version))
                    if message.get("match", {}).get("status") == "finished":
                        return
        except Exception as exc:
            tally.error(f"socket: {type(exc).__name__}")
            await asyncio.sleep(0.5)


async def play(slot: int, ports: list[int], args: argparse.Namespace, pacer: Pacer, tally: Tally,
               deadline: float) -> None:
    """One match after another on one replica, watched from the other."""
    rng = random.Random(slot)
    port, watch_port = ports[slot % len(ports)], ports[(slot + 1) % len(ports)]
    bot = slot < args.bots
    async with Connection("127.0.0.1", port) as http:
        while time.monotonic() < deadline:
            body = {"options": {}, "seat": "white", "name": f"p{slot}"}
            if bot:
                body["opponent"] = "bot:random"
            made = await http.post("/api/v1/matches", body)
            if made.status_code != 201:
                tally.error(f"create {made.status_code}")
                await asyncio.sleep(1)
                continue
            match_id = made.json()["match"]["id"]
            tokens = {"white": made.json()["token"]}
            if not bot:
                joined = await http.post(f"/api/v1/matches/{match_id}/join", {"name": f"q{slot}"})
                tokens["black"] = joined.json()["token"]
            stop = asyncio.Event()
            watchers = [asyncio.create_task(watch(watch_port, match_id, tally, stop))
                        for _ in range(args.watchers)]
            try:
                await play_match(http, match_id, tokens, rng, pacer, tally, deadline)
            finally:
                stop.set()
                await asyncio.gather(*watchers, return_exceptions=True)


async def play_match(http: Connection, match_id: str, tokens: dict[str, str], rng: random.Random,
                     pacer: Pacer, tally: Tally, deadline: float) -> None:
    state = (await http.get(f"/api/v1/matches/{match_id}")).json()
    while time.monotonic() < deadline:
        if state["status"] == "finished":
            tally.matches_finished += 1
            return
        colour = state["to_move"]
        if colour not in tokens:  # the bot's turn: look again shortly
            await asyncio.sleep(0.05)
            state = (await http.get(f"/api/v1/matches/{match_id}")).json()
            continue
        auth = {"Authorization": f"Bearer {tokens[colour]}"}
        legal = (await http.get(f"/api/v1/matches/{match_id}/legal", auth)).json()
        if legal["setup"]:
            action = {"type": "setup", "backrow": rng.sample(legal["setup"], len(legal["setup"]))}
        elif legal["actions"]:
            action = rng.choice(legal["actions"])
        else:  # it moved on meanwhile (a bot, a flag)
            state = (await http.get(f"/api/v1/matches/{match_id}")).json()
            continue
        await pacer.turn()
        started = time.perf_counter()
        answer = await http.post(f"/api/v1/matches/{match_id}/actions",
                                 {"action": action, "version": legal["version"]}, auth)
        tally.latencies.append(time.perf_counter() - started)
        if answer.status_code == 200:
            tally.actions += 1
            state = answer.json()["match"]
        else:
            tally.error(f"action {answer.status_code}")
            state = (await http.get(f"/api/v1/matches/{match_id}")).json()


# ---- sampling ---------------------------------------------------------------------

def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def open_sockets(port: int) -> int | None:
    try:
        async with Connection("127.0.0.1", port) as http:
            text = (await http.get("/metrics")).text
    except Exception:
        return None
    return sum(int(float(line.split()[-1])) for line in text.splitlines()
               if line.startswith("magery_open_sockets{"))


async def sampler(servers: list[Any], ports: list[int], tally: Tally, args: argparse.Namespace,
                  started: float, deadline: float, samples: list[dict[str, Any]]) -> None:
    last_actions = 0
    while True:
        await asyncio.sleep(min(args.sample, max(0.0, deadline - time.monotonic())))
        latencies = sorted(tally.take_latencies())
        sample: dict[str, Any] = {
            "t": round(time.monotonic() - started, 1),
            "actions": tally.actions, "actions_in_period": tally.actions - last_actions,
            "errors": dict(tally.errors), "matches_finished": tally.matches_finished,
            "socket_messages": tally.socket_messages,
            "p50_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
            "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2) if latencies else None,
            "servers": [],
        }
        last_actions = tally.actions
        for proc, port in zip(servers, ports, strict=True):
            sample["servers"].append({
                "pid": proc.pid, "rss_mib": round(rss_mib(proc.pid), 1),
                "fds": len(os.listdir(f"/proc/{proc.pid}/fd")),
                "cpu_s": round(cpu_seconds(proc.pid), 2), "open_sockets": await open_sockets(port)})
        samples.append(sample)
        mem = ", ".join(f"{s['rss_mib']:.0f} MiB" for s in sample["servers"])
        print(f"  t={sample['t']:7.0f}s  actions {sample['actions']:7d} (+{sample['actions_in_period']})  "
              f"p99 {sample['p99_ms']} ms  rss {mem}  errors {sum(tally.errors.values())}", flush=True)
        write(args, samples, None)
        if time.monotonic() >= deadline:
            return


# ---- the verdict ------------------------------------------------------------------

def verdict(samples: list[dict[str, Any]], warmup: float) -> dict[str, Any]:
    steady = [s for s in samples if s["t"] >= warmup]
    if len(steady) < 4:
        return {"judged": False, "why": "fewer than 4 samples after the warm-up: run longer"}
    quarter = max(1, len(steady) // 4)
    per_server = []
    for i in range(len(steady[0]["servers"])):
        t = [s["t"] / 3600 for s in steady]
        rss = [s["servers"][i]["rss_mib"] for s in steady]
        first, last = statistics.median(rss[:quarter]), statistics.median(rss[-quarter:])
        slope = statistics.linear_regression(t, rss).slope if len(set(t)) > 1 else 0.0
        per_server.append({"first_quarter_mib": first, "last_quarter_mib": last,
                           "growth": last / first, "slope_mib_per_hour": round(slope, 1),
                           "fds_first": steady[0]["servers"][i]["fds"], "fds_last": steady[-1]["servers"][i]["fds"]})
    return {"judged": True, "servers": per_server, "goal_growth": GROWTH_GOAL,
            "pass": all(s["growth"] <= GROWTH_GOAL for s in per_server)}


def write(args: argparse.Namespace, samples: list[dict[str, Any]], summary: dict[str, Any] | None) -> None:
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    settings = {k: v for k, v in vars(args).items() if k != "output"}
    out.write_text(json.dumps({"settings": settings, "summary": summary, "samples": samples}, indent=1))


# ---- the run ------------------------------------------------------------------------

def start_server(port: int, env: dict[str, str], log: Path, append: bool = False) -> subprocess.Popen[bytes]:
    """A server whose log goes to a file: an hour of it would fill a pipe nobody reads
    (`append`: a restarted server adds to its predecessor's log)."""
    with log.open("ab" if append else "wb") as out:
        return subprocess.Popen(
            [PYTHON, "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1", "--port", str(port),
             "--log-level", "warning", "--no-access-log", "--ws-per-message-deflate", "false"],
            cwd=ROOT, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


async def drive(args: argparse.Namespace, servers: list[Any], ports: list[int]) -> list[dict[str, Any]]:
    tally, pacer = Tally(), Pacer(args.rate)
    started = time.monotonic()
    deadline = started + args.duration
    samples: list[dict[str, Any]] = []
    players = [asyncio.create_task(play(slot, ports, args, pacer, tally, deadline))
               for slot in range(args.matches)]
    await sampler(servers, ports, tally, args, started, deadline, samples)
    for task in players:
        task.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*players, return_exceptions=True), 10)
    return samples


# ---- capacity's people on one process ------------------------------------------------

LEAK_SLACK = 4  # open files or connections over the pre-load figure that a pool may keep


def _files_back(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """The server's open files back to the pre-load figure, but for one per database
    connection its pool took on and keeps (each is a socket; the connections have
    their own check): an hour's soak ended with 23 -> 32 files and 9 -> 19
    connections, the pool filled, nothing leaked."""
    kept = max(0, after["db_connections"] - before["db_connections"])
    return after["fds"] <= before["fds"] + kept + LEAK_SLACK


def server_figures(proc: Any, port: int, db: str) -> dict[str, Any]:
    return {"pid": proc.pid, "rss_mib": round(rss_mib(proc.pid), 1), "fds": len(os.listdir(f"/proc/{proc.pid}/fd")),
            "cpu_s": round(cpu_seconds(proc.pid), 2), "open_sockets": capacity.metric_sockets(port),
            "db_connections": int(asyncio.run(capacity.database_figures(f"{PG}/{db}", db))["connections"])}


def drive_people(args: argparse.Namespace, server: Any, port: int, db: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """`--people` matches held for `--duration`, sampled every `--sample` seconds;
    then the load stops and what the server still holds is compared with before."""
    before = server_figures(server, port, db)
    samples: list[dict[str, Any]] = []
    load = capacity.LoadGenerator(port, args.procs, args.interval)
    try:
        started = time.time()
        deadline = started + args.duration
        more, over = args.people, max(1.0, args.people / 50)
        actions = 0
        while time.time() < deadline:
            _, end = load.order(more, over, 0.0, max(1.0, min(args.sample, deadline - time.time())))
            more = 0
            time.sleep(max(0.0, end - time.time()))
            got = load.results()
            actions += got["actions"]
            sample = {"t": round(time.time() - started, 1), "actions": actions,
                      "actions_in_period": got["actions"], "errors": got["errors"],
                      "p50_ms": round(1000 * statistics.median(got["latencies"]), 2) if got["latencies"] else None,
                      "p99_ms": capacity.percentile(got["latencies"], 0.99), "sockets_held": got["sockets"],
                      "load_average": round(os.getloadavg()[0], 2),
                      "servers": [server_figures(server, port, db)]}
            samples.append(sample)
            s0 = sample["servers"][0]
            print(f"  t={sample['t']:7.0f}s  actions {actions:7d} (+{got['actions']})  p99 {sample['p99_ms']} ms  "
                  f"rss {s0['rss_mib']:.0f} MiB  fds {s0['fds']}  sockets {s0['open_sockets']}  "
                  f"db connections {s0['db_connections']}  load {sample['load_average']}  errors {got['errors'] or 0}",
                  flush=True)
            write(args, samples, None)
    finally:
        load.close()
    # The people are gone: what the server holds now should be what it held before them.
    after = server_figures(server, port, db)
    for _ in range(30):
        if after["open_sockets"] == 0 and _files_back(before, after):
            break
        time.sleep(1.0)
        after = server_figures(server, port, db)
    leaks = {"before": before, "after": after,
             "sockets_pass": after["open_sockets"] == 0,
             "fds_pass": _files_back(before, after),
             "connections_pass": after["db_connections"] <= max(before["db_connections"], 16 + 4) + LEAK_SLACK}
    return samples, leaks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=float, default=3600.0, help="seconds of load (default 3600)")
    ap.add_argument("--rate", type=float, default=40.0, help="actions per second in all")
    ap.add_argument("--matches", type=int, default=16, help="matches going at once")
    ap.add_argument("--watchers", type=int, default=2, help="spectator sockets per match")
    ap.add_argument("--bots", type=int, default=2, help="how many of the matches are against a bot")
    ap.add_argument("--replicas", type=int, default=1, choices=(1, 2))
    ap.add_argument("--sample", type=float, default=10.0, help="seconds between samples")
    ap.add_argument("--warmup", type=float, default=None,
                    help="seconds left out of the verdict (default: a tenth of the run, at least 30)")
    ap.add_argument("--state-cache", type=int, default=64, help="STATE_CACHE_SIZE of the servers")
    ap.add_argument("--people", type=int, help="bench/capacity.py's people on one process: this many live matches")
    ap.add_argument("--interval", type=float, default=10.0, help="with --people: seconds between one player's actions")
    ap.add_argument("--procs", type=int, default=3, help="with --people: load-generator processes")
    ap.add_argument("--output", default=str(RESULTS))
    args = ap.parse_args()
    if args.people:
        args.replicas = 1
    if args.warmup is None:
        args.warmup = max(30.0, args.duration / 10)
    db = f"magery_soak_{os.getpid()}"
    url = f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}"
    env = {"DATABASE_URL": url, "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000", "WS_SOCKETS_PER_ADDRESS": "0",
           "PYTHONPATH": str(ROOT),
           "STATE_CACHE_SIZE": str(args.state_cache), "BOT_DELAY_SECONDS": "0.05",
           "DB_POOL_SIZE": "16", "DB_MAX_OVERFLOW": "4", "LOG_LEVEL": "WARNING"}
    asyncio.run(_pg(f'CREATE DATABASE "{db}"'))
    servers: list[Any] = []
    leaks: dict[str, Any] | None = None
    try:
        ports = [free_port() for _ in range(args.replicas)]
        logs = [Path(args.output).with_name(f"{Path(args.output).stem}-server{i}.log") for i in range(len(ports))]
        logs[0].parent.mkdir(parents=True, exist_ok=True)
        servers = [start_server(port, env, log) for port, log in zip(ports, logs, strict=True)]
        for proc, port in zip(servers, ports, strict=True):
            wait_ready(f"http://127.0.0.1:{port}/readyz", proc, timeout=180)  # a loaded machine starts slowly
        if args.people:
            print(f"soak: {args.duration:g} s of {args.people} live matches (2 players + 2 watchers, an action every "
                  f"{args.interval:g} s each) on one process; samples every {args.sample:g} s to {args.output}",
                  flush=True)
            signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("soak over budget")))
            signal.alarm(int(args.duration + 600))
            samples, leaks = drive_people(args, servers[0], ports[0], db)
            signal.alarm(0)
        else:
            print(f"soak: {args.duration:g} s at {args.rate:g} actions/s, {args.matches} matches "
                  f"({args.bots} against a bot), {args.watchers} watchers each, {args.replicas} replica(s); "
                  f"samples every {args.sample:g} s to {args.output}", flush=True)
            signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("soak over budget")))
            signal.alarm(int(args.duration + 120))
            samples = asyncio.run(drive(args, servers, ports))
        signal.alarm(0)
    finally:
        for proc in servers:
            stop_server(proc)
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    summary = verdict(samples, args.warmup)
    if leaks is not None:
        summary["leaks"] = leaks
    last = samples[-1] if samples else {}
    summary.update({"actions": last.get("actions"), "errors": last.get("errors"),
                    "matches_finished": last.get("matches_finished"),
                    "actions_per_second": (last.get("actions") or 0) / args.duration})
    write(args, samples, summary)
    print(f"\nactions {summary['actions']} ({summary['actions_per_second']:.1f}/s), matches finished "
          f"{summary['matches_finished']}, errors {summary['errors']}")
    if summary["judged"]:
        for i, s in enumerate(summary["servers"]):
            print(f"server {i}: rss {s['first_quarter_mib']:.1f} -> {s['last_quarter_mib']:.1f} MiB "
                  f"(x{s['growth']:.3f}, goal <= x{GROWTH_GOAL}), slope {s['slope_mib_per_hour']} MiB/h (fitted over the run), "
                  f"fds {s['fds_first']} -> {s['fds_last']}")
        print("memory: " + ("PASS" if summary["pass"] else "MISS"))
    else:
        print(f"memory: not judged ({summary['why']})")
    if leaks is not None:
        b, a = leaks["before"], leaks["after"]
        print(f"after the load: open sockets {a['open_sockets']} ({'PASS' if leaks['sockets_pass'] else 'MISS'}), "
              f"open files {b['fds']} -> {a['fds']} ({'PASS' if leaks['fds_pass'] else 'MISS'}), "
              f"database connections {b['db_connections']} -> {a['db_connections']} "
              f"({'PASS' if leaks['connections_pass'] else 'MISS'})")
    print(f"written {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
