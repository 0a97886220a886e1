"""`GET /matches/{id}/states`: each version's state as the engine made it, in
ranges, with clear refusals, and no secret while the match runs (R20)."""

from __future__ import annotations

import json

import pytest

from ..conftest import Api


async def test_states_are_the_updates_states_in_order(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    await api.act(game, "white", {"type": "place", "mage": "druid", "minion": "fey"})
    r = await api.client.get(f"{api.base}/{game.id}/states")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == game.version == 4
    assert [s["version"] for s in body["states"]] == [1, 2, 3, 4]
    assert [s["action"]["type"] for s in body["states"]] == ["join", "setup", "setup", "place"]
    assert body["states"][-1]["match"]["tower"] == game.match["tower"]
    assert body["states"][1]["match"]["arena"]["d1"] == {"owner": "white", "minion": "dragon"}
    assert "d8" not in body["states"][1]["match"]["arena"]  # Black had not set up yet
    log = (await api.client.get(f"{api.base}/{game.id}/actions")).json()
    for entry, state in zip(log, body["states"], strict=True):
        assert {k: state[k] for k in entry} == entry


async def test_a_range_and_its_limits(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    r = await api.client.get(f"{api.base}/{game.id}/states", params={"from": 2, "to": 2})
    assert [s["version"] for s in r.json()["states"]] == [2]
    r = await api.client.get(f"{api.base}/{game.id}/states", params={"from": 3, "to": 50})
    assert [s["version"] for s in r.json()["states"]] == [3]  # nothing past the current version
    r = await api.client.get(f"{api.base}/{game.id}/states", params={"from": 3, "to": 2})
    assert r.status_code == 200 and r.json()["states"] == []  # the wrong way round: nothing
    r = await api.client.get(f"{api.base}/{game.id}/states", params={"from": 1, "to": 500})
    assert r.status_code == 200 and [s["version"] for s in r.json()["states"]] == [1, 2, 3]
    r = await api.client.get(f"{api.base}/{game.id}/states", params={"from": 0})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = await api.client.get(f"{api.base}/nosuchmatch/states")
    assert r.status_code == 404 and r.json()["error"] == "not_found"


async def test_compressed_when_asked_and_no_seed_while_running(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    r = await api.client.get(f"{api.base}/{game.id}/states", headers={"Accept-Encoding": "gzip"})
    assert r.headers.get("content-encoding") == "gzip"
    states = r.json()["states"]  # httpx undoes the gzip
    assert all(s["match"]["seed"] is None for s in states)
    seed_commitment = states[0]["match"]["seed_commitment"]
    raw = await api.client.get(f"{api.base}/{game.id}/states", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers
    assert json.loads(raw.content)["states"] == states
    await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("black"))
    last = (await api.client.get(f"{api.base}/{game.id}/states", params={"from": 4})).json()["states"][-1]
    assert last["action"]["type"] == "resign" and last["match"]["seed"]
    assert last["match"]["seed_commitment"] == seed_commitment


async def test_a_long_range_is_cut_to_its_first_states(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.matches import history

    monkeypatch.setattr(history, "MAX_STATES", 2)
    game = await api.start()
    await api.setups(game)
    r = await api.client.get(f"{api.base}/{game.id}/states", params={"from": 1, "to": 500})
    assert r.status_code == 200 and [s["version"] for s in r.json()["states"]] == [1, 2]
    r = await api.client.get(f"{api.base}/{game.id}/states", params={"from": 2})
    assert [s["version"] for s in r.json()["states"]] == [2, 3]
