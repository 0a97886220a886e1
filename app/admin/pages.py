"""The dashboard's pages: sign-in and sign-out, the history, a match (with its
replay viewer and moderation), the figures and the audit log. Every form
carries the session's CSRF token; the sign-in form, before any session, a
token of its own in a short-lived cookie (app/auth/csrf.py, as the players'
forms). An admin signs in as every account does (`Accounts.sign_in`: the one
lock-out, password pool and clock); the dashboard then checks the role and
opens a session of its own kind, for `ADMIN_SESSION_HOURS`, and audits it.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies (deps.py, guard.py), which FastAPI must read as objects."""

import secrets
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from app.accounts import AccountClosed, SignInFailed, TooMany
from app.accounts.names import NAME, NAME_RULE
from app.accounts.sessions import COOKIE as PLAYER
from app.accounts.sessions import Session, end, find_admin, open_admin_session
from app.auth import Busy
from app.auth.csrf import CSRF_FIELD, drop_form_token, form_token_matches, hand_form_token
from app.charts import page as charts
from app.kernel.errors import ServiceError
from app.rules import VARIANTS
from app.rules.state import REASONS

from . import api, audit, detail, figures, match_search
from .context import Admin, address
from .deps import AdminDep
from .guard import COOKIE, PageSession, check_csrf
from .render import page
from .routing import AdminRoute

BUSY_RETRY = 2  # seconds: a check takes a fraction of one


def _https(request: Request) -> bool:
    return request.url.scheme == "https"


def safe_next(target: str | None) -> str:
    """Only a path of this dashboard: never another site (`//host`, `/\\host`)."""
    if target and target.startswith("/admin") and not target.startswith(("//", "/\\")) and "\\" not in target:
        return target
    return "/admin"


def _error(session: Session | None, error: ServiceError) -> HTMLResponse:
    return page("error.html", status=error.status, session=session, title="Something is wrong",
                message=error.detail)


def _login_form(request: Request, status: int = 200, error: str | None = None,
                next_path: str = "/admin", name: str = "", retry_after: int | None = None) -> HTMLResponse:
    token = secrets.token_urlsafe(24)
    response = page("login.html", status=status, csrf=token, next=next_path, error=error, username=name)
    hand_form_token(response, request, "/admin/login", token)
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def locked_form(request: Request, locked: int, target: str, name: str) -> HTMLResponse:
    """The answer to a try from a locked address (here and in app/admin/front.py)."""
    return _login_form(request, 429, f"Too many failed sign-ins. Try again in {locked} seconds.", target, name,
                       retry_after=locked)


def busy_form(request: Request, target: str, name: str) -> HTMLResponse:
    """The answer to a try that finds no room to wait (here and in app/admin/front.py)."""
    return _login_form(request, 503, "The server is busy checking other sign-ins. Try again in a moment.",
                       target, name, retry_after=BUSY_RETRY)


async def _checked_form(request: Request, session: Session) -> dict[str, str]:
    form = await request.form()
    check_csrf(session, str(form.get(CSRF_FIELD) or ""))
    return {k: str(v) for k, v in form.items()}


def _choices() -> dict[str, Any]:
    return {"statuses": match_search.STATUSES, "variants": VARIANTS, "results": match_search.RESULTS,
            "reasons": REASONS, "opponents": match_search.OPPONENTS, "sorts": match_search.SORTS}


async def _match_page(admin: Admin, session: Session, match_id: str, status: int = 200,
                      error: str | None = None, notice: str | None = None) -> Response:
    try:
        m = await detail.detail(admin.engine, match_id)
    except ServiceError as problem:
        return _error(session, problem)
    return page("match.html", status=status, session=session, m=m, error=error, notice=notice)


def _span(bar: dict[str, Any]) -> str:
    """A histogram bar's label: "3", "10–19" or "100+"."""
    if bar["to"] is None:
        return f"{bar['from']}+"
    return str(bar["from"]) if bar["to"] == bar["from"] else f"{bar['from']}–{bar['to']}"


def _charts(s: dict[str, Any]) -> dict[str, Markup]:
    days = [(d["day"][5:], d["finished"]) for d in s["per_day"]]
    per = "day"
    if len(days) > 92:  # a column per week: a phone's width holds no more
        per = "week"
        days = [(days[i][0], sum(n for _, n in days[i:i + 7])) for i in range(0, len(days), 7)]
    variants = [(name, [v["white"], v["black"], v["draw"]]) for name, v in s["by_variant"].items()]
    overall = s["win_rate"]
    reasons = [(r, n) for r, n in s["reasons"].items() if n]
    rounds = [(_span(b), b["matches"]) for b in s["rounds"]["histogram"]]
    moves = [(_span(b), b["matches"]) for b in s["actions"]["histogram"]]
    made = {
        "per_day": charts.columns(f"Matches finished per {per}", days, "Matches"),
        "win_rate": charts.shares("Results by colour and variant",
                                  [("all variants", [overall["white"], overall["black"], overall["draw"]]),
                                   *variants], ["white wins", "black wins", "draw"]),
        "reasons": charts.bars("Ending reasons", reasons),
        "rounds": charts.bars("Length in rounds", rounds),
        "actions": charts.bars("Length in moves", moves),
    }
    return {k: Markup(v) for k, v in made.items()}  # app/charts escapes every text it draws


router = APIRouter(prefix="/admin", route_class=AdminRoute, include_in_schema=False)


@router.get("/login", response_class=HTMLResponse)
async def login_page(admin: AdminDep, request: Request) -> Response:
    target = safe_next(request.query_params.get("next"))
    if await find_admin(admin.engine, request.cookies.get(COOKIE), admin.now()) is not None:
        return RedirectResponse(target, status_code=303)
    return _login_form(request, next_path=target)


@router.post("/login", response_class=HTMLResponse)
async def login(admin: AdminDep, request: Request) -> Response:
    form = await request.form()
    name = str(form.get("username") or "").strip()
    password = str(form.get("password") or "")
    target = safe_next(str(form.get("next") or ""))
    if not form_token_matches(request, str(form.get(CSRF_FIELD) or "")):
        return _login_form(request, 403, "This form had expired. Please sign in again.", target,
                           name if NAME.fullmatch(name) else "")
    if not NAME.fullmatch(name):  # no account has such a name: nothing to check, count or store
        return _login_form(request, 400, f"A username is {NAME_RULE.removeprefix('a name is ')}.", target, "")
    where = address(request)
    try:
        # The admins' own pool; a browser signed in as a player waits among the known.
        account = await admin.accounts.sign_in(name, password, where, admins=True,
                                               known=await admin.accounts.holds_session(request.cookies.get(PLAYER)))
    except Busy:
        return busy_form(request, target, name)
    except TooMany as locked:
        await admin.failures.record("sign_in_failure", admin.now(), name, address=where, locked=True)
        return locked_form(request, locked.retry_after, target, name)
    except SignInFailed:  # counted already, by the reservation
        await admin.failures.record("sign_in_failure", admin.now(), name, address=where)
        return _login_form(request, 401, "Wrong username or password.", target, name)
    except AccountClosed:
        await admin.failures.record("sign_in_failure", admin.now(), name, address=where, closed=True)
        return _login_form(request, 403, "This account is closed.", target, name)
    if not account.admin:  # the right password, told so: only its holder learns this
        await admin.failures.record("sign_in_failure", admin.now(), name, address=where, not_admin=True)
        return _login_form(request, 403, "This account is not an admin's.", target, name)
    now = admin.now()
    token, session = await open_admin_session(admin.engine, account.id, where, now,
                                              admin.settings.admin_session_hours)
    await audit.record(admin.engine, "sign_in", now, session.name, address=where)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(COOKIE, token, max_age=round(admin.settings.admin_session_hours * 3600),
                        path="/admin", httponly=True, samesite="lax", secure=_https(request))
    drop_form_token(response, request)
    return response


@router.post("/logout")
async def logout(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        await _checked_form(request, session)
    except ServiceError as error:
        return _error(session, error)
    await end(admin.engine, session.id)
    await audit.record(admin.engine, "sign_out", admin.now(), session.name, address=address(request))
    response = RedirectResponse("/admin/login", status_code=303)
    response.delete_cookie(COOKIE, path="/admin")
    return response


@router.get("", response_class=HTMLResponse)
async def history_page(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        q = match_search.parse(request.query_params)
        if "id" in q.filters:
            found = await match_search.page(admin.engine, match_search.Query({"id": q.filters["id"]}))
            if found["matches"]:
                return RedirectResponse(f"/admin/matches/{q.filters['id']}", status_code=303)
        data = await match_search.page(admin.engine, q)
    except ServiceError as error:
        return _error(session, error)
    next_link = None
    if data["next_cursor"]:
        next_link = "/admin?" + urlencode(q.params(cursor=data["next_cursor"]))
    return page("history.html", here="history", session=session, q=q, f=q.params(), matches=data["matches"],
                next_link=next_link, csv_link="/admin/api/matches.csv?" + urlencode(q.params()), **_choices())


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def match_page(admin: AdminDep, match_id: str, request: Request, session: PageSession) -> Response:
    notice = "The match is ended." if request.query_params.get("moderated") else None
    return await _match_page(admin, session, match_id, notice=notice)


@router.post("/matches/{match_id}/moderate")
async def moderate_form(admin: AdminDep, match_id: str, request: Request, session: PageSession) -> Response:
    try:
        form = await _checked_form(request, session)
        verdict, reason = form.get("verdict", ""), form.get("reason", "")
        await admin.gateway.moderate(match_id, verdict, reason, session.name)
    except ServiceError as error:
        return await _match_page(admin, session, match_id, status=error.status, error=error.detail)
    await audit.record(admin.engine, "moderation", admin.now(), session.name, match_id, address(request),
                       verdict=verdict, reason=reason.strip())
    return RedirectResponse(f"/admin/matches/{match_id}?moderated=1", status_code=303)


@router.get("/figures", response_class=HTMLResponse)
async def figures_page(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        start, end = api.day_range(request.query_params, admin.now().date())
        s = await figures.stats(admin.engine, start, end)
    except ServiceError as error:
        return _error(session, error)
    return page("figures.html", here="figures", session=session, s=s, charts=_charts(s),
                json_link="/admin/api/stats?" + urlencode({"from": s["from"], "to": s["to"]}))


@router.get("/audit", response_class=HTMLResponse)
async def audit_page(admin: AdminDep, request: Request, session: PageSession) -> Response:
    try:
        kind, before, limit = api.audit_params(request.query_params)
    except ServiceError as error:
        return _error(session, error)
    entries = await audit.page(admin.engine, kind, before, limit + 1)
    older = None
    if len(entries) > limit:
        entries = entries[:limit]
        older = "/admin/audit?" + urlencode({k: v for k, v in (("kind", kind), ("before", entries[-1]["id"])) if v})
    return page("audit.html", here="audit", session=session, entries=entries, kind=kind, kinds=audit.KINDS, older=older)
