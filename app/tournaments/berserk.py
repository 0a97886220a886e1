"""Berserk in an arena: the player halves their own clock in their game under
way there, before their first turn, for a point more if they win (scoring.py).

The arena says which game is the caller's and that the arena runs; the match
decides the rest under its own lock (app/matches/berserk.py: a clock, not yet
played, not yet berserk, enough time), logs it and pushes the halved clock to
every socket and stream of the match. The game's flag is written after; the
match's log decides all the same (store.settle), so a flag never written is
no point lost.
"""

from __future__ import annotations

from typing import Any

from app.kernel.errors import ServiceError
from app.matches import Caller, Gateway

from . import store
from .errors import TournamentOver


class NotYourGame(ServiceError):
    status, code = 403, "not_your_game"


class NotStarted(ServiceError):
    status, code = 409, "tournament_not_started"


async def go_berserk(engine: Any, gateway: Gateway, arena: store.Arena, status: str, caller: Caller,
                     match_id: str | None = None) -> dict[str, Any]:
    """Berserk in the caller's game under way in `arena` (`match_id`, when given,
    must be that game: a click meant for a game just over never lands on the next)."""
    if status == "created":
        raise NotStarted("the arena has not begun: berserk is for a game under way")
    if status == "finished":
        raise TournamentOver("the arena is over: berserk is for a game of a running arena")
    assert caller.account_id is not None
    mine = await store.game_of(engine, arena.id, caller.account_id)
    if mine is None:
        raise NotYourGame("you play no game in this arena now")
    if match_id is not None and match_id != mine[0]:
        raise NotYourGame(f"match {match_id!r} is not your game under way in this arena (that is {mine[0]!r})")
    state = await gateway.berserk(mine[0], caller)
    await store.mark_berserk(engine, mine[0], mine[1])
    return {"match": state, "colour": mine[1]}
