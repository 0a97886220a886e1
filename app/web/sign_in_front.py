"""The players' form's part of the one sign-in front (app/auth/tries_in_front.py):
how a try of a locked address at `POST /login`, refused ahead of the whole
stack, reads: the handler's own 429 page (its 503 page when the line is full).

Only the address's own lock is learnt (by the account service's sign-in): a
name locked from many addresses is refused by the handler, for that name
alone. A form whose token is not the one handed out with it goes in to the
handler (its 403, as always).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import signed
from .sign_pages import busy_form, locked_form

PATH = "/login"


async def answer(request: Request, form: dict[str, str], locked: int) -> Response | None:
    """The refusal of a try at the players' sign-in (None: the handler answers it)."""
    if not signed.form_token_matches(request, form.get(signed.CSRF_FIELD)):
        return None
    name, target = form.get("username", "").strip(), signed.safe_next(form.get("next", ""))
    return locked_form(request, locked, target, name) if locked else busy_form(request, target, name)


__all__ = ["PATH", "answer"]
