"""The wing's routes are module-level routers whose parts come through
app/admin/deps.py from the app they answer for (`app.state.parts.admin`): each
app's routes check sessions against its own Admin, never another app's. Every
route but the sign-in form and its answer asks for a session. And every
dependency they have is a coroutine, which FastAPI awaits on the loop: a plain
function it would run in its thread pool, a thread hop per request."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.requests import Request

from app.admin import guard
from app.admin.deps import get_admin
from app.main import create_app

from ..conftest import make_settings


def _calls(dependant: Dependant) -> Iterator[Any]:
    for sub in dependant.dependencies:
        yield sub.call
        yield from _calls(sub)


def _api_routes(routes: Any) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        inner = getattr(route, "original_router", None)  # an included router, kept whole
        if inner is not None:
            yield from _api_routes(inner.routes)


def _admin_routes(app: Any) -> list[APIRoute]:
    return [r for r in _api_routes(app.routes) if r.path.startswith("/admin")]


async def test_each_apps_routes_check_against_its_own_admin(tmp_path: Path) -> None:
    apps = [create_app(make_settings(f"sqlite+aiosqlite:///{tmp_path}/{n}.sqlite3")) for n in "ab"]
    for app in apps:
        routes = _admin_routes(app)
        assert len(routes) >= 10, [r.path for r in routes]
        guarded = 0
        for route in routes:
            assert inspect.iscoroutinefunction(route.endpoint), route.path
            calls = list(_calls(route.dependant))
            for call in calls:
                assert inspect.iscoroutinefunction(call), (route.path, call)
            if {guard.api_session, guard.page_session} & set(calls):
                guarded += 1
        assert guarded == len(routes) - 2
        request = Request({"type": "http", "app": app, "headers": []})
        assert await get_admin(request) is app.state.parts.admin
    assert apps[0].state.parts.admin is not apps[1].state.parts.admin


def test_the_forms_refusal_in_front_is_module_level() -> None:
    """The front's answer for /admin/login is one function for every app, which
    reads the wing through deps.py (a factory per app would capture one Admin)."""
    from app.admin import front

    assert inspect.iscoroutinefunction(front.answer)
    assert list(inspect.signature(front.answer).parameters) == ["request", "form", "locked"]
    assert get_admin.__name__ in front.answer.__code__.co_names
