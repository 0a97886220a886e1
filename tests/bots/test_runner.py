"""The bot runner (app/bots/runner.py) as a client of the service: every level
plays through the door to a match's end, and a search in its worker process
never holds the server's event loop (issue 11)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ..conftest import ROW, Api


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


async def test_a_long_search_never_holds_the_event_loop(app: Any, api: Api) -> None:
    game = await api.create(seat="black", opponent="bot:strong", bot_think_seconds=3)
    runner = app.state.parts.bots
    other = await api.start()  # another match, made before the search starts
    await runner.idle()  # the bot (White) has set up; setups need no search
    # The real search, watched: the test learns the moment it is under way.
    real, searches = runner.search, []
    searching = asyncio.Event()

    async def watched(*args: Any) -> Any:
        search = asyncio.ensure_future(real(*args))
        searches.append(search)
        searching.set()
        return await search

    runner.search = watched
    await api.state(game)  # the bot's setup is the version to act on
    await api.act(game, "black", {"type": "setup", "backrow": ROW})
    thinking = (await api.state(game))["version"]
    assert (await api.state(game))["to_move"] == "white"  # the bot's turn: a 3 s search starts
    await asyncio.wait_for(searching.wait(), 60)
    # Another match is answered while the search is still under way. A search
    # held on the loop would be over before anything else was answered: the
    # order of events says it, not a time bound.
    await api.state(other)
    await api.legal(other, "white")
    assert not searches[0].done(), "the loop answered nothing until the search ended"
    await asyncio.wait_for(runner.idle(), 60)
    assert (await api.state(game))["version"] > thinking
