"""The lifespan owns what it starts: at the end every part that may still be
writing is closed before the database engine is disposed of (issue 18)."""

from __future__ import annotations

from typing import Any

import pytest

from app.main import create_app
from tests.conftest import make_settings


async def test_the_write_limiter_is_closed_before_the_engine_is_disposed(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(make_settings(database_url))
    parts = app.state.parts
    order: list[str] = []
    limiter_close, engine_dispose = type(parts.gateway.limiter).close, type(parts.engine).dispose

    async def close(self: Any) -> None:
        order.append("limiter")
        await limiter_close(self)

    async def dispose(self: Any, *args: Any, **kwargs: Any) -> None:
        order.append("engine")
        await engine_dispose(self, *args, **kwargs)

    monkeypatch.setattr(type(parts.gateway.limiter), "close", close)
    monkeypatch.setattr(type(parts.engine), "dispose", dispose)
    async with app.router.lifespan_context(app):
        await parts.gateway.limiter.hit("addr:test")
    assert order[:2] == ["limiter", "engine"], order
