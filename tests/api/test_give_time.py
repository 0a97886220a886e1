"""Issue 29: give time. A player adds 15 s to the opponent's real-time clock;
refused without a clock, with a correspondence one, after the end, and to
yourself. Every client's clock figures include it at once."""

from __future__ import annotations

from app.matches import MatchService

from ..conftest import Api, FakeTime, Game

REALTIME = {"type": "realtime", "minutes": 5, "increment": 0}


async def give(api: Api, game: Game, colour: str, **body: str) -> dict:  # type: ignore[type-arg]
    r = await api.client.post(f"/api/v1/matches/{game.id}/give-time", json=body or None,
                              headers=game.auth(colour))
    return {"status": r.status_code, **r.json()}


async def test_fifteen_seconds_on_the_opponents_clock_while_it_runs(api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    game = await api.start(time_control=REALTIME)
    await api.setups(game)
    mover = game.match["to_move"]
    waiting = "black" if mover == "white" else "white"
    time.advance(10)
    given = await give(api, game, waiting)  # the one waiting gives the one thinking
    assert given["status"] == 200, given
    clock = given["match"]["clock"]
    assert clock[mover] == 300_000 - 10_000 + 15_000 and clock[waiting] == 300_000
    assert clock["running"] == mover
    # The flag falls 15 s later than it would have: after 315 s of thinking, not 300.
    time.advance(304)
    assert await service.finisher.sweep() == 0
    assert (await api.state(game))["clock"][mover] == 1_000
    time.advance(2)
    assert await service.finisher.sweep() == 1
    state = await api.state(game)
    assert state["status"] == "finished" and state["result"]["reason"] == "timeout", state["result"]
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()
    assert {"type": "give_time", "seconds": 15} in [e["action"] for e in log]


async def test_to_the_waiting_side_too_and_named_explicitly(api: Api, service: MatchService) -> None:
    FakeTime(service)
    game = await api.start(time_control=REALTIME)
    await api.setups(game)
    mover = game.match["to_move"]
    waiting = "black" if mover == "white" else "white"
    given = await give(api, game, mover, to=waiting)
    assert given["status"] == 200 and given["match"]["clock"][waiting] == 315_000


async def test_refusals(api: Api, service: MatchService) -> None:
    untimed = await api.start()
    r = await give(api, untimed, "white")
    assert r["status"] == 403 and "no clock" in r["detail"], r

    post = await api.start(time_control={"type": "correspondence", "days": 1})
    r = await give(api, post, "white")
    assert r["status"] == 403 and "correspondence" in r["detail"], r

    game = await api.start(time_control=REALTIME)
    r = await give(api, game, "white", to="white")
    assert r["status"] == 403 and "never to yourself" in r["detail"], r
    r = await give(api, game, "white", to="blue")
    assert r["status"] == 400, r
    assert (await api.state(game))["clock"]["black"] == 300_000  # nothing given by a refusal
    await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("black"))
    r = await give(api, game, "white")
    assert r["status"] == 409 and r["error"] == "match_over", r
