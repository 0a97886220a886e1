"""The admin dashboard (issue 10): a wing of its own under /admin.

Accounts come from the command line (`python -m app.admin`); people sign in at
/admin/login. The wing reads the history, a match's log and the figures
straight from the database, and changes a match only through the match
service's moderation (app/matches/moderation.py).

`install(app)` adds the routes, the static files under /static/admin and the
redirect to the sign-in page, bound to the parts app/main.py hands in.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from . import api, pages
from .context import Admin, get_admin
from .guard import LoginRequired
from .render import STATIC

__all__ = ["Admin", "install"]


class Bound:
    """`get_admin`, bound to one Admin. A coroutine on purpose: FastAPI runs a
    plain function dependency in its thread pool, a thread hop (and, in a burst
    of sign-ins, a thread started) per request of the wing (issue 17, item 3)."""

    def __init__(self, admin: Admin) -> None:
        self.admin = admin

    async def __call__(self) -> Admin:
        return self.admin


def install(app: FastAPI, admin: Admin) -> None:
    """Add the wing to `app`, bound to the parts in `admin`."""
    app.include_router(pages.router)
    app.include_router(api.router)
    app.mount("/static/admin", StaticFiles(directory=STATIC / "admin"), name="admin-static")
    app.dependency_overrides[get_admin] = Bound(admin)

    @app.exception_handler(LoginRequired)
    async def to_login(_: Request, exc: LoginRequired) -> RedirectResponse:
        return RedirectResponse(exc.location, status_code=303)
