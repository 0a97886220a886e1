"""An arena's rules of entry: who may join it, and how often an account may
make one.

- A password: kept as a salted PBKDF2 hash (never the password), compared in
  constant time, never shown; a reader sees only `"private": true`. An arena's
  password is a key shared with friends, not an account's secret: a short
  PBKDF2 does not hold the event loop as argon2 would, and a leaked table still
  costs a guesser real work per guess.
- A rating floor and ceiling, checked on joining against the joiner's Glicko-2
  rating in the arena's variant as the ratings table keeps it (ratings are kept
  per variant, not per clock); an account with no rated game there counts as a
  new player's 1500.
- Bot accounts only where the arena lets them in (not by default, as on lichess).
- An account makes at most MADE_PER_HOUR arenas an hour and MADE_PER_DAY a day.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from app.kernel.errors import ServiceError

PBKDF2_ROUNDS = 20_000
SCHEME = "pbkdf2"
MOST_PASSWORD = 64
LOWEST_RATING, HIGHEST_RATING = 0, 4000
MADE_PER_HOUR, MADE_PER_DAY = 3, 10
HOUR_MS, DAY_MS = 3_600_000, 86_400_000


class EntryRefused(ServiceError):
    """A join the arena's rules refuse: 403, the rule's field named in `field`."""

    status = 403

    def __init__(self, code: str, field: str, detail: str) -> None:
        super().__init__(detail, field=field)
        self.code = code


class TooManyArenas(ServiceError):
    """429: the account made its most arenas for now; Retry-After says when it may again."""

    status, code = 429, "too_many_arenas"

    def __init__(self, limit: int, window: str, retry_after: int) -> None:
        super().__init__(f"an account makes at most {limit} arenas a {window}: try again in {retry_after} s",
                         limit=limit, window=window, retry_after=retry_after,
                         retry_after_seconds=retry_after)  # the header's figure, in the body too


def hashed(password: str) -> str:
    salt = secrets.token_hex(16)
    return f"{SCHEME}${salt}${_digest(salt, password)}"


def _digest(salt: str, password: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8", "surrogatepass"), salt.encode(),
                               PBKDF2_ROUNDS).hex()


def opens(stored: str | None, given: str | None) -> bool:
    """Whether `given` is the arena's password (any answer opens one without)."""
    if stored is None:
        return True
    if not isinstance(given, str) or not given:
        return False
    scheme, _, rest = stored.partition("$")
    salt, _, digest = rest.partition("$")
    if scheme != SCHEME:
        return False
    return hmac.compare_digest(_digest(salt, given), digest)


def check_join(*, password_hash: str | None, password: str | None, min_rating: int | None,
               max_rating: int | None, bots: bool, rating: float, is_bot: bool) -> None:
    """Refuses a join the arena's rules forbid, naming the rule's field."""
    if password_hash is not None and not opens(password_hash, password):
        raise EntryRefused("wrong_password", "password", "this arena is private: its password is needed to join"
                           if not password else "wrong password for this arena")
    if is_bot and not bots:
        raise EntryRefused("bots_not_allowed", "bots", "this arena does not let bot accounts in")
    shown = round(rating)
    if min_rating is not None and shown < min_rating:
        raise EntryRefused("rating_outside", "min_rating",
                           f"your rating in this variant is {shown}, under the arena's floor of {min_rating}")
    if max_rating is not None and shown > max_rating:
        raise EntryRefused("rating_outside", "max_rating",
                           f"your rating in this variant is {shown}, over the arena's ceiling of {max_rating}")
