"""The bot runner (app/bots/runner.py) as a client of the service: every level
plays through the gateway to a match's end, and a search in its worker process
never holds the server's event loop (issue 11)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.main import create_app

from ..conftest import ROW, Api, make_settings
from ..waiting import DEADLINE, until


@pytest.mark.parametrize("level", ["greedy", "strong"])
async def test_a_bot_match_runs_to_its_end_through_the_service(app: Any, api: Api, level: str) -> None:
    game = await api.create(seat="black", opponent=f"bot:{level}", no_progress_rounds=1, bot_think_seconds=0.05)
    assert game.match["players"]["white"]["bot"] == level
    runner = app.state.parts.bots
    for _ in range(400):
        await runner.idle()
        state = await api.state(game)
        if state["status"] == "finished":
            break
        legal = await api.legal(game, "black")
        action = {"type": "setup", "backrow": ROW} if legal["setup"] else legal["actions"][0]
        await api.act(game, "black", action)
    state = await api.state(game)
    assert state["status"] == "finished", state["phase"]
    log = (await api.client.get(f"{api.base}/{game.id}/actions")).json()
    assert any(e["player"] == "white" and not e["automatic"] for e in log)  # the bot acted


async def test_a_long_search_never_holds_the_event_loop(database_url: str) -> None:
    # A search that thinks for the whole deadline (the server's default, as a match
    # may ask for 10 s at most): it is still running when the test has its answers,
    # however slow the machine, and is ended with the app.
    app = create_app(make_settings(database_url, bot_think_seconds=DEADLINE, bot_max_think_seconds=DEADLINE))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            api = Api(client)
            runner = app.state.parts.bots
            started, over = asyncio.Event(), asyncio.Event()
            search = runner.search

            async def watched(*args: Any) -> dict[str, Any]:
                started.set()
                try:
                    return await search(*args)
                finally:
                    over.set()

            game = await api.create(seat="black", opponent="bot:strong")
            await runner.idle()  # the bot (White) has set up; setups need no search
            await api.state(game)
            runner.search = watched
            await api.act(game, "black", {"type": "setup", "backrow": ROW})
            await until(started.is_set, "the bot's search started")
            # Another match is served while the search runs. A search held on the
            # loop would let nothing else run until it was over: `over` would be
            # set before any of these answers reached the test.
            other = await api.start()
            for _ in range(3):
                await api.state(other)
                await api.legal(other, "white")
                assert not over.is_set(), "the search ended before another request was answered"
            assert (await api.state(game))["to_move"] == "white"  # the bot is still thinking
