"""A match as the service holds it in memory: the stored row, its seats and the
engine State, with the public view of the current version kept once computed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.accounts.profiles import NEW_SHOWN, RatingView, change_of, shown
from app.accounts.titles import title_of
from app.kernel.jsontext import compact
from app.kernel.moments import moment, ms_of, stamp
from app.notify import Told
from app.rules import COLOURS, SETUP, State, other, public_view
from app.rules.view_shape import PublicView, ResultView

from .clock import Clock
from .shapes import MatchState, PlayersView, PlayerView, RematchView, Update
from .telling import entry_words

__all__ = ["COLOURS", "Entry", "Record", "SeatInfo", "other", "record_from_rows"]

def seat_here(bot: str | None, connected: bool, last_seen_ms: int, now_ms: int, ttl_ms: int) -> bool:
    """The one rule of presence, for REST and the sockets of every process alike:
    a bot is always here; a player is while a socket of
    theirs is open (`connected`) and a process holding it has said so within
    `ttl_ms` (`last_seen`, refreshed at every heartbeat). A process that dies
    stops refreshing: its seats count as gone `ttl_ms` after its last word."""
    return bot is not None or (connected and now_ms - last_seen_ms <= ttl_ms)


@dataclass(slots=True)
class SeatInfo:
    name: str
    token_hash: str | None
    bot: str | None
    connected: bool
    last_seen_ms: int
    joined_ms: int
    account_id: int | None = None  # the account playing it (a computer level's, for a rated bot); None: a guest
    account: str | None = None  # that account's name (read with the seat: names never change); never its id
    # Profiles: the account's rating in the match's variant, as the
    # public state shows it ({"rating", "rd", "provisional"}; None for a guest),
    # and, once a rated match has moved it, by how much (whole points).
    rating: RatingView | None = None
    rating_change: int | None = None
    title: str | None = None  # "BOT": a bot account's seat (app/accounts/bots.py), shown as a computer's
    closed: bool = False  # its account is closed: it plays no more (no rematch), its token revoked
    # Where the seat was taken from (app/kernel/origins.py), for fair play; never shown to anyone.
    origin: str | None = None

    def here(self, now_ms: int, ttl_ms: int) -> bool:
        return seat_here(self.bot, self.connected, self.last_seen_ms, now_ms, ttl_ms)


@dataclass(slots=True)
class Entry:
    """One row of the action log, and the update message it makes."""

    version: int
    player: str | None
    action: dict[str, Any]
    automatic: bool
    at_ms: int
    client_id: str | None
    public: MatchState
    public_json: str | None = None  # `public` encoded, once: for the log row and the answer

    def public_text(self) -> str:
        """`public` as compact JSON (what a JSONResponse of it holds)."""
        if self.public_json is None:
            self.public_json = compact(self.public)
        return self.public_json

    def update(self, before: Mapping[str, Any] | None, told: bool = True) -> Update:
        """The update message; `before` is the public state before this entry,
        which its words are told from. Without `told`, no `"words"`: nobody
        would read them (app/matches/publisher.py, `hears_words`)."""
        if told:
            return {"type": "update", "version": self.version, "action": self.action, "player": self.player,
                    "automatic": self.automatic,
                    "words": entry_words(before, self.player, self.action, self.automatic),
                    "at": stamp(self.at_ms), "match": self.public}
        return {"type": "update", "version": self.version, "action": self.action, "player": self.player,
                "automatic": self.automatic, "at": stamp(self.at_ms), "match": self.public}


@dataclass(slots=True)
class Record:
    id: str
    status: str  # waiting | active | finished
    options: dict[str, Any]  # the public options
    seed: str
    seed_commitment: str
    custom: bool
    chaos: list[str] | None
    state: State
    version: int
    clock: Clock | None
    due_at_ms: int | None
    draw_offer: str | None
    result: ResultView | None
    created_ms: int
    updated_ms: int
    finished_ms: int | None
    seats: dict[str, SeatInfo]
    # Playing again (rematch.py): the public offer, the hash of the offerer's
    # token in the new match (never public), and the match this one follows.
    rematch: RematchView | None = None
    rematch_token: str | None = None
    rematch_of: str | None = None
    rated: bool = False  # chosen when made: its ending moves ratings (app/accounts/rated.py)
    takeback_offer: str | None = None  # who asks for a takeback now (takeback.py)
    # Derived, kept while `state` stays the same object.
    view_of: State | None = None
    view: PublicView | None = None
    # What a mutation adds, saved with it in one transaction.
    entries: list[Entry] = field(default_factory=list)
    new_seats: list[str] = field(default_factory=list)
    draw_ops: list[tuple[str, str | None]] = field(default_factory=list)
    rematch_changed: bool = False
    takeback_changed: bool = False  # saved by the Core path (store.save), as a rematch's change is
    rematch_new: Record | None = None  # the rematch made by this change, inserted with it
    ended: bool = False  # this change ends the match (MatchKeeper.finish)
    told: Told | None = None  # the notices this change tells its players (notices.py), saved with it

    def draft(self) -> Record:
        """A copy to change; the original stays as it was until the change is saved."""
        return replace(
            self, clock=self.clock.copy() if self.clock else None, seats=dict(self.seats),
            entries=[], new_seats=[], draw_ops=[], rematch_changed=False, takeback_changed=False,
            rematch_new=None, ended=False, told=None,
        )

    @property
    def rates_now(self) -> bool:
        """This change ends a rated match: its change of ratings is saved with it."""
        return self.ended and self.rated

    def seat_accounts(self) -> dict[str, int | None]:
        return {colour: seat.account_id for colour, seat in self.seats.items()}

    def engine_view(self) -> PublicView:
        if self.view_of is not self.state or self.view is None:
            self.view = public_view(self.state)
            self.view_of = self.state
        return self.view

    def due(self, now_ms: int) -> bool:
        """Whether something falls due by itself now: a flag, a join timeout."""
        return self.due_at_ms is not None and self.due_at_ms <= now_ms and self.status != "finished"

    def seat_to_move(self) -> str | None:
        if self.status != "active" or self.state.over:
            return None
        return COLOURS[self.state.to_move]

    def present(self, now_ms: int, presence_ttl_ms: int) -> MatchState:
        """The contract's public match state (R20: nothing secret)."""
        view = self.engine_view()
        players: PlayersView = {"white": self._player("white", now_ms, presence_ttl_ms),
                                "black": self._player("black", now_ms, presence_ttl_ms)}
        clock = self.clock.public(now_ms) if self.clock else None
        if clock is not None and self.status == "active" and self.state.phase == SETUP \
                and self.due_at_ms is not None:
            clock["setup"] = max(0, self.due_at_ms - now_ms)  # the side to set up has this long
        finished_at = stamp(self.finished_ms) if self.finished_ms is not None else None
        return {
            "id": self.id, "version": self.version, "status": self.status,
            "options": self.options, "round": view["round"], "phase": view["phase"],
            "to_move": view["to_move"], "orb": view["orb"], "arena": view["arena"],
            "reserve": view["reserve"], "dead": view["dead"], "tower": view["tower"],
            "private": view["private"], "passed": view["passed"], "effects": view["effects"],
            "quiet_rounds": view["quiet_rounds"], "chaos": view["chaos"], "result": self.result,
            "custom": view["custom"], "seed_commitment": view["seed_commitment"], "seed": view["seed"],
            "position": view["position"], "players": players, "clock": clock,
            "draw_offer": self.draw_offer, "rematch": self.rematch, "rematch_of": self.rematch_of,
            "takeback_offer": self.takeback_offer,
            "rated": self.rated,  # a page offers takebacks only in a casual match
            "created_at": stamp(self.created_ms), "finished_at": finished_at,
            # The moment the clock above holds; a finished match's clock stopped at
            # its end, and its answer never changes again.
            "server_time": finished_at or stamp(now_ms),
        }

    def _player(self, colour: str, now_ms: int, presence_ttl_ms: int) -> PlayerView:
        seat = self.seats.get(colour)
        if seat is None:  # an empty seat keeps the contract's shape: nobody there, not connected
            return {"name": None, "connected": False, "bot": None, "account": None,
                    "computer": False, "title": None, "rating": None, "rating_change": None}
        return {
            "name": seat.name,
            "connected": seat.here(now_ms, presence_ttl_ms),
            "bot": seat.bot,
            "account": seat.account,  # the name only: an account's id is never public
            "computer": seat.bot is not None,
            "title": seat.title,
            "rating": seat.rating,
            "rating_change": seat.rating_change,
        }

    def row(self) -> dict[str, Any]:
        """The matches columns a mutation writes."""
        clock = self.clock
        return {
            "status": self.status,
            "state": self.state.to_json(),
            "version": self.version,
            "white_ms": clock.white_ms if clock else None,
            "black_ms": clock.black_ms if clock else None,
            "clock_running": clock.running if clock else None,
            "clock_since_ms": clock.since_ms if clock else None,
            "due_at_ms": self.due_at_ms,
            "draw_offer": self.draw_offer,
            "takeback_offer": self.takeback_offer,
            "result": self.result,
            "updated_at": moment(self.updated_ms),
            "finished_at": moment(self.finished_ms) if self.finished_ms is not None else None,
            "rematch": self.rematch,
            "rematch_token": self.rematch_token,
        }

    def new_row(self) -> dict[str, Any]:
        """All the matches columns, for the match's insert."""
        return {**self.row(), "id": self.id, "variant": self.options["variant"], "options": self.options,
                "seed": self.seed, "seed_commitment": self.seed_commitment, "custom": self.custom,
                "chaos": self.chaos, "created_at": moment(self.created_ms), "rematch_of": self.rematch_of,
                "rated": self.rated}

    def seat_row(self, colour: str) -> dict[str, Any]:
        seat = self.seats[colour]
        return {
            "match_id": self.id, "colour": colour, "name": seat.name, "token_hash": seat.token_hash,
            "bot": seat.bot, "connected": seat.connected, "last_seen": moment(seat.last_seen_ms),
            "joined_at": moment(seat.joined_ms), "account_id": seat.account_id, "origin": seat.origin,
        }


def clock_from_row(options: dict[str, Any], row: Any) -> Clock | None:
    clock = Clock.from_options(options.get("time_control"))
    if clock is None or row.white_ms is None:
        return clock
    clock.white_ms, clock.black_ms = row.white_ms, row.black_ms
    clock.running, clock.since_ms = row.clock_running, row.clock_since_ms
    return clock


def seat_from_row(row: Any, prefix: str = "") -> SeatInfo:
    """A seat from a row of the seats table (its columns named `prefix` + name)."""
    def col(name: str) -> Any:
        return getattr(row, prefix + name)

    seat = SeatInfo(col("name"), col("token_hash"), col("bot"), col("connected"), ms_of(col("last_seen")),
                    ms_of(col("joined_at")), col("account_id"), getattr(row, prefix + "account", None))
    seat.title = title_of(getattr(row, prefix + "bot_at", None))
    seat.closed = getattr(row, prefix + "closed_at", None) is not None
    seat.origin = getattr(row, prefix + "origin", None)
    if seat.account_id is not None:
        seat.rating, seat.rating_change = seat_rating(*(getattr(row, prefix + c, None) for c in RATING_COLUMNS))
    return seat


# The columns a load reads beside a seat with an account (store.py labels them
# with the seat's prefix): its rating in the match's variant now, and what a
# rated ending did to it.
RATING_COLUMNS = ("rating", "rd", "rating_before", "rd_before", "rating_after")


def seat_rating(rating: float | None, rd: float | None, before: float | None, rd_before: float | None,
                after: float | None) -> tuple[RatingView, int | None]:
    """(the rating an account's seat shows, the change its match made): once a
    rated ending has moved it, the rating as the match began and the change;
    before that, the rating now (a new player's where there is none yet)."""
    if before is not None and rd_before is not None and after is not None:
        return shown(before, rd_before).public(), change_of(before, after)
    if rating is not None and rd is not None:
        return shown(rating, rd).public(), None
    return NEW_SHOWN.public(), None


def record_from_rows(row: Any, seat_rows: Any, state: State) -> Record:
    """A record from a matches row and its seats' rows (columns named `seat_*`, as
    the store's one-statement reads name them)."""
    return Record(
        id=row.id, status=row.status, options=row.options, seed=row.seed,
        seed_commitment=row.seed_commitment, custom=row.custom, chaos=row.chaos, state=state,
        version=row.version, clock=clock_from_row(row.options, row), due_at_ms=row.due_at_ms,
        draw_offer=row.draw_offer, result=row.result, created_ms=ms_of(row.created_at),
        updated_ms=ms_of(row.updated_at),
        finished_ms=ms_of(row.finished_at) if row.finished_at is not None else None,
        seats={s.seat_colour: seat_from_row(s, "seat_") for s in seat_rows},
        rematch=row.rematch, rematch_token=row.rematch_token, rematch_of=row.rematch_of, rated=row.rated,
        takeback_offer=row.takeback_offer,
    )
