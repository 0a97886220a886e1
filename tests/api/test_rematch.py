"""Playing again (issue 16): offer, accept, decline, withdraw; the computer
accepts at once; each seat's token reaches that seat alone; exactly one rematch
when both seats press at once, in one process and across two on one database.
Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.db.models import bot_matches, matches
from app.main import create_app
from app.matches import MatchService

from ..conftest import Api, Game

REALTIME = {"type": "realtime", "minutes": 5, "increment": 2}


async def _over(api: Api, **options: Any) -> Game:
    game = await api.start(**options)
    r = await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("black"))
    assert r.status_code == 200, r.text
    return game


async def _rematch(api: Api, game: Game, colour: str) -> httpx.Response:
    return await api.client.post(f"{api.base}/{game.id}/rematch", headers=game.auth(colour))


async def _count_rematches(service: MatchService, match_id: str) -> int:
    async with service.engine.connect() as conn:
        return int((await conn.execute(
            select(func.count()).select_from(matches).where(matches.c.rematch_of == match_id))).scalar_one())


@pytest.mark.parametrize("offerer", ["white", "black"])
async def test_offer_then_accept_swaps_colours_and_hands_each_seat_its_own_token(
    api: Api, service: MatchService, offerer: str,
) -> None:
    accepter = "black" if offerer == "white" else "white"
    game = await _over(api, time_control=REALTIME, no_progress_rounds=7)
    offered = await _rematch(api, game, offerer)
    assert offered.status_code == 200, offered.text
    body = offered.json()
    assert body["rematch"]["match_id"] is None and body["rematch"]["seat"] == accepter
    offer_token = body["rematch"]["token"]
    assert offer_token and offer_token not in game.tokens.values()
    state = body["match"]
    assert state["rematch"] == {"offered_by": offerer, "declined_by": None, "match_id": None}
    # The opponent (and anyone watching) sees the offer; no token is in it.
    seen = await api.state(game)
    assert seen["rematch"]["offered_by"] == offerer and offer_token not in str(seen)

    accepted = await _rematch(api, game, accepter)
    assert accepted.status_code == 200, accepted.text
    made = accepted.json()["rematch"]
    new_id, accept_token = made["match_id"], made["token"]
    assert new_id and made["seat"] == offerer and accept_token not in (offer_token, *game.tokens.values())
    assert (await api.state(game))["rematch"]["match_id"] == new_id
    log = (await api.client.get(f"{api.base}/{game.id}/actions")).json()
    assert [e["action"]["type"] for e in log[-2:]] == ["rematch_offer", "rematch"]
    assert log[-1]["action"]["match_id"] == new_id and offer_token not in str(log)

    new = (await api.client.get(f"{api.base}/{new_id}")).json()
    assert new["status"] == "active" and new["rematch_of"] == game.id
    assert new["players"][accepter]["name"] == game.match["players"][offerer]["name"]
    assert new["players"][offerer]["name"] == game.match["players"][accepter]["name"]
    assert new["options"] == game.match["options"]
    assert new["seed_commitment"] != game.match["seed_commitment"]
    # Each new token proves its own seat there, and an old one proves none.
    for token, colour in ((offer_token, accepter), (accept_token, offerer)):
        r = await api.client.get(f"{api.base}/{new_id}/legal", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        assert bool(r.json()["setup"]) == (colour == "white")  # White sets up first: its seat is asked
    old = await api.client.get(f"{api.base}/{new_id}/legal", headers=game.auth(offerer))
    assert old.status_code == 401

    # Asking again changes nothing and hands out no token.
    again = await _rematch(api, game, offerer)
    assert again.status_code == 200 and again.json()["rematch"] == {
        "match_id": new_id, "seat": accepter, "token": None}
    assert await _count_rematches(service, game.id) == 1


async def test_decline_and_withdraw(api: Api) -> None:
    game = await _over(api)
    decline = f"{api.base}/{game.id}/rematch/decline"
    # Nothing offered: nothing to answer, nothing changes.
    before = (await api.state(game))["version"]
    r = await api.client.post(decline, headers=game.auth("black"))
    assert r.status_code == 200 and r.json()["match"]["version"] == before

    assert (await _rematch(api, game, "white")).status_code == 200
    r = await api.client.post(decline, headers=game.auth("white"))  # White withdraws
    assert r.status_code == 200
    assert r.json()["match"]["rematch"] == {"offered_by": None, "declined_by": None, "match_id": None}

    assert (await _rematch(api, game, "white")).status_code == 200
    r = await api.client.post(decline, headers=game.auth("black"))  # Black declines
    assert r.json()["match"]["rematch"] == {"offered_by": None, "declined_by": "black", "match_id": None}
    again = await _rematch(api, game, "white")
    assert again.status_code == 403 and "declined" in again.json()["detail"]
    log = (await api.client.get(f"{api.base}/{game.id}/actions")).json()
    assert [e["action"]["type"] for e in log[-4:]] == [
        "rematch_offer", "rematch_withdraw", "rematch_offer", "rematch_decline"]
    # The one who declined may still change their mind and offer.
    assert (await _rematch(api, game, "black")).json()["match"]["rematch"]["offered_by"] == "black"


async def test_refusals_name_the_problem_and_change_nothing(api: Api) -> None:
    running = await api.start()
    r = await _rematch(api, running, "white")
    assert r.status_code == 409 and r.json()["error"] == "match_running"
    r = await api.client.post(f"{api.base}/{running.id}/rematch")
    assert r.status_code == 401
    r = await api.client.post(f"{api.base}/nosuchmatch1/rematch", headers=running.auth("white"))
    assert r.status_code in (401, 404)
    lonely = await api.create()
    r = await api.client.post(f"{api.base}/{lonely.id}/abort", headers=lonely.auth("white"))
    assert r.status_code == 200
    r = await _rematch(api, lonely, "white")
    assert r.status_code == 403 and "nobody" in r.json()["detail"]
    assert (await api.state(running))["version"] == running.version


async def test_against_the_computer_the_rematch_is_made_at_once(api: Api, service: MatchService) -> None:
    game = await api.create(opponent="bot:random", seat="black", time_control=REALTIME)
    r = await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("black"))
    assert r.status_code == 200
    made = (await _rematch(api, game, "black")).json()["rematch"]
    assert made["match_id"] and made["seat"] == "white" and made["token"]
    new = (await api.client.get(f"{api.base}/{made['match_id']}")).json()
    assert new["players"]["black"]["bot"] == "random" and new["players"]["white"]["name"] == "Ada"
    assert new["options"]["bot_think_seconds"] == game.match["options"]["bot_think_seconds"]
    r = await api.client.get(f"{api.base}/{made['match_id']}/legal",
                             headers={"Authorization": f"Bearer {made['token']}"})
    assert r.status_code == 200 and r.json()["setup"]  # White sets up first
    assert await _count_rematches(service, game.id) == 1
    # The rematch is the same owner's bot match (counted against its cap, its turns claimed).
    async with service.keeper.engine.connect() as conn:
        owners = dict((await conn.execute(select(bot_matches.c.match_id, bot_matches.c.owner).where(
            bot_matches.c.match_id.in_([game.id, made["match_id"]])))).all())
    assert owners[game.id] is not None and owners[made["match_id"]] == owners[game.id], owners


async def test_both_pressing_at_once_make_one_rematch(api: Api, service: MatchService) -> None:
    for _ in range(5):
        game = await _over(api)
        answers = await asyncio.gather(_rematch(api, game, "white"), _rematch(api, game, "black"),
                                       _rematch(api, game, "white"), _rematch(api, game, "black"))
        assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
        await _each_seat_can_enter(api, game, [a.json()["rematch"] for a in answers])
        assert await _count_rematches(service, game.id) == 1


async def _each_seat_can_enter(api: Api, game: Game, answers: list[dict[str, Any]]) -> None:
    """Between them the answers give each seat one token, and both prove their seats."""
    new_id = (await api.state(game))["rematch"]["match_id"]
    assert new_id and all(a["match_id"] in (None, new_id) for a in answers)
    tokens = {a["seat"]: a["token"] for a in answers if a["token"]}
    assert sorted(tokens) == ["black", "white"], answers
    assert len([a for a in answers if a["token"]]) == 2  # no seat was handed two tokens
    for token in tokens.values():
        r = await api.client.get(f"{api.base}/{new_id}/legal", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text


@pytest.fixture
async def second(settings: Any) -> AsyncIterator[Any]:
    """Another app on the same database: another process, with its own cache and locks."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def test_both_pressing_at_once_on_two_processes_make_one_rematch(
    api: Api, service: MatchService, second: Any,
) -> None:
    transport = httpx.ASGITransport(app=second)
    async with httpx.AsyncClient(transport=transport, base_url="http://other") as other_client:
        other = Api(other_client)
        for _ in range(8):
            game = await _over(api)
            await other.state(Game(game.id))  # the second process holds the match in its cache too
            answers = await asyncio.gather(_rematch(api, game, "white"), _rematch(other, game, "black"))
            assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
            await _each_seat_can_enter(api, game, [a.json()["rematch"] for a in answers])
            assert await _count_rematches(service, game.id) == 1


async def test_the_database_holds_one_rematch_per_match(api: Api, service: MatchService) -> None:
    """The belt under the version check: a second row naming the same match as
    the one it follows is refused by the database itself."""
    from sqlalchemy.exc import IntegrityError

    from app.matches import store

    game = await _over(api)
    made = (await _rematch(api, game, "white"), await _rematch(api, game, "black"))[1].json()["rematch"]
    twin = await service.keeper.get(made["match_id"])
    twin = twin.draft()
    twin.id = "anotherId123"
    with pytest.raises(IntegrityError):
        await store.insert(service.engine, twin)
    assert await _count_rematches(service, game.id) == 1
