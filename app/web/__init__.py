"""The browser's wing: the home and match pages (templates/), their scripts and
pictures (static/), and the security headers every answer carries; and the
players' account pages: signing up, in and out (sign_pages.py),
the account's own page (account_page.py), who a page is for (signed.py).

The pages are clients of the public API like any other: they draw the states the
server sends and offer only what `GET /legal` lists. See docs/web.md.
"""

from __future__ import annotations

from typing import Any

from starlette.middleware.gzip import GZipMiddleware

from . import account_page, pages, profile_pages, sign_pages
from .headers import SecurityHeaders
from .pages import ROOT
from .static import StaticFiles


class _PagesCompressed:
    """gzip for the wing's pages, which are text sent once per visit (static files
    come compressed already; the API's JSON keeps its own way)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1024, compresslevel=6)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and (path == "/" or path.startswith("/matches/")):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def install(app: Any) -> None:
    """Add the pages, /static, gzip for them, and the security headers to `app`.
    The pages read the parts the app was built with (deps.py): the accounts
    (who is signed in; signing up, in and out), the gateway (claiming a guest's
    seats), the match reads and the players' profiles."""
    for module in (pages, sign_pages, account_page, profile_pages):
        app.include_router(module.router)
    app.add_exception_handler(account_page.SignInFirst, account_page.to_sign_in)
    app.mount("/static", StaticFiles(ROOT / "static"), name="static")
    app.add_middleware(_PagesCompressed)
    app.add_middleware(SecurityHeaders)


__all__ = ["install"]
