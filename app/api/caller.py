"""Who is calling the REST API, and what they may do.

Three credentials, read in this order:

- `Authorization: Bearer mgo_...`: an account's API token (app/accounts/tokens.py),
  with its scopes: `play` to create, join and act in the account's seats, `read`
  to read what the account may read. A token that is unknown, revoked, or whose
  account is closed is answered 401 with `WWW-Authenticate: Bearer`, never
  taken for a seat token or for nobody.
- any other `Authorization: Bearer <token>`: a seat's token, exactly as before
  accounts existed.
- no Authorization header: the `magery_session` cookie of a signed-in browser,
  with every scope. A request that changes something (POST, PUT, PATCH, DELETE)
  on the cookie alone must carry `X-CSRF-Token`, the session's CSRF token (the
  page's `<meta name="csrf-token">`), else 403 `csrf_failed`: another site can
  make a browser send the cookie, never read the token. A cookie that names no
  live session (signed out, expired, its account closed) is no credential at all.

Everything is checked at each request against the database: a closed account or
a revoked token stops at once.

No `from __future__ import annotations`: FastAPI reads the dependencies declared
here as evaluated objects.
"""


import hmac
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.accounts import Accounts
from app.accounts.bots import is_bot
from app.accounts.sessions import COOKIE
from app.accounts.tokens import PREFIX, SCOPES
from app.kernel.errors import ServiceError
from app.matches import Caller

from .budget import COUNTED
from .deps import AccountsDep, address_of

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "X-CSRF-Token"

# What the OpenAPI description declares: the Bearer token of the routes that need
# a seat or an account. The session cookie is read from the request as it comes
# (a page's own calls), and create and join declare nothing: a guest needs no
# credential there, and a described one would read as required.
bearer = HTTPBearer(auto_error=False, description=(
    "a seat's token, handed out once by create or join; or an account's API token (`mgo_...`)"))
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def bearer_of(request: Request) -> str | None:
    """The token of `Authorization: Bearer <token>`, read as HTTPBearer reads it."""
    scheme, _, param = request.headers.get("authorization", "").partition(" ")
    return param.strip() if scheme.lower() == "bearer" and param.strip() else None


class BadAccountToken(ServiceError):
    """An account token that proves nothing: unknown, revoked, or its account closed."""

    status, code = 401, "unauthorized"
    headers = {"WWW-Authenticate": 'Bearer error="invalid_token"'}


class CsrfFailed(ServiceError):
    status, code = 403, "csrf_failed"


class MissingScope(ServiceError):
    status, code = 403, "insufficient_scope"

    def __init__(self, scope: str) -> None:
        super().__init__(f"this account token lacks the {scope!r} scope this call needs")
        self.headers = {"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{scope}"'}


class BotOnThePages(ServiceError):
    """A bot account's program plays with a token: the pages are for people."""

    status, code = 403, "bot_account"


# Said by REST's 403 and by the websocket's error alike (ws.py): one rule, one text.
BOT_PLAYS_BY_TOKEN = "a bot account plays through the API, with an account token: not with the site's pages"


class NotSignedIn(ServiceError):
    status, code = 401, "unauthorized"
    headers = {"WWW-Authenticate": "Bearer"}


@dataclass(frozen=True, slots=True)
class Signed:
    """An account proved by the request: by a token (`token_id`) or a session."""

    account_id: int
    name: str
    scopes: tuple[str, ...]
    token_id: int | None = None


# A POST that only reads: a page opens its live channel with the seats it holds in
# the body (a token never goes in a URL). A bot account's session may do it.
READS_BY_POST = frozenset({"/api/v1/stream/person"})


async def account_of(accounts: Accounts, request_method: str, token: str | None, session_cookie: str | None,
                     csrf: str | None, path: str = "") -> Signed | None:
    """The account a request proves, or None (no account credential: a seat token
    or nobody). Raises BadAccountToken, CsrfFailed."""
    if token is not None:
        if not token.startswith(PREFIX):
            return None  # a seat's token
        holder = await accounts.verify_token(token)
        if holder is None:
            raise BadAccountToken("this account token is unknown or revoked, or its account is closed")
        return Signed(holder.account_id, holder.account, holder.scopes, holder.token_id)
    if not session_cookie:
        return None
    session = await accounts.session(session_cookie)
    if session is None:
        return None  # signed out, expired or closed: the browser is a guest now
    if request_method not in SAFE and not (csrf and hmac.compare_digest(csrf.encode(), session.csrf_token.encode())):
        raise CsrfFailed(f"a change made with the session cookie needs the header {CSRF_HEADER} "
                         "(the page's csrf-token)")
    if request_method not in SAFE and path not in READS_BY_POST and await is_bot(accounts.engine, session.account_id):
        raise BotOnThePages(BOT_PLAYS_BY_TOKEN)
    return Signed(session.account_id, session.name, SCOPES)


async def still_holds(accounts: Accounts, account_id: int | None, token: str | None,
                      session_cookie: str | None) -> bool:
    """Whether what proved an account when a long answer (a stream) began still
    proves it: not signed out, revoked or closed since. Read again at each wake."""
    try:
        signed = await account_of(accounts, "GET", token, session_cookie, None)
    except ServiceError:
        return False
    return signed is not None and signed.account_id == account_id


async def refused_to_act(accounts: Accounts | None, by_session: bool, account_id: int,
                         scopes: tuple[str, ...]) -> tuple[str, str] | None:
    """Why an account proved on a websocket (ws.py, ws_chat.py) may not act there
    (an action, a chat line), as (error code, detail), or None: REST's rules. A
    read-only token reads; a bot account's session cookie reads, and acts never
    (403 bot_account); asked at each act, as an account may become a bot account
    while its page is open."""
    if "play" not in scopes:
        return MissingScope.code, "this account token lacks the 'play' scope this call needs"
    if by_session and accounts is not None and await is_bot(accounts.engine, account_id):
        return BotOnThePages.code, BOT_PLAYS_BY_TOKEN
    return None


def _need(signed: Signed, scope: str) -> None:
    if scope not in signed.scopes:
        raise MissingScope(scope)


async def signed(request: Request, credentials: Credentials, accounts: AccountsDep) -> Signed | None:
    token = credentials.credentials if credentials is not None else None
    if token is None and request.headers.get("authorization"):
        return None  # an Authorization of another kind: no cookie behind it either
    return await account_of(accounts, request.method, token, request.cookies.get(COOKIE),
                            request.headers.get(CSRF_HEADER), request.url.path)


async def signed_or_guest(request: Request, accounts: AccountsDep) -> Signed | None:
    authorization = request.headers.get("authorization")
    return await account_of(accounts, request.method, bearer_of(request),
                            None if authorization else request.cookies.get(COOKIE),
                            request.headers.get(CSRF_HEADER), request.url.path)


async def seat_caller(request: Request, credentials: Credentials,
                      who: Annotated[Signed | None, Depends(signed)]) -> Caller:
    """A seat proved by its token, or by the account that holds it (scope `play`)."""
    if who is not None:
        _need(who, "play")
        return _account_caller(request, who)
    token = credentials.credentials if credentials is not None else None
    return Caller(token, address_of(request), counted=COUNTED in request.scope)


async def seat_reader(request: Request, credentials: Credentials,
                      who: Annotated[Signed | None, Depends(signed)]) -> Caller:
    """A seat's own read (`GET /legal`): its token, or the account that holds
    it with either scope: `read` reads what the account may read (as its
    socket shows the seat's view), and a `play` client asks what to play."""
    if who is not None:
        if "read" not in who.scopes:
            _need(who, "play")
        return _account_caller(request, who)
    token = credentials.credentials if credentials is not None else None
    return Caller(token, address_of(request), counted=COUNTED in request.scope)


async def open_caller(request: Request, who: Annotated[Signed | None, Depends(signed_or_guest)]) -> Caller:
    """Create and join: a guest, or an account (scope `play`) whose seat it takes."""
    if who is not None:
        _need(who, "play")
        return _account_caller(request, who)
    return Caller(None, address_of(request), counted=COUNTED in request.scope)


async def account(who: Annotated[Signed | None, Depends(signed)]) -> Signed:
    """Whoever an account token (any scope) or a session proves; 401 without one."""
    if who is None:
        raise NotSignedIn("this call needs an account: Authorization: Bearer mgo_... "
                          "(an account token) or a signed-in session")
    return who


# What the routes declare, once each.
SeatCaller = Annotated[Caller, Depends(seat_caller)]  # a seat's token, or an account holding it (`play`)
SeatReader = Annotated[Caller, Depends(seat_reader)]  # the same, or an account holding it with `read`
AnyCaller = Annotated[Caller, Depends(open_caller)]  # a guest, or an account (`play`): create and join
AccountCaller = Annotated[Signed, Depends(account)]  # an account's token (any scope) or session


def _account_caller(request: Request, who: Signed) -> Caller:
    return Caller(None, address_of(request), counted=COUNTED in request.scope, account_id=who.account_id,
                  account=who.name)
