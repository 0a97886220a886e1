"""`/challenges/{id}`: a challenge's page, the link an open challenge is given
by. It shows the terms; a signed-in visitor who may take it gets an Accept
button (static/js/challenge-link.js), anyone else a way to sign in first; its
challenger, the link to copy.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.challenges.errors import NoSuchChallenge

from . import render
from .deps import AccountsDep, ChallengesDep
from .pages import VARIANT_NAMES
from .signed import here, viewer

router = APIRouter(include_in_schema=False)
COLOURS = {"white": "White", "black": "Black", "random": "a random colour"}


def clock_words(tc: dict[str, object] | None) -> str:
    if tc is None:
        return "Untimed"
    if tc["type"] == "realtime":
        return f"{tc['minutes']:g}+{tc.get('increment', 0):g}"
    return f"{tc['days']:g} days per move"


@router.get("/challenges/{challenge_id}", response_class=HTMLResponse)
async def challenge_page(request: Request, challenge_id: str, accounts: AccountsDep,
                         challenges: ChallengesDep) -> HTMLResponse:
    session = await viewer(accounts, request)
    try:
        shown = await challenges.get(challenge_id)
    except NoSuchChallenge:
        return render.page("not_found.html", 404, session=session, back=here(request), modules=[],
                           what="There is no such challenge: ask for its link again.", title="No such challenge")
    mine = session is not None and session.name == shown["challenger"]
    terms = {"variant": VARIANT_NAMES.get(shown["variant"], shown["variant"]).split(":")[0].split(" (")[0],
             "clock": clock_words(shown["time_control"]), "rated": "Rated" if shown["rated"] else "Casual",
             "colour": COLOURS[shown["colour"]], "rounds": shown["no_progress_rounds"]}
    return render.page("challenge_link.html", 200, session=session, back=here(request), modules=[],
                       challenge=shown, terms=terms, mine=mine, title=f"Challenge from {shown['challenger']}")
