"""`/puzzles` and `/puzzles/{id}`: a puzzle to solve in the browser.

The page carries the puzzle it starts with (a JSON data block, as the match
page carries its state), drawn with the match page's own board and turn
panel (static/js/board.js, controls.js); static/js/puzzles.js asks the API
for the next one and sends each try.
"""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.kernel.errors import ServiceError

from . import signed
from .deps import AccountsDep, PuzzlesDep
from .render import page

router = APIRouter(include_in_schema=False)
MODULES = ["puzzles.js", "api.js", "board.js", "pieces.js", "mages.js", "chooser.js", "controls.js", "session.js"]
PUZZLE_ID = re.compile(r"[0-9a-f]{12}")


async def _show(request: Request, accounts: AccountsDep, puzzles: PuzzlesDep, puzzle_id: str | None) -> HTMLResponse:
    session = await signed.viewer(accounts, request)
    account_id = session.account_id if session else None
    try:
        shown = await (puzzles.one(puzzle_id, account_id) if puzzle_id else puzzles.next_for(account_id))
    except ServiceError as error:
        return page("not_found.html", error.status, session=session, back=signed.here(request), modules=[],
                    what="There is no puzzle here." if puzzle_id else "This server holds no puzzles yet.")
    return page("puzzles.html", 200, session=session, back=signed.here(request), modules=MODULES,
                puzzle=shown, here="puzzles")


@router.get("/puzzles", response_class=HTMLResponse)
async def next_puzzle(request: Request, accounts: AccountsDep, puzzles: PuzzlesDep) -> HTMLResponse:
    return await _show(request, accounts, puzzles, None)


@router.get("/puzzles/{puzzle_id}", response_class=HTMLResponse)
async def one_puzzle(request: Request, puzzle_id: str, accounts: AccountsDep, puzzles: PuzzlesDep) -> HTMLResponse:
    if not PUZZLE_ID.fullmatch(puzzle_id):
        session = await signed.viewer(accounts, request)
        return page("not_found.html", 404, session=session, back=signed.here(request), modules=[],
                    what="That is not a puzzle address.")
    return await _show(request, accounts, puzzles, puzzle_id)
