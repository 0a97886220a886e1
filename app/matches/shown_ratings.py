"""A rated ending's change of ratings, shown: each seat's rating as
the match began and its change, on the record and in the ending's public
state, written in the transaction that ends the match (store.save), so the
end panel's "+12" and "−12" reach every client with the ending itself.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncConnection

from app.accounts import Change
from app.db.models import actions

from .record import Record, seat_rating


async def show_changes(conn: AsyncConnection, rec: Record, changes: list[Change]) -> None:
    """A rated ending's changes, shown: each seat's rating as the match began and
    its change, on the draft's seats (copies: the cached record stays as it was
    should the transaction fail) and in the ending's public state, whose log row
    is written again with them (the end panel's "+12")."""
    if not changes or not rec.entries:
        return
    last = rec.entries[-1]
    players = last.public["players"]
    for change in changes:
        rating, moved = seat_rating(None, None, change.before.rating, change.before.rd, change.after.rating)
        rec.seats[change.colour] = replace(rec.seats[change.colour], rating=rating, rating_change=moved)
        colour: Literal["white", "black"] = "white" if change.colour == "white" else "black"
        players[colour] = {**players[colour], "rating": rating, "rating_change": moved}
    last.public_json = None
    await conn.execute(actions.update().where(actions.c.match_id == rec.id, actions.c.version == last.version)
                       .values(public=last.public))
