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
    await runner.idle()  # the bot (White) has set up; setups need no search
    await api.state(game)
    await api.act(game, "black", {"type": "setup", "backrow": ROW})
    thinking = (await api.state(game))["version"]
    assert (await api.state(game))["to_move"] == "white"  # the bot's turn: a 3 s search starts

    # The loop's longest pause while the search runs: a search held on the loop
    # would pause it for the whole 3 s.
    loop = asyncio.get_running_loop()
    gaps: list[float] = []

    async def probe() -> None:
        last = loop.time()
        while True:
            await asyncio.sleep(0.01)
            gaps.append(loop.time() - last)
            last = loop.time()

    probing = asyncio.create_task(probe())
    other = await api.start()
    answered = 0  # another match's requests answered before the bot's action landed
    for _ in range(20):
        await api.state(other)
        await api.legal(other, "white")
        if (await api.state(game))["version"] != thinking:
            break
        answered += 1
    await asyncio.wait_for(runner.idle(), 30)
    probing.cancel()
    assert (await api.state(game))["version"] > thinking
    # Counts and a pause bound, not times: a loaded machine answers more slowly,
    # but a held loop answers nothing until the search is over.
    assert answered >= 3, answered
    assert max(gaps) < 1.5, max(gaps)
