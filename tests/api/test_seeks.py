"""Seeks (issue 20, "Open matches"): an open match shows its creator's rating,
may ask for a rating range, and admits only an account whose rating in the
variant is within it; a guest is told why it cannot join; a range that cannot
be one is refused at create. Created as White and as Black."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import update

from app.db.account_models import ratings

from .members import Member, member

BASE = "/api/v1/matches"


async def rated_at(app: Any, who: Member, rating: float, rd: float = 60.0) -> None:
    """`who`'s standard rating set as if played to it (a new account has none stored yet)."""
    engine = app.state.parts.engine
    async with engine.begin() as conn:
        done = await conn.execute(update(ratings).where(ratings.c.account_id == who.account.id,
                                                        ratings.c.variant == "standard").values(rating=rating, rd=rd))
        if not done.rowcount:
            await conn.execute(ratings.insert().values(account_id=who.account.id, variant="standard", rating=rating,
                                                       rd=rd, volatility=0.06, games=20))


@pytest.mark.parametrize("seat", ["white", "black"])
async def test_a_ranged_seek_admits_only_accounts_within_its_range(app: Any, client: httpx.AsyncClient,
                                                                   seat: str) -> None:
    ada, bea, cid = [await member(app, n) for n in ("Ada", "Bea", "Cid")]
    await rated_at(app, ada, 1600.0)
    await rated_at(app, bea, 1790.0)  # within 200 of 1600
    await rated_at(app, cid, 1850.4)  # 250 above
    made = await client.post(BASE, json={"seat": seat, "options": {"rating_range": 200}}, headers=ada.token())
    assert made.status_code == 201, made.text
    seek = made.json()["match"]
    assert seek["options"]["rating_range"] == 200
    listed = (await client.get(BASE, params={"status": "waiting", "here": "true"})).json()["matches"]
    assert [m["players"][seat]["rating"] for m in listed] == [{"rating": 1600, "rd": 60, "provisional": False}]
    url = f"{BASE}/{seek['id']}/join"
    guest = await client.post(url, json={"name": "Gus"})
    assert guest.status_code == 403 and guest.json()["error"] == "rating_out_of_range"
    assert "sign in to join it (a guest has no rating)" in guest.json()["detail"]
    far = await client.post(url, json={}, headers=cid.token())
    assert far.status_code == 403 and far.json() == {"error": "rating_out_of_range", "detail": (
        "this match asks for a rating within \u00b1200 of Ada's 1600 (1400 to 1800): yours in standard is 1850")}
    after = (await client.get(f"{BASE}/{seek['id']}")).json()
    assert (after["status"], after["version"]) == ("waiting", 0)  # nothing changed
    near = await client.post(url, json={}, headers=bea.token())
    assert near.status_code == 200, near.text
    assert near.json()["match"]["status"] == "active" and near.json()["match"]["players"][near.json()["seat"]][
        "account"] == "Bea"


async def test_a_seek_without_a_range_is_open_to_anyone(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    made = (await client.post(BASE, json={"seat": "white"}, headers=ada.token())).json()["match"]
    assert "rating_range" not in made["options"]
    assert made["players"]["white"]["rating"] == {"rating": 1500, "rd": 500, "provisional": True}
    joined = await client.post(f"{BASE}/{made['id']}/join", json={"name": "Gus"})
    assert joined.status_code == 200, joined.text


async def test_a_range_that_cannot_be_one_is_refused_at_create(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    cases = [
        # A guest has no rating to be around: refused for who asks, as a guest's `rated` is.
        ({}, {"rating_range": 200}, 403, "forbidden", "sign in to ask for one"),
        (ada.token(), {"rating_range": 200, "_bot": True}, 400, "bad_request", "a computer level joins at once"),
        (ada.token(), {"rating_range": 20}, 400, "bad_request", "rating_range"),
        (ada.token(), {"rating_range": "200"}, 400, "bad_request", "rating_range"),
    ]
    for headers, options, status, code, words in cases:
        body: dict[str, Any] = {"options": {k: v for k, v in options.items() if k != "_bot"}}
        if options.get("_bot"):
            body["opponent"] = "bot:random"
        r = await client.post(BASE, json=body, headers=headers)
        assert r.status_code == status and r.json()["error"] == code, r.text
        assert words in r.json()["detail"], r.text
    assert (await client.get(BASE)).json()["matches"] == []  # nothing made
