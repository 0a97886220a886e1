"""Two real uvicorn processes on one PostgreSQL database: an action made through
one reaches the sockets of the other, in order; reconnects replay; a lost LISTEN
link heals; a stopping server says 1001; a match's stream of JSON lines follows and
resumes across them, as does an account's event stream, and both come through a
restart of their process (`Server.stop()`, then `start()` again). Skipped without
PostgreSQL (failed under CI=true)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.accounts import Accounts
from app.auth import PasswordChecks
from app.db.engine import make_engine
from app.realtime.postgres import LISTENER_NAME
from tests.conftest import _asyncpg_dsn, make_settings
from tests.serving import listening_socket
from tests.waiting import DEADLINE, STARTING, until_sync

ROOT = Path(__file__).resolve().parents[2]


class Server:
    def __init__(self, database_url: str, **settings: str) -> None:
        self.env = {**os.environ, "DATABASE_URL": database_url, "RATE_LIMIT_WRITES": "1000000",
                    "RATE_LIMIT_READS": "1000000", "BOT_DELAY_SECONDS": "0", "PYTHONPATH": str(ROOT),
                    **{name.upper(): value for name, value in settings.items()}}
        self.start()

    def start(self) -> None:
        """A process of its own on a port of its own; again after `stop()`, a new
        process (a restart: the same database and settings, another port)."""
        with listening_socket() as sock:  # see tests/serving.py
            self.port = int(sock.getsockname()[1])
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--fd", str(sock.fileno()),
                 "--log-level", "warning"],
                cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                pass_fds=(sock.fileno(),))
        self.base = f"http://127.0.0.1:{self.port}"

    def wait_ready(self) -> None:
        until_sync(self._ready, "the server to answer", seconds=STARTING, every=0.1)

    def _ready(self) -> bool:
        if self.proc.poll() is not None:
            err = self.proc.stderr.read().decode() if self.proc.stderr else ""
            raise RuntimeError(f"server exited:\n{err[-2000:]}")
        with contextlib.suppress(httpx.HTTPError):
            return httpx.get(f"{self.base}/api/v1/matches?limit=1", timeout=5).status_code == 200
        return False

    def ws(self, match_id: str, **query: Any) -> str:
        q = "&".join(f"{k}={v}" for k, v in query.items() if v is not None)
        return f"ws://127.0.0.1:{self.port}/api/v1/matches/{match_id}/ws" + (f"?{q}" if q else "")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@contextlib.contextmanager
def two_servers(database_url: str, **settings: str) -> Iterator[tuple[Server, Server]]:
    """Two server processes on one database with the same settings, both answering;
    both stopped after, whatever happened (the second is started before the first
    is waited for, so their starts overlap)."""
    a = Server(database_url, **settings)
    try:
        b = Server(database_url, **settings)
    except BaseException:
        a.stop()
        raise
    try:
        a.wait_ready()
        b.wait_ready()
        yield a, b
    finally:
        a.stop()
        b.stop()


@pytest.fixture(scope="module")
def servers(postgres_url: str) -> Iterator[tuple[Server, Server]]:
    with two_servers(postgres_url) as both:
        yield both


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=10) as client:
        yield client


class Match:
    """A match played through REST on one server, random legal actions."""

    def __init__(self, http: httpx.AsyncClient, base: str, seed: int) -> None:
        self.http, self.base, self.rng = http, base + "/api/v1/matches", random.Random(seed)
        self.tokens: dict[str, str] = {}

    async def start(self) -> Match:
        r = await self.http.post(self.base, json={"options": {}, "seat": "white", "name": "A"})
        assert r.status_code == 201, r.text
        self.id, self.tokens["white"] = r.json()["match"]["id"], r.json()["token"]
        r = await self.http.post(f"{self.base}/{self.id}/join", json={"name": "B"})
        self.tokens["black"], self.state = r.json()["token"], r.json()["match"]
        return self

    async def act(self) -> int:
        colour = self.state["to_move"]
        auth = {"Authorization": f"Bearer {self.tokens[colour]}"}
        legal = (await self.http.get(f"{self.base}/{self.id}/legal", headers=auth)).json()
        if legal["setup"]:
            action = {"type": "setup", "backrow": self.rng.sample(legal["setup"], 8)}
        else:
            action = self.rng.choice(legal["actions"])
        r = await self.http.post(f"{self.base}/{self.id}/actions", headers=auth,
                                 json={"action": action, "version": self.state["version"]})
        assert r.status_code == 200, r.text
        self.state = r.json()["match"]
        return int(self.state["version"])


async def updates_until(ws: ClientConnection, version: int, timeout: float = DEADLINE) -> list[dict[str, Any]]:
    """Snapshot and update messages up to `version`."""
    got: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "snapshot":
                got.append(message)
                if message["match"]["version"] >= version:
                    return got
            elif message["type"] == "update":
                got.append(message)
                if message["version"] >= version:
                    return got
            elif message["type"] == "ping":
                await ws.send('{"type": "pong"}')


def versions(messages: list[dict[str, Any]]) -> list[int]:
    return [m["version"] if m["type"] == "update" else m["match"]["version"] for m in messages]


async def test_an_action_on_one_process_reaches_sockets_on_the_other_in_order(
        servers: tuple[Server, Server], http: httpx.AsyncClient) -> None:
    a, b = servers
    match = await Match(http, a.base, 1).start()
    async with connect(b.ws(match.id)) as watcher:
        first = (await updates_until(watcher, match.state["version"]))[0]
        assert first["type"] == "snapshot"
        for _ in range(15):
            await match.act()
        got = await updates_until(watcher, match.state["version"])
        assert versions(got) == list(range(first["match"]["version"] + 1, match.state["version"] + 1))
        assert got[-1]["match"]["arena"] == match.state["arena"]
        # And the other way round: a seat acting over a socket on B, watched from A.
        async with connect(a.ws(match.id)) as on_a, \
                connect(b.ws(match.id, token=match.tokens[match.state["to_move"]])) as seat:
            await updates_until(on_a, match.state["version"])
            await updates_until(seat, match.state["version"])
            legal = (await http.get(f"{a.base}/api/v1/matches/{match.id}/legal", headers={
                "Authorization": f"Bearer {match.tokens[match.state['to_move']]}"})).json()
            action = legal["actions"][0] if legal["actions"] else {
                "type": "setup", "backrow": legal["setup"]}
            await seat.send(json.dumps({"type": "action", "action": action,
                                        "version": match.state["version"], "id": "s1"}))
            seen = await updates_until(on_a, match.state["version"] + 1)
            assert versions(seen)[0] == match.state["version"] + 1
            async with asyncio.timeout(DEADLINE):
                while (reply := json.loads(await seat.recv()))["type"] != "ack":
                    assert reply["type"] != "error", reply
            assert reply["id"] == "s1" and reply["version"] >= match.state["version"] + 1


async def test_a_reconnect_on_the_other_process_replays_what_was_missed(
        servers: tuple[Server, Server], http: httpx.AsyncClient) -> None:
    a, b = servers
    match = await Match(http, a.base, 2).start()
    held = match.state["version"]
    for rounds in range(3):
        for _ in range(4):
            await match.act()
        async with connect(b.ws(match.id, since=held)) as ws:
            got = await updates_until(ws, match.state["version"])
            assert [m["type"] for m in got] == ["update"] * len(got), rounds
            assert versions(got) == list(range(held + 1, match.state["version"] + 1))
            held = versions(got)[-1]


async def test_a_lost_listen_connection_comes_back_and_catches_up(
        servers: tuple[Server, Server], http: httpx.AsyncClient, postgres_url: str) -> None:
    a, b = servers
    match = await Match(http, a.base, 3).start()
    async with connect(b.ws(match.id)) as watcher:
        start = versions(await updates_until(watcher, match.state["version"]))[-1]
        conn = await asyncpg.connect(_asyncpg_dsn(postgres_url))
        try:  # cut every LISTEN link (both processes'), then act at once
            cut = await conn.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND application_name = $1", LISTENER_NAME)
            assert cut >= 1
        finally:
            await conn.close()
        for _ in range(5):
            await match.act()
        got = await updates_until(watcher, match.state["version"])
        assert versions(got) == list(range(start + 1, match.state["version"] + 1))


async def test_a_stopping_server_closes_its_sockets_with_1001(
        postgres_url: str, http: httpx.AsyncClient) -> None:
    c = Server(postgres_url)
    try:
        await asyncio.to_thread(c.wait_ready)
        match = await Match(http, c.base, 4).start()
        async with connect(c.ws(match.id)) as ws:
            await ws.recv()
            c.proc.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                async with asyncio.timeout(DEADLINE):
                    while True:
                        await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    finally:
        c.stop()


async def test_both_seats_pressing_rematch_on_two_processes_make_one_that_both_sockets_hear(
        servers: tuple[Server, Server], http: httpx.AsyncClient, postgres_url: str) -> None:
    """Issue 16: White presses Rematch through one process, Black through the
    other, at once: one rematch, each seat handed one token of its own, and the
    socket of each seat (on either process) told the rematch's id."""
    a, b = servers
    for round_ in range(5):
        match = await Match(http, a.base, 20 + round_).start()
        auth = {c: {"Authorization": f"Bearer {t}"} for c, t in match.tokens.items()}
        r = await http.post(f"{a.base}/api/v1/matches/{match.id}/resign", headers=auth["black"])
        over = r.json()["match"]["version"]
        async with connect(a.ws(match.id, token=match.tokens["white"])) as white, \
                connect(b.ws(match.id, token=match.tokens["black"])) as black:
            await updates_until(white, over)
            await updates_until(black, over)
            answers = await asyncio.gather(
                http.post(f"{a.base}/api/v1/matches/{match.id}/rematch", headers=auth["white"]),
                http.post(f"{b.base}/api/v1/matches/{match.id}/rematch", headers=auth["black"]))
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            seats = [r.json()["rematch"] for r in answers]
            made = {s["match_id"] for s in seats} - {None}
            assert len(made) == 1, seats
            new_id = made.pop()
            for ws in (white, black):
                heard = await updates_until(ws, over + 2)
                assert heard[-1]["match"]["rematch"]["match_id"] == new_id
                assert all(s["token"] not in json.dumps(heard) for s in seats)
        assert [s["seat"] for s in seats] == ["black", "white"] and all(s["token"] for s in seats)
        for seat, server in zip(seats, (b, a), strict=True):  # each token proves its seat, on either process
            r = await http.get(f"{server.base}/api/v1/matches/{new_id}/legal",
                               headers={"Authorization": f"Bearer {seat['token']}"})
            assert r.status_code == 200 and bool(r.json()["setup"]) == (seat["seat"] == "white"), r.text
        conn = await asyncpg.connect(_asyncpg_dsn(postgres_url))
        try:
            assert await conn.fetchval("SELECT count(*) FROM matches WHERE rematch_of = $1", match.id) == 1
        finally:
            await conn.close()


# Issue 21: a match as a stream of JSON lines. Here to share this module's two
# servers: two more would cost some 20 s of start-up on a busy machine.

async def stream_states(lines: AsyncIterator[str], upto: int) -> list[dict[str, Any]]:
    """The snapshot and update lines of a match's stream, up to the one at version `upto`."""
    got: list[dict[str, Any]] = []
    async with asyncio.timeout(DEADLINE):
        async for line in lines:
            message = json.loads(line)
            if message["type"] not in ("snapshot", "update"):
                continue
            got.append(message)
            if message["match"]["version"] >= upto:
                return got
    raise AssertionError(f"the stream ended before version {upto}")


async def test_a_stream_on_one_process_follows_and_resumes_moves_made_on_the_other(
        servers: tuple[Server, Server], http: httpx.AsyncClient) -> None:
    a, b = servers
    match = await Match(http, a.base, 21).start()
    url = f"{b.base}/api/v1/matches/{match.id}/stream"
    async with http.stream("GET", url) as first:
        assert first.status_code == 200 and first.headers["content-type"].startswith("application/x-ndjson")
        lines = first.aiter_lines()
        snapshot = (await stream_states(lines, match.state["version"]))[0]
        assert snapshot["type"] == "snapshot"
        for _ in range(3):
            await match.act()  # through A
        got = await stream_states(lines, match.state["version"])
    held = got[-1]["version"]
    assert [m["version"] for m in got] == list(range(snapshot["match"]["version"] + 1, held + 1))
    for _ in range(4):
        await match.act()  # while the client is away
    async with http.stream("GET", url, params={"since": held}) as again:
        resumed = await stream_states(again.aiter_lines(), match.state["version"])
    assert [m["type"] for m in resumed] == ["update"] * len(resumed)
    assert [m["version"] for m in resumed] == list(range(held + 1, match.state["version"] + 1))


# Issue 21: an account's events as a stream of JSON lines, on the same two servers.

async def account_tokens(postgres_url: str, *names: str) -> dict[str, dict[str, str]]:
    """Accounts of these names, each with an account token (its Authorization header)."""
    engine = make_engine(postgres_url, pool_size=1, max_overflow=0)
    try:
        accounts = Accounts(engine, make_settings(postgres_url), PasswordChecks(1, 0))
        tokens = {}
        for name in names:
            account = await accounts.sign_up(name, "correct horse battery", f"10.8.0.1-{name}")
            tokens[name] = {"Authorization": f"Bearer {(await accounts.create_token(account, 'bot', ['play']))[0]}"}
    finally:
        await engine.dispose()
    return tokens


async def next_event(lines: AsyncIterator[str]) -> dict[str, Any]:
    """The next line of an event stream that is not a keep-alive (nor an inbox
    notice: tests/notify tells of those)."""
    async with asyncio.timeout(DEADLINE):
        async for line in lines:
            if json.loads(line)["type"] not in ("ping", "notification"):
                return dict(json.loads(line))
    raise AssertionError("the event stream ended")


async def test_an_event_stream_on_one_process_hears_a_challenge_and_its_match_made_on_the_other(
        servers: tuple[Server, Server], http: httpx.AsyncClient, postgres_url: str) -> None:
    a, b = servers
    tokens = await account_tokens(postgres_url, "Ev1", "Ev2")
    async with http.stream("GET", f"{b.base}/api/v1/stream/events", headers=tokens["Ev2"]) as events:
        assert events.status_code == 200 and events.headers["content-type"].startswith("application/x-ndjson")
        lines = events.aiter_lines()
        r = await http.post(f"{a.base}/api/v1/challenges/Ev2", json={}, headers=tokens["Ev1"])
        assert r.status_code == 201, r.text
        heard = await next_event(lines)
        assert heard["type"] == "challenge" and heard["challenge"]["id"] == r.json()["id"]
        r = await http.post(f"{a.base}/api/v1/challenges/{r.json()['id']}/accept", headers=tokens["Ev2"])
        assert r.status_code == 200, r.text
        started = await next_event(lines)
        assert started["type"] == "matchStart" and started["match"]["id"] == r.json()["match_id"]


# Issue 21: "both streams ... survive a process restart by resuming". One restart
# of A serves both streams: a start-up is the dear part of this module.

async def to_the_end(lines: AsyncIterator[str]) -> list[dict[str, Any]]:
    """The rest of a stream, keep-alives left out, to its end. A process killed in
    the middle of an answer raises here (httpx: incomplete chunked read)."""
    async with asyncio.timeout(DEADLINE):
        return [json.loads(line) async for line in lines
                if line and json.loads(line)["type"] not in ("ping", "notification")]


async def test_both_streams_survive_a_restart_of_their_process_losing_nothing_and_nothing_twice(
        servers: tuple[Server, Server], http: httpx.AsyncClient, postgres_url: str) -> None:
    """A client reads a match's stream and its account's events from A; A stops
    while moves and challenges go on through B. Each stream's last line says
    `closing` (never a finished match); the match stream resumes on B with
    `?since=` (every version once), the events stream opens again on A restarted
    (the opening picture holds what came meanwhile; nothing said before comes again)."""
    a, b = servers
    tokens = await account_tokens(postgres_url, "Rs1", "Rs2")
    match = await Match(http, b.base, 23).start()
    challenges = f"{b.base}/api/v1/challenges"
    try:
        async with http.stream("GET", f"{a.base}/api/v1/matches/{match.id}/stream") as on_a, \
                http.stream("GET", f"{a.base}/api/v1/stream/events", headers=tokens["Rs2"]) as events_on_a:
            lines, events = on_a.aiter_lines(), events_on_a.aiter_lines()
            got = await stream_states(lines, match.state["version"])
            for _ in range(3):
                await match.act()  # through B
            got += await stream_states(lines, match.state["version"])
            r = await http.post(f"{challenges}/Rs2", json={}, headers=tokens["Rs1"])
            first = r.json()["id"]
            assert (await next_event(events))["challenge"]["id"] == first
            r = await http.post(f"{challenges}/{first}/accept", headers=tokens["Rs2"])
            played = r.json()["match_id"]
            assert (await next_event(events))["match"]["id"] == played

            stopping = asyncio.create_task(asyncio.to_thread(a.stop))  # SIGINT, as a deploy's restart does
            for _ in range(4):  # the match goes on through B while A stops
                await match.act()
            r = await http.post(f"{challenges}/Rs2", json={}, headers=tokens["Rs1"])
            second = r.json()["id"]
            r = await http.post(f"{b.base}/api/v1/matches/{played}/resign", headers=tokens["Rs1"])
            assert r.status_code == 200, r.text
            rest, heard = await to_the_end(lines), await to_the_end(events)
            await stopping
        closing = {"type": "closing", "code": 1001, "reason": "server shutting down"}
        assert rest[-1:] == [closing], rest  # the end said, not taken for the match's
        assert heard[-1:] == [closing], heard
        got += [m for m in rest if m["type"] in ("snapshot", "update")]
        assert all(m["match"]["status"] != "finished" for m in got)
        held = got[-1]["match"]["version"]
        assert [m["match"]["version"] for m in got] == list(range(got[0]["match"]["version"], held + 1))

        async with http.stream("GET", f"{b.base}/api/v1/matches/{match.id}/stream",
                               params={"since": held}) as on_b:
            resumed = await stream_states(on_b.aiter_lines(), match.state["version"])
        assert [m["type"] for m in resumed] == ["update"] * len(resumed)
        assert [m["version"] for m in resumed] == list(range(held + 1, match.state["version"] + 1))

        await asyncio.to_thread(a.start)
        await asyncio.to_thread(a.wait_ready)
        async with http.stream("GET", f"{a.base}/api/v1/stream/events", headers=tokens["Rs2"]) as again:
            events = again.aiter_lines()
            opening = await next_event(events)
            r = await http.post(f"{challenges}/{second}/cancel", headers=tokens["Rs1"])
            assert r.status_code == 200, r.text
            after = await next_event(events)
        # The opening picture: the challenge made while A stopped, once; not the first (accepted),
        # nor the match it made (finished meanwhile: `matchFinish` before the end, or absent now).
        assert opening["type"] == "challenge" and opening["challenge"]["id"] == second, opening
        assert after["type"] == "challengeCanceled" and after["challenge"]["id"] == second, after
        finished = [m["match"]["id"] for m in heard if m["type"] == "matchFinish"]
        assert finished in ([], [played]) and [m["type"] for m in heard].count("closing") == 1
    finally:
        if a.proc.poll() is not None:  # the module's later tests want A
            await asyncio.to_thread(a.start)
            await asyncio.to_thread(a.wait_ready)


async def test_a_closed_accounts_seat_token_is_refused_on_the_process_that_cached_it(
        servers: tuple[Server, Server], http: httpx.AsyncClient) -> None:
    """Issue 31, break 2, through the public API: the account closes on one
    process, and its seat token, last used on the other (which holds the match
    cached), is refused there at once; the match ended, and moved no rating."""
    from tests.web.accounts_helpers import csrf_of, sign_up

    a, b = servers
    async with httpx.AsyncClient(base_url=a.base, timeout=10) as page:
        assert (await sign_up(page, "Closer")).status_code == 303
        csrf = await csrf_of(page)
        r = await page.post("/api/v1/matches", json={"options": {}, "seat": "white", "rated": True},
                            headers={"X-CSRF-Token": csrf})
        assert r.status_code == 201, r.text
        match_id, token = r.json()["match"]["id"], r.json()["token"]
        other = await account_tokens_on(http, b)
        r = await http.post(f"{b.base}/api/v1/matches/{match_id}/join", json={}, headers=other)
        assert r.status_code == 200, r.text
        mine = {"Authorization": f"Bearer {token}"}
        assert (await http.get(f"{b.base}/api/v1/matches/{match_id}/legal", headers=mine)).status_code == 200
        r = await page.post("/account/close", data={"csrf_token": csrf})
        assert r.status_code == 200 and "is closed" in r.text
    refused = await http.get(f"{b.base}/api/v1/matches/{match_id}/legal", headers=mine)
    assert refused.status_code == 401, refused.text
    r = await http.post(f"{b.base}/api/v1/matches/{match_id}/actions", headers=mine,
                        json={"action": {"type": "setup", "backrow": ["construct"] * 8}, "version": 1})
    assert r.status_code == 401, r.text
    state = (await http.get(f"{b.base}/api/v1/matches/{match_id}")).json()
    assert state["status"] == "finished" and state["result"]["reason"] == "aborted"
    assert state["players"]["black"]["rating_change"] is None


async def account_tokens_on(http: httpx.AsyncClient, server: Server, name: str = "Stayer") -> dict[str, str]:
    """An account made through the server's own sign-up page, and its session's headers for the API."""
    from tests.web.accounts_helpers import csrf_of, sign_up

    async with httpx.AsyncClient(base_url=server.base, timeout=10) as page:
        assert (await sign_up(page, name)).status_code == 303
        csrf = await csrf_of(page)
        cookies = "; ".join(f"{k}={v}" for k, v in page.cookies.items())
    return {"Cookie": cookies, "X-CSRF-Token": csrf}


async def test_no_guest_wears_an_accounts_name_and_chat_refuses_hidden_lines_on_a_real_server(
        servers: tuple[Server, Server], http: httpx.AsyncClient) -> None:
    """Issue 31, break 4, through the public API: an account made on one process;
    on the other, a guest under its name in other case, with a look-alike letter
    or a zero-width space is refused, and so are the chat's direction overrides
    and invisible lines."""
    a, b = servers
    player = await account_tokens_on(http, a, "Folder")
    for name, refused in (("folder", 409), ("F\u043elder", 409), ("Fol\u200bder", 400), ("F0LDER", 409)):
        r = await http.post(f"{b.base}/api/v1/matches", json={"seat": "white", "name": name})
        assert r.status_code == refused, (name, r.text)  # 409 name_taken: alike; 400: a hidden character
    r = await http.post(f"{a.base}/api/v1/matches", json={"seat": "white"}, headers=player)
    assert r.status_code == 201, r.text
    match_id = r.json()["match"]["id"]
    for line in ("gg \u202eez", "\u200b\u200b"):
        r = await http.post(f"{a.base}/api/v1/matches/{match_id}/chat", json={"text": line, "room": "players"},
                            headers=player)
        assert r.status_code == 400 and r.json()["error"] == "bad_chat_line", (line, r.text)
