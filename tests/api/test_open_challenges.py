"""Open challenges: a challenge made to nobody, taken by the first signed-in
account (never its challenger) to accept it by its link; of two accepts at
once on two processes one wins and the other is told 409; it expires as any
challenge; nobody but its challenger is told of it. And `no_progress_rounds`
chosen in a challenge, bounded as a match's."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app.challenges import Challenges
from app.main import create_app

from ..conftest import make_settings
from .members import member

BASE = "/api/v1/challenges"


async def test_anyone_but_the_challenger_takes_it_once(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo, cy = await member(app, "Ada"), await member(app, "Bo"), await member(app, "Cy")
    r = await client.post(f"{BASE}/open", json={"colour": "white", "no_progress_rounds": 25, "rated": True},
                          headers=ada.token())
    assert r.status_code == 201, r.text
    made = r.json()
    assert (made["open"], made["challenged"], made["status"], made["no_progress_rounds"]) == (True, None, "pending", 25)
    assert made["url"] == f"/challenges/{made['id']}" and r.headers["location"] == f"{BASE}/{made['id']}/show"
    assert (await client.get(f"{BASE}/{made['id']}/show")).json() == made  # anyone reads it by its link
    # Told to nobody else: not among anyone's challenges but the challenger's.
    assert (await client.get(BASE, headers=bo.token())).json() == {"in": [], "out": []}
    assert [c["id"] for c in (await client.get(BASE, headers=ada.token())).json()["out"]] == [made["id"]]

    r = await client.post(f"{BASE}/{made['id']}/accept", headers=ada.token())
    assert (r.status_code, r.json()["error"]) == (403, "not_your_challenge") and "your own" in r.json()["detail"]
    r = await client.post(f"{BASE}/{made['id']}/accept")
    assert (r.status_code, r.json()["error"]) == (401, "unauthorized")
    r = await client.post(f"{BASE}/{made['id']}/decline", headers=bo.token())
    assert (r.status_code, r.json()["error"]) == (403, "not_your_challenge")

    r = await client.post(f"{BASE}/{made['id']}/accept", headers=bo.session())
    assert r.status_code == 200, r.text
    taken = r.json()
    assert (taken["status"], taken["challenged"], taken["open"]) == ("accepted", "Bo", True)
    match = (await client.get(f"/api/v1/matches/{taken['match_id']}")).json()
    assert match["players"]["white"]["account"] == "Ada" and match["players"]["black"]["account"] == "Bo"
    assert match["options"]["no_progress_rounds"] == 25 and match["rated"] is True
    r = await client.post(f"{BASE}/{made['id']}/accept", headers=cy.token())
    assert (r.status_code, r.json()["error"]) == (409, "challenge_over") and "accepted" in r.json()["detail"]


async def test_it_expires_and_can_be_canceled(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    first = (await client.post(f"{BASE}/open", headers=ada.token())).json()
    second = (await client.post(f"{BASE}/open", json={}, headers=ada.token())).json()
    assert (await client.post(f"{BASE}/{second['id']}/cancel", headers=ada.token())).json()["status"] == "canceled"
    service: Challenges = app.state.parts.challenges
    later = service.clock() + app.state.parts.settings.challenge_expire_seconds + 1
    service.clock = lambda: later
    r = await client.post(f"{BASE}/{first['id']}/accept", headers=bo.token())
    assert (r.status_code, r.json()["error"]) == (409, "challenge_over") and "expired" in r.json()["detail"]
    assert (await client.get(f"{BASE}/{first['id']}/show")).json()["status"] == "expired"


async def test_no_progress_rounds_is_bounded_as_a_matchs(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    for bad in (-1, 1001, "10", True):
        r = await client.post(f"{BASE}/open", json={"no_progress_rounds": bad}, headers=ada.token())
        assert r.status_code in (400, 422) and "no_progress_rounds" in r.text, r.text
    r = await client.post(f"{BASE}/Random", json={"no_progress_rounds": 0}, headers=ada.token())
    assert r.status_code == 201, r.text
    match = (await client.get(f"/api/v1/matches/{r.json()['match_id']}")).json()
    assert match["options"]["no_progress_rounds"] == 0  # R16 off, as asked
    assert (await client.get(f"{BASE}/nope/show")).status_code == 404


async def test_two_accepters_at_once_one_wins(database_url: str) -> None:
    """Two processes (two apps on one database), two accounts pressing Accept at once."""
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        ada, bo, cy = await member(first, "Ada"), await member(first, "Bo"), await member(first, "Cy")
        clients = [httpx.AsyncClient(transport=httpx.ASGITransport(app=a), base_url="http://testserver")
                   for a in (first, second)]
        try:
            for _ in range(3):
                made = (await clients[0].post(f"{BASE}/open", headers=ada.token())).json()
                answers = await asyncio.gather(*(c.post(f"{BASE}/{made['id']}/accept", headers=who.token())
                                                 for c, who in zip(clients, (bo, cy), strict=True)))
                assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
                lost = next(r.json() for r in answers if r.status_code == 409)
                assert lost["error"] == "challenge_over" and "accepted" in lost["detail"]
                won = next(r.json() for r in answers if r.status_code == 200)
                match = (await clients[1].get(f"/api/v1/matches/{won['match_id']}")).json()
                seated = {p["account"] for p in match["players"].values()}
                assert seated == {"Ada", won["challenged"]} and won["challenged"] in ("Bo", "Cy")
        finally:
            for c in clients:
                await c.aclose()
