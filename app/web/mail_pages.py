"""Email on the pages: the account page's email forms (address, the daily
digest, removal), and the two links a mail carries, which need no session.

`/mail/verify/{token}` and `/mail/unsubscribe/{token}` answer a GET with a page
and a button, and act only on the POST: mail scanners that open every link
neither verify an address nor unsubscribe anyone. The unsubscribe POST is also
RFC 8058's one-click one: a mail client posts `List-Unsubscribe=One-Click` to
the `List-Unsubscribe` URL, and the signed token alone says which account and
which kind to turn off (no session, no CSRF token: the token is the proof).
No `from __future__ import annotations`: FastAPI reads the routes' annotations.
"""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.mail import Mailer, MailError

from . import signed
from .account_page import EXPIRED, Signed, account_view
from .deps import AccountsDep
from .render import page

router = APIRouter(include_in_schema=False)
KIND_WORDS = {"turn": "“your turn” mails", "challenge": "challenge mails", "digest": "the daily digest"}


def _mail(request: Request) -> Mailer:
    return request.app.state.parts.mail  # type: ignore[no-any-return]


def _link_page(request: Request, status: int = 200, **shown: Any) -> HTMLResponse:
    response = page("mail_link.html", status=status, session=None, back="/", title="Email", **shown)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # the token stays out of any Referer
    return response


@router.get("/mail/verify/{token}", response_class=HTMLResponse)
async def verify_page(request: Request, token: str) -> Response:
    return _link_page(request, action=f"/mail/verify/{token}", heading="Confirm your email address",
                      words="Press the button to confirm that this address is yours.", button="Confirm")


@router.post("/mail/verify/{token}", response_class=HTMLResponse)
async def verify(request: Request, token: str) -> Response:
    if not await _mail(request).verify(token):
        return _link_page(request, 400, heading="This link does not work",
                          words="It has expired, or the account has another address now. "
                                "Give the address again on your account page for a new link.")
    return _link_page(request, heading="Address confirmed",
                      words="Your email address is confirmed. Choose what you are mailed on your account page.")


@router.get("/mail/unsubscribe/{token}", response_class=HTMLResponse)
async def unsubscribe_page(request: Request, token: str) -> Response:
    return _link_page(request, action=f"/mail/unsubscribe/{token}", heading="Stop these mails?",
                      words="Press the button and no more mails of this kind are sent.", button="Stop them",
                      one_click=True)


@router.post("/mail/unsubscribe/{token}", response_class=HTMLResponse)
async def unsubscribe(request: Request, token: str) -> Response:
    kind = await _mail(request).unsubscribe(token)
    if kind is None:
        return _link_page(request, 400, heading="This link does not work",
                          words="Change what you are mailed on your account page.")
    return _link_page(request, heading="Unsubscribed",
                      words=f"You are sent no more of {KIND_WORDS[kind]}. Your account page turns them on again.")


async def _posted(request: Request, me: Signed) -> Any:
    form = await request.form()
    return form if signed.csrf_matches(me.session, form.get(signed.CSRF_FIELD)) else None


async def _refused(request: Request, me: Signed, accounts: AccountsDep, status: int, words: str,
                   address: str = "") -> Response:
    return await account_view(request, accounts, me.session, me.account, status, email_error=words,
                              email_typed=address)


@router.post("/account/email", response_class=HTMLResponse)
async def give_address(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    form = await _posted(request, me)
    if form is None:
        return await _refused(request, me, accounts, 403, EXPIRED)
    address = form.get("address")
    try:
        await _mail(request).set_address(me.account.id, me.account.name, address)
    except MailError as error:
        detail = error.detail[:1].upper() + error.detail[1:]
        return await _refused(request, me, accounts, error.status, f"Address not saved: {detail}.",
                              address if isinstance(address, str) else "")
    return RedirectResponse("/account?email=sent#email-title", status_code=303)


@router.post("/account/email/preferences", response_class=HTMLResponse)
async def choose(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    form = await _posted(request, me)
    if form is None:
        return await _refused(request, me, accounts, 403, EXPIRED)
    hour = form.get("digest_hour")
    # The digest only: whether a kind is mailed is the notifications grid's to say
    # (notify_pages.py), so this form and that one never disagree.
    changes: dict[str, Any] = {"digest": form.get("digest") == "on"}
    changes["digest_hour"] = int(hour) if isinstance(hour, str) and hour.isdigit() else hour
    try:
        await _mail(request).set_preferences(me.account.id, changes)
    except MailError as error:
        return await _refused(request, me, accounts, error.status, f"Not saved: {error.detail}.")
    return RedirectResponse("/account?email=saved#email-title", status_code=303)


@router.post("/account/email/remove", response_class=HTMLResponse)
async def remove(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    if await _posted(request, me) is None:
        return await _refused(request, me, accounts, 403, EXPIRED)
    await _mail(request).remove(me.account.id)
    return RedirectResponse("/account?email=removed#email-title", status_code=303)
