"""The dashboard's side of the match chat: the queue of reported
lines, and the forms that hide a line, dismiss its reports and mute an account
for a while. Each carries the session's CSRF token and is written to the
audit log; a match's page (templates/admin/match.html) shows its chat with
the same forms.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies (deps.py, guard.py), which FastAPI must read as objects."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.accounts.sessions import Session
from app.auth.csrf import CSRF_FIELD
from app.chat import Chat
from app.kernel.errors import BadRequest, ServiceError
from app.kernel.ids import is_match_id

from . import audit
from .context import Admin, address
from .deps import AdminDep
from .guard import PageSession, check_csrf
from .render import page
from .routing import AdminRoute

DONE = {"hidden": "The line is hidden from everyone.", "dismissed": "The report is dismissed; the line stays.",
        "muted": "The account is muted in chat.", "unmuted": "The account may chat again."}


def _error(session: Session, error: ServiceError) -> HTMLResponse:
    return page("error.html", status=error.status, session=session, title="Something is wrong",
                message=error.detail)


def _back(form: dict[str, str], done: str) -> str:
    """Back to the match the form was on, else to the queue."""
    match_id = form.get("match", "")
    if is_match_id(match_id):
        return f"/admin/matches/{match_id}#chat"
    return f"/admin/chat?done={done}"


router = APIRouter(prefix="/admin/chat", route_class=AdminRoute, include_in_schema=False)


def _chat(admin: Admin) -> Chat:
    if admin.chat is None:
        raise BadRequest("this server has no chat")
    return admin.chat


async def _checked(request: Request, session: Session) -> dict[str, str]:
    form = {k: str(v) for k, v in (await request.form()).items()}
    check_csrf(session, form.get(CSRF_FIELD))
    return form


@router.get("", response_class=HTMLResponse)
async def queue_page(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        lines = await _chat(admin).reported()
    except ServiceError as error:
        return _error(session, error)
    return page("chat.html", here="chat", session=session, lines=lines,
                notice=DONE.get(request.query_params.get("done", "")))


@router.post("/lines/{line_id}/hide")
async def hide(admin: AdminDep, line_id: int, request: Request, session: PageSession) -> Response:
    try:
        form = await _checked(request, session)
        line = await _chat(admin).hide(line_id, session.name)
    except ServiceError as error:
        return _error(session, error)
    await audit.record(admin.engine, "chat_hidden", admin.now(), session.name, line["match_id"], address(request),
                       line=line_id, room=line["room"], author=line["author"], text=line["text"])
    return RedirectResponse(_back(form, "hidden"), status_code=303)


@router.post("/lines/{line_id}/dismiss")
async def dismiss(admin: AdminDep, line_id: int, request: Request, session: PageSession) -> Response:
    try:
        form = await _checked(request, session)
        await _chat(admin).dismiss(line_id)
    except ServiceError as error:
        return _error(session, error)
    await audit.record(admin.engine, "chat_report_dismissed", admin.now(), session.name, None, address(request),
                       line=line_id)
    return RedirectResponse(_back(form, "dismissed"), status_code=303)


@router.post("/mute")
async def mute(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        form = await _checked(request, session)
        try:
            minutes = int(form.get("minutes", ""))
        except ValueError:
            raise BadRequest("minutes is a whole number") from None
        name = form.get("account", "")
        done = await _chat(admin).mute(name, minutes, form.get("reason", ""), session.name)
    except ServiceError as error:
        return _error(session, error)
    await audit.record(admin.engine, "chat_muted", admin.now(), session.name, None, address(request),
                       account=name.strip()[:40], minutes=minutes, until=done["until"],
                       reason=form.get("reason", "").strip()[:500])
    return RedirectResponse(_back(form, "muted" if minutes else "unmuted"), status_code=303)
