"""A match made for two players at once (quick pairing, app/pools): both seats
taken when it is made, so no third player can slip into an open seat between
a create and a join.

The match is inserted in one transaction with the caller's `then`, which the
pools use to claim both waiters: when `then` raises (another process paired
one of them first), nothing is inserted at all. Each seat's token is new, and
handed back to the caller only, for the seat's own player; or a player brings
the hash of a token the server never holds (a waiting guest's, app/pools/seat_key.py).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.kernel import text
from app.kernel.errors import BadRequest
from app.rules import commitment

from . import store
from .clock import Clock
from .keeper import MatchKeeper
from .lobby import RATED_RULE, Lobby, new_match_id, rated_seats
from .record import COLOURS, Record, SeatInfo, other
from .replay import initial_state
from .seats import Seats, hash_token, new_seat_token


@dataclass(frozen=True, slots=True)
class Player:
    """One of the two: the name the seat shows, and the account (None: a guest)."""

    name: str
    account_id: int | None = None
    account: str | None = None
    token_hash: str | None = None  # the seat's token, hashed, when the player's own token is made elsewhere


@dataclass(frozen=True, slots=True)
class Paired:
    """The match made: its id, each player's colour (in the order given) and each
    seat's token (shown once: give each to its own player only; None for a
    player who brought the hash of their own)."""

    match_id: str
    colours: tuple[str, str]
    tokens: tuple[str | None, str | None]


Then = Callable[[AsyncConnection, Paired], Awaitable[None]]


async def pair(keeper: MatchKeeper, seats: Seats, lobby: Lobby, options: dict[str, Any],
               players: tuple[Player, Player], rated: bool, then: Then,
               first_colour: str | None = None) -> Paired:
    """Make a running match for `players` (colours drawn at random, unless
    `first_colour` names the first player's: a Swiss pairing gives colours).
    `rated` needs two accounts; nobody plays themself."""
    now = keeper.now_ms()
    rec, paired = made(keeper, lobby, options, players, rated, first_colour, now)
    await rated_seats(keeper, rec.seats, rec.options["variant"])

    async def claim(conn: AsyncConnection) -> None:
        await then(conn, paired)

    await store.insert(keeper.engine, rec, claim)
    await announce(keeper, seats, rec, now)
    return paired


def made(keeper: MatchKeeper, lobby: Lobby, options: dict[str, Any], players: tuple[Player, Player], rated: bool,
         first_colour: str | None, now: int) -> tuple[Record, Paired]:
    """The running match for `players`, checked and begun, not yet stored (its
    seats show no rating yet: `rated_seats`)."""
    first, second = players
    if rated and (first.account_id is None or second.account_id is None):
        raise BadRequest(f"{RATED_RULE}: a paired rated match needs two accounts")
    if first.account_id is not None and first.account_id == second.account_id:
        raise BadRequest("nobody plays themself")
    for player in players:
        text.check("name", player.name, line_breaks=False)
    opts = lobby._options({k: v for k, v in options.items() if k not in ("seed", "chaos")})
    del opts["bot_think_seconds"]  # nobody to think
    if first_colour is not None and first_colour not in COLOURS:
        raise ValueError(f"a colour is one of {COLOURS}")
    colour = first_colour or secrets.choice(COLOURS)
    colours = (colour, other(colour))
    tokens = (_new_token(first), _new_token(second))
    seat_infos = {c: SeatInfo(p.name, hash_token(t) if t is not None else p.token_hash, None, False, now, now, p.account_id,
                              p.account if p.account_id is not None else None)
                  for c, p, t in zip(colours, players, tokens, strict=True)}
    seed = secrets.token_hex(16)  # 128 bits (R20)
    rec = Record(
        id=new_match_id(), status="waiting", options=opts, seed=seed, seed_commitment=commitment(seed),
        custom=False, chaos=None, state=initial_state(seed, opts, None, False), version=0,
        clock=Clock.from_options(opts["time_control"]), due_at_ms=None, draw_offer=None, result=None,
        created_ms=now, updated_ms=now, finished_ms=None, seats=seat_infos, rated=rated,
    )
    keeper.begin(rec, now)  # both seats are taken: the match is on
    return rec, Paired(rec.id, colours, tokens)


async def announce(keeper: MatchKeeper, seats: Seats, rec: Record, now: int) -> None:
    """A stored new match: kept in the cache, its seats present, its creation told."""
    keeper.cache.put(rec)
    for c in rec.seats:
        seats.seen(rec.id, c, now)
    await keeper.publish(rec.id, [{"type": "created", "version": 0, "match": keeper.present(rec, now)}])


def _new_token(player: Player) -> str | None:
    return None if player.token_hash is not None else new_seat_token()
