"""The dashboard's side of the match chat: the queue of reported
lines, and the forms that hide a line, dismiss its reports and mute an account
for a while. Each carries the session's CSRF token and is written to the
audit log; a match's page (templates/admin/match.html) shows its chat with
the same forms.

No `from __future__ import annotations` here: the routes' annotations name the
dependency `router` binds to its Admin, which FastAPI must read as objects."""

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.accounts.sessions import Session
from app.auth.csrf import CSRF_FIELD
from app.chat import Chat
from app.kernel.errors import BadRequest, ServiceError
from app.kernel.ids import is_match_id

from . import audit
from .context import Admin, address
from .guard import Guard, check_csrf
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


def router(admin: Admin) -> APIRouter:
    routes = APIRouter(prefix="/admin/chat", route_class=AdminRoute, include_in_schema=False)
    Signed = Annotated[Session, Depends(Guard(admin).page_session)]

    def chat() -> Chat:
        if admin.chat is None:
            raise BadRequest("this server has no chat")
        return admin.chat

    async def checked(request: Request, session: Session) -> dict[str, str]:
        form = {k: str(v) for k, v in (await request.form()).items()}
        check_csrf(session, form.get(CSRF_FIELD))
        return form

    @routes.get("", response_class=HTMLResponse)
    async def queue_page(request: Request, session: Signed) -> Response:
        try:
            lines = await chat().reported()
        except ServiceError as error:
            return _error(session, error)
        return page("chat.html", here="chat", session=session, lines=lines,
                    notice=DONE.get(request.query_params.get("done", "")))

    @routes.post("/lines/{line_id}/hide")
    async def hide(line_id: int, request: Request, session: Signed) -> Response:
        try:
            form = await checked(request, session)
            line = await chat().hide(line_id, session.name)
        except ServiceError as error:
            return _error(session, error)
        await audit.record(admin.engine, "chat_hidden", admin.now(), session.name, line["match_id"], address(request),
                           line=line_id, room=line["room"], author=line["author"], text=line["text"])
        return RedirectResponse(_back(form, "hidden"), status_code=303)

    @routes.post("/lines/{line_id}/dismiss")
    async def dismiss(line_id: int, request: Request, session: Signed) -> Response:
        try:
            form = await checked(request, session)
            await chat().dismiss(line_id)
        except ServiceError as error:
            return _error(session, error)
        await audit.record(admin.engine, "chat_report_dismissed", admin.now(), session.name, None, address(request),
                           line=line_id)
        return RedirectResponse(_back(form, "dismissed"), status_code=303)

    @routes.post("/mute")
    async def mute(request: Request, session: Signed) -> Response:
        try:
            form = await checked(request, session)
            try:
                minutes = int(form.get("minutes", ""))
            except ValueError:
                raise BadRequest("minutes is a whole number") from None
            name = form.get("account", "")
            done = await chat().mute(name, minutes, form.get("reason", ""), session.name)
        except ServiceError as error:
            return _error(session, error)
        await audit.record(admin.engine, "chat_muted", admin.now(), session.name, None, address(request),
                           account=name.strip()[:40], minutes=minutes, until=done["until"],
                           reason=form.get("reason", "").strip()[:500])
        return RedirectResponse(_back(form, "muted" if minutes else "unmuted"), status_code=303)

    return routes
