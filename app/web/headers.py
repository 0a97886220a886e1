"""Security headers on every answer, as a plain ASGI middleware (so it holds for
pages, static files and errors alike, whatever route answered). The headers
themselves are app/security.py's; a header a route set already is kept.

The API's pages (/docs, /redoc, app/api/docs_page.py) run no inline script
either: their policy adds only what Swagger UI and ReDoc
need, inline styles (both set style attributes; ReDoc writes <style>
elements), fonts as data: URLs, and ReDoc's search worker, started from a
blob: URL.
"""

from __future__ import annotations

from typing import Any

from app.security import security_headers

API_DOCS = ("/docs", "/redoc")


def _encoded(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode(), value.encode()) for name, value in headers.items()]


_PAGES = _encoded(security_headers())
_API_DOCS = _encoded(security_headers(style_src="'unsafe-inline'", font_src="data:", worker_src="blob:"))


class SecurityHeaders:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        extra = _API_DOCS if path.startswith(API_DOCS) else _PAGES

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in extra if h[0] not in names)]
            await send(message)

        await self.app(scope, receive, send_with_headers)
