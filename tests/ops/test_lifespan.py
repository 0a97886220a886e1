"""The lifespan owns what it starts: at the end every part that may still be
writing is closed before the database engine is disposed of (issue 18)."""

from __future__ import annotations

import signal
from typing import Any

import pytest

from app.main import create_app
from tests.conftest import make_settings


async def test_the_write_limiter_is_closed_before_the_engine_is_disposed(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(make_settings(database_url))
    parts = app.state.parts
    order: list[str] = []
    # The gateway's limiter itself, not its class: the read budget may be another of its kind.
    limiter_close, engine_dispose = parts.gateway.limiter.close, type(parts.engine).dispose

    async def close() -> None:
        order.append("limiter")
        await limiter_close()

    async def dispose(self: Any, *args: Any, **kwargs: Any) -> None:
        order.append("engine")
        await engine_dispose(self, *args, **kwargs)

    monkeypatch.setattr(parts.gateway.limiter, "close", close)
    monkeypatch.setattr(type(parts.engine), "dispose", dispose)
    async with app.router.lifespan_context(app):
        await parts.gateway.limiter.hit("addr:test")
    assert order[:2] == ["limiter", "engine"], order


async def test_the_stop_signal_handlers_are_put_back_when_the_lifespan_ends(database_url: str) -> None:
    """Each lifespan wraps the process's SIGINT and SIGTERM handlers so the sockets
    hear 1001 first; at its end it puts the earlier ones back. CI's test process
    ran hundreds of apps and chained a handler per app, and a SIGINT recursed
    through 300 of them."""
    def uvicorn(sig: int, frame: Any) -> None:  # stands for uvicorn's own, never called here
        raise AssertionError("no signal is sent")

    outside = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig in outside:
        signal.signal(sig, uvicorn)
    try:
        for _ in range(2):
            app = create_app(make_settings(database_url))
            async with app.router.lifespan_context(app):
                assert all(signal.getsignal(sig) is not uvicorn for sig in outside), "the lifespan wraps both"
            assert all(signal.getsignal(sig) is uvicorn for sig in outside), "and puts them back"
    finally:
        for sig, handler in outside.items():
            signal.signal(sig, handler)
