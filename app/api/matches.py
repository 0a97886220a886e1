"""`/api/v1/matches`: the REST calls of the contract. Reads go to the service's
reads; everything a seat does, and create and join, goes through the gateway.

Each route names the parts it uses as parameters (deps.py) and who may call it
(caller.py)."""


import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from app.analysis import finished_analysis, record_notes
from app.kernel import ids
from app.kernel.cursor import CURSOR, CURSOR_MAX
from app.matches import Caller
from app.rules import VARIANTS

from .caller import AnyCaller, SeatCaller, SeatReader
from .conditional import NOT_MODIFIED, validated
from .deps import AnalysesDep, GatewayDep, ReadsDep, ResendsDep
from .errors import responses
from .query_numbers import Digits
from .resends import HEADER, KEY_MAX, KEY_MIN, KEY_PATTERN, Resends
from .schemas import (
    Claim,
    CreateMatch,
    Draw,
    JoinMatch,
    Legal,
    LogEntry,
    MatchBody,
    MatchPage,
    MatchState,
    Play,
    RematchBody,
    SeatBody,
)

PATH = "/api/v1/matches"

# A resend of a create or a join with the same key is answered as the first was (resends.py).
# Described by hand (KEY_PARAMETER): FastAPI would describe an optional header as
# "a string or null", and a header cannot be null.
IdempotencyKey = Annotated[str | None, Header(alias=HEADER, min_length=KEY_MIN, max_length=KEY_MAX,
                                              pattern=KEY_PATTERN, include_in_schema=False)]
KEY_PARAMETER = {"parameters": [{
    "name": HEADER, "in": "header", "required": False,
    "description": f"a key of your own ({KEY_MIN}-{KEY_MAX} visible ASCII characters, a random UUID does): "
                   "a resend with the same key and body within a day is answered as the first request was",
    "schema": {"type": "string", "minLength": KEY_MIN, "maxLength": KEY_MAX, "pattern": KEY_PATTERN}}]}


# The codes of the statuses several codes share that each route can answer:
# what a seat's credential may be refused, then each route's own.
SEAT = ("forbidden", "insufficient_scope", "csrf_failed")
READER = ("forbidden", "insufficient_scope")  # a read asks no CSRF token
ENDING = (*SEAT, "match_over", "rate_limited")
AFTER_END = (*SEAT, "match_running", "rate_limited")


REPLAYED = {"Idempotency-Replayed": "true"}  # the answer kept from the first request, nothing done again


def _seated(status: int, raw: bytes, replayed: bool) -> Response:
    """A create's, a join's or a rematch's answer, with the match's address on a 201 (`Location`)."""
    headers = dict(REPLAYED) if replayed else {}
    if status == 201:
        headers["Location"] = f"{PATH}/{json.loads(raw)['match']['id']}"
    return Response(raw, status_code=status, media_type="application/json", headers=headers)


async def _answered(resends: Resends, key: str | None, call: str, caller: Caller, body: Any,
                    status: int, work: Callable[[], Awaitable[dict[str, Any]]]) -> Response:
    async def answer() -> tuple[int, bytes]:
        return status, bytes(JSONResponse(await work()).body)

    return _seated(*await resends.answer(key, call, caller, body, answer))


router = APIRouter(prefix="/matches", tags=["matches"])


@router.post(
    "", status_code=201, response_model=None,
    responses={201: {"model": SeatBody, "description": "The match, your seat and its token (shown once)",
                      "headers": {"Location": {"description": "the match's address", "schema": {"type": "string"}}}},
               **responses(400, 401, 403, 409, 422, 429, codes=(
                   *SEAT, "name_taken", "request_in_flight", "idempotency_key_reused", "rate_limited",
                   "too_many_bot_matches"))},
    summary="Create a match and take a seat", openapi_extra=KEY_PARAMETER,
)
async def create_match(caller: AnyCaller, gateway: GatewayDep, resends: ResendsDep, body: CreateMatch | None = None,
                       idempotency_key: IdempotencyKey = None) -> Response:
    """Every field has a default, so the body may be left out. Options: `variant`,
    `no_progress_rounds` (R16), `time_control` (null, real-time
    `{"type": "realtime", "minutes", "increment"}` or `{"type": "correspondence", "days"}`),
    `seed` and/or `chaos` (a custom match: its seed is public, R20), `join_timeout_seconds`,
    `abandon_seconds`. `opponent` is `human` or `bot:<level>`. `rated` (default false):
    the match moves ratings; only two accounts, or an account and a computer level,
    play rated. An account's seat (Authorization: Bearer mgo_... or a signed-in
    session) is the account's, named as the account is. With an `Idempotency-Key`,
    a resend with the same key and body is answered as the first request was."""
    asked = body or CreateMatch()

    options = asked.options.model_dump(exclude_none=True)
    if asked.position is not None:
        # The position says its variant and R16 count: only those the client wrote are checked against it.
        options = {k: v for k, v in options.items()
                   if k in asked.options.model_fields_set or k not in ("variant", "no_progress_rounds")}
        options["position"] = asked.position

    async def create() -> dict[str, Any]:
        seated = await gateway.create(caller, options, seat=asked.seat,
                                      opponent=asked.opponent, name=asked.name, rated=asked.rated)
        return {"match": seated.match, "seat": seated.seat, "token": seated.token}

    return await _answered(resends, idempotency_key, "create", caller, asked.model_dump(mode="json"),
                           201, create)


@router.get(
    "", response_model=None, responses={200: {"model": MatchPage}, **responses(400)},
    summary="List matches, newest first",
)
async def list_matches(
    reads: ReadsDep,
    status: Literal["waiting", "active", "finished"] | None = None,
    variant: Literal[VARIANTS] | None = None,  # type: ignore[valid-type]
    player: Annotated[str | None, Query(max_length=40, pattern=ids.STORED_NAME,
                                        description="a player's name, any case")] = None,
    limit: Annotated[int, Query(ge=1, le=100), Digits] = 20,
    cursor: Annotated[str | None, Query(max_length=CURSOR_MAX, pattern=CURSOR,
                                        description="next_cursor of the previous page")] = None,
    here: Annotated[bool, Query(description="only matches where a person (not a bot) is at a seat, "
                                            "or was within the server's listed_away_seconds")] = False,
) -> JSONResponse:
    page = await reads.list(status=status, variant=variant, player=player, limit=limit, cursor=cursor, here=here)
    return JSONResponse(page)


@router.get(
    "/{match_id}", response_model=None, responses={200: {"model": MatchState}, 304: NOT_MODIFIED, **responses(404)},
    summary="The public state of a match",
)
async def get_match(match_id: str, request: Request, reads: ReadsDep) -> Response:
    """A finished match's answer carries an `ETag` and `Cache-Control` (and a
    request with `If-None-Match` is answered 304 while it has not changed)."""
    state = await reads.get(match_id)
    answer = JSONResponse(state)
    return validated(request, bytes(answer.body), state["status"] == "finished", answer)


@router.post(
    "/{match_id}/join", response_model=None,
    responses={200: {"model": SeatBody}, **responses(400, 401, 403, 404, 409, 422, 429, codes=(
        *SEAT, "rating_out_of_range", "seat_taken", "name_taken", "match_over", "request_in_flight",
        "idempotency_key_reused", "rate_limited"))},
    summary="Take the free seat", openapi_extra=KEY_PARAMETER,
)
async def join_match(match_id: str, caller: AnyCaller, gateway: GatewayDep, resends: ResendsDep,
                     body: JoinMatch | None = None,
                     idempotency_key: IdempotencyKey = None) -> Response:
    """As an account, the seat is the account's; nobody joins as an account the
    other seat of a match the account holds, and only an account joins a rated match.
    With an `Idempotency-Key`, a resend with the same key and body is answered as the
    first request was (the seat's token included)."""
    asked = body or JoinMatch()

    async def join() -> dict[str, Any]:
        seated = await gateway.join(match_id, caller, asked.name)
        return {"match": seated.match, "seat": seated.seat, "token": seated.token}

    return await _answered(resends, idempotency_key, f"join:{match_id}", caller,
                           asked.model_dump(mode="json"), 200, join)


@router.get(
    "/{match_id}/legal", response_model=None,
    responses={200: {"model": Legal}, **responses(401, 403, 404, codes=READER)},
    summary="Your legal actions now",
)
async def legal_actions(match_id: str, caller: SeatReader, gateway: GatewayDep) -> JSONResponse:
    """Each legal action once; empty when it is not your turn. In the setup phase
    `actions` is empty and `setup` lists the 8 types: any order of them is legal."""
    return JSONResponse(await gateway.legal(match_id, caller))


@router.post(
    "/{match_id}/actions", response_model=None,
    responses={200: {"model": MatchBody, "headers": {"Idempotency-Replayed": {
        "description": "`true`: a resend of an action that landed before (the same `id`, or the same action, "
                       "on the same version); the answer is the first one's, and nothing was applied again",
        "schema": {"type": "string", "enum": ["true"]}}}},
        **responses(400, 401, 403, 404, 409, 422, 429, codes=(
            *SEAT, "not_your_turn", "stale_version", "id_taken", "match_over", "illegal_action",
            "rate_limited"))},
    summary="Play an action",
)
async def play(match_id: str, body: Play, caller: SeatCaller, gateway: GatewayDep) -> Response:
    """Plays `action` on state `version`. A resend of an action that landed (same
    `id`, same action, same version; or without an id the same action on the
    same version) answers 200 again with `Idempotency-Replayed: true` and applies
    nothing twice; an `id` used before for another action or on another version
    answers 409 `id_taken` (with `used_on`); an action on an older version
    answers 409 `stale_version`."""
    acted = await gateway.play(match_id, caller, body.action, body.version, body.id)
    headers = REPLAYED if acted.duplicate else None
    if acted.match_json is not None:  # encoded once already, for the log
        return Response(b'{"match":' + acted.match_json.encode() + b"}", media_type="application/json",
                        headers=headers)
    return JSONResponse({"match": acted.match}, headers=headers)


@router.get(
    "/{match_id}/actions", response_model=None,
    responses={200: {"model": list[LogEntry]}, 304: NOT_MODIFIED, **responses(404)},
    summary="The action log",
)
async def action_log(
    match_id: str, request: Request, reads: ReadsDep,
    since: Annotated[int, Query(ge=0, le=2**31 - 1, description="only entries after this version"), Digits] = 0,
) -> Response:
    log, finished = await reads.log_and_end(match_id, since)
    answer = JSONResponse(log)
    return validated(request, bytes(answer.body), finished, answer)


@router.get(
    "/{match_id}/record", response_model=None, response_class=PlainTextResponse,
    responses={200: {"description": "the game record: header lines, a blank line, the log "
                                    "(docs/notation.md, \"The game record\")",
                     "content": {"text/plain": {"schema": {"type": "string"}}}},
               304: NOT_MODIFIED, **responses(404)},
    summary="The match as a text game record",
)
async def game_record(match_id: str, request: Request, reads: ReadsDep, analyses: AnalysesDep) -> Response:
    """Headers (players, ratings if rated, variant, options, time control,
    result, the seed once public, the start position if not the standard
    one) and the log, one entry a line, the actions in the notation's JSON.
    Once a computer analysis of the match is done, its engine and accuracies
    are headers too, and each version's eval, judgement and best action a
    comment line (`# ...`) after its entry."""
    done = await finished_analysis(analyses.engine, match_id)
    text, finished = await reads.record(match_id, record_notes(done) if done is not None else None)
    answer = PlainTextResponse(text)
    return validated(request, bytes(answer.body), finished, answer)


@router.post(
    "/{match_id}/resign", response_model=None,
    responses={200: {"model": MatchBody}, **responses(401, 403, 404, 409, 429, codes=ENDING)},
    summary="Resign",
)
async def resign(match_id: str, caller: SeatCaller, gateway: GatewayDep) -> JSONResponse:
    return JSONResponse({"match": await gateway.resign(match_id, caller)})


@router.post(
    "/{match_id}/draw", response_model=None,
    responses={200: {"model": MatchBody}, **responses(400, 401, 403, 404, 409, 429, codes=ENDING)},
    summary="Offer, accept, decline or withdraw a draw",
)
async def draw(match_id: str, body: Draw, caller: SeatCaller, gateway: GatewayDep) -> JSONResponse:
    """`{"offer": true}` offers a draw, or accepts the opponent's offer; `{"offer": false}`
    declines the opponent's offer or withdraws your own. Making a move declines an offer."""
    return JSONResponse({"match": await gateway.draw(match_id, caller, body.offer)})


@router.post(
    "/{match_id}/claim", response_model=None,
    responses={200: {"model": MatchBody}, **responses(400, 401, 403, 404, 409, 429, codes=ENDING)},
    summary="Claim a win or a draw against an absent opponent",
)
async def claim(match_id: str, body: Claim, caller: SeatCaller, gateway: GatewayDep) -> JSONResponse:
    """Allowed once the opponent's seat has been gone longer than the match's
    `abandon_seconds` (default 60 s in real-time matches, 600 s in untimed ones, none
    in correspondence matches). A seat is seen
    through its websocket or any call made with its token, so a client waiting by
    polling should poll `GET /legal`. The result's reason is `timeout`, with
    `"abandoned": colour`."""
    return JSONResponse({"match": await gateway.claim(match_id, caller, body.result)})


@router.post(
    "/{match_id}/abort", response_model=None,
    responses={200: {"model": MatchBody}, **responses(401, 403, 404, 409, 429, codes=ENDING)},
    summary="Abort the match before both setups are done",
)
async def abort(match_id: str, caller: SeatCaller, gateway: GatewayDep) -> JSONResponse:
    return JSONResponse({"match": await gateway.abort(match_id, caller)})


@router.post(
    "/{match_id}/rematch", response_model=None,
    responses={200: {"model": RematchBody}, **responses(400, 401, 403, 404, 409, 422, 429, codes=(
        *AFTER_END, "request_in_flight", "idempotency_key_reused"))},
    summary="Offer a rematch, or accept the opponent's offer", openapi_extra=KEY_PARAMETER,
)
async def rematch(match_id: str, caller: SeatCaller, gateway: GatewayDep, resends: ResendsDep,
                  idempotency_key: IdempotencyKey = None) -> Response:
    """Once the match is over. The rematch has the same options and the colours swapped.
    The first seat to call offers (the answer holds its token for the rematch, given this
    once); the other seat's call accepts: the rematch is made, and its id announced on the
    websocket to both seats (`match.rematch.match_id`). Against a computer the rematch is
    made at once. However many calls race, exactly one rematch is made. With an
    `Idempotency-Key`, a resend with the same key is answered as the first request was
    (the rematch's token included)."""
    async def rematch_of() -> dict[str, Any]:
        made = await gateway.rematch(match_id, caller)
        return {"match": made.match, "rematch": {
            "match_id": made.match_id, "seat": made.seat, "token": made.token}}

    if idempotency_key is not None:
        # The seat first: a caller who proves none is refused as without a key
        # (401, 403, 404), never told of a key it reused (found by schemathesis).
        await gateway.enter(match_id, caller, write=False)
    # No body: the call (this match's rematch) is the whole request.
    return await _answered(resends, idempotency_key, f"rematch:{match_id}", caller, {}, 200, rematch_of)


@router.post(
    "/{match_id}/rematch/decline", response_model=None,
    responses={200: {"model": MatchBody}, **responses(401, 403, 404, 409, 429, codes=AFTER_END)},
    summary="Decline the opponent's rematch offer, or withdraw yours",
)
async def decline_rematch(match_id: str, caller: SeatCaller, gateway: GatewayDep) -> JSONResponse:
    return JSONResponse({"match": await gateway.decline_rematch(match_id, caller)})
