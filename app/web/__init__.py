"""The browser's wing: the home and match pages (templates/), their scripts and
pictures (static/), and the security headers every answer carries.

The pages are clients of the public API like any other: they draw the states the
server sends and offer only what `GET /legal` lists. See docs/web.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping
from typing import Any

from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

from .headers import SecurityHeaders
from .pages import ROOT, make_router


class _Compressed:
    """gzip for the wing's own answers (pages and static files), which are text
    sent once per visit; the API's JSON keeps its own way. Static files are
    revalidated on every use (`no-cache`, answered 304 by their ETag), so a new
    release never runs beside a browser's cached modules of the last one."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1024, compresslevel=6)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not (path == "/" or path.startswith(("/static/", "/matches/"))):
            await self.app(scope, receive, send)
            return

        async def send_revalidated(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start" and path.startswith("/static/"):
                message["headers"] = [*message.get("headers", []), (b"cache-control", b"no-cache")]
            await send(message)

        await self.gzip(scope, receive, send_revalidated)


def install(app: Any, bot_levels: Callable[[], Iterable[str]]) -> None:
    """Add the pages, /static, gzip for them, and the security headers to `app`.
    `bot_levels` names the computer opponent's levels (asked at each home page)."""
    app.include_router(make_router(bot_levels))
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.add_middleware(_Compressed)
    app.add_middleware(SecurityHeaders)


__all__ = ["install"]
