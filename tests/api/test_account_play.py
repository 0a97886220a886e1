"""Issue 19: accounts play through the API: create and join as themselves,
rated or casual, act in their seats with no seat token (REST and websocket),
and stop at once when their account closes or their token is revoked."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.accounts import ratings_of
from app.accounts.rated import changes_of
from app.matches.lobby import RATED_RULE
from tests.conftest import ROW

from ..realtime.conftest import Closed, Socket, ws_path
from .members import Member

BASE = "/api/v1/matches"


async def made(client: httpx.AsyncClient, creator: Member, joiner: Member | None = None,
               **body: Any) -> dict[str, Any]:
    r = await client.post(BASE, json={"seat": "white", **body}, headers=creator.token())
    assert r.status_code == 201, r.text
    created = r.json()
    if joiner is not None:
        j = await client.post(f"{BASE}/{created['match']['id']}/join", json={}, headers=joiner.token())
        assert j.status_code == 200, j.text
        return {"id": created["match"]["id"], "white": created, "black": j.json(), "match": j.json()["match"]}
    return {"id": created["match"]["id"], "white": created, "match": created["match"]}


async def act(client: httpx.AsyncClient, match_id: str, headers: dict[str, str]) -> dict[str, Any]:
    """The first legal action of the caller's seat, played with `headers` alone."""
    legal = await client.get(f"{BASE}/{match_id}/legal", headers=headers)
    assert legal.status_code == 200, legal.text
    body = legal.json()
    action = {"type": "setup", "backrow": ROW} if body["setup"] else body["actions"][0]
    r = await client.post(f"{BASE}/{match_id}/actions", json={"action": action, "version": body["version"]},
                          headers=headers)
    assert r.status_code == 200, r.text
    return r.json()["match"]  # type: ignore[no-any-return]


async def test_an_account_plays_a_rated_match_through_tokens_and_is_rated_once(
        app: Any, client: httpx.AsyncClient, ada: Member, bea: Member) -> None:
    game = await made(client, ada, bea, rated=True)
    match_id = game["id"]
    players = game["match"]["players"]
    assert (players["white"]["account"], players["black"]["account"]) == ("Ada", "Bea")
    assert players["white"]["name"] == "Ada" and players["white"]["computer"] is False
    assert game["white"]["token"] and game["black"]["token"]  # a seat token still, as clients expect
    for headers in (ada.token(), bea.token(), ada.token(), bea.token()):  # setups, then each first action
        await act(client, match_id, headers)
    # The seat token handed out works alongside the account's.
    r = await client.get(f"{BASE}/{match_id}/legal", headers={"Authorization": f"Bearer {game['white']['token']}"})
    assert r.status_code == 200
    r = await client.post(f"{BASE}/{match_id}/resign", headers=bea.token())
    assert r.status_code == 200 and r.json()["match"]["result"]["winner"] == "white", r.text
    again = await client.post(f"{BASE}/{match_id}/resign", headers=ada.token())
    assert again.status_code == 409
    engine = app.state.parts.engine
    changes = await changes_of(engine, match_id)
    assert sorted(c.colour for c in changes) == ["black", "white"]
    white = (await ratings_of(engine, ada.account.id))["standard"]
    black = (await ratings_of(engine, bea.account.id))["standard"]
    assert white.games == black.games == 1 and white.rating > black.rating
    text = (await client.get(f"{BASE}/{match_id}")).text
    assert "account_id" not in text  # the names only: an account's id is never public


async def test_rated_needs_two_accounts_or_an_account_and_a_computer(
        client: httpx.AsyncClient, ada: Member, bea: Member) -> None:
    guest = await client.post(BASE, json={"rated": True})
    assert guest.status_code == 403 and RATED_RULE in guest.json()["detail"], guest.text
    rated = await made(client, ada, rated=True)
    assert rated["match"]["players"]["white"]["account"] == "Ada"
    refused = await client.post(f"{BASE}/{rated['id']}/join", json={})  # a guest
    assert refused.status_code == 403 and RATED_RULE in refused.json()["detail"], refused.text
    bot = await client.post(BASE, json={"rated": True, "opponent": "bot:greedy", "seat": "white"},
                            headers=ada.token())
    assert bot.status_code == 201, bot.text
    black = bot.json()["match"]["players"]["black"]
    assert (black["account"], black["computer"], black["bot"]) == ("Greedy", True, "greedy")
    casual = await client.post(BASE, json={}, headers=ada.token())
    assert casual.status_code == 201 and casual.json()["match"].get("rated") in (None, False)
    guest_seat = (await client.post(BASE, json={"name": "Zed"})).json()["match"]["players"]
    assert [p["account"] for p in guest_seat.values()] == [None, None]


async def test_an_account_never_joins_the_other_seat_of_its_own_match(client: httpx.AsyncClient,
                                                                      ada: Member) -> None:
    for rated in (False, True):
        game = await made(client, ada, rated=rated)
        r = await client.post(f"{BASE}/{game['id']}/join", json={}, headers=ada.session())
        assert r.status_code == 403 and "themselves" in r.json()["detail"], r.text
        state = (await client.get(f"{BASE}/{game['id']}")).json()
        assert state["status"] == "waiting" and state["players"]["black"]["name"] is None


async def test_a_session_plays_like_a_token_and_a_page_names_the_seat(client: httpx.AsyncClient, ada: Member,
                                                                      bea: Member) -> None:
    r = await client.post(BASE, json={"seat": "black", "name": "ignored"}, headers=ada.session())
    assert r.status_code == 201, r.text
    match_id = r.json()["match"]["id"]
    assert r.json()["match"]["players"]["black"]["name"] == "Ada"  # an account's seat is named as it is
    await client.post(f"{BASE}/{match_id}/join", json={}, headers=bea.session())
    await act(client, match_id, bea.session())  # White sets up first
    await act(client, match_id, ada.session())
    r = await client.post(f"{BASE}/{match_id}/abort", headers=ada.session())
    assert r.status_code in (200, 403), r.text  # whatever the rule says, it is the seat's own answer
    assert r.json().get("error") not in ("unauthorized", "csrf_failed")


async def test_a_closed_account_stops_at_once_on_rest_and_on_its_socket(
        app: Any, client: httpx.AsyncClient, ada: Member, bea: Member) -> None:
    game = await made(client, ada, bea)
    match_id = game["id"]
    sock = await Socket.open(app, ws_path(match_id), {"Authorization": f"Bearer {ada.play}"})
    assert (await sock.receive())["type"] == "snapshot"
    await sock.send({"type": "action", "action": {"type": "setup", "backrow": ROW}, "version": 1, "id": "a-1"})
    ack, _ = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack  # the account's socket is White's seat
    await app.state.parts.accounts.close("Ada")
    r = await client.get(f"{BASE}/{match_id}/legal", headers=ada.token())
    assert r.status_code == 401 and "www-authenticate" in r.headers
    r = await client.get("/api/v1/account", headers=ada.session())
    assert r.status_code == 401
    await sock.send({"type": "action", "action": {"type": "pass"}, "version": 2, "id": "a-2"})
    error, _ = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert error["error"] == "unauthorized", error
    with pytest.raises(Closed) as closed:
        await sock.receive()
    assert closed.value.code == 1008
    state = (await client.get(f"{BASE}/{match_id}")).json()
    # The join, White's setup, and the closing's abort (the setups were not done): nothing of Ada's after it.
    assert state["version"] == 3 and state["result"]["reason"] == "aborted"
    with pytest.raises(Closed) as refused:  # and a new socket with the token is refused, not a watcher
        await (await Socket.open(app, ws_path(match_id), {"Authorization": f"Bearer {ada.play}"})).receive()
    assert refused.value.code == 1008 and refused.value.reason.startswith("unauthorized")


async def test_a_socket_by_session_cookie_is_the_accounts_seat(
        app: Any, client: httpx.AsyncClient, ada: Member, bea: Member) -> None:
    game = await made(client, ada, bea)
    cookie = {"Cookie": ada.session()["Cookie"], "Origin": "http://testserver"}
    sock = await Socket.open(app, ws_path(game["id"]), cookie)
    assert (await sock.receive())["type"] == "snapshot"
    await sock.send({"type": "action", "action": {"type": "setup", "backrow": ROW}, "version": 1, "id": "c-1"})
    ack, _ = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    await sock.close()
    # Bea's read-only token proves her seat for watching, never for acting.
    reader = await Socket.open(app, ws_path(game["id"]), {"Authorization": f"Bearer {bea.read}"})
    assert (await reader.receive())["type"] == "snapshot"
    await reader.send({"type": "action", "action": {"type": "setup", "backrow": ROW}, "version": 2, "id": "r-1"})
    error, _ = await reader.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert error["error"] == "insufficient_scope", error
    await reader.close()
    # A bad account token is refused; a stale cookie is a guest's socket: a watcher.
    with pytest.raises(Closed) as refused:
        await (await Socket.open(app, ws_path(game["id"]), {"Authorization": "Bearer mgo_nothing"})).receive()
    assert refused.value.code == 1008
    watcher = await Socket.open(app, ws_path(game["id"]), {"Cookie": "magery_session=stale"})
    assert (await watcher.receive())["type"] == "snapshot"
    await watcher.send({"type": "action", "action": {"type": "pass"}, "version": 2, "id": "w-1"})
    error, _ = await watcher.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert error["error"] == "unauthorized"
    await watcher.close()


def test_a_seat_token_never_reads_as_an_account_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """The API tells the two apart by the prefix: a seat token drawn with it is drawn again."""
    from app.matches import seats

    drawn = iter(["mgo_looks-like-an-account", "a-seat-token"])
    monkeypatch.setattr(seats.secrets, "token_urlsafe", lambda _: next(drawn))
    assert seats.new_seat_token() == "a-seat-token"


async def test_a_rated_match_record_shows_the_ratings_and_a_position_is_refused_rated(
        client: httpx.AsyncClient, ada: Member, bea: Member) -> None:
    from app.rules.game_record import read_record
    from tests.api.test_positions import MID

    refused = await client.post(BASE, json={"rated": True, "position": MID}, headers=ada.token())
    assert refused.status_code == 400 and "casual" in refused.json()["detail"], refused.text
    game = await made(client, ada, bea, rated=True)
    for headers in (ada.token(), bea.token(), ada.token(), bea.token()):  # a match that moves ratings
        await act(client, game["id"], headers)
    await client.post(f"{BASE}/{game['id']}/resign", headers=bea.token())
    record = read_record((await client.get(f"{BASE}/{game['id']}/record")).text)
    h = record.headers
    assert h["Rated"] == "yes" and h["White"] == "Ada" and h["Black"] == "Bea"
    assert h["WhiteRating"].rstrip("?").isdigit() and h["BlackRating"].rstrip("?").isdigit()
    assert int(h["WhiteRatingChange"]) > 0 > int(h["BlackRatingChange"])
    assert record.final().result == {"winner": "white", "reason": "resigned"}
