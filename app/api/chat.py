"""`/api/v1/matches/{id}/chat`: the match's chat for clients (docs/api.md, "Chat").

A seat's token, or the account holding a seat, reads and writes the players'
room; anyone else (an account, or nobody) the spectators'. Writing with an
account token needs its `play` scope, and a session cookie the CSRF header.

No `from __future__ import annotations` here: FastAPI reads the routes'
annotations as evaluated objects.
"""

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.sessions import COOKIE
from app.chat import MAX_LENGTH, PHRASES
from app.matches import Caller

from .budget import COUNTED
from .caller import CSRF_HEADER, SAFE, MissingScope, account_of, bearer_of
from .deps import AccountsDep, ChatDep, address_of
from .errors import responses
from .query_numbers import Digits
from .schemas import Timestamp

CONTROL = r"\x00-\x1f\x7f-\x9f"
TEXT_PATTERN = f"^[^{CONTROL}]*[^\\s{CONTROL}][^{CONTROL}]*$"
LINE_EXAMPLE: dict[str, Any] = {"id": 12, "room": "players", "author": "Ada", "seat": "white", "text": "Good luck",
                "at": "2026-11-27T01:02:03.456Z"}


class ChatLine(BaseModel):
    id: int = Field(description="the line's number, rising in the match")
    room: Literal["players", "spectators"]
    author: str = Field(description="the writer's account name, a guest seat's name, or \"Guest\"")
    seat: Literal["white", "black"] | None = Field(description="the writer's colour, in the players' room")
    text: str = Field(description="what was said: plain text, to be shown as text, never markup")
    at: Timestamp = Field(description="when it was said (a timestamp)")
    model_config = ConfigDict(json_schema_extra={"examples": [LINE_EXAMPLE]})


class ChatLines(BaseModel):
    room: Literal["players", "spectators"] = Field(description="the room the caller reads and writes")
    guest: bool = Field(description="true: the caller has no account and writes only `phrases`")
    phrases: list[str] = Field(description="the stock phrases a guest may write")
    muted_until: Timestamp | None = Field(description="the caller's account is muted in chat until then")
    lines: list[ChatLine] = Field(description="the room's visible lines, oldest first (the last 100)")
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"room": "players", "guest": False, "phrases": list(PHRASES), "muted_until": None, "lines": [LINE_EXAMPLE]}]})


class ChatPost(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"text": "Good luck"}]})

    # What the server refuses is in the schema too (a control character, nothing but spaces, over
    # 140), but checked by app/chat/flood.py, whose refusals say what is wrong in words.
    text: str = Field(json_schema_extra={"maxLength": MAX_LENGTH, "pattern": TEXT_PATTERN},
                      description="1 to 140 characters, not all spaces, no control character; "
                                  "a guest sends one of the stock phrases")
    room: Literal["players", "spectators"] | None = Field(
        None, description="the room meant; refused (403 `wrong_room`) if it is not the caller's")


class ChatPosted(BaseModel):
    line: ChatLine
    model_config = ConfigDict(json_schema_extra={"examples": [{"line": LINE_EXAMPLE}]})


class Reported(BaseModel):
    reported: bool
    model_config = ConfigDict(json_schema_extra={"examples": [{"reported": True}]})


class ReportBody(BaseModel):
    reason: Literal["abuse", "spam", "cheating", "other"] = Field(
        "other", description="why: abuse, spam, cheating (talk of it), or other; other when there is no body")
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"reason": "abuse"}]})


router = APIRouter(prefix="/matches", tags=["chat"])


async def chat_caller(request: Request, accounts: AccountsDep) -> Caller:
    """A seat's token, an account (token or session), or nobody: a spectator.
    Declared as no security scheme: every credential is optional here."""
    token = bearer_of(request)
    cookie = None if request.headers.get("authorization") else request.cookies.get(COOKIE)
    who = await account_of(accounts, request.method, bearer_of(request), cookie,
                           request.headers.get(CSRF_HEADER))
    counted = COUNTED in request.scope
    if who is None:
        return Caller(token, address_of(request), counted=counted)
    if request.method not in SAFE and "play" not in who.scopes:
        raise MissingScope("play")
    return Caller(None, address_of(request), counted=counted, account_id=who.account_id, account=who.name)

ChatCaller = Annotated[Caller, Depends(chat_caller)]


@router.get("/{match_id}/chat", response_model=None,
            responses={200: {"model": ChatLines}, **responses(400, 401, 404)},
            summary="Read the match's chat")
async def read_chat(match_id: str, caller: ChatCaller, chat: ChatDep,
                    after: Annotated[int, Digits, Query(ge=0, le=2**31 - 1,
                                                description="only lines after this one")] = 0) -> JSONResponse:
    """The caller's room: the players' for a seat (its token, or the account
    holding it), the spectators' for anyone else. Hidden lines are left out."""
    who, lines = await chat.read(match_id, caller, after)
    return JSONResponse({"room": who.room, "guest": who.guest, "phrases": list(PHRASES),
                         "muted_until": await chat.muted_until(who.account_id), "lines": lines})


@router.post("/{match_id}/chat", status_code=201, response_model=None,
             responses={201: {"model": ChatPosted}, **responses(400, 401, 403, 404, 409, 429, own={
                 400: {"bad_chat_line": "a chat line is at most 140 characters; this one has 141"},
                 403: {"guest_phrases_only": "guests write only the stock phrases: …",
                       "wrong_room": "you write in the players' chat, not the spectators'",
                       "muted": "you are muted in chat until 2026-11-21T16:00:00.000Z",
                       "computer_opponent": "your opponent is the computer: it reads no chat"},
                 409: {"chat_repeated": "you said that just now: say something else"},
                 429: {"chat_flood": "at most 4 lines in 10 seconds: wait 3 s"}})},
             summary="Say something in the match's chat")
async def post_chat(match_id: str, body: ChatPost, caller: ChatCaller, chat: ChatDep) -> JSONResponse:
    """Refused: 400 `bad_chat_line` (empty, over 140 characters, a control
    character), 403 `guest_phrases_only`, `wrong_room`, `muted`, `computer_opponent`
    (a player of a match against the computer), 409
    `chat_repeated` (one of your last two lines again), 429 `chat_flood`
    (a fifth line within 10 s; see Retry-After)."""
    line = await chat.post(match_id, caller, body.text, body.room)
    # The room's read from just before the line: it starts with the line.
    return JSONResponse({"line": line}, status_code=201,
                        headers={"Location": f"/api/v1/matches/{match_id}/chat?after={line['id'] - 1}"})


@router.post("/{match_id}/chat/{line_id}/report", status_code=202, response_model=None,
             responses={202: {"model": Reported}, **responses(400, 401, 403, 404, 429, codes=(
                 "csrf_failed", "insufficient_scope", "forbidden", "rate_limited"))},
             summary="Report a chat line to the admins")
async def report_line(match_id: str, line_id: Annotated[int, Digits, Path(ge=1, le=2**31 - 1)],
                      caller: ChatCaller, chat: ChatDep, body: ReportBody | None = None) -> JSONResponse:
    """A line of the caller's room goes to the admins' queue, with the reason given."""
    await chat.report(match_id, caller, line_id, (body or ReportBody()).reason)
    return JSONResponse({"reported": True}, status_code=202)


@router.delete("/{match_id}/chat/{line_id}/report", response_model=Reported,
               responses={**responses(401, 403, 404, 409, 429, codes=(
                   "csrf_failed", "insufficient_scope", "forbidden", "rate_limited"), own={
                   409: {"report_kept": "a report is withdrawn within 60 s of making it; "
                                        "this one was made 75 s ago and stands"}})},
               summary="Withdraw your report of a chat line, within a minute")
async def withdraw_report(match_id: str, line_id: Annotated[int, Digits, Path(ge=1, le=2**31 - 1)],
                          caller: ChatCaller, chat: ChatDep) -> JSONResponse:
    """Undo a report pressed by mistake: within 60 s of making it. 404 when the
    caller has not reported the line, 409 `report_kept` after the minute."""
    await chat.withdraw_report(match_id, caller, line_id)
    return JSONResponse({"reported": False})
