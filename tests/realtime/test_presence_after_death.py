"""Issue 12, defect 7: after a server process dies, the sockets on the survivor
and REST agree on who is connected. A seat held by a process gone silent is
judged by the same rule, on the same timestamps, as GET /matches/{id} shows
(app/matches/record.py `seat_here`): the survivor's sockets hear "white
disconnected" only once REST says so too, and soon after it does.

Two real uvicorn processes on one PostgreSQL, with short heartbeats; one of
them is killed with SIGKILL (no goodbye). Skipped without PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from ..waiting import DEADLINE, until
from .test_processes import Server, two_servers

FAST = {"ws_ping_seconds": "0.3", "ws_dead_after_seconds": "1.5", "touch_seconds": "0.1"}


@pytest.fixture
def two(postgres_url: str) -> Iterator[tuple[Server, Server]]:
    with two_servers(postgres_url, **FAST) as both:
        yield both


async def _presence(ws: Any, colour: str, connected: bool) -> None:
    """Read until a presence (or snapshot) says `colour` is (not) connected."""
    async with asyncio.timeout(DEADLINE):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "ping":
                await ws.send('{"type": "pong"}')
                continue
            players = message.get("players") or (message.get("match") or {}).get("players")
            assert players is None or isinstance(players[colour], dict), message
            if players and players[colour]["connected"] is connected:
                return


async def test_sockets_and_rest_agree_when_a_process_dies(two: tuple[Server, Server]) -> None:
    doomed, survivor = two
    async with httpx.AsyncClient(timeout=10) as http:
        base = f"{survivor.base}/api/v1/matches"
        r = await http.post(base, json={"seat": "white", "name": "W"})
        match_id, white = r.json()["match"]["id"], r.json()["token"]
        black = (await http.post(f"{base}/{match_id}/join", json={"name": "B"})).json()["token"]

        async def rest_says() -> bool:
            return bool((await http.get(f"{base}/{match_id}")).json()["players"]["white"]["connected"])

        async with connect(doomed.ws(match_id, token=white)) as white_ws, \
                connect(survivor.ws(match_id, token=black)) as black_ws:
            await _presence(black_ws, "white", True)
            await until(rest_says, "the doomed process to note the seat in the database")
            doomed.proc.send_signal(signal.SIGKILL)  # no goodbye: its socket, its heartbeat, gone
            doomed.proc.wait(10)
            await _presence(black_ws, "white", False)
            assert not await rest_says()  # the socket heard it no earlier than REST says it
            assert white_ws is not None
