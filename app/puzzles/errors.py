"""Why a puzzle call is refused."""

from __future__ import annotations

from app.kernel.errors import ServiceError


class NoSuchPuzzle(ServiceError):
    status, code = 404, "not_found"


class NoPuzzles(ServiceError):
    """The server holds no puzzle at all."""

    status, code = 404, "no_puzzles"


class IllegalMove(ServiceError):
    """A well-formed action the rules forbid in the puzzle's position; the detail names the rule."""

    status, code = 422, "illegal_action"


class Unreadable(ServiceError):
    """An action that is not of the contract's shape (as the match API answers it)."""

    status, code = 400, "bad_request"


class TooMany(ServiceError):
    """More actions than the puzzle asks for."""

    status, code = 422, "too_many_actions"
