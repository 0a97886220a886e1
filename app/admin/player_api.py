"""`/admin/api/accounts`: the players' accounts as JSON, as their
pages show them: the list searched by name, one account, and its closing and
reopening (with the X-CSRF-Token header and a reason). Errors are the
contract's `{"error", "detail"}`.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies `router` binds to its Admin, which FastAPI must read as objects."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict

from app.accounts.sessions import Session

from . import players
from .context import Admin, address
from .guard import Guard
from .routing import AdminRoute


class Reason(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str


def router(admin: Admin) -> APIRouter:
    """The accounts' JSON routes, bound to this wing's Admin."""
    routes = APIRouter(prefix="/admin/api/accounts", route_class=AdminRoute, include_in_schema=False)
    guard = Guard(admin)
    Signed = Annotated[Session, Depends(guard.api_session)]
    Changing = Annotated[Session, Depends(guard.api_change)]

    async def one(name: str) -> dict[str, Any]:
        return await players.account(admin.accounts, admin.engine, name, admin.now())

    @routes.get("")
    async def list_accounts(request: Request, _: Signed) -> dict[str, Any]:
        return await players.listing(admin.engine, players.parse(request.query_params))

    @routes.get("/{name}")
    async def account(name: str, _: Signed) -> dict[str, Any]:
        return await one(name)

    @routes.post("/{name}/close")
    async def close(name: str, body: Reason, request: Request, session: Changing) -> dict[str, Any]:
        return {"account": await one(await players.close(admin.accounts, name, body.reason, session.name,
                                                         address(request)))}

    @routes.post("/{name}/reopen")
    async def reopen(name: str, body: Reason, request: Request, session: Changing) -> dict[str, Any]:
        return {"account": await one(await players.reopen(admin.accounts, name, body.reason, session.name,
                                                          address(request)))}

    return routes
