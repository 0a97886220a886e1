"""The match service: the matches layer as one object made of nouns, each with one job.

    keeper     lock → draft → decide → save → publish, and the cached records (keeper.py)
    reads     public state, legal actions, the log, missed updates, the list (reads.py)
    seats     tokens and presence (seats.py)
    lobby     create a match, join it (lobby.py)
    mover     play an action, answer a resend (mover.py)
    finisher  resign, draw, claim, abort, and what falls due by itself (finisher.py)
    takebacks ask, accept, decline a takeback in a casual match (takeback.py)
    time_gifts give the opponent 15 s (time_gift.py)
    berserks  halve one's own clock before one's first turn (berserk.py)
    rematches offer, accept and decline playing again (rematch.py)
    claims    a guest's seats become an account's (claims.py)
    leaving   a closed account's running matches end (leaving.py)

Callers outside this layer act through the gateway (gateway.py), which proves the
seat before it hands the verb to one of these.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.kernel.origins import Origins
from app.notify import Channels

from .berserk import Berserks
from .claims import Claims
from .finisher import DrawAnswer, Finisher
from .keeper import MatchKeeper
from .leaving import Leaving
from .lobby import Lobby
from .mover import Mover
from .publisher import NullPublisher, Publisher
from .reads import Reads
from .rematch import Rematches
from .seats import Seats
from .takeback import Takebacks
from .time_gift import TimeGifts


class MatchService:
    def __init__(self, engine: AsyncEngine, settings: Settings, publisher: Publisher | None = None,
                 bot_levels: Collection[str] = ("random",), computer_answers_draw: DrawAnswer | None = None,
                 channels: Channels | None = None) -> None:
        self.keeper = MatchKeeper(engine, settings, publisher or NullPublisher(), channels)
        self.reads = Reads(self.keeper)
        self.seats = Seats(self.keeper)
        self.lobby = Lobby(self.keeper, self.seats, bot_levels)
        self.mover = Mover(self.keeper, self.reads)
        # The computer's answer to a draw offer comes from app/bots, a layer above:
        # handed in by whoever builds the service (app/wiring.py).
        self.finisher = Finisher(self.keeper, computer_answers_draw)
        self.takebacks = Takebacks(self.keeper)
        self.time_gifts = TimeGifts(self.keeper)
        self.berserks = Berserks(self.keeper)
        self.rematches = Rematches(self.keeper, self.seats)
        self.origins = Origins(engine)
        self.claims = Claims(self.keeper)
        self.leaving = Leaving(self.keeper, self.finisher)

    @property
    def engine(self) -> AsyncEngine:
        return self.keeper.engine

    @property
    def settings(self) -> Settings:
        return self.keeper.settings

    @property
    def clock(self) -> Callable[[], float]:
        """Seconds since the epoch; tests replace it to move time."""
        return self.keeper.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.keeper.clock = clock


__all__ = ["MatchService"]
