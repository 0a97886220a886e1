"""`/api/v1/tournaments`: arenas and Swiss events. List them, read one (its
standings and pairings), make one, join and withdraw (an arena's is a pause: join
again to come back; a Swiss event's means no more pairings), and a Swiss
event's TRF-16 export. Each call on one tournament goes to its kind's service.

Reading is open to anyone; making, joining and withdrawing need an account
(an account token with `play`, or a session with its X-CSRF-Token).

No `from __future__ import annotations`: FastAPI reads the routes' annotations
as evaluated objects."""

from dataclasses import replace
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.names import NAME
from app.kernel.errors import Unauthorized
from app.matches import Caller
from app.tournaments import NewArena
from app.tournaments.errors import NoSuchTournament
from app.tournaments.errors import Refused as SwissRefused
from app.tournaments.swiss import NewSwiss

from .caller import AnyCaller
from .deps import ArenasDep, GatewayDep, SwissesDep
from .errors import responses
from .schemas import Timestamp

PATH = "/api/v1/tournaments"
Id = Annotated[str, Path(max_length=24, pattern=r"^[A-Za-z0-9_-]{1,24}$", examples=["Tq3b0aZc1mBx"])]
PlayerName = Annotated[str, Path(min_length=2, max_length=20, pattern=f"^{NAME.pattern}$",
                                 description="the player's name, any case")]
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
    password: str | None = Field(None, max_length=200, description=(
        "1 to 64 characters: only who gives it joins; kept hashed, never shown (the arena reads `private`)"))
    min_rating: int | None = Field(None, description="0 to 4000: the lowest rating, in the arena's variant, "
                                                     "that may join")
    max_rating: int | None = Field(None, description="0 to 4000: the highest rating that may join")
    bots: bool = Field(False, description="bot accounts may join")


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    password: str | None = Field(None, max_length=200, description="a private arena's password")


class BerserkBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    match: str | None = Field(None, max_length=24, description=(
        "the game you mean (optional): refused when it is not your game under way in this arena"))


class Berserked(BaseModel):
    match: dict[str, Any] = Field(description="the match's state, your clock halved (as GET /matches/{id})")
    colour: Literal["white", "black"] = Field(description="your colour in it")


class Standing(BaseModel):
    rank: int
    name: str
    score: int
    games: int
    streak: int = Field(description="wins in a row now: from 2 on, each game counts double (the flame)")
    performance: int | None = Field(description="the rating the results are worth (null: no game yet)")


class TournamentPairing(BaseModel):
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
    private: bool = Field(description="a password is needed to join (the password is never shown)")
    min_rating: int | None = Field(description="the lowest rating that may join (null: no floor)")
    max_rating: int | None = Field(description="the highest rating that may join (null: no ceiling)")
    bots: bool = Field(description="bot accounts may join")
    scheduled: bool = Field(False, description="made by the server's own schedule (hourly and daily arenas)")
    cancelled: bool = Field(False, description="cancelled by an admin: finished at once, with no podium")


class PodiumPlace(BaseModel):
    place: int = Field(description="1, 2 or 3")
    name: str
    score: int
    games: int
    performance: int | None


class TournamentDetail(Tournament):
    standings: list[Standing] = Field(description="by score, ties by performance")
    pairings: list[TournamentPairing] = Field(description="the newest first (the latest 100)")
    podium: list[PodiumPlace] | None = Field(None, description=(
        "a finished arena's first three who played a game, kept when it closed (a few seconds after its end; "
        "empty until then, and for a cancelled arena); absent while the arena runs. Games under way at the "
        "end are played out but score nothing"))


class PlayerGame(BaseModel):
    match: str
    colour: Literal["white", "black"]
    opponent: str | None
    opponent_rating: int = Field(description="the opponent's rating when paired (the performance's input)")
    status: Literal["playing", "finished"]
    result: Literal["win", "draw", "loss", "aborted"] | None = Field(description="from the player's side; null "
                                                                                  "while playing")
    points: int | None = Field(description="what the game scored (null: not scored)")
    counted: bool = Field(description="false for an aborted game and one that ended after the arena did")


class TournamentPlayer(BaseModel):
    """One player of an arena: their standing and their games, the newest first."""

    name: str
    rank: int
    score: int
    games: int
    streak: int
    performance: int | None
    pairings: list[PlayerGame]


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


NAMED = {403: {"playban": "joining a rated arena while your account waits out leaving rated matches",
               "wrong_password": "wrong password for this arena (field: password)",
               "rating_outside": "your rating in this variant is 1420, under the arena's floor of 1500 "
                                 "(field: min_rating or max_rating)",
               "bots_not_allowed": "this arena does not let bot accounts in (field: bots)",
               "not_your_game": "you play no game in this arena now",
               "berserk_unclocked": "this match has no clock: there is nothing to halve",
               "berserk_too_late": "white has played a turn already: berserk is only before your first place, "
                                   "pass or remove",
               "berserk_clock_too_low": "white's clock shows 21 s: berserk needs at least 30 s to halve"},
         404: {"no_such_tournament": "no tournament 'Tq3b0aZc1mBx': GET /api/v1/tournaments lists them"},
         409: {"tournament_finished": "the arena is over: nobody joins it now",
               "not_joined": "you have not joined this arena",
               "tournament_not_started": "the arena has not begun: berserk is for a game under way",
               "already_berserk": "white went berserk already: once a game",
               "match_over": "the match is over"},
         429: {"too_many_arenas": "an account makes at most 3 arenas a hour: try again in 1200 s"}}
# Every account call may be refused as any is: kept beside a route's own codes of the same status.
SHARED = {403: {"csrf_failed": "a change made with the session cookie lacks X-CSRF-Token",
                "insufficient_scope": "an account token without the scope this call needs"},
          429: {"rate_limited": "too many writes; try again in 3 s"}}


def answers(*statuses: int, named: tuple[str, ...] = ()) -> dict[int | str, dict[str, Any]]:
    """The route's error answers: the shared ones, with the arenas' own codes named in `named`."""
    own: dict[int, dict[str, str]] = {}
    for status in statuses:
        mine = {code: detail for code, detail in NAMED.get(status, {}).items()
                if code in named or status == 404}
        if mine and status in SHARED:
            mine = {**SHARED[status], **mine}
        if mine:
            own[status] = mine
    return responses(*statuses, codes=("csrf_failed", "insufficient_scope", "forbidden", "rate_limited"), own=own)


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


@router.get("/{tournament_id}/players/{name}", response_model=None,
            responses={200: {"model": TournamentPlayer}, **responses(400, 404, own={404: {
                **NAMED[404], "no_such_player": "nobody named 'Ada' plays in this tournament"}})},
            summary="A player of an arena: their standing, performance and games")
async def read_tournament_player(tournament_id: Id, name: PlayerName, arenas: ArenasDep) -> JSONResponse:
    return JSONResponse(await arenas.player(tournament_id, name))


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
                 **answers(400, 401, 403, 429, named=("too_many_arenas",))},
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
                                                    body.starts_in_seconds, body.rated, body.password,
                                                    body.min_rating, body.max_rating, body.bots))
    return JSONResponse(await arenas.view(made), status_code=201, headers={"Location": f"{PATH}/{made}"})


async def _create_swiss(body: NewTournament, account_id: int, swisses: Any) -> JSONResponse:
    if body.minutes is not None:
        raise SwissRefused("minutes", 'a Swiss event (kind "swiss") has rounds, not minutes: minutes are an arena\'s')
    for field in ("password", "min_rating", "max_rating"):
        if getattr(body, field) is not None:
            raise SwissRefused(field, f"{field} is an arena's rule of entry: a Swiss event has none")
    if body.bots:
        raise SwissRefused("bots", "bots is an arena's rule of entry: a Swiss event has none")
    if body.rounds is None:
        raise SwissRefused("rounds", "rounds, the Swiss event's number of rounds, is a whole number from 1 to 50")
    interval = body.round_interval_seconds
    if interval is None:
        interval = 86_400 if isinstance(body.time_control, dict) else 60
    made = await swisses.create(account_id, NewSwiss(body.name, body.variant, body.time_control, body.rounds,
                                                     interval, body.starts_in_seconds, body.rated))
    return JSONResponse(await swisses.view(made), status_code=201, headers={"Location": f"{PATH}/{made}"})


@router.post("/{tournament_id}/join", response_model=None,
             responses={200: {"model": TournamentDetail}, **answers(
                 401, 403, 404, 409, 429, named=("playban", "wrong_password", "rating_outside", "bots_not_allowed",
                                                 "tournament_finished"))},
             summary="Join an arena (or come back after a withdrawal): paired at once when a partner waits")
async def join_tournament(tournament_id: Id, caller: AnyCaller, arenas: ArenasDep, swisses: SwissesDep,
                          gateway: GatewayDep, body: JoinBody | None = None) -> JSONResponse:
    account_id = _account(caller)
    await gateway.count_write(caller)
    if await swisses.is_swiss(tournament_id):
        await swisses.join(tournament_id, account_id, caller.account or "")
        return JSONResponse(await swisses.view(tournament_id))
    await arenas.join(tournament_id, account_id, caller.account or "", body.password if body else None)
    return JSONResponse(await arenas.view(tournament_id))


@router.post("/{tournament_id}/withdraw", response_model=None,
             responses={200: {"model": TournamentDetail}, **answers(
                 401, 403, 404, 409, 429, named=("tournament_finished", "not_joined"))},
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


@router.post("/{tournament_id}/berserk", response_model=None,
             responses={200: {"model": Berserked}, **answers(
                 401, 403, 404, 409, 429, named=("not_your_game", "berserk_unclocked", "tournament_finished",
                                                 "tournament_not_started", "berserk_too_late", "already_berserk",
                                                 "berserk_clock_too_low", "match_over"))},
             summary="Berserk: halve your own clock in your arena game, before your first turn, for a point more "
                     "if you win")
async def berserk_tournament(tournament_id: Id, caller: AnyCaller, arenas: ArenasDep, gateway: GatewayDep,
                             body: BerserkBody | None = None) -> JSONResponse:
    _account(caller)
    await gateway.count_write(caller)
    return JSONResponse(await arenas.berserk(tournament_id, replace(caller, counted=True),
                                             body.match if body else None))
