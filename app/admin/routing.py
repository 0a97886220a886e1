"""The route class of every admin route: each answer carries the security
headers of app/security.py (a CSP with no inline script, no framing), and no
caching, whatever the rest of the application adds."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from app.security import security_headers

HEADERS = security_headers(no_store=True)


class AdminRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def with_headers(request: Request) -> Response:
            response = await handle(request)
            for name, value in HEADERS.items():
                response.headers.setdefault(name, value)
            return response

        return with_headers
