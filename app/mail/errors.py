"""Why an email call is refused: a status, a code and a sentence, as the API answers."""

from __future__ import annotations

from app.kernel.errors import ServiceError


class MailError(ServiceError):
    def __init__(self, status: int, code: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.field = status, code, field
        self.headers: dict[str, str] = {}
