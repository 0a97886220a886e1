"""Many matches made at once, each for two waiting players (an arena's round of
pairing, app/tournaments): one read of the seats' ratings and one transaction
for all of them, instead of a read and a transaction per match, which on a
round of a hundred games cost seconds in round trips alone.

Every match is built as `pairing.pair` builds one; all are inserted, then the
caller's `then` claims their players in the same transaction and answers the
matches it could not claim (a player another process paired first): those
alone are taken out again before the commit, so a lost pair costs its own
match, never the round's. The others are announced one by one, as `pair`
announces its match.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import matches
from app.db.models import seats as seats_table

from .keeper import MatchKeeper
from .lobby import Lobby, rated_seats
from .pairing import Paired, Player, announce, made
from .seats import Seats

# Claims the players of the matches (in the order given) in the transaction that
# inserts them; answers the ids of those it could not claim (nothing is written for them).
ThenAll = Callable[[AsyncConnection, Sequence[Paired]], Awaitable[Collection[str]]]


async def pair_all(keeper: MatchKeeper, seats: Seats, lobby: Lobby, options: dict[str, Any],
                   pairs: Sequence[tuple[Player, Player]], rated: bool, then: ThenAll) -> list[Paired | None]:
    """A running match for each pair of `players` (colours drawn at random),
    made as `pairing.pair` makes one; answers each pair's match, or None for a
    pair `then` refused."""
    if not pairs:
        return []
    now = keeper.now_ms()
    built = [made(keeper, lobby, options, players, rated, None, now) for players in pairs]
    # One read for every seat's rating: the keys only tell the seats apart.
    every_seat = {f"{n}:{c}": seat for n, (rec, _) in enumerate(built) for c, seat in rec.seats.items()}
    await rated_seats(keeper, every_seat, built[0][0].options["variant"])
    async with keeper.engine.begin() as conn:
        await conn.execute(matches.insert(), [rec.new_row() for rec, _ in built])
        await conn.execute(seats_table.insert(), [rec.seat_row(c) for rec, _ in built for c in rec.seats])
        lost = set(await then(conn, [paired for _, paired in built]))
        if lost:  # their matches taken out again: nothing of a lost pair is kept
            await conn.execute(delete(seats_table).where(seats_table.c.match_id.in_(sorted(lost))))
            await conn.execute(delete(matches).where(matches.c.id.in_(sorted(lost))))
    for rec, _ in built:
        if rec.id not in lost:
            await announce(keeper, seats, rec, now)
    return [None if paired.match_id in lost else paired for _, paired in built]
