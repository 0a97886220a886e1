"""Helpers for the operations tests: a real server process (uvicorn, as
scripts/serve starts it) whose log goes to a file, and `need`, which skips a
test for a missing tool with the reason, or fails it under CI=true, where
scripts/ops-tools has installed the tools."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serving import listening_socket
from tests.waiting import STARTING, NeverHappened, until_sync

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def need(tool: str, why: str) -> str:
    """The path of `tool`, or skip (fail under CI=true) saying what it was for."""
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} is not installed ({why}); scripts/ops-tools installs it from Debian"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


class Server:
    """`python -m uvicorn --factory app.main:create_app` on a socket of a free port, its output in `log`."""

    def __init__(self, database_url: str, log: Path, *, cwd: Path = ROOT, level: str = "info",
                 extra_args: tuple[str, ...] = (), **settings: Any) -> None:
        listener = listening_socket()  # handed to uvicorn (--fd): see tests/serving.py
        self.port = int(listener.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = {**os.environ, "DATABASE_URL": database_url, "RATE_LIMIT_WRITES": "1000000", "RATE_LIMIT_READS": "1000000",
               "BOT_DELAY_SECONDS": "0", "PYTHONPATH": str(cwd),
               "READY_TIMEOUT_SECONDS": "60",  # /readyz: as make_settings, a minute for the database
               **{k.upper(): str(v) for k, v in settings.items()}}
        self._out = log.open("wb")
        with listener:  # the child holds its own copy
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--fd", str(listener.fileno()),
                 "--log-level", level, "--ws-per-message-deflate", "false", *extra_args],
                cwd=cwd, env=env, stdout=self._out, stderr=subprocess.STDOUT, pass_fds=(listener.fileno(),))

    def wait_ready(self) -> Server:
        try:
            until_sync(self._ready, "the server to answer /readyz", seconds=STARTING, every=0.1)
        except NeverHappened as stuck:
            raise NeverHappened(f"{stuck}:\n{self.text()[-3000:]}") from None
        return self

    def _ready(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(f"server exited:\n{self.text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            return httpx.get(f"{self.base}/readyz", timeout=5).status_code == 200
        return False

    def ws(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def text(self) -> str:
        if not self._out.closed:
            self._out.flush()
        return self.log.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGINT, timeout: float = 15.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._out.close()
        return int(self.proc.returncode)


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a Prometheus text page (0 when absent)."""
    from prometheus_client.parser import text_string_to_metric_families

    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


@pytest.fixture
async def sockets(app: Any) -> AsyncIterator[Callable[..., Any]]:
    """As in tests/realtime: `await sockets(match_id, token=...)` opens an in-process socket."""
    from tests.realtime.conftest import Socket, ws_path

    opened: list[Socket] = []

    async def open_socket(match_id: str, **query: Any) -> Socket:
        sock = await Socket.open(app, ws_path(match_id, **query))
        opened.append(sock)
        return sock

    yield open_socket
    for sock in opened:
        await sock.close()
