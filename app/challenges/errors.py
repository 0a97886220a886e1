"""Why a challenge is refused: each maps to one contract error (docs/api.md, "Challenges")."""

from __future__ import annotations

from app.kernel.errors import ServiceError


class NoSuchPlayer(ServiceError):
    status, code = 404, "no_such_player"


class NoSuchChallenge(ServiceError):
    status, code = 404, "no_such_challenge"


class ChallengeYourself(ServiceError):
    status, code = 400, "challenge_yourself"


class PlayerClosed(ServiceError):
    """The challenged account is closed: nobody plays as it any more."""

    status, code = 403, "account_closed"


class NotYourChallenge(ServiceError):
    """Only the challenged accepts or declines, only the challenger cancels."""

    status, code = 403, "not_your_challenge"


class ChallengeOver(ServiceError):
    """Accepted, declined, canceled or expired already: nothing more to do."""

    status, code = 409, "challenge_over"


class TooManyChallenges(ServiceError):
    status, code = 429, "too_many_challenges"
