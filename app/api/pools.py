"""`/api/v1/pools`: quick pairing. List the pools, join one (or
several), wait for the pairing in a long-held request, leave.

A guest is known by the ticket its first join hands it (shown once), sent
after as `Authorization: Bearer <ticket>`; an account by its token or session.

No `from __future__ import annotations`: FastAPI reads the routes' annotations
as evaluated objects."""


from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse

from app.accounts.guest_names import check_guest_name
from app.config import Settings
from app.matches import Caller
from app.pools import POOL_ID, POOLS, Who

from .caller import AnyCaller, bearer_of
from .deps import GatewayDep, PoolsDep
from .errors import responses
from .pool_schemas import JoinPool, PoolAnswer, PoolList

NAMED = {404: ("no_such_pool", "no pool 'standard:7+7': GET /api/v1/pools lists them"),
         409: ("not_waiting", "you wait in no pool: join one first")}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The errors' documentation (errors.responses), with the pools' own codes among the examples."""
    found = responses(*statuses, codes=("csrf_failed", "insufficient_scope", "forbidden", "rate_limited",
                                        "too_many_places"),
                      own={409: dict([NAMED[409]])})  # its only 409
    for status, (code, detail) in NAMED.items():
        if status in found and status != 409:
            examples = found[status]["content"]["application/json"]["examples"]
            found[status] = {**found[status], "content": {"application/json": {
                **found[status]["content"]["application/json"],
                "examples": {code: {"value": {"error": code, "detail": detail}}, **examples}}}}
    return found


PoolId = Annotated[str, Path(max_length=40, pattern=POOL_ID, examples=["standard:10+5"])]


def _who(caller: Caller) -> Who:
    return Who(caller.account_id, caller.account, caller.token)


router = APIRouter(prefix="/pools", tags=["pools"])

# A guest's ticket (Bearer), or an account (token with `play`, or session); a
# guest's first join brings nothing and is given a ticket.
async def presser(request: Request, caller: AnyCaller) -> Caller:
    """An account, or a guest with the Bearer ticket it brings (none: none yet).
    Declared as no security scheme: a guest's first join brings nothing."""
    if caller.account_id is not None:
        return caller
    return Caller(bearer_of(request), caller.address, counted=caller.counted)

Presser = Annotated[Caller, Depends(presser)]
# The longest a wait is held: the default setting, as the schema says; a
# server set otherwise holds no longer than its own setting.
LONGEST = Settings.model_fields["pool_wait_seconds"].default


@router.get("", response_model=None, responses={200: {"model": PoolList}, **answers()},
            summary="The pools, and how many wait in each")
async def list_pools(pools: PoolsDep) -> JSONResponse:
    waiting = await pools.counts()
    return JSONResponse({"pools": [{**pool.public(), "waiting": waiting.get(pool.id, 0)}
                                   for pool in POOLS.values()]})


@router.post("/{pool_id}/join", response_model=None,
             responses={200: {"model": PoolAnswer}, **answers(400, 401, 403, 404, 429),
                        **responses(409, codes=("name_taken",))},
             summary="Wait in a pool (and be paired at once if a partner waits)")
async def join_pool(pool_id: PoolId, caller: Presser, pools: PoolsDep, gateway: GatewayDep, body: JoinPool | None = None) -> JSONResponse:
    """Join as many pools as you like: when paired in one you leave the others.
    Answers `paired` when a partner was waiting, else `waiting`: then hold
    `GET /pools/wait` until paired. A guest's first join answers its `ticket`."""
    await gateway.count_write(caller)
    body = body or JoinPool()
    if caller.account is None:  # a guest waits under its name: never one that looks like an account's
        await check_guest_name(gateway.service.engine, body.name)
    answer = await pools.join(pool_id, _who(caller), body.name, body.bots, caller.address)
    return JSONResponse(answer.public())


@router.get("/wait", response_model=None,
            responses={200: {"model": PoolAnswer}, **answers(400, 401, 409)},
            summary="Wait for your pairing (a long-held request)")
async def wait(
    request: Request, caller: Presser, pools: PoolsDep,
    timeout: Annotated[float, Query(ge=0, le=60, description="the longest to hold, in seconds "
                                                              "(the server holds at most POOL_WAIT_SECONDS)")] = LONGEST,
) -> JSONResponse:
    """Held until you are paired, or `timeout` passes: then `waiting`, and ask
    again. While held (and for POOL_LEASE_SECONDS after) your places are kept;
    a player who stops asking leaves the pools within those seconds."""
    answer = await pools.wait(_who(caller), min(timeout, pools.settings.pool_wait_seconds), request.is_disconnected)
    return JSONResponse(answer.public())


@router.post("/{pool_id}/leave", response_model=None,
             responses={200: {"model": PoolAnswer}, **answers(400, 401, 403, 404, 429)},
             summary="Leave a pool")
async def leave_pool(pool_id: PoolId, caller: Presser, pools: PoolsDep, gateway: GatewayDep) -> JSONResponse:
    await gateway.count_write(caller)
    return JSONResponse((await pools.leave(_who(caller), pool_id)).public())


@router.post("/leave", response_model=None,
             responses={200: {"model": PoolAnswer}, **answers(401, 403, 429)},
             summary="Leave every pool (Cancel)")
async def leave_all(caller: Presser, pools: PoolsDep, gateway: GatewayDep) -> JSONResponse:
    """A pairing made already stands: the answer says so."""
    await gateway.count_write(caller)
    return JSONResponse((await pools.leave(_who(caller))).public())
