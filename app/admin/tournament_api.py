"""`/admin/api/tournaments`: the arenas as the dashboard's page shows them,
and an admin's cancel of one or removal of a player from one (with the
X-CSRF-Token header and a reason; audited). Errors are the contract's
`{"error", "detail"}`.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies (deps.py, guard.py), which FastAPI must read as objects."""

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from . import tournaments
from .context import address
from .deps import AdminDep
from .guard import ApiChange, ApiSession
from .routing import AdminRoute


class Reason(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str


class Removal(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    reason: str


router = APIRouter(prefix="/admin/api/tournaments", route_class=AdminRoute, include_in_schema=False)


@router.get("")
async def list_tournaments(admin: AdminDep, _: ApiSession) -> dict[str, Any]:
    return {"tournaments": await tournaments.listing(admin.engine, admin.now())}


@router.post("/{tournament_id}/cancel")
async def cancel(admin: AdminDep, tournament_id: str, body: Reason, request: Request,
                 session: ApiChange) -> dict[str, Any]:
    await tournaments.cancel(admin.engine, tournament_id, body.reason, session.name, admin.now(), address(request))
    return {"cancelled": tournament_id}


@router.post("/{tournament_id}/remove")
async def remove(admin: AdminDep, tournament_id: str, body: Removal, request: Request,
                 session: ApiChange) -> dict[str, Any]:
    name = await tournaments.remove(admin.engine, tournament_id, body.name, body.reason, session.name, admin.now(),
                                    address(request))
    return {"removed": name, "tournament": tournament_id}
