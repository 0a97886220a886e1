"""The one CSRF check of every form and script that signs in or changes
something, the players' pages and the admin dashboard alike.

A signed-in browser's session carries a CSRF token of its own: every form
sends it in a hidden field (`CSRF_FIELD`), every script in the `X-CSRF-Token`
header, and it is compared in constant time. Another site can make the
browser send the cookie, never read the token.

A sign-in (or sign-up) form comes before any session: it is handed a token
of its own, in a short-lived cookie (`FORM_COOKIE`: HttpOnly, SameSite=Strict,
on that form's path only) and in the hidden field, and a post whose two
differ is refused, so no other site can sign a browser in to an account of
its choosing.
"""

from __future__ import annotations

from typing import Protocol

from starlette.requests import Request
from starlette.responses import Response

from .tokens import same

FORM_COOKIE = "magery_form"  # a sign-in or sign-up form's CSRF token, before any session
FORM_SECONDS = 3600
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"


class HasCsrf(Protocol):
    @property
    def csrf_token(self) -> str: ...


def https(request: Request) -> bool:
    return request.url.scheme == "https"


def hand_form_token(response: Response, request: Request, path: str, token: str) -> None:
    """The pre-session form's token, for the post back to `path` only."""
    response.set_cookie(FORM_COOKIE, token, max_age=FORM_SECONDS, path=path, httponly=True,
                        samesite="strict", secure=https(request))


def drop_form_token(response: Response, request: Request) -> None:
    """The form is done with (signed in): its token's cookie goes."""
    response.delete_cookie(FORM_COOKIE, path=request.url.path)


def form_token_matches(request: Request, given: object) -> bool:
    """Is `given` the token the pre-session form was handed?"""
    return isinstance(given, str) and same(given, request.cookies.get(FORM_COOKIE) or "\0")


def csrf_matches(session: HasCsrf, given: object) -> bool:
    """Is `given` the session's own CSRF token?"""
    return isinstance(given, str) and same(given, session.csrf_token)
