"""Who may call an admin route: a signed-in admin (an account with the admin
role, its dashboard session in the `magery_admin` cookie), and for a change,
one whose request carries the session's CSRF token (app/auth/csrf.py, the one
CSRF check of every wing).

JSON routes answer 401 to a caller with no session and 403 to one that brings
a seat's Bearer token instead (a seat is no admin); pages send both to the
sign-in page. A change (POST) needs the CSRF token in the `X-CSRF-Token` header
or the form's hidden `csrf_token` field, compared in constant time: another
site's page can make the browser send the cookie, not read the token.

Each check is a route's dependency, named through the aliases at the end
(`ApiSession`, `ApiChange`, `PageSession`); the wing's parts come from
deps.py. No `from __future__ import annotations`: FastAPI reads the aliases
as objects.
"""

from typing import Annotated
from urllib.parse import urlencode

from fastapi import Depends, Request

from app.accounts.sessions import Session, find_admin
from app.auth.csrf import CSRF_HEADER, csrf_matches
from app.kernel.errors import Forbidden, Unauthorized

from .context import Admin
from .deps import AdminDep

COOKIE = "magery_admin"  # a dashboard session's token, on /admin only


class LoginRequired(Exception):
    """A page asked for by someone not signed in: answered by a redirect."""

    def __init__(self, location: str) -> None:
        self.location = location


def login_location(request: Request) -> str:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return "/admin/login?" + urlencode({"next": target})


def check_csrf(session: Session, given: str | None) -> None:
    if not csrf_matches(session, given):
        raise Forbidden("the CSRF token is missing or wrong; reload the page and try again")


async def _session(request: Request, admin: Admin) -> Session | None:
    return await find_admin(admin.engine, request.cookies.get(COOKIE), admin.now())


async def api_session(request: Request, admin: AdminDep) -> Session:
    """A signed-in admin calling the JSON API."""
    found = await _session(request, admin)
    if found is None:
        if request.headers.get("authorization", "").lower().startswith("bearer "):
            raise Forbidden("a seat's token gives no admin rights; sign in at /admin/login")
        raise Unauthorized("sign in at /admin/login first")
    return found


ApiSession = Annotated[Session, Depends(api_session)]


async def api_change(request: Request, session: ApiSession) -> Session:
    """A signed-in admin making a change through JSON: the header must carry the token."""
    check_csrf(session, request.headers.get(CSRF_HEADER))
    return session


async def page_session(request: Request, admin: AdminDep) -> Session:
    """A signed-in admin asking for a page (a change's CSRF token is checked
    with its form, which the route reads)."""
    found = await _session(request, admin)
    if found is None:
        raise LoginRequired(login_location(request) if request.method == "GET" else "/admin/login")
    return found


# The aliases a route names as a parameter's type.
ApiChange = Annotated[Session, Depends(api_change)]
PageSession = Annotated[Session, Depends(page_session)]
