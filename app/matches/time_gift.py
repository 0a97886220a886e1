"""Give time: a player adds 15 seconds to the opponent's real-time clock.

A courtesy (an opponent's connection dropped, a long think in a won game), as
the lichess player knows it. Logged as `give_time` by the giver, so every client
hears it and its clock figures include it; it changes neither the position nor
whose turn it is (an action chosen before it still lands, mover.py's TALK).
"""

from __future__ import annotations

from app.kernel.errors import BadRequest, Forbidden

from .keeper import MatchKeeper
from .record import COLOURS, Record, other
from .shapes import MatchState

GIFT_SECONDS = 15


class TimeGifts:
    def __init__(self, keeper: MatchKeeper) -> None:
        self.keeper = keeper

    async def give(self, match_id: str, colour: str, to: str | None = None) -> MatchState:
        """GIFT_SECONDS more on the clock of `to` (the opponent when None)."""
        if to is not None and to not in COLOURS:
            raise BadRequest('to is "white" or "black"')
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> None:
            keeper.guard_running(rec)
            if to == colour:
                raise Forbidden("time is given to the opponent, never to yourself")
            if rec.clock is None:
                raise Forbidden("this match has no clock: there is no time to give")
            if rec.clock.kind != "realtime":
                raise Forbidden("a correspondence clock is full again after each move: time is given "
                                "only on a real-time clock")
            rec.clock.give(other(colour), GIFT_SECONDS * 1000)
            if rec.clock.running is not None:  # the flag falls later (in setup the setup time rules)
                rec.due_at_ms = rec.clock.deadline()
            keeper.log(rec, colour, {"type": "give_time", "seconds": GIFT_SECONDS}, False, now)

        rec, _ = await keeper.mutate(match_id, decide)
        return keeper.present(rec)
