"""The ways a match ends besides the rules: resignation, draw by agreement, a
claim against an absent opponent, an abort, and what falls due by itself (R16)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from app.kernel import text
from app.kernel.errors import BadRequest, Forbidden, ServiceError
from app.kernel.moments import ms_of
from app.rules import SETUP, State

from . import bot_store, store
from .errors import MatchIsOver
from .keeper import MatchKeeper, nothing
from .record import Record, other
from .shapes import MatchState

VERDICTS = ("abort", "white", "black", "draw")
MAX_REASON = 500
MIN_ABANDON_MS = 10_000  # the smallest abandon_seconds a match may choose


# Whether the computer in seat `colour` accepts a draw in `state`: app/bots
# answers (a layer above this one), handed to the service by app/wiring.py.
DrawAnswer = Callable[[State, str], bool]


class Finisher:
    def __init__(self, keeper: MatchKeeper, computer_answers_draw: DrawAnswer | None = None) -> None:
        self.keeper = keeper
        self.computer_answers_draw = computer_answers_draw

    async def resign(self, match_id: str, colour: str) -> MatchState:
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> None:
            keeper.guard_running(rec)
            keeper.end(rec, colour, {"type": "resign"}, now)

        rec, _ = await keeper.mutate(match_id, decide)
        return keeper.present(rec)

    async def draw(self, match_id: str, colour: str, offer: bool) -> MatchState:
        """Offer or accept (`offer`), decline or withdraw (not `offer`) a draw (R16)."""
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> None:
            keeper.guard_running(rec)
            pending = rec.draw_offer
            if offer and pending == other(colour):
                rec.draw_ops.append(("accepted", None))
                keeper.end(rec, colour, {"type": "draw_accept"}, now)
            elif offer and pending is None:
                rec.draw_offer = colour
                rec.draw_ops.append(("offer", colour))
                keeper.log(rec, colour, {"type": "draw_offer"}, False, now)
                self._computer_answers(rec, other(colour), now)
            elif not offer and pending is not None:
                mine = pending == colour
                rec.draw_offer = None
                rec.draw_ops.append(("withdrawn" if mine else "declined", None))
                keeper.log(rec, colour, {"type": "draw_withdraw" if mine else "draw_decline"}, False, now)
            # else: the offer stands already, or there is none to answer: nothing to do

        rec, _ = await keeper.mutate(match_id, decide)
        return keeper.present(rec)

    def _computer_answers(self, rec: Record, seat: str, now: int) -> None:
        """A computer in `seat` answers an offer at once, by its evaluation."""
        answer = self.computer_answers_draw
        if answer is None or rec.seats[seat].bot is None:
            return
        if answer(rec.state, seat):
            rec.draw_ops.append(("accepted", None))
            self.keeper.end(rec, seat, {"type": "draw_accept"}, now)
        else:
            rec.draw_offer = None
            rec.draw_ops.append(("declined", None))
            self.keeper.log(rec, seat, {"type": "draw_decline"}, False, now)

    async def claim(self, match_id: str, colour: str, result: str) -> MatchState:
        """Claim a win or a draw once the opponent's seat has been gone longer than
        the match's abandon_seconds."""
        keeper = self.keeper
        if result not in ("win", "draw"):
            raise BadRequest('result is "win" or "draw"')

        async def decide(rec: Record, now: int) -> None:
            keeper.guard_running(rec)
            absent = rec.seats[other(colour)]
            limit = rec.options.get("abandon_seconds")
            if absent.bot is not None:
                raise Forbidden("a bot never abandons its seat")
            if limit is None:
                raise Forbidden("this match has no abandonment claims; its clock decides")
            gone_ms = now - absent.last_seen_ms
            if absent.here(now, keeper.presence_ttl_ms) or gone_ms <= limit * 1000:
                raise Forbidden(
                    f"{other(colour)} was seen {gone_ms // 1000} s ago; a claim needs {limit:g} s away")
            keeper.end(rec, colour, {"type": "claim", "result": result}, now, abandoned=other(colour))

        rec, _ = await keeper.mutate(match_id, decide, fresh=True)
        return keeper.present(rec)

    async def abort(self, match_id: str, colour: str | None) -> MatchState:
        """Call the match off before both setups are done; `colour` None is the server."""
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> None:
            if rec.status == "finished":
                raise MatchIsOver()
            if rec.status == "active" and rec.state.phase != SETUP:
                raise Forbidden("a match can be aborted only before both setups are done")
            keeper.end(rec, colour, {"type": "abort"}, now, automatic=colour is None)

        rec, _ = await keeper.mutate(match_id, decide)
        return keeper.present(rec)

    async def leave(self, match_id: str, colour: str) -> bool:
        """The seat's account was closed: the match ends by the server, for the
        seat, as an abort while one is allowed (nobody joined, or the setups are
        not done), else as its resignation. False: it was over already."""
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> bool:
            if rec.status == "finished" or rec.state.over:
                return False
            kind = "abort" if rec.status == "waiting" or rec.state.phase == SETUP else "resign"
            keeper.end(rec, colour, {"type": kind, "account_closed": True}, now, automatic=True)
            return True

        _, ended = await keeper.mutate(match_id, decide, fresh=True)
        return ended

    async def moderate(self, match_id: str, verdict: str, reason: str) -> MatchState:
        """A server admin ends the match: "abort", or adjudicates it to "white",
        "black" or a "draw", for `reason`. Logged as an action with player null
        (the server) and published like any ending; unlike a player's abort, an
        admin's is allowed at any phase. Who the admin was stays in the admin
        audit log, not in the public log."""
        keeper = self.keeper
        if verdict not in VERDICTS:
            raise BadRequest(f"verdict is one of {', '.join(VERDICTS)}")
        note = reason.strip() if isinstance(reason, str) else ""
        if not note:
            raise BadRequest("a moderation needs a reason, for the players and the audit log")
        text.check("reason", note)  # it goes into the log, the updates and the audit
        if len(note) > MAX_REASON:
            raise BadRequest(f"the reason is at most {MAX_REASON} characters")

        async def decide(rec: Record, now: int) -> None:
            if verdict == "abort":
                if rec.status == "finished":
                    raise MatchIsOver()
                action: dict[str, Any] = {"type": "abort", "by": "admin", "note": note}
            else:
                keeper.guard_running(rec)  # a waiting match has no game to adjudicate
                action = {"type": "adjudicate", "winner": None if verdict == "draw" else verdict, "note": note}
            keeper.end(rec, None, action, now)

        rec, _ = await keeper.mutate(match_id, decide, fresh=True)
        return keeper.present(rec)

    async def end_abandoned_bot_matches(self) -> int:
        """End every running bot match whose person has been gone longer than its
        abandon_seconds, as a claim by the bot: a bot never abandons its seat, so
        without this such a match would run (and hold its owner's place) for ever.
        Answers how many ended."""
        keeper = self.keeper
        now = keeper.now_ms()
        ended = 0
        # Matches choose abandon_seconds >= 10: fewer than that is nobody's limit.
        for row in await bot_store.idle_people(keeper.engine, now - MIN_ABANDON_MS):
            limit = (row.options or {}).get("abandon_seconds")
            if limit is None or now - ms_of(row.last_seen) <= limit * 1000:
                continue  # no claims in this match (its clock decides), or not yet
            with contextlib.suppress(ServiceError):
                await keeper.mutate(row.id, self._bot_claims, fresh=True)
                ended += 1
        return ended

    async def _bot_claims(self, rec: Record, now: int) -> None:
        """The bot claims the win against its absent person, by the rule of `claim`."""
        keeper = self.keeper
        keeper.guard_running(rec)
        bot = next((c for c, seat in rec.seats.items() if seat.bot is not None), None)
        limit = rec.options.get("abandon_seconds")
        if bot is None or limit is None:
            raise Forbidden("not a bot match with abandonment claims")
        absent = rec.seats[other(bot)]
        if absent.here(now, keeper.presence_ttl_ms) or now - absent.last_seen_ms <= limit * 1000:
            raise Forbidden("the person is back")  # seen on another process meanwhile
        keeper.end(rec, bot, {"type": "claim", "result": "win"}, now, abandoned=other(bot))

    async def sweep(self) -> int:
        """Apply every fallen flag and join timeout; the background sweeper's job."""
        ids = await store.due(self.keeper.engine, self.keeper.now_ms())
        for match_id in ids:
            with contextlib.suppress(ServiceError):
                await self.keeper.mutate(match_id, nothing, fresh=True)
        return len(ids)
