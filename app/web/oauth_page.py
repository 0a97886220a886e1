"""`/oauth`: where a third-party app sends a person to approve it (OAuth 2.0's
authorization endpoint, app/accounts/oauth.py says the protocol).

A request that is not well formed is said on our own page and never sent back
to the app: with no registration, its redirect is only as good as the request
that names it. A good one asks the person to sign in first (and comes back
here), then shows the app's name, where the answer goes and each scope in
words, with Approve and Deny: a form with the session's CSRF token, so no
other site can approve for the person. Approve sends the browser to the app's
redirect with `code` and `state`; Deny with `error=access_denied`.

The page's content security policy lets its one form go to the app's origin
(a form's redirect is held to form-action too). No `from __future__ import
annotations`: FastAPI reads the routes' annotations.
"""

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.accounts.oauth import SCOPE_WORDS, Ask, OAuthError, check_ask, redirect_to
from app.security import security_headers

from . import signed
from .deps import AccountsDep, OAuthDep
from .render import page

router = APIRouter(include_in_schema=False)
TITLE = "Authorize an app"


def _refused(request: Request, session: object, error: OAuthError) -> HTMLResponse:
    return page("notice.html", status=400, session=session, back=signed.here(request),
                title="This app's request cannot be used",
                message=f"The app that sent you here made a request this server does not take: {error.description} "
                        f"({error.error}). Nothing was shared with it; tell its author.")


def _consent(request: Request, session: signed.Session, ask: Ask, account_name: str, status: int = 200,
             error: str | None = None) -> HTMLResponse:
    response = page("oauth.html", status=status, session=session, back=signed.here(request), title=TITLE, ask=ask,
                    fields=ask.fields(), scopes=[(s, SCOPE_WORDS[s]) for s in ask.scopes], account_name=account_name,
                    error=error)
    response.headers["Content-Security-Policy"] = security_headers(form_action=ask.origin)["Content-Security-Policy"]
    return response


@router.get("/oauth", response_class=HTMLResponse)
async def consent_page(request: Request, accounts: AccountsDep) -> Response:
    session = await signed.viewer(accounts, request)
    try:
        ask = check_ask(request.query_params)
    except OAuthError as error:
        return _refused(request, session, error)
    account = None if session is None else await accounts.by_id(session.account_id)
    if session is None or account is None or account.closed:
        return RedirectResponse(signed.login_location(request), status_code=303)
    return _consent(request, session, ask, account.name)


@router.post("/oauth", response_class=HTMLResponse)
async def decide(request: Request, accounts: AccountsDep, oauth: OAuthDep) -> Response:
    form = await request.form()
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    session = await signed.viewer(accounts, request)
    try:
        ask = check_ask(fields)
    except OAuthError as error:
        return _refused(request, session, error)
    account = None if session is None else await accounts.by_id(session.account_id)
    if session is None or account is None or account.closed:  # signed out meanwhile: ask again after signing in
        return RedirectResponse("/login?" + urlencode({"next": "/oauth?" + urlencode(ask.fields())}), status_code=303)
    if not signed.csrf_matches(session, fields.get(signed.CSRF_FIELD)):
        return _consent(request, session, ask, account.name, 403,
                        "This form had expired: nothing was shared. Choose again.")
    decision = fields.get("decision")
    if decision == "approve":
        code = await oauth.approve(account.id, ask)
        target = redirect_to(ask.redirect_uri, code=code, state=ask.state)
    elif decision == "deny":
        target = redirect_to(ask.redirect_uri, error="access_denied",
                             error_description="the person denied the request", state=ask.state)
    else:
        return _refused(request, session, OAuthError("invalid_request", "the form says neither approve nor deny"))
    return RedirectResponse(target, status_code=303)
