"""The admin dashboard: a wing of its own under /admin.

Admins are accounts with the admin role, made on the command line
(`python -m app.accounts add-admin`); they sign in at /admin/login, through the
account service's sign-in (one lock-out, password pool, session store and
CSRF check for every account), and the dashboard checks the role. The wing reads the history, a match's log and the figures
straight from the database, and changes a match only through the gateway's
`moderate` (app/matches/gateway.py), which the match service's finisher carries
out (app/matches/finisher.py) like any other ending.

`install(app)` adds the routes (the module-level routers of pages.py, api.py,
player_pages.py, player_api.py, chat_pages.py, fairplay_pages.py, tournament_api.py and
tournament_pages.py, which read the wing's parts,
`app.state.parts.admin`, through deps.py), the static files under /static/admin
and the redirect to the sign-in page.
app/main.py puts the one sign-in front ahead of the whole stack, with this
form's refusal (`front.answer`): a locked address's tries are refused there.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from . import (
    api,
    chat_pages,
    fairplay_pages,
    front,
    pages,
    player_api,
    player_pages,
    tournament_api,
    tournament_pages,
)
from .context import Admin
from .guard import LoginRequired
from .render import STATIC

__all__ = ["Admin", "front", "install"]


def install(app: FastAPI) -> None:
    """Add the wing to `app`; its routes read the parts `app.state.parts.admin`."""
    for module in (pages, api, player_pages, player_api, chat_pages, fairplay_pages, tournament_api,
                   tournament_pages):
        app.include_router(module.router)
    app.mount("/static/admin", StaticFiles(directory=STATIC / "admin"), name="admin-static")

    @app.exception_handler(LoginRequired)
    async def to_login(_: Request, exc: LoginRequired) -> RedirectResponse:
        return RedirectResponse(exc.location, status_code=303)
