"""`/admin/api/accounts`: the players' accounts as JSON, as their
pages show them: the list searched by name, one account, and its closing and
reopening (with the X-CSRF-Token header and a reason). Errors are the
contract's `{"error", "detail"}`.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies (deps.py, guard.py), which FastAPI must read as objects."""

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from . import players
from .context import Admin, address
from .deps import AdminDep
from .guard import ApiChange, ApiSession
from .routing import AdminRoute


class Reason(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str


router = APIRouter(prefix="/admin/api/accounts", route_class=AdminRoute, include_in_schema=False)


async def _one(admin: Admin, name: str) -> dict[str, Any]:
    return await players.account(admin.accounts, admin.engine, name, admin.now())


@router.get("")
async def list_accounts(admin: AdminDep, request: Request, _: ApiSession) -> dict[str, Any]:
    return await players.listing(admin.engine, players.parse(request.query_params))


@router.get("/{name}")
async def account(admin: AdminDep, name: str, _: ApiSession) -> dict[str, Any]:
    return await _one(admin, name)


@router.post("/{name}/close")
async def close(admin: AdminDep, name: str, body: Reason, request: Request, session: ApiChange) -> dict[str, Any]:
    return {"account": await _one(admin, await players.close(admin.accounts, name, body.reason, session.name,
                                                             address(request)))}


@router.post("/{name}/reopen")
async def reopen(admin: AdminDep, name: str, body: Reason, request: Request, session: ApiChange) -> dict[str, Any]:
    return {"account": await _one(admin, await players.reopen(admin.accounts, name, body.reason, session.name,
                                                              address(request)))}
