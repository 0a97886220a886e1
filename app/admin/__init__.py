"""The admin dashboard (issue 10): a wing of its own under /admin.

Accounts come from the command line (`python -m app.admin`); people sign in at
/admin/login. The wing reads the history, a match's log and the figures
straight from the database, and changes a match only through the match
service's moderation (app/matches/moderation.py).

`install(app)` adds the routes, the static files under /static/admin and the
redirect to the sign-in page; the wing's context is made once the app's
lifespan has opened the database and the match service.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from . import api, pages
from .context import Admin
from .guard import LoginRequired
from .render import STATIC

__all__ = ["Admin", "install"]


def install(app: FastAPI) -> None:
    app.include_router(pages.router)
    app.include_router(api.router)
    app.mount("/static/admin", StaticFiles(directory=STATIC / "admin"), name="admin-static")

    @app.exception_handler(LoginRequired)
    async def to_login(_: Request, exc: LoginRequired) -> RedirectResponse:
        return RedirectResponse(exc.location, status_code=303)

    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        async with inner(app) as state:
            app.state.admin = Admin(app.state.engine, app.state.matches, app.state.settings)
            yield state

    app.router.lifespan_context = lifespan
