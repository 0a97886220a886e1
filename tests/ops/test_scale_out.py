"""docker-compose.yml's scale-out without Docker: two real server processes on
one PostgreSQL behind Caddy run with the repository's own deploy/Caddyfile.
A player whose socket landed on one replica and a player whose socket landed
on the other see each other's moves live, through the proxy. Skipped without
PostgreSQL or caddy (failed under CI=true)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.conftest import ROW
from tests.ops.conftest import ROOT, Server, free_port, metric, need
from tests.waiting import DEADLINE, until, until_sync


class Proxy:
    """`caddy run` on deploy/Caddyfile, in front of `upstreams`."""

    def __init__(self, upstreams: list[Server], home: Path) -> None:
        caddy = need("caddy", "the reverse proxy of docker-compose.yml")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home),
               "PROXY_PORT": str(self.port),
               "MAGERY_UPSTREAMS": " ".join(f"127.0.0.1:{s.port}" for s in upstreams)}
        self.log = (home / "caddy.log").open("wb")
        self.proc = subprocess.Popen(
            [caddy, "run", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
            cwd=home, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        until_sync(self._ready, "caddy to pass /readyz on", every=0.1)

    def _ready(self) -> bool:
        assert self.proc.poll() is None, "caddy exited"
        with contextlib.suppress(httpx.HTTPError):
            return httpx.get(f"{self.base}/readyz", timeout=5).status_code == 200
        return False

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.log.close()


@pytest.fixture(scope="module")
def stack(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Proxy, Server, Server]]:
    home = tmp_path_factory.mktemp("scale-out")
    need("caddy", "the reverse proxy of docker-compose.yml")
    a = Server(postgres_url, home / "a.log", level="warning")
    b = Server(postgres_url, home / "b.log", level="warning")
    proxy = None
    try:
        a.wait_ready()
        b.wait_ready()
        proxy = Proxy([a, b], home)
        proxy.wait_ready()
        yield proxy, a, b
    finally:
        if proxy is not None:
            proxy.stop()
        a.stop()
        b.stop()


async def seats_on(server: Server) -> int:
    async with httpx.AsyncClient(timeout=DEADLINE) as http:
        return int(metric((await http.get(f"{server.base}/metrics")).text, "magery_open_sockets", kind="seat"))


async def _seats(a: Server, b: Server, count: int) -> bool:
    return await seats_on(a) + await seats_on(b) == count


async def next_message(ws: ClientConnection, kind: str, timeout: float = 10) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message


async def test_players_on_two_replicas_see_each_other_through_the_proxy(
        stack: tuple[Proxy, Server, Server]) -> None:
    proxy, a, b = stack
    async with httpx.AsyncClient(base_url=proxy.base, timeout=DEADLINE) as http:
        made = (await http.post("/api/v1/matches", json={"options": {}, "seat": "white", "name": "A"})).json()
        match_id = made["match"]["id"]
        joined = (await http.post(f"/api/v1/matches/{match_id}/join", json={"name": "B"})).json()
        assert (await http.get("/metrics")).status_code == 404  # scraped inside, never through the proxy
    ws = f"ws://127.0.0.1:{proxy.port}/api/v1/matches/{match_id}/ws"
    async with contextlib.AsyncExitStack() as opened:
        white = await opened.enter_async_context(connect(f"{ws}?token={made['token']}"))
        await next_message(white, "snapshot")
        white_on_a = await seats_on(a) == 1
        assert white_on_a or await seats_on(b) == 1
        black = None
        for _ in range(10):  # round robin: the next socket lands on the other replica, or soon will
            sock = await opened.enter_async_context(connect(f"{ws}?token={joined['token']}"))
            await next_message(sock, "snapshot")
            if (await seats_on(a), await seats_on(b)) == (1, 1):
                black = sock
                break
            await sock.close()
            await until(lambda: _seats(a, b, 1), "the closed socket's seat to be let go")
        assert black is not None, "no socket landed on the second replica"
        # White moves over its socket on one replica; Black's socket on the other hears it.
        await white.send(json.dumps({"type": "action", "action": {"type": "setup", "backrow": ROW},
                                     "version": 1, "id": "w1"}))
        assert (await next_message(white, "ack"))["version"] == 2
        update = await next_message(black, "update")
        assert update["version"] == 2 and update["player"] == "white"
        # And the other way round.
        await black.send(json.dumps({"type": "action", "action": {"type": "setup", "backrow": ROW},
                                     "version": 2, "id": "b1"}))
        assert (await next_message(black, "ack"))["version"] == 3
        update = await next_message(white, "update")
        assert update["version"] == 3 and update["player"] == "black"
        assert update["match"]["players"]["black"]["connected"] is True  # presence crosses too
