"""Players with a history, set up in the running server's database through the
account and match services themselves (the API has no sign-up of its own
here): for the profile, leaderboard and end-panel tests and screenshots.

The matches are played on a clock of their own, a day or so apart, so the
rating charts spread over weeks; the server reads them fresh from the database.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import update

from app.accounts import Accounts
from app.auth import PasswordChecks
from app.db import make_engine, upgrade
from app.db.account_models import ratings
from app.matches import MatchService
from tests.accounts.played import PASSWORD, act_once
from tests.conftest import make_settings

DAY = 86_400.0
PEOPLE = ("Ada", "Bea", "Cyrus", "Dee", "Eamon")
# Ada's matches, oldest first: (opponent, Ada's colour, the winner; None a draw).
ADAS = [("Bea", "white", "white"), ("Cyrus", "black", "black"), ("Dee", "white", "black"),
        ("Bea", "black", None), ("Eamon", "white", "white"), ("Cyrus", "white", "white"),
        ("Dee", "black", "black"), ("Bea", "white", "black"), ("Eamon", "black", "black"),
        ("Bea", "white", "white")]
# As if they had played for months: settled ratings for the leaderboard.
SETTLED = {"Bea": (1688.0, 64.0), "Cyrus": (1604.0, 71.0), "Dee": (1571.0, 88.0), "Eamon": (1502.0, 97.0)}


@dataclass(frozen=True, slots=True)
class Scene:
    last_match: str  # Ada's last rated match (won by White, Ada, against Bea)
    matches: list[str]


def _run(coro: Any) -> Any:
    """On a loop of its own, in a thread: Playwright's sync API holds this one's."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _played(database_url: str) -> Scene:
    engine = make_engine(database_url)
    try:
        # Made before any server opens the database: the matches are dated a month
        # back, so a live server's sweeper would find their join timeouts and clocks
        # fallen between two of these steps (it did, under load, in a CI proof run).
        await upgrade(engine)
        settings = make_settings(database_url)
        accounts = Accounts(engine, settings, PasswordChecks(2, 64))
        service = MatchService(engine, settings, bot_levels=("random", "greedy", "strong"))
        start = time.time() - 30 * DAY
        moment = [start]
        service.clock = lambda: moment[0]
        accounts.clock = lambda: moment[0]
        people = {name: await accounts.sign_up(name, PASSWORD, f"10.8.0.1-{name}") for name in PEOPLE}
        made = []
        for day, (rival, colour, winner) in enumerate(ADAS):
            moment[0] = start + (day * 2.7 + 1) * DAY
            white, black = (people["Ada"], people[rival]) if colour == "white" else (people[rival], people["Ada"])
            seated = await service.lobby.create({}, seat="white", name=white.name, rated=True, account_id=white.id)
            match_id = str(seated.match["id"])
            await service.lobby.join(match_id, name=black.name, account_id=black.id)
            for side in ("white", "black", "white", "black"):
                await act_once(service, match_id, side)
            if winner is None:
                await service.finisher.draw(match_id, "white", True)
                await service.finisher.draw(match_id, "black", True)
            else:
                await service.finisher.resign(match_id, "black" if winner == "white" else "white")
            made.append(match_id)
        # A computer level is a rated player too: Eamon loses to Strong.
        moment[0] = start + 28 * DAY
        seated = await service.lobby.create({}, seat="white", name="Eamon", rated=True,
                                            account_id=people["Eamon"].id, opponent="bot:strong")
        for side in ("white", "black", "white", "black"):  # the bot's moves played for it, as its runner would
            await act_once(service, str(seated.match["id"]), side)
        await service.finisher.resign(str(seated.match["id"]), "white")
        async with engine.begin() as conn:
            for name, (rating, rd) in SETTLED.items():
                await conn.execute(update(ratings).where(ratings.c.account_id == people[name].id)
                                   .values(rating=rating, rd=rd))
        return Scene(made[-1], made)
    finally:
        await engine.dispose()


def players_with_history(database_url: str) -> Scene:
    return _run(_played(database_url))  # type: ignore[no-any-return]
