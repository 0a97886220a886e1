"""The public match state as named schemas, for the OpenAPI description (issue
21, item 2): every field the state carries (docs/api.md, "Read"), each nested
object a component of its own.

Documentation only: the routes answer the state the matches layer makes
(app/matches/record.py, `present`; app/rules/view.py). Every object here is
closed (`additionalProperties: false`): the server sends exactly these fields,
and tests/api/test_schema_honest.py validates real answers against the schema
so that a field added to the state without its schema fails a test. (Clients
still ignore fields they do not know: docs/api.md, "What version 1 promises".)

A field written `absent(...)` is left out, never null, where it does not apply.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from app.bots import LEVELS
from app.rules import VARIANTS
from app.rules.state import PHASES, REASONS

from .action_schema import Colour, Exactly, Mage, MinionType, Square, absent
from .match_example import MATCH_EXAMPLE

Level = Literal[LEVELS]  # type: ignore[valid-type]
Stamp = Annotated[datetime, Field(description="RFC 3339, UTC, milliseconds", examples=["2026-11-21T15:04:12.250Z"])]


class StandingMinion(Exactly):
    """A minion where it stands: whose it is, and its type."""

    owner: Colour
    minion: MinionType


class Chamber(Exactly):
    floor: int = Field(ge=1, le=16, description="floors 13-16 hold chaos mages")
    mage: Mage
    occupant: StandingMinion | None


class PrivateChamber(Exactly):
    """A private chamber of the archmage variants (R18, R19)."""

    mage: Mage
    occupant: StandingMinion | None


class MinionCounts(Exactly):
    """A count for each of the eight types, all eight always listed."""

    dragon: int = Field(ge=0)
    elemental: int = Field(ge=0)
    construct_: int = Field(ge=0, alias="construct")  # a model's own `construct` keeps its name
    fey: int = Field(ge=0)
    spirit: int = Field(ge=0)
    myrmidon: int = Field(ge=0)
    undead: int = Field(ge=0)
    beast: int = Field(ge=0)


class CountsByColour(Exactly):
    white: MinionCounts
    black: MinionCounts


class PrivateByColour(Exactly):
    white: list[PrivateChamber]
    black: list[PrivateChamber]


class PassedByColour(Exactly):
    white: bool
    black: bool


class WardEffect(Exactly):
    """The Force Mage's: a warded minion's square."""

    mage: Literal["force_mage"]
    square: Square


class RunesEffect(Exactly):
    """The Rune Master's: the player whose minions leap as knights this round."""

    mage: Literal["rune_master"]
    player: Colour


class SeerEffect(Exactly):
    """The Seer's: the turns it still owes after the current one (R14)."""

    mage: Literal["seer"]
    owed: list[Colour]


Effect = Annotated[WardEffect | RunesEffect | SeerEffect, Field(discriminator="mage")]


class Chaos(Exactly):
    deck_count: int = Field(ge=0, description="cards left in the draw pile")
    discard: list[Mage] = Field(description="the discarded chaos mages, oldest first")
    not_in_play: list[Mage] = Field(
        description="the chaos mages in no chamber, in a fixed order that tells nothing of the deck")


class Result(Exactly):
    winner: Colour | None
    reason: Literal[REASONS]  # type: ignore[valid-type]
    abandoned: Colour = absent(description="after a claim: the seat that had gone")
    late: Colour = absent(description="on an abort for a setup not made in time: that side")


class Rating(Exactly):
    rating: int
    rd: int
    provisional: bool = Field(description="while the RD is above 110 (shown `1500?`)")


class Player(Exactly):
    """Who sits at a seat (all null and false at a free seat)."""

    name: str | None
    connected: bool
    bot: Level | None = Field(description="the computer level playing this seat, if a computer plays it")
    account: str | None = Field(None, description="the account's name; null for a guest (never an account's id)")
    computer: bool = Field(False, description="a computer level plays this seat")
    title: Literal["BOT"] | None = Field(None, description="\"BOT\": a bot account (a program) plays this seat")
    rating: Rating | None = Field(None, description="an account's seat's rating in the match's variant")
    rating_change: int | None = Field(None, description="once a rated ending moved the ratings: this seat's change")


class Players(Exactly):
    white: Player
    black: Player


class RealtimeOptions(Exactly):
    type: Literal["realtime"] = "realtime"
    minutes: float
    increment: float


class CorrespondenceOptions(Exactly):
    type: Literal["correspondence"] = "correspondence"
    days: float


class MatchOptions(Exactly):
    """The options as created, the defaults filled in."""

    variant: Literal[VARIANTS]  # type: ignore[valid-type]
    no_progress_rounds: int
    time_control: Annotated[RealtimeOptions | CorrespondenceOptions, Field(discriminator="type")] | None
    join_timeout_seconds: int
    abandon_seconds: float | None = Field(description="null in correspondence matches (no claims)")
    setup_seconds: float | None = Field(None, description="each side's time to set up; null in untimed matches")
    bot_think_seconds: float = absent(description="only against a computer")
    rating_range: int = absent(description="only when the creator asked for one")
    listed: bool = absent(description="only in a match for a friend (false): not listed while it waits")
    position: str = absent(description="only in a match started from a position: its text, as given")


class RealtimeClock(Exactly):
    type: Literal["realtime"] = "realtime"
    white: int = Field(ge=0, description="milliseconds left")
    black: int = Field(ge=0, description="milliseconds left")
    running: Colour | None
    increment: int = Field(ge=0, description="milliseconds added after each of a player's actions")
    setup: int = absent(description="while a side sets up: the milliseconds it has left to", ge=0)


class CorrespondenceClock(Exactly):
    type: Literal["correspondence"] = "correspondence"
    white: int = Field(ge=0, description="milliseconds left")
    black: int = Field(ge=0, description="milliseconds left")
    running: Colour | None
    per_move: int = Field(ge=0, description="milliseconds allowed for each move")
    setup: int = absent(description="while a side sets up: the milliseconds it has left to", ge=0)


Clock = Annotated[RealtimeClock | CorrespondenceClock, Field(discriminator="type")]


class Rematch(Exactly):
    offered_by: Colour | None
    declined_by: Colour | None
    match_id: str | None


class MatchState(Exactly):
    """The public match state of the contract (no secret is ever in it, R20)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [MATCH_EXAMPLE]})
    id: str
    version: int = Field(ge=0)
    status: Literal["waiting", "active", "finished"]
    options: MatchOptions
    round: int = Field(ge=1)
    phase: Literal[PHASES]  # type: ignore[valid-type]
    to_move: Colour | None
    orb: Colour
    arena: dict[str, StandingMinion] = Field(description="the occupied squares only", examples=[
        {"a1": {"owner": "white", "minion": "construct"}}],
        json_schema_extra={"propertyNames": {"pattern": "^[a-h][1-8]$"}})
    reserve: CountsByColour
    dead: CountsByColour
    tower: list[Chamber]
    private: PrivateByColour
    passed: PassedByColour
    effects: list[Effect]
    quiet_rounds: int = Field(ge=0)
    chaos: Chaos
    result: Result | None
    custom: bool
    seed_commitment: str = Field(pattern="^[0-9a-f]{64}$")
    seed: str | None
    position: str = Field(description="the state as one line of the position text form (docs/notation.md); "
                                      "the deck, and the seed of a match that is not custom, are `?` while it runs")
    players: Players
    spectators: int = absent("only in the states the websocket and the match stream send: how many watch now",
                             ge=0)
    clock: Clock | None
    draw_offer: Colour | None
    # Not required, as states logged before these were kept carry none.
    rated: bool = Field(False, description="a rated match (its ending moves ratings); false: casual")
    takeback_offer: Colour | None = Field(None, description="who asks for a takeback now (casual matches only)",
                                          examples=[None])
    rematch: Rematch | None = None
    rematch_of: str | None = None
    created_at: Stamp
    # Enough to draw a clock exactly. Not required: a state
    # logged before they were kept carries them only where the server adds them.
    server_time: Stamp = absent(
        "the server's time when this state was read or made: the moment its `clock` holds "
        "(RFC 3339, UTC, milliseconds); a finished match's is its `finished_at`",
        examples=["2026-11-21T15:04:12.250Z"])
    finished_at: Stamp | None = Field(None, description="when the match finished; null until then",
                                      examples=[None])

