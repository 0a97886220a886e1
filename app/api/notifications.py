"""`/api/v1/account/notifications`: the signed-in player's inbox, and
`/api/v1/account/notification-preferences`: which kinds reach them by which channel.

Any scope of an account token, or a signed-in session (a change with its
X-CSRF-Token). See docs/api.md, "Notifications". No `from __future__ import
annotations`: FastAPI reads the routes' annotations as evaluated objects.
"""

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, create_model

from app.challenges.service import person_key
from app.notify import preferences
from app.notify.inbox import MOST_PAGE
from app.notify.kinds import CHANNELS, KINDS

from .caller import AccountCaller
from .deps import ChannelDep, InboxDep, NotifyChannelsDep
from .errors import responses
from .query_numbers import Digits
from .schemas import Strict, Timestamp, whole

Kind = Literal[KINDS]  # type: ignore[valid-type]
Channel = Literal[CHANNELS]  # type: ignore[valid-type]

router = APIRouter(prefix="/account", tags=["notifications"])


class Notification(BaseModel):
    """One notice: `kind` says what happened, `data` what it concerns (ids and names only)."""

    id: int = Field(examples=[41])
    kind: Kind = Field(examples=["your_turn"])
    text: str = Field(description="the notice in a sentence, as the bell shows it",
                      examples=["Your move against Grace."])
    data: dict[str, Any] = Field(
        description="`match_id` (a match's notices, an accepted challenge, a handled report), `challenge_id`, "
                    "`tournament_id` and `name` (an arena), `opponent` or `by` (a name), `outcome`",
        examples=[{"match_id": "ec60lFT8BdN4", "colour": "white", "opponent": "Grace", "variant": "standard"}])
    created_at: Timestamp = Field(examples=["2026-11-29T10:00:00.000Z"], description="RFC 3339, UTC, milliseconds")
    read: bool


class NotificationPage(BaseModel):
    notifications: list[Notification] = Field(description="newest first")
    unread: int = Field(description="unread notices in the whole inbox", examples=[3])
    next: int | None = Field(description="`before` for the next (older) page; null: this is the last",
                             examples=[None])


class MarkRead(Strict):
    ids: list[whole(1, 2**31 - 1)] | None = Field(  # type: ignore[valid-type]
        None, max_length=MOST_PAGE, description="these notices")
    up_to: whole(1, 2**31 - 1) | None = Field(  # type: ignore[valid-type]
        None, description="every notice with this id or older")


class Unread(BaseModel):
    unread: int = Field(examples=[0])


# The body of a change, every kind and channel named (so a client, and the
# schema's readers, know the whole set): each optional, nothing else allowed.
ChannelChoices = create_model(  # type: ignore[call-overload]
    "ChannelChoices", __base__=Strict, **{c: (bool | None, None) for c in CHANNELS})
PreferenceChanges = create_model(  # type: ignore[call-overload]
    "PreferenceChanges", __base__=Strict, **{k: (ChannelChoices | None, None) for k in KINDS})


class NotificationPreferences(BaseModel):
    preferences: dict[Kind, dict[Channel, bool]] = Field(
        description="each kind, each channel: on or off",
        examples=[{"your_turn": {"inbox": True, "push": True, "email": False}}])
    delivered_by: list[Channel] = Field(
        description="the channels this server delivers by now, the inbox always first", examples=[["inbox"]])


@router.get("/notifications", response_model=NotificationPage, responses=responses(400, 401),
            summary="Your notifications, newest first, with the unread count")
async def notifications(who: AccountCaller, inbox: InboxDep,
                        before: Annotated[int | None, Query(ge=1, le=2**31 - 1, description="only notices older than this id"), Digits] = None,
                        limit: Annotated[int, Query(ge=1, le=MOST_PAGE), Digits] = 20) -> JSONResponse:
    """Reading does not mark anything read: `POST .../notifications/read` does."""
    return JSONResponse(await inbox.page(who.account_id, before, limit))


CHANGES = {**responses(400, 401), **responses(403, codes=("csrf_failed",))}


@router.post("/notifications/read", response_model=Unread, responses=CHANGES,
             summary="Mark notifications read")
async def mark_read(who: AccountCaller, inbox: InboxDep, channel: ChannelDep,
                    body: MarkRead | None = None) -> JSONResponse:
    """`ids`: these; `up_to`: all up to that id (what a client saw); an empty body: all.
    Answers the unread count after."""
    body = body or MarkRead()
    unread = await inbox.mark_read(who.account_id, body.ids, body.up_to)
    channel.nudges.nudge(person_key(who.account_id))  # the player's other pages count again at once
    return JSONResponse({"unread": unread})


async def _choices(account_id: int, inbox: Any, channels: Any) -> JSONResponse:
    return JSONResponse({"preferences": await preferences.read(inbox.engine, account_id),
                         "delivered_by": ["inbox", *channels.names]})


@router.get("/notification-preferences", response_model=NotificationPreferences, responses=responses(401),
            summary="Which notifications reach you, by which channel")
async def read_preferences(who: AccountCaller, inbox: InboxDep, channels: NotifyChannelsDep) -> JSONResponse:
    """Every kind and channel, the defaults where you chose nothing: the inbox
    everything, a push what wants an answer soon, email nothing."""
    return await _choices(who.account_id, inbox, channels)


@router.put("/notification-preferences", response_model=NotificationPreferences, responses=CHANGES,
            summary="Change which notifications reach you")
async def change_preferences(who: AccountCaller, inbox: InboxDep, channels: NotifyChannelsDep,
                             body: Annotated[PreferenceChanges, Body(examples=[{"your_turn": {"push": False}}])],
                             ) -> JSONResponse:
    """`{kind: {channel: true|false}}`: the kinds and channels named change, the
    others stay. An unknown kind or channel: 400 naming it."""
    await preferences.change(inbox.engine, who.account_id, preferences.check(body.model_dump(exclude_none=True)))
    return await _choices(who.account_id, inbox, channels)
