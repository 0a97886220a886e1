"""The yardstick of bench/api.py: the least a JSON-over-HTTP write can cost here.

A bare FastAPI app with one endpoint that takes a small JSON body and does one
conditional UPDATE on PostgreSQL, through the same driver (asyncpg under
SQLAlchemy's async engine) and the same pool settings as the real server. What
the real server does per action beyond this — authentication, the rules
engine, the action log, idempotency — is what bench/api.py measures.

Run by bench/api.py as `uvicorn bench.api_yardstick:app` with DATABASE_URL set.
"""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, ConfigDict
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

ROWS = 256


def _engine() -> AsyncEngine:
    url = os.environ["DATABASE_URL"]
    try:  # the real server's engine factory, so the pool is the same
        from app.db import make_engine  # type: ignore[attr-defined]

        return make_engine(url)
    except ImportError:
        return create_async_engine(url, pool_size=int(os.environ.get("BENCH_POOL_SIZE", "20")),
                                   max_overflow=int(os.environ.get("BENCH_MAX_OVERFLOW", "10")))


engine = _engine()


@asynccontextmanager
async def lifespan(_: FastAPI):  # type: ignore[no-untyped-def]
    async with engine.begin() as conn:
        await conn.execute(text(
            "CREATE TABLE IF NOT EXISTS bench_yardstick "
            "(id integer PRIMARY KEY, version integer NOT NULL, body text NOT NULL)"))
        await conn.execute(text(
            "INSERT INTO bench_yardstick (id, version, body) "
            "SELECT g, 0, '{}' FROM generate_series(0, :n - 1) g ON CONFLICT (id) DO NOTHING"),
            {"n": ROWS})
    yield
    await engine.dispose()


app = FastAPI(lifespan=lifespan)


class Submit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]
    version: int
    id: str | None = None


_UPDATE = text(
    "UPDATE bench_yardstick SET version = version + 1, body = :body "
    "WHERE id = :id AND version = :version RETURNING version")


@app.get("/health")
async def health() -> dict[str, bool]:
    return {"ok": True}


@app.get("/rows/{row}")
async def read(row: int) -> dict[str, int]:
    async with engine.connect() as conn:
        version = (await conn.execute(
            text("SELECT version FROM bench_yardstick WHERE id = :id"), {"id": row})).scalar()
    return {"version": version}


@app.post("/rows/{row}")
async def submit(row: int, body: Submit) -> dict[str, int]:
    async with engine.begin() as conn:
        version = (await conn.execute(
            _UPDATE, {"body": json.dumps(body.action), "id": row, "version": body.version})).scalar()
    if version is None:
        raise HTTPException(409, "stale_version")
    return {"version": version}
