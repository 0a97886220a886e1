"""Leaving a rated match is not free (app/ratings/leaving.py,
app/accounts/playban.py): a player whose clock runs out before their first
move, who is claimed against after leaving, or who aborts a third rated match
in a day waits before the next rated match, 10 minutes doubling; refused as
`403 playban` with Retry-After on every way into rated play (creating,
joining, challenges, the pools, where an account is paired rated), while casual
play stays open. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx

from app.matches import MatchService

from ..conftest import FakeTime
from .members import Member, member
from .test_account_play import act, made

BASE = "/api/v1/matches"
TIMED = {"type": "realtime", "minutes": 1, "increment": 0}


async def _flagged_before_moving(client: httpx.AsyncClient, service: MatchService, time: FakeTime,
                                 ada: Member, bea: Member) -> str:
    """A rated timed match Ada (white) loses on time before her first action."""
    game = await made(client, ada, bea, rated=True, options={"time_control": TIMED})
    await act(client, game["id"], ada.token())  # the setups: no clock runs
    await act(client, game["id"], bea.token())
    time.advance(61)
    assert await service.finisher.sweep() == 1
    state = (await client.get(f"{BASE}/{game['id']}")).json()
    assert state["result"] == {"winner": "black", "reason": "timeout"}
    return str(game["id"])


def _refused(r: httpx.Response, seconds: int) -> None:
    assert r.status_code == 403, r.text
    body = r.json()
    assert body["error"] == "playban" and "no rated play for" in body["detail"], body
    assert "before you made a move" in body["detail"] and body["until"].endswith("Z")
    assert seconds - 5 <= int(r.headers["retry-after"]) <= seconds, (r.headers["retry-after"], body)


async def test_a_flag_before_the_first_move_bars_rated_play_for_ten_minutes(
        app: Any, client: httpx.AsyncClient, service: MatchService) -> None:
    time = FakeTime(service)
    # The challenges' and the accounts' clocks move with the matches'.
    parts = app.state.parts
    parts.challenges.clock = parts.accounts.clock = parts.pools.clock = lambda: time.now
    ada, bea, cy = await member(app, "Ada"), await member(app, "Bea"), await member(app, "Cy")
    await _flagged_before_moving(client, service, time, ada, bea)
    # Every way into rated play is refused, with the wait in Retry-After ...
    _refused(await client.post(BASE, json={"seat": "white", "rated": True}, headers=ada.token()), 600)
    open_rated = await made(client, cy, rated=True)
    _refused(await client.post(f"{BASE}/{open_rated['id']}/join", json={}, headers=ada.token()), 600)
    _refused(await client.post("/api/v1/challenges/Cy", json={"rated": True}, headers=ada.token()), 600)
    sent = (await client.post("/api/v1/challenges/Ada", json={"rated": True}, headers=cy.token())).json()
    _refused(await client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=ada.token()), 600)
    _refused(await client.post("/api/v1/pools/standard:10+5/join", json={}, headers=ada.token()), 600)
    # ... casual play is open, and the other player, who did nothing wrong, plays rated.
    assert (await client.post(BASE, json={"seat": "white"}, headers=ada.token())).status_code == 201
    assert (await client.post(BASE, json={"seat": "white", "rated": True}, headers=bea.token())).status_code == 201
    # The home page says so to the signed-in player, and to nobody else.
    home = await client.get("/", headers=ada.session(csrf=False))
    assert "No rated play for 10 more minutes" in home.text and "before you made a move" in home.text
    assert 'id="rated-wait"' not in (await client.get("/", headers=bea.session(csrf=False))).text
    # When the wait is over, rated play is open again.
    time.advance(601)
    assert 'id="rated-wait"' not in (await client.get("/", headers=ada.session(csrf=False))).text
    assert (await client.post(BASE, json={"seat": "white", "rated": True}, headers=ada.token())).status_code == 201


async def test_the_wait_doubles_with_each_offence(app: Any, client: httpx.AsyncClient,
                                                  service: MatchService) -> None:
    time = FakeTime(service)
    ada = await member(app, "Ada")
    rivals = [await member(app, f"Rival{i}") for i in range(3)]
    for n, rival in enumerate(rivals):
        await _flagged_before_moving(client, service, time, ada, rival)
        wait = 600 * 2 ** n
        _refused(await client.post(BASE, json={"seat": "white", "rated": True}, headers=ada.token()), wait)
        time.advance(wait + 1)


async def test_a_third_abort_in_a_day_is_an_offence(app: Any, client: httpx.AsyncClient,
                                                    service: MatchService) -> None:
    FakeTime(service)
    ada, bea = await member(app, "Ada"), await member(app, "Bea")
    for n in range(3):
        game = await made(client, ada, bea, rated=True, options={"time_control": TIMED})
        r = await client.post(f"{BASE}/{game['id']}/abort", headers=ada.token())
        assert r.status_code == 200, r.text
        again = await client.post(BASE, json={"seat": "white", "rated": True}, headers=ada.token())
        if n < 2:  # one or two aborts are anyone's right
            assert again.status_code == 201, (n, again.text)
        else:
            assert again.status_code == 403 and again.json()["error"] == "playban"
            assert "aborted three rated matches" in again.json()["detail"]
    # An untimed rated match is not a timed one: nothing counts there.
    assert (await client.post(BASE, json={"seat": "white", "rated": True}, headers=bea.token())).status_code == 201
