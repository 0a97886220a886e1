"""A closed account plays no more (issue 31, break 2): closing it, by its
player's page or by an admin, ends its running matches (a resignation, or an
abort before both setups are done), revokes every seat token it holds (one
handed out at create or join included), and no rating moves afterwards: not
when the match ends by the closing, nor by anything that comes later."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.accounts import ratings_of
from app.accounts.rated import changes_of
from app.matches.telling import entry_words
from tests.admin.conftest import META_CSRF, add_admin, sign_in

from .members import Member
from .test_account_play import BASE, act, made


async def close_by_page(app: Any, client: httpx.AsyncClient, who: Member) -> None:
    r = await client.post("/account/close", data={"csrf_token": who.csrf}, headers=who.session(csrf=False))
    assert r.status_code == 200 and "is closed" in r.text, r.text[-500:]


async def close_by_admin(app: Any, client: httpx.AsyncClient, who: Member) -> None:
    await add_admin(app)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:
        assert (await sign_in(http)).status_code == 303
        found = META_CSRF.search((await http.get("/admin")).text)
        assert found
        r = await http.post(f"/admin/api/accounts/{who.name}/close", json={"reason": "boosting"},
                            headers={"X-CSRF-Token": found.group(1)})
        assert r.status_code == 200, r.text


CLOSINGS = {"by its player": close_by_page, "by an admin": close_by_admin}


def seat(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("closing", sorted(CLOSINGS))
async def test_closing_resigns_a_running_rated_match_and_revokes_its_seat_token(
        app: Any, client: httpx.AsyncClient, ada: Member, bea: Member, closing: str) -> None:
    game = await made(client, ada, bea, rated=True)
    match_id, white = game["id"], game["white"]["token"]
    for headers in (seat(white), bea.token(), seat(white), bea.token()):  # setups, then each side's first action
        await act(client, match_id, headers)
    assert (await client.get(f"{BASE}/{match_id}/legal", headers=seat(white))).status_code == 200
    await CLOSINGS[closing](app, client, ada)

    for method, path, body in (("GET", "legal", None), ("POST", "actions", {"action": {"type": "pass"}, "version": 5}),
                               ("POST", "resign", None), ("POST", "rematch", None)):
        r = await client.request(method, f"{BASE}/{match_id}/{path}", json=body, headers=seat(white))
        assert r.status_code == 401 and r.json()["error"] == "unauthorized", (path, r.text)
    state = (await client.get(f"{BASE}/{match_id}")).json()
    assert state["status"] == "finished" and state["result"]["winner"] == "black", state["result"]
    log = (await client.get(f"{BASE}/{match_id}/actions")).json()
    assert log[-1]["action"] == {"type": "resign", "account_closed": True} and log[-1]["player"] == "white"
    assert entry_words(None, "white", log[-1]["action"], True) == "White's account is closed: White resigns."
    engine = app.state.parts.engine
    assert await changes_of(engine, match_id) == []  # the closing's ending moves no rating
    assert await ratings_of(engine, ada.account.id) == {} == await ratings_of(engine, bea.account.id)


@pytest.mark.parametrize("closing", sorted(CLOSINGS))
async def test_closing_aborts_what_has_not_begun(app: Any, client: httpx.AsyncClient, ada: Member, bea: Member,
                                                 closing: str) -> None:
    waiting = await made(client, ada, rated=True)  # nobody joined yet
    setting_up = await made(client, bea, ada, rated=True)  # Ada is Black, the setups not done
    await act(client, setting_up["id"], bea.token())
    await CLOSINGS[closing](app, client, ada)
    for game, colour in ((waiting, "white"), (setting_up, "black")):
        state = (await client.get(f"{BASE}/{game['id']}")).json()
        assert state["status"] == "finished" and state["result"]["reason"] == "aborted", state["result"]
        log = (await client.get(f"{BASE}/{game['id']}/actions")).json()
        assert log[-1]["action"] == {"type": "abort", "account_closed": True} and log[-1]["player"] == colour
    token = setting_up["black"]["token"]
    r = await client.get(f"{BASE}/{setting_up['id']}/legal", headers=seat(token))
    assert r.status_code == 401
    # Nobody can join the abandoned table either.
    r = await client.post(f"{BASE}/{waiting['id']}/join", json={"name": "Cy"})
    assert r.status_code == 409, r.text


async def test_a_closed_accounts_rematch_offer_cannot_be_taken_up(
        app: Any, client: httpx.AsyncClient, ada: Member, bea: Member) -> None:
    game = await made(client, ada, bea)
    match_id = game["id"]
    assert (await client.post(f"{BASE}/{match_id}/abort", headers=bea.token())).status_code == 200
    offer = await client.post(f"{BASE}/{match_id}/rematch", headers=ada.token())
    assert offer.status_code == 200 and offer.json()["rematch"]["token"], offer.text
    await close_by_page(app, client, ada)
    r = await client.post(f"{BASE}/{match_id}/rematch", headers=bea.token())
    assert r.status_code == 403 and "account is closed" in r.json()["detail"], r.text
