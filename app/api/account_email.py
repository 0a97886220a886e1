"""`/api/v1/account/email`: the account's email address and what it is mailed.

The address is its owner's alone: no other answer of the API (profiles, users,
matches) names it. Reading takes any credential of the account; changing it
takes a signed-in session (with X-CSRF-Token) or an account token with `play`.
No `from __future__ import annotations`: FastAPI reads the routes' annotations.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.mail import Mailer
from app.mail.addresses import ADDRESS

from .caller import AccountCaller, MissingScope
from .errors import responses
from .schemas import whole


def get_mail(request: Request) -> Mailer:
    return request.app.state.parts.mail  # type: ignore[no-any-return]


MailDep = Annotated[Mailer, Depends(get_mail)]
router = APIRouter(prefix="/account/email", tags=["accounts"])


class EmailPreferences(BaseModel):
    turn: bool = Field(description="a mail when it is your turn in a correspondence match (and when its "
                                   "clock has little left)")
    challenge: bool = Field(description="a mail when someone challenges you")
    digest: bool = Field(description="a daily mail listing the correspondence matches awaiting your move")
    digest_hour: int = Field(ge=0, le=23, description="the hour of the day (UTC) the digest is sent at")


class EmailBody(BaseModel):
    """The account's email, as only its owner sees it."""

    enabled: bool = Field(description="false: this server sends no email (no SMTP_URL); nothing can be changed")
    address: str | None = Field(examples=["ada@example.org"], description="null: none given")
    verified: bool = Field(description="its verification link was followed: only then is anything else sent to it")
    bounced: bool = Field(description="its mail server refused it for good: nothing is sent until it is verified "
                                      "again (give it again)")
    preferences: EmailPreferences


class AddressBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str = Field(max_length=254, pattern=ADDRESS, examples=["ada@example.org"],
                         description="an email address: one @, a domain with a dot")


class PreferencesBody(BaseModel):
    """Only what is named changes."""

    model_config = ConfigDict(extra="forbid")
    turn: StrictBool | None = None
    challenge: StrictBool | None = None
    digest: StrictBool | None = None
    digest_hour: whole(0, 23) | None = None  # type: ignore[valid-type]  # 23.0 is 23, as JSON Schema counts it


def _may_change(who: Any) -> None:
    if who.token_id is not None and "play" not in who.scopes:
        raise MissingScope("play")


# A session without its CSRF header, a token without the play scope.
_REFUSED = ("forbidden", "insufficient_scope", "csrf_failed")
_SEND_ERRORS = {
    409: {"email_off": "email is off on this server (no SMTP_URL)"},
    422: {"address_refused": "the mail server of this address refuses it"},
    429: {"too_many_mails": "this address was sent its verification mails for today: try again tomorrow"},
    503: {"mail_unavailable": "the verification mail could not be sent now: give the address again later"},
}


@router.get("", response_model=None, responses={200: {"model": EmailBody}, **responses(401)},
            summary="The account's email address and preferences")
async def read_email(who: AccountCaller, mail: MailDep) -> JSONResponse:
    return JSONResponse(await mail.view(who.account_id))


@router.put("", response_model=None,
            responses={200: {"model": EmailBody}, **responses(400, 401, 403, 409, 422, 429, codes=_REFUSED, own=_SEND_ERRORS)},
            summary="Give the account an email address: a verification link is mailed to it")
async def set_email(body: AddressBody, who: AccountCaller, mail: MailDep) -> JSONResponse:
    """The address is kept unverified and sent a link (valid MAIL_VERIFY_HOURS,
    24 by default); nothing else is mailed to it until the link is followed.
    A new address replaces the old one and must be verified in its turn; the
    same address, already verified, is left as it is (no mail). An address is
    sent at most 3 verification mails a day whichever accounts give it, and an
    account may ask for 5."""
    _may_change(who)
    return JSONResponse(await mail.set_address(who.account_id, who.name, body.address))


@router.delete("", response_model=None, responses={200: {"model": EmailBody}, **responses(401, 403, codes=_REFUSED)},
               summary="Forget the account's email address and its preferences")
async def remove_email(who: AccountCaller, mail: MailDep) -> JSONResponse:
    _may_change(who)
    await mail.remove(who.account_id)
    return JSONResponse(await mail.view(who.account_id))


@router.put("/preferences", response_model=None,
            responses={200: {"model": EmailBody}, **responses(400, 401, 403, 409, codes=_REFUSED, own={
                409: {"no_address": "add an email address first"}})},
            summary="Choose which kinds of mail the account is sent")
async def set_preferences(body: PreferencesBody, who: AccountCaller, mail: MailDep) -> JSONResponse:
    _may_change(who)
    return JSONResponse(await mail.set_preferences(who.account_id, body.model_dump(exclude_none=True)))
