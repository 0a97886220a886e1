"""Why the chat refuses a line or a call: each is one contract error (docs/api.md, "Chat")."""

from __future__ import annotations

from app.kernel.errors import ServiceError


class TooLong(ServiceError):
    status, code = 400, "bad_chat_line"


class GuestPhrasesOnly(ServiceError):
    status, code = 403, "guest_phrases_only"


class WrongRoom(ServiceError):
    status, code = 403, "wrong_room"


class ComputerOpponent(ServiceError):
    """A player's line in a match against the computer: it reads nothing."""

    status, code = 403, "computer_opponent"


class Muted(ServiceError):
    status, code = 403, "muted"


class Repeated(ServiceError):
    status, code = 409, "chat_repeated"


class Flooded(ServiceError):
    status, code = 429, "chat_flood"


class ReportKept(ServiceError):
    """A report withdrawn after its minute: it stands, in the admins' queue."""

    status, code = 409, "report_kept"
