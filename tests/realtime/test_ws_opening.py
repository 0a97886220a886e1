"""Issue 21's websocket fixes: a `hello` opens every socket, a seat's token in
the upgrade's Authorization header proves the seat (a bad one is refused, never
a watcher), `?legal=true` adds a seat's legal actions on its turn, and
`rate_limited` says when to try again."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.conftest import ROW, Api
from tests.realtime.conftest import TIMEOUT, Closed, Socket, custom_app, ws_path


async def raw(sock: Socket) -> dict[str, Any]:
    """The next frame as sent, hellos and pings included."""
    message = await asyncio.wait_for(sock.inbox.get(), TIMEOUT)
    assert message["type"] == "websocket.send", message
    return dict(json.loads(message["text"]))


async def test_hello_comes_first_even_when_nothing_was_missed(api: Api, sockets: Any) -> None:
    game = await api.start()
    for since in (None, game.version):
        sock = await sockets(game.id, token=game.tokens["white"], since=since)
        hello = await raw(sock)
        assert hello["type"] == "hello" and hello["version"] == game.version and hello["seat"] == "white"
        assert hello["connected"]["white"] is True and hello["server_time"].endswith("Z")
    watcher = await sockets(game.id, since=game.version)
    hello = await raw(watcher)
    assert hello["type"] == "hello" and hello["seat"] is None and hello["spectators"] >= 1


async def test_a_seat_token_in_the_authorization_header_is_the_seat(api: Api, sockets: Any) -> None:
    game = await api.start()
    white = await sockets(game.id, headers={"Authorization": f"Bearer {game.tokens['white']}"})
    assert (await raw(white))["seat"] == "white"
    await white.receive()  # the snapshot
    await white.send({"type": "action", "action": {"type": "setup", "backrow": ROW},
                      "version": game.version, "id": "h1"})
    ack, _ = await white.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack == {"type": "ack", "id": "h1", "version": game.version + 1}
    for bad in ("not-a-seat-token-at-all", (await api.start()).tokens["white"]):
        sock = await sockets(game.id, headers={"Authorization": f"Bearer {bad}"})
        with pytest.raises(Closed) as closed:  # refused as ?token= is, never taken for a watcher
            await sock.receive()
        assert closed.value.code == 1008 and closed.value.reason.startswith("unauthorized")


async def test_legal_true_puts_the_seats_legal_actions_in_its_turns(api: Api, sockets: Any) -> None:
    game = await api.start()
    black = await sockets(game.id, token=game.tokens["black"], legal="true")
    assert "legal" not in await black.receive()  # the snapshot: White sets up first
    await api.act(game, "white", {"type": "setup", "backrow": ROW})
    update, _ = await black.receive_until(lambda m: m["type"] == "update")
    assert update["legal"] == await api.legal(game, "black") and update["legal"]["setup"]
    watcher = await sockets(game.id, legal="true")
    with pytest.raises(Closed) as closed:
        await watcher.receive()
    assert closed.value.code == 1008 and closed.value.reason.startswith("bad_request")


async def test_rate_limited_carries_retry_after(database_url: str) -> None:
    async with custom_app(database_url, rate_limit_writes=3, rate_window_seconds=60) as (app, api):
        game = await api.start()  # two writes of this address
        sock = await Socket.open(app, ws_path(game.id, token=game.tokens["white"]))
        try:
            answers = []
            for i in range(3):  # the third write of the address in the window is over its limit
                await sock.send({"type": "action", "action": {"type": "setup", "backrow": ROW},
                                 "version": game.version, "id": f"r{i}"})
                answers.append((await sock.receive_until(lambda m: m["type"] in ("ack", "error")))[0])
            limited = [a for a in answers if a.get("error") == "rate_limited"]
            assert limited and all(1 <= a["retry_after"] <= 60 for a in limited), answers
            assert all("retry_after" not in a for a in answers if a.get("error") != "rate_limited")
        finally:
            await sock.close()


async def test_legal_true_asks_nothing_for_a_state_that_is_the_other_seats_turn(
        app: Any, api: Api, sockets: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat is asked its legal actions only for a state that is its turn, and the
    record held at that version answers them: no read of the match."""
    reads = app.state.parts.service.reads
    asked: list[str] = []
    real_legal, real_legal_at, real_newest = reads.legal, getattr(reads, "legal_at", None), reads.keeper.newest

    async def legal(match_id: str, colour: str) -> dict[str, Any]:
        asked.append(colour)
        return dict(await real_legal(match_id, colour))

    async def legal_at(match_id: str, colour: str, version: int) -> str | None:
        asked.append(colour)
        assert real_legal_at is not None
        return await real_legal_at(match_id, colour, version)  # type: ignore[no-any-return]

    async def newest(*args: Any, **kwargs: Any) -> Any:
        asked.append("a read")
        return await real_newest(*args, **kwargs)

    monkeypatch.setattr(reads, "legal", legal)
    monkeypatch.setattr(reads, "legal_at", legal_at, raising=False)
    monkeypatch.setattr(reads.keeper, "newest", newest)
    game = await api.start()
    seats = [(seat, await sockets(game.id, token=game.tokens[seat], legal="true", updates=updates))
             for updates in ("full", "compact") for seat in ("white", "black")]
    for seat, sock in seats:
        assert ("legal" in await sock.receive()) == (seat == "white")  # the snapshots: White sets up first
    asked.clear()
    await api.act(game, "white", {"type": "setup", "backrow": ROW})
    for seat, sock in seats:
        update, _ = await sock.receive_until(lambda m: m["type"] in ("update", "delta"))
        assert ("legal" in update) == (seat == "black"), (seat, update)
    assert asked == ["black", "black"], asked  # White's sockets asked nothing, and nothing was read
