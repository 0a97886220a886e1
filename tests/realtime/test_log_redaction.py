"""A seat's token rides in the websocket URL (browsers cannot set headers on a
socket); uvicorn logs that URL. A real server at log level info must not write
the token anywhere."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from app.redact import RedactTokens, redact
from tests.serving import listening_socket
from tests.waiting import STARTING, until

from .test_processes import ROOT


def test_redact_rewrites_every_token_value() -> None:
    assert redact("/api/v1/matches/a/ws?since=3&token=Abc-_12&x=1") == \
        "/api/v1/matches/a/ws?since=3&token=[redacted]&x=1"
    assert redact('"WebSocket /m/ws?TOKEN=zz" 403') == '"WebSocket /m/ws?TOKEN=[redacted]" 403'
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s"',
                               ("1.2.3.4:5", "/ws?token=s3cret"), None)
    assert RedactTokens().filter(record) and "s3cret" not in record.getMessage()


async def test_a_real_server_logs_no_seat_token(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/m.sqlite3",
           "PYTHONPATH": str(ROOT)}
    with listening_socket() as sock:  # held, not a port let go: see tests/serving.py
        port = int(sock.getsockname()[1])
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--fd", str(sock.fileno()),
             "--log-level", "info"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=(sock.fileno(),))
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            async def answers() -> bool:
                if proc.poll() is not None:
                    raise RuntimeError(f"server exited:\n{proc.stdout.read().decode() if proc.stdout else ''}")
                try:
                    return (await http.get("/api/v1/matches?limit=1")).status_code == 200
                except httpx.HTTPError:
                    return False

            await until(answers, "the server to answer", seconds=STARTING, every=0.1)
            created = (await http.post("/api/v1/matches", json={"options": {}, "seat": "white"})).json()
        token, match_id = created["token"], created["match"]["id"]
        async with connect(f"ws://127.0.0.1:{port}/api/v1/matches/{match_id}/ws?token={token}") as ws:
            assert '"hello"' in await asyncio.wait_for(ws.recv(), 10)
            assert '"snapshot"' in await asyncio.wait_for(ws.recv(), 10)
        async with connect(f"ws://127.0.0.1:{port}/api/v1/matches/{match_id}/ws?token=wrong{token}") as ws:
            await asyncio.wait_for(ws.wait_closed(), 10)
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=15)
    log = out.decode()
    assert "WebSocket /api/v1/matches/" in log  # the sockets were logged...
    assert "token=[redacted]" in log
    assert token not in log  # ...without the token
