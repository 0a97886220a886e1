"""The dashboard's pages of the players' accounts: the list with its
search, one account, and its "Close account" / "Reopen account" forms, each
with a required reason and the session's CSRF token. A password is reset on
the command line only (`python -m app.accounts reset-password NAME`): the
dashboard never sees or sets one.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies (deps.py, guard.py), which FastAPI must read as objects."""

from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.accounts.sessions import Session
from app.auth.csrf import CSRF_FIELD
from app.kernel import text
from app.kernel.errors import ServiceError

from . import players
from .context import Admin, address
from .deps import AdminDep
from .guard import PageSession, check_csrf
from .render import page
from .routing import AdminRoute

DONE = {"closed": "The account is closed: its sessions and tokens are stopped.",
        "reopened": "The account is open again. Its player signs in anew; its old tokens stay revoked."}


def _error(session: Session, error: ServiceError) -> HTMLResponse:
    return page("error.html", status=error.status, session=session, title="Something is wrong",
                message=error.detail)


router = APIRouter(prefix="/admin/accounts", route_class=AdminRoute, include_in_schema=False)


async def _account_page(admin: Admin, session: Session, name: str, status: int = 200, error: str | None = None,
                        notice: str | None = None, reason: str = "") -> Response:
    try:
        a = await players.account(admin.accounts, admin.engine, name, admin.now())
    except ServiceError as problem:
        return _error(session, problem)
    return page("account.html", status=status, here="accounts", session=session, a=a, error=error,
                notice=notice, reason=reason, history_link="/admin?" + urlencode({"account": a["name"]}))


@router.get("", response_class=HTMLResponse)
async def accounts_page(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        s = players.parse(request.query_params)
        data = await players.listing(admin.engine, s)
    except ServiceError as error:
        return _error(session, error)
    next_link = None
    if data["next_after"]:
        next_link = "/admin/accounts?" + urlencode(s.params(after=data["next_after"]))
    return page("accounts.html", here="accounts", session=session, s=s, accounts=data["accounts"],
                next_link=next_link)


@router.get("/{name}", response_class=HTMLResponse)
async def one_account(admin: AdminDep, name: str, request: Request, session: PageSession) -> Response:
    return await _account_page(admin, session, name, notice=DONE.get(request.query_params.get("done", "")))


async def _change(admin: Admin, request: Request, session: Session, name: str, verb: str) -> Response:
    form = await request.form()
    reason = str(form.get("reason") or "")
    try:
        check_csrf(session, str(form.get(CSRF_FIELD) or ""))
    except ServiceError as error:
        return _error(session, error)
    act = players.close if verb == "close" else players.reopen
    try:
        done_to = await act(admin.accounts, name, reason, session.name, address(request))
    except ServiceError as error:
        if error.status == 404:
            return _error(session, error)
        kept = reason if text.flaw(reason) is None else ""  # never echo what may not be stored
        return await _account_page(admin, session, name, error.status, error.detail, reason=kept)
    done = "closed" if verb == "close" else "reopened"
    return RedirectResponse(f"/admin/accounts/{quote(done_to)}?done={done}", status_code=303)


@router.post("/{name}/close")
async def close_form(admin: AdminDep, name: str, request: Request, session: PageSession) -> Response:
    return await _change(admin, request, session, name, "close")


@router.post("/{name}/reopen")
async def reopen_form(admin: AdminDep, name: str, request: Request, session: PageSession) -> Response:
    return await _change(admin, request, session, name, "reopen")
