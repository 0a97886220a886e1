"""The pages: `/` (create, join, watch), `/learn` (the rules) and `/matches/{id}` (play, watch, replay).

Each page is a template of templates/ and a script of static/js/. The match page
carries the public state it was drawn from (a JSON data block, never a script),
so the arena shows at once, before the websocket has said anything.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app import bots
from app.accounts import Accounts, playban
from app.accounts.profiles import NEW_SHOWN, Profiles
from app.kernel.errors import NotFound
from app.kernel.ids import is_match_id
from app.pools import POOLS
from app.rules import VARIANTS
from app.rules.vocabulary import move_table

from . import arena_game, signed
from .deps import AccountsDep, ProfilesDep, ReadsDep
from .render import ROOT, TEMPLATES, page

__all__ = ["ROOT", "TEMPLATES", "router"]
VARIANT_NAMES = {
    "standard": "Standard", "rotating": "Rotating chaos lords (R17)",
    "archmage": "Archmage: one private chamber each (R18)",
    "ultimate_archmage": "Ultimate archmage: three private chambers each (R19)",
}
# The scripts each page imports, preloaded by the template so the browser
# fetches them side by side instead of one import after another.
MATCH_MODULES = ["match.js", "api.js", "seat.js", "live.js", "board.js", "pieces.js", "mages.js", "panels.js",
                 "chooser.js", "controls.js", "timeline.js", "results.js", "focus.js",
                 "guide.js", "explain.js", "rematch.js", "alerts.js", "session.js", "ratings.js",
                 "analysis.js", "analysis-words.js"]
HOME_MODULES = ["home.js", "api.js", "seat.js", "fields.js", "results.js", "first-match.js", "guide.js", "mages.js",
                "session.js", "ratings.js", "pools.js"]
LEARN_MODULES = ["learn.js", "mages.js", "pieces.js", "first-match.js", "guide.js", "api.js", "seat.js", "session.js"]


SEEN_COOKIE = "magery_seen"  # set by the first home page: the guided match is offered first until then
SEEN_SECONDS = 365 * 86400
router = APIRouter(include_in_schema=False)


def _easy(levels: list[str]) -> str:
    """The level "Play the computer" starts at: one that plays back, without a long think."""
    return "greedy" if "greedy" in levels else (levels[0] if levels else "")


async def _page(request: Request, accounts: Accounts, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    session = await signed.viewer(accounts, request)
    return page(name, status, session=session, back=signed.here(request), **context)


async def _ratings_by_variant(profiles: Profiles, session: signed.Session | None) -> dict[str, int] | None:
    """The signed-in player's rating in every variant, as a seek's range judges
    it (a new player's where none is stored); None for a guest, who has none."""
    if session is None:
        return None
    stored = await profiles.ratings(session.account_id)
    return {v: stored[v].rating if v in stored else NEW_SHOWN.rating for v in VARIANTS}


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, accounts: AccountsDep, profiles: ProfilesDep) -> HTMLResponse:
    # A first visit is offered the guided match up front; drawn by the server, so
    # nothing moves once the page is shown (a script deciding it would shift the page).
    first_visit = SEEN_COOKIE not in request.cookies
    levels = list(bots.LEVELS)
    session = await signed.viewer(accounts, request)
    # A player waiting after leaving rated matches is told so before trying one.
    waiting = None if session is None else await playban.standing(accounts.engine, session.account_id, accounts.now())
    rated_wait = None if waiting is None else {"minutes": max(1, -(-waiting[0] // 60)),
                                               "until": waiting[1].strftime("%H:%M UTC"), "why": waiting[2]}
    # The open list says which seeks a range closes to this player, and why.
    my_ratings = await _ratings_by_variant(profiles, session)
    answer = page("home.html", 200, session=session, back=signed.here(request),
                  variants=[(v, VARIANT_NAMES.get(v, v)) for v in VARIANTS],
                  levels=levels, easy_level=_easy(levels), modules=HOME_MODULES,
                  pools=list(POOLS.values()), first_visit=first_visit, rated_wait=rated_wait,
                  my_ratings=my_ratings)
    if first_visit:
        answer.set_cookie(SEEN_COOKIE, "1", max_age=SEEN_SECONDS, samesite="lax", httponly=True)
    return answer


@router.get("/learn", response_class=HTMLResponse)
async def learn(request: Request, accounts: AccountsDep) -> HTMLResponse:
    """The rules in our words, every word about the game the engine's."""
    return await _page(request, accounts, "learn.html", moves=move_table(), modules=LEARN_MODULES, here="learn")


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: str, accounts: AccountsDep, reads: ReadsDep) -> HTMLResponse:
    if not is_match_id(match_id):
        return await _page(request, accounts, "not_found.html", 404, what="That is not a match address.")
    try:
        match = await reads.get(match_id)
    except NotFound:
        return await _page(request, accounts, "not_found.html", 404, what="There is no match at this address.")
    players = match["players"]
    title = f"{players['white']['name'] or '…'} v {players['black']['name'] or '…'}"
    session = await signed.viewer(accounts, request)
    arena = await arena_game.of(accounts.engine, match, session.name if session else None)
    return page("match.html", 200, session=session, back=signed.here(request), match=match, title=title,
                modules=MATCH_MODULES, arena=arena)
