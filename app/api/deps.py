"""Who is calling: the `Caller` the gateway needs, read from the request."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.matches import Caller

from .budget import COUNTED

bearer = HTTPBearer(auto_error=False, description="the seat's token, handed out once by create or join")
Token = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def address_of(request: Request) -> str | None:
    return request.client.host if request.client else None


async def seat_caller(request: Request, credentials: Token) -> Caller:
    """A caller that proves a seat with `Authorization: Bearer <token>`."""
    return Caller(credentials.credentials if credentials is not None else None, address_of(request),
                  counted=COUNTED in request.scope)


async def anonymous_caller(request: Request) -> Caller:
    """A caller that needs no seat (create, join): only its address is counted."""
    return Caller(None, address_of(request), counted=COUNTED in request.scope)


SeatCaller = Annotated[Caller, Depends(seat_caller)]
AnonymousCaller = Annotated[Caller, Depends(anonymous_caller)]
