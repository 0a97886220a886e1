"""`/api/v1/tournaments`: arenas and Swiss events. List them, read one (its
standings and pairings), make one, join and withdraw (an arena's is a pause: join
again to come back; a Swiss event's means no more pairings), and a Swiss
event's TRF-16 export. Each call on one tournament goes to its kind's service.

Reading is open to anyone; making, joining and withdrawing need an account
(an account token with `play`, or a session with its X-CSRF-Token).

No `from __future__ import annotations`: FastAPI reads the routes' annotations
as evaluated objects."""

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from app.kernel.errors import Unauthorized
from app.matches import Caller
from app.tournaments import NewArena
from app.tournaments.errors import NoSuchTournament
from app.tournaments.swiss import NewSwiss
from app.tournaments.swiss.service import Refused as SwissRefused

from .caller import AnyCaller
from .deps import ArenasDep, GatewayDep, SwissesDep
from .errors import responses
from .schemas import Timestamp

PATH = "/api/v1/tournaments"
Id = Annotated[str, Path(max_length=24, pattern=r"^[A-Za-z0-9_-]{1,24}$", examples=["Tq3b0aZc1mBx"])]
router = APIRouter(prefix="/tournaments", tags=["tournaments"])


class NewTournament(BaseModel):
    """An arena or a Swiss event to make. A refused field is named in the answer's `field`."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [{
        "kind": "arena", "name": "Hourly Blitz", "variant": "standard", "time_control": "5+3", "minutes": 60,
        "starts_in_seconds": 300, "rated": True}]})

    kind: Literal["arena", "swiss"] = "arena"
    name: str = Field(description="2 to 48 characters", max_length=200)
    variant: str = Field("standard", max_length=40)
    time_control: str | dict[str, Any] = Field(
        description='"<minutes>+<increment seconds>", real-time; a Swiss event may instead be correspondence, '
                    '{"type": "correspondence", "days": 1 to 14}')
    minutes: int | None = Field(None, description="an arena's length, 1 to 1440 (an arena only)")
    rounds: int | None = Field(None, description="a Swiss event's rounds, 1 to 50 (Swiss only)")
    round_interval_seconds: int | None = Field(
        None, description="Swiss only: the least time from a round's pairing to the next's, 0 to 604800 "
                          "(default 60 real-time, 86400 correspondence)")
    starts_in_seconds: int = Field(0, description="0 to 30 days ahead")
    rated: bool = Field(False, description="its games move ratings")


class Standing(BaseModel):
    rank: int
    name: str
    score: int
    games: int
    streak: int = Field(description="wins in a row now: from 2 on, each game counts double (the flame)")
    performance: int | None = Field(description="the rating the results are worth (null: no game yet)")


class Pairing(BaseModel):
    match: str
    white: str | None
    black: str | None
    status: Literal["playing", "finished"]
    result: Literal["white", "black", "draw", "aborted"] | None


class Tournament(BaseModel):
    id: str
    kind: Literal["arena"]
    name: str
    status: Literal["created", "started", "finished"]
    variant: str
    time_control: str = Field(examples=["5+3"])
    rated: bool
    starts_at: Timestamp = Field(examples=["2026-11-29T09:00:00.000Z"], description="RFC 3339, UTC, milliseconds")
    ends_at: Timestamp = Field(examples=["2026-11-29T10:00:00.000Z"])


class TournamentDetail(Tournament):
    standings: list[Standing] = Field(description="by score, ties by performance")
    pairings: list[Pairing] = Field(description="the newest first (the latest 100)")


class SwissStanding(BaseModel):
    rank: int
    name: str
    score: float = Field(description="a win 1, a draw 0.5, the bye 1")
    games: int = Field(description="games played over the board")
    buchholz: float = Field(description="the sum of the opponents' scores")
    sonneborn_berger: float = Field(description="the scores of the opponents beaten, and half of those drawn")
    withdrawn: bool


class SwissPairing(BaseModel):
    round: int
    board: int
    match: str | None = Field(description="null for the bye, or until the match is made")
    white: str | None
    black: str | None = Field(description="null: the pairing-allocated bye")
    status: Literal["pending", "playing", "finished"]
    result: Literal["white", "black", "draw", "aborted", "bye"] | None


class Swiss(BaseModel):
    id: str
    kind: Literal["swiss"]
    name: str
    status: Literal["created", "started", "finished"]
    variant: str
    time_control: str | dict[str, Any] = Field(examples=["5+3", {"type": "correspondence", "days": 1}])
    rated: bool
    starts_at: Timestamp = Field(examples=["2026-11-29T09:00:00.000Z"])
    rounds: int
    round: int = Field(description="the last round paired (0: none yet)")
    round_interval_seconds: int
    next_round_at: Timestamp | None = Field(description="the next round is paired from then on, once every game "
                                                        "of this one is over (null: finished)")


class SwissDetail(Swiss):
    standings: list[SwissStanding] = Field(description="by score, then Buchholz, then Sonneborn-Berger")
    pairings: list[SwissPairing] = Field(description="the latest round first, the top board first")


class TournamentList(BaseModel):
    tournaments: list[Tournament | Swiss]


def _account(caller: Caller) -> int:
    if caller.account_id is None:
        raise Unauthorized("sign in to play in tournaments: only accounts make, join and withdraw")
    return caller.account_id


NAMED = {404: {"no_such_tournament": "no tournament 'Tq3b0aZc1mBx': GET /api/v1/tournaments lists them"},
         409: {"tournament_finished": "the arena is over: nobody joins it now",
               "not_joined": "you have not joined this arena"}}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return responses(*statuses, codes=("csrf_failed", "insufficient_scope", "forbidden", "rate_limited"),
                     own={s: NAMED[s] for s in statuses if s in NAMED})


@router.get("", response_model=None, responses={200: {"model": TournamentList}, **answers(400)},
            summary="The arenas and Swiss events, the latest to start first")
async def list_tournaments(arenas: ArenasDep, swisses: SwissesDep,
                           limit: Annotated[int, Query(ge=1, le=100)] = 50) -> JSONResponse:
    listed = await arenas.listing(limit)
    swiss = await swisses.summaries([t["id"] for t in listed])
    return JSONResponse({"tournaments": [swiss.get(t["id"], t) for t in listed]})


@router.get("/{tournament_id}", response_model=None,
            responses={200: {"model": TournamentDetail | SwissDetail}, **answers(404)},
            summary="An arena or a Swiss event: its standings and pairings")
async def read_tournament(tournament_id: Id, arenas: ArenasDep, swisses: SwissesDep) -> JSONResponse:
    if await swisses.is_swiss(tournament_id):
        return JSONResponse(await swisses.view(tournament_id))
    return JSONResponse(await arenas.view(tournament_id))


@router.get("/{tournament_id}/trf", response_class=PlainTextResponse,
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                             "description": "the Swiss event as a FIDE TRF-16 file (its finished rounds)"},
                       **answers(404)},
            summary="A Swiss event as a TRF-16 file")
async def get_tournament_trf(tournament_id: Id, swisses: SwissesDep) -> PlainTextResponse:
    if not await swisses.is_swiss(tournament_id):
        raise NoSuchTournament(f"no Swiss event {tournament_id!r}: only a Swiss event has a TRF")
    return PlainTextResponse(await swisses.trf(tournament_id))


@router.post("", status_code=201, response_model=None,
             responses={201: {"model": TournamentDetail | SwissDetail, "headers": {
                 "Location": {"description": "the arena's address", "schema": {"type": "string"}}}},
                 **answers(400, 401, 403, 429)},
             summary="Make an arena or a Swiss event")
async def create_tournament(body: NewTournament, caller: AnyCaller, arenas: ArenasDep, swisses: SwissesDep,
                            gateway: GatewayDep) -> JSONResponse:
    account_id = _account(caller)
    await gateway.count_write(caller)
    if body.kind == "swiss":
        return await _create_swiss(body, account_id, swisses)
    if body.rounds is not None or body.round_interval_seconds is not None:
        raise SwissRefused("rounds" if body.rounds is not None else "round_interval_seconds",
                           "an arena has minutes, not rounds: rounds are a Swiss event's")
    if not isinstance(body.time_control, str):
        raise SwissRefused("time_control", 'an arena\'s time_control is "<minutes>+<increment seconds>", as "5+3"')
    if body.minutes is None:
        raise SwissRefused("minutes", "minutes, the arena's length, is a whole number from 1 to 1440")
    made = await arenas.create(account_id, NewArena(body.name, body.variant, body.time_control, body.minutes,
                                                    body.starts_in_seconds, body.rated))
    return JSONResponse(await arenas.view(made), status_code=201, headers={"Location": f"{PATH}/{made}"})


async def _create_swiss(body: NewTournament, account_id: int, swisses: Any) -> JSONResponse:
    if body.minutes is not None:
        raise SwissRefused("minutes", 'a Swiss event (kind "swiss") has rounds, not minutes: minutes are an arena\'s')
    if body.rounds is None:
        raise SwissRefused("rounds", "rounds, the Swiss event's number of rounds, is a whole number from 1 to 50")
    interval = body.round_interval_seconds
    if interval is None:
        interval = 86_400 if isinstance(body.time_control, dict) else 60
    made = await swisses.create(account_id, NewSwiss(body.name, body.variant, body.time_control, body.rounds,
                                                     interval, body.starts_in_seconds, body.rated))
    return JSONResponse(await swisses.view(made), status_code=201, headers={"Location": f"{PATH}/{made}"})


@router.post("/{tournament_id}/join", response_model=None,
             responses={200: {"model": TournamentDetail}, **answers(401, 403, 404, 409, 429)},
             summary="Join an arena (or come back after a withdrawal): paired at once when a partner waits")
async def join_tournament(tournament_id: Id, caller: AnyCaller, arenas: ArenasDep, swisses: SwissesDep,
                          gateway: GatewayDep) -> JSONResponse:
    account_id = _account(caller)
    await gateway.count_write(caller)
    if await swisses.is_swiss(tournament_id):
        await swisses.join(tournament_id, account_id, caller.account or "")
        return JSONResponse(await swisses.view(tournament_id))
    await arenas.join(tournament_id, account_id, caller.account or "")
    return JSONResponse(await arenas.view(tournament_id))


@router.post("/{tournament_id}/withdraw", response_model=None,
             responses={200: {"model": TournamentDetail}, **answers(401, 403, 404, 409, 429)},
             summary="Withdraw from an arena: a pause, not paired again until you join again")
async def withdraw_tournament(tournament_id: Id, caller: AnyCaller, arenas: ArenasDep, swisses: SwissesDep,
                              gateway: GatewayDep) -> JSONResponse:
    account_id = _account(caller)
    await gateway.count_write(caller)
    if await swisses.is_swiss(tournament_id):
        await swisses.withdraw(tournament_id, account_id)
        return JSONResponse(await swisses.view(tournament_id))
    await arenas.withdraw(tournament_id, account_id)
    return JSONResponse(await arenas.view(tournament_id))
