"""`/api/v1/tournaments` through HTTP, on SQLite and PostgreSQL: making an
arena (accounts only, a refusal names the field), joining, being paired at
once, a game's end in the standings, withdrawing, and reading it all back."""

from __future__ import annotations

from typing import Any

import httpx

from ..api.members import Member, member

BASE = "/api/v1/tournaments"
NEW = {"kind": "arena", "name": "Hourly Blitz", "variant": "standard", "time_control": "5+3", "minutes": 60,
       "starts_in_seconds": 0, "rated": False}


async def _make(client: httpx.AsyncClient, who: Member, **fields: Any) -> dict[str, Any]:
    r = await client.post(BASE, json={**NEW, **fields}, headers=who.token())
    assert r.status_code == 201, r.text
    assert r.headers["Location"] == f"{BASE}/{r.json()['id']}"
    body: dict[str, Any] = r.json()
    return body


async def test_an_account_makes_an_arena_and_anyone_reads_it(app: Any, client: httpx.AsyncClient) -> None:
    ann = await member(app, "ApiAnn1")
    made = await _make(client, ann)
    assert {k: made[k] for k in ("kind", "name", "status", "variant", "time_control", "rated")} == {
        "kind": "arena", "name": "Hourly Blitz", "status": "started", "variant": "standard", "time_control": "5+3",
        "rated": False}
    assert made["standings"] == [] and made["pairings"] == []
    assert made["starts_at"] < made["ends_at"]
    read = (await client.get(f"{BASE}/{made['id']}")).json()
    assert read["id"] == made["id"]
    listed = (await client.get(BASE)).json()["tournaments"]
    assert made["id"] in [t["id"] for t in listed] and "standings" not in listed[0]


async def test_a_guest_may_read_but_not_make_join_or_withdraw(app: Any, client: httpx.AsyncClient) -> None:
    ann = await member(app, "ApiAnn2")
    made = await _make(client, ann)
    assert (await client.post(BASE, json=NEW)).status_code == 401
    for path in ("join", "withdraw"):
        r = await client.post(f"{BASE}/{made['id']}/{path}")
        assert r.status_code == 401 and r.json()["error"] == "unauthorized", r.text


async def test_refusals_name_the_field(app: Any, client: httpx.AsyncClient) -> None:
    ann = await member(app, "ApiAnn3")
    for field, value in (("time_control", "5 minutes"), ("variant", "checkers"), ("minutes", 0),
                         ("starts_in_seconds", -1), ("name", "x")):
        r = await client.post(BASE, json={**NEW, field: value}, headers=ann.token())
        assert r.status_code == 400, (field, r.text)
        assert r.json()["field"] == field and field in r.json()["detail"], r.text
    for field, value in (("minutes", "60"), ("rated", "yes")):
        r = await client.post(BASE, json={**NEW, field: value}, headers=ann.token())
        assert r.status_code == 400 and field in r.json()["detail"], r.text
    r = await client.post(BASE, json={**NEW, "colour": "white"}, headers=ann.token())
    assert r.status_code == 400 and "colour: unknown field" in r.json()["detail"]
    r = await client.post(BASE, json={**NEW, "rounds": 7}, headers=ann.token())  # a Swiss event's field
    assert r.status_code == 400 and r.json()["field"] == "rounds", r.text
    r = await client.post(BASE, json={**NEW, "kind": "swiss", "rounds": 5}, headers=ann.token())  # and an arena's
    assert r.status_code == 400 and r.json()["field"] == "minutes", r.text
    r = await client.post(BASE, json={**NEW, "kind": "knockout"}, headers=ann.token())
    assert r.status_code == 400 and "kind" in r.json()["detail"]


async def test_joining_pairs_at_once_and_a_game_end_shows_in_the_standings(app: Any, client: httpx.AsyncClient) -> None:
    ann, bob = await member(app, "ApiAnn4"), await member(app, "ApiBob4")
    tid = (await _make(client, ann))["id"]
    r = await client.post(f"{BASE}/{tid}/join", headers=ann.token())
    assert r.status_code == 200 and r.json()["pairings"] == []
    body = (await client.post(f"{BASE}/{tid}/join", headers=bob.token())).json()
    [pairing] = body["pairings"]
    assert {pairing["white"], pairing["black"]} == {ann.name, bob.name}
    assert pairing["status"] == "playing" and pairing["result"] is None
    r = await client.post(f"/api/v1/matches/{pairing['match']}/resign", headers=bob.token())
    assert r.status_code == 200, r.text
    await app.state.parts.arenas.settled()
    body = (await client.get(f"{BASE}/{tid}")).json()
    assert [(s["rank"], s["name"], s["score"], s["games"], s["streak"]) for s in body["standings"]] == [
        (1, ann.name, 2, 1, 1), (2, bob.name, 0, 1, 0)]
    assert body["standings"][0]["performance"] == 2000  # a win over a new player's 1500
    newest, first = body["pairings"]  # paired again at once, the newest first
    assert first["match"] == pairing["match"] and first["status"] == "finished"
    assert first["result"] == ("white" if pairing["black"] == bob.name else "black")
    assert newest["status"] == "playing"


async def test_a_withdrawal_is_a_pause(app: Any, client: httpx.AsyncClient) -> None:
    ann, bob = await member(app, "ApiAnn5"), await member(app, "ApiBob5")
    tid = (await _make(client, ann))["id"]
    r = await client.post(f"{BASE}/{tid}/withdraw", headers=ann.token())
    assert r.status_code == 409 and r.json()["error"] == "not_joined"
    await client.post(f"{BASE}/{tid}/join", headers=ann.token())
    assert (await client.post(f"{BASE}/{tid}/withdraw", headers=ann.token())).status_code == 200
    body = (await client.post(f"{BASE}/{tid}/join", headers=bob.token())).json()
    assert body["pairings"] == []  # Ann paused
    body = (await client.post(f"{BASE}/{tid}/join", headers=ann.token())).json()
    assert len(body["pairings"]) == 1  # back, and paired at once


async def test_an_unknown_arena_is_404(app: Any, client: httpx.AsyncClient) -> None:
    ann = await member(app, "ApiAnn6")
    r = await client.get(f"{BASE}/nosuch")
    assert r.status_code == 404 and r.json()["error"] == "no_such_tournament"
    r = await client.post(f"{BASE}/nosuch/join", headers=ann.token())
    assert r.status_code == 404 and r.json()["error"] == "no_such_tournament"
