"""GET /matches: newest first, filters, cursor pagination, the public state of each."""

from __future__ import annotations

from sqlalchemy import select

from app.db.models import matches
from app.matches import MatchService

from ..conftest import Api, FakeTime, created_in_turn


async def test_pages_walk_every_match_once_newest_first(api: Api, service: MatchService) -> None:
    made = await created_in_turn(api, service, [f"P{i}" for i in range(7)])
    for limit in (1, 3, 7, 100):
        page = (await api.client.get("/api/v1/matches", params={"limit": limit})).json()
        ids = [m["id"] for m in page["matches"]]
        while page["next_cursor"]:
            page = (await api.client.get("/api/v1/matches",
                                         params={"limit": limit, "cursor": page["next_cursor"]})).json()
            ids += [m["id"] for m in page["matches"]]
        assert ids == [g.id for g in reversed(made)], limit


async def test_filters_combine(api: Api) -> None:
    a = await api.start(name="Alice", variant="rotating")
    b = await api.create(name="Bob", variant="archmage")
    c = await api.start(name="alice", variant="standard")
    await api.client.post(f"/api/v1/matches/{c.id}/resign", headers=c.auth("white"))

    async def ids(**params: str) -> set[str]:
        body = (await api.client.get("/api/v1/matches", params=params)).json()
        return {m["id"] for m in body["matches"]}

    assert await ids(status="waiting") == {b.id}
    assert await ids(status="active") == {a.id}
    assert await ids(status="finished") == {c.id}
    assert await ids(variant="rotating") == {a.id}
    assert await ids(variant="archmage", status="waiting") == {b.id}
    assert await ids(player="ALICE") == {a.id, c.id}
    assert await ids(player="Bob") == {b.id}
    assert await ids(player="Bo") == {a.id, c.id}  # the joiner of a and c (a whole name, not a prefix)
    assert await ids(player="nobody") == set()
    assert await ids(player="alice", status="active") == {a.id}


async def test_listed_states_are_the_public_ones(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    listed = (await api.client.get("/api/v1/matches")).json()["matches"][0]
    direct = await api.state(game)
    assert listed["version"] == direct["version"] and listed["arena"] == direct["arena"]
    assert listed["seed"] is None and listed["seed_commitment"] == direct["seed_commitment"]


async def test_empty_list(api: Api) -> None:
    assert (await api.client.get("/api/v1/matches")).json() == {"matches": [], "next_cursor": None}


async def test_here_leaves_out_matches_no_person_has_been_at_lately(api: Api, service: MatchService) -> None:
    """`here=true` (the home page's open and live lists, docs/web.md): a match is listed
    while a person's seat is connected, or was seen within listed_away_seconds (120 s)."""
    clock = FakeTime(service)
    gone = await api.create(name="Gone")  # its creator never opened a socket
    kept = await api.start(name="Kept")
    botted = await api.create(name="Solo", opponent="bot:random")

    async def ids(**params: str) -> set[str]:
        body = (await api.client.get("/api/v1/matches", params={"here": "true", **params})).json()
        return {m["id"] for m in body["matches"]}

    assert await ids() == {gone.id, kept.id, botted.id}  # all seen at their creation
    clock.advance(60)
    await service.seats.set_connected(kept.id, "black", True)  # Bo opens the match page
    clock.advance(61)  # 121 s after the creations; Bo seen 61 s ago
    assert await ids() == {kept.id}  # a bot seat never counts as a person here
    await service.seats.set_connected(kept.id, "black", False)  # Bo leaves
    clock.advance(119)
    assert await ids(status="active") == {kept.id}
    clock.advance(2)
    assert await ids() == set()
    await service.seats.set_connected(gone.id, "white", True)  # Gone's creator is back
    assert await ids() == {gone.id}
    assert {m["id"] for m in (await api.client.get("/api/v1/matches")).json()["matches"]} == {
        gone.id, kept.id, botted.id}  # without `here`, every match as before


async def test_the_list_writes_nothing_even_where_a_flag_has_fallen(api: Api, service: MatchService) -> None:
    """GET /matches is a read (issue 18): a flag fallen since the last look is
    applied by the sweeper or by a read of that match, never by the list."""
    time = FakeTime(service)
    game = await api.start(time_control={"type": "realtime", "minutes": 1, "increment": 0})
    await api.setups(game)
    stored = (await api.state(game))["version"]
    time.advance(120)
    listed = (await api.client.get(api.base, params={"limit": 100})).json()["matches"]
    assert next(m for m in listed if m["id"] == game.id)["status"] == "active"
    async with service.keeper.engine.connect() as conn:
        in_database = (await conn.execute(select(matches.c.version).where(matches.c.id == game.id))).scalar_one()
    assert in_database == stored
    assert (await api.state(game))["result"]["reason"] == "timeout"  # the match's own read applies it


async def test_a_match_for_a_friend_is_not_listed_while_it_waits(api: Api) -> None:
    seek = (await api.client.post("/api/v1/matches", json={"name": "Ada"})).json()["match"]
    friendly = (await api.client.post("/api/v1/matches", json={"name": "Ada", "options": {"listed": False}})).json()
    assert friendly["match"]["options"]["listed"] is False and "listed" not in seek["options"]

    async def ids(**params: str) -> set[str]:
        body = (await api.client.get("/api/v1/matches", params=params)).json()
        return {m["id"] for m in body["matches"]}

    friend_id = friendly["match"]["id"]
    assert await ids(status="waiting") == {seek["id"]} and await ids() == {seek["id"]}
    assert await ids(player="Ada", status="waiting") == {seek["id"], friend_id}  # its players still find it
    joined = await api.client.post(f"/api/v1/matches/{friend_id}/join", json={"name": "Bo"})  # by its link
    assert joined.status_code == 200
    assert await ids(status="active") == {friend_id}  # under way, it is watched like any other
