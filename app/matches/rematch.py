"""Playing again: a seat of a finished match offers a rematch, the other
accepts or declines; a computer opponent accepts at once.

The rematch has the same options, a fresh shuffle (a custom match's chosen
chaos mages are dealt again) and the colours swapped. The offer and its answer
are versions of the finished match (log entries `rematch_offer`,
`rematch_withdraw`, `rematch_decline`, `rematch`), so they reach both seats'
sockets on every process the way any update does, and the state's `rematch`
says where things stand. Each seat's token in the new match goes to that seat
alone: the offerer's in the answer to its offer (only its hash is kept), the
accepter's in the answer to its acceptance.

Exactly one rematch per match, whoever presses at once on whichever process:
the acceptance is a change of the finished match at its version (one lands,
the others are decided again and find the rematch made), and the new match is
inserted in the same transaction, its `rematch_of` unique in the database.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.kernel.errors import Forbidden
from app.rules import commitment, from_text

from .clock import Clock
from .errors import MatchRunning
from .keeper import MatchKeeper
from .lobby import new_match_id, rated_seats
from .record import Record, SeatInfo, other
from .replay import initial_state
from .seats import Seats, hash_token, new_seat_token
from .shapes import MatchState


@dataclass(slots=True)
class Rematched:
    """What an offer or an acceptance answers: the finished match, and the
    rematch as this seat sees it: its id once made, the seat it takes there, and
    (this once) that seat's token."""

    match: MatchState
    match_id: str | None
    seat: str
    token: str | None


class Rematches:
    def __init__(self, keeper: MatchKeeper, seats: Seats) -> None:
        self.keeper, self.seats = keeper, seats

    async def offer(self, match_id: str, colour: str) -> Rematched:
        """Offer a rematch, or accept the opponent's offer (`POST .../rematch`)."""
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> tuple[str | None, str | None]:
            opponent = _guard(rec, colour)
            if opponent.closed:
                raise Forbidden("the other player's account is closed: there is nobody to play again")
            state: Mapping[str, Any] = rec.rematch or {}
            if state.get("match_id"):
                return state["match_id"], None  # made already; the token went out then
            if state.get("declined_by") == other(colour):
                raise Forbidden(f"{other(colour)} declined the rematch")
            if state.get("offered_by") == colour:
                return None, None  # the offer stands; its token went out with it
            token = new_seat_token()
            if state.get("offered_by") == other(colour) or opponent.bot is not None:
                new = self._new_match(rec, colour, hash_token(token), now)
                rec.rematch = {"offered_by": state.get("offered_by") or colour, "declined_by": None,
                               "match_id": new.id}
                rec.rematch_token, rec.rematch_new = None, new
                _changed(keeper, rec, colour, {"type": "rematch", "match_id": new.id}, now)
                return new.id, token
            rec.rematch = {"offered_by": colour, "declined_by": None, "match_id": None}
            rec.rematch_token = hash_token(token)
            _changed(keeper, rec, colour, {"type": "rematch_offer"}, now)
            return None, token

        rec, (new_id, token) = await keeper.mutate(match_id, decide)
        made = rec.rematch_new if new_id is not None and token is not None else None
        rec.rematch_new = None  # saved: the cached record need not hold it
        if made is not None:  # this call made it: its first listeners (a bot) hear of it
            await rated_seats(keeper, made.seats, made.options["variant"])
            keeper.cache.put(made)
            now = keeper.now_ms()
            self.seats.seen(made.id, other(colour), now)
            await keeper.publish(made.id, [{"type": "created", "version": 0, "match": keeper.present(made, now)}])
        return Rematched(keeper.present(rec), new_id, other(colour), token)

    async def decline(self, match_id: str, colour: str) -> MatchState:
        """Decline the opponent's offer, or withdraw your own (`POST .../rematch/decline`)."""
        keeper = self.keeper

        async def decide(rec: Record, now: int) -> None:
            _guard(rec, colour)
            state: Mapping[str, Any] = rec.rematch or {}
            if state.get("match_id"):
                raise Forbidden("the rematch has been made already")
            offered = state.get("offered_by")
            if offered is None:
                return None  # nothing to answer: nothing changes
            mine = offered == colour
            rec.rematch = {"offered_by": None, "declined_by": None if mine else colour, "match_id": None}
            rec.rematch_token = None
            _changed(keeper, rec, colour, {"type": "rematch_withdraw" if mine else "rematch_decline"}, now)
            return None

        rec, _ = await keeper.mutate(match_id, decide)
        return keeper.present(rec)

    def _new_match(self, old: Record, accepter: str, accepter_hash: str, now: int) -> Record:
        """The rematch of `old`: same options, a fresh seed, colours swapped."""
        chaos = old.chaos
        seed = secrets.token_hex(16)  # 128 bits (R20)
        options = dict(old.options)
        # A match from a position is played again from it, with its seed.
        start = from_text(options["position"]) if "position" in options else None
        if start is not None:
            seed = start.seed
        seats: dict[str, SeatInfo] = {}
        for colour, seat in old.seats.items():
            if seat.bot is not None:
                token_hash = None
            elif colour == accepter:
                token_hash = accepter_hash
            else:
                token_hash = old.rematch_token
            seats[other(colour)] = SeatInfo(seat.name, token_hash, seat.bot, seat.bot is not None, now, now,
                                            seat.account_id, seat.account, origin=seat.origin)
        rec = Record(
            id=new_match_id(), status="waiting", options=options, seed=seed,
            seed_commitment=commitment(seed), custom=bool(chaos) or start is not None, chaos=chaos,
            state=initial_state(seed, options, chaos, bool(chaos)), version=0,
            clock=Clock.from_options(options.get("time_control")), due_at_ms=None, draw_offer=None,
            result=None, created_ms=now, updated_ms=now, finished_ms=None, seats=seats, rematch_of=old.id,
            rated=old.rated,  # the same two players, rated as before
        )
        self.keeper.begin(rec, now)
        return rec


def _guard(rec: Record, colour: str) -> SeatInfo:
    """The opponent's seat, once the match is over and had one."""
    if rec.status != "finished":
        raise MatchRunning("a rematch can be offered once the match is over")
    opponent = rec.seats.get(other(colour))
    if opponent is None:
        raise Forbidden("nobody took the other seat: there is nobody to play again")
    return opponent


def _changed(keeper: MatchKeeper, rec: Record, colour: str, action: dict[str, Any], now: int) -> None:
    rec.rematch_changed = True
    keeper.log(rec, colour, action, False, now)


