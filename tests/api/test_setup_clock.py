"""Our ruling on clocks and setup (docs/rules.md, "Clocks"): setup runs no clock,
the clocks start with the first round, and a side that has not set up within the
match's setup time gets the match aborted, not lost. The time is injected
(FakeTime); each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from app.matches import MatchService

from ..conftest import ROW, Api, FakeTime

REALTIME = {"type": "realtime", "minutes": 1, "increment": 5}


async def test_setup_runs_no_clock_and_the_first_round_starts_it(api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    game = await api.start(time_control=REALTIME)
    assert game.match["options"]["setup_seconds"] == 60
    time.advance(50)
    state = await api.state(game)
    assert state["clock"]["running"] is None
    assert (state["clock"]["white"], state["clock"]["black"]) == (60_000, 60_000)
    assert state["clock"]["setup"] == 10_000  # what White has left to set up
    await api.act(game, "white", {"type": "setup", "backrow": ROW})
    assert game.match["clock"]["setup"] == 60_000  # Black's own setup time, from now
    time.advance(50)  # 100 s since the start: more than a minute, and nobody lost any time
    after = await api.act(game, "black", {"type": "setup", "backrow": ROW})
    assert "setup" not in after["clock"]
    # No increment either: a setup is not a move of the clock's.
    assert (after["clock"]["white"], after["clock"]["black"]) == (60_000, 60_000)
    assert after["clock"]["running"] == after["to_move"] and after["phase"] == "decision"
    time.advance(10)
    assert (await api.state(game))["clock"][after["to_move"]] == 50_000


async def test_a_late_setup_aborts_the_match_for_the_sweeper(api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    game = await api.start(time_control=REALTIME)
    time.advance(59)
    assert await service.finisher.sweep() == 0
    time.advance(2)
    assert await service.finisher.sweep() == 1
    state = await api.state(game)
    assert state["status"] == "finished"
    assert state["result"] == {"winner": None, "reason": "aborted", "late": "white"}
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()
    assert log[-1]["action"] == {"type": "abort", "late": "white"}
    assert log[-1]["automatic"] is True and log[-1]["player"] is None


async def test_black_has_its_own_setup_time_and_a_read_applies_it(api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    game = await api.start(time_control=REALTIME)
    time.advance(55)
    await api.act(game, "white", {"type": "setup", "backrow": ROW})
    time.advance(55)  # 110 s since the start, 55 s of Black's setup time
    assert (await api.state(game))["status"] == "active"
    time.advance(6)
    state = await api.state(game)  # no sweeper: the read settles it
    assert state["result"] == {"winner": None, "reason": "aborted", "late": "black"}
    r = await api.post(game, "black", {"type": "setup", "backrow": ROW})
    assert r.status_code == 409 and r.json()["error"] == "match_over"


async def test_the_limit_is_the_servers_setting(api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    service.settings.setup_seconds = 20
    game = await api.start(time_control=REALTIME)
    assert game.match["options"]["setup_seconds"] == 20
    service.settings.setup_seconds = 60  # a match keeps the figure it was made with
    time.advance(21)
    assert (await api.state(game))["result"]["late"] == "white"


async def test_correspondence_gives_a_moves_allowance_and_untimed_no_limit(
    api: Api, service: MatchService,
) -> None:
    time = FakeTime(service)
    post = await api.start(time_control={"type": "correspondence", "days": 1})
    untimed = await api.start()
    assert post.match["options"]["setup_seconds"] == 86_400
    assert untimed.match["options"]["setup_seconds"] is None
    time.advance(86_000)
    assert await service.finisher.sweep() == 0
    assert (await api.state(post))["clock"]["running"] is None
    time.advance(1_000)
    assert await service.finisher.sweep() == 1
    assert (await api.state(post))["result"]["late"] == "white"
    assert (await api.state(untimed))["status"] == "active"


async def test_a_bot_match_starts_its_setup_time_at_once(api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    game = await api.create(opponent="bot:random", time_control=REALTIME)
    assert game.match["status"] == "active" and game.match["clock"]["running"] is None
    time.advance(61)
    state = await api.state(game)
    assert state["result"]["reason"] == "aborted"
