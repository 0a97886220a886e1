"""The dashboard's fair-play queue (/admin/fair-play): the open cases with
their evidence, each group with "Mark as cleared" and, for its account,
"Close for cheating" (a reason required; the victims' points come back).
Forms carry the session's CSRF token.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies (deps.py, guard.py), which FastAPI must read as objects."""

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.auth.csrf import CSRF_FIELD
from app.kernel.errors import ServiceError

from . import fairplay
from .context import address
from .deps import AdminDep
from .guard import PageSession, check_csrf
from .render import page
from .routing import AdminRoute

router = APIRouter(prefix="/admin/fair-play", route_class=AdminRoute, include_in_schema=False)


@router.get("", response_class=HTMLResponse)
async def queue_page(admin: AdminDep, request: Request, session: PageSession) -> Response:
    cleared = request.query_params.get("cleared") == "1"
    groups = await fairplay.queue(admin.engine, cleared=cleared)
    return page("fairplay.html", here="fair-play", session=session, groups=groups, cleared=cleared,
                notice=request.query_params.get("notice"))


async def _form(request: Request, session: object) -> dict[str, str]:
    form = await request.form()
    check_csrf(session, str(form.get(CSRF_FIELD) or ""))  # type: ignore[arg-type]
    return {k: str(v) for k, v in form.items() if isinstance(v, str)}


def _back(notice: str) -> RedirectResponse:
    return RedirectResponse("/admin/fair-play?" + urlencode({"notice": notice}), status_code=303)


def _error(session: object, error: ServiceError) -> HTMLResponse:
    return page("error.html", status=error.status, session=session, title="Something is wrong", message=error.detail)


@router.post("/clear")
async def clear_form(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        form = await _form(request, session)
        done = await fairplay.clear(admin.engine, form.get("kind", ""), form.get("account", ""),
                                    form.get("other") or None, session.name, admin.now(), address(request))
    except ServiceError as error:
        return _error(session, error)
    return _back(f"Cleared {done} case{'s' if done != 1 else ''}.")


@router.post("/close")
async def close_form(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        form = await _form(request, session)
        name, refunded = await fairplay.close_for_cheating(admin.accounts, admin.engine, form.get("account", ""),
                                                           form.get("reason", ""), session.name, admin.now(),
                                                           address(request))
    except ServiceError as error:
        return _error(session, error)
    return _back(f"{name} is closed for cheating; {refunded} player{'s' if refunded != 1 else ''} "
                 "got back what they lost to it.")
