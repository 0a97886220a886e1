"""The plain form post behind the account page's grid of notifications
(notify_grid.py), for a browser without JavaScript; with it, the page's script
saves each change by `PUT /api/v1/account/notification-preferences` instead.

A form sends only the boxes that are ticked, so it also names the cells it
showed (`cells`): only those change. A cell drawn disabled (email with no
confirmed address), or one the page did not show, keeps what it had, so a page
drawn before the address was confirmed cannot turn its mails off. No `from
__future__ import annotations`: FastAPI reads the routes' annotations.
"""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.notify import preferences

from . import signed
from .account_page import EXPIRED, Signed, account_view
from .deps import AccountsDep
from .notify_grid import editable, email_blocked

router = APIRouter(include_in_schema=False)


@router.post("/account/notifications", response_class=HTMLResponse)
async def save(request: Request, me: Signed, accounts: AccountsDep) -> Response:
    form = await request.form()
    if not signed.csrf_matches(me.session, form.get(signed.CSRF_FIELD)):
        return await account_view(request, accounts, me.session, me.account, 403, notify_error=EXPIRED)
    parts = request.app.state.parts
    email_usable = email_blocked(await parts.mail.view(me.account.id)) is None
    changes: dict[tuple[str, str], bool] = {}
    for shown in form.getlist("cells"):
        kind, _, channel = str(shown).partition(".")
        if editable(kind, channel, email_usable):
            changes[(kind, channel)] = form.get(f"{kind}.{channel}") == "on"
    await preferences.change(parts.engine, me.account.id, changes)
    return RedirectResponse("/account?notifications=saved#notify-title", status_code=303)
