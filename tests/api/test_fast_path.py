"""POST /actions has a fast path (app/api/fast.py) past FastAPI's per-request
machinery: it must answer exactly as the declared route does. A content type
other than exactly `application/json` takes the full stack, so each case is
played on two equal matches, one through each, and the answers compared."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import app.api.fast as fast
import app.matches.reads as reads
from app.rules import OVER, apply_steps, legal_actions, new_match
from app.rules import SETUP as SETTING_UP
from app.rules.minions import TYPES

from ..conftest import ROW, Api, Game

SETUP = {"type": "setup", "backrow": ROW}
FAST = "application/json"
FULL = "application/json; charset=utf-8"  # FastAPI's JSON all the same, but not the fast path's


def _same(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without what differs between two matches (ids, times)."""
    match = answer.get("match")
    if isinstance(match, dict):
        match = {k: v for k, v in match.items() if k not in ("id", "created_at", "server_time", "clock", "seed",
                                                              "seed_commitment")}
        return {**answer, "match": match}
    return answer


async def _post(api: Api, game: Game, body: Any, headers: dict[str, str], content_type: str) -> tuple[
        int, dict[str, Any], str | None]:
    raw = body if isinstance(body, str) else json.dumps(body)
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=raw,
                              headers={**headers, "content-type": content_type})
    return r.status_code, _same(r.json()), r.headers.get("retry-after")


CASES: dict[str, Any] = {
    "legal": lambda g: ({"action": SETUP, "version": 1, "id": "a-1"}, g.auth("white")),
    "stale": lambda g: ({"action": SETUP, "version": 0}, g.auth("white")),
    "ahead": lambda g: ({"action": SETUP, "version": 7}, g.auth("white")),
    "not your turn": lambda g: ({"action": {"type": "pass"}, "version": 1}, g.auth("black")),
    "malformed action": lambda g: ({"action": {"type": "fly"}, "version": 1}, g.auth("white")),
    "wrong token": lambda g: ({"action": SETUP, "version": 1}, {"Authorization": "Bearer nope"}),
    "no token": lambda g: ({"action": SETUP, "version": 1}, {}),
    # An account's token is the declared route's (app/api/caller.py): refused there alike.
    "unknown account token": lambda g: ({"action": SETUP, "version": 1}, {"Authorization": "Bearer mgo_nope"}),
    "basic auth": lambda g: ({"action": SETUP, "version": 1}, {"Authorization": "Basic eDp5"}),
    "unknown field": lambda g: ({"action": SETUP, "version": 1, "extra": 1}, g.auth("white")),
    "string version": lambda g: ({"action": SETUP, "version": "1"}, g.auth("white")),
    "not json": lambda g: ("{nope", g.auth("white")),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_the_fast_path_answers_as_the_route_does(api: Api, case: str) -> None:
    answers = []
    for content_type in (FAST, FULL):
        game = await api.start(seed="c0ffee")
        body, headers = CASES[case](game)
        answers.append(await _post(api, game, body, headers, content_type))
    assert answers[0] == answers[1]


async def test_a_resend_answers_as_the_route_does(api: Api) -> None:
    answers = []
    for content_type in (FAST, FULL):
        game = await api.start(seed="c0ffee")
        body = {"action": SETUP, "version": 1, "id": "r-1"}
        first = await _post(api, game, body, game.auth("white"), content_type)
        again = await _post(api, game, body, game.auth("white"), content_type)
        assert first[0] == again[0] == 200
        answers.append(again)
    assert answers[0] == answers[1]


async def test_an_ordinary_action_takes_the_fast_path(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    handed_on = []
    real = fast.FastPlay._hand_on

    async def spy(self: Any, *args: Any) -> None:
        handed_on.append(args[0]["headers"])
        await real(self, *args)

    monkeypatch.setattr(fast.FastPlay, "_hand_on", spy)
    game = await api.start()
    await api.act(game, "white", SETUP)
    assert handed_on == []
    r = await api.client.post(f"{api.base}/{game.id}/actions", json={"action": SETUP, "version": 2},
                              headers={"content-type": FULL, **game.auth("black")})
    assert r.status_code == 200, r.text
    assert len(handed_on) == 1


# GET /legal's fast path: a seat's Bearer token and no query string. A query the
# route ignores (`?via=route`) sends the same ask through the full stack.
LEGAL_CASES: dict[str, Any] = {
    "your turn": lambda g: (g.id, g.auth("white")),
    "not your turn": lambda g: (g.id, g.auth("black")),
    "wrong token": lambda g: (g.id, {"Authorization": "Bearer nope"}),
    "no token": lambda g: (g.id, {}),
    "unknown account token": lambda g: (g.id, {"Authorization": "Bearer mgo_nope"}),
    "basic auth": lambda g: (g.id, {"Authorization": "Basic eDp5"}),
    "empty bearer": lambda g: (g.id, {"Authorization": "Bearer "}),
    "no such match": lambda g: ("NoSuchMatch1", g.auth("white")),
    "not a match id": lambda g: ("x" * 80, g.auth("white")),
}


async def _ask_legal(api: Api, match_id: str, headers: dict[str, str], query: str,
                     method: str = "GET") -> tuple[int, Any, dict[str, str]]:
    r = await api.client.request(method, f"{api.base}/{match_id}/legal{query}", headers=headers)
    kept = {k: v for k, v in r.headers.items() if k in ("content-type", "content-length", "www-authenticate",
                                                           "retry-after")}
    return r.status_code, r.json() if r.content else None, kept


@pytest.mark.parametrize("case", list(LEGAL_CASES))
async def test_the_fast_legal_answers_as_the_route_does(api: Api, case: str) -> None:
    game = await api.start(seed="c0ffee")
    match_id, headers = LEGAL_CASES[case](game)
    fast_answer = await _ask_legal(api, match_id, headers, "")
    assert fast_answer == await _ask_legal(api, match_id, headers, "?via=route")
    assert await _ask_legal(api, match_id, headers, "", "HEAD") == \
        (fast_answer[0], None, fast_answer[2])  # a HEAD: the same headers, no body


async def test_the_fast_legal_answers_in_play_and_after_the_end(api: Api) -> None:
    game = await api.start(seed="c0ffee")
    await api.setups(game)
    for colour in ("white", "black"):
        fast_answer = await _ask_legal(api, game.id, game.auth(colour), "")
        assert fast_answer == await _ask_legal(api, game.id, game.auth(colour), "?via=route")
    assert (await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("white"))).status_code == 200
    ended = await _ask_legal(api, game.id, game.auth("black"), "")
    assert ended == await _ask_legal(api, game.id, game.auth("black"), "?via=route")
    assert ended[1]["actions"] == []


async def test_an_ordinary_legal_takes_the_fast_path(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    fast_asks = []
    real = fast.FastPlay._legal

    async def spy(self: Any, match_id: str, *args: Any) -> None:
        fast_asks.append(match_id)
        await real(self, match_id, *args)

    monkeypatch.setattr(fast.FastPlay, "_legal", spy)
    game = await api.start()
    assert (await api.legal(game, "white"))["setup"]
    assert fast_asks == [game.id]
    r = await api.client.get(f"{api.base}/{game.id}/legal?via=route", headers=game.auth("white"))
    assert r.status_code == 200 and r.json()["setup"]
    r = await api.client.get(f"{api.base}/{game.id}/legal", headers={"Authorization": "Bearer mgo_nope"})
    assert r.status_code == 401
    assert fast_asks == [game.id]  # a query, an account's token: the route's


@pytest.mark.parametrize("variant", ["standard", "archmage"])
def test_the_fast_legal_text_is_the_routes_json_of_the_same_answer(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Byte for byte (the route's JSONResponse writes json.dumps with no spaces),
    at every position of a random match, for the seat to move and the other, the
    kept action texts dropped now and then (a small bound) and made again."""
    monkeypatch.setattr(reads, "MOST_ACTION_TEXTS", 40)
    rng = random.Random(f"legal-text-{variant}")
    state = new_match(seed=f"{rng.getrandbits(64):016x}", variant=variant)
    version = 1
    while True:
        for mine in (True, False):
            expected = json.dumps(reads.legal_answer(version, state, mine), ensure_ascii=False,
                                  allow_nan=False, separators=(",", ":")).encode()
            assert reads.legal_answer_text(version, state, mine) == expected
        if state.phase == OVER:
            break
        if state.phase == SETTING_UP:
            action: Any = ("setup", tuple(rng.sample(range(len(TYPES)), len(TYPES))))
        else:
            action = rng.choice(legal_actions(state))
        steps = apply_steps(state, action)
        state, version = steps[-1][2], version + len(steps)
