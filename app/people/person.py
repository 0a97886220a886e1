"""What concerns a person, read from the database: their challenges and "your
matches", for their page channel and the home page.

A person is a signed-in account, or a guest known by the seats this browser
holds (each proved by its token: only a seat whose token hashes to the kept
hash counts, so a guest learns nothing of a match by naming it). Matches
awaiting the person's action come first; each shows the opponent, the clock
(real-time: the time left on each side; correspondence: the time left to move)
and whether the person is to move.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.challenges.service import Challenges
from app.db.models import matches, seats
from app.kernel.errors import NotFound
from app.matches.seats import hash_token
from app.notify import Inbox
from app.tournaments import Arenas

MOST_MATCHES = 50  # a person's running matches shown at once (and seats a guest may name)
RUNNING = ("waiting", "active")


@dataclass(frozen=True, slots=True)
class Who:
    """A person: an account (its id) and/or the guest seats the browser holds."""

    account_id: int | None
    held: tuple[tuple[str, str], ...] = ()  # (match id, seat token)

    @property
    def anyone(self) -> bool:
        return self.account_id is not None or bool(self.held)


class Person:
    def __init__(self, engine: AsyncEngine, challenges: Challenges,
                 read_match: Callable[[str], Awaitable[Mapping[str, Any]]], arenas: Arenas | None = None) -> None:
        self.engine, self.challenges, self.read_match = engine, challenges, read_match
        self.arenas = arenas  # the arenas the person plays in, and the arena of each game
        self.inbox = Inbox(engine)

    async def seats_of(self, who: Who) -> dict[str, str]:
        """{match id: colour} of the person's seats in matches not over."""
        found: dict[str, str] = {}
        async with self.engine.connect() as conn:
            if who.account_id is not None:
                rows = (await conn.execute(
                    select(seats.c.match_id, seats.c.colour).join(matches, matches.c.id == seats.c.match_id)
                    .where(seats.c.account_id == who.account_id, matches.c.status.in_(RUNNING))
                    .order_by(matches.c.created_at.desc()).limit(MOST_MATCHES))).all()
                found.update({r.match_id: r.colour for r in rows})
            held = dict(who.held[:MOST_MATCHES])
            if held:
                proved = (await conn.execute(
                    select(seats.c.match_id, seats.c.colour, seats.c.token_hash)
                    .join(matches, matches.c.id == seats.c.match_id)
                    .where(seats.c.match_id.in_(list(held)), matches.c.status.in_(RUNNING)))).all()
                for r in proved:
                    token = held[r.match_id]
                    if r.token_hash and hmac.compare_digest(r.token_hash, hash_token(token)):
                        found.setdefault(r.match_id, r.colour)
        return found

    async def matches(self, who: Who) -> list[dict[str, Any]]:
        """Your matches, those awaiting your action first."""
        shown = []
        for match_id, colour in (await self.seats_of(who)).items():
            try:
                state = await self.read_match(match_id)
            except NotFound:
                continue
            if state["status"] not in RUNNING:
                continue  # it ended since the seats were read
            other = state["players"]["black" if colour == "white" else "white"]
            shown.append({
                "id": match_id, "colour": colour, "status": state["status"],
                "variant": state["options"].get("variant", "standard"),
                "opponent": other["name"], "opponent_computer": bool(other.get("computer")),
                "opponent_title": other.get("title"),  # "BOT": a bot account
                "rated": bool(state.get("rated")),
                "awaiting": state["status"] == "active" and state.get("to_move") == colour,
                "phase": state.get("phase"), "clock": state.get("clock"),
                "time_control": state["options"].get("time_control"), "version": state["version"],
            })
        shown.sort(key=lambda m: not m["awaiting"])  # stable: newest first within each group
        arena_of = await self.arenas.arena_of_games([m["id"] for m in shown]) if self.arenas and shown else {}
        for m in shown:
            m["tournament"] = arena_of.get(m["id"])  # an arena game's arena (null: none)
        return shown

    async def now(self, who: Who) -> dict[str, Any]:
        """The channel's message: everything a page shows of the person, as it is now."""
        mine = await self.matches(who)
        challenges = await self.challenges.of(who.account_id) if who.account_id is not None else {"in": [], "out": []}
        arenas = (await self.arenas.of_person(who.account_id)
                  if self.arenas is not None and who.account_id is not None else [])
        message = {"type": "person", "challenges": challenges, "matches": mine,
                   "awaiting": sum(m["awaiting"] for m in mine), "tournaments": arenas}
        if who.account_id is not None:  # the bell: a guest has no inbox
            latest, unread = await self.inbox.latest(who.account_id)
            message["inbox"] = {"unread": unread, "latest": latest}
        return message
