"""The puzzles API: the next puzzle, an attempt judged and rated by Glicko-2,
illegal actions refused naming the rule, guests unrated, each account's
first finished try alone rated."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from app.db.puzzle_models import puzzle_attempts
from app.puzzles.service import NEAREST, read_seed
from app.ratings import NEW, Rating, rate_match
from app.rules import COLOURS, action_json, from_text, legal_actions
from tests.conftest import make_settings

from .members import member

SEED = read_seed()


def wrong_action(rec: dict[str, Any]) -> dict[str, Any]:
    """A legal first action that is not the solution's (and does not win at once)."""
    state = from_text(rec["position"])
    right = rec["solution"][0]["action"]
    for action in legal_actions(state):
        shaped = action_json(action)
        if shaped != right:
            return shaped
    raise AssertionError("a puzzle with one legal action")


def solver_actions(rec: dict[str, Any]) -> list[dict[str, Any]]:
    colour = COLOURS[from_text(rec["position"]).to_move]
    return [ply["action"] for ply in rec["solution"] if ply["player"] == colour]


async def test_the_shipped_puzzles_are_loaded_and_a_guest_gets_one(app: Any, client: httpx.AsyncClient) -> None:
    assert SEED, "the seed set ships with the project"
    r = await client.get("/api/v1/puzzles/next")
    assert r.status_code == 200, r.text
    body = r.json()
    assert {"id", "position", "to_move", "rating", "themes"} <= body.keys()
    assert body["id"] in {rec["id"] for rec in SEED}
    assert body["player_rating"] is None and body["legal"]
    assert " ? ? " in body["position"]  # the deck and seed masked (R20)
    # Loading again adds nothing: the start is idempotent.
    assert await app.state.parts.puzzles.load(SEED) == 0


async def test_a_solved_puzzle_rates_the_account_and_the_puzzle_as_glicko2_says(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    shown = (await client.get("/api/v1/puzzles/next", headers=ada.token())).json()
    rec = next(r for r in SEED if r["id"] == shown["id"])
    before = Rating(float(rec["rating"]), 300.0, 0.09)
    moves = solver_actions(rec)
    body: dict[str, Any] = {}
    for n in range(1, len(moves) + 1):
        r = await client.post(f"/api/v1/puzzles/{rec['id']}/attempt", json={"actions": moves[:n]},
                              headers=ada.token())
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["correct"] is True
        if not body["complete"]:
            assert body["solution"] is None and body["rating_change"] is None
    assert body["complete"] is True and body["solution"] == rec["solution"]
    when = datetime.fromtimestamp(app.state.parts.puzzles.clock(), UTC)
    player, puzzle = rate_match(NEW, before, 1.0, when)
    assert body["rating_change"] == pytest.approx(round(player.rating - NEW.rating, 1), abs=0.11)
    assert body["player_rating"] == round(player.rating)
    again = (await client.get(f"/api/v1/puzzles/{rec['id']}")).json()
    assert again["rating"] == round(puzzle.rating) and again["plays"] == 1
    # A second try is not rated again.
    r = await client.post(f"/api/v1/puzzles/{rec['id']}/attempt", json={"actions": moves}, headers=ada.token())
    assert r.json()["rating_change"] is None
    history = await app.state.parts.puzzles.history(ada.account.id)
    assert [h["puzzle"] for h in history["history"]] == [rec["id"]] and history["history"][0]["solved"]


async def test_a_wrong_action_fails_and_shows_the_solution(app: Any, client: httpx.AsyncClient) -> None:
    bea = await member(app, "Bea")
    rec = SEED[0]
    r = await client.post(f"/api/v1/puzzles/{rec['id']}/attempt", json={"actions": [wrong_action(rec)]},
                          headers=bea.session())
    body = r.json()
    assert r.status_code == 200 and body["correct"] is False and body["complete"] is True
    assert body["solution"] == rec["solution"] and len(body["replay"]) == len(rec["solution"])
    assert body["rating_change"] < 0
    # A guest's try: judged, never rated.
    guest = (await client.post(f"/api/v1/puzzles/{rec['id']}/attempt",
                               json={"actions": [wrong_action(rec)]})).json()
    assert guest["correct"] is False and guest["rating_change"] is None


async def test_an_illegal_action_is_refused_naming_the_rule(client: httpx.AsyncClient) -> None:
    rec = SEED[0]
    r = await client.post(f"/api/v1/puzzles/{rec['id']}/attempt", json={"actions": [{"type": "pass"}]})
    assert r.status_code == 422 and r.json()["error"] == "illegal_action"
    assert r.json()["detail"].startswith("R")
    r = await client.post(f"/api/v1/puzzles/{rec['id']}/attempt", json={"actions": [{"type": "jump"}]})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = await client.post(f"/api/v1/puzzles/{rec['id']}/attempt",
                          json={"actions": solver_actions(rec) + [{"type": "pass"}] * (3 - len(solver_actions(rec)))})
    if len(solver_actions(rec)) < 3:
        assert r.status_code == 422 and r.json()["error"] == "too_many_actions"
    r = await client.post("/api/v1/puzzles/000000000000/attempt", json={"actions": [{"type": "pass"}]})
    assert r.status_code == 404 and r.json()["error"] == "not_found"


async def test_who_may_call_the_puzzles(app: Any, client: httpx.AsyncClient) -> None:
    """The auth matrix of the puzzle routes: a guest reads and tries, unrated;
    a bad account credential is refused, never taken for a guest; a read-only
    token reads but is not rated; a session's change needs its CSRF token."""
    ada, dee = await member(app, "Ada"), await member(app, "Dee")
    accounts = app.state.parts.accounts
    revoked, made = await accounts.create_token(ada.account, "old", ["play", "read"])
    assert await accounts.revoke_token(ada.account, made.id)
    await accounts.close("Dee")
    rec = SEED[0]
    attempt = f"/api/v1/puzzles/{rec['id']}/attempt"
    body = {"actions": [wrong_action(rec)]}
    for headers in (ada.token(revoked), dee.token()):
        for method, path in (("GET", "/api/v1/puzzles/next"), ("POST", attempt)):
            r = await client.request(method, path, headers=headers, json=body if method == "POST" else None)
            assert (r.status_code, r.json()["error"]) == (401, "unauthorized"), (headers, path)
    assert (await client.get("/api/v1/puzzles/next", headers=dee.session())).status_code == 200  # a guest now
    assert (await client.get("/api/v1/puzzles/next", headers=ada.token(ada.read))).json()["player_rating"] is None
    r = await client.post(attempt, json=body, headers=ada.token(ada.read))
    assert (r.status_code, r.json()["error"]) == (403, "insufficient_scope")
    r = await client.post(attempt, json=body, headers=ada.session(csrf=False))
    assert (r.status_code, r.json()["error"]) == (403, "csrf_failed")
    assert await app.state.parts.puzzles.player_rating(ada.account.id) is None  # nothing rated


async def test_next_serves_the_nearest_untried_and_once_all_are_tried_not_always_the_same(
        app: Any, client: httpx.AsyncClient) -> None:
    """Untried first, nearest the account's rating (then by id); once it has
    tried every puzzle, one of the nearest at random rather than one forever."""
    ada = await member(app, "Ada")
    puzzles = app.state.parts.puzzles
    by_nearness = sorted(SEED, key=lambda rec: (abs(float(rec["rating"]) - NEW.rating), rec["id"]))
    shown = (await client.get("/api/v1/puzzles/next", headers=ada.token())).json()
    assert shown["id"] == by_nearness[0]["id"]
    async with app.state.parts.engine.begin() as conn:  # every puzzle tried, as if solved long ago
        await conn.execute(puzzle_attempts.insert(), [
            {"account_id": ada.account.id, "puzzle_id": rec["id"], "solved": True, "rating_before": 1500.0,
             "rating_after": 1500.0, "at_ms": 1} for rec in SEED])
    puzzles.rng = random.Random(34)
    served = {(await client.get("/api/v1/puzzles/next", headers=ada.token())).json()["id"] for _ in range(12)}
    nearest = {rec["id"] for rec in by_nearness[:NEAREST]}
    assert served <= nearest and len(served) > 1


async def test_an_attempt_counts_against_the_write_budget(database_url: str, apps: Any) -> None:
    """Past RATE_LIMIT_WRITES tries in the window: 429 with Retry-After, nothing judged."""
    tight = apps.serving(make_settings(database_url, rate_limit_writes=3, rate_window_seconds=600))
    rec = SEED[0]
    body = {"actions": [wrong_action(rec)]}
    async with (tight.router.lifespan_context(tight),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=tight), base_url="http://testserver") as few):
        answers = [await few.post(f"/api/v1/puzzles/{rec['id']}/attempt", json=body) for _ in range(4)]
    assert [r.status_code for r in answers] == [200, 200, 200, 429]
    assert answers[-1].json()["error"] == "rate_limited" and "retry-after" in answers[-1].headers
