"""Challenges (issue 20): one account challenges another; accept makes the match,
decline carries a reason, the challenger cancels, challenges expire, a computer
level accepts at once; every refusal named; two accepts at once make one match."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.challenges import Challenges
from app.main import create_app

from ..conftest import make_settings
from .members import Member, member

BASE = "/api/v1/challenges"


async def challenge(client: httpx.AsyncClient, who: Member, name: str, **body: Any) -> httpx.Response:
    return await client.post(f"{BASE}/{name}", json=body, headers=who.token())


async def answer(client: httpx.AsyncClient, who: Member, challenge_id: str, verb: str,
                 **body: Any) -> httpx.Response:
    return await client.post(f"{BASE}/{challenge_id}/{verb}", json=body or None, headers=who.token())


async def test_a_challenge_accepted_makes_the_match_in_the_asked_colours(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    r = await challenge(client, ada, "bo", variant="standard", colour="black", rated=True,
                        time_control={"type": "realtime", "minutes": 5, "increment": 3})
    assert r.status_code == 201, r.text
    sent = r.json()
    assert (sent["challenger"], sent["challenged"], sent["status"], sent["colour"]) == ("Ada", "Bo", "pending", "black")
    seen = (await client.get(BASE, headers=bo.token())).json()
    assert [c["id"] for c in seen["in"]] == [sent["id"]] and seen["out"] == []
    assert [c["id"] for c in (await client.get(BASE, headers=ada.token())).json()["out"]] == [sent["id"]]

    # By the session, as the page does (cookie and CSRF token).
    r = await client.post(f"{BASE}/{sent['id']}/accept", headers=bo.session())
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["status"] == "accepted" and done["match_id"]
    match = (await client.get(f"/api/v1/matches/{done['match_id']}")).json()
    assert match["status"] == "active"
    played = (await client.get("/api/v1/users/Ada/matches")).json()["matches"]
    assert [(m["id"], m["rated"]) for m in played] == [(done["match_id"], True)]
    assert match["players"]["black"]["account"] == "Ada" and match["players"]["white"]["account"] == "Bo"
    assert match["options"]["time_control"]["minutes"] == 5
    assert (await client.get(BASE, headers=bo.token())).json()["in"] == []  # answered: no longer waiting


async def test_decline_carries_its_reason_and_ends_the_challenge(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    sent = (await challenge(client, ada, "Bo")).json()
    r = await answer(client, bo, sent["id"], "decline", reason="too_fast")
    assert r.status_code == 200, r.text
    out = (await client.get(BASE, headers=ada.token())).json()["out"]
    assert [(c["status"], c["reason"], c["reason_text"]) for c in out] == [
        ("declined", "too_fast", "finds this time control too fast")]
    for verb, who in (("accept", bo), ("decline", bo), ("cancel", ada)):
        r = await answer(client, who, sent["id"], verb)
        assert (r.status_code, r.json()["error"]) == (409, "challenge_over"), verb
    r = await answer(client, bo, (await challenge(client, ada, "Bo")).json()["id"], "decline", reason="rude")
    assert (r.status_code, r.json()["error"]) == (400, "bad_request")


async def test_only_the_challenger_cancels_and_only_the_challenged_answers(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo, cy = await member(app, "Ada"), await member(app, "Bo"), await member(app, "Cy")
    sent = (await challenge(client, ada, "Bo")).json()
    for who, verb in ((cy, "accept"), (ada, "accept"), (cy, "decline"), (ada, "decline"), (bo, "cancel"),
                      (cy, "cancel")):
        r = await answer(client, who, sent["id"], verb)
        assert (r.status_code, r.json()["error"]) == (403, "not_your_challenge"), (who.name, verb)
    r = await answer(client, ada, sent["id"], "cancel")
    assert r.status_code == 200 and r.json()["status"] == "canceled"
    assert (await client.get(BASE, headers=bo.token())).json()["in"] == []
    r = await answer(client, bo, sent["id"], "accept")
    assert (r.status_code, r.json()["error"]) == (409, "challenge_over")
    r = await answer(client, bo, "nothing-here", "accept")
    assert (r.status_code, r.json()["error"]) == (404, "no_such_challenge")


async def test_hostile_challengers_are_refused_by_name(app: Any, client: httpx.AsyncClient) -> None:
    ada, _ = await member(app, "Ada"), await member(app, "Gone")
    await app.state.parts.accounts.close("Gone")
    cases = [("ada", 400, "challenge_yourself"), ("Gone", 403, "account_closed"),
             ("nobody", 404, "no_such_player"), ("no%20one", 400, "bad_request")]
    for name, status, code in cases:
        r = await challenge(client, ada, name)
        assert (r.status_code, r.json()["error"]) == (status, code), name
    r = await client.post(f"{BASE}/Ada", json={})  # a guest
    assert (r.status_code, r.json()["error"]) == (401, "unauthorized")
    assert "sign in" in r.json()["detail"]
    r = await client.post(f"{BASE}/Gone", json={}, headers={"Cookie": ada.session()["Cookie"]})  # no CSRF token
    assert (r.status_code, r.json()["error"]) == (403, "csrf_failed")
    r = await client.post(f"{BASE}/Gone", json={"colour": "green"}, headers=ada.token())
    assert r.status_code == 400
    r = await client.post(f"{BASE}/Gone", json={}, headers=ada.token(ada.read))  # a read-only token
    assert (r.status_code, r.json()["error"]) == (403, "insufficient_scope")
    assert (await client.get(BASE, headers=ada.token())).json() == {"in": [], "out": []}  # nothing was made


@pytest.fixture
def settings(database_url: str) -> Any:
    return make_settings(database_url, challenges_pending_max=2, challenge_expire_seconds=60)


async def test_pending_challenges_are_capped_and_expire(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    first = (await challenge(client, ada, "Bo")).json()
    await challenge(client, ada, "Bo")
    r = await challenge(client, ada, "Bo")
    assert (r.status_code, r.json()["error"]) == (429, "too_many_challenges")
    assert (await answer(client, ada, first["id"], "cancel")).status_code == 200
    assert (await challenge(client, ada, "Bo")).status_code == 201  # a place freed

    service: Challenges = app.state.parts.challenges
    later = service.clock() + 61
    service.clock = lambda: later
    assert (await client.get(BASE, headers=bo.token())).json()["in"] == []
    out = (await client.get(BASE, headers=ada.token())).json()["out"]
    assert sorted(c["status"] for c in out) == ["canceled", "expired", "expired"]
    r = await answer(client, bo, out[-1]["id"], "accept")
    assert (r.status_code, r.json()["error"]) == (409, "challenge_over")
    assert "expired" in r.json()["detail"]
    assert (await challenge(client, ada, "Bo")).status_code == 201  # expired ones hold no place


async def test_a_computer_level_accepts_at_once(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    r = await challenge(client, ada, "Random", colour="white", rated=True)
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["status"] == "accepted" and made["computer"] is True and made["match_id"]
    match = (await client.get(f"/api/v1/matches/{made['match_id']}")).json()
    assert match["players"]["white"]["account"] == "Ada" and match["players"]["black"]["bot"] == "random"


async def test_two_accepts_at_once_make_one_match(database_url: str) -> None:
    """Two processes (two apps on one database), the challenged pressing Accept in both."""
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        ada, bo = await member(first, "Ada"), await member(first, "Bo")
        clients = [httpx.AsyncClient(transport=httpx.ASGITransport(app=a), base_url="http://testserver")
                   for a in (first, second)]
        try:
            for _ in range(3):
                sent = (await challenge(clients[0], ada, "Bo")).json()
                answers = await asyncio.gather(*(answer(c, bo, sent["id"], "accept") for c in clients))
                statuses = sorted(r.status_code for r in answers)
                assert statuses == [200, 409], [r.text for r in answers]
                won = next(r.json() for r in answers if r.status_code == 200)
                page = (await clients[1].get("/api/v1/matches", params={"player": "Bo", "limit": 100})).json()
                made = [m["id"] for m in page["matches"]]
                assert won["match_id"] in made
            assert len(made) == 3  # one match per challenge, however many accepts
        finally:
            for c in clients:
                await c.aclose()


async def test_a_computer_refused_by_the_bot_match_cap_leaves_no_challenge_waiting(database_url: str) -> None:
    app = create_app(make_settings(database_url, bot_matches_per_address=1, challenges_pending_max=1))
    async with app.router.lifespan_context(app):
        ada = await member(app, "Ada")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
            assert (await challenge(client, ada, "Greedy")).status_code == 201
            r = await challenge(client, ada, "Greedy")
            assert (r.status_code, r.json()["error"]) == (429, "too_many_bot_matches")
            out = (await client.get(BASE, headers=ada.token())).json()["out"]
            assert [c["status"] for c in out] == ["accepted", "canceled"]
            bo = await member(app, "Bo")
            assert (await challenge(client, ada, bo.name)).status_code == 201  # the refused one holds no place


async def test_challenges_sent_at_once_keep_to_the_cap(app: Any, client: httpx.AsyncClient) -> None:
    """Six challenges of one account at the same instant, two places: the count
    and the insert of each run one at a time, so two are made and four refused."""
    ada = await member(app, "Ada")
    for name in ("Bo", "Cy", "Di"):
        await member(app, name)
    sent = await asyncio.gather(*(challenge(client, ada, ("Bo", "Cy", "Di")[n % 3]) for n in range(6)))
    assert sorted(r.status_code for r in sent) == [201] * 2 + [429] * 4, [r.text for r in sent]
    assert len((await client.get(BASE, headers=ada.token())).json()["out"]) == 2


async def test_a_challenge_taken_shows_accepted_only_with_its_match(app: Any, client: httpx.AsyncClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Accepting takes the challenge, then makes the match. A read in between (the
    challenger's page wakes as the match is made) must not show "accepted" without
    the match to go to: the page would take that as the answer and drop the
    challenge, and the message that brings the match would then be no news to it."""
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    sent = (await challenge(client, ada, "Bo")).json()
    gateway = app.state.parts.challenges.gateway
    making = gateway.create
    between: dict[str, Any] = {}

    async def create(*args: Any, **kwargs: Any) -> Any:
        between["out"] = (await client.get(BASE, headers=ada.token())).json()["out"]
        between["again"] = await answer(client, bo, sent["id"], "accept")  # pressed twice
        return await making(*args, **kwargs)

    monkeypatch.setattr(gateway, "create", create)
    r = await answer(client, bo, sent["id"], "accept")
    assert r.status_code == 200, r.text
    assert [(c["id"], c["status"], c["match_id"]) for c in between["out"]] == [(sent["id"], "pending", None)]
    again = between["again"]
    assert (again.status_code, again.json()["error"]) == (409, "challenge_over")
    assert "accepted already" in again.json()["detail"]  # what became of it, though it still shows waiting
    out = (await client.get(BASE, headers=ada.token())).json()["out"]
    assert [(c["status"], c["match_id"]) for c in out] == [("accepted", r.json()["match_id"])]
