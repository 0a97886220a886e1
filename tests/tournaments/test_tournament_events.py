"""The events stream tells a joined player their arena's start and finish, and
each arena game's `matchStart` names its arena; on SQLite and PostgreSQL, with
every line woken by a nudge (the stream's own recheck is put off for an hour),
and on PostgreSQL across two processes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.main import create_app
from app.tournaments.people import person_key

from ..api.members import Member, member
from ..api.streams import Stream
from ..conftest import make_settings
from .test_berserk import BASE, NEW

PATH = "/api/v1/stream/events"


@pytest.fixture
def settings(database_url: str) -> Settings:
    return make_settings(database_url, tournament_tick_seconds=3600.0, person_recheck_seconds=3600.0,
                         person_keepalive_seconds=3600.0)


async def event(stream: Stream, kind: str) -> dict[str, Any]:
    """The next line, which must be of `kind` (pings skipped, and the inbox's
    notices: tests/notify tells of those)."""
    while (line := await stream.next())["type"] in ("ping", "notification"):
        pass
    assert line["type"] == kind, line
    return line


async def challenge(client: httpx.AsyncClient, by: Member, to: Member) -> None:
    r = await client.post(f"/api/v1/challenges/{to.name}", json={}, headers=by.token())
    assert r.status_code in (200, 201), r.text


def test_the_arenas_key_is_the_person_channels() -> None:
    from app.challenges.service import person_key as channels_key

    assert person_key(42) == channels_key(42)


async def test_a_joined_player_hears_the_start_the_games_arena_and_the_finish(
        app: Any, client: httpx.AsyncClient) -> None:
    ann, bob, carl = await member(app, "AnnEvents"), await member(app, "BobEvents"), await member(app, "CarlEvents")
    arenas = app.state.parts.arenas
    base = arenas.clock()
    arenas.clock = lambda: base
    await arenas.tick()  # the tick's moment: what begins after it is told at the next
    r = await client.post(BASE, json={**NEW, "starts_in_seconds": 600, "minutes": 30}, headers=ann.token())
    tid = r.json()["id"]
    for who in (ann, bob, carl):
        assert (await client.post(f"{BASE}/{tid}/join", headers=who.token())).status_code == 200
    assert (await client.post(f"{BASE}/{tid}/withdraw", headers=carl.token())).status_code == 200
    await challenge(client, carl, bob)  # an opening line each: the streams listen from then on
    await challenge(client, ann, carl)
    async with Stream(app, "GET", PATH, bob.token()) as bob_events, \
            Stream(app, "GET", PATH, carl.token()) as carl_events:
        await event(bob_events, "challenge")
        await event(carl_events, "challenge")
        arenas.clock = lambda: base + 601  # the arena begins
        await arenas.tick()
        start = (await event(bob_events, "tournamentStart"))["tournament"]
        assert (start["id"], start["status"], start["name"]) == (tid, "started", NEW["name"])
        assert "joined" not in start and "player" not in start
        game = (await event(bob_events, "matchStart"))["match"]
        assert game["tournament"] == tid and game["opponent"] == ann.name
        await challenge(client, bob, carl)  # carl withdrew before the start: his next line is this
        await event(carl_events, "challenge")
        await event(bob_events, "challenge")  # bob's own, awaiting carl's answer

        r = await client.post(f"/api/v1/matches/{game['id']}/resign", headers=ann.token())
        assert r.status_code == 200, r.text
        assert (await event(bob_events, "matchFinish"))["match"]["id"] == game["id"]
        await arenas.settled()
        arenas.clock = lambda: base + 601 + 30 * 60  # the arena ends
        await arenas.tick()
        finish = (await event(bob_events, "tournamentFinish"))["tournament"]
        assert (finish["id"], finish["status"]) == (tid, "finished")
        assert [(s["rank"], s["name"], s["score"]) for s in finish["podium"]] == [
            (1, bob.name, 2), (2, ann.name, 0), (3, carl.name, 0)]
        assert finish["standing"]["name"] == bob.name and finish["standing"]["rank"] == 1


async def test_opening_the_stream_in_a_running_arena_tells_it_and_its_game(app: Any, client: httpx.AsyncClient) -> None:
    ann, bob = await member(app, "AnnOpen"), await member(app, "BobOpen")
    tid = (await client.post(BASE, json=NEW, headers=ann.token())).json()["id"]
    for who in (ann, bob):
        await client.post(f"{BASE}/{tid}/join", headers=who.token())
    async with Stream(app, "GET", PATH, bob.token()) as bob_events:
        assert (await event(bob_events, "tournamentStart"))["tournament"]["id"] == tid
        assert (await event(bob_events, "matchStart"))["match"]["tournament"] == tid
    async with Stream(app, "GET", "/api/v1/stream/person", bob.token()) as person:
        picture = await person.next()
    assert [t["id"] for t in picture["tournaments"]] == [tid] and picture["tournaments"][0]["joined"] is True
    assert picture["matches"][0]["tournament"] == tid
    # A match outside any arena names none.
    r = await client.post("/api/v1/matches", json={"options": {}, "seat": "white", "opponent": "human"},
                          headers=ann.token())
    loose = r.json()["match"]["id"]
    await client.post(f"/api/v1/matches/{loose}/join", json={}, headers=bob.token())
    async with Stream(app, "GET", PATH, bob.token()) as again:
        await event(again, "tournamentStart")
        starts = {(await event(again, "matchStart"))["match"]["id"]: None for _ in range(2)}
    assert set(starts) == {loose, picture["matches"][0]["id"]}


@pytest.fixture
async def second(settings: Settings) -> AsyncIterator[Any]:
    """Another app on the same database: another process."""
    other = create_app(settings)
    async with other.router.lifespan_context(other):
        yield other


async def test_a_join_on_one_process_reaches_a_stream_on_another(
        app: Any, client: httpx.AsyncClient, database_url: str, second: Any) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("two processes share a bus on PostgreSQL (SQLite serves one process)")
    other = second
    ann, bob = await member(app, "AnnFar"), await member(app, "BobFar")
    tid = (await client.post(BASE, json=NEW, headers=ann.token())).json()["id"]
    await client.post(f"{BASE}/{tid}/join", headers=ann.token())
    await challenge(client, ann, bob)
    async with Stream(other, "GET", PATH, bob.token()) as bob_events:
        await event(bob_events, "challenge")
        assert (await client.post(f"{BASE}/{tid}/join", headers=bob.token())).status_code == 200
        assert (await event(bob_events, "tournamentStart"))["tournament"]["id"] == tid
        assert (await event(bob_events, "matchStart"))["match"]["tournament"] == tid
