"""An open match that asks for a rating range (seeks): "±200" at
create, and at join only an account whose rating in the match's variant is
within that many points of the creator's takes the free seat.

Both ratings are the ones the seats show (app.matches.record.seat_rating: as
stored after each player's last rated match), the creator's as the match
shows it, the joiner's as read at the join. A guest has no rating, so no
range lets one in; a creator must be an account, and play a person (a
computer level joins at once: no range to ask of it).
"""

from __future__ import annotations

from typing import Any

from app.kernel.errors import BadRequest, Forbidden

from .errors import OutOfRange
from .record import COLOURS, Record, SeatInfo

RANGE_MIN, RANGE_MAX = 50, 1000  # the ranges a creator may ask for, in rating points


def checked_range(options: dict[str, Any], account_id: int | None, bot: str | None) -> int | None:
    """The creator's range, refused when it cannot be one."""
    asked = options.get("rating_range")
    if asked is None:
        return None
    if isinstance(asked, bool) or not isinstance(asked, int) or not RANGE_MIN <= asked <= RANGE_MAX:
        raise BadRequest(f"options.rating_range is a whole number of rating points, {RANGE_MIN} to {RANGE_MAX}")
    if account_id is None:
        # As a guest's `rated`: refused for who asks (403), not for the body's shape.
        raise Forbidden("options.rating_range needs a rating to be around: sign in to ask for one")
    if bot is not None:
        raise BadRequest("options.rating_range is for a match against a person: a computer level joins at once")
    return asked


def guard_join(rec: Record, joiner: SeatInfo, variant: str) -> None:
    """Refuse `joiner` (the new seat, its rating read already) when the match
    asks for a range its rating is outside; the detail says the range and why."""
    asked = rec.options.get("rating_range")
    if asked is None:
        return
    creator = next((rec.seats[c] for c in COLOURS if c in rec.seats and rec.seats[c] is not joiner), None)
    centre = creator.rating["rating"] if creator is not None and creator.rating else None
    if centre is None:  # a range whose creator shows no rating: nothing to be within
        return
    who = creator.account or creator.name if creator is not None else "the creator"
    wanted = f"this match asks for a rating within \u00b1{asked} of {who}'s {centre} ({centre - asked} to {centre + asked})"
    if joiner.account_id is None or not joiner.rating:
        raise OutOfRange(f"{wanted}: sign in to join it (a guest has no rating)")
    mine = int(joiner.rating["rating"])
    if abs(mine - centre) > asked:
        raise OutOfRange(f"{wanted}: yours in {variant} is {mine}")
