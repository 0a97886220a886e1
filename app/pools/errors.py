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


class TooManyPlaces(ServiceError):
    """The address (or the account) holds as many places in the pools as
    POOL_PLACES_PER_ADDRESS (or POOL_PLACES_PER_ACCOUNT) allows: one client
    must not fill the pools. A place frees when it is paired, left, or its
    lease runs out (Retry-After: the lease)."""

    status, code = 429, "too_many_places"

    def __init__(self, limit: int, per: str, retry_after: int) -> None:
        super().__init__(
            f"this {per} already holds {limit} places in the pools, the most allowed "
            f"(POOL_PLACES_PER_{per.upper()}); leave one, or wait to be paired", limit=limit)
        self.headers = {"Retry-After": str(retry_after)}
