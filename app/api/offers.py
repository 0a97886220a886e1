"""`/api/v1/matches/{id}/takeback` and `/give-time`: what one player offers the
other besides a draw. Routes of their own beside matches.py's, in
the same `matches` tag; the verbs live in app/matches (takeback.py, time_gift.py).

No `from __future__ import annotations` here: FastAPI reads the routes'
annotations as evaluated objects."""


from typing import Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from .caller import SeatCaller
from .deps import GatewayDep
from .errors import responses
from .schemas import Colour, MatchBody, Strict

SEAT = ("forbidden", "insufficient_scope", "csrf_failed")


class Takeback(Strict):
    do: Literal["ask", "accept", "decline", "withdraw"] = Field(
        description="ask for a takeback; accept or decline your opponent's ask; withdraw your own")


class GiveTime(Strict):
    to: Colour | None = Field(None, description="whose clock gains the time: your opponent's (the default); "
                                                "naming your own colour is refused")


router = APIRouter(prefix="/matches", tags=["matches"])


@router.post(
    "/{match_id}/takeback", response_model=None,
    responses={200: {"model": MatchBody}, **responses(
        400, 401, 403, 404, 409, 429, codes=(*SEAT, "match_over", "no_takeback", "rate_limited"))},
    summary="Ask for a takeback, or answer one (casual matches)",
)
async def answer_takeback(match_id: str, body: Takeback, caller: SeatCaller, gateway: GatewayDep) -> JSONResponse:
    """Accepted, the match goes back to the state just before the asker's last
    choice (every choice after it undone too); the log keeps them all and adds a
    `takeback_accept` entry. Any choice played meanwhile lapses an ask. Refused
    (403) in a rated match and against the computer."""
    return JSONResponse({"match": await gateway.takeback(match_id, caller, body.do)})


@router.post(
    "/{match_id}/give-time", response_model=None,
    responses={200: {"model": MatchBody}, **responses(
        400, 401, 403, 404, 409, 429, codes=(*SEAT, "match_over", "rate_limited"))},
    summary="Give your opponent 15 seconds",
)
async def give_time(match_id: str, caller: SeatCaller, gateway: GatewayDep,
                    body: GiveTime | None = None) -> JSONResponse:
    """15 seconds more on the opponent's real-time clock, now; refused (403) in a
    match without a clock or with a correspondence clock."""
    return JSONResponse({"match": await gateway.give_time(match_id, caller, body.to if body else None)})
