"""`/api/v1/puzzles`: the next puzzle for the caller, and an attempt at one.

A guest may solve puzzles, unrated; an account (its token with the `play`
scope for an attempt, or a signed-in session with its X-CSRF-Token) is
served puzzles near its puzzle rating, and its first finished try at each
is rated. See docs/api.md, "Puzzles". No `from __future__ import
annotations`: FastAPI reads the routes' annotations as evaluated objects.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.matches import Caller as WriteCaller
from app.puzzles.miner import MOST_MOVES
from app.puzzles.service import Puzzles

from .action_schema import DocumentedAsAction
from .caller import MissingScope, Signed, signed_or_guest
from .deps import GatewayDep, address_of
from .errors import responses
from .schemas import Strict

router = APIRouter(prefix="/puzzles", tags=["puzzles"])

PuzzleId = Annotated[str, Path(pattern="^[0-9a-f]{12}$", description="a puzzle's id", examples=["0c059a21af16"])]
# A guest needs no credential: nothing is declared (a declared one would read
# as required), and an account's token or session is read as create and join read it.
Caller = Annotated[Signed | None, Depends(signed_or_guest)]


def get_puzzles(request: Request) -> Puzzles:
    return request.app.state.parts.puzzles  # type: ignore[no-any-return]


PuzzlesDep = Annotated[Puzzles, Depends(get_puzzles)]


class SolutionStep(BaseModel):
    player: str = Field(examples=["black"])
    action: dict[str, Any] = Field(examples=[{"type": "remove", "mage": "animist", "power": {"move": ["e7", "e5"]}}])


class PuzzleShown(BaseModel):
    id: str = Field(examples=["0c059a21af16"])
    position: str = Field(description="the position text (docs/notation.md), its deck masked")
    to_move: str = Field(examples=["black"], description="the solver's colour")
    rating: int = Field(examples=[1300])
    themes: list[str] = Field(examples=[["animist", "capture", "greater_minion", "one_action"]])
    moves: int = Field(examples=[1], description="the solver's actions in the solution")
    plays: int = Field(examples=[0], description="rated tries so far")
    hint: str | None = Field(examples=["animist"], description="the chamber of the first action, for a hint")
    player_rating: int | None = Field(examples=[1500], description="the caller's puzzle rating; null: a guest, or none yet")
    state: dict[str, Any] = Field(description="the public match state of the position (as a match's `state`)")
    legal: list[dict[str, Any]] = Field(description="the solver's legal actions")


class PuzzleAttempt(Strict):
    actions: list[Annotated[dict[str, Any], DocumentedAsAction()]] = Field(
        min_length=1, max_length=MOST_MOVES,
        description="the solver's actions so far, from the puzzle's position (the opponent's are played for them)")


class ReplayStep(SolutionStep):
    words: str = Field(description="the action in the engine's words")
    state: dict[str, Any]


class PuzzleJudged(BaseModel):
    correct: bool
    complete: bool = Field(description="solved or failed; false: right so far, play on from `state`")
    solution: list[SolutionStep] | None = Field(description="the whole line, both sides, once complete")
    rating_change: float | None = Field(description="the caller's puzzle rating change; null: unrated")
    player_rating: int | None
    replies: list[dict[str, Any]] = Field(description="the opponent's answers after the last action sent")
    replay: list[ReplayStep] | None = Field(None, description="the solution with the state after each action, once complete")
    position: str
    state: dict[str, Any]
    legal: list[dict[str, Any]]


@router.get("/next", response_model=PuzzleShown, responses=responses(401, 404),
            summary="The next puzzle for you")
async def next_puzzle(who: Caller, puzzles: PuzzlesDep) -> JSONResponse:
    """Near your puzzle rating and not tried yet; a guest gets one near 1500."""
    return JSONResponse(await puzzles.next_for(None if who is None else who.account_id))


@router.get("/{puzzle_id}", response_model=PuzzleShown, responses=responses(401, 404),
            summary="One puzzle")
async def one_puzzle(puzzle_id: PuzzleId, who: Caller, puzzles: PuzzlesDep) -> JSONResponse:
    return JSONResponse(await puzzles.one(puzzle_id, None if who is None else who.account_id))


@router.post("/{puzzle_id}/attempt", response_model=PuzzleJudged,
             responses={**responses(400, 401, 404, 422, 429),
                        **responses(403, codes=("csrf_failed", "insufficient_scope"))},
             summary="Try a puzzle")
async def attempt(puzzle_id: PuzzleId, body: PuzzleAttempt, who: Caller, puzzles: PuzzlesDep, gateway: GatewayDep,
                  request: Request) -> JSONResponse:
    """Send your actions so far. Right so far: the opponent's answers and the
    position to go on from. Wrong or solved: the solution, and for an
    account's first finished try, its rating change. An illegal action is
    refused (422 `illegal_action`, naming the rule)."""
    if who is not None and "play" not in who.scopes:
        raise MissingScope("play")
    # A rated try writes both ratings: the write budget of the address (and account), as a move's.
    await gateway.count_write(WriteCaller(None, address_of(request),
                                          account_id=None if who is None else who.account_id))
    return JSONResponse(await puzzles.attempt(puzzle_id, None if who is None else who.account_id, body.actions))
