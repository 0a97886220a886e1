"""An analysis as the API and the exports show it: its plies so far, its
progress, and once done each player's accuracy."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from . import plies as shaping
from . import store


async def answer(engine: AsyncEngine, row: Any) -> dict[str, Any]:
    """An analysis as `GET /matches/{id}/analysis` shows it."""
    shown = shaping.shown(await store.plies(engine, row.id))
    body: dict[str, Any] = {
        "status": row.status, "progress": _progress(row.done, row.total), "engine": row.engine,
        "depth": row.depth, "plies": shown,
        "accuracy": {"white": row.accuracy_white, "black": row.accuracy_black} if row.status == "done"
        else shaping.accuracies(shown)}
    if row.status == "queued":
        body["position"] = await store.position(engine, row)
    if row.status == "failed":
        body["failure"] = row.failure or "its search did not finish"
    return body


async def finished_analysis(engine: AsyncEngine, match_id: str) -> dict[str, Any] | None:
    """The match's analysis once done (for the exports), else None."""
    row = await store.find(engine, match_id)
    return await answer(engine, row) if row is not None and row.status == "done" else None


def _progress(done: int, total: int) -> float:
    return round(done / total, 3) if total else 1.0
