"""An arena's rules of entry through REST, on SQLite and PostgreSQL: a
password (kept hashed, never shown: readers see `private`), a rating floor and
ceiling (the joiner's rating in the arena's variant; none yet counts as 1500),
bot accounts only where let in, bad fields named, and the per-account limit on
making arenas (429 with Retry-After, held under arenas made at once)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.db.account_models import ratings
from app.db.tournament_models import tournaments
from app.tournaments import entry

from ..api.members import Member, member
from .test_berserk import BASE, NEW, berserk, setups


async def make(client: httpx.AsyncClient, who: Member, **fields: Any) -> httpx.Response:
    return await client.post(BASE, json={**NEW, **fields}, headers=who.token())


async def join(client: httpx.AsyncClient, tid: str, who: Member, **body: Any) -> httpx.Response:
    return await client.post(f"{BASE}/{tid}/join", json=body or None, headers=who.token())


def refused(r: httpx.Response, status: int, error: str, field: str) -> None:
    assert r.status_code == status, r.text
    assert (r.json()["error"], r.json().get("field")) == (error, field), r.text


async def rate(app: Any, who: Member, rating: float, variant: str = "standard") -> None:
    async with app.state.parts.engine.begin() as conn:
        await conn.execute(ratings.insert().values(account_id=who.account.id, variant=variant, rating=rating,
                                                   rd=60.0, volatility=0.06, games=30))


async def test_a_private_arena_lets_in_only_who_gives_its_password_and_never_shows_it(
        app: Any, client: httpx.AsyncClient) -> None:
    ann, bob = await member(app, "AnnKey"), await member(app, "BobKey")
    secret = "open sesame, ünïcode"
    r = await make(client, ann, password=secret)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for shown in (r.json(), (await client.get(f"{BASE}/{tid}")).json(),
                  (await client.get(BASE)).json()["tournaments"][0]):
        assert shown["private"] is True and "password" not in shown and secret not in json.dumps(shown)
    async with app.state.parts.engine.connect() as conn:
        kept = (await conn.execute(select(tournaments.c.password_hash).where(tournaments.c.id == tid))).scalar_one()
    assert secret not in kept and kept.startswith("pbkdf2$")
    refused(await join(client, tid, bob), 403, "wrong_password", "password")
    refused(await join(client, tid, bob, password="open sesame"), 403, "wrong_password", "password")
    refused(await join(client, tid, bob, password=secret.upper()), 403, "wrong_password", "password")
    assert (await client.get(f"{BASE}/{tid}")).json()["standings"] == []  # nobody let in by a refusal
    r = await join(client, tid, bob, password=secret)
    assert r.status_code == 200 and [s["name"] for s in r.json()["standings"]] == [bob.name], r.text
    r = await join(client, tid, bob, password=5)
    assert r.status_code == 400 and "password" in r.json()["detail"], r.text
    r = await join(client, tid, bob, password=secret, rounds=3)
    assert r.status_code == 400 and "rounds" in r.json()["detail"], r.text
    public = (await make(client, ann)).json()
    assert public["private"] is False
    r = await join(client, public["id"], bob, password="anything")  # a password to an open arena is no matter
    assert r.status_code == 200, r.text


async def test_the_rating_floor_and_ceiling_check_the_rating_in_the_arenas_variant(
        app: Any, client: httpx.AsyncClient) -> None:
    ann, new, strong = await member(app, "AnnRange"), await member(app, "NewRange"), await member(app, "TopRange")
    await rate(app, strong, 1712.4)
    await rate(app, new, 2400.0, variant="chaos")  # another variant's rating is no matter here
    tid = (await make(client, ann, min_rating=1600, max_rating=1800)).json()["id"]
    shown = (await client.get(f"{BASE}/{tid}")).json()
    assert (shown["min_rating"], shown["max_rating"]) == (1600, 1800)
    r = await join(client, tid, new)
    refused(r, 403, "rating_outside", "min_rating")
    assert "1500" in r.json()["detail"] and "1600" in r.json()["detail"]
    assert (await join(client, tid, strong)).status_code == 200
    low = (await make(client, ann, max_rating=1700)).json()["id"]
    r = await join(client, low, strong)
    refused(r, 403, "rating_outside", "max_rating")
    assert "1712" in r.json()["detail"]
    assert (await join(client, low, new)).status_code == 200


async def test_bot_accounts_join_only_where_let_in_and_may_berserk_there(app: Any, client: httpx.AsyncClient) -> None:
    ann, bot = await member(app, "AnnBots"), await member(app, "RoboBerserk")
    r = await client.post("/api/v1/account/bot", headers=bot.token())
    assert r.status_code == 200, r.text
    closed = (await make(client, ann)).json()
    assert closed["bots"] is False
    refused(await join(client, closed["id"], bot), 403, "bots_not_allowed", "bots")
    tid = (await make(client, ann, bots=True)).json()["id"]
    assert (await join(client, tid, ann)).status_code == 200
    r = await join(client, tid, bot)
    assert r.status_code == 200, r.text
    [pairing] = r.json()["pairings"]
    by_name = {ann.name: ann, bot.name: bot}
    by_colour = {"white": by_name[pairing["white"]], "black": by_name[pairing["black"]]}
    bot_colour = "white" if by_colour["white"] is bot else "black"
    r = await berserk(client, tid, bot)
    assert r.status_code == 200 and r.json()["colour"] == bot_colour, r.text
    assert r.json()["match"]["clock"][bot_colour] == 150_000
    await setups(client, pairing["match"], by_colour)


async def test_bad_rules_of_entry_are_refused_naming_the_field(app: Any, client: httpx.AsyncClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    ann = await member(app, "AnnBadRules")
    # many refusals, and no limit in the way (put back after: the app is shared with the limit's own test)
    monkeypatch.setattr(app.state.parts.arenas, "making_limits", ())
    for field, value in (("password", ""), ("password", "x" * 65), ("password", "tab\there"),
                         ("min_rating", -1), ("max_rating", 4001), ("min_rating", 10**12)):
        r = await make(client, ann, **{field: value})
        refused(r, 400, "bad_request", field)
    r = await make(client, ann, min_rating=1800, max_rating=1600)
    refused(r, 400, "bad_request", "max_rating")
    wrong: list[tuple[str, Any]] = [("min_rating", "1500"), ("min_rating", 1500.5), ("bots", "yes"), ("bots", 1),
                                    ("password", 1234), ("password", "x" * 201)]
    for field, wrong_value in wrong:
        r = await make(client, ann, **{field: wrong_value})
        assert r.status_code == 400 and field in r.json()["detail"], (field, r.text)
    assert (await client.get(BASE)).json()["tournaments"] == []  # nothing made by a refusal


async def test_an_account_makes_a_few_arenas_an_hour_then_waits(app: Any, client: httpx.AsyncClient) -> None:
    ann, bob = await member(app, "AnnMaker"), await member(app, "BobMaker")
    arenas = app.state.parts.arenas
    now = [1_900_000_000.0]
    arenas.clock = lambda: now[0]
    # Five at once from one account: the limit holds under the race, on either database.
    answers = await asyncio.gather(*(make(client, ann, name=f"Race {i}") for i in range(5)))
    assert sorted(r.status_code for r in answers) == [201] * entry.MADE_PER_HOUR + [429] * (
        5 - entry.MADE_PER_HOUR), [r.text for r in answers]
    over = next(r for r in answers if r.status_code == 429)
    body = over.json()
    assert body["error"] == "too_many_arenas" and body["limit"] == entry.MADE_PER_HOUR and body["window"] == "hour"
    assert over.headers["Retry-After"] == str(body["retry_after_seconds"]) == "3600"
    assert (await make(client, bob)).status_code == 201  # another account's count is its own
    now[0] += 1800
    r = await make(client, ann)
    assert r.status_code == 429 and r.headers["Retry-After"] == "1800", r.text
    now[0] += 1800
    assert (await make(client, ann)).status_code == 201  # the hour has passed
    made = 1 + entry.MADE_PER_HOUR
    while made < entry.MADE_PER_DAY:
        now[0] += 3600
        assert (await make(client, ann)).status_code == 201
        made += 1
    now[0] += 3600
    r = await make(client, ann)
    assert r.status_code == 429 and r.json()["window"] == "day", r.text
