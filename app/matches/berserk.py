"""Berserk: a player halves their own real-time clock before their first turn,
for a point more if they win (an arena's rule, app/tournaments; the match
itself knows only the clock and the log).

As on lichess, only before the player's own first action (a place, a pass or a
remove: the setup is no turn), once per player. Unlike lichess the increment
stays: a game of Magery is many more turns than a chess game is moves, and a
berserk player with neither half their time nor an increment would lose the
short arenas on time by force. Logged as `berserk` by the player, so every
socket and stream hears the halved clock as any other change of the match.
"""

from __future__ import annotations

from sqlalchemy import select

from app.db.models import actions
from app.kernel.errors import Forbidden, ServiceError

from .keeper import MatchKeeper
from .record import Record
from .shapes import MatchState

# Below this on the clock, halving would leave too little to play a game:
# refused (30 s halved is 15 s, the least a berserk player keeps).
FLOOR_MS = 30_000
OWN_TURNS = ("place", "pass", "remove")


class BerserkTooLate(Forbidden):
    status, code = 403, "berserk_too_late"


class AlreadyBerserk(ServiceError):
    status, code = 409, "already_berserk"


class NotEnoughTime(Forbidden):
    status, code = 403, "berserk_clock_too_low"


class Unclocked(Forbidden):
    status, code = 403, "berserk_unclocked"


class Berserks:
    def __init__(self, keeper: MatchKeeper) -> None:
        self.keeper = keeper

    async def go(self, match_id: str, colour: str) -> MatchState:
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> None:
            keeper.guard_running(rec)
            if rec.clock is None:
                raise Unclocked("this match has no clock: there is nothing to halve")
            if rec.clock.kind != "realtime":
                raise Unclocked("berserk halves a real-time clock; a correspondence clock is full again "
                                "after every move")
            done = await self._done(rec, colour)
            if "berserk" in done:
                raise AlreadyBerserk(f"{colour} went berserk already: once a game")
            if done & set(OWN_TURNS):
                raise BerserkTooLate(f"{colour} has played a turn already: berserk is only before your "
                                     "first place, pass or remove")
            left = rec.clock.left(colour, now)
            if left < FLOOR_MS:
                raise NotEnoughTime(f"{colour}'s clock shows {max(0, left) // 1000} s: berserk needs at least "
                                    f"{FLOOR_MS // 1000} s to halve")
            rec.clock.give(colour, -(left - left // 2))
            if rec.clock.running is not None:  # the flag falls sooner
                rec.due_at_ms = rec.clock.deadline()
            keeper.log(rec, colour, {"type": "berserk"}, False, now)

        rec, _ = await keeper.mutate(match_id, decide)
        return keeper.present(rec)

    async def _done(self, rec: Record, colour: str) -> set[str]:
        """The kinds of entry `colour` has in the stored log (place, berserk, ...),
        and in the draft's unsaved entries."""
        kind = actions.c.action["type"].as_string()
        async with self.keeper.engine.connect() as conn:
            found = set((await conn.execute(
                select(kind).distinct().where(actions.c.match_id == rec.id, actions.c.player == colour,
                                              kind.in_([*OWN_TURNS, "berserk"])))).scalars())
        found |= {e.action.get("type") for e in rec.entries if e.player == colour}
        return {k for k in found if isinstance(k, str)}
