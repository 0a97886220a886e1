"""Every route under /admin, found in the app's router (a new one cannot be
forgotten here): anonymous callers and seat tokens get 401/403 on JSON and the
sign-in page for pages; changes need the session's CSRF token."""

from __future__ import annotations

from typing import Any

import httpx
from starlette.routing import Mount, Route

from app.admin import audit
from tests.admin.conftest import PASSWORD, AdminClient
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


ACCOUNT = "Ada"  # a player's account, made by the tests that need it to exist


def concrete(path: str, match_id: str) -> str:
    return (path.replace("{match_id}", match_id).replace("{version}", "0").replace("{name}", ACCOUNT)
            .replace("{line_id}", "1"))  # a chat line's number: refused before it is looked for


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
            ("GET", "/admin/api/matches/{match_id}/versions/{version}"),
            # the players' accounts (issue 19)
            ("GET", "/admin/accounts"), ("GET", "/admin/accounts/{name}"), ("POST", "/admin/accounts/{name}/close"),
            ("POST", "/admin/accounts/{name}/reopen"), ("GET", "/admin/api/accounts"),
            ("GET", "/admin/api/accounts/{name}"), ("POST", "/admin/api/accounts/{name}/close"),
            ("POST", "/admin/api/accounts/{name}/reopen")} <= routes
    assert len(routes - PUBLIC) >= 22


async def test_anonymous_callers_and_seat_tokens_are_kept_out_of_every_route(
    app: Any, client: httpx.AsyncClient, api: Api,
) -> None:
    game = await api.start()
    account = await app.state.parts.accounts.sign_up(ACCOUNT, PASSWORD, "10.2.0.1")
    player_token, _ = await app.state.parts.accounts.create_token(account, "client", ["play", "read"])
    seat = game.auth("white")
    checked = 0
    for method, path in admin_routes(app):
        if (method, path) in PUBLIC:
            continue
        url = concrete(path, game.id)
        player = {"Authorization": f"Bearer {player_token}"}  # a player's account is no admin either
        for headers, api_status in ((None, 401), (seat, 403), (player, 403)):
            r = await call(client, method, url, headers)
            if path.startswith("/admin/api/"):
                assert r.status_code == api_status, (method, path, headers, r.status_code, r.text)
                assert r.json()["error"] == ("unauthorized" if api_status == 401 else "forbidden")
            else:
                assert r.status_code == 303, (method, path, headers, r.status_code)
                assert r.headers["location"].startswith("/admin/login"), (method, path)
            checked += 1
    assert checked >= 66
    assert (await api.state(game))["status"] == "active"  # nothing was moderated
    assert not (await app.state.parts.accounts.by_name(ACCOUNT)).closed  # nor closed


async def test_a_signed_in_admin_reaches_every_route(app: Any, admin: AdminClient, api: Api) -> None:
    game = await api.start()
    await app.state.parts.accounts.sign_up(ACCOUNT, PASSWORD, "10.2.0.1")
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
    # Still signed in, the match untouched, and no account closed.
    assert (await admin.get("/admin/api/matches")).status_code == 200
    assert (await api.state(game))["status"] == "active"
    assert await audit.page(app.state.parts.engine, "account_closed", None, 10) == []
    # With the token, the same change lands.
    r = await admin.moderate(game.id, "abort", "csrf test")
    assert r.status_code == 200 and r.json()["match"]["result"]["reason"] == "aborted"
