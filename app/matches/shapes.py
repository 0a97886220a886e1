"""The shapes the service hands out, written once as TypedDicts: the match state
(the engine's view with the service's fields about it), an update and a log
entry. mypy holds every function that makes or reads them, and the API's
schema is checked against them (app/api/state_schema.py). Plain dicts at run
time, so they cost nothing on the hot path.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from app.accounts.profiles import RatingView
from app.rules.view_shape import BoardView


class PlayerView(TypedDict):
    """Who sits at a seat; at a free seat every field is null or false."""

    name: str | None
    connected: bool
    bot: str | None
    account: str | None  # the account's name, never its id
    computer: bool
    title: str | None
    rating: RatingView | None
    rating_change: int | None


class PlayersView(TypedDict):
    white: PlayerView
    black: PlayerView


class ClockView(TypedDict):
    type: str  # "realtime" or "correspondence"
    white: int  # milliseconds left
    black: int
    running: str | None
    increment: NotRequired[int]  # realtime
    per_move: NotRequired[int]  # correspondence
    setup: NotRequired[int]  # while a side sets up


class RematchView(TypedDict):
    offered_by: str | None
    declined_by: str | None
    match_id: str | None


class MatchState(BoardView):
    """The contract's public match state (R20: nothing secret in it): the position
    (BoardView), and the service's fields about it."""

    id: str
    version: int
    status: str  # waiting | active | finished
    # The options as created with the defaults filled in: their shape depends on
    # the time control and on what the creator asked for (docs/api.md, "Create").
    options: dict[str, Any]
    players: PlayersView
    spectators: NotRequired[int]  # added by the sockets and the match stream only
    clock: ClockView | None
    draw_offer: str | None
    # Not required: states logged before these were kept carry neither.
    takeback_offer: NotRequired[str | None]
    rated: NotRequired[bool]
    rematch: RematchView | None
    rematch_of: str | None
    created_at: str
    finished_at: str | None
    server_time: str


class Update(TypedDict):
    """What every listener hears of one committed entry."""

    type: Literal["update"]
    version: int
    action: dict[str, Any]  # the action's JSON (docs/notation.md)
    player: str | None
    automatic: bool
    words: NotRequired[str]  # left out where nobody would read them
    at: str
    match: MatchState


class LogEntry(TypedDict):
    """One entry of a match's log, as `GET /matches/{id}/log` answers it."""

    version: int
    player: str | None
    action: dict[str, Any]
    automatic: bool
    at: str
