"""`/admin/api`: the dashboard's JSON, for its pages' scripts and for scripts of
the people who run the server (with a session cookie and, to change anything,
the X-CSRF-Token header). Errors are the contract's `{"error", "detail"}`.

No `from __future__ import annotations` here: the routes' annotations name the
dependencies (deps.py, guard.py), which FastAPI must read as objects."""

from datetime import date, timedelta
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict

from app.analysis import finished_analysis
from app.kernel.errors import BadRequest

from . import audit, csv_export, detail, figures, match_search
from .context import address
from .deps import AdminDep
from .guard import ApiChange, ApiSession
from .routing import AdminRoute

MAX_DAYS = 3660
MAX_ID = 2**31 - 1  # the audit log's ids are 32-bit integers


class Moderation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verdict: Literal["abort", "white", "black", "draw"]
    reason: str


def day_range(params: Any, today: date) -> tuple[date, date]:
    """`from` and `to` (YYYY-MM-DD, both included); by default the last 30 days."""
    def day(name: str, default: date) -> date:
        value = (params.get(name) or "").strip()
        return match_search.day_param(name, value) if value else default

    params = match_search.checked_params(params)
    unknown = sorted(set(params) - {"from", "to"})
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}; the figures take from and to")
    end = day("to", today)
    start = day("from", max(end - timedelta(days=29), match_search.FIRST_DAY))
    if start > end:
        raise BadRequest("from is after to")
    if (end - start).days >= MAX_DAYS:
        raise BadRequest(f"the figures cover at most {MAX_DAYS} days at once")
    return start, end


router = APIRouter(prefix="/admin/api", route_class=AdminRoute, include_in_schema=False)


@router.get("/matches")
async def list_matches(admin: AdminDep, request: Request, _: ApiSession) -> dict[str, Any]:
    return await match_search.page(admin.engine, match_search.parse(request.query_params))


@router.get("/matches.csv")
async def history_csv(admin: AdminDep, request: Request, session: ApiSession) -> StreamingResponse:
    q = match_search.parse(request.query_params)
    await audit.record(admin.engine, "export_history", admin.now(), session.name, address=address(request),
                       filters=q.params())
    return StreamingResponse(
        csv_export.rows(admin.engine, match_search.Query(q.filters, q.sort)), media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="magery-matches.csv"'})


@router.get("/matches/{match_id}")
async def match_detail(admin: AdminDep, match_id: str, _: ApiSession) -> dict[str, Any]:
    return await detail.detail(admin.engine, match_id)


@router.get("/matches/{match_id}/versions/{version}")
async def match_version(admin: AdminDep, match_id: str, version: int, _: ApiSession) -> dict[str, Any]:
    return await detail.at_version(admin.engine, match_id, version)


@router.get("/matches/{match_id}/export")
async def match_export(admin: AdminDep, match_id: str, request: Request, session: ApiSession) -> dict[str, Any]:
    out = await detail.export(admin.engine, match_id)
    out["analysis"] = await finished_analysis(admin.engine, match_id)  # a done computer analysis, or null
    await audit.record(admin.engine, "export_match", admin.now(), session.name, match_id, address(request))
    return out


@router.post("/matches/{match_id}/moderate")
async def match_moderate(
    admin: AdminDep, match_id: str, body: Moderation, request: Request, session: ApiChange,
) -> dict[str, Any]:
    state = await admin.gateway.moderate(match_id, body.verdict, body.reason, session.name)
    await audit.record(admin.engine, "moderation", admin.now(), session.name, match_id, address(request),
                       verdict=body.verdict, reason=body.reason.strip())
    return {"match": state}


@router.get("/stats")
async def stats(admin: AdminDep, request: Request, _: ApiSession) -> dict[str, Any]:
    start, end = day_range(request.query_params, admin.now().date())
    return await figures.stats(admin.engine, start, end)


@router.get("/audit")
async def audit_log(admin: AdminDep, request: Request, _: ApiSession) -> dict[str, Any]:
    kind, before, limit = audit_params(request.query_params)
    entries = await audit.page(admin.engine, kind, before, limit + 1)
    more = len(entries) > limit
    entries = entries[:limit]
    return {"entries": entries, "next_before": entries[-1]["id"] if more and entries else None}


def audit_params(params: Any) -> tuple[str | None, int | None, int]:
    params = match_search.checked_params(params)
    unknown = sorted(set(params) - {"kind", "before", "limit"})
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}; the audit log takes kind, before and limit")
    kind = (params.get("kind") or "").strip() or None
    if kind is not None and kind not in audit.KINDS:
        raise BadRequest(f"kind is one of {', '.join(audit.KINDS)}")
    try:
        before = int(params["before"]) if params.get("before") else None
        limit = int(params["limit"]) if params.get("limit") else 50
    except ValueError:
        raise BadRequest("before and limit are whole numbers") from None
    if not 1 <= limit <= 200:
        raise BadRequest("limit is from 1 to 200")
    if before is not None and not 1 <= before <= MAX_ID:
        raise BadRequest(f"before is an entry's number, from 1 to {MAX_ID}")
    return kind, before, limit
