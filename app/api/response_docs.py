"""What every answer carries, in the OpenAPI description:
the headers the middlewares add, and the refusals they answer before a route
is reached, which FastAPI cannot see on the routes themselves.

- `X-Request-ID` on every answer (app/ops/outermost.py);
- `Retry-After` on every 429 and 503, `WWW-Authenticate` on every 401 (errors.py);
- 413 `too_large` and 408 `request_timeout` on every call that takes a body
  (app/api/body_limit.py: a body over the limit, or one that does not arrive);
- 405 `method_not_allowed`, answered for a method a path does not take, with
  `Allow`: no operation of the description answers it to its own method, so it
  is a reusable response of the components (`MethodNotAllowed`), named in the
  description's text, rather than a status listed on every call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

_ERROR = {"$ref": "#/components/schemas/ErrorBody"}
REQUEST_ID = {"description": "the request's id: yours when you sent a valid one, else the server's; "
                             "quote it when you report a problem", "schema": {"type": "string"}}
RETRY_AFTER = {"description": "seconds to wait before trying again", "schema": {"type": "integer", "minimum": 0}}
WWW_AUTHENTICATE = {"description": "`Bearer`: the credential that would do", "schema": {"type": "string"}}
ALLOW = {"description": "the methods the path takes", "schema": {"type": "string"}, "example": "GET, HEAD, POST"}


def _error(description: str, code: str, detail: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {
        "schema": _ERROR, "examples": {code: {"value": {"error": code, "detail": detail}}}}}}


TOO_LARGE = _error("The body is over the server's MAX_BODY_BYTES (64 KiB by default); the connection is closed",
                   "too_large", "the request body is over 65536 bytes; no request needs more")
TOO_SLOW = _error("The body did not arrive whole within the server's BODY_TIMEOUT_SECONDS",
                  "request_timeout", "the request body did not arrive within 10 s")
METHOD_NOT_ALLOWED = {**_error("The path does not take this method; `Allow` lists those it takes",
                               "method_not_allowed", "this path does not take PUT"),
                      "headers": {"Allow": ALLOW}}


def describe(schema: dict[str, Any]) -> dict[str, Any]:
    """Adds the headers and refusals above to a generated description (idempotent)."""
    for item in schema.get("paths", {}).values():
        for method, op in item.items():
            answers = op.setdefault("responses", {})
            if method in ("post", "put", "patch"):
                answers.setdefault("408", TOO_SLOW)
                answers.setdefault("413", TOO_LARGE)
            for status, answer in answers.items():
                headers = answer.setdefault("headers", {})
                headers.setdefault("X-Request-ID", REQUEST_ID)
                if status in ("429", "503"):
                    headers.setdefault("Retry-After", RETRY_AFTER)
                if status == "401":
                    headers.setdefault("WWW-Authenticate", WWW_AUTHENTICATE)
    components = schema.setdefault("components", {})
    components.setdefault("responses", {}).setdefault("MethodNotAllowed", METHOD_NOT_ALLOWED)
    return schema


def amend_openapi(app: FastAPI, amend: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """/openapi.json as FastAPI makes it (and as the amendments before this one
    left it), then `amend` on it."""
    make = app.openapi

    def openapi() -> dict[str, Any]:
        return amend(make())

    app.openapi = openapi  # type: ignore[method-assign]


def install(app: FastAPI) -> None:
    amend_openapi(app, describe)
