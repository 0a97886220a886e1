"""`/api/v1/users/{name}`: a player's public profile and the matches they played.

Anyone may read these (no token): what a profile page shows, as JSON. A name
is found whatever its case; a name nobody has is 404 naming it. The matches
are paged like `GET /api/v1/matches`, newest first, with the same cursors.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.accounts.names import NAME
from app.accounts.profiles import Played, Profile, Profiles, Shown
from app.kernel.cursor import CURSOR, CURSOR_MAX, make_cursor, read_cursor
from app.kernel.errors import NotFound
from app.kernel.moments import ms_of, stamp
from app.tournaments.podium import trophies_of

from .deps import ProfilesDep
from .errors import responses
from .query_numbers import Digits
from .schemas import Timestamp

Variant = str


class UserRating(BaseModel):
    rating: int = Field(description="rating points, whole", examples=[1612])
    rd: int = Field(description="the rating's deviation (RD), whole points", examples=[74])
    provisional: bool = Field(description="RD above 110: not yet trusted, shown as \"1612?\"")
    games: int = Field(description="rated matches played in this variant")


class UserResults(BaseModel):
    wins: int
    draws: int
    losses: int = Field(description="finished matches, rated or casual; an aborted match is none of these")


class Trophy(BaseModel):
    """A place on a finished arena's podium."""

    tournament: str = Field(description="the arena's id: GET /api/v1/tournaments/{id}", examples=["Tq3b0aZc1mBx"])
    name: str = Field(description="the arena's name", examples=["Hourly Blitz"])
    place: int = Field(description="1 (the winner), 2 or 3")
    at: Timestamp = Field(description="when the arena's result was kept (just after its end)")


class User(BaseModel):
    """A player's public profile."""

    name: str = Field(examples=["Ada"], description="as its player typed it")
    created_at: Timestamp = Field(examples=["2026-11-21T15:00:00.000Z"], description="RFC 3339, UTC, milliseconds")
    closed: bool = Field(description="closed accounts keep their matches and their name")
    computer: bool = Field(description="a computer level's account (Random, Greedy, Strong)")
    title: Literal["BOT"] | None = Field(None, description="\"BOT\": a bot account, which a program plays")
    ratings: dict[Variant, UserRating] = Field(
        description="by variant, each one the player has played rated (a new player's is 1500, RD 500)")
    results: UserResults
    trophies: list[Trophy] = Field(default_factory=list, description=(
        "the player's places on arenas' podiums, the latest first (50 at most)"))


class UserMatch(BaseModel):
    """One match the player played, from the player's side."""

    id: str
    variant: str
    status: Literal["waiting", "active", "finished"]
    rated: bool
    colour: Literal["white", "black"] = Field(description="the player's side")
    created_at: Timestamp
    finished_at: Timestamp | None
    outcome: Literal["won", "drawn", "lost", "aborted"] | None = Field(description="null while it runs")
    reason: str | None = Field(description="the result's reason (docs/api.md), null while it runs")
    opponent: str | None = Field(description="the other seat's name; null until someone joins")
    opponent_account: str | None = Field(description="the opponent's account; null for a guest")
    opponent_computer: bool
    rating_change: int | None = Field(description="what the match did to the player's rating, "
                                                   "in whole points; null if nothing")
    opponent_title: Literal["BOT"] | None = Field(None, description="\"BOT\": the opponent is a bot account")
    counted: bool = Field(True, description="false when the result is left out of the player's results: "
                                            "a guest seat brought into the account while both seats of the "
                                            "match came from one browser or one address")


class UserMatchPage(BaseModel):
    matches: list[UserMatch]
    next_cursor: str | None = Field(description="pass as ?cursor= for the next page; null on the last")


def rating_json(r: Shown) -> dict[str, int | bool]:
    return {"rating": r.rating, "rd": r.rd, "provisional": r.provisional, "games": r.games}


def _played(p: Played) -> dict[str, object]:
    return {"id": p.id, "variant": p.variant, "status": p.status, "rated": p.rated, "colour": p.colour,
            "created_at": stamp(ms_of(p.created_at)),
            "finished_at": None if p.finished_at is None else stamp(ms_of(p.finished_at)),
            "outcome": p.outcome, "reason": p.reason, "opponent": p.opponent,
            "opponent_account": p.opponent_account, "opponent_computer": p.opponent_computer,
            "rating_change": p.rating_change, "opponent_title": p.opponent_title, "counted": p.counted}


UserName = Annotated[str, Path(min_length=2, max_length=20, pattern=f"^{NAME.pattern}$",
                               description="the player's name, any case")]


router = APIRouter(prefix="/users", tags=["users"])


async def found_player(profiles: Profiles, name: str) -> Profile:
    found = await profiles.profile(name)
    if found is None:
        raise NotFound(f"there is no player named {name!r}")
    return found


@router.get("/{name}", response_model=None, responses={200: {"model": User}, **responses(404)},
            summary="A player's public profile")
async def get_user(name: UserName, profiles: ProfilesDep) -> JSONResponse:
    """Name, when the account was made, whether it is closed or a computer
    level, its rating in each variant played rated, its wins, draws and losses,
    and its places on arenas' podiums."""
    found = await found_player(profiles, name)
    rated, results = await profiles.ratings(found.id), await profiles.results(found.id)
    return JSONResponse({
        "name": found.name, "created_at": stamp(ms_of(found.created_at)), "closed": found.closed,
        "computer": found.computer is not None, "title": found.title,
        "ratings": {variant: rating_json(r) for variant, r in rated.items()},
        "results": {"wins": results.wins, "draws": results.draws, "losses": results.losses},
        "trophies": [{"tournament": t.tournament_id, "name": t.name, "place": t.place, "at": stamp(t.at_ms)}
                     for t in await trophies_of(profiles.engine, found.id)],
    })


@router.get("/{name}/matches", response_model=None, responses={200: {"model": UserMatchPage},
                                                               **responses(400, 404)},
            summary="The matches a player played, newest first")
async def user_matches(
    name: UserName, profiles: ProfilesDep,
    limit: Annotated[int, Query(ge=1, le=100), Digits] = 20,
    cursor: Annotated[str | None, Query(max_length=CURSOR_MAX, pattern=CURSOR,
                                        description="next_cursor of the previous page")] = None,
) -> JSONResponse:
    found = await found_player(profiles, name)
    played, more = await profiles.matches(found.id, limit, read_cursor(cursor) if cursor else None)
    last = played[-1] if played and more else None
    return JSONResponse({"matches": [_played(p) for p in played],
                         "next_cursor": None if last is None else make_cursor(last.created_at, last.id)})
