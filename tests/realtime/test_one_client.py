"""Issue 17, item 6: what one client may take of the sockets.

An address holds at most `ws_sockets_per_address` sockets per process (one
more is closed 1008 `too_many_sockets`), spectators are counted by distinct
watcher (one address watching from 40 tabs is one spectator), and the log says
so when the process's open files near its limit; the limit itself is raised
(compose sets 65,536, and the server takes its whole hard limit as it starts)."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.realtime.open_files import OpenFiles
from tests.conftest import Api

from .conftest import Closed, Socket, custom_app, ws_path


async def test_an_address_holds_at_most_its_cap_of_sockets(database_url: str) -> None:
    async with custom_app(database_url, ws_sockets_per_address=3) as (app, api):
        game = await api.start()
        held = [await Socket.open(app, ws_path(game.id), client="10.5.0.1") for _ in range(2)]
        held.append(await Socket.open(app, ws_path(game.id, token=game.tokens["white"]), client="10.5.0.1"))
        with pytest.raises(Closed) as refused:
            extra = await Socket.open(app, ws_path(game.id), client="10.5.0.1")
            await extra.receive()
        assert refused.value.code == 1008 and refused.value.reason.startswith("too_many_sockets")
        assert "3" in refused.value.reason
        other = await Socket.open(app, ws_path(game.id), client="10.5.0.2")  # another address is not held
        assert (await other.receive())["type"] == "snapshot"
        await held[0].close()
        again = await Socket.open(app, ws_path(game.id), client="10.5.0.1")  # its place is free again
        assert (await again.receive())["type"] == "snapshot"
        await again.close()
        # A socket refused for its match (not found) frees its place too: the one
        # place left is refused and freed, again and again.
        for _ in range(3):
            with pytest.raises(Closed) as missing:
                gone = await Socket.open(app, ws_path("nosuchmatch1"), client="10.5.0.1")
                await gone.receive()
            assert missing.value.code == 1008 and missing.value.reason.startswith("not_found")
        for sock in [*held, other]:
            await sock.close()


async def test_spectators_are_counted_by_distinct_watcher(api: Api, sockets: Any) -> None:
    game = await api.start()
    tabs = [await sockets(game.id, client="10.6.0.1") for _ in range(4)]
    assert (await tabs[0].receive())["match"]["spectators"] == 1
    assert (await tabs[-1].receive())["match"]["spectators"] == 1  # four sockets, one watcher
    other = await sockets(game.id, client="10.6.0.2")
    assert (await other.receive())["match"]["spectators"] == 2
    for tab in tabs[:3]:
        await tab.close()
    assert (await sockets(game.id, client="10.6.0.3")).scope  # a third watcher
    presence, _ = await other.receive_until(lambda m: m["type"] == "presence" and m["spectators"] == 3)
    await tabs[3].close()  # the first watcher's last socket: now it is gone
    presence, _ = await other.receive_until(lambda m: m["type"] == "presence" and m["spectators"] == 2)


async def test_the_log_says_when_open_files_near_the_limit(database_url: str,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    held = {"n": 100}
    async with custom_app(database_url) as (app, api):
        app.state.parts.hub.open_files = OpenFiles(0.8, count=lambda: held["n"], limit=lambda: 1000,
                                                   every_seconds=0)
        game = await api.start()
        with caplog.at_level(logging.WARNING, logger="magery.realtime"):
            quiet = await Socket.open(app, ws_path(game.id), client="10.7.0.1")
            assert not [r for r in caplog.records if "open files" in r.getMessage()]
            held["n"] = 850
            near = [await Socket.open(app, ws_path(game.id), client=f"10.7.0.{i}") for i in (2, 3)]
        lines = [r for r in caplog.records if "open files" in r.getMessage()]
        assert len(lines) == 1, lines  # once per crossing, not once per socket
        assert "850 of this process's limit of 1000" in lines[0].getMessage() and lines[0].levelname == "WARNING"
        for sock in [quiet, *near]:
            await sock.close()


def test_open_files_warn_once_per_crossing(caplog: pytest.LogCaptureFixture) -> None:
    held = {"n": 0}
    files = OpenFiles(0.8, count=lambda: held["n"], limit=lambda: 1024, every_seconds=0)
    with caplog.at_level(logging.WARNING, logger="magery.realtime"):
        for n in (500, 820, 900, 1000, 850, 600, 830):
            held["n"] = n
            files.check()
    said = [r.getMessage().split(":")[1].split(" of")[0].strip() for r in caplog.records if "open files" in r.getMessage()]
    assert said == ["820", "830"]


ROOT = Path(__file__).resolve().parents[2]


def test_compose_gives_the_replicas_and_the_proxy_65536_open_files() -> None:
    """At Docker's usual 1,024, 974 sockets of one address left every other client refused."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name in ("app1", "app2", "proxy"):
        assert services[name]["ulimits"]["nofile"] == {"soft": 65536, "hard": 65536}, name


def test_the_server_takes_its_whole_hard_limit_of_open_files() -> None:
    """In a process of its own (the test run's limit is left alone), started at a soft limit of 256."""
    code = ("import resource\n"
            "from app.realtime.open_files import raise_soft_limit\n"
            "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]\n"
            "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))\n"
            "raise_soft_limit()\n"
            "print(*resource.getrlimit(resource.RLIMIT_NOFILE))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    soft, hard = done.stdout.split()
    assert soft == hard != "256", done.stdout  # raised from 256 to the whole hard limit
