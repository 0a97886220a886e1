"""Request and response bodies of the REST API, with examples for /docs.

Request models refuse unknown fields (extra="forbid"): nothing a client sends
is bound to anything unless it is named here.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from app.bots import LEVELS
from app.kernel import ids
from app.matches.ranges import RANGE_MAX, RANGE_MIN
from app.rules import VARIANTS
from app.rules.mages import CHAOS_MAGES, MAGES

from .action_schema import Action, DocumentedAsAction, LogAction, MinionType, tag_required
from .state_schema import MatchState as MatchState

Colour = Literal["white", "black"]
# A timestamp the server sends as text (docs/api.md, Conventions): documented as
# one, kept a string so that a model that answers it
# (response_model) sends it exactly as made, milliseconds and `Z`.
Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
MAX_STORED_NAME = 64  # the seats' column
MIN_MINUTES = 0.25  # a real-time clock's least initial time: 15 seconds
MIN_DAYS = 0.25  # a correspondence clock's least time per move: 6 hours


def _display_name(value: str) -> str:
    """A name as it is shown and stored: refused with the reason when it holds a
    control or bidirectional character or shows nothing (the schema's pattern
    says the same), else in NFKC form."""
    problem = ids.name_flaw(value)
    if problem is None:
        value = unicodedata.normalize("NFKC", value).strip()
        problem = ids.name_flaw(value)
        if problem is None and len(value) > MAX_STORED_NAME:
            problem = f"is longer than {MAX_STORED_NAME} characters in its NFKC form"
    if problem is not None:
        raise ValueError(f"a name {problem}")
    return value


# The pattern only documents (json_schema_extra): the validator checks the same
# and says which character is wrong, where "should match pattern" would not.
NAME_RULES = ("; besides the pattern, a zero-width joiner only between two symbols (an emoji's parts) and at most "
              f"{ids.MOST_MARKS} combining marks on one character")
Name = Annotated[str, Field(min_length=1, max_length=40, json_schema_extra={"pattern": ids.NAME}, examples=["Ada"]),
                 AfterValidator(_display_name)]


def _whole(value: Any) -> Any:
    """JSON Schema counts 3.0 as an integer, so the server takes it as 3
    (nothing the schema admits is refused); "3" and 3.5 stay refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def whole(ge: int, le: int) -> Any:
    """An int from `ge` to `le` (the bounds before the validator: so they reach the schema)."""
    return Annotated[int, Field(ge=ge, le=le), BeforeValidator(_whole)]

ChaosMage = Literal[tuple(MAGES[i] for i in CHAOS_MAGES)]  # type: ignore[valid-type]


def _unique(names: list[str] | None) -> list[str] | None:
    if names is not None and len(set(names)) != len(names):
        raise ValueError("every chaos mage is unique (R6): none may be named twice")
    return names


class Strict(BaseModel):
    # strict: "1" is not a version, and true is not a number of rounds.
    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=tag_required)


class Realtime(Strict):
    type: Literal["realtime"] = "realtime"
    # Lower bounds: 1e-320 minutes made a match its joiner lost in 0.7 s.
    minutes: float = Field(ge=MIN_MINUTES, le=600, description="each player's initial time, from 0.25 (15 s)",
                           examples=[5])
    increment: float = Field(0, ge=0, le=300, description="seconds added after each of a player's moves")


class Correspondence(Strict):
    type: Literal["correspondence"] = "correspondence"
    days: float = Field(ge=MIN_DAYS, le=30, description="the time allowed for each move, from 0.25 (6 hours)",
                        examples=[3])


TimeControl = Annotated[Realtime | Correspondence, Field(discriminator="type")]


class Options(Strict):
    variant: Literal[VARIANTS] = "standard"  # type: ignore[valid-type]
    no_progress_rounds: whole(0, 1000) = Field(10, description="R16; 0 turns the rule off")  # type: ignore[valid-type]
    time_control: TimeControl | None = None
    seed: str | None = Field(None, min_length=1, max_length=128, pattern=ids.SEED,
                             description="a chosen seed makes a custom match whose seed is public (R20)")
    chaos: Annotated[list[ChaosMage] | None, AfterValidator(_unique)] = Field(  # type: ignore[valid-type]
        None, max_length=11, json_schema_extra={"uniqueItems": True},
        description="chaos mages to deal first, in order: a custom match (R20)")
    # The bounds inside the Optional: on the union itself they would not reach the schema.
    join_timeout_seconds: whole(10, 30 * 86400) | None = Field(  # type: ignore[valid-type]
        None, description="abort the match if nobody joins in time")
    rating_range: whole(RANGE_MIN, RANGE_MAX) | None = Field(  # type: ignore[valid-type]
        None, examples=[200], description="only an account whose rating in the variant is within this many "
                                          "points of the creator's may join (create as an account, human "
                                          "opponent); none: anyone")
    listed: bool = Field(True, description="false: a match for a friend, joined by its link and left out of "
                                           "the public list of open matches (GET /matches while it waits)")
    abandon_seconds: whole(10, 30 * 86400) | None = Field(None,  # type: ignore[valid-type]
                                        description="how long a seat may be gone before its opponent may claim")
    bot_think_seconds: float | None = Field(None, gt=0, le=10,
                                            description="how long a computer opponent may think per action "
                                                        "(default: the server's BOT_THINK_SECONDS)")


POSITION_EXAMPLE = ("cfedubsm/8/8/8/8/8/8/CFEDUBSM dw w 1 22222222/22222222 00000000/00000000 "
                    "............|dm.,rm.,al.,mg. -/- - - - - 0 se,en,me,co,fm,il,sh/- my-seed standard:10 -")


class CreateMatch(Strict):
    options: Options = Field(default_factory=Options)
    seat: Literal["white", "black", "random"] = "random"
    # The schema admits exactly the levels the server plays.
    opponent: str = Field("human", pattern=rf"^(human|bot:({'|'.join(LEVELS)}))$",
                          examples=["human", "bot:random"])
    name: Name = Field("anonymous", description="the seat's name; an account's seat is named as the account is"
                                                + NAME_RULES)
    rated: bool = Field(False, description="the match moves ratings: two accounts, or an account and a "
                                           "computer level (create as an account)")
    position: str | None = Field(None, min_length=1, max_length=2000, description=(
        "start from this position text (docs/notation.md, all 17 fields, deck and seed written out): a "
        "casual, custom match whose seed, deck and variant are the position's"),
        examples=[POSITION_EXAMPLE])

    # Two whole bodies: a usual match, and one from a position, each as a
    # client sends it; schemathesis sends each as it is (tests/api/test_schemathesis.py).
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "options": {"variant": "standard", "no_progress_rounds": 10,
                    "time_control": {"type": "realtime", "minutes": 10, "increment": 5}},
        "seat": "white", "opponent": "human", "name": "Ada"},
        {"position": POSITION_EXAMPLE, "seat": "black", "name": "Ada"}]})


class JoinMatch(Strict):
    name: Name = Field("anonymous", description="the seat's name; an account's seat is named as the account is"
                                                + NAME_RULES)


class Play(Strict):
    # Read by the rules' own parser (its refusals name the problem); documented
    # with the exact shapes it takes.
    action: Annotated[dict[str, Any], DocumentedAsAction()] = Field(
        examples=[{"type": "place", "mage": "animist", "minion": "beast"}])
    version: whole(0, 2**31 - 1) = Field(  # type: ignore[valid-type]
        description="the version of the state the action was chosen on")
    id: str | None = Field(None, min_length=1, max_length=64, pattern=ids.CLIENT_ID,
                           description="chosen by the client: a resend with the same id applies nothing twice")

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"action": {"type": "setup", "backrow": ["construct", "fey", "elemental", "dragon", "undead",
                                                 "beast", "spirit", "myrmidon"]}, "version": 1, "id": "c-1"},
        {"action": {"type": "remove", "mage": "animist", "power": {"move": ["b2", "c3"]}}, "version": 17},
    ]})


class Draw(Strict):
    offer: bool = Field(description="true offers or accepts a draw; false declines or withdraws")


class Claim(Strict):
    result: Literal["win", "draw"]


# ---- responses (documentation: the routes answer plain JSON) -------------------

class MatchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    match: MatchState


class SeatBody(BaseModel):
    """The seat taken and its token: shown this once, keep it."""

    model_config = ConfigDict(extra="forbid")
    match: MatchState
    seat: Colour
    token: str = Field(examples=["kJ3v0m7QeX1s9c4tB2yW8dL6hR5nA0pU_zVgTq1oF2E"])


class RematchSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    match_id: str | None = Field(description="the rematch's id once it is made; null while your offer waits")
    seat: Colour = Field(description="the seat you take in the rematch: the other colour")
    token: str | None = Field(description="that seat's token, given this once (keep it); null when "
                                          "it was given before")


class RematchBody(BaseModel):
    """The finished match (its `rematch` says where the offer stands) and your seat in the rematch."""

    model_config = ConfigDict(extra="forbid")
    match: MatchState
    rematch: RematchSeat


class MatchPage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    matches: list[MatchState]
    next_cursor: str | None = Field(description="pass as ?cursor= for the next page; null on the last")


class Legal(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int
    actions: list[Action] = Field(examples=[[{"type": "pass"},
                                                     {"type": "place", "mage": "oracle", "minion": "fey"}]])
    setup: list[MinionType] = Field(
        description="in the setup phase, on your turn: any order of these is a legal backrow")


class LogEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int
    player: Colour | None
    action: LogAction
    automatic: bool
    at: datetime = Field(examples=["2026-11-21T15:00:03.120Z"], description="RFC 3339, UTC, milliseconds")


class AccountBody(BaseModel):
    """Who the credential speaks for (GET /api/v1/account)."""

    name: str = Field(examples=["Ada"])
    created_at: datetime = Field(examples=["2026-11-21T15:00:00.000Z"], description="RFC 3339, UTC, milliseconds")
    computer: bool = Field(description="a computer level's account (nobody signs in as one)")
    title: Literal["BOT"] | None = Field(None, description="\"BOT\": a bot account, which a program plays")
    scopes: list[Literal["play", "read"]] = Field(
        examples=[["play", "read"]], description="the token's scopes; a signed-in session has both")


class ErrorBody(BaseModel):
    error: str = Field(examples=["illegal_action"])
    detail: str = Field(examples=["R4: a construct on its own backrow cannot reach the opponent's backrow"])
    version: int | None = Field(None, description="with stale_version: the current version")
    used_on: int | None = Field(None, description="with id_taken: the version the action id was first used on")
