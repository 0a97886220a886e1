"""Takebacks in casual matches: a player asks, the opponent accepts or declines.

Accepted, the match goes back to the state just before the asker's own last
choice: that choice and every choice after it (the opponent's too) are
undone. The log keeps all of them; a `takeback_accept` entry naming the
version it goes back to (`to`) follows, so the log replayed still makes the
match as it stands (app/rules/game_record.py), and versions only grow.

A pending ask lapses at the next choice either side plays (mover.py): what it
would undo is no longer what the asker asked about. Never in a rated match
(ratings would reward asking) nor against the computer (it asks nothing and
grants nothing).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.kernel.errors import BadRequest, Forbidden
from app.rules.game_record import TAKEBACK

from . import store
from .errors import NoTakeback
from .keeper import MatchKeeper
from .record import Record, other
from .replay import ENGINE_ACTIONS, initial_state, steps
from .shapes import MatchState

DOINGS = ("ask", "accept", "decline", "withdraw")


def last_choice(log: Iterable[tuple[int, str | None, dict[str, Any], bool]], colour: str) -> int | None:
    """The version of `colour`'s last choice still standing in `log` (rows of
    version, player, action, automatic, in order): a choice undone by an
    earlier takeback no longer stands."""
    standing: list[tuple[int, str | None]] = []
    for version, player, action, automatic in log:
        kind = action.get("type")
        if kind in ENGINE_ACTIONS and not automatic:
            standing.append((version, player))
        elif kind == TAKEBACK:
            standing = [(v, p) for v, p in standing if v <= action["to"]]
    return next((v for v, p in reversed(standing) if p == colour), None)


class Takebacks:
    def __init__(self, keeper: MatchKeeper) -> None:
        self.keeper = keeper

    async def take(self, match_id: str, colour: str, doing: str) -> MatchState:
        """Ask for a takeback, accept or decline the opponent's ask, or withdraw your own."""
        if doing not in DOINGS:
            raise BadRequest(f"do is one of {', '.join(DOINGS)}")
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> None:
            keeper.guard_running(rec)
            refuse_where_no_takebacks(rec)
            pending = rec.takeback_offer
            if doing == "ask":
                if pending == other(colour):
                    raise Forbidden(f"{other(colour)} has asked for a takeback: accept or decline it first")
                if pending is None:
                    if await self._target(rec, colour) is None:
                        raise Forbidden("you have made no choice yet to take back")
                    rec.takeback_offer, rec.takeback_changed = colour, True
                    keeper.log(rec, colour, {"type": "takeback_offer"}, False, now)
            elif doing == "accept":
                if pending is None:
                    raise NoTakeback("no takeback is asked in this match")
                if pending == colour:
                    raise Forbidden("you cannot accept your own takeback: your opponent answers it")
                await self._go_back(rec, pending, colour, now)
            elif pending is not None and (pending == colour) == (doing == "withdraw"):
                rec.takeback_offer, rec.takeback_changed = None, True
                keeper.log(rec, colour, {"type": f"takeback_{doing}"}, False, now)
            elif pending is not None:
                raise Forbidden("you withdraw your own ask and decline your opponent's"
                                if doing == "withdraw" else "you cannot decline your own ask: withdraw it")
            # else: nothing is asked: nothing to decline or withdraw

        rec, _ = await keeper.mutate(match_id, decide)
        return keeper.present(rec)

    async def _log_rows(self, rec: Record) -> list[tuple[int, str | None, dict[str, Any], bool]]:
        rows = await store.log(self.keeper.engine, rec.id) or []
        # A row past the draft's version: another process moved on; the save conflicts and decides again.
        return [(r.version, r.player, r.action, r.automatic) for r in rows if r.version <= rec.version]

    async def _target(self, rec: Record, asker: str) -> int | None:
        """The version the match would go back to: the one before the asker's last choice."""
        chosen = last_choice(await self._log_rows(rec), asker)
        return None if chosen is None else chosen - 1

    async def _go_back(self, rec: Record, asker: str, accepter: str, now: int) -> None:
        rows = await self._log_rows(rec)
        chosen = last_choice(rows, asker)
        if chosen is None:  # cannot be: an ask needs a choice, and any choice since lapses it
            raise Forbidden(f"{asker} has no choice to take back")
        to = chosen - 1
        start = initial_state(rec.seed, rec.options, rec.chaos, rec.custom)
        states = [start, *steps(start, ((p, a, auto) for _, p, a, auto in rows))]
        rec.state = states[to]
        rec.takeback_offer, rec.takeback_changed = None, True
        self.keeper.turn_done(rec, now, moved=False)  # the clock runs for whoever moves now
        self.keeper.log(rec, accepter, {"type": TAKEBACK, "to": to}, False, now)


def refuse_where_no_takebacks(rec: Record) -> None:
    if rec.rated:
        raise Forbidden("takebacks are for casual matches; this match is rated")
    if any(seat.bot is not None for seat in rec.seats.values()):
        raise Forbidden("no takebacks against the computer")
