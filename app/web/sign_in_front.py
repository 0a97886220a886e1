"""The players' sign-in tries of a locked address refused in front of the
whole stack: the players' form's part of app/auth/tries_in_front.py.

A burst of sign-ins from one address was as many concurrent transactions on
the same lock rows through the whole stack (app/accounts/limits.py counts each
try before its password is checked). Here a process lets one try per address
at a time in to `POST /login`; the address's lock, as the database reported
it to this process's account service (`Accounts.sign_ins`), answers the tries
behind it with the handler's own 429 page, before any middleware, routing or
form parsing, for at most `TRUST_SECONDS`. Only the address's own lock is
learnt: a name locked from many addresses is refused by the handler, for that
name alone, as before. A form whose token is not the one handed out with it
goes in to the handler (its 403, as always).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from app.accounts import Accounts
from app.accounts.limits import address_key
from app.auth.tries_in_front import TriesInFront
from app.security import security_headers

from . import signed
from .sign_pages import busy_form, locked_form

PATH = "/login"


class PlayersSignInsInFront(TriesInFront):
    """`POST /login` passes through the address's line; every other request goes straight on."""

    path = PATH
    headers = security_headers()

    def __init__(self, app: Any, accounts: Accounts, body_timeout: float) -> None:
        super().__init__(app, accounts.sign_ins, address_key, accounts.now, body_timeout)

    async def answer(self, request: Request, form: dict[str, str], locked: int) -> Response | None:
        if not signed.form_token_matches(request, form.get(signed.CSRF_FIELD)):
            return None
        name, target = form.get("username", "").strip(), signed.safe_next(form.get("next", ""))
        return locked_form(request, locked, target, name) if locked else busy_form(request, target, name)


__all__ = ["PATH", "PlayersSignInsInFront"]
