"""Each kind of notice, made by its real cause through the app, on SQLite and
PostgreSQL: a correspondence move, an ending, a rematch offer, a challenge and
its answers, an arena's start (found by the tick, told once however many
processes tick), a chat report handled; and the events stream's line."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.main import create_app
from app.tournaments import NewArena

from ..api.members import member
from ..api.streams import Stream
from ..conftest import make_settings
from .conftest import correspondence, kinds, notices, setup


@pytest.fixture
def settings(database_url: str) -> Settings:
    # No tick of its own: the arena's test ticks when it says; no keep-alive in the streams.
    return make_settings(database_url, tournament_tick_seconds=3600.0, person_keepalive_seconds=3600.0)


@pytest.fixture
async def second(settings: Settings) -> AsyncIterator[Any]:
    """Another app on the same database: another process."""
    other = create_app(settings)
    async with other.router.lifespan_context(other):
        yield other


async def test_a_correspondence_move_tells_the_one_to_move_and_an_ending_the_other(
        app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    match = await correspondence(client, ada, bo)
    mover = {"white": ada, "black": bo}
    told: dict[str, int] = {"Ada": 0, "Bo": 0}
    for _ in range(2):  # each setup hands the move to the other side
        to_move = mover[match["to_move"]]
        told[to_move.name] += 1
        turns = [d for k, d in await kinds(client, to_move) if k == "your_turn"]
        assert len(turns) == told[to_move.name], turns
        assert turns[-1]["match_id"] == match["id"] and turns[-1]["colour"] == match["to_move"]
        assert turns[-1]["opponent"] == (bo.name if to_move is ada else ada.name)
        match = await setup(client, match, to_move)
    assert "token" not in str(await kinds(client, ada)) + str(await kinds(client, bo))

    assert (await client.post(f"/api/v1/matches/{match['id']}/resign", headers=ada.token())).status_code == 200
    ended = [d for k, d in await kinds(client, bo) if k == "match_ended"]
    assert [(d["match_id"], d["outcome"]) for d in ended] == [(match["id"], "won")]
    assert [k for k, _ in await kinds(client, ada) if k == "match_ended"] == []  # she resigned: she knows

    r = await client.post(f"/api/v1/matches/{match['id']}/rematch", headers=bo.token())
    assert r.status_code == 200, r.text
    offers = [d for k, d in await kinds(client, ada) if k == "rematch_offered"]
    assert [(d["match_id"], d["opponent"]) for d in offers] == [(match["id"], "Bo")]
    assert (await notices(client, ada))["unread"] == len(await kinds(client, ada))


async def test_a_real_time_match_tells_no_turn(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    match = await correspondence(client, ada, bo, {"type": "realtime", "minutes": 5, "increment": 0})
    match = await setup(client, match, {"white": ada, "black": bo}[match["to_move"]])
    match = await setup(client, match, {"white": ada, "black": bo}[match["to_move"]])
    assert [k for k, _ in await kinds(client, ada) + await kinds(client, bo) if k == "your_turn"] == []
    r = await client.post(f"/api/v1/matches/{match['id']}/resign", headers=bo.token())
    assert r.status_code == 200
    assert [k for k, _ in await kinds(client, ada)] == ["match_ended"]


async def test_a_challenge_and_its_answers(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    first = (await client.post("/api/v1/challenges/Bo", json={"rated": True}, headers=ada.token())).json()
    assert await kinds(client, bo) == [("challenge", {
        "challenge_id": first["id"], "by": "Ada", "rated": True, "variant": "standard", "time_control": None})]
    r = await client.post(f"/api/v1/challenges/{first['id']}/decline", json={"reason": "later"}, headers=bo.token())
    assert r.status_code == 200
    second = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()
    r = await client.post(f"/api/v1/challenges/{second['id']}/accept", headers=bo.token())
    match_id = r.json()["match_id"]
    said = await kinds(client, ada)
    assert [k for k, _ in said] == ["challenge_declined", "challenge_accepted"]
    assert said[0][1]["reason_text"] == "asks you to challenge them later" and said[0][1]["by"] == "Bo"
    assert said[1][1] == {"challenge_id": second["id"], "match_id": match_id, "by": "Bo"}
    # A canceled challenge tells nobody more; a computer level is never told.
    third = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()
    await client.post(f"/api/v1/challenges/{third['id']}/cancel", headers=ada.token())
    assert [k for k, _ in await kinds(client, bo)] == ["challenge", "challenge", "challenge"]
    assert (await client.post("/api/v1/challenges/Random", json={}, headers=ada.token())).status_code == 201
    assert len(await kinds(client, ada)) == 2


async def test_an_arena_that_begins_is_told_once_to_each_player_however_many_processes_tick(
        app: Any, second: Any, client: httpx.AsyncClient) -> None:
    arenas = app.state.parts.arenas
    ada, bo, cy = await member(app, "Ada"), await member(app, "Bo"), await member(app, "Cy")
    tid = await arenas.create(ada.account.id, NewArena("Evening Arena", "standard", "5+3", 60, 600, False))
    for m in (ada, bo):
        await arenas.join(tid, m.account.id, m.name)
    await arenas.tick()
    assert await kinds(client, ada) == []  # not begun yet
    now = arenas.clock()
    arenas.clock = lambda: now + 601
    second.state.parts.arenas.clock = arenas.clock
    await arenas.tick()
    await second.state.parts.arenas.tick()
    await arenas.tick()
    for m in (ada, bo):
        assert await kinds(client, m) == [("tournament_starting", {"tournament_id": tid, "name": "Evening Arena"})]
    assert await kinds(client, cy) == []  # never joined


async def test_a_handled_report_is_told_to_the_account_that_made_it(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    match = await correspondence(client, ada, bo)
    base = f"/api/v1/matches/{match['id']}/chat"
    lines = []
    for text in ("rude one", "rude two"):
        r = await client.post(base, json={"text": text}, headers=bo.token())
        assert r.status_code in (200, 201), r.text
        lines.append(r.json()["line"]["id"])
        assert (await client.post(f"{base}/{lines[-1]}/report", headers=ada.token())).status_code == 202
    chat = app.state.parts.chat
    before = len(await kinds(client, ada))
    await chat.hide(lines[0], "Root")
    await chat.hide(lines[0], "Root")  # hidden already: told once
    await chat.dismiss(lines[1])
    said = (await kinds(client, ada))[before:]
    assert said == [("report_handled", {"match_id": match["id"], "line_id": lines[0], "outcome": "hidden"}),
                    ("report_handled", {"match_id": match["id"], "line_id": lines[1], "outcome": "dismissed"})]
    assert [k for k, _ in await kinds(client, bo) if k == "report_handled"] == []  # the author is told nothing


async def test_the_events_stream_carries_each_new_notice(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    old = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()
    async with Stream(app, "GET", "/api/v1/stream/events", bo.token()) as stream:
        assert (await stream.next())["challenge"]["id"] == old["id"]  # the opening: no old notice
        made = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()
        lines = [await stream.next(), await stream.next()]
        assert [line["type"] for line in lines] == ["challenge", "notification"]
        notice = lines[1]["notification"]
        assert notice["kind"] == "challenge" and notice["data"]["challenge_id"] == made["id"]
        assert notice["read"] is False and notice["text"] == "Ada challenges you to a match."


def test_the_kinds_mailed_are_the_kinds_a_mail_is_written_for() -> None:
    from app.mail.notices import MAIL_KINDS
    from app.notify.kinds import MAILED
    assert set(MAILED) == set(MAIL_KINDS)
