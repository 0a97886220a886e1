"""`/api/v1/tournaments` for Swiss events through HTTP, on SQLite and
PostgreSQL: making one (refusals name the field), joining, withdrawing,
reading it with its rounds and standings, listing it beside the arenas, and
its TRF-16 export read back."""

from __future__ import annotations

from typing import Any

import httpx

from app.tournaments.swiss import trf

from ..api.members import Member, member
from .swiss_helpers import swisses

BASE = "/api/v1/tournaments"
NEW = {"kind": "swiss", "name": "Sunday Swiss", "variant": "standard", "time_control": "3+2", "rounds": 5,
       "round_interval_seconds": 120, "starts_in_seconds": 0, "rated": False}


async def _make(client: httpx.AsyncClient, who: Member, **fields: Any) -> dict[str, Any]:
    r = await client.post(BASE, json={**NEW, **fields}, headers=who.token())
    assert r.status_code == 201, r.text
    assert r.headers["Location"] == f"{BASE}/{r.json()['id']}"
    body: dict[str, Any] = r.json()
    return body


async def test_an_account_makes_a_swiss_and_players_join_and_are_paired(app: Any, client: httpx.AsyncClient) -> None:
    ann, bob, cy = [await member(app, n) for n in ("SwApiAnn", "SwApiBob", "SwApiCy")]
    made = await _make(client, ann, starts_in_seconds=60)
    assert {k: made[k] for k in ("kind", "status", "time_control", "rounds", "round", "round_interval_seconds")} == {
        "kind": "swiss", "status": "created", "time_control": "3+2", "rounds": 5, "round": 0,
        "round_interval_seconds": 120}
    assert "ends_at" not in made and made["next_round_at"] == made["starts_at"]
    tid = made["id"]
    for who in (ann, bob, cy):
        r = await client.post(f"{BASE}/{tid}/join", headers=who.token())
        assert r.status_code == 200, r.text
    r = await client.post(f"{BASE}/{tid}/withdraw", headers=cy.token())
    assert r.status_code == 200 and {s["name"]: s["withdrawn"] for s in r.json()["standings"]}[cy.name] is True
    sw = swisses(app)
    now = sw.clock()
    sw.clock = lambda: now + 60
    await sw.tick()
    body = (await client.get(f"{BASE}/{tid}")).json()
    assert body["status"] == "started" and body["round"] == 1
    [pairing] = body["pairings"]  # Cy withdrew: two players, one board, no bye
    assert {pairing["white"], pairing["black"]} == {ann.name, bob.name} and pairing["round"] == 1
    assert pairing["status"] == "playing" and pairing["board"] == 1
    loser = ann if pairing["white"] == ann.name else bob
    r = await client.post(f"/api/v1/matches/{pairing['match']}/resign", headers=loser.token())
    assert r.status_code == 200, r.text
    await sw.settled()
    body = (await client.get(f"{BASE}/{tid}")).json()
    assert [(s["rank"], s["score"], s["games"]) for s in body["standings"]] == [(1, 1.0, 1), (2, 0.0, 1), (3, 0.0, 0)]
    assert body["standings"][0]["name"] != loser.name
    listed = (await client.get(BASE)).json()["tournaments"]
    mine = next(t for t in listed if t["id"] == tid)
    assert mine["kind"] == "swiss" and mine["rounds"] == 5 and "ends_at" not in mine and "standings" not in mine

    r = await client.get(f"{BASE}/{tid}/trf")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    parsed = trf.read(r.text)
    points = {p.name: p.points_times_ten for p in parsed.player_sections}
    assert points == {ann.name: 0 if loser is ann else 10, bob.name: 0 if loser is bob else 10, cy.name: 0}
    assert parsed.x_section.number_of_rounds == 5


async def test_a_correspondence_swiss_is_made_with_a_day_between_rounds(app: Any, client: httpx.AsyncClient) -> None:
    ann = await member(app, "SwApiCor")
    made = await _make(client, ann, time_control={"type": "correspondence", "days": 3},
                       round_interval_seconds=None)
    assert made["time_control"] == {"type": "correspondence", "days": 3}
    assert made["round_interval_seconds"] == 86_400


async def test_refusals_name_the_field(app: Any, client: httpx.AsyncClient) -> None:
    ann = await member(app, "SwApiRef")
    for field, value in (("rounds", 0), ("rounds", 51), ("rounds", None), ("round_interval_seconds", -1),
                         ("time_control", "5 minutes"), ("time_control", {"type": "correspondence", "days": 0}),
                         ("time_control", {"type": "realtime", "days": 2}), ("minutes", 60), ("variant", "checkers"),
                         ("starts_in_seconds", -1), ("name", "x")):
        r = await client.post(BASE, json={**NEW, field: value}, headers=ann.token())
        assert r.status_code == 400, (field, r.text)
        assert r.json()["field"] == field and field in r.json()["detail"], r.text
    arena = {"kind": "arena", "name": "Hourly", "time_control": "5+3", "minutes": 60}
    r = await client.post(BASE, json={**arena, "rounds": 5}, headers=ann.token())
    assert r.status_code == 400 and r.json()["field"] == "rounds", r.text
    assert (await client.post(BASE, json=NEW)).status_code == 401


async def test_an_arena_has_no_trf_and_an_unknown_id_is_404(app: Any, client: httpx.AsyncClient) -> None:
    ann = await member(app, "SwApiTrf")
    arena = {"kind": "arena", "name": "Hourly", "time_control": "5+3", "minutes": 60}
    r = await client.post(BASE, json=arena, headers=ann.token())
    assert r.status_code == 201, r.text
    r = await client.get(f"{BASE}/{r.json()['id']}/trf")
    assert r.status_code == 404 and r.json()["error"] == "no_such_tournament"
    r = await client.get(f"{BASE}/nosuch/trf")
    assert r.status_code == 404 and r.json()["error"] == "no_such_tournament"
