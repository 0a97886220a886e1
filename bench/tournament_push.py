"""What an arena's spectators cost the server when its standings are pushed.

    .venv/bin/python bench/tournament_push.py [--spectators 2000] [--seconds 20] [--players 16]

One uvicorn process on a fresh SQLite file (loopback only, bounded by SIGALRM);
the spectators in a process of their own, so that the driver is not slowed by
their reading.
An arena of `--players` players whose games end often: a driver resigns one of
its running games every `--gap` seconds (each end is written, the two players are
paired again at once, and the arena's watchers are told). Twice, for the same
`--seconds`: with no spectator (the yardstick: what the games themselves cost),
then with `--spectators` websockets watching the arena's first page. Figures:

- updates each spectator received, and the bytes of one (`arena` messages);
- the server's CPU per spectator per update: (CPU with - CPU without) / (updates x spectators);
- the HTTP requests per second the spectators made after opening (push: none),
  against what polling `GET /tournaments/{id}` every 2 s would have been, and the
  server CPU of one such GET (measured here), so the polling's cost in CPU.

Written to bench/results/tournament_push.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

PYTHON = sys.executable
POLL_EVERY = 2.0  # seconds: the polling page this push replaces would ask this often


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """The whole process's CPU time (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(port: int, database_url: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": database_url, "WS_SOCKETS_PER_ADDRESS": "0",
           "RATE_LIMIT_WRITES": "10000000", "RATE_LIMIT_READS": "10000000", "METRICS": "false"}
    return subprocess.Popen(
        [PYTHON, "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning", "--no-access-log", "--backlog", "4096", "--ws-per-message-deflate", "false"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


async def ready(base: str) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(600):
            try:
                if (await client.get(base + "/api/v1/tournaments")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server never answered")


async def players(database_url: str, count: int) -> list[str]:
    """`count` accounts, each with a token to play (made by the account service itself)."""
    from app.accounts import Accounts
    from app.auth import PasswordChecks
    from app.config import get_settings
    from app.db import make_engine

    settings = get_settings().model_copy(update={"database_url": database_url})
    engine = make_engine(database_url)
    accounts = Accounts(engine, settings, PasswordChecks(1, 0))
    tokens = []
    try:
        for i in range(count):
            made = await accounts.sign_up(f"Bencher{i}", "a bench player's password", f"bench-{i}")
            token, _ = await accounts.create_token(made, "bench", ["play", "read"])
            tokens.append(token)
    finally:
        await engine.dispose()
    return tokens


class Spectators:
    def __init__(self) -> None:
        self.updates = 0
        self.bytes = 0
        self.counting = False
        self.sockets: list[Any] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def open(self, url: str, count: int) -> None:
        for start in range(0, count, 100):
            opened = await asyncio.gather(*(connect(url, compression=None, max_queue=None, ping_interval=None,
                                                    open_timeout=60) for _ in range(start, min(count, start + 100))))
            self.sockets += opened
            self.tasks += [asyncio.create_task(self._read(ws)) for ws in opened]

    async def _read(self, ws: Any) -> None:
        try:
            async for text in ws:
                if self.counting and text.startswith('{"type":"arena"'):
                    self.updates += 1
                    self.bytes += len(text.encode())
        except Exception:
            return

    async def close(self) -> None:
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)
        for task in self.tasks:
            task.cancel()


async def spectate(url: str, count: int) -> None:
    """The child's part: open `count` sockets, say "ready"; count from "count" on
    stdin until "stop", then print what was received."""
    watching = Spectators()
    await watching.open(url, count)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    for word in ("count", "stop"):
        line = await loop.run_in_executor(None, sys.stdin.readline)
        assert line.strip() == word, line
        watching.counting = word == "count"
    print(json.dumps({"updates": watching.updates, "bytes": watching.bytes}), flush=True)
    await watching.close()


class Watching:
    """The spectators' child process (bench/tournament_push.py --role spectators)."""

    def __init__(self, url: str, count: int) -> None:
        self.proc = subprocess.Popen([PYTHON, __file__, "--role", "spectators", "--url", url,
                                      "--spectators", str(count)], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, start_new_session=True)

    def wait_for(self, word: str) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if word and line.strip() != word:
            raise RuntimeError(f"the spectators said {line!r}")
        return line

    def say(self, word: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(word + "\n")
        self.proc.stdin.flush()


async def drive(base: str, tid: str, tokens: dict[str, str], seconds: float, gap: float) -> int:
    """Resign one running game every `gap` s for `seconds`; answers how many ended."""
    ended = 0
    async with httpx.AsyncClient(base_url=base + "/api/v1", timeout=30) as client:
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            began = time.monotonic()
            shown = (await client.get(f"/tournaments/{tid}")).json()
            for game in shown["pairings"]:
                if game["status"] == "playing":
                    answer = await client.post(f"/matches/{game['match']}/resign",
                                               headers={"Authorization": f"Bearer {tokens[game['white']]}"})
                    ended += answer.status_code == 200
                    break
            await asyncio.sleep(max(0.0, gap - (time.monotonic() - began)))
    return ended


async def get_cost(base: str, tid: str, pid: int, count: int = 200) -> float:
    """The server's CPU seconds for one GET /tournaments/{id} (what a polling page asks)."""
    async with httpx.AsyncClient(base_url=base + "/api/v1") as client:
        before = cpu_seconds(pid)
        for _ in range(count):
            (await client.get(f"/tournaments/{tid}")).raise_for_status()
        return (cpu_seconds(pid) - before) / count


async def main(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="tournament-push-"))
    database_url = f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start(port, database_url)
    try:
        await ready(base)
        tokens = await players(database_url, args.players)
        names = {f"Bencher{i}": t for i, t in enumerate(tokens)}
        async with httpx.AsyncClient(base_url=base + "/api/v1") as client:
            made = (await client.post("/tournaments", json={"name": "Bench Arena", "time_control": "5+3",
                                                             "minutes": 120, "rated": False},
                                      headers={"Authorization": f"Bearer {tokens[0]}"})).json()
            tid = made["id"]
            for token in tokens:
                (await client.post(f"/tournaments/{tid}/join",
                                   headers={"Authorization": f"Bearer {token}"})).raise_for_status()
        # The yardstick: the same games ending, nobody watching.
        before = cpu_seconds(server.pid)
        alone_ended = await drive(base, tid, names, args.seconds, args.gap)
        alone_cpu = cpu_seconds(server.pid) - before
        opening = time.monotonic()
        spectators = Watching(f"ws://127.0.0.1:{port}/api/v1/tournaments/{tid}/ws", args.spectators)
        await asyncio.get_running_loop().run_in_executor(None, spectators.wait_for, "ready")
        opened_in = time.monotonic() - opening
        await asyncio.sleep(2)  # the first pages sent
        spectators.say("count")
        before = cpu_seconds(server.pid)
        watched_ended = await drive(base, tid, names, args.seconds, args.gap)
        await asyncio.sleep(1)  # the last update's delivery
        watched_cpu = cpu_seconds(server.pid) - before
        spectators.say("stop")
        got = json.loads(await asyncio.get_running_loop().run_in_executor(None, spectators.wait_for, ""))
        spectators.proc.wait(60)
        per_get = await get_cost(base, tid, server.pid)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
    n = args.spectators
    updates_each = got["updates"] / n if n else 0.0
    alone_rate = alone_cpu / max(1, alone_ended)
    extra = watched_cpu - alone_rate * watched_ended
    polled = n / POLL_EVERY
    return {
        "spectators": n, "players": args.players, "seconds": args.seconds, "opened_in_s": round(opened_in, 2),
        "games_ended": {"alone": alone_ended, "watched": watched_ended},
        "updates_per_spectator": round(updates_each, 1),
        "updates_per_second": round(updates_each / args.seconds, 2),
        "bytes_per_update": round(got["bytes"] / max(1, got["updates"])),
        "server_cpu_s": {"alone": round(alone_cpu, 3), "watched": round(watched_cpu, 3),
                         "spectators_share": round(extra, 3)},
        "cpu_us_per_spectator_per_update": round(extra / max(1, got["updates"]) * 1e6, 2),
        "spectator_requests_per_s": 0.0,  # after opening, a spectator only reads its socket
        "polling_instead": {"requests_per_s": polled, "cpu_ms_per_get": round(per_get * 1000, 3),
                            "cpu_share_of_a_core": round(polled * per_get, 2)},
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--gap", type=float, default=0.25, help="seconds between two games' ends")
    parser.add_argument("--role", default="main", choices=["main", "spectators"], help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.role == "spectators":
        asyncio.run(spectate(options.url, options.spectators))
        sys.exit(0)
    signal.alarm(int(options.seconds * 2 + 600))  # bounded, whatever happens
    figures = asyncio.run(main(options))
    print(json.dumps(figures, indent=1))
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "tournament_push.json").write_text(json.dumps(figures, indent=1) + "\n")
