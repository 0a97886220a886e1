"""The websocket contract through the app in-process, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from tests.conftest import ROW, Api, Game
from tests.realtime.conftest import TIMEOUT, Closed, RealtimeClock, Socket, custom_app, ws_path
from tests.waiting import until

LIVE = ("players", "spectators", "clock", "server_time")  # what the socket patches or time moves


def same_match(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k not in LIVE} == {k: v for k, v in b.items() if k not in LIVE}


async def step(api: Api, game: Game, rng: random.Random) -> dict[str, Any]:
    """One random legal action by whoever is to move."""
    return await api.step(game, rng)


def is_update(m: dict[str, Any]) -> bool:
    return m["type"] == "update"


async def rest_until_connected(api: Api, game: Game, colour: str, connected: bool) -> None:
    """Poll GET /matches/{id} until `colour` is (not) connected."""
    async def says() -> bool:
        return (await api.state(game))["players"][colour]["connected"] is connected

    await until(says, f"REST to say {colour} is {'' if connected else 'not '}connected")


async def test_snapshot_first_then_every_update_in_order(api: Api, sockets: Any) -> None:
    game = await api.start()
    watcher = await sockets(game.id)
    first = await watcher.receive()
    assert first["type"] == "snapshot" and first["match"]["version"] == game.version
    rng = random.Random(1)
    for _ in range(12):
        await step(api, game, rng)
    versions = []
    while len(versions) < 12 or versions[-1] < game.version:
        update, _ = await watcher.receive_until(is_update)
        versions.append(update["version"])
        last = update
    assert versions == list(range(first["match"]["version"] + 1, game.version + 1))
    assert same_match(last["match"], await api.state(game))
    assert set(last) >= {"type", "version", "action", "player", "automatic", "match"}


async def test_a_seat_acts_and_only_it_hears_the_ack_or_the_error(api: Api, sockets: Any) -> None:
    game = await api.start()
    white = await sockets(game.id, token=game.tokens["white"])
    watcher = await sockets(game.id)
    await white.receive()
    await watcher.receive()
    v0 = game.version
    await white.send({"type": "action", "action": {"type": "setup", "backrow": ROW},
                      "version": v0, "id": "w1"})
    ack, before = await white.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack == {"type": "ack", "id": "w1", "version": v0 + 1}
    assert [m["version"] for m in before if is_update(m)] == [v0 + 1]
    update, _ = await watcher.receive_until(is_update)
    assert update["version"] == v0 + 1 and update["player"] == "white"
    # A resend answers as the first did, and applies nothing twice.
    await white.send({"type": "action", "action": {"type": "setup", "backrow": ROW},
                      "version": v0, "id": "w1"})
    again, _ = await white.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert again == {**ack, "replayed": True}  # said to be the first answer again
    # Stale, illegal, not your turn: an error naming the version now, to this socket only.
    await white.send({"type": "action", "action": {"type": "pass"}, "version": 0, "id": "w2"})
    error, _ = await white.receive_until(lambda m: m["type"] == "error")
    assert error["id"] == "w2" and error["error"] == "stale_version"
    assert error["version"] == v0 + 1
    await white.send({"type": "action", "action": {"type": "setup", "backrow": ROW},
                      "version": v0 + 1, "id": "w3"})
    error, _ = await white.receive_until(lambda m: m["type"] == "error")
    assert error["error"] == "not_your_turn" and error["id"] == "w3"
    await white.send({"type": "action", "action": {"type": "fly"}, "version": v0 + 1})
    error, _ = await white.receive_until(lambda m: m["type"] == "error")
    assert error["error"] == "bad_request" and error["id"] is None
    assert not [m for m in await watcher.nothing_for() if m["type"] in ("ack", "error")]
    assert (await api.state(game))["version"] == v0 + 1


async def test_spectators_watch_count_and_cannot_act(api: Api, sockets: Any) -> None:
    game = await api.start()
    one = await sockets(game.id)
    assert (await one.receive())["match"]["spectators"] == 1
    two = await sockets(game.id, client="127.0.0.2")  # another watcher: spectators are counted by address
    snapshot = await two.receive()
    assert snapshot["match"]["spectators"] == 2
    # A presence counting one alone may come first: it goes 50 ms after one's join,
    # and two may open after that.
    presence, _ = await one.receive_until(lambda m: m["type"] == "presence" and m["spectators"] == 2)
    assert presence["version"] == game.version
    await two.send({"type": "action", "action": {"type": "setup", "backrow": ROW},
                    "version": game.version, "id": "x"})
    error, _ = await two.receive_until(lambda m: m["type"] == "error")
    assert error["error"] == "unauthorized" and error["id"] == "x"
    await two.close()
    presence, _ = await one.receive_until(lambda m: m["type"] == "presence")
    assert presence["spectators"] == 1


async def test_presence_of_seats_changes_live(api: Api, sockets: Any) -> None:
    game = await api.start()
    watcher = await sockets(game.id)
    assert (await watcher.receive())["match"]["players"]["black"]["connected"] is False
    black = await sockets(game.id, token=game.tokens["black"])
    snapshot = await black.receive()
    assert snapshot["match"]["players"]["black"]["connected"] is True
    # The watcher's own presence (black absent) may come first: it goes 50 ms after its
    # join, and black may open after that.
    presence, _ = await watcher.receive_until(
        lambda m: m["type"] == "presence" and m["players"]["black"]["connected"] is True)
    assert presence["players"]["white"]["connected"] is False
    # The socket notes its seat in the database just after joining the hub: REST may lag.
    await rest_until_connected(api, game, "black", True)
    await black.close()
    presence, _ = await watcher.receive_until(lambda m: m["type"] == "presence")
    assert presence["players"]["black"]["connected"] is False
    assert (await api.state(game))["players"]["black"]["connected"] is False


async def test_since_replays_what_was_missed_or_sends_a_snapshot(database_url: str) -> None:
    async with custom_app(database_url, max_replay_updates=5) as (app, api):
        game = await api.start()
        rng = random.Random(2)
        await step(api, game, rng)
        seen = game.version
        for _ in range(3):
            await step(api, game, rng)
        back = await Socket.open(app, ws_path(game.id, since=seen))
        got = [await back.receive() for _ in range(game.version - seen)]
        assert [m["type"] for m in got] == ["update"] * (game.version - seen)
        assert [m["version"] for m in got] == list(range(seen + 1, game.version + 1))
        await back.close()
        now = await Socket.open(app, ws_path(game.id, since=game.version))
        assert [m["type"] for m in await now.nothing_for()] in ([], ["presence"])
        await step(api, game, rng)
        assert (await now.receive_until(is_update))[0]["version"] == game.version
        await now.close()
        for _ in range(6):
            await step(api, game, rng)
        old = await Socket.open(app, ws_path(game.id, since=seen))
        snapshot = await old.receive()
        assert snapshot["type"] == "snapshot" and snapshot["match"]["version"] == game.version
        await old.close()
        future = await Socket.open(app, ws_path(game.id, since=game.version + 50))
        assert (await future.receive())["type"] == "snapshot"
        await future.close()


async def test_every_kind_of_update_arrives_resignations_and_draw_offers_too(
        api: Api, sockets: Any) -> None:
    game = await api.start()
    watcher = await sockets(game.id)
    start = (await watcher.receive())["match"]["version"]
    await api.setups(game)
    r = await api.client.post(f"/api/v1/matches/{game.id}/draw", json={"offer": True},
                              headers=game.auth("white"))
    assert r.status_code == 200, r.text
    r = await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("black"))
    assert r.status_code == 200, r.text
    final = await api.state(game)
    updates = []
    while not updates or updates[-1]["version"] < final["version"]:
        updates.append((await watcher.receive_until(is_update))[0])
    assert [u["version"] for u in updates] == list(range(start + 1, final["version"] + 1))
    assert updates[-1]["match"]["result"] == final["result"]
    assert same_match(updates[-1]["match"], final)


async def test_origin_is_checked_before_the_socket_is_accepted(database_url: str) -> None:
    allowed = ["https://magery.example"]
    async with custom_app(database_url, allowed_origins=allowed) as (app, api):
        game = await api.start()
        with pytest.raises(Closed) as refused:
            await Socket.open(app, ws_path(game.id), {"origin": "https://evil.example"})
        assert refused.value.code == 1008
        for origin in ("https://magery.example", "http://testserver", None):
            sock = await Socket.open(app, ws_path(game.id), {"origin": origin} if origin else None)
            assert (await sock.receive())["type"] == "snapshot"
            await sock.close()


async def test_a_bad_token_or_match_is_refused_with_a_reason(api: Api, sockets: Any) -> None:
    game = await api.start()
    other = await api.start()
    for match_id, token, code in ((game.id, "not-a-token", "unauthorized"),
                                  (game.id, other.tokens["white"], "unauthorized"),
                                  ("no-such-match", None, "not_found")):
        sock = await sockets(match_id, token=token)
        with pytest.raises(Closed) as closed:
            await sock.receive()
        assert closed.value.code == 1008 and closed.value.reason.startswith(code)
    for since in ("yesterday", "+0", " 1", "1_0", "0.0"):  # digits alone, as every version the API reads
        sock = await sockets(game.id, since=since)
        with pytest.raises(Closed) as closed:
            await sock.receive()
        assert closed.value.code == 1008 and closed.value.reason.startswith("bad_request"), since


async def test_malformed_messages_get_an_error_and_the_socket_lives_on(
        api: Api, sockets: Any) -> None:
    game = await api.start()
    sock = await sockets(game.id, token=game.tokens["white"])
    await sock.receive()
    for text in ("{not json", "[1, 2]", '"text"', '{"type": "dance"}', "{}",
                 '{"type": "action", "action": "pass", "version": "1"}'):
        await sock.send(text)
        error, _ = await sock.receive_until(lambda m: m["type"] == "error")
        assert error["error"] == "bad_request" and error["version"] == game.version, text
    await sock.outbox.put({"type": "websocket.receive", "bytes": b"\x00\x01"})
    assert (await sock.receive_until(lambda m: m["type"] == "error"))[0]["error"] == "bad_request"
    await sock.send({"type": "ping"})
    assert (await sock.receive_until(lambda m: m["type"] != "presence"))[0] == {"type": "pong"}


async def test_the_message_budget_and_the_frame_limit_close_the_socket(database_url: str) -> None:
    async with custom_app(database_url, ws_messages_per_10s=5, ws_max_frame_bytes=1000) as (app, api):
        game = await api.start()
        chatty = await Socket.open(app, ws_path(game.id))
        for _ in range(6):
            await chatty.send({"type": "ping"})
        with pytest.raises(Closed) as closed:
            while True:
                await chatty.receive()
        assert closed.value.code == 1008
        big = await Socket.open(app, ws_path(game.id))
        await big.send({"type": "ping", "pad": "x" * 1000})
        with pytest.raises(Closed) as closed:
            while True:
                await big.receive()
        assert closed.value.code == 1009


async def _heartbeat_says(sock: Socket) -> str | int:
    """The next ping ("ping") or close (its code) the socket gets; other frames pass."""
    while True:
        message = await asyncio.wait_for(sock.inbox.get(), TIMEOUT)
        if message["type"] == "websocket.close":
            return int(message["code"])
        if json.loads(message["text"])["type"] == "ping":
            return "ping"


async def test_a_silent_socket_is_pinged_and_closed(database_url: str, realtime_clock: RealtimeClock) -> None:
    # Pings every 0.25 s, dead after 1 s, on a clock the test moves: each step of the
    # clock is met by one word of the heartbeat, however late the machine runs it.
    timings = {"ws_ping_seconds": 0.25, "ws_dead_after_seconds": 1.0}
    async with custom_app(database_url, **timings) as (app, api):
        game = await api.start()
        sock = await Socket.open(app, ws_path(game.id))
        assert (await sock.receive())["type"] == "snapshot"
        said = []
        while not said or said[-1] == "ping":
            assert len(said) < 10, said
            realtime_clock.now += 0.25
            said.append(await _heartbeat_says(sock))
        assert said == ["ping", "ping", "ping", 1011]  # closed once 1 s passed unheard
    # One that answers stays, for twice the time a silent one lasts.
    async with custom_app(database_url, **timings) as (app, api):
        game = await api.start()
        live = await Socket.open(app, ws_path(game.id))
        assert (await live.receive())["type"] == "snapshot"
        for _ in range(8):
            realtime_clock.now += 0.25
            assert await _heartbeat_says(live) == "ping"
            await live.send({"type": "pong"})
            await live.send({"type": "ping"})  # its answer says both were read (heard at this time)
            await live.receive_until(lambda m: m["type"] == "pong")
        assert live.closed is None
        await live.close()


async def test_shutdown_closes_sockets_with_1001(database_url: str) -> None:
    async with custom_app(database_url) as (app, api):
        game = await api.start()
        sock = await Socket.open(app, ws_path(game.id))
        await sock.receive()
        await app.state.parts.hub.close(1001)
        with pytest.raises(Closed) as closed:
            while True:
                await sock.receive()
        assert closed.value.code == 1001


async def test_a_client_that_keeps_reconnecting_ends_with_the_servers_state(
        api: Api, sockets: Any) -> None:
    game = await api.start()
    rng = random.Random(3)
    held: dict[str, Any] | None = None
    for _round in range(6):
        sock = await sockets(game.id, since=held["version"] if held else None)
        for _ in range(rng.randrange(0, 6)):  # actions while connected
            await step(api, game, rng)
        for message in await sock.nothing_for(0.15):
            if message["type"] == "snapshot":
                held = message["match"]
            elif message["type"] == "update":
                assert held is not None and message["version"] == held["version"] + 1
                held = message["match"]
        await sock.close()
        for _ in range(rng.randrange(0, 4)):  # and while gone
            await step(api, game, rng)
    sock = await sockets(game.id, since=held["version"] if held else None)
    final = await api.state(game)
    # Read up to the server's version, not for a quiet spell: a quiet spell is no proof that all came.
    while held is None or held["version"] < final["version"]:
        held = (await sock.receive_until(lambda m: m["type"] in ("snapshot", "update")))[0]["match"]
    assert held is not None and same_match(held, final)


async def test_odd_ids_and_match_ids_are_refused_not_echoed(api: Api, sockets: Any) -> None:
    """An id that cannot be stored or encoded (NUL, a lone surrogate, too long) is a
    bad_request answered without echoing it, and the socket lives on."""
    game = await api.start()
    sock = await sockets(game.id, token=game.tokens["white"])
    await sock.receive()
    for text in ('{"type": "bogus", "id": "\\ud800"}', '{"type": "ping", "id": "a\\u0000b"}',
                 '{"type": "action", "action": {"type": "pass"}, "version": 1, "id": "' + "x" * 65 + '"}'):
        await sock.send(text)
        error, _ = await sock.receive_until(lambda m: m["type"] == "error")
        assert error["error"] == "bad_request" and error["id"] is None, text
    await sock.send({"type": "ping"})
    assert (await sock.receive_until(lambda m: m["type"] != "presence"))[0] == {"type": "pong"}
    assert (await api.state(game))["version"] == game.version
    refused = await sockets("a\x00b")
    with pytest.raises(Closed) as closed:
        await refused.receive()
    assert closed.value.code == 1008 and closed.value.reason.startswith("not_found")


async def test_by_default_only_same_host_pages_and_non_browsers_may_open_sockets(
        api: Api, sockets: Any) -> None:
    game = await api.start()
    with pytest.raises(Closed) as refused:
        await sockets(game.id, headers={"origin": "https://elsewhere.example"})
    assert refused.value.code == 1008
    for headers in ({"origin": "http://testserver"}, None):
        sock = await sockets(game.id, headers=headers)
        assert (await sock.receive())["type"] == "snapshot"
        await sock.close()


async def test_a_resend_after_an_answer_lost_past_its_commit_reaches_the_watchers(
        app: Any, api: Api, sockets: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.matches import store

    game = await api.start()
    watcher = await sockets(game.id)
    await watcher.receive()  # the snapshot
    real_save = store.save

    async def commits_then_loses_the_link(*args: Any, **kwargs: Any) -> None:
        await real_save(*args, **kwargs)
        raise ConnectionResetError(104, "Connection reset by peer")

    monkeypatch.setattr(store, "save", commits_then_loses_the_link)
    lost = await api.post(game, "white", {"type": "setup", "backrow": ROW}, id="w-setup")
    assert lost.status_code == 503, lost.text
    monkeypatch.setattr(store, "save", real_save)
    assert not [m for m in await watcher.nothing_for(0.2) if is_update(m)]  # landed, nobody told
    again = await api.post(game, "white", {"type": "setup", "backrow": ROW}, id="w-setup")
    assert again.status_code == 200, again.text
    update, _ = await watcher.receive_until(is_update)
    assert update["version"] == again.json()["match"]["version"] == game.version + 1
    assert update["action"]["type"] == "setup" and update["player"] == "white"


async def test_the_socket_sends_the_masked_position_to_seats_and_watchers(api: Api, sockets: Any) -> None:
    game = await api.start()
    seat = await sockets(game.id, token=game.tokens["white"])
    watcher = await sockets(game.id)
    seen = [(await seat.receive())["match"]["position"], (await watcher.receive())["match"]["position"]]
    await api.setups(game)
    for sock in (seat, watcher):
        update, _ = await sock.receive_until(lambda m: is_update(m) and m["version"] == game.version)
        seen.append(update["match"]["position"])
    assert seen[0] == seen[1] and seen[2] == seen[3] == game.match["position"]
    assert all(p.split(" ")[13:15] == ["?", "?"] for p in seen)
