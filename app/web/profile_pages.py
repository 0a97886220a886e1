"""The players' pages: a profile at `/@/{name}` and the
`/leaderboard`. Drawn on the server from app.accounts.profiles: a profile
needs no script; its rating charts are app/charts' SVG, which the pages'
content security policy allows (no script, no inline style in them).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from app.accounts import Accounts
from app.accounts.refunds import refunds_of
from app.charts import page as charts
from app.kernel.cursor import make_cursor, read_cursor
from app.kernel.errors import BadRequest
from app.rules import VARIANTS
from app.tournaments.podium import trophies_of

from . import render
from .deps import AccountsDep, ProfilesDep, PuzzlesDep
from .pages import VARIANT_NAMES
from .signed import here, viewer

PAGE = 20  # matches a profile lists at a time
PLACES = {1: "Winner", 2: "Second", 3: "Third"}  # a trophy's words
OUTCOMES = {"won": "Won", "drawn": "Drawn", "lost": "Lost", "aborted": "Aborted", None: "Playing"}
WAITING = "Waiting for an opponent"  # an open seek: nobody plays it yet
REASONS = {"eliminated": "eliminated", "five_greater": "five greater minions dead", "three_of_a_kind": "three of a kind",
           "resigned": "resigned", "timeout": "on time", "agreement": "by agreement",
           "no_progress": "no progress", "aborted": "aborted", "adjudicated": "adjudicated"}


def signed(change: int | None) -> str:
    """A change as players read it: "+12", "−12" (a true minus sign), "±0"."""
    if change is None:
        return ""
    return f"+{change}" if change > 0 else f"\u2212{-change}" if change < 0 else "\u00b10"


router = APIRouter(include_in_schema=False)


async def page(request: Request, accounts: Accounts, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The page drawn for whoever asks: the header names a signed-in viewer."""
    session = await viewer(accounts, request)
    return render.page(name, status, session=session, back=here(request), modules=[], **context)


def variant_name(variant: str) -> str:
    return VARIANT_NAMES.get(variant, variant).split(":")[0].split(" (")[0]


@router.get("/@/{name}", response_class=HTMLResponse)
async def profile(request: Request, name: str, accounts: AccountsDep, profiles: ProfilesDep, puzzle_service: PuzzlesDep,
                  cursor: Annotated[str | None, Query(max_length=64)] = None) -> HTMLResponse:
    found = await profiles.profile(name)
    if found is None:
        return await page(request, accounts, "not_found.html", 404, what=f"There is no player named \u201c{name}\u201d.")
    try:
        after = read_cursor(cursor) if cursor else None
    except BadRequest:
        return await page(request, accounts, "not_found.html", 400, what="That is not a page of this player's matches: "
                    "follow the profile's own “Older matches” link.")
    rated, history = await profiles.ratings(found.id), await profiles.history(found.id)
    results = await profiles.results(found.id)
    refunds = [{"variant": variant_name(v), "points": p, "at": at} for v, p, at in await refunds_of(profiles.engine, found.id)]
    trophies = [{"tournament": t.tournament_id, "name": t.name, "place": PLACES.get(t.place, str(t.place)),
                 "rank": t.place, "at": datetime.fromtimestamp(t.at_ms / 1000, UTC)}
                for t in await trophies_of(profiles.engine, found.id)]
    played, more = await profiles.matches(found.id, PAGE, after)
    ratings = [{"variant": variant_name(v), "rating": r, "chart": charts.line(
                    f"{found.name}'s {variant_name(v)} rating after each rated match",
                    [(p.at, float(p.rating)) for p in history.get(v, [])], "Rating")
                if history.get(v) else None}
               for v, r in rated.items()]
    rows = [{"match": p, "outcome": WAITING if p.status == "waiting" else OUTCOMES[p.outcome], "reason": REASONS.get(p.reason or "", p.reason),
             "variant": variant_name(p.variant), "change": signed(p.rating_change)} for p in played]
    older = make_cursor(played[-1].created_at, played[-1].id) if more and played else None
    puzzles = await puzzle_service.history(found.id)
    for h in puzzles["history"]:
        h["at"] = datetime.fromtimestamp(h["at"] / 1000, UTC)
        h["change"] = signed(round(h["rating_change"]))
    return await page(request, accounts, "profile.html", player=found, ratings=ratings, results=results, rows=rows,
                puzzles=puzzles,
                older=older, refunds=refunds, trophies=trophies,
                first_page=cursor is None, title=found.name,
                challenge_variants=[(v, variant_name(v)) for v in VARIANTS])


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard(request: Request, accounts: AccountsDep, profiles: ProfilesDep) -> HTMLResponse:
    boards = [{"variant": variant_name(v), "key": v, "leaders": await profiles.leaderboard(v)}
              for v in VARIANTS]
    computers: dict[str, dict[str, Any]] = {}
    for row in await profiles.computers():
        entry = computers.setdefault(row.name, {"name": row.name, "ratings": {}})
        if row.variant:
            entry["ratings"][row.variant] = row.rating
    return await page(request, accounts, "leaderboard.html", boards=boards, computers=list(computers.values()),
                variants=[(v, variant_name(v)) for v in VARIANTS], here="leaderboard")
