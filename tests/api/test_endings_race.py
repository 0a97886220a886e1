"""Issue 12, defect 3: endings racing across two processes.

A match was read in several statements (the row, then its state) under READ
COMMITTED; an ending committed by another process between the two tore the
record (status "active" beside a state already over), and resign's `conclude`
raised MatchOver: a 500. A match is now read in one statement, and every verb
answers a finished match 409 `match_over`.

The first tests make the tear happen on purpose: a hook on process A's database
engine lets process B end the match right after A's first statement of a read.
The last one races endings against actions through two app instances on one
database many times, as two server processes would.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import event
from sqlalchemy.util import await_only

from app.main import create_app
from app.matches import MatchService
from app.matches.errors import MatchIsOver

from ..conftest import ROW, Api, Game

SETUP = {"type": "setup", "backrow": ROW}


@pytest.fixture
async def second(settings: Any) -> AsyncIterator[Any]:
    """Another app on the same database: another process, with its own cache."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


def _between_statements(service: MatchService, match_id: str,
                        meanwhile: Callable[[], Awaitable[Any]]) -> Callable[[], None]:
    """Run `meanwhile` (another process's commit) right after `service`'s first
    statement that reads the match; answers a function that removes the hook."""
    sync_engine = service.engine.sync_engine
    fired = []

    def after(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        if fired or not statement.lstrip().upper().startswith("SELECT") or "matches" not in statement:
            return
        if match_id not in str(params):
            return
        fired.append(statement)
        await_only(meanwhile())  # the read waits here, in the middle, as a slow one would

    event.listen(sync_engine, "after_cursor_execute", after)
    return lambda: event.remove(sync_engine, "after_cursor_execute", after)


def _services(api: Api, second: Any) -> tuple[MatchService, MatchService]:
    first = api.client._transport.app  # type: ignore[attr-defined]
    return first.state.parts.service, second.state.parts.service


@pytest.mark.parametrize("verb", ["resign", "abort", "draw_accept", "act"])
async def test_an_ending_committed_in_the_middle_of_a_read_is_409(api: Api, second: Any, verb: str) -> None:
    a, b = _services(api, second)
    game = await api.start()
    if verb == "draw_accept":
        await api.client.post(f"{api.base}/{game.id}/draw", json={"offer": True}, headers=game.auth("black"))
    await api.state(game)
    a.keeper.cache._items.pop(game.id, None)  # A reads the match afresh
    unhook = _between_statements(a, game.id, lambda: b.finisher.resign(game.id, "black"))
    try:
        with pytest.raises(MatchIsOver):
            if verb == "resign":
                await a.finisher.resign(game.id, "white")
            elif verb == "abort":
                await a.finisher.abort(game.id, "white")
            elif verb == "draw_accept":
                await a.finisher.draw(game.id, "white", True)
            else:
                await a.mover.act(game.id, "white", SETUP, game.version, None)
    finally:
        unhook()
    state = await api.state(game)
    assert state["result"] == {"winner": "white", "reason": "resigned"}


async def test_a_read_never_shows_a_status_and_phase_that_disagree(api: Api, second: Any) -> None:
    a, b = _services(api, second)
    game = await api.start()
    await api.setups(game)
    a.keeper.cache._items.pop(game.id, None)
    unhook = _between_statements(a, game.id, lambda: b.finisher.resign(game.id, "black"))
    try:
        state = await a.reads.get(game.id)
    finally:
        unhook()
    assert (state["status"] == "finished") == (state["phase"] == "over"), (state["status"], state["phase"])
    listed = (await api.client.get(api.base)).json()["matches"]
    assert all((m["status"] == "finished") == (m["phase"] == "over") for m in listed)


async def _race(clients: list[Api], game: Game, rng: random.Random) -> list[httpx.Response]:
    """Both seats at once, through both processes: actions against an ending."""
    path = f"{clients[0].base}/{game.id}"
    ending = rng.choice(["resign", "draw", "abort", "claim"])
    calls = []
    for _ in range(3):
        calls.append(rng.choice(clients).client.post(
            f"{path}/actions", json={"action": SETUP, "version": game.version}, headers=game.auth("white")))
    ender = rng.choice(clients)
    colour = rng.choice(["white", "black"])
    if ending == "draw":
        calls.append(ender.client.post(f"{path}/draw", json={"offer": True}, headers=game.auth("black")))
        calls.append(ender.client.post(f"{path}/draw", json={"offer": True}, headers=game.auth("white")))
    elif ending == "claim":
        calls.append(ender.client.post(f"{path}/claim", json={"result": "win"}, headers=game.auth(colour)))
    else:
        calls.append(ender.client.post(f"{path}/{ending}", headers=game.auth(colour)))
        calls.append(rng.choice(clients).client.post(f"{path}/resign", headers=game.auth("black")))
    calls.append(rng.choice(clients).client.get(path))
    rng.shuffle(calls)
    return list(await asyncio.gather(*calls))


async def test_endings_racing_actions_across_two_processes_never_500(api: Api, second: Any) -> None:
    transport = httpx.ASGITransport(app=second)
    async with httpx.AsyncClient(transport=transport, base_url="http://other") as other:
        clients = [api, Api(other)]
        rng = random.Random(12)
        answered: dict[int, int] = {}
        finished = []
        for _ in range(40):
            game = await api.start(abandon_seconds=10)
            for r in await _race(clients, game, rng):
                answered[r.status_code] = answered.get(r.status_code, 0) + 1
                assert r.status_code in (200, 403, 409), (r.status_code, r.text)
                if r.status_code == 409:
                    assert r.json()["error"] in ("match_over", "stale_version"), r.text
                if r.request.method == "GET":
                    match = r.json()
                    assert (match["status"] == "finished") == (match["phase"] == "over"), match
            state = await api.state(game)
            if state["status"] == "finished":
                finished.append(game)
        assert answered.get(200) and finished, answered
        # Once it is over, every verb of either process answers 409 match_over.
        for game in finished[:5]:
            path = f"{api.base}/{game.id}"
            for client in clients:
                c = client.client
                for r in (await c.post(f"{path}/resign", headers=game.auth("white")),
                          await c.post(f"{path}/abort", headers=game.auth("black")),
                          await c.post(f"{path}/draw", json={"offer": True}, headers=game.auth("white")),
                          await c.post(f"{path}/draw", json={"offer": False}, headers=game.auth("white")),
                          await c.post(f"{path}/claim", json={"result": "draw"}, headers=game.auth("black")),
                          await c.post(f"{path}/actions", json={"action": SETUP, "version": 99},
                                       headers=game.auth("white")),
                          await c.post(f"{path}/join", json={"name": "Late"})):
                    assert r.status_code == 409 and r.json()["error"] == "match_over", (r.request.url, r.text)
