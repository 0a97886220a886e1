"""`GET /api/v1/users/{name}` and `/users/{name}/matches` (issue 19): a rated
match played to its end through the service shows in the player's ratings,
results and matches; a name nobody has is 404 naming it."""

from __future__ import annotations

from typing import Any

import httpx

from tests.accounts.played import member, parts, rated_match


async def test_a_rated_match_shows_in_both_profiles(app: Any, client: httpx.AsyncClient) -> None:
    accounts, service = parts(app)
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    await rated_match(service, ada, bea, winner="white")
    r = await client.get("/api/v1/users/ada")  # any case
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["name"] == "Ada" and body["closed"] is False and body["computer"] is False
    assert body["created_at"].endswith("Z")
    assert body["ratings"] == {"standard": {"rating": 1742, "rd": body["ratings"]["standard"]["rd"],
                                            "provisional": True, "games": 1}}
    assert body["results"] == {"wins": 1, "draws": 0, "losses": 0}
    bea_body = (await client.get("/api/v1/users/Bea")).json()
    assert bea_body["ratings"]["standard"]["rating"] == 1258 and bea_body["results"]["losses"] == 1
    assert not any(k in str(body) for k in ("password", "hash", "token"))


async def test_draws_losses_aborts_and_casual_matches_are_counted_apart(app: Any, client: httpx.AsyncClient) -> None:
    accounts, service = parts(app)
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    await rated_match(service, ada, bea, winner=None)
    await rated_match(service, bea, ada, winner="white", rated=False)  # a casual loss: counted, not rated
    aborted = await service.lobby.create({}, seat="white", rated=True, account_id=ada.id)
    await service.lobby.join(aborted.match["id"], account_id=bea.id)
    await service.finisher.abort(aborted.match["id"], "white")
    body = (await client.get("/api/v1/users/Ada")).json()
    assert body["results"] == {"wins": 0, "draws": 1, "losses": 1}
    assert body["ratings"]["standard"]["games"] == 1


async def test_no_such_player_is_404_naming_it(client: httpx.AsyncClient) -> None:
    for path in ("/api/v1/users/Nobody", "/api/v1/users/Nobody/matches"):
        r = await client.get(path)
        assert r.status_code == 404 and r.json() == {"error": "not_found",
                                                     "detail": "there is no player named 'Nobody'"}
    r = await client.get("/api/v1/users/a")  # too short to be a name
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


async def test_a_computer_level_has_a_profile(client: httpx.AsyncClient) -> None:
    body = (await client.get("/api/v1/users/Strong")).json()
    assert body["computer"] is True and body["ratings"] == {}


async def test_the_matches_are_paged_newest_first(app: Any, client: httpx.AsyncClient) -> None:
    accounts, service = parts(app)
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    made = [await rated_match(service, ada, bea, winner="white"),
            await rated_match(service, bea, ada, winner=None),
            await rated_match(service, ada, bea, winner="black", rated=False)]
    guest = await service.lobby.create({}, seat="white", name="guest")  # not Ada's: never listed
    await service.lobby.join(guest.match["id"], name="Ada")  # a guest named Ada is not the account
    first = (await client.get("/api/v1/users/Ada/matches", params={"limit": 2})).json()
    assert [m["id"] for m in first["matches"]] == made[:0:-1] and first["next_cursor"]
    rest = (await client.get("/api/v1/users/Ada/matches",
                             params={"limit": 2, "cursor": first["next_cursor"]})).json()
    assert [m["id"] for m in rest["matches"]] == made[:1] and rest["next_cursor"] is None
    newest, middle, oldest = first["matches"] + rest["matches"]
    assert (newest["outcome"], newest["rated"], newest["rating_change"], newest["colour"]) == (
        "lost", False, None, "white")
    assert (middle["outcome"], middle["colour"], middle["opponent"], middle["opponent_account"]) == (
        "drawn", "black", "Bea", "Bea")
    assert oldest["outcome"] == "won" and oldest["rating_change"] == 242 and oldest["reason"] == "resigned"
    assert oldest["status"] == "finished" and oldest["finished_at"].endswith("Z")
