"""What a change of a match tells its players who are not looking: the notices
saved with the change, in its transaction (store.save).

- `your_turn`: a correspondence match's move passed to a player (as lichess,
  only where a player may well be away between moves);
- `match_ended`: to each player, but the one whose own act ended it (a
  resignation, an accepted draw: they know);
- `rematch_offered`: to the one offered.

Only accounts are told (a guest has no inbox), never a computer's seat.
"""

from __future__ import annotations

from typing import Any

from app.notify import Notice
from app.notify.kinds import MATCH_ENDED, REMATCH_OFFERED, YOUR_TURN

from .record import Record, other


def _person(rec: Record, colour: str) -> int | None:
    seat = rec.seats.get(colour)
    if seat is None or seat.bot is not None or seat.title == "BOT" or seat.account_id is None:
        return None
    return seat.account_id


def _about(rec: Record, colour: str) -> dict[str, Any]:
    opponent = rec.seats.get(other(colour))
    return {"match_id": rec.id, "colour": colour, "opponent": opponent.name if opponent else None,
            "variant": rec.options.get("variant", "standard")}


def _outcome(rec: Record, colour: str) -> str:
    result: dict[str, Any] = dict(rec.result or {})
    if result.get("reason") == "aborted":
        return "aborted"
    winner = result.get("winner")
    return "draw" if winner is None else ("won" if winner == colour else "lost")


def notices_of(before: Record, after: Record) -> list[Notice]:
    found: list[Notice] = []
    control = after.options.get("time_control") or {}
    to_move = after.seat_to_move()
    if (control.get("type") == "correspondence" and to_move is not None and after.status == "active"
            and (to_move != before.seat_to_move() or before.status != "active")):
        account = _person(after, to_move)
        if account is not None:
            found.append(Notice(account, YOUR_TURN, _about(after, to_move)))
    if after.status == "finished" and before.status != "finished":
        ender = next((e.player for e in reversed(after.entries) if not e.automatic), None)
        for colour in after.seats:
            account = _person(after, colour)
            if account is not None and colour != ender:
                found.append(Notice(account, MATCH_ENDED, {**_about(after, colour),
                                                           "outcome": _outcome(after, colour)}))
    for entry in after.entries:
        if entry.action.get("type") == "rematch_offer" and entry.player is not None:
            account = _person(after, other(entry.player))
            if account is not None:
                found.append(Notice(account, REMATCH_OFFERED, _about(after, other(entry.player))))
    return found
