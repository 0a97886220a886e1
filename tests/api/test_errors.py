"""Every error of the contract, as JSON {"error", "detail"} with its status, and
no error ever changes a match; bad input never gets a 500."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ..conftest import ROW, Api, Game

SETUP = {"type": "setup", "backrow": ROW}
BASE = "/api/v1/matches"


def _err(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    assert r.headers["content-type"].startswith("application/json")
    return body


def _posts(game: Game) -> list[tuple[str, dict[str, str]]]:
    auth = game.auth("white")
    return [
        (BASE, {}),
        (f"{BASE}/{game.id}/join", {}),
        (f"{BASE}/{game.id}/actions", auth),
        (f"{BASE}/{game.id}/draw", auth),
        (f"{BASE}/{game.id}/claim", auth),
    ]


NO_BODY = (b"", b"null")  # create and join have defaults for every field: no body is a body


@pytest.mark.parametrize("raw", [b"{not json", b"", b"[1, 2", b"\xff\xfe", b"null", b"[]", b'"text"', b"42"])
async def test_malformed_json_is_400_on_every_post(api: Api, raw: bytes) -> None:
    game = await api.start()
    for url, headers in _posts(game)[0 if raw not in NO_BODY else 2:]:
        r = await api.client.post(url, content=raw, headers={**headers, "Content-Type": "application/json"})
        _err(r, 400, "bad_request")
    assert (await api.state(game))["version"] == game.version


@pytest.mark.parametrize("raw", NO_BODY)
async def test_create_and_join_need_no_body(api: Api, raw: bytes) -> None:
    made = await api.client.post(BASE, content=raw, headers={"Content-Type": "application/json"})
    assert made.status_code == 201, made.text
    match = made.json()["match"]
    assert match["options"]["variant"] == "standard" and made.json()["seat"] in ("white", "black")
    joined = await api.client.post(f"{BASE}/{match['id']}/join")  # no body, no content type
    assert joined.status_code == 200, joined.text
    assert joined.json()["match"]["status"] == "active"
    assert joined.json()["match"]["players"][joined.json()["seat"]]["name"] == "anonymous"


UNKNOWN_FIELDS: list[tuple[str, dict[str, Any]]] = [
    ("create", {"options": {}, "seat": "white", "colour": "white"}),
    ("create", {"options": {"varient": "standard"}}),
    ("create", {"options": {"time_control": {"type": "realtime", "minutes": 5, "increment": 1, "delay": 2}}}),
    ("create", {"options": {"time_control": {"type": "correspondence", "days": 1, "minutes": 1}}}),
    ("join", {"name": "Bo", "seat": "white"}),
    ("actions", {"action": SETUP, "version": 1, "player": "white"}),
    ("draw", {"offer": True, "accept": True}),
    ("claim", {"result": "win", "why": "gone"}),
]


@pytest.mark.parametrize(("where", "body"), UNKNOWN_FIELDS)
async def test_unknown_fields_are_refused(api: Api, where: str, body: dict[str, Any]) -> None:
    game = await api.start()
    await api.setups(game)
    url = {"create": BASE, "join": f"{BASE}/{game.id}/join", "actions": f"{BASE}/{game.id}/actions",
           "draw": f"{BASE}/{game.id}/draw", "claim": f"{BASE}/{game.id}/claim"}[where]
    if where == "actions":
        body = {**body, "version": game.version}
    r = await api.client.post(url, json=body, headers=game.auth("white"))
    detail = _err(r, 400, "bad_request")["detail"]
    assert "unknown" in detail or "extra" in detail.lower(), detail
    after = await api.state(game)
    assert after["version"] == game.version and after["draw_offer"] is None


@pytest.mark.parametrize("action", [
    {"type": "setup", "backrow": ROW, "extra": 1},
    {"type": "place", "mage": "animist", "minion": "beast", "floor": 9},
    {"type": "pass", "now": True},
    {"type": "remove", "mage": "animist", "power": {"move": ["b1", "c3"], "capture": True}},
])
async def test_unknown_fields_inside_an_action_are_refused(api: Api, action: dict[str, Any]) -> None:
    game = await api.start()
    _err(await api.post(game, "white", action), 400, "bad_request")
    assert (await api.state(game))["version"] == game.version


BAD_CREATES = [
    {"options": {"variant": "chess"}},
    {"options": {"no_progress_rounds": -1}},
    {"options": {"no_progress_rounds": "ten"}},
    {"options": {"no_progress_rounds": 1.5}},
    {"options": {"time_control": {"type": "blitz"}}},
    {"options": {"time_control": {"type": "realtime", "minutes": 0}}},
    {"options": {"time_control": {"type": "realtime", "minutes": -5}}},
    {"options": {"time_control": {"type": "correspondence", "days": 0}}},
    {"options": {"time_control": "5+3"}},
    {"options": {"chaos": ["necromancer"]}},
    {"options": {"chaos": ["seer", "seer"]}},
    {"options": {"chaos": ["nobody"]}},
    {"options": {"chaos": "seer"}},
    {"options": {"seed": ""}},
    {"options": {"seed": 12345}},
    {"options": {"abandon_seconds": -1}},
    {"options": {"join_timeout_seconds": 0}},
    {"options": []},
    {"seat": "red"},
    {"seat": None},
    {"opponent": "bot:grandmaster"},
    {"opponent": "alien"},
    {"name": ""},
    {"name": "x" * 500},
    {"name": 7},
]


@pytest.mark.parametrize("body", BAD_CREATES, ids=[str(b)[:60] for b in BAD_CREATES])
async def test_bad_create_bodies_are_400(api: Api, body: dict[str, Any]) -> None:
    _err(await api.client.post(BASE, json=body), 400, "bad_request")
    assert (await api.client.get(BASE)).json()["matches"] == []


BAD_ACTIONS: list[Any] = [
    {"type": "fly"},
    {"type": "setup", "backrow": ROW[:7]},
    {"type": "setup", "backrow": ["dragon"] * 8 + ["x"]},
    {"type": "setup", "backrow": "construct"},
    {"type": "place", "mage": "gandalf", "minion": "beast"},
    {"type": "place", "mage": "animist", "minion": "orc"},
    {"type": "remove", "mage": "animist"},
    {"type": "remove", "mage": "animist", "power": {"move": ["z9", "c3"]}},
    {"type": "remove", "mage": "animist", "power": {"move": "b1c3"}},
    {"type": "remove", "mage": "animist", "power": {"teleport": "c3"}},
    {"type": "remove", "mage": "dream_lord", "power": {"mage": "seer", "power": None}},
    {"type": "remove", "mage": "animist", "power": []},
    {"type": "pass", "type2": "pass"},
    {},
    [],
    "pass",
    None,
    17,
]


@pytest.mark.parametrize("action", BAD_ACTIONS, ids=[repr(a)[:50] for a in BAD_ACTIONS])
async def test_malformed_actions_are_400(api: Api, action: Any) -> None:
    game = await api.start()
    r = await api.post(game, "white", action)
    _err(r, 400, "bad_request")
    assert (await api.state(game))["version"] == game.version


@pytest.mark.parametrize("body", [
    {"action": SETUP},
    {"version": 1},
    {"action": SETUP, "version": -1},
    {"action": SETUP, "version": 1.5},
    {"action": SETUP, "version": 1, "id": ""},
    {"action": SETUP, "version": 1, "id": "x" * 1000},
    {"action": SETUP, "version": 1, "id": 5},
])
async def test_bad_submission_envelopes_are_400(api: Api, body: dict[str, Any]) -> None:
    game = await api.start()
    r = await api.client.post(f"{BASE}/{game.id}/actions", json=body, headers=game.auth("white"))
    _err(r, 400, "bad_request")
    assert (await api.state(game))["version"] == game.version


async def test_illegal_actions_are_422_naming_the_rule(api: Api) -> None:
    game = await api.start()
    body = _err(await api.post(game, "white", {"type": "pass"}), 422, "illegal_action")
    assert body["detail"].startswith("R9")
    body = _err(await api.post(game, "white", {"type": "setup", "backrow": ["dragon"] * 8}), 422, "illegal_action")
    assert body["detail"].startswith("R7")
    await api.setups(game)
    body = _err(await api.post(game, "white", {"type": "remove", "mage": "animist", "power": None}),
                422, "illegal_action")
    assert body["detail"].startswith("R10")
    await api.act(game, "white", {"type": "place", "mage": "artificer", "minion": "construct"})
    body = _err(await api.post(game, "black", {"type": "place", "mage": "artificer", "minion": "fey"}),
                422, "illegal_action")
    assert body["detail"].startswith("R9") and "occupied" in body["detail"]
    assert (await api.state(game))["version"] == game.version


async def test_r4_refusal_over_the_api(api: Api) -> None:
    """The Mystic may not jump a greater minion from its own backrow to the far one."""
    game = await api.start(seed="r4")
    await api.setups(game)
    await api.act(game, "white", {"type": "pass"})
    await api.act(game, "black", {"type": "place", "mage": "druid", "minion": "fey"})
    await api.act(game, "black", {"type": "pass"})
    # White has nothing in the tower: skipped (R10); Black's fey leaves b8.
    await api.act(game, "black", {"type": "remove", "mage": "druid", "power": {"move": ["b8", "c6"]}})
    assert game.match["round"] == 2 and "b8" not in game.match["arena"]
    await api.act(game, "white", {"type": "place", "mage": "mystic", "minion": "beast"})
    await api.act(game, "black", {"type": "pass"})
    await api.act(game, "white", {"type": "pass"})
    r = await api.post(game, "white", {"type": "remove", "mage": "mystic", "power": {"move": ["c1", "b8"]}})
    assert _err(r, 422, "illegal_action")["detail"].startswith("R4:")
    assert (await api.state(game))["version"] == game.version
    ok = await api.post(game, "white", {"type": "remove", "mage": "mystic", "power": {"move": ["e1", "b8"]}})
    assert ok.status_code == 200, ok.text


async def test_not_found_and_unknown_paths(api: Api) -> None:
    game = await api.start()
    _err(await api.client.get(f"{BASE}/nope"), 404, "not_found")
    _err(await api.client.get(f"{BASE}/nope/actions"), 404, "not_found")
    _err(await api.client.post(f"{BASE}/nope/join", json={"name": "x"}), 404, "not_found")
    _err(await api.client.get("/api/v1/nothing-here"), 404, "not_found")
    _err(await api.client.get(f"{BASE}/{game.id}/elsewhere"), 404, "not_found")
    r = await api.client.get("/api/v2/matches")
    assert r.status_code == 404


async def test_wrong_method_is_json(api: Api) -> None:
    game = await api.start()
    r = await api.client.delete(f"{BASE}/{game.id}")
    assert r.status_code == 405 and r.json()["error"] and r.json()["detail"]


async def test_stale_version_names_the_current_one(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    for version in (0, 1, game.version + 1, game.version + 100):
        r = await api.post(game, "white", {"type": "pass"}, version=version)
        body = _err(r, 409, "stale_version")
        assert body["version"] == game.version
    assert (await api.state(game))["version"] == game.version


async def test_waiting_match_refuses_actions(api: Api) -> None:
    game = await api.create()
    r = await api.post(game, "white", SETUP)
    _err(r, 403, "forbidden")
    for path, body in (("/resign", None), ("/draw", {"offer": True}), ("/claim", {"result": "win"})):
        r = await api.client.post(f"{BASE}/{game.id}{path}", json=body, headers=game.auth("white"))
        _err(r, 403, "forbidden")
    assert (await api.state(game))["version"] == 0


async def test_seat_taken_and_join_after_the_end(api: Api) -> None:
    game = await api.start()
    _err(await api.client.post(f"{BASE}/{game.id}/join", json={"name": "C"}), 409, "seat_taken")
    await api.client.post(f"{BASE}/{game.id}/resign", headers=game.auth("white"))
    r = await api.client.post(f"{BASE}/{game.id}/join", json={"name": "C"})
    assert r.status_code == 409 and r.json()["error"] in ("seat_taken", "match_over")


@pytest.mark.parametrize("query", [
    {"status": "playing"}, {"limit": 0}, {"limit": 101}, {"limit": "many"}, {"variant": "chess"},
    {"cursor": "!!"}, {"cursor": "eyJub3QiOiAiYSBsaXN0In0"},
])
async def test_bad_list_queries_are_400(api: Api, query: dict[str, Any]) -> None:
    _err(await api.client.get(BASE, params=query), 400, "bad_request")


async def test_huge_or_deep_bodies_never_500(api: Api) -> None:
    game = await api.start()
    deep: Any = {"type": "pass"}
    for _ in range(200):
        deep = {"type": "remove", "mage": "dream_lord", "power": {"mage": "seer", "power": deep}}
    r = await api.post(game, "white", deep)
    assert r.status_code in (400, 422), r.text
    big = {"action": {"type": "setup", "backrow": ROW * 10000}, "version": game.version}
    r = await api.client.post(f"{BASE}/{game.id}/actions", json=big, headers=game.auth("white"))
    assert r.status_code in (400, 413, 422), r.text[:200]
    assert (await api.state(game))["version"] == game.version
