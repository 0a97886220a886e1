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
    deep = "[" * 20_000 + "]" * 20_000  # 40 kB: under the body limit, far over the parser's stack
    body = '{"action": {"type": "setup", "backrow": ' + deep + '}, "version": 1}'
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=body,
                              headers={**game.auth("white"), "content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    assert (await api.state(game))["version"] == game.version


async def test_nul_and_control_characters_never_reach_the_database(api: Api) -> None:
    """PostgreSQL refuses NUL: such input is a 400 or a 404 at the gateway, never a 500."""
    base = api.base
    for body in ({"name": "a\u0000b"}, {"options": {"seed": "s\u0000"}}, {"name": "tab\there"}):
        r = await api.client.post(base, json=body)
        assert r.status_code == 400 and r.json()["error"] == "bad_request", (body, r.text)
    for path in (f"{base}/a%00b", f"{base}/a%00b/actions", f"{base}/a%00b/legal"):
        r = await api.client.get(path)
        assert r.status_code in (401, 404), (path, r.text)
    r = await api.client.post(f"{base}/a%00b/join", json={"name": "Bo"})
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    r = await api.client.get(base, params={"player": "a\u0000b"})
    assert r.status_code == 400


async def test_crafted_cursors_are_a_bad_request(api: Api) -> None:
    import base64
    import json

    for raw in (["0001-01-01T00:00:00+05:00", "x"], ["2020-01-01T00:00:00", "a\u0000"], ["late", "x"], [1]):
        cursor = base64.urlsafe_b64encode(json.dumps(raw).encode()).decode().rstrip("=")
        r = await api.client.get(api.base, params={"cursor": cursor})
        assert r.status_code == 400 and r.json()["error"] == "bad_request", (raw, r.text)


async def test_action_ids_are_printable_and_short(api: Api) -> None:
    game = await api.start()
    for bad in ("a\u0000", "x" * 65, "with space", ""):
        r = await api.post(game, "white", {"type": "setup", "backrow": ROW}, id=bad)
        assert r.status_code == 400 and r.json()["error"] == "bad_request", (bad, r.text)
    assert (await api.state(game))["version"] == game.version
    r = await api.post(game, "white", {"type": "setup", "backrow": ROW}, id="0b3e6a52-8d1c-4f7e-9a55-1c2d3e4f5a6b")
    assert r.status_code == 200
