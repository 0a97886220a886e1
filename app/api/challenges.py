"""`/api/v1/challenges`: one account challenges another, and
`/api/v1/stream/person`: a person's live channel, the stream every page opens.

Only accounts challenge and are challenged (an account token with `play`, or a
signed-in session with its X-CSRF-Token). The channel is newline-delimited
JSON: a `person` message (challenges, your matches, the count awaiting your
action) at once and whenever it changes, a `ping` when quiet. A guest's page
opens it with the seats its browser holds, in the body of a POST (a seat's
token never goes in a URL).

No `from __future__ import annotations`: FastAPI reads the routes' annotations
as evaluated objects.
"""

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import Accounts
from app.accounts.names import NAME
from app.accounts.sessions import COOKIE
from app.challenges import DECLINE_REASONS
from app.kernel.errors import Unauthorized
from app.matches import Caller
from app.people import PersonChannel
from app.people.person import Who
from app.rules import DEFAULT_NO_PROGRESS_ROUNDS, VARIANTS

from .caller import AnyCaller, bearer_of, still_holds
from .deps import AccountsDep, ChallengesDep, ChannelDep, address_of
from .errors import responses
from .head import asked_head, no_lines
from .match_stream import closing_line
from .schemas import Strict, TimeControl, Timestamp, whole

CHALLENGE_ID = r"^[A-Za-z0-9_-]{1,16}$"
MATCH_ID = r"^[A-Za-z0-9_-]{1,24}$"
TOKEN = r"^[A-Za-z0-9_-]{16,128}$"
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
Reason = Literal[tuple(DECLINE_REASONS)]  # type: ignore[valid-type]


class ChallengeOptions(Strict):
    variant: Literal[VARIANTS] = "standard"  # type: ignore[valid-type]
    time_control: TimeControl | None = None
    colour: Literal["white", "black", "random"] = Field("random", description="the challenger's side")
    rated: bool = Field(False, description="the match moves both players' ratings")
    no_progress_rounds: whole(0, 1000) = Field(  # type: ignore[valid-type]
        DEFAULT_NO_PROGRESS_ROUNDS, description="R16, as in a match's options; 0 turns the rule off")

    model_config = ConfigDict(json_schema_extra={"examples": [{
        "variant": "standard", "time_control": {"type": "realtime", "minutes": 10, "increment": 5},
        "colour": "random", "rated": True}]})


class Decline(Strict):
    reason: Reason = Field(  # type: ignore[valid-type]
        "generic", description="why, from a fixed list (docs/api.md, \"Challenges\")")


class Challenge(BaseModel):
    """A challenge, as both of its players see it (nothing in it is secret)."""

    id: str = Field(examples=["q3VtX0aZc1mB"])
    challenger: str = Field(examples=["Ada"])
    challenged: str | None = Field(examples=["Grace"], description=(
        "who is challenged; null for an open challenge until someone accepts it"))
    open: bool = Field(False, description="an open challenge: made to nobody, anyone signed in but the "
                                          "challenger may accept it by its link")
    url: str = Field(examples=["/challenges/q3VtX0aZc1mB"], description=(
        "the challenge's page on this server: the link an open challenge is given by"))
    computer: bool = Field(description="the challenged is a computer level: it accepts at once")
    variant: str = Field(examples=["standard"])
    time_control: dict[str, Any] | None = Field(examples=[{"type": "realtime", "minutes": 10, "increment": 5}])
    colour: Literal["white", "black", "random"] = Field(description="the challenger's side")
    rated: bool
    no_progress_rounds: int = Field(10, description="R16's count for the match")
    status: Literal["pending", "accepted", "declined", "canceled", "expired"]
    reason: str | None = Field(description="a decline's reason code, else null", examples=[None])
    reason_text: str | None = Field(description="the reason as the challenger reads it after the name",
                                    examples=[None])
    match_id: str | None = Field(description="the match made, once accepted", examples=["ec60lFT8BdN4"])
    created_at: Timestamp = Field(examples=["2026-11-27T01:00:00.000Z"], description="RFC 3339, UTC, milliseconds")
    expires_at: Timestamp = Field(examples=["2026-11-27T01:10:00.000Z"])


class Challenges_(BaseModel):
    in_: list[Challenge] = Field(alias="in", description="waiting for your answer, oldest first")
    out: list[Challenge] = Field(description="yours, made within twice the expiry time: waiting or answered")


class HeldSeat(Strict):
    match: str = Field(pattern=MATCH_ID)
    token: str = Field(pattern=TOKEN)


class Held(Strict):
    seats: list[HeldSeat] = Field(default_factory=list, max_length=200,
                                  description="the seats this browser holds as a guest")


def _examples(status: int, **codes: str) -> dict[int | str, dict[str, Any]]:
    """The shared error documentation, with this wing's codes as its examples."""
    out = responses(status)
    out[status] = {**out[status], "description": ", ".join(codes) or out[status]["description"],
                   "content": {"application/json": {"examples": {
                       code: {"value": {"error": code, "detail": detail}} for code, detail in codes.items()}}}}
    return {status: out[status]}


router = APIRouter(tags=["challenges"])


def _account(caller: Caller) -> Caller:
    if caller.account_id is None:
        raise Unauthorized("sign in to challenge: only accounts challenge and are challenged")
    return caller

ERRORS = {**responses(400), **_examples(401, unauthorized="sign in to challenge"),
          **responses(403, codes=("csrf_failed", "insufficient_scope", "forbidden")), **responses(429)}
OVER = _examples(409, challenge_over="this challenge is declined already")
UNKNOWN = _examples(404, no_such_challenge="there is no challenge 'x1'")
MINE = _examples(403, not_your_challenge="only the challenged player accepts a challenge",
                 csrf_failed="a change made with the session cookie needs the header X-CSRF-Token")


def _options(body: "ChallengeOptions") -> dict[str, Any]:
    options: dict[str, Any] = {"variant": body.variant, "no_progress_rounds": body.no_progress_rounds}
    if body.time_control is not None:
        options["time_control"] = body.time_control.model_dump()
    return options


@router.post("/challenges/open", status_code=201, response_model=Challenge,
             responses={**ERRORS, **_examples(429, too_many_challenges="you have 5 challenges waiting")},
             summary="Make an open challenge: a link anyone may accept")
async def open_challenge(caller: AnyCaller, challenges: ChallengesDep,
                         body: ChallengeOptions | None = None) -> JSONResponse:
    """A challenge to nobody: its `url` is the link to give. The first account
    (not yours) to accept it plays it; it expires as any challenge does, and
    nobody but you is told of it."""
    body = body or ChallengeOptions()
    made = await challenges.open(_account(caller), _options(body), body.colour, body.rated)
    return JSONResponse(made, status_code=201, headers={"Location": f"/api/v1/challenges/{made['id']}/show"})


@router.post("/challenges/{name}", status_code=201, response_model=Challenge,
             responses={**ERRORS, **_examples(404, no_such_player="there is no player named 'nobody'"),
                        **_examples(403, account_closed="Bo's account is closed"),
                        **_examples(400, challenge_yourself="you cannot challenge yourself"),
                        **_examples(429, too_many_challenges="you have 5 challenges waiting")},
             summary="Challenge a player")
async def challenge(caller: AnyCaller, challenges: ChallengesDep,
                    name: Annotated[str, Path(max_length=40, pattern=f"^{NAME.pattern}$")],
                    body: ChallengeOptions | None = None) -> JSONResponse:
    """The challenged player sees it at once on any page; a computer level
    (Random, Greedy, Strong) accepts at once: the answer carries its `match_id`."""
    body = body or ChallengeOptions()
    made = await challenges.challenge(_account(caller), name, _options(body), body.colour, body.rated)
    # No route reads one challenge: the list of the caller's challenges holds it.
    return JSONResponse(made, status_code=201, headers={"Location": "/api/v1/challenges"})


@router.get("/challenges", response_model=Challenges_, responses={**ERRORS},
            summary="Your challenges, received and sent")
async def list_challenges(caller: AnyCaller, challenges: ChallengesDep) -> JSONResponse:
    return JSONResponse(await challenges.of(_account(caller).account_id or 0))

Id = Annotated[str, Path(pattern=CHALLENGE_ID)]


@router.get("/challenges/{challenge_id}/show", response_model=Challenge, responses={**responses(400), **UNKNOWN},
            summary="One challenge")
async def one_challenge(challenge_id: Id, challenges: ChallengesDep) -> JSONResponse:
    """Anyone may read a challenge by its id (nothing in it is secret): what an
    open challenge's link shows before it is accepted. Under `/show` because
    `/challenges/{name}` already takes a POST: one path shape, one method."""
    return JSONResponse(await challenges.get(challenge_id))


@router.post("/challenges/{challenge_id}/accept", response_model=Challenge,
             responses={**ERRORS, **UNKNOWN, **MINE, **OVER}, summary="Accept a challenge")
async def accept(caller: AnyCaller, challenge_id: Id, challenges: ChallengesDep) -> JSONResponse:
    """The match is made at once, the challenger in the colour they asked for;
    its id is the answer's `match_id`. Two accepts at once make one match."""
    return JSONResponse(await challenges.accept(_account(caller), challenge_id))


@router.post("/challenges/{challenge_id}/decline", response_model=Challenge,
             responses={**ERRORS, **UNKNOWN, **MINE, **OVER}, summary="Decline a challenge, with a reason")
async def decline(caller: AnyCaller, challenge_id: Id, challenges: ChallengesDep, body: Decline | None = None) -> JSONResponse:
    return JSONResponse(await challenges.decline(_account(caller), challenge_id, (body or Decline()).reason))


@router.post("/challenges/{challenge_id}/cancel", response_model=Challenge,
             responses={**ERRORS, **UNKNOWN, **MINE, **OVER}, summary="Cancel your challenge")
async def cancel(caller: AnyCaller, challenge_id: Id, challenges: ChallengesDep) -> JSONResponse:
    return JSONResponse(await challenges.cancel(_account(caller), challenge_id))

STREAM_DOC = {200: {"description": "newline-delimited JSON: `person` messages and `ping`s",
                    "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
              **_examples(401, unauthorized="sign in, or name the seats this browser holds"),
              **responses(400, 403, codes=("insufficient_scope", "forbidden")), **_examples(429, too_many_channels="this address holds 16 live channels")}


async def opened(request: Request, who: Who, channel: PersonChannel, accounts: Accounts) -> StreamingResponse:
    if not who.anyone:
        raise Unauthorized("sign in, or name the seats this browser holds (POST with `seats`)")
    address = address_of(request) or "-"
    await channel.reserve(address)  # TooManyChannels: answered 429 before anything streams
    if asked_head(request):  # the headers alone (head.py)
        channel.release(address)
        return StreamingResponse(no_lines(), media_type="application/x-ndjson", headers=STREAM_HEADERS)
    # What proved the account, read again at each wake (as `open_caller` read it).
    token = bearer_of(request)
    cookie = None if request.headers.get("authorization") else request.cookies.get(COOKIE)

    async def still() -> bool:
        return await still_holds(accounts, who.account_id, token, cookie)

    async def lines() -> AsyncIterator[str]:
        try:
            async for message in channel.stream(who, still if who.account_id is not None else None):
                yield json.dumps(message, separators=(",", ":")) + "\n"
            if channel.closing():  # the server stops: the stream ended, not what it shows
                yield closing_line()
        finally:
            channel.release(address)

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers=STREAM_HEADERS)


@router.get("/stream/person", response_class=StreamingResponse, responses=STREAM_DOC,
            summary="Your live channel (an account)")
async def person_stream(request: Request, caller: AnyCaller, channel: ChannelDep,
                        accounts: AccountsDep) -> StreamingResponse:
    """What concerns you, pushed: your challenges, your matches, and how many await
    your action; sent at once, then whenever it changes; a `ping` line when quiet."""
    return await opened(request, Who(caller.account_id), channel, accounts)


@router.post("/stream/person", response_class=StreamingResponse, responses=STREAM_DOC,
             summary="Your live channel (a guest's seats, and/or an account)")
async def person_stream_of_seats(request: Request, caller: AnyCaller, channel: ChannelDep,
                                 accounts: AccountsDep, body: Held | None = None) -> StreamingResponse:
    """As `GET`, and also for the guest seats named in the body (each counts only if
    its token proves it)."""
    held = tuple((s.match, s.token) for s in (body or Held()).seats)
    return await opened(request, Who(caller.account_id, held), channel, accounts)
