"""The arenas' pages: `/tournaments` (upcoming, running, finished) and
`/tournaments/{id}` (the standings with the flame, the pairings, the clock,
join and withdraw, the podium once over). Drawn on the server from what the
API answers; static/js/tournament.js then keeps the page live from the arena's
websocket (docs/api.md, "An arena, live"), and opens the player's next game
when they are paired.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.accounts import Accounts
from app.kernel.errors import ServiceError
from app.tournaments.board import PAGE_SIZE, PODIUM

from . import render, swiss_pages
from .deps import AccountsDep, ArenaLiveDep, ArenasDep, SwissesDep
from .pages import VARIANT_NAMES
from .signed import here, viewer

router = APIRouter(include_in_schema=False)
MODULES = ["tournament.js", "api.js", "session.js"]
SWISS_MODULES = ["swiss.js", "api.js"]
SHOWN = 100  # arenas the list reads


async def page(request: Request, accounts: Accounts, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return render.page(name, status, session=await viewer(accounts, request), back=here(request), **context)


def variant_name(variant: str) -> str:
    return VARIANT_NAMES.get(variant, variant).split(":")[0].split(" (")[0]


@router.get("/tournaments", response_class=HTMLResponse)
async def tournaments(request: Request, accounts: AccountsDep, arenas: ArenasDep,
                      swisses: SwissesDep) -> HTMLResponse:
    listed = await arenas.listing(SHOWN)
    swiss = await swisses.summaries([t["id"] for t in listed])  # as the API's list: a Swiss event's own fields
    listed = [swiss.get(t["id"], t) for t in listed]
    for t in listed:
        t["variant_name"] = variant_name(t["variant"])
    groups = [("running", "Running now", [t for t in listed if t["status"] == "started"]),
              ("upcoming", "Starting soon", sorted((t for t in listed if t["status"] == "created"),
                                                   key=lambda t: t["starts_at"])),
              ("finished", "Finished", [t for t in listed if t["status"] == "finished"])]
    return await page(request, accounts, "tournaments.html", groups=groups, here="tournaments", modules=[])


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament(request: Request, tournament_id: str, accounts: AccountsDep, arenas: ArenasDep,
                     live: ArenaLiveDep, swisses: SwissesDep) -> HTMLResponse:
    if await swisses.is_swiss(tournament_id):
        view = await swisses.view(tournament_id)
        view["variant_name"] = variant_name(view["variant"])
        session = await viewer(accounts, request)
        return render.page("tournament_swiss.html", 200, session=session, back=here(request), title=view["name"],
                           here="tournaments", modules=SWISS_MODULES,
                           **swiss_pages.context(view, session.name if session else None))
    try:
        shown = await arenas.view(tournament_id)
    except ServiceError:
        return await page(request, accounts, "not_found.html", 404, what="There is no tournament at this address.",
                          modules=[])
    board = await live.read(tournament_id)
    shown["variant_name"] = variant_name(shown["variant"])
    return await page(request, accounts, "tournament.html", tournament=shown, title=shown["name"],
                      standings=board.standings[:PAGE_SIZE], pages=board.pages, players=len(board.standings),
                      pairings=board.pairings, podium=board.standings[:PODIUM] if board.finished else [],
                      here="tournaments", modules=MODULES, data={"id": shown["id"], "status": shown["status"],
                                                "starts_at": shown["starts_at"], "ends_at": shown["ends_at"],
                                                "private": bool(shown.get("private"))})

