"""The one gateway: every way a seat acts on a match comes in here.

    count the write → prove the seat → note it present → the verb

The declared REST routes, the HTTP fast path, the websocket and the bot runner
all call these methods and nothing below them, so a concern added here (a
limit, a metric, an audit line) holds for every entry at once. A caller is
named by what it brings: a seat's token and the address it came from, or, for
the server's own bot runner, the bot's colour (a bot seat has no token).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.accounts.guest_names import check_guest_name
from app.kernel.errors import Forbidden, RateLimited, Unauthorized
from app.kernel.limits import Limiter
from app.kernel.networks import network_of

from .bot_store import Owner
from .claims import Claimed
from .lobby import RATED_RULE, Seated
from .mover import Acted
from .pairing import Paired, Player, Then, pair
from .pairing_round import ThenAll, pair_all
from .record import SeatInfo
from .rematch import Rematched
from .seats import hash_token
from .service import MatchService
from .shapes import MatchState

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who knocks. `token`: the Bearer token given, if any; `address`: the client
    address the write limit counts; `bot`: the colour of a bot seat, when the
    server's bot runner acts (never set from a request); `counted`: the write
    was counted already, before its body was read (app/api/budget.py);
    `account_id`, `account`: the signed-in account (its id and name) the API
    proved by an account token or a session (app/api/caller.py): it acts in
    any seat of its own with no seat token, and creates and joins as itself."""

    token: str | None = None
    address: str | None = None
    bot: str | None = None
    counted: bool = False
    account_id: int | None = None
    account: str | None = None


class Gateway:
    def __init__(self, service: MatchService, limiter: Limiter, hold_refused_seconds: float = 0.0) -> None:
        self.service = service
        self.limiter = limiter
        # A write over its budget is answered 429 only after this long (at most
        # its Retry-After): a client that keeps writing as fast as the answers come
        # slows itself down, while the server spends nothing on it meanwhile.
        self.hold_refused_seconds = hold_refused_seconds
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep  # the hold (tests hold it themselves)

    # ---- the steps every entry shares -------------------------------------------

    async def count_write(self, caller: Caller) -> None:
        """One write against the caller's address and token (RateLimited when over)."""
        if caller.bot is not None or caller.counted:
            return  # the server's own runner (paced by its think time), or counted at the front
        keys = [f"addr:{network_of(caller.address or '-')}"]
        if caller.token is not None:
            keys.append(f"seat:{hash_token(caller.token)[:24]}")
        elif caller.account_id is not None:
            keys.append(f"account:{caller.account_id}")
        try:
            await self.limiter.hit(*keys)
        except RateLimited as over:
            if self.hold_refused_seconds > 0:
                await self.pause(min(self.hold_refused_seconds, over.retry_after))
            raise

    async def enter(self, match_id: str, caller: Caller, write: bool = True) -> str:
        """The colour whose seat the caller proves, counted and noted present."""
        if write:
            await self.count_write(caller)
        seats = self.service.seats
        if caller.bot is not None:
            rec = await self.service.keeper.get(match_id)
            seat = rec.seats.get(caller.bot)
            if seat is None or seat.bot is None:
                raise Unauthorized(f"{caller.bot} is not a bot's seat in this match")
            return caller.bot
        if caller.token is None and caller.account_id is not None:
            colour = await seats.of_account(match_id, caller.account_id)
        else:
            colour = await seats.authenticate(match_id, caller.token)
        await seats.touch(match_id, colour)
        return colour

    async def seat_of(self, match_id: str, caller: Caller) -> tuple[str | None, SeatInfo | None]:
        """The seat the caller holds in the match: its colour and what the match
        holds of it, or (None, None) for a watcher. A seat token that proves no
        seat is refused (Unauthorized) as every seated call's is; nothing is
        counted nor noted present: a question about the caller, not an act."""
        keeper, seats = self.service.keeper, self.service.seats
        await keeper.get(match_id)  # NotFound for no such match, whoever asks
        colour = None
        if caller.token is not None:
            colour = await seats.authenticate(match_id, caller.token)
        elif caller.account_id is not None:
            colour = await seats.held_by(match_id, caller.account_id)
        if colour is None:
            return None, None
        # Read after the proof: a seat taken on another process was read afresh by it.
        return colour, (await keeper.get(match_id)).seats[colour]

    # ---- what a caller may do -----------------------------------------------------

    async def create(self, caller: Caller, options: dict[str, Any], seat: str = "random",
                     opponent: str = "human", name: str = "anonymous", rated: bool = False) -> Seated:
        """A signed-in caller's seat is its account's, named as the account is. A
        guest asking for a rated match is refused as a guest joining one is: 403,
        a matter of who asks (the same body is fine from an account)."""
        await self.count_write(caller)
        if rated and caller.account_id is None:
            raise Forbidden(f"{RATED_RULE}: sign in (an account token or session) to create a rated match")
        if caller.account is None:
            await check_guest_name(self.service.engine, name)
        settings = self.service.settings
        owner = Owner(f"addr:{network_of(caller.address or '-')}", settings.bot_matches_per_address or None,
                      caller.account_id, settings.bot_matches_per_account or None)
        return await self.service.lobby.create(options, seat=seat, opponent=opponent, name=caller.account or name,
                                               owner=owner, rated=rated, account_id=caller.account_id,
                                               account=caller.account,
                                               origin=await self.service.origins.of(caller.address))

    async def join(self, match_id: str, caller: Caller, name: str = "anonymous") -> Seated:
        await self.count_write(caller)
        if caller.account is None:
            await check_guest_name(self.service.engine, name)
        return await self.service.lobby.join(match_id, caller.account or name, account_id=caller.account_id,
                                             account=caller.account,
                                             origin=await self.service.origins.of(caller.address))

    async def play(self, match_id: str, caller: Caller, action: Any, version: int,
                   client_id: str | None = None) -> Acted:
        colour = await self.enter(match_id, caller)
        return await self.service.mover.act(match_id, colour, action, version, client_id)

    async def legal(self, match_id: str, caller: Caller) -> dict[str, Any]:
        colour = await self.enter(match_id, caller, write=False)
        return await self.service.reads.legal(match_id, colour)

    async def legal_text(self, match_id: str, caller: Caller) -> bytes:
        """`legal`'s answer as its compact JSON text (the HTTP fast path's body)."""
        colour = await self.enter(match_id, caller, write=False)
        return await self.service.reads.legal_text(match_id, colour)

    async def resign(self, match_id: str, caller: Caller) -> MatchState:
        colour = await self.enter(match_id, caller)
        return await self.service.finisher.resign(match_id, colour)

    async def draw(self, match_id: str, caller: Caller, offer: bool) -> MatchState:
        colour = await self.enter(match_id, caller)
        return await self.service.finisher.draw(match_id, colour, offer)

    async def takeback(self, match_id: str, caller: Caller, doing: str) -> MatchState:
        colour = await self.enter(match_id, caller)
        return await self.service.takebacks.take(match_id, colour, doing)

    async def give_time(self, match_id: str, caller: Caller, to: str | None = None) -> MatchState:
        colour = await self.enter(match_id, caller)
        return await self.service.time_gifts.give(match_id, colour, to)

    async def berserk(self, match_id: str, caller: Caller) -> MatchState:
        """Halve the caller's own clock before their first turn (an arena's berserk)."""
        colour = await self.enter(match_id, caller)
        return await self.service.berserks.go(match_id, colour)

    async def claim(self, match_id: str, caller: Caller, result: str) -> MatchState:
        colour = await self.enter(match_id, caller)
        return await self.service.finisher.claim(match_id, colour, result)

    async def abort(self, match_id: str, caller: Caller) -> MatchState:
        colour = await self.enter(match_id, caller)
        return await self.service.finisher.abort(match_id, colour)

    async def rematch(self, match_id: str, caller: Caller) -> Rematched:
        colour = await self.enter(match_id, caller)
        return await self.service.rematches.offer(match_id, colour)

    async def decline_rematch(self, match_id: str, caller: Caller) -> MatchState:
        colour = await self.enter(match_id, caller)
        return await self.service.rematches.decline(match_id, colour)

    async def pair(self, options: dict[str, Any], players: tuple[Player, Player], rated: bool,
                   then: Then, first_colour: str | None = None) -> Paired:
        """Quick pairing (app/pools): a running match for two waiting players, both
        seats taken at once, inserted with `then` (the pools' claim of both
        waiters) in one transaction. Counted against nobody: each player's press
        was counted when they joined the pool."""
        service = self.service
        return await pair(service.keeper, service.seats, service.lobby, options, players, rated, then, first_colour)

    async def pair_all(self, options: dict[str, Any], pairs: Sequence[tuple[Player, Player]], rated: bool,
                       then: ThenAll) -> list[Paired | None]:
        """Many quick pairings at once (an arena's round): every match inserted with
        `then` (the claims of all their players) in one transaction; a pair `then`
        refuses is left out alone (pairing_round.py). Each match, or None for a refused pair."""
        service = self.service
        return await pair_all(service.keeper, service.seats, service.lobby, options, pairs, rated, then)

    async def claim_seats(self, caller: Caller, account_id: int, handed: list[tuple[str, str]]) -> Claimed:
        """A signed-in player's browser hands over the guest seats it kept (match
        id, seat token): each whose token proves it becomes the account's. One
        write, however many seats (at most claims.MOST_SEATS are looked at)."""
        await self.count_write(caller)
        return await self.service.claims.claim(account_id, handed, await self.service.origins.of(caller.address))

    async def moderate(self, match_id: str, verdict: str, reason: str, admin: str) -> MatchState:
        """A server admin (already signed in by the admin wing) ends a match."""
        state = await self.service.finisher.moderate(match_id, verdict, reason)
        log.info("match %s ended by admin %s: %s", match_id, admin, verdict)
        return state

    async def watch(self, match_id: str, token: str | None,
                    account_id: int | None = None) -> tuple[str | None, int]:
        """A socket's admission: the seat `token` proves (None without one: a
        watcher) and the match's version now. Raises NotFound, or Unauthorized
        for a token that proves no seat. With no token, a signed-in account's
        (`account_id`) socket is its seat's in this match, or a watcher's."""
        state = await self.service.reads.get(match_id)
        if token is None:
            if account_id is not None:
                return await self.service.seats.held_by(match_id, account_id), int(state["version"])
            return None, int(state["version"])
        if not token:
            raise Unauthorized("an empty token proves no seat; leave it out to watch")
        return await self.service.seats.authenticate(match_id, token), int(state["version"])
