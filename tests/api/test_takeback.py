"""Issue 29: takebacks in casual matches. Asked, the opponent accepts (the match
goes back to just before the asker's last choice) or declines; a choice played
meanwhile lapses the ask. Never in rated matches nor against the computer. The
log replayed always makes the match as it stands, and versions only grow."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app.matches import MatchService
from app.matches.store import replay_match

from ..conftest import Api, Game
from .members import member

# What a takeback may change besides the position: the version, the clock's moment.
UNCOMPARED = {"version", "server_time", "clock", "takeback_offer", "draw_offer"}


async def take(api: Api, game: Game, colour: str, do: str) -> httpx.Response:
    return await api.client.post(f"/api/v1/matches/{game.id}/takeback", json={"do": do},
                                 headers=game.auth(colour))


async def first_action(api: Api, game: Game, colour: str) -> dict[str, Any]:
    legal = await api.legal(game, colour)
    return legal["actions"][0]  # type: ignore[no-any-return]


async def play_first(api: Api, game: Game) -> dict[str, Any]:
    colour = game.match["to_move"]
    return await api.act(game, colour, await first_action(api, game, colour))


def position(match: dict[str, Any], also: tuple[str, ...] = ()) -> dict[str, Any]:
    """The match but what a takeback may change besides the position (and `also`)."""
    return {k: v for k, v in match.items() if k not in UNCOMPARED and k not in also}


async def log_of(api: Api, game: Game) -> list[dict[str, Any]]:
    return (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()  # type: ignore[no-any-return]


async def consistent(api: Api, service: MatchService, game: Game) -> list[dict[str, Any]]:
    """The log's versions run 1, 2, ... with none twice, and the log replayed is the match."""
    log = await log_of(api, game)
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    replayed, snapshot = await replay_match(service.engine, game.id)  # type: ignore[misc]
    assert replayed == snapshot
    return log


async def started(api: Api) -> Game:
    game = await api.start()
    await api.setups(game)
    return game


async def test_accepted_the_match_goes_back_to_before_the_askers_last_choice(
        api: Api, service: MatchService) -> None:
    game = await started(api)
    asker = game.match["to_move"]
    before = dict(game.match)
    await play_first(api, game)
    while game.match["to_move"] == asker:  # the asker's turn may hold several choices: the last counts
        before = dict(game.match)
        await play_first(api, game)
    await play_first(api, game)  # and the opponent's reply, undone too
    answered_by = "black" if asker == "white" else "white"
    r = await take(api, game, asker, "ask")
    assert r.status_code == 200, r.text
    assert r.json()["match"]["takeback_offer"] == asker
    r = await take(api, game, answered_by, "accept")
    assert r.status_code == 200, r.text
    after = r.json()["match"]
    log = await consistent(api, service, game)
    assert log[-1]["action"] == {"type": "takeback_accept", "to": before["version"]}
    assert log[-1]["player"] == answered_by
    assert after["takeback_offer"] is None and after["version"] == log[-1]["version"] > before["version"]
    assert position(after) == position(before)  # the position before the asker's choice, exactly
    assert after["to_move"] == asker


async def test_declined_or_withdrawn_nothing_is_undone(api: Api, service: MatchService) -> None:
    game = await started(api)
    asker = game.match["to_move"]
    played = await play_first(api, game)
    r = await take(api, game, asker, "ask")
    opponent = "black" if asker == "white" else "white"
    r = await take(api, game, opponent, "decline")
    assert r.status_code == 200 and r.json()["match"]["takeback_offer"] is None
    assert position(r.json()["match"]) == position(played)
    await take(api, game, asker, "ask")
    r = await take(api, game, asker, "withdraw")
    assert r.status_code == 200 and r.json()["match"]["takeback_offer"] is None
    types = [e["action"]["type"] for e in await consistent(api, service, game)]
    assert types[-4:] == ["takeback_offer", "takeback_decline", "takeback_offer", "takeback_withdraw"]


async def test_a_choice_played_meanwhile_lapses_the_ask(api: Api) -> None:
    game = await started(api)
    asker = game.match["to_move"]
    await play_first(api, game)
    while game.match["to_move"] == asker:
        await play_first(api, game)
    await take(api, game, asker, "ask")
    opponent = game.match["to_move"]
    await play_first(api, game)  # the opponent plays on instead of answering
    assert game.match["takeback_offer"] is None
    r = await take(api, game, opponent, "accept")
    assert r.status_code == 409 and r.json()["error"] == "no_takeback", r.text


async def test_refusals_name_the_reason(api: Api, app: Any) -> None:
    game = await api.start()
    first = game.match["to_move"]
    r = await take(api, game, first, "ask")  # nothing chosen yet, not even a setup
    assert r.status_code == 403 and "no choice yet" in r.json()["detail"]
    await api.setups(game)
    first = game.match["to_move"]
    await play_first(api, game)
    r = await take(api, game, "black" if first == "white" else "white", "accept")
    assert r.status_code == 409 and r.json()["error"] == "no_takeback"
    await take(api, game, first, "ask")
    r = await take(api, game, first, "accept")
    assert r.status_code == 403 and "your own" in r.json()["detail"]
    r = await api.client.post(f"/api/v1/matches/{game.id}/takeback", json={"do": "undo"},
                              headers=game.auth(first))
    assert r.status_code == 400 and "do" in r.json()["detail"]

    bot = await api.create(opponent="bot:random", seat="white")
    r = await take(api, bot, "white", "ask")
    assert r.status_code == 403 and "computer" in r.json()["detail"], r.text

    ada, bea = await member(app, "Ada"), await member(app, "Bea")
    made = await api.client.post(api.base, json={"seat": "white", "rated": True}, headers=ada.token())
    match_id = made.json()["match"]["id"]
    await api.client.post(f"{api.base}/{match_id}/join", json={}, headers=bea.token())
    r = await api.client.post(f"{api.base}/{match_id}/takeback", json={"do": "ask"}, headers=ada.token())
    assert r.status_code == 403 and "rated" in r.json()["detail"], r.text


async def test_two_takebacks_in_a_row_replay_to_the_match(api: Api, service: MatchService) -> None:
    game = await started(api)
    for _ in range(2):
        asker = game.match["to_move"]
        await play_first(api, game)
        await play_first(api, game)
        await take(api, game, asker, "ask")
        r = await take(api, game, "black" if asker == "white" else "white", "accept")
        assert r.status_code == 200, r.text
        game.match = r.json()["match"]
    await play_first(api, game)
    await consistent(api, service, game)


async def test_accept_against_the_askers_own_next_action(api: Api, service: MatchService) -> None:
    """Whichever lands first wins; the other is refused; nothing is lost or played twice."""
    for _ in range(3):
        game = await started(api)
        asker = game.match["to_move"]
        await play_first(api, game)
        while game.match["to_move"] == asker:
            await play_first(api, game)
        while game.match["to_move"] != asker:
            await play_first(api, game)
        await take(api, game, asker, "ask")
        opponent = "black" if asker == "white" else "white"
        nxt = await first_action(api, game, asker)
        accepted, moved = await asyncio.gather(take(api, game, opponent, "accept"), api.post(game, asker, nxt))
        assert sorted([accepted.status_code, moved.status_code]) == [200, 409], (accepted.text, moved.text)
        if accepted.status_code == 200:
            assert moved.json()["error"] == "stale_version"
        else:
            assert accepted.json()["error"] == "no_takeback"
        log = await consistent(api, service, game)
        assert sum(e["action"]["type"] == "takeback_accept" for e in log) == (accepted.status_code == 200)


async def test_two_accepts_at_once_take_back_once(api: Api, service: MatchService) -> None:
    game = await started(api)
    asker = game.match["to_move"]
    await play_first(api, game)
    await take(api, game, asker, "ask")
    opponent = "black" if asker == "white" else "white"
    rs = await asyncio.gather(take(api, game, opponent, "accept"), take(api, game, opponent, "accept"))
    assert sorted(r.status_code for r in rs) == [200, 409], [r.text for r in rs]
    log = await consistent(api, service, game)
    assert [e["action"]["type"] for e in log].count("takeback_accept") == 1
