"""The dashboard's arenas (/admin/tournaments): the latest ones with their
players, each not over with "Cancel" and each with "Remove a player" (a
reason required for both). Forms carry the session's CSRF token.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies (deps.py, guard.py), which FastAPI must read as objects."""

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.auth.csrf import CSRF_FIELD
from app.kernel.errors import ServiceError

from . import tournaments
from .context import address
from .deps import AdminDep
from .guard import PageSession, check_csrf
from .render import page
from .routing import AdminRoute

router = APIRouter(prefix="/admin/tournaments", route_class=AdminRoute, include_in_schema=False)


@router.get("", response_class=HTMLResponse)
async def tournaments_page(admin: AdminDep, request: Request, session: PageSession) -> Response:
    return page("tournaments.html", here="tournaments", session=session,
                arenas=await tournaments.listing(admin.engine, admin.now()), notice=request.query_params.get("notice"))


async def _form(request: Request, session: object) -> dict[str, str]:
    form = await request.form()
    check_csrf(session, str(form.get(CSRF_FIELD) or ""))  # type: ignore[arg-type]
    return {k: str(v) for k, v in form.items() if isinstance(v, str)}


def _back(notice: str) -> RedirectResponse:
    return RedirectResponse("/admin/tournaments?" + urlencode({"notice": notice}), status_code=303)


def _error(session: object, error: ServiceError) -> HTMLResponse:
    return page("error.html", status=error.status, session=session, title="Something is wrong", message=error.detail)


@router.post("/{tournament_id}/cancel")
async def cancel_form(admin: AdminDep, tournament_id: str, request: Request, session: PageSession) -> Response:
    try:
        form = await _form(request, session)
        await tournaments.cancel(admin.engine, tournament_id, form.get("reason", ""), session.name, admin.now(),
                                 address(request))
    except ServiceError as error:
        return _error(session, error)
    return _back(f"The arena {tournament_id} is cancelled.")


@router.post("/{tournament_id}/remove")
async def remove_form(admin: AdminDep, tournament_id: str, request: Request, session: PageSession) -> Response:
    try:
        form = await _form(request, session)
        name = await tournaments.remove(admin.engine, tournament_id, form.get("name", ""), form.get("reason", ""),
                                        session.name, admin.now(), address(request))
    except ServiceError as error:
        return _error(session, error)
    return _back(f"{name} is removed from the arena {tournament_id}: they cannot join it again.")
