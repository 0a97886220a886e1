"""The browser's wing: the home and match pages (templates/), their scripts and
pictures (static/), and the security headers every answer carries; and the
players' account pages: signing up, in and out (sign_pages.py),
the account's own page (account_page.py), who a page is for (signed.py).

The pages are clients of the public API like any other: they draw the states the
server sends and offer only what `GET /legal` lists. See docs/web.md.
"""

from __future__ import annotations

from typing import Any

from . import (
    account_page,
    challenge_pages,
    mail_pages,
    notify_pages,
    oauth_page,
    pages,
    profile_pages,
    puzzle_pages,
    service_worker,
    sign_pages,
    tournament_pages,
)
from .compression import Compressed
from .headers import SecurityHeaders
from .pages import ROOT
from .render import ASSETS
from .static import StaticFiles


def install(app: Any) -> None:
    """Add the pages, /static, gzip for pages and JSON reads (compression.py), and the
    security headers to `app`. The pages read the parts the app was built with
    (deps.py): the accounts (who is signed in; signing up, in and out), the gateway
    (claiming a guest's seats), the match reads and the players' profiles."""
    for module in (pages, sign_pages, account_page, oauth_page, mail_pages, notify_pages, profile_pages, puzzle_pages,
                   tournament_pages, challenge_pages, service_worker):
        app.include_router(module.router)
    app.add_exception_handler(account_page.SignInFirst, account_page.to_sign_in)
    app.mount("/static", StaticFiles(ROOT / "static", ASSETS), name="static")
    app.add_middleware(Compressed)
    app.add_middleware(SecurityHeaders)


__all__ = ["install"]
