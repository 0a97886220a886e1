"""A redis-server of a test module's own (the `redis_process` fixture in
conftest.py), for the tests that restart or inspect it: the suite's shared Redis
is left alone."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess

import pytest
import redis

from tests.waiting import until_sync


class RedisProcess:
    """A redis-server of the test's own on a free port, keeping nothing on disk."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            message = "redis-server is not installed (scripts/redis-server installs it)"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(message)
            pytest.skip(message)
        self.binary = binary
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        until_sync(self._answers, "redis-server to answer", every=0.05)

    def _answers(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {self.proc.returncode}")
        try:
            client = redis.Redis(port=self.port, socket_connect_timeout=1)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except redis.ConnectionError:
            return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)

    def subscribers(self, channel: str) -> int:
        client = redis.Redis(port=self.port, decode_responses=True)
        try:
            return int(dict(client.pubsub_numsub(channel))[channel])
        finally:
            client.close()
