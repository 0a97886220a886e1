"""Quick pairing over the API (issue 20), on SQLite and PostgreSQL: pairing
guests with guests and accounts with accounts, the rating range, never the same
two twice in a row, several pools at once, leases, the computer offer, leaving,
and the errors."""

from __future__ import annotations

from typing import Any

import httpx

from app.bots import LEVELS
from app.matches import Caller
from app.pools import Pools

from ..api.members import member
from .conftest import BASE, Clock, Presser, rate


async def _counts(client: httpx.AsyncClient) -> dict[str, int]:
    r = await client.get(BASE)
    assert r.status_code == 200, r.text
    return {p["id"]: p["waiting"] for p in r.json()["pools"]}


async def test_the_pools_are_each_control_for_each_variant(client: httpx.AsyncClient) -> None:
    listed = (await client.get(BASE)).json()["pools"]
    ids = {p["id"] for p in listed}
    assert {"standard:5+3", "standard:10+5", "standard:15+10", "standard:1d", "archmage:10+5"} <= ids
    one = next(p for p in listed if p["id"] == "standard:1d")
    assert one["words"] == "1 day" and one["time_control"] == {"type": "correspondence", "days": 1}
    assert all(p["waiting"] == 0 for p in listed)


async def hold(presser: Presser, clock: Clock, seconds: float) -> dict[str, Any]:
    """Wait `seconds` as a page does: asking again and again, each ask renewing the place."""
    answer: dict[str, Any] = {}
    while seconds > 0:
        step = min(seconds, 2.0)
        clock.advance(step)
        seconds -= step
        answer = await presser.wait()
    return answer


async def _rated(app: Any, match_id: str) -> bool:
    return bool((await app.state.parts.service.keeper.get(match_id, fresh=True)).rated)


async def test_two_guests_are_paired_and_each_gets_only_its_own_seat(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = Presser(client, "Ada"), Presser(client, "Bo")
    first = await ada.join()
    assert first["status"] == "waiting" and first["ticket"] and first["match"] is None
    assert (await _counts(client))["standard:10+5"] == 1
    second = await bo.join()
    assert second["status"] == "paired"
    hers = await ada.wait()
    assert hers["status"] == "paired" and hers["match"]["id"] == second["match"]["id"]
    assert {hers["match"]["seat"], second["match"]["seat"]} == {"white", "black"}
    assert hers["match"]["token"] != second["match"]["token"]
    assert second["match"]["token"] not in str(hers) and hers["match"]["token"] not in str(second)
    match_id = hers["match"]["id"]
    state = (await client.get(f"/api/v1/matches/{match_id}")).json()
    assert state["status"] == "active"
    assert state["options"]["time_control"] == {"type": "realtime", "minutes": 10, "increment": 5}
    assert {state["players"][c]["name"] for c in ("white", "black")} == {"Ada", "Bo"}
    for answer in (hers, second):  # each token proves its own seat
        legal = await client.get(f"/api/v1/matches/{match_id}/legal",
                                 headers={"Authorization": f"Bearer {answer['match']['token']}"})
        assert legal.status_code == 200, legal.text
    assert (await _counts(client))["standard:10+5"] == 0
    assert not await _rated(app, match_id)


async def test_two_accounts_play_rated_in_their_own_seats(app: Any, client: httpx.AsyncClient) -> None:
    cy, di = Presser(client, member=await member(app, "Cyrus")), Presser(client, member=await member(app, "Dido"))
    await cy.join("archmage:5+3")
    paired = await di.join("archmage:5+3")
    assert paired["status"] == "paired" and paired["match"]["token"] is None  # the account's seat
    match_id = paired["match"]["id"]
    state = (await client.get(f"/api/v1/matches/{match_id}")).json()
    assert await _rated(app, match_id) and state["options"]["variant"] == "archmage"
    assert {state["players"][c]["account"] for c in ("white", "black")} == {"Cyrus", "Dido"}
    mine = (await cy.wait())["match"]
    assert mine["id"] == match_id and mine["seat"] != paired["match"]["seat"]
    legal = await client.get(f"/api/v1/matches/{match_id}/legal", headers=cy.headers())
    assert legal.status_code == 200, legal.text


async def test_guests_and_accounts_are_not_paired_together(app: Any, client: httpx.AsyncClient) -> None:
    guest, account = Presser(client, "Eve"), Presser(client, member=await member(app, "Faro"))
    await guest.join()
    assert (await account.join())["status"] == "waiting"
    assert (await guest.wait())["status"] == "waiting"
    assert (await _counts(client))["standard:10+5"] == 2


async def test_the_rating_range_widens_with_the_wait(app: Any, client: httpx.AsyncClient, pools: Pools) -> None:
    clock = Clock(pools)  # 3 s steps, each within a lease: the range grows 75 points a step
    low, high = await member(app, "Gale"), await member(app, "Hugo")
    await rate(app, high, "standard", 1900.0)  # 400 from a new player's 1500: beyond the first range
    g, h = Presser(client, member=low), Presser(client, member=high)
    first = await g.join()
    assert first["rating_range"] == {"rating": 1500, "within": 150, "most": 1000}  # said, so the page can say why
    assert (await h.join())["status"] == "waiting"
    clock.advance(3.0)  # (150 + 25/s): still too narrow
    later = await g.wait()
    assert later["status"] == "waiting" and later["rating_range"]["within"] == 225
    clock.advance(3.0)
    assert (await h.wait())["status"] == "waiting"
    for _ in range(3):  # the waits renew the places while the range widens
        clock.advance(3.0)
        await g.wait()
        answer = await h.wait()
    assert answer["status"] == "paired"
    assert (await g.wait())["match"]["id"] == answer["match"]["id"]
    assert answer["rating_range"] is None  # paired: no range to tell


async def test_a_guest_waits_with_no_range(client: httpx.AsyncClient) -> None:
    answer = await Presser(client).join()
    assert answer["status"] == "waiting" and answer["rating_range"] is None


async def test_never_the_same_two_twice_in_a_row_while_another_waits(
        app: Any, client: httpx.AsyncClient, pools: Pools) -> None:
    clock = Clock(pools)
    people = [await member(app, n) for n in ("Lena", "Milo", "Nora")]
    await rate(app, people[2], "standard", 1700.0)  # 200 from the others: out of range at first
    lena, milo, nora = (Presser(client, member=p) for p in people)
    await lena.join()
    first = await milo.join()
    assert first["status"] == "paired"
    # Their game ends (a player plays one real-time game at a time: app/matches/playing.py).
    await app.state.parts.gateway.abort(first["match"]["id"], Caller(account_id=people[0].account.id,
                                                                     account=people[0].name))
    clock.advance(pools.settings.pool_lease_seconds + 1)  # the pairing is old news: a new press waits again
    await nora.join()
    await lena.join()
    again = await milo.join()
    assert again["status"] == "waiting"  # Lena would be closest, but they just played and Nora waits
    for _ in range(4):  # the range widens to reach Nora while all three wait
        clock.advance(1)
        for p in (lena, milo, nora):
            await p.wait()
    got = {p.member.name: await p.wait() for p in (lena, milo, nora) if p.member}
    assert got["Nora"]["status"] == "paired"
    partner = next(n for n in ("Lena", "Milo") if got[n]["status"] == "paired")
    assert got[partner]["match"]["id"] == got["Nora"]["match"]["id"]
    alone = "Milo" if partner == "Lena" else "Lena"
    assert got[alone]["status"] == "waiting"


async def test_the_same_two_may_play_again_when_nobody_else_waits(client: httpx.AsyncClient, pools: Pools) -> None:
    clock = Clock(pools)
    ada, bo = Presser(client, "Ada"), Presser(client, "Bo")
    await ada.join()
    first = (await bo.join())["match"]["id"]
    clock.advance(pools.settings.pool_lease_seconds + 1)
    await ada.join()
    second = await bo.join()
    assert second["status"] == "paired" and second["match"]["id"] != first


async def test_a_player_in_several_pools_leaves_the_rest_when_paired(client: httpx.AsyncClient) -> None:
    ada, bo = Presser(client, "Ada"), Presser(client, "Bo")
    await ada.join("standard:5+3")
    both = await ada.join("rotating:1d")
    assert sorted(both["pools"]) == ["rotating:1d", "standard:5+3"]
    paired = await bo.join("rotating:1d")
    assert paired["status"] == "paired"
    state = (await client.get(f"/api/v1/matches/{paired['match']['id']}")).json()
    assert state["options"]["time_control"] == {"type": "correspondence", "days": 1}
    counts = await _counts(client)
    assert counts["standard:5+3"] == 0 and counts["rotating:1d"] == 0
    assert (await ada.wait())["match"]["id"] == paired["match"]["id"]


async def test_a_second_press_just_after_a_pairing_answers_the_same_match(client: httpx.AsyncClient) -> None:
    ada, bo = Presser(client, "Ada"), Presser(client, "Bo")
    await ada.join()
    paired = await bo.join()
    again = await bo.join("standard:5+3")
    assert again["status"] == "paired" and again["match"]["id"] == paired["match"]["id"]
    assert (await _counts(client))["standard:5+3"] == 0


async def test_a_waiter_who_stops_asking_leaves_within_the_lease(client: httpx.AsyncClient, pools: Pools) -> None:
    clock = Clock(pools)
    ada, bo = Presser(client, "Ada"), Presser(client, "Bo")
    await ada.join()
    clock.advance(pools.settings.pool_lease_seconds + 0.5)  # Ada's page closed: nothing renews her place
    assert (await _counts(client))["standard:10+5"] == 0
    assert (await bo.join())["status"] == "waiting"
    assert (await ada.wait(status=409))["error"] == "not_waiting"


async def test_a_held_wait_renews_the_place(client: httpx.AsyncClient, pools: Pools) -> None:
    clock = Clock(pools)
    ada = Presser(client, "Ada")
    await ada.join()
    for _ in range(4):
        clock.advance(pools.settings.pool_lease_seconds * 0.8)
        assert (await ada.wait())["status"] == "waiting"
    assert (await _counts(client))["standard:10+5"] == 1


async def test_the_computer_is_offered_after_the_wait(app: Any, client: httpx.AsyncClient, pools: Pools) -> None:
    clock = Clock(pools)
    ada = Presser(client, "Ada")
    await ada.join("rotating:15+10")
    assert (await ada.wait())["computer"] is None
    offer = (await hold(ada, clock, pools.settings.pool_offer_seconds))["computer"]
    assert offer["level"] in LEVELS
    assert offer["opponent"] == f"bot:{offer['level']}" and offer["rated"] is False
    assert offer["options"] == {"variant": "rotating",
                                "time_control": {"type": "realtime", "minutes": 15, "increment": 10}}
    made = await client.post("/api/v1/matches", json={"opponent": offer["opponent"], "options": offer["options"]})
    assert made.status_code == 201, made.text


async def test_an_account_is_offered_the_level_nearest_its_rating(app: Any, client: httpx.AsyncClient,
                                                                  pools: Pools) -> None:
    clock = Clock(pools)
    strong = await member(app, "Olga")
    await rate(app, strong, "standard", 2300.0)
    async with app.state.parts.engine.begin() as conn:  # the levels' own ratings
        from sqlalchemy import insert, select

        from app.db.account_models import accounts, ratings
        levels = dict((await conn.execute(select(accounts.c.computer, accounts.c.id)
                                          .where(accounts.c.computer.is_not(None)))).all())
        for level, rating in (("random", 800.0), ("greedy", 1300.0), ("strong", 2000.0)):
            await conn.execute(insert(ratings).values(account_id=levels[level], variant="standard", rating=rating,
                                                      rd=60.0, volatility=0.06, games=50))
    olga = Presser(client, member=strong)
    await olga.join()
    offer = (await hold(olga, clock, pools.settings.pool_offer_seconds + 1))["computer"]
    assert offer["level"] == "strong" and offer["rated"] is True


async def test_leaving_leaves_the_pool(client: httpx.AsyncClient) -> None:
    ada, bo = Presser(client, "Ada"), Presser(client, "Bo")
    await ada.join("standard:5+3")
    await ada.join("standard:15+10")
    left = await ada.leave("standard:5+3")
    assert left["pools"] == ["standard:15+10"]
    assert (await ada.leave())["pools"] == []
    assert (await bo.join("standard:15+10"))["status"] == "waiting"
    assert (await ada.wait(status=401))["error"] == "unauthorized"  # a ticket in no pool at all is no credential


async def test_the_errors_are_named(client: httpx.AsyncClient) -> None:
    r = await client.post(f"{BASE}/standard:7+7/join", json={})
    assert r.status_code == 404 and r.json()["error"] == "no_such_pool"
    r = await client.get(f"{BASE}/wait", params={"timeout": 0})
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    r = await client.post(f"{BASE}/standard:5+3/join", json={}, headers={"Authorization": "Bearer short"})
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    r = await client.post(f"{BASE}/standard:5+3/join", json={"name": "x" * 41})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = await client.post(f"{BASE}/standard:5+3/join", json={"colour": "white"})
    assert r.status_code == 400
    r = await client.get(f"{BASE}/wait", params={"timeout": 99}, headers={"Authorization": "Bearer " + "a" * 43})
    assert r.status_code == 400
    assert (await _counts(client)) == {k: 0 for k in await _counts(client)}


async def test_the_database_holds_nothing_that_is_a_guests_seat(app: Any, client: httpx.AsyncClient) -> None:
    """Between the pairing and the guest's collecting it (up to an hour), a reader
    of pool_seekers finds no value that proves a seat; the guest, with its
    ticket, is handed the same working token as often as it asks."""
    from sqlalchemy import select

    from app.db.models import seats
    from app.db.pool_models import pool_seekers
    from app.matches.seats import hash_token

    ada, bo = Presser(client, "Ada"), Presser(client, "Bo")
    await ada.join()
    second = await bo.join()
    assert second["status"] == "paired"
    match_id = second["match"]["id"]
    async with app.state.parts.engine.connect() as conn:
        stored = [str(v) for row in (await conn.execute(select(pool_seekers))).all() for v in row if v is not None]
        seat_hashes = set((await conn.execute(select(seats.c.token_hash).where(seats.c.match_id == match_id))
                           ).scalars())
    assert len(seat_hashes) == 2 and stored
    assert not [v for v in stored if hash_token(v) in seat_hashes]  # (the hash itself is no seat: seats holds it too)
    for value in stored:
        r = await client.get(f"/api/v1/matches/{match_id}/legal", headers={"Authorization": f"Bearer {value}"})
        assert r.status_code in (400, 401), (value, r.status_code)
    hers, again = await ada.wait(), await ada.wait()
    assert hers["match"]["token"] == again["match"]["token"] and hash_token(hers["match"]["token"]) in seat_hashes
    assert hash_token(second["match"]["token"]) in seat_hashes


async def _rate_levels(app: Any, variant: str, by_level: dict[str, float]) -> None:
    from sqlalchemy import insert, select

    from app.db.account_models import accounts, ratings

    async with app.state.parts.engine.begin() as conn:
        levels = dict((await conn.execute(select(accounts.c.computer, accounts.c.id)
                                          .where(accounts.c.computer.is_not(None)))).all())
        for level, rating in by_level.items():
            await conn.execute(insert(ratings).values(account_id=levels[level], variant=variant, rating=rating,
                                                      rd=60.0, volatility=0.06, games=50))


async def test_the_computer_is_offered_in_the_pool_where_a_level_is_nearest(
        app: Any, client: httpx.AsyncClient, pools: Pools) -> None:
    """Waiting in two pools, the offer is the one whose level is nearest the
    player's rating there, not simply the first pool joined."""
    clock = Clock(pools)
    strong = await member(app, "Olga")
    for variant in ("standard", "archmage"):
        await rate(app, strong, variant, 2300.0)
    await _rate_levels(app, "standard", {"random": 800.0, "greedy": 1000.0, "strong": 1400.0})
    await _rate_levels(app, "archmage", {"random": 900.0, "greedy": 1500.0, "strong": 2250.0})
    olga = Presser(client, member=strong)
    await olga.join("standard:10+5")
    clock.advance(1)
    await olga.join("archmage:10+5")
    offer = (await hold(olga, clock, pools.settings.pool_offer_seconds + 1))["computer"]
    assert (offer["pool"], offer["level"], offer["options"]["variant"]) == ("archmage:10+5", "strong", "archmage")
