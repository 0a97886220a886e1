"""Request bodies are read strictly: wrong JSON types and absurd nesting are a
400 that names the problem, never a coercion and never a 500."""

from __future__ import annotations

from tests.conftest import ROW, Api


async def test_a_version_must_be_a_number_not_a_string(api: Api) -> None:
    game = await api.start()
    body = {"action": {"type": "setup", "backrow": ROW}, "version": str(game.version)}
    r = await api.client.post(f"{api.base}/{game.id}/actions", json=body, headers=game.auth("white"))
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    assert (await api.state(game))["version"] == game.version


async def test_deeply_nested_json_is_a_bad_request(api: Api) -> None:
    game = await api.start()
    deep = "[" * 100_000 + "]" * 100_000
    body = '{"action": {"type": "setup", "backrow": ' + deep + '}, "version": 1}'
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=body,
                              headers={**game.auth("white"), "content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    assert (await api.state(game))["version"] == game.version
