"""The wing's routes are built for one Admin (`pages.router(admin)`,
`api.router(admin)`): each app's routes check sessions against its own Admin,
never another app's. And every dependency they have is a coroutine, which
FastAPI awaits on the loop: a plain function it would run in its thread pool,
a thread hop per request."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from app.admin.guard import Guard
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


def test_each_apps_routes_check_against_its_own_admin(tmp_path: Path) -> None:
    apps = [create_app(make_settings(f"sqlite+aiosqlite:///{tmp_path}/{n}.sqlite3")) for n in "ab"]
    for app in apps:
        routes = _admin_routes(app)
        assert len(routes) >= 10, [r.path for r in routes]
        guarded = 0
        for route in routes:
            assert inspect.iscoroutinefunction(route.endpoint), route.path
            for call in _calls(route.dependant):
                assert inspect.iscoroutinefunction(call), (route.path, call)
                if isinstance(getattr(call, "__self__", None), Guard):
                    assert call.__self__.admin is app.state.parts.admin, route.path
                    guarded += 1
        # Every route but the sign-in form and its answer asks for a session.
        assert guarded == len(routes) - 2
