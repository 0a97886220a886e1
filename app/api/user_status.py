"""`GET /api/v1/users/status` and `GET /api/v1/bots/online`: who is online,
who is playing, and the bot accounts a program may challenge now.

Online means a page of the site or an event stream of the account was open on
some server process within ONLINE_SECONDS (app/people/presence.py); playing,
that it sits at a running match. Anyone may read these, as the profiles.

No `from __future__ import annotations`: FastAPI reads the routes' annotations.
"""

import json
from collections.abc import AsyncIterator
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from app.accounts.names import NAME
from app.kernel.errors import ServiceError
from app.people.status import bots_online, statuses

from .deps import ChannelDep, ProfilesDep
from .errors import responses
from .query_numbers import Digits
from .users import UserRating, rating_json

MOST_NAMES = 100
NAMES = r"^[A-Za-z0-9_,-]{2,2200}$"

router = APIRouter(tags=["users"])


class NotNames(ServiceError):
    """The list matches the query's pattern (letters, digits, `_`, `-` and commas)
    but asks too many names, or one no account can have (too short or too long):
    well-formed, unusable."""

    status, code = 422, "not_names"


class UserStatus(BaseModel):
    name: str = Field(examples=["Ada"], description="as its player typed it")
    online: bool = Field(description="a page of the site or an event stream of the account is open "
                                     "(within the server's ONLINE_SECONDS)")
    playing: bool = Field(description="the account sits at a running match")
    title: Literal["BOT"] | None = Field(None, description="\"BOT\": a bot account")


class OnlineBot(BaseModel):
    """One line of `GET /bots/online`."""

    name: str = Field(examples=["Deep-Orb"])
    title: Literal["BOT"]
    playing: bool = Field(description="the bot sits at a running match now")
    ratings: dict[str, UserRating] = Field(description="by variant, each one the bot has played rated")


@router.get("/users/status", response_model=list[UserStatus],
            responses={**responses(400, 422, own={422: {"not_names": "'1' cannot be a player's name"}})},
            summary="Whether players are online, and playing")
async def users_status(
    profiles: ProfilesDep, channel: ChannelDep,
    names: Annotated[str, Query(pattern=NAMES, description=(
        f"up to {MOST_NAMES} players' names, any case, separated by commas"))],
) -> JSONResponse:
    """One entry for each name asked that an open account has, in the order
    asked; a name nobody has (or a closed account's) is left out."""
    asked = [n for n in names.split(",") if n]
    if len(asked) > MOST_NAMES:
        raise NotNames(f"at most {MOST_NAMES} names at once, not {len(asked)}")
    odd = [n for n in asked if not NAME.fullmatch(n)]
    if odd:
        raise NotNames(f"{odd[0]!r} cannot be a player's name")
    assert channel.presence is not None
    found = await statuses(profiles.engine, asked, channel.presence.since())
    return JSONResponse([{"name": s.name, "online": s.online, "playing": s.playing, "title": s.title}
                         for s in found])


@router.get("/bots/online", response_class=StreamingResponse,
            responses={200: {"description": "newline-delimited JSON, one bot account a line "
                                            "(`OnlineBot`), the most recently seen first",
                             "content": {"application/x-ndjson": {
                                 "schema": {"type": "string"},
                                 "x-itemSchema": {"$ref": "#/components/schemas/OnlineBot"}}}},
                       **responses(400)},
            summary="The bot accounts online now")
async def online_bots(
    profiles: ProfilesDep, channel: ChannelDep,
    max: Annotated[int, Query(ge=1, le=200, description="at most this many bots"),  # noqa: A002 - lichess's name
                   Digits] = 50,
) -> StreamingResponse:
    assert channel.presence is not None
    found = await bots_online(profiles.engine, channel.presence.since(), max)

    async def lines() -> AsyncIterator[str]:
        for bot in found:
            rated = await profiles.ratings(bot.id)
            yield json.dumps({"name": bot.name, "title": bot.title, "playing": bot.playing,
                              "ratings": {v: rating_json(r) for v, r in rated.items()}},
                             separators=(",", ":")) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store"})
