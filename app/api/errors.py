"""Every error as the contract's JSON `{"error", "detail"}`; never a 500 for bad input."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app.db.outage import DATABASE_ERRORS, RETRY_AFTER_SECONDS, OutageLog, database_unavailable
from app.kernel.errors import RateLimited, ServiceError, printable

from .head import ASKED_HEAD
from .schemas import ErrorBody

log = logging.getLogger(__name__)

_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 408: "request_timeout", 409: "conflict", 413: "too_large",
               415: "unsupported_media_type",
               422: "bad_request",
               429: "rate_limited", 503: "unavailable"}

UNAVAILABLE = ("the database is out of reach for a moment; retry "
               "(an action with the same id, which never applies twice)")

_EXAMPLES: dict[int, dict[str, dict[str, Any]]] = {
    400: {"bad_request": {"error": "bad_request", "detail": "body.version: Field required"}},
    401: {"unauthorized": {"error": "unauthorized", "detail": "this token holds no seat of this match"}},
    403: {"not_your_turn": {"error": "not_your_turn", "detail": "it is black's turn, not white's"},
          "csrf_failed": {"error": "csrf_failed", "detail": "a change made with the session cookie needs the "
                                                            "header X-CSRF-Token (the page's csrf-token)"},
          "insufficient_scope": {"error": "insufficient_scope",
                                 "detail": "this account token lacks the 'play' scope this call needs"},
          "forbidden": {"error": "forbidden", "detail": "the match waits for an opponent to join"},
          "rating_out_of_range": {"error": "rating_out_of_range", "detail": (
              "this match asks for a rating within \u00b1200 of Ada's 1500 (1300 to 1700): yours in "
              "Standard is 1742")}},
    404: {"not_found": {"error": "not_found", "detail": "no match 'x1y2z3'"}},
    409: {"stale_version": {"error": "stale_version",
                            "detail": "the match is at version 18; reload it and act on that", "version": 18},
          "seat_taken": {"error": "seat_taken", "detail": "both seats of this match are taken"},
          "name_taken": {"error": "name_taken", "detail": (
              "name 'ADA' looks like the account 'Ada''s …: sign in as Ada, or choose another name")},
          "match_over": {"error": "match_over", "detail": "the match is over"},
          "id_taken": {"error": "id_taken", "used_on": 4, "detail": (
              "the action id 'c-1' was used on version 4 for another action of this match: an id names "
              "one action; give a new action a new id")},
          "no_takeback": {"error": "no_takeback", "detail": "no takeback is asked in this match"},
          "match_running": {"error": "match_running",
                            "detail": "the match is still running: its positions are judged only once it is over"},
          "request_in_flight": {"error": "request_in_flight", "detail": (
              "a request with this Idempotency-Key is still being answered; resend it in a moment")}},
    415: {"unsupported_media_type": {"error": "unsupported_media_type", "detail": (
        "the body must be JSON, sent with Content-Type: application/json; this one came with Content-Type: text/plain")}},
    422: {"illegal_action": {"error": "illegal_action",
                             "detail": "R4: a construct on its own backrow cannot reach the opponent's backrow"},
          "idempotency_key_reused": {"error": "idempotency_key_reused", "detail": (
              "this Idempotency-Key was used for another request (another body or call) within the day: "
              "use a new key for a new request")}},
    429: {"rate_limited": {"error": "rate_limited", "detail": "too many writes; try again in 3 s"},
          "too_many_bot_matches": {"error": "too_many_bot_matches", "limit": 5, "detail": (
              "this address already has 5 running bot matches, the most allowed (BOT_MATCHES_PER_ADDRESS); "
              "finish or resign one of them first")},
          "too_many_places": {"error": "too_many_places", "limit": 8, "detail": (
              "this address already holds 8 places in the pools, the most allowed (POOL_PLACES_PER_ADDRESS); "
              "leave one, or wait to be paired")}},
    503: {"unavailable": {"error": "unavailable", "detail": UNAVAILABLE}},
}
_DESCRIPTIONS = {400: "Malformed JSON, a body that does not fit the schema, or unknown fields",
                 401: "Missing or wrong seat token, or an account token unknown, revoked or of a closed account",
                 403: "Not this seat's turn, not allowed now, an account token without the scope, "
                      "no X-CSRF-Token with the session cookie, a seat the account does not hold, "
                      "or a rating outside the range an open match asks for",
                 404: "No such match", 409: "Stale version, seat taken, match over, action id taken, a match still "
                                            "running, no takeback to accept, or a request with this "
                                            "Idempotency-Key still being answered",
                 415: "A body that is not sent as JSON (Content-Type: application/json)",
                 422: "An action the rules forbid (the detail names the rule), or an Idempotency-Key "
                      "used for another request",
                 429: "Too many writes (see Retry-After), too many running bot matches, "
                      "or too many places in the pools",
                 503: "The database is out of reach for a moment; retry after Retry-After"}


# What each error code means, for a route's own description of the codes it
# can answer (one pasted text on every route said too much).
_MEANINGS = {
    "not_your_turn": "it is the other seat's turn",
    "csrf_failed": "a change made with the session cookie lacks X-CSRF-Token",
    "insufficient_scope": "an account token without the scope this call needs",
    "forbidden": "not allowed now (the detail says why)",
    "rating_out_of_range": "a rating outside the range the open match asks for",
    "stale_version": "the action was chosen on an older version (the answer's `version` is the current one)",
    "seat_taken": "both seats are taken",
    "name_taken": "a guest's name alike to an account's",
    "match_over": "the match is over",
    "id_taken": "the action id was used before for another action, or for the same action on another "
                "version (`used_on`: the version it was used on)",
    "match_running": "the match is still running",
    "no_takeback": "no takeback is asked (any more): answered, withdrawn, or lapsed at a choice played",
    "request_in_flight": "a request with this Idempotency-Key is still being answered",
    "illegal_action": "an action the rules forbid (the detail names the rule)",
    "idempotency_key_reused": "an Idempotency-Key used for another request",
    "rate_limited": "too many writes (see Retry-After)",
    "too_many_bot_matches": "too many running bot matches from this address or account",
    "too_many_places": "too many places in the pools held by this address or account",
}


def responses(*statuses: int, codes: tuple[str, ...] = (),
              own: dict[int, dict[str, str]] | None = None) -> dict[int | str, dict[str, Any]]:
    """OpenAPI documentation of the errors a route may answer, with examples
    (503 on every route: each one reads or writes the database). With `codes`,
    a status of several codes lists only those of them the route can answer,
    and says what each means; `own` gives a status a wing's own codes, each with
    an example detail (beside the status's one shared code, else instead of the shared ones)."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in (*statuses, 503):
        examples = _EXAMPLES[status]
        description = _DESCRIPTIONS[status]
        mine = [code for code in examples if code in codes]
        if codes and len(examples) > 1 and mine:
            examples = {code: examples[code] for code in mine}
            description = "; ".join(f"`{code}`: {_MEANINGS[code]}" for code in mine)
        if own and status in own:  # beside a status's one shared code (400 bad_request), else instead
            kept = examples if len(examples) == 1 else {}
            mine_own = own[status]
            examples = {**kept, **{code: {"error": code, "detail": detail} for code, detail in mine_own.items()}}
            description = "; ".join([description] * bool(kept) + [f"`{code}`: {detail}"
                                                                  for code, detail in mine_own.items()])
        out[status] = {
            "model": ErrorBody, "description": description,
            "content": {"application/json": {"examples": {
                name: {"value": value} for name, value in examples.items()}}},
        }
    return out


def error_response(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    detail = printable(detail)  # a validation message may quote a field name the client sent
    headers = None
    if "retry_after" in extra:
        headers = {"Retry-After": str(extra.pop("retry_after"))}
    if status == 401:  # what credential would do (RFC 9110); a refused account token says more (caller.py)
        headers = {**(headers or {}), "WWW-Authenticate": "Bearer"}
    return JSONResponse({"error": code, "detail": detail, **extra}, status_code=status, headers=headers)


def service_error_response(exc: ServiceError) -> JSONResponse:
    extra = dict(exc.extra)
    if isinstance(exc, RateLimited):
        extra["retry_after"] = exc.retry_after
    response = error_response(exc.status, exc.code, exc.detail, **extra)
    headers = getattr(exc, "headers", None)  # WWW-Authenticate, for a refused account token (caller.py)
    if headers:
        response.headers.update(headers)
    return response


def internal_error_response() -> JSONResponse:
    return error_response(500, "internal_error", "the server failed; the error is logged")


def unexpected_error_response(exc: BaseException, where: str, outage: OutageLog) -> JSONResponse:
    """503 when the database is out of reach (a client may retry), else 500 (a bug)."""
    if database_unavailable(exc):
        outage.failed(where, exc)  # one line per outage, not one per request
        return error_response(503, "unavailable", UNAVAILABLE, retry_after=RETRY_AFTER_SECONDS)
    log.error("unhandled error on %s", where, exc_info=exc)
    return internal_error_response()


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "body"


def _document_400_not_422(app: FastAPI) -> None:
    """FastAPI documents a 422 HTTPValidationError on every route that validates
    input; this server answers those 400 bad_request with the contract's body,
    and a body not sent as JSON 415 on every route that takes a body."""
    make = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = make()
        bad_request = {
            "description": _DESCRIPTIONS[400],
            "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/ErrorBody"},
                "examples": {name: {"value": value} for name, value in _EXAMPLES[400].items()}}},
        }
        not_json = {
            "description": _DESCRIPTIONS[415],
            "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/ErrorBody"},
                "examples": {name: {"value": value} for name, value in _EXAMPLES[415].items()}}},
        }
        for item in schema.get("paths", {}).values():
            for op in item.values():
                answers = op.get("responses", {})
                if "HTTPValidationError" in str(answers.get("422", "")):
                    del answers["422"]
                    answers.setdefault("400", bad_request)
                if "requestBody" in op:  # a body not sent as JSON (the `invalid` handler below)
                    answers.setdefault("415", not_json)
        components = schema.get("components", {}).get("schemas", {})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _methods_of(request: Request) -> list[str]:
    """The methods some route takes at the request's path (several routes may
    share a path, one per method: GET and POST …/actions): each one the router
    would fully match there."""
    taken = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        scope = {**request.scope, "method": method, "type": "http"}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            taken.append(method)
    if "GET" in taken and "HEAD" not in taken:
        taken.insert(1 + taken.index("GET"), "HEAD")  # answered as a GET without its body (head.py)
    return taken


def _outage(request: Request) -> OutageLog:
    """The outage log of the parts the app serves (app/main.py's `serve`)."""
    outage: OutageLog = request.app.state.parts.outage
    return outage


def install(app: FastAPI) -> None:
    _document_400_not_422(app)

    @app.exception_handler(ServiceError)
    async def service_error(_: Request, exc: ServiceError) -> JSONResponse:
        return service_error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        if isinstance(exc.body, bytes | bytearray) and exc.body:
            # FastAPI reads a body it was not told is JSON (another Content-Type, or
            # none) as bytes, which the schema then refuses as "not a valid
            # dictionary": the content type is to blame, so say so.
            kind = request.headers.get("content-type", "").split(";")[0].strip()[:60]
            shown = f"Content-Type: {kind}" if kind else "no Content-Type"
            return error_response(415, "unsupported_media_type",
                                  f"the body must be JSON, sent with Content-Type: application/json; "
                                  f"this one came with {shown}")
        problems = []
        for err in exc.errors()[:5]:
            if err.get("type") == "json_invalid":
                problems.append("the body is not valid JSON")
            elif err.get("type") == "extra_forbidden":
                problems.append(f"{_where(err.get('loc', ()))}: unknown field")
            else:
                problems.append(f"{_where(err.get('loc', ()))}: {err.get('msg', 'invalid')}")
        return error_response(400, "bad_request", "; ".join(problems) or "the request is malformed")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "error")
        detail = exc.detail if isinstance(exc.detail, str) else code
        if exc.status_code == 404 and detail == "Not Found":
            detail = "no such path"
        elif exc.status_code == 405 and detail == "Method Not Allowed":
            detail = f"this path does not take {'HEAD' if request.scope.get(ASKED_HEAD) else request.method}"
        response = error_response(exc.status_code, code, detail)
        if exc.headers:
            response.headers.update(exc.headers)
        if exc.status_code == 405:  # every method of the path, not only the first route's
            response.headers["allow"] = ", ".join(_methods_of(request))
        return response

    async def database_error(request: Request, exc: Exception) -> JSONResponse:
        method = getattr(request, "method", "WEBSOCKET")  # a handler may be handed a WebSocket
        return unexpected_error_response(exc, f"{method} {request.url.path}", _outage(request))

    # Handled here rather than by the catch-all below, which answers and then
    # re-raises (so the server logs a crash): a database out of reach is no crash.
    for kind in DATABASE_ERRORS:
        app.add_exception_handler(kind, database_error)

    @app.exception_handler(Exception)
    async def bug(request: Request, exc: Exception) -> JSONResponse:
        return unexpected_error_response(exc, f"{request.method} {request.url.path}", _outage(request))
