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


def count_write(limiter: SlidingWindow, host: str | None, token: str | None) -> None:
    """Counts a write against the client's address and its token (429 when over)."""
    keys = [f"addr:{host or '-'}"]
    if token is not None:
        keys.append(f"seat:{hash_token(token)[:24]}")
    limiter.hit(*keys)


async def limit_writes(request: Request, credentials: Token) -> None:
    count_write(request.app.state.write_limiter, request.client.host if request.client else None,
                credentials.credentials if credentials is not None else None)


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
