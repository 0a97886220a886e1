"""How long an away player waits for "your turn" by web push, through real
server processes and their own senders, as they run by default.

    .venv/bin/python bench/push_delay.py [--moves 20] [--processes 2] [--database postgres|sqlite]

A fresh database (PostgreSQL on BENCH_POSTGRES_URL, default the tests' server,
made and dropped here; or a SQLite file); `--processes` uvicorn processes on it,
each with its outbox sender at the default settings (`NOTIFY_POLL_SECONDS` 1,
batch 50, lease 60 s), pushing to the tests' stand-in push service run here
(tests/push/stand_in.py: it checks the VAPID JWT and decrypts each payload with
the browser's key). Two accounts play correspondence matches
(`{"type": "correspondence", "days": 3}`) over REST with random legal actions:

- Pia is present: her socket is open to the match on the first process, and she
  plays there. Each time her action passes the move to Ada, the clock starts when
  the HTTP answer is read and stops when the stand-in has taken and decrypted
  Ada's push, checked to name the match and say "your turn".
- Ada is away: no socket; she plays on the last process. Pia has a push
  subscription too, and must never be pushed to (she watches the match).

Figures: p50, p95 and the longest of the delays over `--moves` of Pia's moves;
the pushes to Pia (goal 0); pushes refused by the stand-in (goal 0). The last
line: `push delay: p95 X s over N moves (goal <= 5 s)`. Written to
bench/results/push_delay.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from app.accounts import Accounts  # noqa: E402
from app.auth import PasswordChecks  # noqa: E402
from app.config import get_settings  # noqa: E402
from app.db import make_engine, upgrade  # noqa: E402
from app.notify import outbox  # noqa: E402
from app.push.away import watching  # noqa: E402
from app.push.endpoints import KNOWN_PUSH_HOSTS, LOCAL_STAND_IN  # noqa: E402
from tests.push.stand_in import PushServiceStandIn  # noqa: E402

POSTGRES = os.environ.get("BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
RESULTS = ROOT / "bench" / "results"
CORRESPONDENCE = {"type": "correspondence", "days": 3}
GOAL_SECONDS = 5.0
WAIT = 60.0  # a push that never comes: the run stops saying so


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(port: int, database_url: str) -> subprocess.Popen[bytes]:
    """A server as it runs in production but for the stand-in's host allowed
    and the write budget lifted (one client plays every move); the sender's
    settings are left at their defaults."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": database_url,
           "RATE_LIMIT_WRITES": "10000000", "RATE_LIMIT_READS": "10000000",
           "PUSH_ENDPOINT_HOSTS": json.dumps([*KNOWN_PUSH_HOSTS, LOCAL_STAND_IN])}
    for name in [n for n in env if n.startswith("NOTIFY_")]:
        del env[name]
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", "--no-access-log"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


async def ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(600):
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
            try:
                if (await client.get(base + "/api/v1/push/key")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server never answered")


async def accounts(database_url: str) -> dict[str, tuple[int, dict[str, str]]]:
    """Pia and Ada: each one's id and an account token's header."""
    settings = get_settings().model_copy(update={"database_url": database_url})
    engine = make_engine(database_url)
    made = {}
    try:
        await upgrade(engine)
        service = Accounts(engine, settings, PasswordChecks(1, 0))
        for name in ("Pia", "Ada"):
            account = await service.sign_up(name, "a bench player's password", f"bench-{name}")
            token, _ = await service.create_token(account, "bench", ["play", "read"])
            made[name] = (account.id, {"Authorization": f"Bearer {token}"})
    finally:
        await engine.dispose()
    return made


class Table:
    """One correspondence match at a time between Pia (white) and Ada (black)."""

    def __init__(self, http: httpx.AsyncClient, pia_base: str, ada_base: str, players: dict[str, Any],
                 rng: random.Random) -> None:
        self.http, self.rng = http, rng
        self.base = {"white": pia_base + "/api/v1/matches", "black": ada_base + "/api/v1/matches"}
        self.auth = {"white": players["Pia"][1], "black": players["Ada"][1]}
        self.state: dict[str, Any] = {}

    async def new_match(self) -> str:
        """Made by Pia, who waits on its page for an opponent."""
        r = await self.http.post(self.base["white"], headers=self.auth["white"],
                                 json={"options": {"time_control": CORRESPONDENCE}, "seat": "white"})
        assert r.status_code == 201, r.text
        self.state = r.json()["match"]
        return str(self.state["id"])

    async def join(self) -> None:
        """Ada joins from the other process."""
        r = await self.http.post(f"{self.base['black']}/{self.state['id']}/join", headers=self.auth["black"], json={})
        assert r.status_code == 200, r.text
        self.state = r.json()["match"]

    async def act(self) -> float:
        """One action of the player to move; answers when its HTTP answer was read."""
        colour = self.state["to_move"]
        base, auth, match_id = self.base[colour], self.auth[colour], self.state["id"]
        legal = (await self.http.get(f"{base}/{match_id}/legal", headers=auth)).json()
        action = ({"type": "setup", "backrow": self.rng.sample(legal["setup"], 8)} if legal["setup"]
                  else self.rng.choice(legal["actions"]))
        r = await self.http.post(f"{base}/{match_id}/actions", headers=auth,
                                 json={"action": action, "version": self.state["version"]})
        answered = time.perf_counter()
        assert r.status_code == 200, r.text
        self.state = r.json()["match"]
        return answered

    @property
    def over(self) -> bool:
        return self.state.get("status") != "active"


async def keep_open(url: str, auth: dict[str, str], opened: asyncio.Event, stop: asyncio.Event) -> None:
    """Pia's page: a socket to the match, answering pings, until told to stop."""
    async with connect(url, additional_headers=auth) as ws:
        opened.set()
        while not stop.is_set():
            try:
                async with asyncio.timeout(0.5):
                    message = json.loads(await ws.recv())
            except TimeoutError:
                continue
            if message.get("type") == "ping":
                await ws.send('{"type": "pong"}')


async def run(args: argparse.Namespace) -> dict[str, Any]:
    name = f"magery_bench_push_{secrets.token_hex(4)}"
    admin = None
    if args.database == "postgres":
        admin = await asyncpg.connect(POSTGRES.replace("postgresql+asyncpg", "postgresql"))
        await admin.execute(f'CREATE DATABASE "{name}"')
        url = POSTGRES.rsplit("/", 1)[0] + "/" + name
    else:
        url = f"sqlite+aiosqlite:///{tempfile.mkdtemp(prefix='magery-push-')}/bench.sqlite3"
    procs: list[subprocess.Popen[bytes]] = []
    try:
        players = await accounts(url)
        ports = [free_port() for _ in range(args.processes)]
        procs = [start(port, url) for port in ports]
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        for base, proc in zip(bases, procs, strict=True):
            await ready(base, proc)
        return await measure(args, url, bases, players)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        if admin is not None:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()


async def measure(args: argparse.Namespace, url: str, bases: list[str], players: dict[str, Any]) -> dict[str, Any]:
    pia_base, ada_base = bases[0], bases[-1]
    engine = make_engine(url, 2, 0)
    async with httpx.AsyncClient(timeout=30) as http:
        key = (await http.get(f"{pia_base}/api/v1/push/key")).json()["public_key"]
        stand_in = await PushServiceStandIn(key).start()
        pia_browser, ada_browser = stand_in.browser(), stand_in.browser()
        for who, browser, base in (("Pia", pia_browser, pia_base), ("Ada", ada_browser, ada_base)):
            r = await http.post(f"{base}/api/v1/account/push", json=browser.subscription(), headers=players[who][1])
            assert r.status_code == 201, r.text
        table = Table(http, pia_base, ada_base, players, random.Random(args.seed))
        delays: list[float] = []
        matches = 0
        try:
            while len(delays) < args.moves:
                match_id = await table.new_match()
                matches += 1
                opened, stop = asyncio.Event(), asyncio.Event()
                page = asyncio.create_task(keep_open(
                    f"{pia_base.replace('http', 'ws')}/api/v1/matches/{match_id}/ws", players["Pia"][1], opened,
                    stop))
                await asyncio.wait_for(opened.wait(), WAIT)
                ttl = round(get_settings().ws_dead_after_seconds * 1000)
                for _ in range(int(WAIT * 100)):  # Pia's socket written present, as any process reads it
                    if await watching(engine, players["Pia"][0], match_id, round(time.time() * 1000), ttl):
                        break
                    await asyncio.sleep(0.01)
                await table.join()  # its "your turn" to Pia (white sets up first): no push, she watches
                while not table.over and len(delays) < args.moves:
                    if table.state["to_move"] == "white":
                        answered = await table.act()
                        if not table.over and table.state["to_move"] == "black":  # the move passed to Ada
                            pushed = await ada_browser.next_push(WAIT)
                            said = pushed.said
                            assert said["match_id"] == match_id and said["kind"] == "your_turn", said
                            assert said["title"] == "Your turn" and said["url"] == f"/matches/{match_id}", said
                            delays.append(pushed.at - answered)
                    else:
                        await table.act()
                stop.set()
                await page
            # Every sender done with what was due (the outbox empty) before Pia's pushes are counted.
            for _ in range(int(WAIT * 100)):
                if not await outbox.waiting(engine):
                    break
                await asyncio.sleep(0.01)
        finally:
            await stand_in.stop()
            await engine.dispose()
    delays.sort()
    p95 = delays[max(0, -(-len(delays) * 95 // 100) - 1)]
    return {"database": args.database, "processes": args.processes, "moves": len(delays), "matches": matches,
            "p50_s": round(statistics.median(delays), 3), "p95_s": round(p95, 3), "max_s": round(delays[-1], 3),
            "pushes_to_present_player": len(pia_browser.pushed),
            "said_to_present_player": [p.said for p in pia_browser.pushed], "extra_pushes_to_away_player": len(ada_browser.pushed),
            "refused_by_stand_in": len(stand_in.refused), "load": round(os.getloadavg()[0], 2),
            "date": time.strftime("%Y-%m-%d")}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--database", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    found = asyncio.run(run(args))
    print(json.dumps(found, indent=1))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"push_delay_{args.database}.json").write_text(json.dumps(found, indent=1))
    print(f"pushes to the present player: {found['pushes_to_present_player']} (goal 0)")
    print(f"push delay: p95 {found['p95_s']} s over {found['moves']} moves (goal <= {GOAL_SECONDS:g} s)")
