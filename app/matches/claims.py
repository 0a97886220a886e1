"""A guest's seats become an account's: after signing up or in, a
browser hands over the seat tokens it kept, and each seat whose token proves it
is written as the account's.

Only `seats.account_id` changes: not the match's version, its log nor its
state, so nobody watching hears of it and a finished match's record stays as it
ended. Since the version does not move, another process's cached record of the
match would keep the guest's seat (and write it into the public state of its
next change): each claim drops the record here and tells the other
processes to drop theirs (app.realtime.service.share_claims wires it to a
nudge `seats:<match id>`; a nudge lost with the bus drops every cached record). A seat is claimed only if its token proves it, it belongs to no account
yet, and the match's other seat is not this account's (one account never holds
both seats of a match: a player who played themselves in two tabs keeps the
first seat it hands over). The conditions are written into the UPDATE itself,
after the match's row is locked, so two claims racing on two processes cannot
both land.

A guest who plays both seats of a match (two tabs of one browser, or two
browsers at one address) and brings a seat into an account has played
themselves: the seat becomes the account's, but its result is not counted on
the profile (`seats.counted` false). Both seats are from one browser when the
claim's tokens prove both; from one address when their origins
(app/kernel/origins.py) are equal.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sqlalchemy import and_, exists, select

from app.db.models import matches, seats
from app.kernel.errors import NotFound
from app.kernel.ids import is_match_id

from .keeper import MatchKeeper
from .record import SeatInfo
from .seats import hash_token

MOST_SEATS = 200  # seats one claim may hand over (the contract's limit)


@dataclass(slots=True)
class Claimed:
    """What a claim answers: the matches whose seat is now the account's, and why each other was refused."""

    claimed: list[str] = field(default_factory=list)
    refused: list[dict[str, str]] = field(default_factory=list)
    # Claimed, but against oneself: no result on the profile.
    uncounted: list[str] = field(default_factory=list)

    def refuse(self, match_id: str, reason: str) -> None:
        self.refused.append({"match": match_id, "reason": reason})


class Claims:
    def __init__(self, keeper: MatchKeeper) -> None:
        self.keeper = keeper
        # Told each match whose seat changed hands, after the commit: the other
        # processes' cached records of it hold the old seat (`on_claim`).
        self._told: list[Callable[[str], None]] = []

    def on_claim(self, heard: Callable[[str], None]) -> None:
        """Tell `heard` each match one of whose seats became an account's, once written."""
        self._told.append(heard)

    async def claim(self, account_id: int, handed: list[tuple[str, str]], origin: str | None = None) -> Claimed:
        """Claim for `account_id` the seats `handed` as (match id, seat token)
        pairs; each is answered, claimed or refused with its reason. `origin`:
        where the claim comes from (not used to decide, kept for symmetry with
        the seats' own)."""
        answer = Claimed()
        tokens: dict[str, list[str]] = {}
        for match_id, token in handed[:MOST_SEATS]:
            tokens.setdefault(match_id, []).append(token)
        seen: set[str] = set()
        for match_id, token in handed[:MOST_SEATS]:
            if match_id in seen:
                answer.refuse(match_id, "this match was handed over twice in one claim")
                continue
            seen.add(match_id)
            reason, counted = await self._one(account_id, match_id, token, tokens[match_id][1:])
            if reason is None:
                answer.claimed.append(match_id)
                if not counted:
                    answer.uncounted.append(match_id)
            else:
                answer.refuse(match_id, reason)
        for match_id, _ in handed[MOST_SEATS:]:
            answer.refuse(match_id, f"a claim hands over at most {MOST_SEATS} seats")
        return answer

    async def _one(self, account_id: int, match_id: str, token: str,
                   also: list[str]) -> tuple[str | None, bool]:
        """(None, counted) once the seat is the account's; else (why not, _).
        `also`: the other tokens this claim handed for the match."""
        if not is_match_id(match_id):
            return "there is no such match", True
        keeper = self.keeper
        async with keeper.locks.hold(match_id):  # this process's changes of the match, one at a time
            try:
                rec = await keeper.get(match_id, fresh=True)
            except NotFound:
                return "there is no such match", True
            colour = _proven(rec.seats, token)
            if colour is None:
                return "this token holds no seat of this match", True
            seat = rec.seats[colour]
            if seat.account_id == account_id:
                return "the seat is this account's already", True
            if seat.account_id is not None:
                return "the seat is another account's", True
            if account_id in rec.seat_accounts().values():
                return "the other seat of this match is this account's: one account never holds both", True
            counted = not _one_place(rec.seats, colour, also)
            if not await self._write(account_id, match_id, colour, counted):
                return "the seat was claimed meanwhile", True
            # The next read loads the seat with its account's name and rating.
            keeper.cache.drop(match_id)
        for heard in self._told:
            heard(match_id)
        return None, counted

    async def _write(self, account_id: int, match_id: str, colour: str, counted: bool = True) -> bool:
        other = seats.alias("other")
        async with self.keeper.engine.begin() as conn:
            # The match's row locked first (PostgreSQL): two claims of its two
            # seats by one account, on two processes, go one after the other.
            await conn.execute(select(matches.c.id).where(matches.c.id == match_id).with_for_update())
            done = await conn.execute(seats.update().where(and_(
                seats.c.match_id == match_id, seats.c.colour == colour, seats.c.account_id.is_(None),
                ~exists().where(other.c.match_id == match_id, other.c.account_id == account_id),
            )).values(account_id=account_id, counted=counted))
        return bool(done.rowcount)


def _proven(seats_here: Mapping[str, SeatInfo], token: str) -> str | None:
    """The colour whose seat `token` proves, if any."""
    digest = hash_token(token)
    return next((c for c, s in seats_here.items()
                 if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest)), None)


def _one_place(seats_here: Mapping[str, SeatInfo], colour: str, also: list[str]) -> bool:
    """Both seats came from one browser (the claim proves the other seat too)
    or from one address (equal known origins)."""
    theirs = next((s for c, s in seats_here.items() if c != colour), None)
    if theirs is None or theirs.bot is not None:
        return False
    if any(_proven(seats_here, t) not in (None, colour) for t in also):
        return True
    mine = seats_here[colour]
    return mine.origin is not None and mine.origin == theirs.origin
