"""`POST /api/v1/matches/{id}/analysis`: request a computer analysis of a
finished match; `GET`: read it, as far as it has gone (app/analysis).

Who may request: any signed-in account (a spectator's too; a session, or an
account token of either scope), or the holder of a seat token of the match.
Anybody may read an analysis: it is of a finished match, whose every position
is public, and it holds evals and legal actions only.

No `from __future__ import annotations`: FastAPI reads the dependencies as objects.
"""

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from app.analysis import Asker
from app.analysis.judge import BLUNDER, INACCURACY, MISTAKE

from .caller import Credentials, Signed, signed
from .deps import AnalysesDep, GatewayDep, address_of
from .errors import responses

Colour = Literal["white", "black"]


class AnalysisPly(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0, description="the version judged (0: the match as created)")
    eval: float = Field(ge=-1, le=1, description="White's expected score after this version, on the advantage "
                                                 "graph's scale: +1 a White win, -1 a Black win, 0 even")
    best: dict[str, Any] | None = Field(
        description="the engine's preferred action for the player to move after this version, in the "
                    "action JSON of docs/notation.md; null where nobody chooses (the setup, the end)")
    judgement: Literal["inaccuracy", "mistake", "blunder"] | None = Field(
        description=f"what the action that made this version cost its mover: a drop of {INACCURACY} "
                    f"(inaccuracy), {MISTAKE} (mistake), {BLUNDER} (blunder) or more of their expected "
                    "score; null for less, or when the action is not judged")
    drop: float | None = Field(ge=0, le=1, description="the mover's expected score (0..1) the action lost; "
                                                       "null when it is not judged")
    mover: Colour | None = Field(description="who chose the action that made this version; null for an "
                                             "automatic entry, a setup, a join, an offer...")


class Accuracy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    white: float | None = Field(ge=0, le=100, description="0-100; null when no action of theirs was judged")
    black: float | None = Field(ge=0, le=100)


class AnalysisBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    status: Literal["queued", "running", "done", "failed"] = Field(
        description="failed: given up after ANALYSIS_TRIES tries (POST asks for it again)")
    progress: float = Field(ge=0, le=1, description="the share of the plies written")
    position: int | None = Field(None, ge=1, description="while queued: the place in the queue (1: next)")
    engine: str = Field(description="what searched: the strong level's search and its depth",
                        examples=["strong depth 2"])
    depth: int = Field(ge=1, description="the search's depth in actions")
    plies: list[AnalysisPly] = Field(description="one per version written so far, in order")
    accuracy: Accuracy
    failure: str | None = Field(None, description="while failed: why, in a few words",
                                examples=["given up after 3 tries (the last one's search raised RuntimeError)"])


router = APIRouter(prefix="/matches", tags=["matches"])


async def _asker(match_id: str, request: Request, credentials: Credentials,
                 who: Annotated[Signed | None, Depends(signed)], gateway: GatewayDep) -> Asker:
    """An account, or a seat token of this match; 401 for anybody else."""
    address = address_of(request)
    if who is not None:
        return Asker(f"account:{who.account_id}", who.account_id, address)
    token = credentials.credentials if credentials is not None else None
    await gateway.service.seats.authenticate(match_id, token)  # Unauthorized, NotFound
    return Asker(f"addr:{address or '-'}", None, address)


@router.post(
    "/{match_id}/analysis", response_model=None, status_code=202,
    responses={202: {"model": AnalysisBody, "description": "queued or running (a failed one queued again, with "
                                                           "fresh tries): the analysis as it stands"},
               200: {"model": AnalysisBody, "description": "done already: the whole analysis"},
               **responses(401, 403, 404, 409, 429, codes=("csrf_failed", "insufficient_scope", "forbidden",
                                                             "match_running"),
                           own={429: {"too_many_analyses": "at most 20 analyses a day"}})},
    summary="Request a computer analysis of a finished match",
)
async def request_analysis(match_id: str, asker: Annotated[Asker, Depends(_asker)],
                           analyses: AnalysesDep) -> JSONResponse:
    """Any signed-in account, or a seat token of the match. A match already
    analysed, or waiting for it, answers that analysis, whoever asks. The work
    waits in a queue shared fairly (one analysis of an account, or of an
    address without one, searched at a time) and bounded: ANALYSIS_PER_ADDRESS
    waiting or running from one address, ANALYSIS_PER_DAY a day per account
    (or address); over either, 429 `too_many_analyses` with `Retry-After`.
    Only a finished match: a running one answers 409 `match_running`. A
    failed analysis (given up after ANALYSIS_TRIES tries) is queued again, with
    fresh tries and the plies it has, counted as a new request."""
    body, pending = await analyses.request(match_id, asker)
    return JSONResponse(body, status_code=202 if pending else 200)


@router.get(
    "/{match_id}/analysis", response_model=AnalysisBody,
    responses=responses(404, own={404: {"no_analysis": "match 'ec60lFT8BdN4' has no analysis: POST to request one"}}),
    summary="A match's computer analysis, as far as it has gone",
)
async def get_analysis(match_id: str, analyses: AnalysesDep) -> JSONResponse:
    """`{"status", "progress", "position" (while queued), "failure" (while failed), "engine", "depth",
    "plies": [{"version", "eval", "best", "judgement", "drop", "mover"}],
    "accuracy": {"white", "black"}}`; 404 `no_analysis` before one is requested.
    docs/api.md ("Computer analysis") says how each figure is made."""
    return JSONResponse(await analyses.read(match_id))
