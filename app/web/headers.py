"""Security headers on every answer, as a plain ASGI middleware (so it holds for
pages, static files and errors alike, whatever route answered).

The pages' policy allows scripts, styles, images and connections from this
origin only, no inline script or style, and no framing. The API's pages (/docs,
/redoc, app/api/docs_page.py) run no inline script either (issue 17, item 11):
their policy differs only where Swagger UI and ReDoc need it, inline styles
(both set style attributes; ReDoc writes <style> elements), fonts and images
as data: URLs, and ReDoc's search worker, started from a blob: URL.
"""

from __future__ import annotations

from typing import Any

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
API_DOCS_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
API_DOCS = ("/docs", "/redoc")

_COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        policy = API_DOCS_POLICY if path.startswith(API_DOCS) else PAGE_POLICY
        extra = [*_COMMON, (b"content-security-policy", policy.encode())]

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in extra if h[0] not in names)]
            await send(message)

        await self.app(scope, receive, send_with_headers)
