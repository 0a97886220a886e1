"""The signed-in player's own page, `/account`: changing the password (the
old one asked again; every other browser signed in to the account is signed
out), API tokens for third-party clients (made with a name and scopes, shown
once in a read-only field, listed with their last use, revoked one by one)
and closing the account, after a page that asks to confirm it.

Every form carries the session's CSRF token; a post without the right one
changes nothing. No `from __future__ import annotations`: FastAPI reads the
routes' annotations.
"""

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.accounts import Account, AccountError, Accounts
from app.accounts.passwords import MIN_PASSWORD
from app.accounts.sessions import Session
from app.accounts.tokens import MAX_LIVE, SCOPES
from app.auth import Busy

from . import signed
from .deps import AccountsDep
from .notify_grid import grid
from .render import page

EXPIRED = "This form had expired: reload the page and try again."
EMAIL_NOTICES = {"sent": "A link is mailed to your address: follow it to confirm the address.",
                 "saved": "Your digest choice is saved.", "removed": "Your email address is removed."}
NOTIFY_SAVED = "Your notification choices are saved."


class SignInFirst(Exception):
    """An account page asked for by nobody signed in: answered by a redirect to
    the sign-in page (web.install adds the handler)."""

    def __init__(self, location: str) -> None:
        self.location = location


async def to_sign_in(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, SignInFirst)
    return RedirectResponse(exc.location, status_code=303)


@dataclass(frozen=True, slots=True)
class Member:
    session: Session
    account: Account


router = APIRouter(include_in_schema=False)


async def _account_page(request: Request, accounts: Accounts, session: Session, account: Account,
                        status: int = 200, **shown: Any) -> HTMLResponse:
    live = [t for t in await accounts.tokens(account) if t.revoked_at is None]
    parts = request.app.state.parts
    email = await parts.mail.view(account.id)  # app/web/mail_pages.py's section
    notify = await grid(parts.engine, account.id, email)  # notify_pages.py's section
    return page("account.html", status=status, session=session, back=signed.here(request), account=account,
                tokens=live, scopes=SCOPES, most=MAX_LIVE, min_password=MIN_PASSWORD, title="Your account",
                email=email, notify=notify, **shown)


account_view = _account_page  # the email and notification forms (mail_pages.py, notify_pages.py) answer with it too


async def member(request: Request, accounts: AccountsDep) -> Member:
    """The session and its open account; SignInFirst for anyone else."""
    session = await signed.viewer(accounts, request)
    account = None if session is None else await accounts.by_id(session.account_id)
    if session is None or account is None or account.closed:
        raise SignInFirst(signed.login_location(request) if request.method == "GET" else "/login?next=%2Faccount")
    return Member(session, account)

Signed = Annotated[Member, Depends(member)]


async def _form(request: Request, session: Session) -> dict[str, Any] | None:
    """The posted form, or None when its CSRF token is not the session's."""
    form = await request.form()
    if not signed.csrf_matches(session, form.get(signed.CSRF_FIELD)):
        return None
    return {"name": form.get("name"), "scopes": form.getlist("scopes"), "old_password": form.get("old_password"),
            "new_password": form.get("new_password"), "new_password_again": form.get("new_password_again")}


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    notice = ("The token is revoked." if request.query_params.get("revoked") else
              "Your password is changed. Every other browser signed in to your account is signed out."
              if request.query_params.get("password") else
              NOTIFY_SAVED if request.query_params.get("notifications") == "saved" else
              EMAIL_NOTICES.get(request.query_params.get("email", "")))
    return await _account_page(request, accounts, me.session, me.account, notice=notice)


@router.post("/account/tokens", response_class=HTMLResponse)
async def create_token(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    session, account = me.session, me.account
    form = await _form(request, session)
    if form is None:
        return await _account_page(request, accounts, session, account, 403, error=EXPIRED)
    name = form["name"].strip() if isinstance(form["name"], str) else form["name"]
    try:
        plain, token = await accounts.create_token(account, name, form["scopes"])
    except AccountError as error:
        detail = error.detail[:1].upper() + error.detail[1:]
        return await _account_page(request, accounts, session, account, error.status, error=f"No token made: {detail}.",
                                   token_name=name if isinstance(name, str) else "")
    # Shown this once: the answer is not a redirect, and the page is not cached (no-store).
    return await _account_page(request, accounts, session, account, new_token=plain, new_token_name=token.name)


@router.post("/account/tokens/{token_id}/revoke")
async def revoke_token(request: Request, token_id: int, me: Signed, accounts: AccountsDep) -> Response:
    session, account = me.session, me.account
    if await _form(request, session) is None:
        return await _account_page(request, accounts, session, account, 403, error=EXPIRED)
    if not await accounts.revoke_token(account, token_id):
        return await _account_page(request, accounts, session, account, 404,
                                   error="No such token of yours: it may be revoked already.")
    return RedirectResponse("/account?revoked=1", status_code=303)


@router.post("/account/password", response_class=HTMLResponse)
async def change_password(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    session, account = me.session, me.account

    async def refused(status: int, words: str, field: str) -> HTMLResponse:
        return await _account_page(request, accounts, session, account, status, password_error=words,
                                   password_field=field)

    form = await _form(request, session)
    if form is None:
        return await refused(403, EXPIRED, "")
    if form["new_password"] != form["new_password_again"]:
        return await refused(400, "The new password and its repetition differ: type the same one twice.",
                             "new_password_again")
    try:
        await accounts.change_password(account, session.id, form["old_password"], form["new_password"],
                                       request.client.host if request.client else None)
    except Busy:
        return await refused(503, "The server is busy. Try again in a moment.", "")
    except AccountError as error:
        detail = error.detail[:1].upper() + error.detail[1:]
        field = "old_password" if error.field == "old_password" else "new_password"
        return await refused(error.status, f"Password not changed: {detail}.", field)
    return RedirectResponse("/account?password=1", status_code=303)


@router.get("/account/close", response_class=HTMLResponse)
async def close_page(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    session, account = me.session, me.account
    return page("close.html", session=session, back=signed.here(request), account=account,
                title="Close your account")


@router.post("/account/close", response_class=HTMLResponse)
async def close(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    session, account = me.session, me.account
    if await _form(request, session) is None:
        return page("close.html", status=403, session=session, back="/account/close", account=account,
                    title="Close your account", error=EXPIRED)
    # Its sessions (this one too) end and its tokens are revoked in the closing transaction.
    await accounts.close(account.name)
    response = page("notice.html", session=None, back="/", title="Account closed",
                    message=f"The account {account.name} is closed, and every browser signed in to it "
                            "is signed out. Its matches stay, under its name; those it was playing have ended.")
    signed.drop_session(response, request)
    response.headers["Cache-Control"] = "no-store"
    return response
