"""Websocket frames on a real server started with scripts/serve's uvicorn
options: a frame over the app's limit (16 KiB) is closed 1009 by the app,
naming the limit; a far bigger one is closed 1009 by uvicorn before the app
reads it (scripts/serve lowers uvicorn's 16 MiB default), and the server
goes on answering."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.ops.conftest import ROOT, Server


def serve_options() -> list[str]:
    """The uvicorn options scripts/serve passes (the exec line, continuation joined)."""
    text = (ROOT / "scripts" / "serve").read_text().replace("\\\n", " ")
    line = next(x for x in text.splitlines() if x.startswith("exec ") and "uvicorn" in x)
    words = shlex.split(line)
    options = words[words.index("app.main:create_app") + 1:]
    keep, i = [], 0
    while i < len(options):  # the address options come from the test's Server
        if options[i] in ("--host", "--port"):
            i += 2
            continue
        if options[i] != "$@":
            keep.append(options[i])
        i += 1
    return keep


def test_scripts_serve_caps_uvicorns_frames() -> None:
    options = serve_options()
    cap = int(options[options.index("--ws-max-size") + 1])
    assert 16 * 1024 < cap <= 4 * 1024 * 1024  # above the app's limit, far below uvicorn's 16 MiB


def test_scripts_serve_leaves_the_pings_to_the_hub() -> None:
    """uvicorn's protocol pings are off: the hub's own ping (WS_PING_SECONDS) is
    what keeps a socket and judges it dead, and a protocol pong never reaches it."""
    options = serve_options()
    assert options[options.index("--ws-ping-interval") + 1] == "0"


async def closed_with(url: str, size: int) -> tuple[int, str]:
    async with connect(url, max_size=None) as sock:
        await sock.recv()  # the hello
        await sock.recv()  # the snapshot
        with pytest.raises(ConnectionClosed) as closed:
            # A frame far over the cap may be refused while it is still being sent.
            await sock.send("x" * size)
            for _ in range(10):
                await sock.recv()
    frame = closed.value.rcvd
    assert frame is not None
    return frame.code, frame.reason


async def test_big_frames_are_closed_1009_by_the_app_then_by_uvicorn(tmp_path: Path) -> None:
    server = Server(f"sqlite+aiosqlite:///{tmp_path}/f.sqlite3", tmp_path / "server.log",
                    extra_args=tuple(serve_options())).wait_ready()
    try:
        async with httpx.AsyncClient(base_url=server.base) as http:
            made = (await http.post("/api/v1/matches", json={})).json()
            url = server.ws(f"/api/v1/matches/{made['match']['id']}/ws")
            code, reason = await closed_with(url, 20 * 1024)
            assert code == 1009 and re.search(r"frame over 16384 bytes", reason), (code, reason)
            code, reason = await closed_with(url, 2 * 1024 * 1024)
            assert code == 1009 and "16384" not in reason, (code, reason)  # uvicorn's refusal, not the app's
            assert (await http.get(f"/api/v1/matches/{made['match']['id']}")).status_code == 200
    finally:
        server.stop()
