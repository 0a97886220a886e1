"""`/api/v1/account`: who the caller's account credential speaks for.

The other account calls of the API (public profiles, /api/v1/users) live in
their own router; the pages (sign up, sign in, tokens) are the web wing's. No
`from __future__ import annotations`: FastAPI reads the routes' annotations as objects.
"""


from datetime import UTC

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.accounts.bots import make_bot
from app.accounts.errors import AccountError
from app.accounts.titles import BOT
from app.kernel.errors import Forbidden, ServiceError
from app.kernel.moments import ms_of, stamp

from .caller import AccountCaller, MissingScope, NotSignedIn
from .deps import AccountsDep
from .errors import responses
from .schemas import AccountBody


class Refused(ServiceError):
    """An account rule's refusal (app/accounts), answered as the contract's error."""

    def __init__(self, refused: AccountError) -> None:
        super().__init__(refused.detail)
        self.status, self.code = refused.status, refused.code


router = APIRouter(prefix="/account", tags=["accounts"])


@router.get(
    "", response_model=None, responses={200: {"model": AccountBody}, **responses(401)},
    summary="Who am I: the account of the token or session",
)
async def who_am_i(who: AccountCaller, accounts: AccountsDep) -> JSONResponse:
    """Any scope of an account token will do, as will a signed-in session (both scopes)."""
    found = await accounts.by_id(who.account_id)
    if found is None or found.closed:  # closed between the check and now
        raise NotSignedIn("this account is closed")
    made = found.created_at if found.created_at.tzinfo else found.created_at.replace(tzinfo=UTC)
    return JSONResponse({"name": found.name, "created_at": stamp(ms_of(made)),
                         "computer": found.computer is not None, "title": BOT if found.bot else None,
                         "scopes": list(who.scopes)})


@router.post(
    "/bot", response_model=None,
    responses={200: {"model": AccountBody}, **responses(401, 403, codes=("forbidden", "insufficient_scope")),
               **responses(409, own={409: {"played_rated": "this account has played a rated match"}})},
    summary="Make this account a bot account, for good",
)
async def become_bot(who: AccountCaller, accounts: AccountsDep) -> JSONResponse:
    """An account token with `play` (not a session: a page never does this by a
    slip). Only an account that has played no rated match; irreversible. Asking
    again changes nothing. Answers the account, as `GET /account`, its `title` "BOT"."""
    if who.token_id is None:
        raise Forbidden("only an account token (Authorization: Bearer mgo_...) makes a bot account")
    if "play" not in who.scopes:
        raise MissingScope("play")
    try:
        await make_bot(accounts.engine, who.account_id, accounts.now())
    except AccountError as refused:
        raise Refused(refused) from None
    return await who_am_i(who, accounts)
