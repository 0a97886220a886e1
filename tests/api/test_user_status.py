"""`GET /api/v1/users/status` and `GET /api/v1/bots/online`: online while a
page's channel or an event stream of the account is open (written to the
database, so every process agrees), playing while seated at a running match,
and the bot accounts online now, bounded."""

from __future__ import annotations

import json
from typing import Any

import httpx

from .members import member
from .streams import Stream

STATUS = "/api/v1/users/status"
BOT = "/api/v1/account/bot"


class Clock:
    """The accounts' clock (presence reads it too), moved by the test."""

    def __init__(self, app: Any) -> None:
        self.accounts = app.state.parts.accounts
        self.now = self.accounts.clock()
        self.accounts.clock = lambda: self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def _status(client: httpx.AsyncClient, names: str) -> dict[str, dict[str, Any]]:
    r = await client.get(STATUS, params={"names": names})
    assert r.status_code == 200, r.text
    return {s["name"]: s for s in r.json()}


async def test_online_while_a_channel_is_open_and_playing_while_a_match_runs(
        app: Any, client: httpx.AsyncClient) -> None:
    ada, bea = await member(app, "Ada"), await member(app, "Bea")
    clock = Clock(app)
    clock.advance(app.state.parts.settings.online_seconds + 1)  # their sign-ups are long past
    r = await client.get(STATUS, params={"names": "bea,Nobody,ADA,bea"})
    assert r.json() == [{"name": "Bea", "online": False, "playing": False, "title": None},
                        {"name": "Ada", "online": False, "playing": False, "title": None}]
    async with Stream(app, "GET", "/api/v1/stream/person", ada.token()) as page:
        await page.until(lambda m: True, "Ada's first picture")
        assert (await _status(client, "Ada,Bea"))["Ada"]["online"] is True
        assert (await _status(client, "Ada,Bea"))["Bea"]["online"] is False
        made = await client.post("/api/v1/matches", json={"seat": "white"}, headers=ada.token())
        match_id = made.json()["match"]["id"]
        assert (await _status(client, "Ada"))["Ada"]["playing"] is False  # waiting is not playing
        await client.post(f"/api/v1/matches/{match_id}/join", json={}, headers=bea.token())
        both = await _status(client, "Ada,Bea")
        assert both["Ada"]["playing"] is True and both["Bea"]["playing"] is True
        # Still online after the window, while the channel stays open: its wakes write it again.
        clock.advance(app.state.parts.settings.online_seconds * 0.9)
        await client.post(f"/api/v1/matches/{match_id}/resign", headers=bea.token())
        await page.until(lambda m: not m["matches"] or m["matches"][0]["status"] == "finished", "the end")
        clock.advance(app.state.parts.settings.online_seconds * 0.5)
        now = await _status(client, "Ada,Bea")
        assert now["Ada"]["online"] is True and now["Ada"]["playing"] is False
    clock.advance(app.state.parts.settings.online_seconds + 1)
    assert (await _status(client, "Ada"))["Ada"]["online"] is False  # the channel closed: offline in time


async def test_the_bots_online_and_their_title(app: Any, client: httpx.AsyncClient) -> None:
    ada, deep, idle = await member(app, "Ada"), await member(app, "Deep"), await member(app, "Idle")
    for bot in (deep, idle):
        assert (await client.post(BOT, headers=bot.token())).status_code == 200
    Clock(app).advance(app.state.parts.settings.online_seconds + 1)
    assert (await client.get("/api/v1/bots/online")).text == ""
    async with Stream(app, "GET", "/api/v1/stream/events", deep.token()) as events, \
            Stream(app, "GET", "/api/v1/stream/person", ada.token()) as page:
        await page.until(lambda m: True, "Ada's first picture")
        await events.next()
        r = await client.get("/api/v1/bots/online")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in r.text.splitlines()]
        assert lines == [{"name": "Deep", "title": "BOT", "playing": False, "ratings": {}}]
        told = await _status(client, "deep,idle,ada")
        assert told["Deep"] == {"name": "Deep", "online": True, "playing": False, "title": "BOT"}
        assert told["Idle"]["online"] is False and told["Idle"]["title"] == "BOT"
        assert told["Ada"]["title"] is None


async def test_bounds(client: httpx.AsyncClient) -> None:
    many = ",".join(f"p{n}" for n in range(101))
    r = await client.get(STATUS, params={"names": many})
    assert r.status_code == 422 and "at most 100" in r.json()["detail"] and r.json()["error"] == "not_names"
    # Each part of the pattern, yet no account's name: well-formed, unusable.
    r = await client.get(STATUS, params={"names": "1,Ada"})
    assert r.status_code == 422 and r.json() == {"error": "not_names", "detail": "'1' cannot be a player's name"}
    assert (await client.get(STATUS, params={"names": ",".join(f"p{n}" for n in range(100))})).json() == []
    for bad in ({"names": "a b"}, {}, {"names": "x"}):
        assert (await client.get(STATUS, params=bad)).status_code == 400
    for bad in ("0", "201", "x"):
        assert (await client.get("/api/v1/bots/online", params={"max": bad})).status_code == 400
