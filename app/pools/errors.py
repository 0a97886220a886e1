"""Why quick pairing refuses a call: each is one contract error (docs/api.md)."""

from __future__ import annotations

from app.kernel.errors import ServiceError


class NoSuchPool(ServiceError):
    status, code = 404, "no_such_pool"


class NotWaiting(ServiceError):
    """Asked to wait, or asked for a pairing, by a player in no pool."""

    status, code = 409, "not_waiting"


class NoTicket(ServiceError):
    """Waiting and leaving need the guest's ticket, or an account."""

    status, code = 401, "unauthorized"
    headers = {"WWW-Authenticate": "Bearer"}
