"""Seat tokens: every seat endpoint with the other seat's token, another match's
token, a wrong token and none; tokens are strong, shown once, stored hashed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.matches import MatchService

from ..conftest import ROW, Api, Game

SETUP = {"type": "setup", "backrow": ROW}

# Every call that acts for a seat: (method, path suffix, JSON body).
SEAT_CALLS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/legal", None),
    ("POST", "/actions", {"action": SETUP, "version": 1}),
    ("POST", "/resign", None),
    ("POST", "/draw", {"offer": True}),
    ("POST", "/claim", {"result": "win"}),
    ("POST", "/abort", None),
]
IDS = [f"{m} {p}" for m, p, _ in SEAT_CALLS]


async def _call(client: httpx.AsyncClient, game_id: str, method: str, path: str,
                body: dict[str, Any] | None, headers: dict[str, str]) -> httpx.Response:
    return await client.request(method, f"/api/v1/matches/{game_id}{path}", json=body, headers=headers)


async def _unchanged(api: Api, game: Game, before: dict[str, Any]) -> None:
    after = await api.state(game)
    assert after["version"] == before["version"] and after["status"] == before["status"]
    assert after["draw_offer"] == before["draw_offer"] and after["result"] == before["result"]


BAD_HEADERS: dict[str, Callable[[Game, Game], dict[str, str]]] = {
    "none": lambda g, o: {},
    "wrong": lambda g, o: {"Authorization": "Bearer " + "A" * 43},
    "another match's": lambda g, o: o.auth("white"),
    "another match's black": lambda g, o: o.auth("black"),
    "empty bearer": lambda g, o: {"Authorization": "Bearer "},
    "basic scheme": lambda g, o: {"Authorization": "Basic " + g.tokens["white"]},
    "token without scheme": lambda g, o: {"Authorization": g.tokens["white"]},
    "token with a suffix": lambda g, o: {"Authorization": f"Bearer {g.tokens['white']}x"},
    "token of the other case": lambda g, o: {"Authorization": f"Bearer {g.tokens['white'].swapcase()}"},
}


@pytest.mark.parametrize(("method", "path", "body"), SEAT_CALLS, ids=IDS)
async def test_seat_calls_refuse_bad_tokens(api: Api, method: str, path: str, body: dict[str, Any] | None) -> None:
    game = await api.start()
    other = await api.start(name="Other")
    before = await api.state(game)
    for label, make in BAD_HEADERS.items():
        r = await _call(api.client, game.id, method, path, body, make(game, other))
        assert r.status_code == 401, (label, r.text)
        assert r.json()["error"] == "unauthorized", (label, r.text)
        assert set(r.json()) == {"error", "detail"}
    await _unchanged(api, game, before)


@pytest.mark.parametrize(("method", "path", "body"), SEAT_CALLS, ids=IDS)
async def test_seat_calls_on_an_unknown_match(api: Api, method: str, path: str, body: dict[str, Any] | None) -> None:
    game = await api.start()
    r = await _call(api.client, "no-such-match", method, path, body, game.auth("white"))
    assert r.status_code in (401, 404), r.text
    assert r.json()["error"] in ("unauthorized", "not_found")


async def test_legal_with_the_other_seats_token_shows_only_its_own(api: Api) -> None:
    game = await api.start()
    white = await api.legal(game, "white")
    black = await api.legal(game, "black")
    assert white["setup"] and white["actions"] == []
    assert black == {"version": game.version, "actions": [], "setup": []}
    await api.setups(game)
    assert (await api.legal(game, "black"))["actions"] == []
    assert len((await api.legal(game, "white"))["actions"]) > 1


async def test_a_seat_cannot_act_for_the_other(api: Api) -> None:
    game = await api.start()
    r = await api.post(game, "black", SETUP)  # White's turn: Black's token cannot play it
    assert r.status_code == 403 and r.json()["error"] == "not_your_turn", r.text
    await api.act(game, "white", SETUP)
    r = await api.post(game, "white", SETUP)  # now Black's turn
    assert r.status_code == 403 and r.json()["error"] == "not_your_turn", r.text
    assert game.match["to_move"] == "black"
    await api.act(game, "black", SETUP)
    # Through the decision and action phases too.
    r = await api.post(game, "black", {"type": "pass"})
    assert r.status_code == 403 and r.json()["error"] == "not_your_turn"


async def test_resign_with_a_token_resigns_that_seat(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    r = await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("black"))
    assert r.json()["match"]["result"] == {"winner": "white", "reason": "resigned"}


async def test_a_seat_cannot_accept_its_own_draw_offer(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    draw = f"/api/v1/matches/{game.id}/draw"
    await api.client.post(draw, json={"offer": True}, headers=game.auth("white"))
    r = await api.client.post(draw, json={"offer": True}, headers=game.auth("white"))
    assert r.status_code == 200 and r.json()["match"]["status"] == "active"
    assert r.json()["match"]["draw_offer"] == "white"


async def test_tokens_are_strong_distinct_and_stored_hashed(api: Api, service: MatchService) -> None:
    games = [await api.start() for _ in range(3)]
    tokens = [t for g in games for t in g.tokens.values()]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert len(token) >= 22  # >= 128 bits in URL-safe base64
    async with service.engine.connect() as conn:
        rows = (await conn.execute(text("SELECT * FROM seats"))).all()
        dump = repr(rows)
        for table in ("matches", "actions", "draw_offers"):
            dump += repr((await conn.execute(text(f"SELECT * FROM {table}"))).all())
    for token in tokens:
        assert token not in dump
    hashes = {row.token_hash for row in rows}
    assert {hashlib.sha256(t.encode()).hexdigest() for t in tokens} == hashes


async def test_tokens_never_appear_again(api: Api) -> None:
    game = await api.create()
    token = game.tokens["white"]
    texts = []
    r = await api.client.post(f"/api/v1/matches/{game.id}/join", json={"name": "Bo"})
    texts.append(r.text)
    game.tokens[r.json()["seat"]] = r.json()["token"]
    game.match = r.json()["match"]
    await api.setups(game)
    for path in ("", "/actions", "/legal"):
        r = await api.client.get(f"/api/v1/matches/{game.id}{path}", headers=game.auth("white"))
        texts.append(r.text)
    texts.append((await api.client.get("/api/v1/matches")).text)
    assert all(token not in t and game.tokens["black"] not in t for t in texts[1:])
    assert token not in texts[0]


async def test_reads_need_no_token(api: Api) -> None:
    game = await api.start()
    for path in ("", "/actions"):
        r = await api.client.get(f"/api/v1/matches/{game.id}{path}")
        assert r.status_code == 200
    assert (await api.client.get("/api/v1/matches")).status_code == 200
    # A bad token on a public read is not an error either: it is simply not needed.
    r = await api.client.get(f"/api/v1/matches/{game.id}", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 200
