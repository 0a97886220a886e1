"""Sign-in tries of a locked address refused in front of the whole stack
(issue 17, item 3): the admins' form's part of app/auth/tries_in_front.py.

Thirty sign-ins sent at once from one address each went through the error
middleware, the budgets, the body limit, FastAPI's routing and the form's
parsing before the lock (app/admin/tries.py) refused the 25 past
`ADMIN_LOCK_AFTER`: measured with the handler refusing at its first line,
that work alone, at one instant, cost another match's p99 about the 2x the
goal allows (docs/reliability.md). app/main.py puts this inside only the
operations' request ids and metrics. A try refused here is audited as the
handler audits a locked try and answered the handler's own 429 page (or its
503 page when the line is full: nothing checked, counted or audited).

A wrong CSRF token or a name no account could have goes in to the handler,
which answers those as it always did (and refuses a locked address itself).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from app.auth.tries_in_front import MOST_FORM_BYTES, TriesInFront
from app.security import security_headers

from . import accounts, pages, sessions, throttle
from .context import Admin

PATH = "/admin/login"


class SignInsInFront(TriesInFront):
    """`POST /admin/login` passes through the address's line; every other request goes straight on."""

    path = PATH
    headers = security_headers()

    def __init__(self, app: Any, admin: Admin) -> None:
        super().__init__(app, admin.sign_ins, throttle.address_key, admin.now, admin.settings.body_timeout_seconds)
        self.admin = admin

    async def answer(self, request: Request, form: dict[str, str], locked: int) -> Response | None:
        if not sessions.same(form.get(sessions.CSRF_FIELD, ""), request.cookies.get(sessions.LOGIN_COOKIE) or "\0"):
            return None
        name = form.get("username", "").strip()
        if not accounts.NAME.fullmatch(name):
            return None
        target = pages.safe_next(form.get("next", ""))
        if not locked:
            return pages.busy_form(request, target, name)
        where = request.client.host if request.client else None
        await self.admin.sign_ins.failures.record("sign_in_failure", self.admin.now(), name, address=where,
                                                  locked=True)
        return pages.locked_form(request, locked, target, name)


__all__ = ["MOST_FORM_BYTES", "PATH", "SignInsInFront"]
