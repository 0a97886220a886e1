"""Issue 17, item 1: bot work is a shared resource of one process. A bot's think
time is bounded by the server; the search slots go round the owners, so a
bystander's bot is not stuck behind an attacker's queue; a turn nobody watches
is dropped, and taken up when its person is back; /metrics tells the wait for
a slot from the search itself. A stand-in searcher (tests/bots/standin.py)
decides how slow a search is: no time is asserted."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.config import Settings

from ..conftest import FakeTime, make_settings
from ..waiting import until
from .standin import StandIn, api_from

ATTACKER, BYSTANDER = "10.0.0.66", "10.0.0.7"


@pytest.fixture
def settings(database_url: str) -> Settings:
    return make_settings(database_url, bot_workers=1, bot_max_think_seconds=0.5, bot_matches_per_address=0,
                         bot_resume_seconds=3600)  # no resume pass in a test: each wake is the one tested


def _runner(app: Any, standin: StandIn) -> Any:
    runner = app.state.parts.bots
    runner.search = standin
    return runner


async def test_a_bot_never_thinks_longer_than_the_server_allows(app: Any) -> None:
    standin = StandIn()
    runner = _runner(app, standin)
    async with api_from(app, BYSTANDER) as api:
        game = await api.create(seat="black", opponent="bot:strong", bot_think_seconds=10)
        await until(lambda: bool(standin.calls), "the bot searched")
        await runner.idle()
    assert game.match["options"]["bot_think_seconds"] == 0.5  # what the bot is given, shown
    assert standin.calls == [("strong", 0.5)]


async def test_a_bystanders_strong_bot_is_not_stuck_behind_an_attackers_queue(app: Any) -> None:
    standin = StandIn(hold=("strong",))
    runner = _runner(app, standin)
    async with api_from(app, ATTACKER) as attacker, api_from(app, BYSTANDER) as bystander:
        for _ in range(4):  # the bot (White) is to move at once in each
            await attacker.create(seat="black", opponent="bot:strong", bot_think_seconds=0.2)
        await until(lambda: standin.held == 1 and runner.share.waiting() == 3,
                    "one strong search running, three queued")
        await bystander.create(seat="black", opponent="bot:strong", bot_think_seconds=0.4)
        await until(lambda: runner.share.waiting() == 4, "the bystander's turn queued behind them")
        standin.let_one_go()  # the attacker's first search ends: whose turn is next?
        await until(lambda: len(standin.calls) >= 2, "the next search started")
        assert standin.calls[:2] == [("strong", 0.2), ("strong", 0.4)]  # the bystander's, not the attacker's
        standin.let_all_go()
        await runner.idle()


async def test_a_greedy_bot_never_waits_for_strong_searches(app: Any) -> None:
    standin = StandIn(hold=("strong",))
    runner = _runner(app, standin)
    async with api_from(app, ATTACKER) as attacker, api_from(app, BYSTANDER) as bystander:
        for _ in range(4):
            await attacker.create(seat="black", opponent="bot:strong")
        await until(lambda: standin.held == 1 and runner.share.waiting() == 3,
                    "one strong search running, three queued")
        game = await bystander.create(seat="black", opponent="bot:greedy")
        await until(lambda: _version(bystander, game), "the greedy bot played")
        assert standin.held == 1 and runner.share.waiting() == 3  # while every strong search still waits
        standin.let_all_go()
        await runner.idle()


async def _version(api: Any, game: Any) -> bool:
    return int((await api.state(game))["version"]) > 0


async def test_a_turn_nobody_watches_is_dropped_and_taken_up_when_its_person_is_back(app: Any) -> None:
    standin = StandIn(hold=("strong",))
    runner = _runner(app, standin)
    clock = FakeTime(app.state.parts.service)
    async with api_from(app, ATTACKER) as attacker, api_from(app, BYSTANDER) as api:
        await attacker.create(seat="black", opponent="bot:strong", bot_think_seconds=0.2)
        await until(lambda: standin.held == 1, "a strong search holds the one slot")
        game = await api.create(seat="black", opponent="bot:strong", bot_think_seconds=0.4)
        await until(lambda: runner.share.waiting() == 1, "the second turn queued")
        clock.advance(app.state.parts.settings.bot_unwatched_seconds + 1)  # its person left, no socket
        standin.let_one_go()
        await until(lambda: not runner._turns, "both turns done (one played, one dropped)")
        assert standin.calls == [("strong", 0.2)]  # the unwatched turn was never searched
        assert (await api.state(game))["version"] == 0
        metrics = (await api.client.get("/metrics")).text
        assert 'magery_bot_turns_dropped_total{reason="unwatched"} 1.0' in metrics
        await api.legal(game, "black")  # the person is back (a request with the seat's token)
        await until(lambda: standin.held == 1, "the turn taken up again")
        standin.let_all_go()
        await until(lambda: _version(api, game), "the bot played once its person was back")
        assert standin.calls == [("strong", 0.2), ("strong", 0.4)]


async def test_metrics_tell_the_wait_for_a_slot_from_the_search(app: Any) -> None:
    clock = [0.0]

    def five_seconds_of_thought() -> None:
        clock[0] += 5.0

    standin = StandIn(hold=("strong",), after_hold=five_seconds_of_thought)
    runner = _runner(app, standin)
    runner.timer = lambda: clock[0]
    async with api_from(app, BYSTANDER) as api:
        await api.create(seat="black", opponent="bot:strong")
        await until(lambda: standin.held == 1, "the first search runs")
        await api.create(seat="black", opponent="bot:strong")
        await until(lambda: runner.share.waiting() == 1, "the second waits for the slot")
        standin.let_all_go()  # each search "takes" 5 s; the second waited 5 s before its own
        await runner.idle()
        metrics = (await api.client.get("/metrics")).text

    def value(name: str) -> float:
        found = re.search(rf'^{name}{{level="strong"}} (\S+)$', metrics, re.M)
        assert found, name
        return float(found.group(1))

    assert value("magery_bot_think_seconds_count") == 2
    assert value("magery_bot_think_seconds_sum") == 10.0  # the searches alone, not the wait
    assert value("magery_bot_queue_seconds_count") == 2
    assert value("magery_bot_queue_seconds_sum") == 5.0
