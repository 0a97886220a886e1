"""CORS for the REST API: pages of the sites `ALLOWED_ORIGINS`
lists (`"*"`: any) may call `/api/v1` from a browser, as they may open the
match's websocket. With the setting empty nothing changes: no preflight is
answered and no answer carries a CORS header.

Starlette's CORSMiddleware does the work; this wrapper hands it the API's
requests only, so the site's pages and forms (which carry a session's CSRF
token) stay same-site. No `Access-Control-Allow-Credentials`: a page of another
site calls with a token in `Authorization`, never with the browser's cookie.
"""

from __future__ import annotations

from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from .resends import HEADER

PATHS = ("/api/", "/openapi.json")  # what a client of another site reads or calls
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
# Asked by clients; the safelisted ones (Content-Type's simple values, Accept...) pass anyway.
ASKED = ("Authorization", "Content-Type", HEADER, "If-None-Match", "X-Request-ID")
# Answered headers a page may read, beyond the safelisted ones.
SHOWN = ("ETag", "Location", "Retry-After", "WWW-Authenticate", "X-Request-ID", "Idempotency-Replayed")


class ApiCors:
    def __init__(self, app: ASGIApp, allowed: list[str]) -> None:
        self.app = app
        self.cors = CORSMiddleware(app, allow_origins=[o.rstrip("/") for o in allowed], allow_methods=METHODS,
                                   allow_headers=ASKED, expose_headers=SHOWN, allow_credentials=False,
                                   max_age=600)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PATHS):
            await self.cors(scope, receive, send)
        else:
            await self.app(scope, receive, send)
