"""`Idempotency-Key` on create, join and rematch (issue 21, item 1): a resend is answered
as the first request was, a reused key with another body is refused, racing
requests with one key make one match, and the database holds no usable token."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.db.models import Match
from app.db.resend_models import kept_answers

from ..conftest import Api
from .members import member

BASE = "/api/v1/matches"
KEY = "5f0c2a9e-6d1b-4c7e-9a43-0b8f1e2d3c4a"
BODY = {"seat": "white", "name": "Ada"}


def _key(key: str = KEY) -> dict[str, str]:
    return {"Idempotency-Key": key}


async def _matches(app: Any) -> int:
    async with app.state.parts.engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(Match.__table__))).scalar_one())


async def test_a_resent_create_is_answered_as_the_first(client: httpx.AsyncClient, app: Any) -> None:
    first = await client.post(BASE, json=BODY, headers=_key())
    again = await client.post(BASE, json=BODY, headers=_key())
    assert first.status_code == again.status_code == 201, again.text
    assert again.content == first.content  # the same match, seat and token
    assert again.headers["location"] == f"{BASE}/{first.json()['match']['id']}"
    assert again.headers["idempotency-replayed"] == "true"
    other = await client.post(BASE, json=BODY, headers=_key(KEY[::-1]))  # a new key: a new match
    assert other.json()["match"]["id"] != first.json()["match"]["id"]
    assert await _matches(app) == 2
    # Without a key nothing is kept: two creates, two matches.
    await client.post(BASE, json=BODY)
    await client.post(BASE, json=BODY)
    assert await _matches(app) == 4
    # The key with another body: refused, nothing made.
    r = await client.post(BASE, json={**BODY, "name": "Bo"}, headers=_key())
    assert r.status_code == 422 and r.json()["error"] == "idempotency_key_reused", r.text
    assert "another request" in r.json()["detail"]
    assert await _matches(app) == 4
    short = await client.post(BASE, json=BODY, headers=_key("abc"))
    assert short.status_code == 400 and "Idempotency-Key" in short.json()["detail"], short.text
    # A key is its caller's: another address sending it makes a match of its own.
    transport = httpx.ASGITransport(app=app, client=("10.0.0.2", 4000))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as elsewhere:
        theirs = await elsewhere.post(BASE, json=BODY, headers=_key())
    assert theirs.status_code == 201 and theirs.json()["match"]["id"] != first.json()["match"]["id"]


async def test_a_resent_join_gives_the_seat_again(client: httpx.AsyncClient, api: Api) -> None:
    game = await api.create()
    join = f"{BASE}/{game.id}/join"
    first = await client.post(join, json={"name": "Bo"}, headers=_key())
    again = await client.post(join, json={"name": "Bo"}, headers=_key())
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json() and again.json()["token"]
    # Without the key the seat is gone: the token was the only way in.
    assert (await client.post(join, json={"name": "Bo"})).status_code == 409
    # The same key for another call (another match's join) is another request's.
    other = await api.create()
    assert (await client.post(f"{BASE}/{other.id}/join", json={"name": "Bo"}, headers=_key())).status_code == 422
    # An error is not kept: the key stays free for a request that succeeds.
    second = _key(KEY.upper())
    assert (await client.post(join, json={}, headers=second)).json()["error"] == "seat_taken"
    assert (await client.post(join, json={}, headers=second)).json()["error"] == "seat_taken"
    assert (await client.post(BASE, json=BODY, headers=second)).status_code == 201


async def test_racing_creates_with_one_key_make_one_match(client: httpx.AsyncClient, app: Any) -> None:
    answers = await asyncio.gather(*[client.post(BASE, json=BODY, headers=_key()) for _ in range(8)])
    assert {r.status_code for r in answers} == {201}, [r.text for r in answers]
    assert len({r.content for r in answers}) == 1
    assert await _matches(app) == 1
    join = f"{BASE}/{answers[0].json()['match']['id']}/join"
    joins = await asyncio.gather(*[client.post(join, json={}, headers=_key(KEY.upper())) for _ in range(8)])
    assert {r.status_code for r in joins} == {200} and len({r.content for r in joins}) == 1


async def test_answers_are_kept_sealed_for_a_day(client: httpx.AsyncClient, app: Any) -> None:
    resends = app.state.parts.resends
    now = resends.clock()
    first = await client.post(BASE, json=BODY, headers=_key())
    async with app.state.parts.engine.connect() as conn:
        rows = (await conn.execute(select(kept_answers))).all()
    assert len(rows) == 1
    stored = repr(tuple(rows[0]))  # a reader of the database finds neither the token nor the key
    assert first.json()["token"] not in stored and KEY not in stored and first.json()["match"]["id"] not in stored
    resends.clock = lambda: now + timedelta(hours=23)
    assert (await client.post(BASE, json=BODY, headers=_key())).content == first.content
    resends.clock = lambda: now + timedelta(days=1, minutes=2)
    # Another key's request sweeps the day-old row; the old key makes a new match then.
    await client.post(BASE, json=BODY, headers=_key(KEY.upper()))
    async with app.state.parts.engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(kept_answers))).scalar_one() == 1
    later = await client.post(BASE, json=BODY, headers=_key())
    assert later.json()["match"]["id"] != first.json()["match"]["id"]


async def test_a_first_request_still_at_work(client: httpx.AsyncClient, app: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A resend while the first is at work waits for it (here: not at all, so it
    is told 409 to come back); a first whose process died (its claim a minute old
    with no answer) is taken over by the resend."""
    gateway, resends = app.state.parts.gateway, app.state.parts.resends
    create, entered, release = gateway.create, asyncio.Event(), asyncio.Event()

    async def held(*args: Any, **kwargs: Any) -> Any:
        if not entered.is_set():
            entered.set()
            await release.wait()
        return await create(*args, **kwargs)

    monkeypatch.setattr(gateway, "create", held)
    monkeypatch.setattr(resends, "wait_seconds", 0.0)
    first = asyncio.create_task(client.post(BASE, json=BODY, headers=_key()))
    await entered.wait()
    busy = await client.post(BASE, json=BODY, headers=_key())
    assert busy.status_code == 409 and busy.json()["error"] == "request_in_flight", busy.text
    assert busy.headers["retry-after"] == "1"
    now = resends.clock()
    resends.clock = lambda: now + timedelta(minutes=2)  # the first's claim looks dead now
    taken_over = await client.post(BASE, json=BODY, headers=_key())
    assert taken_over.status_code == 201 and "idempotency-replayed" not in taken_over.headers
    release.set()
    assert (await first).status_code == 201


async def test_a_resent_rematch_gives_its_token_again_and_racing_ones_make_one(
        client: httpx.AsyncClient, api: Api, app: Any) -> None:
    """The rematch's answer holds the token of the seat in it, handed out once: a
    resend with the key gets it again; racing resends make one offer, then one
    rematch; a key is its seat's (the other seat's same key is its own request)."""
    game = await api.start()
    assert (await client.post(f"{BASE}/{game.id}/resign", headers=game.auth("black"))).status_code == 200
    rematch = f"{BASE}/{game.id}/rematch"
    offers = await asyncio.gather(*[client.post(rematch, headers={**game.auth("white"), **_key()})
                                    for _ in range(6)])
    assert {r.status_code for r in offers} == {200}, [r.text for r in offers]
    assert len({r.content for r in offers}) == 1 and offers[0].json()["rematch"]["token"]
    assert sum(r.headers.get("idempotency-replayed") == "true" for r in offers) == 5
    # The other seat, the same key, the same address: its own request (it accepts), never White's answer.
    accepts = await asyncio.gather(*[client.post(rematch, headers={**game.auth("black"), **_key()})
                                     for _ in range(6)])
    assert {r.status_code for r in accepts} == {200} and len({r.content for r in accepts}) == 1
    made = accepts[0].json()["rematch"]
    assert made["match_id"] and made["token"] and made["token"] != offers[0].json()["rematch"]["token"]
    async with app.state.parts.engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(Match.__table__)
                                   .where(Match.__table__.c.rematch_of == game.id))).scalar_one() == 1
    # White, its answer lost, asks again with the key: the same token (without the key: none).
    again = await client.post(rematch, headers={**game.auth("white"), **_key()})
    assert again.content == offers[0].content and again.headers["idempotency-replayed"] == "true"
    assert (await client.post(rematch, headers=game.auth("white"))).json()["rematch"]["token"] is None


async def test_an_accounts_key_used_for_a_rematch_and_another_call_is_refused(
        client: httpx.AsyncClient, app: Any) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    r = await client.post(BASE, json={"seat": "white"}, headers={**ada.token(), **_key()})
    assert r.status_code == 201, r.text
    match_id = r.json()["match"]["id"]
    assert (await client.post(f"{BASE}/{match_id}/join", json={}, headers=bo.token())).status_code == 200
    assert (await client.post(f"{BASE}/{match_id}/resign", headers=bo.token())).status_code == 200
    r = await client.post(f"{BASE}/{match_id}/rematch", headers={**ada.token(), **_key()})  # the create's key
    assert r.status_code == 422 and r.json()["error"] == "idempotency_key_reused", r.text
    r = await client.post(f"{BASE}/{match_id}/rematch", headers={**ada.token(), **_key(KEY.upper())})
    assert r.status_code == 200 and r.json()["rematch"]["token"], r.text
    bad = await client.post(f"{BASE}/{match_id}/rematch", headers={**ada.token(), **_key("short")})
    assert bad.status_code == 400 and "Idempotency-Key" in bad.json()["detail"], bad.text


async def test_a_rematch_with_a_key_and_no_seat_is_refused_as_without_one(
        client: httpx.AsyncClient, api: Api) -> None:
    """The seat is proved before the key is looked at: a key reused on this address
    (by a create) is no answer to a caller with no credential, or a wrong one."""
    assert (await client.post(BASE, json=BODY, headers=_key())).status_code == 201
    game = await api.start()
    rematch = f"{BASE}/{game.id}/rematch"
    assert (await client.post(rematch, headers=_key())).status_code == 401
    wrong = await client.post(rematch, headers={"Authorization": "Bearer not-a-seat-token", **_key()})
    assert wrong.status_code == 401, wrong.text
