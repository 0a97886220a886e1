"""Who a page is for, and the cookies that say so.

A signed-in browser holds the account's session in the `magery_session`
cookie (app.accounts.sessions.COOKIE): HttpOnly, SameSite=Lax, Secure when the
request came over https. Every form of a signed-in page carries the session's
CSRF token in a hidden field, and every page carries it in a meta tag for the
scripts' `X-CSRF-Token` header: another site can make the browser send the
cookie, never read the token.

The sign-in and sign-up forms come before any session: each is handed a token
of its own in a short-lived cookie (SameSite=Strict, on that form's path only)
and in a hidden field, and a post whose two differ is refused, so no other site
can sign a browser in to an account of its choosing. The checks are the one
CSRF of app/auth/csrf.py, the admin dashboard's too.
"""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import Response

from app.accounts import Accounts
from app.accounts.sessions import COOKIE, Session
from app.auth import new_token
from app.auth.csrf import (
    CSRF_FIELD,
    CSRF_HEADER,
    FORM_COOKIE,
    csrf_matches,
    form_token_matches,
    hand_form_token,
    https,
)

# Where signing in never sends a browser back to: the forms themselves.
_NOT_BACK = ("/login", "/signup", "/logout", "/account/claim")


def safe_next(target: str | None) -> str:
    """A path of this site to go back to, never another site's address
    (`//host`, `/\\host`, `https://...`) nor one of the sign-in forms; else "/"."""
    if (not target or not target.startswith("/") or target.startswith("//") or "\\" in target
            or any(ord(c) < 0x20 or ord(c) == 0x7f for c in target) or len(target) > 2000):
        return "/"
    if target.split("?", 1)[0].rstrip("/") in _NOT_BACK:
        return "/"
    return target


def here(request: Request) -> str:
    """This page's path and query: where "Sign in" brings the player back to."""
    return request.url.path + (f"?{request.url.query}" if request.url.query else "")


def login_location(request: Request) -> str:
    return "/login?" + urlencode({"next": here(request)})


async def viewer(accounts: Accounts, request: Request) -> Session | None:
    """The live session the request's cookie holds; None for a guest."""
    return await accounts.session(request.cookies.get(COOKIE))


def keep_session(response: Response, request: Request, token: str, days: float) -> None:
    response.set_cookie(COOKIE, token, max_age=round(days * 86400), path="/", httponly=True,
                        samesite="lax", secure=https(request))


def drop_session(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=https(request))


__all__ = ["COOKIE", "CSRF_FIELD", "CSRF_HEADER", "FORM_COOKIE", "Session", "csrf_matches", "drop_session",
           "form_token_matches", "hand_form_token", "here", "https", "keep_session", "login_location", "new_token",
           "safe_next", "viewer"]
