"""The standing promises of docs/reliability.md, proved against real server processes.

    .venv/bin/python bench/proofs.py                    # every scenario (~8 minutes)
    .venv/bin/python bench/proofs.py --quick            # a smoke run (~2 minutes)
    .venv/bin/python bench/proofs.py storm flood        # some of them
    .venv/bin/python bench/proofs.py --only chaos       # the same, as an option

Loopback only, bounded, self-stopping. Each scenario makes a fresh PostgreSQL
database, starts two uvicorn processes on it (`app.main:create_app`, as scripts/serve
does, small pools: DB_POOL_SIZE=8, DB_MAX_OVERFLOW=2), drives them with the
minimal client of bench/wire.py and websockets, checks what the database holds,
and drops the database in any case. The figures of every scenario go to
`--output` (default bench/results/proofs.json), with the load average; each
server's log beside it (proofs-<scenario>-server<i>.log). Every scenario prints
PASS or MISS per promise:

storm       500 requests at once, half to each process, on one match: the same
            action with one id (200 of them), the same action without an id
            (200), competing actions (40), joins (30) and draw offers (30).
            PASS: exactly one of the competing actions is in the log, once; the
            version moved by that entry (plus automatic passes and at most one
            draw offer) and nothing else; every answer to the applied action is
            200 with one and the same version, every other answer a 409 or 403,
            never a 5xx. `--storms` of them, at different stages of a match.
contention  `--matches` matches (30) with four clients each, a seat's two clients
            on different processes racing with random legal actions (ids on all,
            a new choice after 409 stale_version), and a websocket watcher per
            match on the process that did not create it. PASS: every match's
            log replays (app.matches.store.replay_match) to its stored state;
            every acknowledged id is in the log once; every watcher ends at the
            server's version having seen each version once, in order; no 5xx.
chaos       steady load (`--rate`, 30 actions/s over 10 matches, both processes,
            a client failing over to the other process when its own is gone and
            resending the same id and version after a 503 or a lost answer),
            watchers on both processes; PostgreSQL is stopped and started (a
            throwaway cluster of this run, never the shared one), later one
            process is SIGKILLed and started again. PASS: every acknowledged
            action is in the log once and no log has a gap or an id twice;
            after each event every client's first success within 10 s; the
            sockets of the surviving process end at the server's version with
            each version once, in order; each log replays to its state.
flood       the p99 of another match's requests (GET the match, GET /legal,
            POST an action, 4 rounds a second from its own address) in quiet
            windows and flood windows, in turns. The flood: clients spamming
            writes (429 with Retry-After expected), sockets spamming messages
            (closed 1008), sockets sending a 20 KiB frame (1009), 100 KiB bodies
            (413). PASS: p99 in the flood at most 2x the quiet one; every flood
            answer one of the expected codes. (The p99 ratio judged is the median,
            over the flood windows, of each one's p99 over the quiet window's
            before it.) Each client of the flood comes
            from its own loopback address (127.0.0.x), as distinct clients do.
signin      the other match's p99 (as in flood) in quiet windows and sign-in
            burst windows: each second, 30 admin sign-ins at once from one new
            address, the first burst for the real admin with the right
            password 15th (bench/signin_burst.py). PASS: at most
            ACCOUNT_LOCK_AFTER passwords checked per burst; the right password,
            once locked, refused; only 303/401/429/503, nothing logged at
            ERROR; the p99 in the bursts at most 2x the quiet one before.
signin-players  the same against the players' sign-in form (POST /login;
            an account signed up first, its later bursts for names nobody
            has). PASS as signin, with ACCOUNT_LOCK_AFTER.
junk        one client's floods (issue 17, docs/reliability.md "What one client
sockets     can take"), each against the same probe of another match, in quiet
reads       and flood windows in turns, PASS at a p99 ratio of at most 2x as
            above. junk: 16 connections of one address without a token sending
            60 KB JSON lists to POST /matches and /actions (400, then 429 with
            Retry-After once the write budget is spent). sockets: one address
            opening spectator sockets as fast as they come and holding them (at
            most 64 held per process; the rest closed 1008 too_many_sockets).
            reads: 8 readers of one address asking /states for 100 states of a
            running match as fast as answers come (200, then 429 with
            Retry-After once the read budget is spent).
bots        a strong-bot storm (bench/proof_bots.py): attackers from several
            addresses make as many bot:strong matches as each may (asking 10 s
            of thought) and keep them all busy, while a bystander plays a
            bot:greedy match and a probe plays a match between people. PASS:
            every greedy answer within 2 s; the probe's p99 in the storm at
            most 2x its quiet p99; creations past each address's cap refused 429.

Everything here is a figure, not a test: tests/ never imports it (bench/README.md).
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
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from app.db import make_engine  # noqa: E402
from app.db.models import actions as actions_table  # noqa: E402
from app.db.models import matches as matches_table  # noqa: E402
from app.matches.store import replay_match  # noqa: E402
from bench.api import PG, _pg, free_port, stop_server, wait_ready  # noqa: E402
from bench.proof_bots import run_bot_storm  # noqa: E402
from bench.soak import start_server  # noqa: E402
from bench.wire import Answer, Connection  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "proofs.json"
SCENARIOS = ("storm", "contention", "chaos", "flood", "signin", "signin-players", "junk", "sockets", "reads", "bots")
SERVER_ENV = {"DB_POOL_SIZE": "8", "DB_MAX_OVERFLOW": "2", "LOG_LEVEL": "WARNING",
              "BOT_DELAY_SECONDS": "0", "PYTHONPATH": str(ROOT)}
NO_LIMITS = {"RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000"}
RECOVERY_GOAL = 10.0  # seconds
FLOOD_GOAL = 2.0  # the other match's p99 in the flood over its quiet p99
BOT_CAP = 5  # bots: running bot matches per address (the default BOT_MATCHES_PER_ADDRESS)
API = "/api/v1/matches"
OTHER = {"white": "black", "black": "white"}


def now() -> float:
    return time.monotonic()


def p99(values: list[float]) -> float | None:
    if not values:
        return None
    got = sorted(values)
    return got[int(0.99 * (len(got) - 1))]


def ms(x: float | None) -> float | None:
    return None if x is None else round(1000 * x, 2)


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# ---- two server processes on one fresh database -----------------------------------

class Pair:
    """Two uvicorn processes of the app on a database made for them and dropped after."""

    def __init__(self, name: str, server: str, env: dict[str, str], output: Path) -> None:
        self.name, self.server = name, server
        self.db = f"magery_proofs_{name}_{os.getpid()}"
        self.url = f"{server.replace('postgresql://', 'postgresql+asyncpg://')}/{self.db}"
        self.env = {**SERVER_ENV, **env, "DATABASE_URL": self.url}
        self.ports = [free_port(), free_port()]
        self.logs = [output.with_name(f"{output.stem}-{name}-server{i}.log") for i in range(2)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None, None]

    def __enter__(self) -> Pair:
        asyncio.run(_pg(f'CREATE DATABASE "{self.db}"', self.server))
        try:
            # The first migrates the new database; the second starts once it has.
            for i in range(2):
                self.start(i)
                self.wait(i)
        except BaseException:
            self.__exit__()
            raise
        return self

    def start(self, i: int, append: bool = False) -> None:
        self.logs[i].parent.mkdir(parents=True, exist_ok=True)
        self.procs[i] = start_server(self.ports[i], self.env, self.logs[i], append)

    def wait(self, i: int) -> None:
        proc = self.procs[i]
        assert proc is not None
        wait_ready(f"http://127.0.0.1:{self.ports[i]}/readyz", proc)

    def kill(self, i: int) -> None:
        proc = self.procs[i]
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(5)

    def __exit__(self, *_: Any) -> None:
        for proc in self.procs:
            stop_server(proc)
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)', self.server))

    def log_trouble(self) -> dict[str, int]:
        """Lines of the servers' logs that speak of errors (500s are logged at ERROR)."""
        counts: Counter[str] = Counter()
        for log in self.logs:
            if not log.exists():
                continue
            for line in log.read_text(errors="replace").splitlines():
                if '"level": "ERROR"' in line or '"level":"ERROR"' in line:
                    counts["error_lines"] += 1
                if "Traceback" in line:
                    counts["tracebacks"] += 1
                if "internal_error" in line:
                    counts["internal_error"] += 1
        return dict(counts)


class Cluster:
    """A throwaway PostgreSQL cluster of this run (pg_createcluster), trust on loopback,
    which may be restarted without troubling anyone else's tests."""

    def __init__(self, port: int, name: str = "proofs") -> None:
        self.port, self.name = port, name
        self.version = max((d for d in os.listdir("/etc/postgresql") if d.isdigit()), key=int)
        self.url = f"postgresql://postgres@127.0.0.1:{port}"

    def _run(self, *cmd: str) -> None:
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def __enter__(self) -> Cluster:
        if os.path.isdir(f"/etc/postgresql/{self.version}/{self.name}"):
            self.drop()  # a run cut short left it behind
        self._run("pg_createcluster", self.version, self.name, "-p", str(self.port), "--",
                  "--auth=trust")
        self._run("pg_ctlcluster", self.version, self.name, "start")
        return self

    def stop(self) -> None:
        self._run("pg_ctlcluster", self.version, self.name, "stop", "-m", "fast")

    def start(self) -> None:
        self._run("pg_ctlcluster", self.version, self.name, "start")

    def drop(self) -> None:
        subprocess.run(["pg_dropcluster", "--stop", self.version, self.name], capture_output=True, timeout=120)

    def __exit__(self, *_: Any) -> None:
        self.drop()


# ---- matches through REST ----------------------------------------------------------

@dataclass
class Match:
    id: str
    tokens: dict[str, str]
    state: dict[str, Any]

    def auth(self, colour: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[colour]}"}


async def new_match(create: Connection, join: Connection) -> Match:
    made = await create.post(API, {"options": {}, "seat": "white", "name": "w"})
    if made.status != 201:
        raise RuntimeError(f"create: {made.status} {made.text[:200]}")
    match_id = made.json()["match"]["id"]
    joined = await join.post(f"{API}/{match_id}/join", {"name": "b"})
    if joined.status != 200:
        raise RuntimeError(f"join: {joined.status} {joined.text[:200]}")
    return Match(match_id, {"white": made.json()["token"], "black": joined.json()["token"]},
                 joined.json()["match"])


def choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    if legal.get("setup"):
        return {"type": "setup", "backrow": rng.sample(legal["setup"], len(legal["setup"]))}
    if legal.get("actions"):
        return dict(rng.choice(legal["actions"]))
    return None


async def step(http: Connection, match: Match, rng: random.Random) -> None:
    """One random legal action of whoever is to move."""
    colour = match.state["to_move"]
    legal = (await http.get(f"{API}/{match.id}/legal", match.auth(colour))).json()
    action = choose(legal, rng)
    if action is None:
        match.state = (await http.get(f"{API}/{match.id}")).json()
        return
    got = await http.post(f"{API}/{match.id}/actions", {"action": action, "version": legal["version"]},
                          match.auth(colour))
    if got.status != 200:
        raise RuntimeError(f"step: {got.status} {got.text[:200]}")
    match.state = got.json()["match"]


# ---- a websocket watcher that keeps every version it hears -------------------------

class Watcher:
    """Watches one match, on `ports[0]` (and the others in turn when it is gone),
    coming back with ?since= after a drop. Keeps the versions of every update in
    the order they came, and of every snapshot."""

    def __init__(self, ports: list[int], match_id: str) -> None:
        self.ports, self.match_id = ports, match_id
        self.first: int | None = None  # the first snapshot's version
        self.updates: list[int] = []
        self.resnapshots: list[int] = []  # snapshots after the first (a fresh start)
        self.last: int | None = None
        self.drops: list[str] = []
        self.target: int | None = None
        self.done = asyncio.Event()

    async def run(self, give_up: asyncio.Event) -> None:
        attempt = 0
        while not give_up.is_set() and not self.done.is_set():
            port = self.ports[attempt % len(self.ports)]
            attempt += 1
            since = f"?since={self.last}" if self.last is not None else ""
            try:
                async with connect(f"ws://127.0.0.1:{port}{API}/{self.match_id}/ws{since}",
                                   open_timeout=5) as ws:
                    attempt -= 1  # this process answers: stay on it
                    while not give_up.is_set():
                        if self.target is not None and self.last is not None and self.last >= self.target:
                            self.done.set()
                            return
                        try:
                            text = await asyncio.wait_for(ws.recv(), 0.5)
                        except TimeoutError:
                            continue
                        message = json.loads(text)
                        kind = message.get("type")
                        if kind == "ping":
                            await ws.send('{"type":"pong"}')
                        elif kind == "snapshot":
                            version = message["match"]["version"]
                            if self.first is None:
                                self.first = version
                            else:
                                self.resnapshots.append(version)
                            self.last = version
                        elif kind == "update":
                            self.updates.append(message["version"])
                            self.last = message["version"]
            except (ConnectionClosed, OSError, TimeoutError) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                self.drops.append(f"{type(exc).__name__}{'' if code is None else f' {code}'}")
                await asyncio.sleep(0.3 + 0.4 * random.random())

    def verdict(self, server_version: int) -> dict[str, Any]:
        """Each version after the first snapshot exactly once, in order, up to the server's."""
        ok = (self.first is not None and not self.resnapshots
              and self.updates == list(range(self.first + 1, server_version + 1)))
        dups = len(self.updates) - len(set(self.updates))
        gaps = sum(1 for a, b in zip(self.updates, self.updates[1:], strict=False) if b != a + 1)
        return {"ok": ok, "first": self.first, "last": self.last, "server": server_version,
                "updates": len(self.updates), "duplicates": dups, "out_of_step": gaps,
                "resnapshots": self.resnapshots, "drops": len(self.drops)}


async def settle(watchers: list[Watcher], versions: dict[str, int], timeout: float) -> None:
    """Give every watcher the server's version as its target; wait until all reach it."""
    for w in watchers:
        w.target = versions[w.match_id]
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await asyncio.gather(*(w.done.wait() for w in watchers))


async def saves_together(ports: list[int]) -> dict[str, float]:
    """What /metrics says of the saves written together in one transaction, summed
    over the processes (a restarted process counts from its restart)."""
    found: dict[str, float] = {"magery_save_batches_total": 0.0, "magery_saves_batched_total": 0.0}
    for port in ports:
        async with Connection("127.0.0.1", port) as http:
            for line in (await http.get("/metrics")).text.splitlines():
                name, _, value = line.partition(" ")
                if name in found:
                    found[name] += float(value)
    return found


async def server_versions(port: int, ids: list[str]) -> dict[str, int]:
    async with Connection("127.0.0.1", port) as http:
        return {i: (await http.get(f"{API}/{i}")).json()["version"] for i in ids}


# ---- what the database holds ---------------------------------------------------------

@dataclass(frozen=True)
class Ack:
    """An action answered 200: where, on which version it was sent, what the answer said."""

    match: str
    sent: int
    answered: int
    colour: str
    action: dict[str, Any]


async def check_logs(url: str, acks: dict[str, Ack] | None = None,
                     only: list[str] | None = None) -> dict[str, Any]:
    """Every match (or `only` these): its log has versions 1..version with no gap, no
    client id twice, and replays to the stored state; every acknowledged id is in
    its match's log, after the version it was sent on and at or below the version
    answered. An id that is not there may have been answered as a resend of the
    very same action on the same version by the same seat under another id (the
    server's rule: docs/api.md, "Versions and safe resends"): it counts as merged
    when such an entry is there, as lost when none is."""
    engine = make_engine(url, 2, 0)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(select(matches_table.c.id, matches_table.c.version))).all()
            logs: dict[str, list[tuple[int, str | None]]] = {}
            entries: dict[tuple[str, int], tuple[str | None, Any, bool]] = {}
            for match_id, version, client_id, player, action, automatic in (await conn.execute(
                    select(actions_table.c.match_id, actions_table.c.version, actions_table.c.client_id,
                           actions_table.c.player, actions_table.c.action, actions_table.c.automatic)
                    .order_by(actions_table.c.match_id, actions_table.c.version))).all():
                logs.setdefault(match_id, []).append((version, client_id))
                entries[(match_id, version)] = (player, action, automatic)
        wanted = set(only) if only is not None else None
        gaps, twice, replay_bad, checked = [], [], [], 0
        where: dict[str, tuple[str, int]] = {}
        for match_id, version in rows:
            log = logs.get(match_id, [])
            for v, cid in log:
                if cid is not None:
                    if cid in where:
                        twice.append(cid)
                    where[cid] = (match_id, v)
            if [v for v, _ in log] != list(range(1, version + 1)):
                gaps.append(match_id)
            if wanted is not None and match_id not in wanted:
                continue
            checked += 1
            got = await replay_match(engine, match_id)
            if got is None or got[0].to_json() != got[1].to_json():
                replay_bad.append(match_id)
        lost: list[str] = []
        misplaced: list[str] = []
        merged: list[str] = []
        for cid, ack in (acks or {}).items():
            found = where.get(cid)
            if found is None:
                same = [v for v in range(ack.sent + 1, ack.answered + 1)
                        if entries.get((ack.match, v)) == (ack.colour, ack.action, False)]
                (merged if same else lost).append(cid)
            elif found[0] != ack.match or not ack.sent < found[1] <= ack.answered:
                misplaced.append(cid)
        return {"matches": len(rows), "replayed": checked, "replay_mismatches": replay_bad,
                "version_gaps": gaps, "ids_twice": twice, "acknowledged": len(acks or {}),
                "acknowledged_lost": lost, "acknowledged_misplaced": misplaced,
                "acknowledged_as_an_identical_submission": len(merged),
                "ok": not (gaps or twice or replay_bad or lost or misplaced)}
    finally:
        await engine.dispose()


# ---- 1. storm -----------------------------------------------------------------------

async def one_storm(ports: list[int], http: Connection, match: Match, n: int, rng: random.Random,
                    url: str) -> dict[str, Any]:
    v0, mover = match.state["version"], match.state["to_move"]
    legal = (await http.get(f"{API}/{match.id}/legal", match.auth(mover))).json()
    if legal["setup"]:
        options = [{"type": "setup", "backrow": rng.sample(legal["setup"], 8)} for _ in range(5)]
    else:
        options = [dict(a) for a in rng.sample(legal["actions"], min(5, len(legal["actions"])))]
    stormed, rivals = options[0], options[1:]
    sid = f"storm{n}-{uuid.uuid4().hex[:12]}"
    path = f"{API}/{match.id}"
    plan: list[tuple[str, str, Any, dict[str, str], str | None]] = []  # kind, path, body, headers, action key
    key = json.dumps(stormed, sort_keys=True)
    for _ in range(200):
        plan.append(("same_id", f"{path}/actions", {"action": stormed, "version": v0, "id": sid},
                     match.auth(mover), key))
    for _ in range(200):
        plan.append(("same_no_id", f"{path}/actions", {"action": stormed, "version": v0},
                     match.auth(mover), key))
    for i in range(40):
        rival = rivals[i % len(rivals)] if rivals else stormed
        body: dict[str, Any] = {"action": rival, "version": v0}
        if i % 2:
            body["id"] = f"{sid}-rival{i}"
        plan.append(("rival", f"{path}/actions", body, match.auth(mover), json.dumps(rival, sort_keys=True)))
    for _ in range(30):
        plan.append(("join", f"{path}/join", {"name": "late"}, {}, None))
    for _ in range(30):
        plan.append(("draw_offer", f"{path}/draw", {"offer": True}, match.auth(mover), None))
    rng.shuffle(plan)
    conns = [Connection("127.0.0.1", ports[i % 2]) for i in range(len(plan))]
    for i in range(0, len(conns), 50):
        await asyncio.gather(*(c._connect() for c in conns[i:i + 50]))
    go = asyncio.Event()

    async def fire(conn: Connection, item: tuple[str, str, Any, dict[str, str], str | None]) -> tuple[str, int, Any]:
        await go.wait()
        try:
            got = await conn.post(item[1], item[2], item[3])
            body = got.json() if got.body.startswith(b"{") else got.text
            return item[0], got.status, body
        except Exception as exc:  # a connection lost is a finding too
            return item[0], -1, repr(exc)
        finally:
            await conn.close()

    tasks = [asyncio.create_task(fire(c, item)) for c, item in zip(conns, plan, strict=True)]
    await asyncio.sleep(0.2)
    started = now()
    go.set()
    answers = await asyncio.gather(*tasks)
    took = now() - started
    log = (await http.get(f"{path}/actions?since={v0}")).json()
    final = (await http.get(path)).json()
    match.state = final
    codes: dict[str, Counter[int]] = {}
    for kind, status, _ in answers:
        codes.setdefault(kind, Counter())[status] += 1
    played = [e for e in log if e["player"] == mover and not e["automatic"]
              and not str(e["action"]["type"]).startswith("draw_")]
    offers = [e for e in log if e["action"]["type"] == "draw_offer"]
    others = [e for e in log if e not in played and e not in offers and not e["automatic"]]
    applied = json.dumps(played[0]["action"], sort_keys=True) if len(played) == 1 else None
    # The answers that are the applied action's: all 200, one version; the rest refused.
    versions_of_applied: set[int] = set()
    wrong: list[str] = []
    for (kind, status, body), item in zip(answers, plan, strict=True):
        if status >= 500 or status < 0:
            wrong.append(f"{kind} {status}")
        elif kind in ("same_id", "same_no_id", "rival"):
            if item[4] == applied and status == 200:
                versions_of_applied.add(body["match"]["version"])
            elif status == 200:
                wrong.append(f"{kind} 200 for an action not applied")
            elif status not in (409, 403):
                wrong.append(f"{kind} {status}")
        elif status not in (200, 409, 403):
            wrong.append(f"{kind} {status}")
    ids = await storm_ids(url, match.id, sid)
    entries = [e["version"] for e in log]
    ok = (len(played) == 1 and len(offers) <= 1 and not others and not wrong
          and entries == list(range(v0 + 1, final["version"] + 1))
          and len(versions_of_applied) == 1 and ids["stormed_id_rows"] <= 1)
    return {"match": match.id, "version_before": v0, "version_after": final["version"],
            "phase": final["phase"], "requests": len(plan), "seconds": round(took, 3),
            "answers": {k: dict(sorted(v.items())) for k, v in codes.items()},
            "applied_entries": len(played), "applied_was": "the stormed action" if applied == key else "a rival",
            "draw_offers_logged": len(offers), "other_entries": len(others),
            "automatic_entries": sum(1 for e in log if e["automatic"]),
            "versions_answered_for_applied": sorted(versions_of_applied), "wrong_answers": wrong[:20],
            **ids, "pass": ok}


async def storm_ids(url: str, match_id: str, sid: str) -> dict[str, int]:
    engine = make_engine(url, 1, 0)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(select(actions_table.c.client_id).where(
                actions_table.c.match_id == match_id))).scalars().all()
    finally:
        await engine.dispose()
    return {"stormed_id_rows": sum(1 for r in rows if r == sid),
            "rival_id_rows": sum(1 for r in rows if r and r.startswith(f"{sid}-rival"))}


async def run_storm(pair: Pair, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    storms = []
    a, b = pair.ports
    async with Connection("127.0.0.1", a) as http, Connection("127.0.0.1", b) as other:
        for n in range(args.storms):
            match = await new_match(http, other)
            for _ in range(rng.randrange(0, 4) + 9 * n):  # later storms later in a match
                await step(http, match, rng)
                if match.state["status"] == "finished":
                    break
            if match.state["status"] == "finished":
                continue
            got = await one_storm(pair.ports, http, match, n, rng, pair.url)
            storms.append(got)
            print(f"  storm {n}: v{got['version_before']} -> v{got['version_after']} in {got['seconds']} s; "
                  f"answers {got['answers']}; applied {got['applied_entries']} ({got['applied_was']}); "
                  f"{'PASS' if got['pass'] else 'MISS'}", flush=True)
    trouble = pair.log_trouble()
    passed = bool(storms) and all(s["pass"] for s in storms) and not trouble.get("error_lines")
    return {"storms": storms, "server_log": trouble,
            "verdicts": {"exactly one applied, every answer 200 (one version) or 409/403, no 5xx": passed}}


# ---- 2. contention ------------------------------------------------------------------

@dataclass
class Tally:
    acks: dict[str, Ack] = field(default_factory=dict)
    codes: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)


async def racer(port: int, match: Match, colour: str, rng: random.Random, tally: Tally, deadline: float) -> None:
    """A seat's client: asks /legal, sends a random action with a new id, again and
    again; a 503 or a lost answer is resent as it was."""
    path = f"{API}/{match.id}"
    async with Connection("127.0.0.1", port) as http:
        while now() < deadline:
            legal_answer = await http.get(f"{path}/legal", match.auth(colour))
            if legal_answer.status != 200:
                tally.codes[f"legal {legal_answer.status}"] += 1
                if legal_answer.status == 409:
                    return
                await asyncio.sleep(0.05)
                continue
            legal = legal_answer.json()
            action = choose(legal, rng)
            if action is None:
                state = (await http.get(path)).json()
                if state["status"] == "finished":
                    return
                await asyncio.sleep(rng.uniform(0.002, 0.02))
                continue
            body = {"action": action, "version": legal["version"], "id": uuid.uuid4().hex}
            while True:
                started = now()
                got = await http.post(f"{path}/actions", body, match.auth(colour))
                tally.latencies.append(now() - started)
                tally.codes[str(got.status) + ("" if got.status == 200 else " " + got.json().get("error", ""))] += 1
                if got.status == 200:
                    tally.acks[body["id"]] = Ack(match.id, body["version"], got.json()["match"]["version"],
                                                 colour, action)
                if got.status != 503:
                    break
                await asyncio.sleep(0.2)
            if got.status == 409 and got.json().get("error") == "match_over":
                return


async def run_contention(pair: Pair, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    a, b = pair.ports
    matches: list[Match] = []
    async with Connection("127.0.0.1", a) as on_a, Connection("127.0.0.1", b) as on_b:
        for i in range(args.matches):
            first, second = (on_a, on_b) if i % 2 == 0 else (on_b, on_a)
            matches.append(await new_match(first, second))
    give_up = asyncio.Event()
    watchers = [Watcher([pair.ports[(i + 1) % 2]], m.id) for i, m in enumerate(matches)]
    watching = [asyncio.create_task(w.run(give_up)) for w in watchers]
    tally = Tally()
    started = now()
    deadline = started + args.contention_seconds
    clients = [racer(port, m, colour, random.Random(rng.random()), tally, deadline)
               for m in matches for colour in ("white", "black") for port in pair.ports]
    await asyncio.gather(*clients)
    took = now() - started
    versions = await server_versions(a, [m.id for m in matches])
    await settle(watchers, versions, 20.0)
    give_up.set()
    await asyncio.gather(*watching, return_exceptions=True)
    sockets = [w.verdict(versions[w.match_id]) for w in watchers]
    logs = await check_logs(pair.url, tally.acks, [m.id for m in matches])
    five = sum(n for code, n in tally.codes.items() if code.startswith("5"))
    trouble = pair.log_trouble()
    ok_sockets = all(s["ok"] for s in sockets)
    actions_landed = sum(versions.values()) - len(matches)  # less the joins
    print(f"  {len(matches)} matches, {len(clients)} clients, {took:.0f} s: {len(tally.acks)} actions acknowledged "
          f"({actions_landed} log entries after the joins), answers {dict(tally.codes)}", flush=True)
    print(f"  logs: {logs['replayed']} replayed, mismatches {len(logs['replay_mismatches'])}, gaps "
          f"{len(logs['version_gaps'])}, acknowledged lost {len(logs['acknowledged_lost'])} (answered as an identical "
          f"submission under another id: {logs['acknowledged_as_an_identical_submission']}); watchers at the "
          f"server's version with every version once: {sum(s['ok'] for s in sockets)}/{len(sockets)}", flush=True)
    return {"matches": len(matches), "clients": len(clients), "seconds": round(took, 1),
            "acknowledged": len(tally.acks), "log_entries": sum(versions.values()),
            "actions_per_second": round(len(tally.acks) / took, 1), "answers": dict(tally.codes),
            "post_p50_ms": ms(statistics.median(tally.latencies)) if tally.latencies else None,
            "post_p99_ms": ms(p99(tally.latencies)), "logs": logs,
            "sockets": {"ok": sum(s["ok"] for s in sockets), "of": len(sockets),
                        "bad": [s for s in sockets if not s["ok"]][:10]},
            "server_log": trouble,
            "verdicts": {"every log replays to its snapshot, every ack in it once": logs["ok"],
                         "every watcher at the server's version, each version once in order": ok_sockets,
                         "no 5xx": five == 0 and not trouble.get("error_lines")}}


# ---- 3. chaos -----------------------------------------------------------------------

@dataclass
class Chaos:
    acks: dict[str, Ack] = field(default_factory=dict)
    successes: dict[int, list[float]] = field(default_factory=dict)  # player -> times of its 200s
    failures: Counter[str] = field(default_factory=Counter)
    resent: int = 0
    resent_landed_before: int = 0
    matches: list[str] = field(default_factory=list)
    watchers: list[Watcher] = field(default_factory=list)


class Pacer:
    def __init__(self, rate: float) -> None:
        self.interval, self.next = 1.0 / rate, now()

    async def turn(self) -> None:
        t = now()
        self.next = max(self.next + self.interval, t)
        await asyncio.sleep(self.next - t)


async def chaos_player(slot: int, ports: list[int], pacer: Pacer, chaos: Chaos, deadline: float,
                       give_up: asyncio.Event) -> None:
    """Plays one match after another at its share of the rate, on its own process;
    when that one is gone it goes to the other (as a load balancer would send it)
    and comes back after a while. Every action has an id, and a 503 or a lost
    answer is resent with the same id and version until it is answered."""
    rng = random.Random(slot)
    home = slot % 2
    away_until = 0.0
    conns = [Connection("127.0.0.1", p) for p in ports]
    chaos.successes[slot] = []

    def which() -> int:
        return home if now() >= away_until else 1 - home

    async def call(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Answer:
        nonlocal away_until
        while True:
            i = which()
            try:
                got = await asyncio.wait_for(conns[i].request(method, path, body, headers), 15)
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
                chaos.failures[f"{type(exc).__name__}"] += 1
                await conns[i].close()
                away_until = now() + 5.0
                if give_up.is_set():
                    raise
                await asyncio.sleep(0.1)
                continue
            if got.status == 503:
                chaos.failures["503"] += 1
                await asyncio.sleep(min(1.0, float(got.header("retry-after") or 1)))
                continue
            return got

    try:
        while now() < deadline:
            made = await call("POST", API, {"options": {}, "seat": "white", "name": f"c{slot}"})
            if made.status != 201:
                chaos.failures[f"create {made.status}"] += 1
                continue
            match_id = made.json()["match"]["id"]
            joined = await call("POST", f"{API}/{match_id}/join", {"name": f"d{slot}"})
            if joined.status != 200:
                chaos.failures[f"join {joined.status}"] += 1
                continue
            tokens = {"white": made.json()["token"], "black": joined.json()["token"]}
            chaos.matches.append(match_id)
            for port in ports:  # a watcher on each process
                w = Watcher([port, *[p for p in ports if p != port]], match_id)
                chaos.watchers.append(w)
                asyncio.get_running_loop().create_task(w.run(give_up))
            state = joined.json()["match"]
            while now() < deadline and state["status"] != "finished":
                colour = state["to_move"]
                auth = {"Authorization": f"Bearer {tokens[colour]}"}
                legal = await call("GET", f"{API}/{match_id}/legal", None, auth)
                action = choose(legal.json(), rng) if legal.status == 200 else None
                if action is None:
                    state = (await call("GET", f"{API}/{match_id}")).json()
                    continue
                await pacer.turn()
                body = {"action": action, "version": legal.json()["version"], "id": uuid.uuid4().hex}
                got = await call("POST", f"{API}/{match_id}/actions", body, auth)
                if got.status == 200:
                    chaos.acks[body["id"]] = Ack(match_id, body["version"], got.json()["match"]["version"],
                                                 colour, action)
                    chaos.successes[slot].append(now())
                    state = got.json()["match"]
                else:
                    chaos.failures[f"action {got.status} {got.json().get('error')}"] += 1
                    state = (await call("GET", f"{API}/{match_id}")).json()
    finally:
        for c in conns:
            await c.close()


async def run_chaos(pair: Pair, args: argparse.Namespace, cluster: Cluster | None) -> dict[str, Any]:
    chaos, pacer = Chaos(), Pacer(args.rate)
    give_up = asyncio.Event()
    started = now()
    length = args.chaos_seconds
    deadline = started + length
    players = [asyncio.create_task(chaos_player(s, pair.ports, pacer, chaos, deadline, give_up))
               for s in range(args.chaos_matches)]
    events: list[dict[str, Any]] = []

    async def at(fraction: float) -> None:
        await asyncio.sleep(max(0.0, started + fraction * length - now()))

    if cluster is not None:
        await at(0.3)
        before = len(chaos.acks)
        t0 = now()
        await asyncio.to_thread(cluster.stop)
        stopped = now()
        await asyncio.sleep(args.pg_down)
        t1 = now()
        await asyncio.to_thread(cluster.start)
        events.append({"event": "postgresql restarted", "start": t0, "end": now(), "acks_before": before,
                       "stop_seconds": round(stopped - t0, 2), "start_seconds": round(now() - t1, 2),
                       "down_seconds": round(now() - t0, 2)})
        print(f"  postgresql stopped and started ({now() - t0:.1f} s down)", flush=True)
    await at(0.6)
    before = len(chaos.acks)
    t0 = now()
    pair.kill(1)
    events.append({"event": "process 1 SIGKILLed", "start": t0, "end": t0, "acks_before": before})
    print("  process 1 SIGKILLed", flush=True)
    await asyncio.sleep(3.0)
    pair.start(1, append=True)
    await asyncio.to_thread(pair.wait, 1)
    events[-1]["restarted_after_seconds"] = round(now() - t0, 2)
    print(f"  process 1 back after {now() - t0:.1f} s", flush=True)
    await asyncio.gather(*players, return_exceptions=True)
    took = now() - started
    versions = await server_versions(pair.ports[0], chaos.matches)
    together = await saves_together(pair.ports)
    await settle(chaos.watchers, versions, 20.0)
    give_up.set()
    await asyncio.sleep(1.0)
    # Recovery: for every client busy when the event began, its first 200 after the event's end.
    for ev in events:
        waits = []
        for times in chaos.successes.values():
            if not any(t < ev["start"] for t in times):
                continue
            after = [t for t in times if t > ev["end"]]
            waits.append(after[0] - ev["end"] if after else float("inf"))
        ev["clients"] = len(waits)
        ev["recovery_max_s"] = round(max(waits), 2) if waits else None
        ev["recovery_median_s"] = round(statistics.median(waits), 2) if waits else None
        # The longest stretch with no 200 from any client, from the event's start to
        # 15 s after its end: what a player saw of it.
        marks = sorted(t for times in chaos.successes.values() for t in times
                       if ev["start"] <= t <= ev["end"] + 15)
        marks = [ev["start"], *marks]
        ev["longest_without_success_s"] = round(max(
            (b - a for a, b in zip(marks, marks[1:], strict=False)), default=float("nan")), 2)
    survivor = [w.verdict(versions[w.match_id]) for w in chaos.watchers if w.ports[0] == pair.ports[0]]
    other = [w.verdict(versions[w.match_id]) for w in chaos.watchers if w.ports[0] != pair.ports[0]]
    logs = await check_logs(pair.url, chaos.acks, chaos.matches)
    trouble = pair.log_trouble()
    recovered = all(ev["recovery_max_s"] is not None and ev["recovery_max_s"] <= RECOVERY_GOAL for ev in events)
    for ev in events:
        print(f"  {ev['event']}: every client's first success within {ev['recovery_max_s']} s "
              f"(median {ev['recovery_median_s']} s) of its end; the longest stretch with no success from any "
              f"client: {ev['longest_without_success_s']} s", flush=True)
    print(f"  {len(chaos.acks)} actions acknowledged in {took:.0f} s ({len(chaos.acks) / took:.1f}/s) on "
          f"{len(chaos.matches)} matches; failures seen and retried: {dict(chaos.failures)}; saved together "
          f"(both processes' /metrics): {together['magery_saves_batched_total']:.0f} actions in "
          f"{together['magery_save_batches_total']:.0f} shared transactions", flush=True)
    print(f"  logs: lost {len(logs['acknowledged_lost'])}, misplaced {len(logs['acknowledged_misplaced'])}, "
          f"ids twice {len(logs['ids_twice'])}, gaps {len(logs['version_gaps'])}, replay mismatches "
          f"{len(logs['replay_mismatches'])}; sockets on the survivor at the server's version, each version "
          f"once: {sum(s['ok'] for s in survivor)}/{len(survivor)} (on the killed one, after coming back: "
          f"{sum(s['ok'] for s in other)}/{len(other)})", flush=True)
    for ev in events:
        ev["start"] = round(ev["start"] - started, 2)
        ev["end"] = round(ev["end"] - started, 2)
    verdicts = {"nothing acknowledged lost or doubled, no gap, logs replay": logs["ok"],
                f"recovery within {RECOVERY_GOAL:g} s after each event": recovered,
                "sockets on the surviving process catch up, each version once": all(s["ok"] for s in survivor),
                "no 500": not trouble.get("error_lines") and not any(
                    k.startswith("action 5") for k in chaos.failures)}
    return {"seconds": round(took, 1), "rate_goal": args.rate, "matches": len(chaos.matches),
            "acknowledged": len(chaos.acks), "actions_per_second": round(len(chaos.acks) / took, 1),
            "failures_retried": dict(chaos.failures), "events": events, "saves_together": together,
            "postgresql_restart": cluster is not None, "logs": logs,
            "sockets_survivor": {"ok": sum(s["ok"] for s in survivor), "of": len(survivor),
                                 "bad": [s for s in survivor if not s["ok"]][:10]},
            "sockets_killed_process": {"ok": sum(s["ok"] for s in other), "of": len(other),
                                       "bad": [s for s in other if not s["ok"]][:10]},
            "server_log": trouble, "verdicts": verdicts}


# ---- 4. flood -----------------------------------------------------------------------

@dataclass
class Flood:
    answers: Counter[str] = field(default_factory=Counter)
    unexpected: Counter[str] = field(default_factory=Counter)
    retry_after_missing: int = 0
    first_429_after: list[int] = field(default_factory=list)


async def probe(ports: list[int], phase: list[str], samples: dict[str, list[float]], stop: asyncio.Event,
                rate: float) -> None:
    """Another match, played from its own address: each round GET the match, GET
    /legal, POST an action, on the two processes in turn; every request's time
    goes to the current phase's samples."""
    rng = random.Random(7)
    conns = [Connection("127.0.0.1", p, local="127.0.0.2") for p in ports]
    try:
        match = await new_match(conns[0], conns[1])
        turn = 0
        next_at = now()
        while not stop.is_set():
            next_at = max(next_at + 1.0 / rate, now())
            await asyncio.sleep(next_at - now())
            http = conns[turn % 2]
            turn += 1
            bucket = samples.setdefault(phase[0], [])
            t = now()
            state = (await http.get(f"{API}/{match.id}")).json()
            bucket.append(now() - t)
            if state["status"] == "finished":
                match = await new_match(conns[0], conns[1])
                continue
            colour = state["to_move"]
            t = now()
            legal = (await http.get(f"{API}/{match.id}/legal", match.auth(colour))).json()
            bucket.append(now() - t)
            action = choose(legal, rng)
            if action is None:
                continue
            t = now()
            got = await http.post(f"{API}/{match.id}/actions",
                                  {"action": action, "version": legal["version"], "id": uuid.uuid4().hex},
                                  match.auth(colour))
            bucket.append(now() - t)
            if got.status != 200:
                samples.setdefault("probe_errors", []).append(float(got.status))
    finally:
        for c in conns:
            await c.close()


async def write_spammer(port: int, address: str, flood: Flood, stop: asyncio.Event) -> None:
    """Writes as fast as the answers come (a setup on an old version of its own
    match: 409 stale_version) until 429, and on: each 429 must carry Retry-After."""
    async with Connection("127.0.0.1", port, local=address) as http:
        other = Connection("127.0.0.1", port, local=address)
        async with other:
            match = await new_match(http, other)
        legal = (await http.get(f"{API}/{match.id}/legal", match.auth("white"))).json()
        row = legal["setup"]
        played = await http.post(f"{API}/{match.id}/actions", {"action": {"type": "setup", "backrow": row},
                                                             "version": legal["version"]}, match.auth("white"))
        if played.status != 200:
            flood.unexpected[f"write setup {played.status}"] += 1
        # Another backrow on the version White's setup was played on: 409 stale_version.
        stale = {"action": {"type": "setup", "backrow": row[::-1]}, "version": legal["version"]}
        sent = 0
        seen_429 = False
        while not stop.is_set():
            got = await http.post(f"{API}/{match.id}/actions", stale, match.auth("white"))
            sent += 1
            flood.answers[f"write {got.status}"] += 1
            if got.status == 429:
                if not seen_429:
                    seen_429 = True
                    flood.first_429_after.append(sent)
                if not (got.header("retry-after") or "").isdigit():
                    flood.retry_after_missing += 1
            elif got.status != 409:
                flood.unexpected[f"write {got.status}"] += 1


async def socket_spammer(port: int, address: str, match_id: str, flood: Flood, stop: asyncio.Event,
                         payload: str, expect: int, label: str) -> None:
    """Opens a socket and sends `payload` until the server closes it; the close
    code must be `expect`. Then again, until the flood ends."""
    while not stop.is_set():
        code = None
        try:
            async with connect(f"ws://127.0.0.1:{port}{API}/{match_id}/ws", local_addr=(address, 0),
                               open_timeout=10, max_queue=None) as ws:
                async def drain() -> None:
                    with contextlib.suppress(ConnectionClosed):
                        async for _ in ws:
                            pass

                reader = asyncio.create_task(drain())
                with contextlib.suppress(ConnectionClosed):
                    for _ in range(1000):
                        await ws.send(payload)
                        if label == "ws-frame":
                            break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader, 10)
                reader.cancel()
                code = ws.close_code
        except (OSError, TimeoutError, ConnectionClosed) as exc:
            flood.unexpected[f"{label} {type(exc).__name__}"] += 1
            await asyncio.sleep(0.2)
            continue
        flood.answers[f"{label} close {code}"] += 1
        if code != expect:
            flood.unexpected[f"{label} close {code}"] += 1


async def body_spammer(port: int, address: str, match_id: str, token: str, flood: Flood,
                       stop: asyncio.Event) -> None:
    big = {"action": {"type": "pass"}, "version": 1, "pad": "x" * (100 * 1024)}
    while not stop.is_set():
        try:
            async with Connection("127.0.0.1", port, local=address) as http:
                got = await http.post(f"{API}/{match_id}/actions", big, {"Authorization": f"Bearer {token}"})
        except (OSError, asyncio.IncompleteReadError) as exc:
            flood.unexpected[f"body {type(exc).__name__}"] += 1
            continue
        flood.answers[f"body {got.status}"] += 1
        if got.status != 413:
            flood.unexpected[f"body {got.status}"] += 1


async def junk_spammer(port: int, address: str, match_id: str, flood: Flood, stop: asyncio.Event,
                       index: int) -> None:
    """A 60 KB JSON list (no request's body) to POST /matches or /actions, without
    a token, as fast as the answers come: 400 until the address's write budget is
    spent, then 429 with Retry-After (issue 17, item 5)."""
    junk = [{"x": i} for i in range(5000)]
    path = API if index % 2 == 0 else f"{API}/{match_id}/actions"
    http: Connection | None = None
    while not stop.is_set():
        try:
            if http is None:
                http = Connection("127.0.0.1", port, local=address)
            got = await http.post(path, junk)
        except (OSError, asyncio.IncompleteReadError) as exc:  # a 429 closes the connection: its body is unread
            if http is not None:
                await http.close()
            http = None
            if not isinstance(exc, (ConnectionResetError, asyncio.IncompleteReadError, BrokenPipeError)):
                flood.unexpected[f"junk {type(exc).__name__}"] += 1
            continue
        flood.answers[f"junk {got.status}"] += 1
        if got.status == 429:
            if not (got.header("retry-after") or "").isdigit():
                flood.retry_after_missing += 1
            if (got.header("connection") or "").lower() == "close":
                await http.close()
                http = None
        elif got.status != 400:
            flood.unexpected[f"junk {got.status}"] += 1
    if http is not None:
        await http.close()


async def socket_hoarder(ports: list[int], address: str, match_id: str, flood: Flood, stop: asyncio.Event) -> None:
    """Spectator sockets from one address, opened as fast as they come (16 openings
    in flight) and held to the end (issue 17, item 6: 4,000 in 6 s once). Past the
    cap per address each is closed 1008 too_many_sockets."""
    held: list[Any] = []
    opened = [0]

    async def opener() -> None:
        while not stop.is_set() and opened[0] < 4000:
            port = ports[opened[0] % 2]
            opened[0] += 1
            try:
                ws = await connect(f"ws://127.0.0.1:{port}{API}/{match_id}/ws", local_addr=(address, 0),
                                   open_timeout=10, max_queue=4)
            except (OSError, TimeoutError, ConnectionClosed) as exc:
                flood.unexpected[f"sockets {type(exc).__name__}"] += 1
                await asyncio.sleep(0.05)
                continue
            try:
                await asyncio.wait_for(ws.recv(), 10)  # the snapshot, or the close
                held.append(ws)
                flood.answers["sockets held"] += 1
            except ConnectionClosed:
                code, reason = ws.close_code, ws.close_reason or ""
                label = f"sockets close {code} {reason.split(':')[0]}"
                flood.answers[label] += 1
                if code != 1008 or not reason.startswith("too_many_sockets"):
                    flood.unexpected[label] += 1
            except TimeoutError:
                flood.unexpected["sockets no first message"] += 1
                await ws.close()

    try:
        await asyncio.gather(*(opener() for _ in range(16)))
        await stop.wait()
    finally:
        flood.answers["sockets held at the end"] = sum(1 for ws in held if ws.close_code is None)
        await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)


async def state_reader(port: int, address: str, match_id: str, flood: Flood, stop: asyncio.Event) -> None:
    """`/states` of a long match, 100 states a call, as fast as the answers come
    (issue 17, item 7: 8 such readers once took another match's p50 twentyfold)."""
    async with Connection("127.0.0.1", port, local=address) as http:
        while not stop.is_set():
            got = await http.get(f"{API}/{match_id}/states?from=1&to=100")
            flood.answers[f"reads {got.status}"] += 1
            if got.status == 429:
                if not (got.header("retry-after") or "").isdigit():
                    flood.retry_after_missing += 1
            elif got.status != 200:
                flood.unexpected[f"reads {got.status}"] += 1


def _ready(nice: int) -> bool:
    os.nice(nice)
    return True


FLOODS = ("writes", "messages", "frames", "bodies")
# One client's floods (issue 17, "What one client can take"), each a scenario of its own.
ONE_CLIENT = ("junk", "sockets", "reads")


def flood_worker(ports: list[int], match_id: str, token: str, seconds: float,
                 kinds: tuple[str, ...] = FLOODS, long_id: str | None = None) -> dict[str, Any]:
    """One flood window, in a process of its own: the attackers' event loop stays
    out of the probe's timings, and their CPU (niced, `--flood-nice`) yields to
    the servers', as an attacker's own machine would."""
    cpu0 = sum(os.times()[:2])

    async def attack() -> Flood:
        flood, stop = Flood(), asyncio.Event()
        attackers: list[Any] = []
        if "writes" in kinds:
            attackers += [write_spammer(ports[i % 2], f"127.0.1.{i + 1}", flood, stop) for i in range(2)]
        if "messages" in kinds:
            attackers += [socket_spammer(ports[i % 2], f"127.0.2.{i + 1}", match_id, flood, stop,
                                         '{"type":"ping"}', 1008, "ws-messages") for i in range(2)]
        if "frames" in kinds:
            attackers.append(socket_spammer(ports[1], "127.0.3.1", match_id, flood, stop, "x" * (20 * 1024),
                                            1009, "ws-frame"))
        if "bodies" in kinds:
            attackers.append(body_spammer(ports[0], "127.0.4.1", match_id, token, flood, stop))
        if "junk" in kinds:  # 16 connections of one address
            attackers += [junk_spammer(ports[i % 2], "127.0.5.1", match_id, flood, stop, i // 2) for i in range(16)]
        if "sockets" in kinds:
            attackers.append(socket_hoarder(ports, "127.0.6.1", match_id, flood, stop))
        if "reads" in kinds:  # 8 readers of one address
            attackers += [state_reader(ports[i % 2], "127.0.7.1", long_id or match_id, flood, stop)
                          for i in range(8)]
        tasks = [asyncio.create_task(x) for x in attackers]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        return flood

    flood = asyncio.run(attack())
    return {"answers": dict(flood.answers), "unexpected": dict(flood.unexpected),
            "retry_after_missing": flood.retry_after_missing, "first_429_after": flood.first_429_after,
            "cpu_s": round(sum(os.times()[:2]) - cpu0, 2)}


async def long_match(conns: list[Connection], versions: int) -> Match:
    """A match played to about `versions` versions (a replay of 100 states to read)."""
    rng = random.Random(3)
    while True:
        match = await new_match(conns[0], conns[1])
        while match.state["status"] != "finished" and match.state["version"] < versions:
            await step(conns[match.state["version"] % 2], match, rng)
        if match.state["version"] >= versions:
            return match


async def run_flood(pair: Pair, args: argparse.Namespace, kinds: list[str] | None = None) -> dict[str, Any]:
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    from bench.api import cpu_seconds

    a, b = pair.ports
    async with Connection("127.0.0.1", a, local="127.0.0.9") as on_a, \
            Connection("127.0.0.1", b, local="127.0.0.9") as on_b:
        target = await new_match(on_a, on_b)
        long_id = (await long_match([on_a, on_b], 100)).id if kinds and "reads" in kinds else None
    phase = ["warmup"]
    samples: dict[str, list[float]] = {}
    stop_probe = asyncio.Event()
    loop = asyncio.get_running_loop()
    answers: Counter[str] = Counter()
    unexpected: Counter[str] = Counter()
    retry_after_missing, first_429_after = 0, []
    windows: list[dict[str, Any]] = []
    # Quiet and flood windows in turns, quiet first and last: drift falls on both.
    plan = ["quiet"] + ["flood", "quiet"] * args.flood_rounds
    with ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
        await loop.run_in_executor(pool, _ready, args.flood_nice)  # the worker started and imported before any window
        prober = asyncio.create_task(probe(pair.ports, phase, samples, stop_probe, args.probe_rate))
        await asyncio.sleep(8.0)  # the probe's first seconds (caches filling) are left out
        for n, kind in enumerate(plan):
            phase[0] = f"{kind}{n // 2}"
            cpu0 = [cpu_seconds(proc.pid) for proc in pair.procs if proc is not None]
            attacker_cpu = None
            if kind == "flood":
                got = await loop.run_in_executor(pool, flood_worker, pair.ports, target.id,
                                                 target.tokens["white"], args.flood_window,
                                                 tuple(kinds or args.flood_kinds.split(",")), long_id)
                answers.update(got["answers"])
                unexpected.update(got["unexpected"])
                retry_after_missing += got["retry_after_missing"]
                first_429_after += got["first_429_after"]
                attacker_cpu = round(got["cpu_s"] / args.flood_window, 2)
            else:
                await asyncio.sleep(args.flood_window)
            cpu = [cpu_seconds(proc.pid) - c for proc, c in zip(pair.procs, cpu0, strict=True) if proc is not None]
            taken = samples.get(phase[0], [])
            windows.append({"phase": phase[0], "requests": len(taken),
                            "p50_ms": ms(statistics.median(taken)) if taken else None,
                            "p99_ms": ms(p99(taken)), "load": load(),
                            "server_cpu_share": [round(c / args.flood_window, 2) for c in cpu],
                            "attacker_cpu_share": attacker_cpu})
            print(f"  {phase[0]:7}: {len(taken)} requests of the other match, p50 {windows[-1]['p50_ms']} ms, "
                  f"p99 {windows[-1]['p99_ms']} ms; CPU: servers {windows[-1]['server_cpu_share']}, attackers "
                  f"{attacker_cpu} "
                  f"(load {load()[0]})", flush=True)
        stop_probe.set()
        await asyncio.gather(prober, return_exceptions=True)
    quiet = [x for k, v in samples.items() if k.startswith("quiet") for x in v]
    flooded = [x for k, v in samples.items() if k.startswith("flood") for x in v]
    q99, f99 = p99(quiet), p99(flooded)
    ratio = (f99 / q99) if q99 and f99 else None
    per_window = {kind: [w["p99_ms"] for w in windows if w["phase"].startswith(kind)] for kind in ("quiet", "flood")}
    # The verdict: each flood window against the quiet window just before it (the
    # two share the machine's drift: another job starting, the load rising), the
    # median of those ratios. The p99 over all windows pooled is printed too; it
    # moves with whatever else the machine did in the quiet windows.
    pairs = [f / q for q, f in zip(per_window["quiet"], per_window["flood"], strict=False) if q and f]
    paired = statistics.median(pairs) if pairs else None
    if kinds is None:
        kinds = args.flood_kinds.split(",")
        expected = {
            "429 seen, each with Retry-After": answers.get("write 429", 0) > 0 and retry_after_missing == 0,
            "sockets spamming messages closed 1008": answers.get("ws-messages close 1008", 0) > 0,
            "over-limit frame closed 1009": answers.get("ws-frame close 1009", 0) > 0,
            "big bodies 413": answers.get("body 413", 0) > 0,
        }
        expected = {k: v for (k, v), kind in zip(expected.items(), FLOODS, strict=True) if kind in kinds}
        promise = "flood answers as expected (429+Retry-After, 1008, 1009, 413)"
    else:
        expected, promise = _one_client_expected(kinds[0], answers, retry_after_missing)
    expected["nothing else answered"] = not unexpected
    trouble = pair.log_trouble()
    print(f"  the other match's p99 over all windows: quiet {ms(q99)} ms, flood {ms(f99)} ms: "
          f"{f'{ratio:.2f}x' if ratio else '?'}; per window: quiet {per_window['quiet']}, flood "
          f"{per_window['flood']} ms; each flood window over the quiet one before it: "
          f"{[round(x, 2) for x in pairs]}, median {f'{paired:.2f}x' if paired else '?'} "
          f"(goal <= {FLOOD_GOAL:g}x); probe errors {len(samples.get('probe_errors', []))}", flush=True)
    print(f"  flood answers {dict(answers)}; unexpected {dict(unexpected)}; first 429 after "
          f"{first_429_after} writes", flush=True)
    return {"windows": windows, "quiet_p99_ms": ms(q99), "flood_p99_ms": ms(f99),
            "quiet_p50_ms": ms(statistics.median(quiet)) if quiet else None,
            "flood_p50_ms": ms(statistics.median(flooded)) if flooded else None,
            "ratio_pooled": round(ratio, 2) if ratio else None, "p99_per_window_ms": per_window,
            "ratios_to_the_quiet_window_before": [round(x, 2) for x in pairs],
            "ratio": round(paired, 2) if paired else None,
            "probe_requests": {"quiet": len(quiet), "flood": len(flooded)},
            "probe_errors": len(samples.get("probe_errors", [])),
            "flood_answers": dict(answers), "unexpected": dict(unexpected),
            "retry_after_missing": retry_after_missing, "first_429_after_writes": first_429_after,
            "expected": expected, "server_log": trouble,
            "verdicts": {f"the other match's p99 in the flood <= {FLOOD_GOAL:g}x quiet": bool(
                paired is not None and paired <= FLOOD_GOAL and not samples.get("probe_errors")),
                promise: all(expected.values())}}


def _one_client_expected(kind: str, answers: Counter[str], retry_after_missing: int) -> tuple[dict[str, bool], str]:
    """What one client's flood of `kind` must be answered (docs/reliability.md)."""
    if kind == "junk":
        return ({"malformed bodies answered 400, then 429 with Retry-After":
                 answers.get("junk 429", 0) > 0 and retry_after_missing == 0},
                "malformed-body flood: 429 with Retry-After once the write budget is spent")
    if kind == "sockets":
        held = answers.get("sockets held", 0)
        return ({"sockets past the cap closed 1008 too_many_sockets": answers.get(
                     "sockets close 1008 too_many_sockets", 0) > 0,
                 "at most the cap held per process (64 x 2)": 0 < held <= 2 * 64},
                "socket flood from one address: capped, the rest closed 1008")
    return ({"reads answered 200, then 429 with Retry-After": answers.get("reads 429", 0) > 0
             and retry_after_missing == 0},
            "read flood: 429 with Retry-After once the read budget is spent")


# ---- the run --------------------------------------------------------------------------

def write(path: Path, results: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, default=str))


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except OSError:
        return "?"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenarios", nargs="*", help=f"which of {', '.join(SCENARIOS)} (default: all)")
    ap.add_argument("--only", help="comma-separated scenarios (the same as naming them)")
    ap.add_argument("--quick", action="store_true", help="a smoke run: shorter and smaller")
    ap.add_argument("--pg-url", default=PG, help="PostgreSQL server for storm, contention, flood "
                    "(default BENCH_POSTGRES or postgresql://postgres@127.0.0.1:5432)")
    ap.add_argument("--own-cluster", choices=("chaos", "all", "none"), default="chaos",
                    help="run on a throwaway cluster of this run (pg_createcluster): chaos only (default), "
                    "every scenario, or none (chaos then restarts no PostgreSQL, only kills a process)")
    ap.add_argument("--cluster-port", type=int, default=5439)
    ap.add_argument("--storms", type=int, default=None, help="storms, each on a new match (default 3; quick 1)")
    ap.add_argument("--matches", type=int, default=None, help="contention: matches (default 30; quick 12)")
    ap.add_argument("--contention-seconds", type=float, default=None, help="default 60; quick 15")
    ap.add_argument("--chaos-seconds", type=float, default=None, help="default 90; quick 40")
    ap.add_argument("--chaos-matches", type=int, default=10)
    ap.add_argument("--rate", type=float, default=30.0, help="chaos: actions per second in all")
    ap.add_argument("--pg-down", type=float, default=2.0, help="chaos: seconds PostgreSQL stays stopped")
    ap.add_argument("--flood-rounds", type=int, default=None, help="quiet/flood window pairs (default 3; quick 1)")
    ap.add_argument("--flood-window", type=float, default=None, help="seconds per window (default 20; quick 12)")
    ap.add_argument("--probe-rate", type=float, default=8.0, help="flood: the other match's rounds a second")
    ap.add_argument("--burst-every", type=float, default=1.0,
                    help="signin, signin-players: a new burst at most this often, in seconds (a burst answered "
                         "sooner waits; one answered later is followed at once)")
    ap.add_argument("--flood-nice", type=int, default=19, help="flood: niceness of the attackers' process "
                    "(0: they compete with the servers for this machine's CPU as equals)")
    ap.add_argument("--flood-kinds", default=",".join(FLOODS),
                    help=f"flood: which attackers (comma-separated of {', '.join(FLOODS)}; default all)")
    ap.add_argument("--bot-attackers", type=int, default=None, help="bots: attacking addresses (default 6; quick 4)")
    ap.add_argument("--bot-window", type=float, default=None, help="bots: seconds quiet, then of storm "
                    "(default 30; quick 15)")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--output", default=str(RESULTS))
    args = ap.parse_args()
    chosen = list(args.scenarios) + (args.only.split(",") if args.only else [])
    unknown = [s for s in chosen if s not in SCENARIOS]
    if unknown:
        ap.error(f"unknown scenario(s): {unknown}")
    chosen = [s for s in SCENARIOS if s in chosen] or list(SCENARIOS)

    def default(name: str, full: float, quick: float) -> None:
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)

    default("storms", 3, 1)
    default("matches", 30, 12)
    default("contention_seconds", 60.0, 15.0)
    default("chaos_seconds", 90.0, 40.0)
    default("flood_rounds", 3, 1)
    default("flood_window", 20.0, 12.0)
    default("bot_attackers", 6, 4)
    default("bot_window", 30.0, 15.0)
    output = Path(args.output)
    results: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit(), "cpus": os.cpu_count(),
        "settings": {k: v for k, v in vars(args).items() if k not in ("output", "scenarios", "only")},
        "server_env": SERVER_ENV, "load_at_start": load(), "scenarios": {}}
    budget = 900 if not args.quick else 300
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("proofs over budget")))
    signal.alarm(budget)
    verdicts: list[tuple[str, str, bool]] = []
    cluster: Cluster | None = None
    try:
        if args.own_cluster != "none" and ("chaos" in chosen or args.own_cluster == "all"):
            cluster = Cluster(args.cluster_port).__enter__()
            print(f"own cluster: PostgreSQL {cluster.version} '{cluster.name}' on port {cluster.port}", flush=True)
        for name in chosen:
            server = cluster.url if cluster and (name == "chaos" or args.own_cluster == "all") else args.pg_url
            print(f"\n{name} (load {load()}, database on {server.rsplit('@', 1)[-1]})", flush=True)
            env = ({} if name in ("flood", "signin", "signin-players", *ONE_CLIENT)
                   else {**NO_LIMITS, "BOT_MATCHES_PER_ADDRESS": str(BOT_CAP)} if name == "bots" else NO_LIMITS)
            started = time.monotonic()
            with Pair(name, server, env, output) as pair:
                if name == "storm":
                    got = asyncio.run(run_storm(pair, args))
                elif name == "contention":
                    got = asyncio.run(run_contention(pair, args))
                elif name == "chaos":
                    got = asyncio.run(run_chaos(pair, args, cluster if server == (cluster.url if cluster else None)
                                                else None))
                elif name == "signin":  # bench/signin_burst.py (issue 17, item 3)
                    from bench.signin_burst import run_signin

                    got = asyncio.run(run_signin(pair, args))
                elif name == "signin-players":  # the same against the players' POST /login (issue 17)
                    from bench.signin_burst import PLAYERS, run_signin

                    got = asyncio.run(run_signin(pair, args, PLAYERS))
                elif name in ONE_CLIENT:
                    got = asyncio.run(run_flood(pair, args, [name]))
                elif name == "bots":
                    got = asyncio.run(run_bot_storm(pair.ports, args, BOT_CAP))
                    got["server_log"] = pair.log_trouble()
                else:
                    got = asyncio.run(run_flood(pair, args))
            got["wall_seconds"] = round(time.monotonic() - started, 1)
            got["load_after"] = load()
            results["scenarios"][name] = got
            for promise, ok in got["verdicts"].items():
                verdicts.append((name, promise, ok))
            write(output, results)
    finally:
        signal.alarm(0)
        if cluster is not None:
            cluster.drop()
    results["load_at_end"] = load()
    results["verdicts"] = [{"scenario": s, "promise": p, "pass": ok} for s, p, ok in verdicts]
    write(output, results)
    print(f"\n{'scenario':11} {'promise':80} result")
    for s, p, ok in verdicts:
        print(f"{s:11} {p:80} {'PASS' if ok else 'MISS'}")
    print(f"(load average at start {results['load_at_start']}, at end {results['load_at_end']}; "
          f"{os.cpu_count()} CPUs shared with PostgreSQL and whatever else runs)")
    print(f"written {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}")
    return 0 if all(ok for _, _, ok in verdicts) else 1


if __name__ == "__main__":
    raise SystemExit(main())
