"""What routes depend on: the match service, the seat a token proves, write limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.matches import MatchService
from app.matches.service import hash_token

from .ratelimit import SlidingWindow

bearer = HTTPBearer(auto_error=False, description="the seat's token, handed out once by create or join")


async def get_service(request: Request) -> MatchService:  # async: no thread hop
    service: MatchService = request.app.state.matches
    return service


ServiceDep = Annotated[MatchService, Depends(get_service)]
Token = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


async def limit_writes(request: Request, credentials: Token) -> None:
    """Counts a write against the client's address and its token (429 when over)."""
    limiter: SlidingWindow = request.app.state.write_limiter
    keys = [f"addr:{request.client.host if request.client else '-'}"]
    if credentials is not None:
        keys.append(f"seat:{hash_token(credentials.credentials)[:24]}")
    limiter.hit(*keys)


Write = Depends(limit_writes)


@dataclass(frozen=True, slots=True)
class Seat:
    match_id: str
    colour: str


async def current_seat(match_id: str, service: ServiceDep, credentials: Token) -> Seat:
    """The seat `Authorization: Bearer <token>` proves in this match (401 otherwise)."""
    colour = await service.authenticate(match_id, credentials.credentials if credentials else None)
    await service.touch(match_id, colour)
    return Seat(match_id, colour)


CurrentSeat = Annotated[Seat, Depends(current_seat)]
