"""Signing up, in and out: `/signup`, `/login`, `POST /logout`, and
`/account/claim`, where a guest's seats are brought into the account.

Plain HTML forms that work without a script; the one script is the claim's
(static/js/claim.js), which hands the seat tokens this browser kept in
localStorage to `POST /account/claim` right after signing up or in, then goes
on to where the player was. Every refusal is said on the form in words; a
sign-in answers the same for a name nobody has and for a wrong password (the
account service decides, app/accounts/service.py).

No `from __future__ import annotations`: FastAPI reads the routes' annotations.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from app.accounts import AccountClosed, AccountError, Accounts, SignInFailed, TooMany
from app.accounts.names import NAME_RULE
from app.accounts.passwords import MIN_PASSWORD
from app.auth import Busy
from app.kernel.errors import ServiceError
from app.matches import Caller
from app.matches.claims import MOST_SEATS

from . import signed
from .deps import AccountsDep, GatewayDep
from .render import page

BUSY_RETRY = 2  # seconds: a password check takes a fraction of one
CLAIM_MODULES = ["claim.js", "seat.js", "session.js"]


def _said(error: AccountError) -> str:
    """The service's sentence as a form says it: capitalised, with a full stop."""
    text = error.detail.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


def wants_json(request: Request) -> bool:
    """A program that said it reads JSON (`Accept: application/json`, no text/html):
    its refusal is the API's `{"error", "detail"}`, never a page to scrape."""
    accept = request.headers.get("accept", "").lower()
    return "application/json" in accept and "text/html" not in accept


_CODES = {400: "bad_request", 401: "sign_in_failed", 403: "forbidden", 409: "name_taken", 429: "rate_limited",
          503: "unavailable"}


def _form_page(request: Request, kind: str, status: int = 200, error: str | None = None,
               field: str | None = None, username: str = "", next_path: str = "/",
               retry_after: int | None = None) -> Response:
    """The sign-in or sign-up form (`kind` is "login" or "signup"), with a new form token;
    a refusal to a program that asked for JSON, as JSON."""
    if status >= 400 and error and wants_json(request):
        headers = {"Retry-After": str(retry_after)} if retry_after else None
        return JSONResponse({"error": _CODES.get(status, "bad_request"), "detail": error}, status_code=status,
                            headers=headers)
    token = signed.new_token()
    response = page("sign.html", status=status, session=None, kind=kind, csrf=token, error=error, field=field,
                    username=username, next=next_path, name_rule=NAME_RULE, min_password=MIN_PASSWORD,
                    title="Sign in" if kind == "login" else "Sign up")
    signed.hand_form_token(response, request, f"/{kind}", token)
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def locked_form(request: Request, locked: int, target: str, name: str) -> Response:
    """The answer to a sign-in while a lock runs (here and in app/web/sign_in_front.py)."""
    return _form_page(request, "login", 429, f"Too many failed sign-ins: try again in {locked} seconds.",
                      None, name[:20], target, retry_after=locked)


def busy_form(request: Request, target: str, name: str) -> Response:
    """The answer to a sign-in that finds no room to wait (here and in app/web/sign_in_front.py)."""
    return _form_page(request, "login", 503, "The server is busy checking other sign-ins. Try again in a moment.",
                      None, name[:20], target, retry_after=BUSY_RETRY)


@dataclass(frozen=True, slots=True)
class _Tried:
    """A sign-in or sign-up form as posted."""

    request: Request
    kind: str  # "login" or "signup"
    name: str
    password: object
    target: str  # where to go on once signed in

    @classmethod
    async def read(cls, request: Request, kind: str) -> "_Tried | Response":
        """The form, or the form again (403) when its token is not the one handed out with it."""
        form = await request.form()
        tried = cls(request, kind, str(form.get("username") or "").strip(), form.get("password"),
                    signed.safe_next(str(form.get("next") or "")))
        if not signed.form_token_matches(request, form.get(signed.CSRF_FIELD)):
            return tried.refused(403, "This form had expired. Please try again.")
        return tried

    def refused(self, status: int, words: str, field: str | None = None,
                retry_after: int | None = None) -> Response:
        """The form again, saying why, the name kept (never the password)."""
        return _form_page(self.request, self.kind, status, words, field, self.name[:20], self.target, retry_after)


def _json_error(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail}, status_code=status)


def _seats_of(body: Any) -> list[tuple[str, str]] | str:
    """The (match, token) pairs of a claim's body, or why it is malformed."""
    seats = body.get("seats") if isinstance(body, dict) else None
    if not isinstance(seats, list):
        return 'the body is {"seats": [{"match": ID, "token": SEAT_TOKEN}, ...]}'
    if len(seats) > MOST_SEATS:
        return f"a claim hands over at most {MOST_SEATS} seats"
    pairs = []
    for seat in seats:
        if (not isinstance(seat, dict) or not isinstance(seat.get("match"), str)
                or not isinstance(seat.get("token"), str) or len(seat["match"]) > 64 or len(seat["token"]) > 128):
            return 'each seat is {"match": ID, "token": SEAT_TOKEN} (strings)'
        pairs.append((seat["match"], seat["token"]))
    return pairs


router = APIRouter(include_in_schema=False)


async def _open(request: Request, accounts: Accounts, account: Any, target: str) -> Response:
    """Signed up or in: the session's cookie, then the guest's seats brought
    along (/account/claim), then back where the player was."""
    token, _ = await accounts.open_session(account, _address(request))
    response = RedirectResponse("/account/claim?" + urlencode({"next": target}), status_code=303)
    signed.keep_session(response, request, token, accounts.settings.account_session_days)
    response.delete_cookie(signed.FORM_COOKIE, path=request.url.path)
    return response

# ---- signing up and in --------------------------------------------------------


def blank_form(kind: str) -> Callable[[Request, Accounts], Awaitable[Response]]:
    async def form_page(request: Request, accounts: AccountsDep) -> Response:
        target = signed.safe_next(request.query_params.get("next"))
        if await signed.viewer(accounts, request) is not None:
            return RedirectResponse(target, status_code=303)
        return _form_page(request, kind, next_path=target)
    return form_page

for kind in ("signup", "login"):
    router.add_api_route(f"/{kind}", blank_form(kind), methods=["GET"], response_class=HTMLResponse)


@router.post("/signup", response_class=HTMLResponse)
async def signup(request: Request, accounts: AccountsDep) -> Response:
    tried = await _Tried.read(request, "signup")
    if isinstance(tried, Response):
        return tried
    try:
        account = await accounts.sign_up(tried.name, tried.password, _address(request))
    except Busy:
        return tried.refused(503, "The server is busy. Try again in a moment.", retry_after=BUSY_RETRY)
    except TooMany as error:
        return tried.refused(429, "Too many accounts were made from this address lately: "
                             f"try again in {error.retry_after} seconds.", retry_after=error.retry_after)
    except AccountError as error:
        return tried.refused(error.status, _said(error), error.field)
    return await _open(request, accounts, account, tried.target)


@router.post("/login", response_class=HTMLResponse)
async def login(request: Request, accounts: AccountsDep) -> Response:
    tried = await _Tried.read(request, "login")
    if isinstance(tried, Response):
        return tried
    try:
        account = await accounts.sign_in(tried.name, tried.password, _address(request))
    except Busy:
        return busy_form(request, tried.target, tried.name)
    except TooMany as error:
        return locked_form(request, error.retry_after, tried.target, tried.name)
    except SignInFailed:
        return tried.refused(401, "Wrong username or password.")
    except AccountClosed:
        return tried.refused(403, "This account is closed.")
    return await _open(request, accounts, account, tried.target)


@router.post("/logout")
async def logout(request: Request, accounts: AccountsDep) -> Response:
    session = await signed.viewer(accounts, request)
    if session is None:  # signed out already (elsewhere, or the session ran out)
        response = RedirectResponse("/", status_code=303)
        signed.drop_session(response, request)
        return response
    form = await request.form()
    if not signed.csrf_matches(session, form.get(signed.CSRF_FIELD)):
        return page("notice.html", status=403, session=session, title="Not signed out",
                    message="This form had expired: reload the page and sign out again.")
    await accounts.sign_out(session.id)
    response = RedirectResponse("/", status_code=303)
    signed.drop_session(response, request)
    return response

# ---- the guest's seats --------------------------------------------------------


@router.get("/account/claim", response_class=HTMLResponse)
async def claim_page(request: Request, accounts: AccountsDep) -> Response:
    target = signed.safe_next(request.query_params.get("next"))
    session = await signed.viewer(accounts, request)
    if session is None:
        return RedirectResponse(target, status_code=303)
    return page("claim.html", session=session, next=target, modules=CLAIM_MODULES, title="Signed in")


@router.post("/account/claim")
async def claim(request: Request, accounts: AccountsDep, gateway: GatewayDep) -> Response:
    session = await signed.viewer(accounts, request)
    if session is None:
        return _json_error(401, "unauthorized", "sign in first: the claim is the signed-in account's")
    if not signed.csrf_matches(session, request.headers.get(signed.CSRF_HEADER)):
        return _json_error(403, "csrf_failed", f"the {signed.CSRF_HEADER} header is missing or wrong; "
                           "reload the page and try again")
    try:
        body = await request.json()
    except ValueError:
        return _json_error(400, "bad_request", "the body is not JSON")
    handed = _seats_of(body)
    if isinstance(handed, str):
        return _json_error(400, "bad_request", handed)
    try:
        done = await gateway.claim_seats(Caller(address=_address(request)), session.account_id, handed)
    except ServiceError as error:
        return JSONResponse(error.body(), status_code=error.status)
    return JSONResponse({"claimed": done.claimed, "refused": done.refused, "uncounted": done.uncounted})
