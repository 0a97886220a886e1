"""Why an arena refuses a call: each is one contract error (docs/api.md)."""

from __future__ import annotations

from app.kernel.errors import BadRequest, ServiceError


class NoSuchTournament(ServiceError):
    status, code = 404, "no_such_tournament"


class TournamentOver(ServiceError):
    """Joined, or withdrawn from, once the arena has ended."""

    status, code = 409, "tournament_finished"


class NotInTournament(ServiceError):
    status, code = 409, "not_joined"


class NoSuchPlayer(ServiceError):
    status, code = 404, "no_such_player"


class Removed(ServiceError):
    """Joining an arena an admin removed the account from."""

    status, code = 403, "removed_from_tournament"


class Refused(BadRequest):
    """A new arena's or Swiss event's bad field: 400, the field named in the body's `field`."""

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(detail, field=field)
