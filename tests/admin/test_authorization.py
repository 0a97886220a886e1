"""Every route under /admin, found in the app's router (a new one cannot be
forgotten here): anonymous callers and seat tokens get 401/403 on JSON and the
sign-in page for pages; changes need the session's CSRF token."""

from __future__ import annotations

from typing import Any

import httpx
from starlette.routing import Mount, Route

from tests.admin.conftest import AdminClient
from tests.conftest import Api

PUBLIC = {("GET", "/admin/login"), ("POST", "/admin/login")}


def walk(routes: list[Any], prefix: str = "") -> list[tuple[str, set[str]]]:
    """(path, methods) of every HTTP route, included routers opened up: newer
    FastAPI keeps an included router as one entry (`original_router`, with its
    prefix in `include_context`), older versions copy its routes in."""
    found: list[tuple[str, set[str]]] = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            found += walk(inner.routes, prefix + getattr(route.include_context, "prefix", ""))
        elif isinstance(route, Mount):
            found.append((prefix + route.path, {"GET"}))
        elif isinstance(route, Route):
            found.append((prefix + route.path, set(route.methods or ())))
    return found


def admin_routes(app: Any) -> list[tuple[str, str]]:
    found = []
    for path, methods in walk(app.router.routes):
        if path == "/admin" or path.startswith("/admin/"):
            for method in sorted(methods - {"HEAD", "OPTIONS"}):
                found.append((method, path))
    return found


def concrete(path: str, match_id: str) -> str:
    return path.replace("{match_id}", match_id).replace("{version}", "0")


async def call(client: httpx.AsyncClient, method: str, url: str, headers: dict[str, str] | None = None,
               ) -> httpx.Response:
    if method == "POST":
        body = {"verdict": "abort", "reason": "matrix"} if url.startswith("/admin/api/") else None
        if body is not None:
            return await client.post(url, json=body, headers=headers)
        return await client.post(url, data={"verdict": "abort", "reason": "matrix"}, headers=headers)
    return await client.request(method, url, headers=headers)


async def test_the_router_has_the_admin_routes_this_test_expects(app: Any) -> None:
    routes = set(admin_routes(app))
    assert {("GET", "/admin"), ("GET", "/admin/api/matches"), ("GET", "/admin/api/stats"),
            ("POST", "/admin/api/matches/{match_id}/moderate"), ("POST", "/admin/logout"),
            ("GET", "/admin/api/matches/{match_id}/versions/{version}")} <= routes
    assert len(routes - PUBLIC) >= 14


async def test_anonymous_callers_and_seat_tokens_are_kept_out_of_every_route(
    app: Any, client: httpx.AsyncClient, api: Api,
) -> None:
    game = await api.start()
    seat = game.auth("white")
    checked = 0
    for method, path in admin_routes(app):
        if (method, path) in PUBLIC:
            continue
        url = concrete(path, game.id)
        for headers, api_status in ((None, 401), (seat, 403)):
            r = await call(client, method, url, headers)
            if path.startswith("/admin/api/"):
                assert r.status_code == api_status, (method, path, headers, r.status_code, r.text)
                assert r.json()["error"] == ("unauthorized" if api_status == 401 else "forbidden")
            else:
                assert r.status_code == 303, (method, path, headers, r.status_code)
                assert r.headers["location"].startswith("/admin/login"), (method, path)
            checked += 1
    assert checked >= 28
    assert (await api.state(game))["status"] == "active"  # nothing was moderated


async def test_a_signed_in_admin_reaches_every_route(app: Any, admin: AdminClient, api: Api) -> None:
    game = await api.start()
    for method, path in admin_routes(app):
        if (method, path) in PUBLIC or method != "GET":
            continue
        r = await admin.get(concrete(path, game.id))
        assert r.status_code == 200, (path, r.status_code, r.text[:300])


async def test_changes_without_the_csrf_token_are_refused(app: Any, admin: AdminClient, api: Api) -> None:
    game = await api.start()
    posts = [p for m, p in admin_routes(app) if m == "POST" and (m, p) not in PUBLIC]
    assert posts
    for path in posts:
        url = concrete(path, game.id)
        if path.startswith("/admin/api/"):
            for headers in ({}, {"X-CSRF-Token": "forged"}):
                r = await admin.post(url, json={"verdict": "abort", "reason": "x"}, headers=headers)
                assert r.status_code == 403 and "CSRF" in r.json()["detail"], (path, r.text)
        else:
            for data in ({"verdict": "abort", "reason": "x"}, {"verdict": "abort", "reason": "x", "csrf_token": "no"}):
                r = await admin.post(url, data=data)
                assert r.status_code == 403 and "CSRF" in r.text, (path, r.status_code)
    # Still signed in, and the match untouched.
    assert (await admin.get("/admin/api/matches")).status_code == 200
    assert (await api.state(game))["status"] == "active"
    # With the token, the same change lands.
    r = await admin.moderate(game.id, "abort", "csrf test")
    assert r.status_code == 200 and r.json()["match"]["result"]["reason"] == "aborted"
