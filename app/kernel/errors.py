"""Why a call is refused, for every wing alike: each error maps to one contract error
(`{"error": code, "detail": sentence}` with the HTTP status it carries). The
refusals of one wing alone (a match, a chat line, a challenge) are its own
subclasses of `ServiceError`, in that wing."""

from __future__ import annotations

from typing import Any


def printable(text: str) -> str:
    """`text` with what UTF-8 cannot encode (a lone surrogate a client sent in
    JSON, `"\\ud800"`) written as its escape: an answer quoting it still encodes."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, detail: str, **extra: Any) -> None:
        detail = printable(detail)  # it may quote what a client sent
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "detail": self.detail, **self.extra}


class BadRequest(ServiceError):
    status, code = 400, "bad_request"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class RateLimited(ServiceError):
    status, code = 429, "rate_limited"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many writes; try again in {retry_after} s")
        self.retry_after = retry_after
