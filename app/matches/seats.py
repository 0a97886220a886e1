"""Seats: which colour a token proves, and whether a seat's player is here."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

from app.kernel.errors import Forbidden, Unauthorized
from app.kernel.moments import ms_of

from . import store
from .keeper import MatchKeeper
from .record import seat_here
from .shapes import MatchState

ACCOUNT_TOKEN_PREFIX = "mgo_"  # app.accounts.tokens.PREFIX: an account's API token, never a seat's


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_seat_token() -> str:
    """A seat's token (256 bits). Never one that begins as an account's API token
    does: the API tells the two apart by that prefix (app/api/caller.py)."""
    while True:
        token = secrets.token_urlsafe(32)
        if not token.startswith(ACCOUNT_TOKEN_PREFIX):
            return token


class Seats:
    def __init__(self, keeper: MatchKeeper) -> None:
        self.keeper = keeper
        self._touched: dict[tuple[str, str], int] = {}
        # Told the match whenever one of its seats is noted present (the bot
        # runner takes up a turn it dropped while nobody watched): `on_return`.
        self._returned: list[Callable[[str], None]] = []
        # Whether a socket of the seat is open in this process (the realtime hub's
        # `holds_seat`, set by the wiring): its heartbeat writes the seat seen then.
        self.held_here: Callable[[str, str], bool] = lambda match_id, colour: False

    def on_return(self, heard: Callable[[str], None]) -> None:
        """Tell `heard` each match one of whose seats is noted present, once written."""
        self._returned.append(heard)

    def _back(self, match_id: str) -> None:
        for heard in self._returned:
            heard(match_id)

    async def authenticate(self, match_id: str, token: str | None) -> str:
        """The colour whose seat `token` proves; raises Unauthorized or NotFound."""
        if not token:
            raise Unauthorized("this call needs the seat's token: Authorization: Bearer <token>")
        digest = hash_token(token)
        for fresh in (False, True):  # a seat taken on another process is not cached here yet
            rec = await self.keeper.get(match_id, fresh=fresh)
            for colour, seat in rec.seats.items():
                if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                    return colour
        raise Unauthorized("this token holds no seat of this match")

    async def held_by(self, match_id: str, account_id: int) -> str | None:
        """The colour of the seat the account holds in this match (the side to
        move if it held both), or None: it holds none."""
        for fresh in (False, True):  # a seat taken or claimed on another process is not cached here yet
            rec = await self.keeper.get(match_id, fresh=fresh)
            mine = [c for c, seat in rec.seats.items() if seat.account_id == account_id and seat.bot is None]
            if mine:
                return rec.seat_to_move() if len(mine) > 1 and rec.seat_to_move() else mine[0]
        return None

    async def of_account(self, match_id: str, account_id: int) -> str:
        """The colour of the account's seat; Forbidden when it holds none."""
        colour = await self.held_by(match_id, account_id)
        if colour is None:
            raise Forbidden("your account holds no seat of this match")
        return colour

    def seen(self, match_id: str, colour: str, now_ms: int) -> None:
        """The seat was just written as present (create, join): no touch needed soon."""
        self._touched[(match_id, colour)] = now_ms

    async def touch(self, match_id: str, colour: str) -> None:
        """Note that the seat is here (its last_seen); written at most every
        `touch_seconds` per seat and process, and not while a socket of the seat is
        open here: the realtime heartbeat writes it seen, with every seat it holds,
        in one statement each beat (a write per request was a tenth of a request's CPU)."""
        keeper = self.keeper
        now = keeper.now_ms()
        key = (match_id, colour)
        if now - self._touched.get(key, 0) < keeper.settings.touch_seconds * 1000 or self.held_here(match_id, colour):
            return
        self._touched[key] = now
        if len(self._touched) > 4 * keeper.settings.state_cache_size:
            self._touched.clear()
        await store.touch(keeper.engine, match_id, colour, now, None)
        rec = keeper.cache.get(match_id)
        if rec is not None and colour in rec.seats:
            rec.seats[colour].last_seen_ms = now
        # Only once written: a bot's turn taken up now reads the seat as here
        # (told before, its check could read the old last_seen and drop it again).
        self._back(match_id)

    async def held(self, pairs: list[tuple[str, str]]) -> None:
        """These seats (match id, colour) hold a socket of this process now: written
        connected and seen, in one statement (the realtime heartbeat's word)."""
        keeper = self.keeper
        now = keeper.now_ms()
        await store.held(keeper.engine, pairs, now)
        for match_id, colour in pairs:
            self._touched[(match_id, colour)] = now
            rec = keeper.cache.get(match_id)
            if rec is not None and colour in rec.seats:
                seat = rec.seats[colour]
                seat.connected, seat.last_seen_ms = True, now

    async def here(self, match_ids: list[str]) -> dict[str, dict[str, bool]]:
        """Which seats of these matches are here now, by the rule REST shows
        (record.seat_here), read from the database in one statement."""
        keeper = self.keeper
        now = keeper.now_ms()
        found: dict[str, dict[str, bool]] = {}
        for row in await store.presence(keeper.engine, match_ids):
            found.setdefault(row.match_id, {})[row.colour] = seat_here(
                row.bot, row.connected, ms_of(row.last_seen), now, keeper.presence_ttl_ms)
        return found

    async def set_connected(self, match_id: str, colour: str, connected: bool) -> MatchState:
        """The realtime layer says a seat's socket came or went; answers the public
        state (players.*.connected). While connected, call `touch` at least every
        ws_ping_seconds: a seat counts as connected only if seen within
        2 × ws_dead_after_seconds. Does not change the version."""
        keeper = self.keeper
        now = keeper.now_ms()
        await store.touch(keeper.engine, match_id, colour, now, connected)
        self._touched[(match_id, colour)] = now
        rec = keeper.cache.get(match_id)
        if rec is not None and colour in rec.seats:
            seat = rec.seats[colour]
            seat.connected, seat.last_seen_ms = connected, now
        if connected:  # once written, as in `touch`
            self._back(match_id)
        return keeper.present(await keeper.current(match_id))
