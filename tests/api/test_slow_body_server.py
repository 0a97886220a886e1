"""Issue 17, item 13, against a real uvicorn: a client that declares a 60,000
byte body and sends a byte of it is answered 408 and its connection closed,
and the server serves others meanwhile."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx

from tests.realtime.test_processes import Server


def test_a_trickled_body_is_answered_408_and_the_connection_closed(tmp_path: Path) -> None:
    server = Server(f"sqlite+aiosqlite:///{tmp_path / 'slow.sqlite3'}", body_timeout_seconds="0.5")
    try:
        server.wait_ready()
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as slow:
            slow.sendall(b"POST /api/v1/matches HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 60000\r\n\r\n[")
            assert httpx.get(f"{server.base}/healthz", timeout=30).status_code == 200  # others are served
            answer = b""
            while chunk := slow.recv(65536):  # until the server closes the connection (a deadline: the timeout)
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"request_timeout" in answer and b"connection: close" in answer.lower()
    finally:
        server.stop()
