"""The browser's wing: the home and match pages (templates/), their scripts and
pictures (static/), and the security headers every answer carries; and the
players' account pages (issue 19): signing up, in and out (sign_pages.py),
the account's own page (account_page.py), who a page is for (signed.py).

The pages are clients of the public API like any other: they draw the states the
server sends and offer only what `GET /legal` lists. See docs/web.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from app.accounts import Accounts
from app.accounts.profiles import Profiles
from app.matches import Gateway

from . import account_page, profile_pages, sign_pages
from .compression import Compressed
from .headers import SecurityHeaders
from .pages import ROOT, VARIANT_NAMES, ReadMatch, make_router
from .render import ASSETS
from .static import StaticFiles


def install(app: Any, bot_levels: Callable[[], Iterable[str]], read_match: ReadMatch, accounts: Accounts,
            gateway: Gateway, profiles: Profiles) -> None:
    """Add the pages, /static, gzip for pages and JSON reads (compression.py), and the security headers to `app`.
    `bot_levels` names the computer opponent's levels (asked at each home page);
    `read_match` gives a match's public state, for the match page's first drawing;
    `accounts` signs players up, in and out; `gateway` claims a guest's seats;
    `profiles` the players' profiles and leaderboard (issue 19)."""
    app.include_router(make_router(bot_levels, read_match, accounts))
    app.include_router(sign_pages.make_router(accounts, gateway))
    app.include_router(account_page.make_router(accounts))
    app.include_router(profile_pages.make_router(accounts, profiles, VARIANT_NAMES))
    app.add_exception_handler(account_page.SignInFirst, account_page.to_sign_in)
    app.mount("/static", StaticFiles(ROOT / "static", ASSETS), name="static")
    app.add_middleware(Compressed)
    app.add_middleware(SecurityHeaders)


__all__ = ["install"]
