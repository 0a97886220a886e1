"""Competing and repeated submissions: exactly one lands, every other is answered,
nothing is applied twice, the log has one row per version."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app.matches import MatchService
from app.matches.store import replay_match

from ..conftest import ROW, Api, Game

SETUP = {"type": "setup", "backrow": ROW}


async def _log(api: Api, game: Game) -> list[dict[str, Any]]:
    return (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()


async def _check_log(api: Api, service: MatchService, game: Game) -> list[dict[str, Any]]:
    state = await api.state(game)
    log = await _log(api, game)
    assert [e["version"] for e in log] == list(range(1, state["version"] + 1))
    replayed, snapshot = await replay_match(service.engine, game.id)  # type: ignore[misc]
    assert replayed == snapshot
    return log


async def test_fifty_identical_submissions_with_one_id(api: Api, service: MatchService) -> None:
    game = await api.start()
    await api.setups(game)
    before = game.version
    action = {"type": "place", "mage": "oracle", "minion": "fey"}
    rs = await asyncio.gather(*[api.post(game, "white", action, version=before, id="same-click")
                                for _ in range(50)])
    assert [r.status_code for r in rs] == [200] * 50, {r.status_code: r.text for r in rs}
    # One applied it; the others were answered its answer, and said so.
    assert sorted(r.headers.get("idempotency-replayed", "") for r in rs) == [""] + ["true"] * 49
    versions = {r.json()["match"]["version"] for r in rs}
    assert versions == {before + 1}
    log = await _check_log(api, service, game)
    assert game.version == before + 1
    assert [e["action"] for e in log[before:]] == [action]
    assert game.match["reserve"]["white"]["fey"] == 1


async def test_fifty_identical_submissions_without_an_id(api: Api, service: MatchService) -> None:
    game = await api.start()
    await api.setups(game)
    before = game.version
    action = {"type": "place", "mage": "animist", "minion": "dragon"}
    rs = await asyncio.gather(*[api.post(game, "white", action, version=before) for _ in range(50)])
    codes = [r.status_code for r in rs]
    assert set(codes) <= {200, 409} and codes.count(200) >= 1, codes
    for r in rs:
        if r.status_code == 409:
            assert r.json()["error"] == "stale_version" and r.json()["version"] == before + 1
    await _check_log(api, service, game)
    assert game.version == before + 1
    assert game.match["reserve"]["white"]["dragon"] == 1


async def test_fifty_different_competing_actions_one_lands(api: Api, service: MatchService) -> None:
    game = await api.start()
    await api.setups(game)
    before = game.version
    legal = (await api.legal(game, "white"))["actions"]
    choices = [a for a in legal if a["type"] == "place"][:50]
    assert len(choices) == 50
    rs = await asyncio.gather(*[api.post(game, "white", a, version=before) for a in choices])
    landed = [a for a, r in zip(choices, rs, strict=True) if r.status_code == 200]
    assert len(landed) == 1, [r.status_code for r in rs]
    for r in rs:
        if r.status_code != 200:
            assert r.status_code == 409 and r.json() == {
                "error": "stale_version", "detail": r.json()["detail"], "version": before + 1}
    log = await _check_log(api, service, game)
    assert [e["action"] for e in log[before:]] == landed


async def test_both_seats_race_resign_against_an_action(api: Api, service: MatchService) -> None:
    game = await api.start()
    await api.setups(game)
    before = game.version
    url = f"/api/v1/matches/{game.id}/resign"
    rs = await asyncio.gather(
        api.post(game, "white", {"type": "pass"}, version=before),
        api.client.post(url, headers=game.auth("black")),
        api.client.post(url, headers=game.auth("white")),
    )
    codes = [r.status_code for r in rs]
    assert all(c in (200, 409) for c in codes), codes
    state = await api.state(game)
    assert state["status"] == "finished" and state["result"]["reason"] == "resigned"
    log = await _check_log(api, service, game)
    assert [e["action"]["type"] for e in log].count("resign") == 1


async def test_many_joins_one_seat(api: Api, service: MatchService) -> None:
    game = await api.create()
    rs = await asyncio.gather(*[
        api.client.post(f"/api/v1/matches/{game.id}/join", json={"name": f"J{i}"}) for i in range(20)])
    codes = [r.status_code for r in rs]
    assert codes.count(200) == 1 and codes.count(409) == 19, codes
    assert all(r.json()["error"] == "seat_taken" for r in rs if r.status_code == 409)
    state = await api.state(game)
    assert state["status"] == "active" and state["version"] == 1
    winner = next(r for r in rs if r.status_code == 200)
    assert state["players"]["black"]["name"] == winner.json()["match"]["players"]["black"]["name"]


async def test_concurrent_draw_offers_from_both_seats(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    url = f"/api/v1/matches/{game.id}/draw"
    rs = await asyncio.gather(
        api.client.post(url, json={"offer": True}, headers=game.auth("white")),
        api.client.post(url, json={"offer": True}, headers=game.auth("black")),
    )
    assert all(r.status_code == 200 for r in rs), [r.text for r in rs]
    state = await api.state(game)
    # Whichever came second accepted the first: a draw by agreement.
    assert state["result"] == {"winner": None, "reason": "agreement"}


async def test_many_matches_at_once_stay_apart(api: Api, service: MatchService) -> None:
    games = await asyncio.gather(*[api.start(name=f"M{i}") for i in range(10)])

    async def play(g: Game) -> None:
        await api.setups(g)
        await api.act(g, "white", {"type": "pass"})

    await asyncio.gather(*[play(g) for g in games])
    for g in games:
        await _check_log(api, service, g)
        assert g.match["passed"]["white"] is True


async def test_a_resend_after_the_match_moved_on(api: Api, client: httpx.AsyncClient) -> None:
    """The answer to a resend of an action that landed, even several versions later, is 200."""
    game = await api.start()
    first = await api.post(game, "white", SETUP, id="w1")
    v1 = first.json()["match"]["version"]
    game.match = first.json()["match"]
    await api.act(game, "black", SETUP)
    await api.act(game, "white", {"type": "pass"})
    again = await api.post(game, "white", SETUP, version=v1 - 1, id="w1")
    assert again.status_code == 200, again.text
    same = await api.post(game, "white", SETUP, version=v1 - 1)
    assert same.status_code == 200, same.text
    assert (await api.state(game))["version"] == game.version
