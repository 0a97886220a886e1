"""The admins' form's part of the one sign-in front (app/auth/tries_in_front.py):
how a try of a locked address, refused ahead of the whole stack, reads.

Thirty sign-ins sent at once from one address each went through the error
middleware, the budgets, the body limit, FastAPI's routing and the form's
parsing before the lock refused the 25 past `ACCOUNT_LOCK_AFTER`: measured
with the handler refusing at its first line, that work alone, at one instant,
cost another match's p99 about the 2x the goal allows (docs/reliability.md).
A try refused in front is audited as the handler audits a locked try and
answered the handler's own 429 page (or its 503 page when the line is full:
nothing checked, counted or audited).

A wrong form token or a name no account could have goes in to the handler,
which answers those as it always did (and refuses a locked address itself).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from app.accounts.names import NAME
from app.auth.csrf import CSRF_FIELD, form_token_matches
from app.auth.tries_in_front import Answer

from . import pages
from .deps import get_admin

PATH = "/admin/login"


async def answer(request: Request, form: dict[str, str], locked: int) -> Response | None:
    """The refusal of a try at the dashboard's sign-in (None: the handler answers
    it), audited in the batches of the wing the app was built with (deps.py)."""
    if not form_token_matches(request, form.get(CSRF_FIELD, "")):
        return None
    name = form.get("username", "").strip()
    if not NAME.fullmatch(name):
        return None
    target = pages.safe_next(form.get("next", ""))
    if not locked:
        return pages.busy_form(request, target, name)
    admin = await get_admin(request)
    where = request.client.host if request.client else None
    await admin.failures.record("sign_in_failure", admin.now(), name, address=where, locked=True)
    return pages.locked_form(request, locked, target, name)


_checked: Answer = answer  # it is one of the front's answers


__all__ = ["PATH", "answer"]
