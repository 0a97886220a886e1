"""`GET /api/v1/stream/events`: an account's events as newline-delimited JSON,
for a bot or any client that is not a browser: its matches starting
and finishing, challenges made, declined and canceled, one HTTP request read line
by line. The person channel does the listening (nudges on every process, a
recheck, the keep-alive); app/people/events.py turns its pictures into lines.

See docs/api.md, "Your events, as a stream (ndjson)". No `from __future__ import
annotations`: FastAPI reads the route's annotations as evaluated objects.
"""

import json
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from app.accounts.sessions import COOKIE
from app.auth import digest
from app.people.channel import Quiet
from app.people.events import Events, seen
from app.people.person import Who

from .caller import AccountCaller, bearer_of, still_holds
from .deps import AccountsDep, ChallengesDep, ChannelDep, EventStreamsDep, address_of
from .errors import responses
from .head import asked_head, no_lines
from .match_stream import closing_line

HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
LINES = ("`matchStart`, `matchFinish`, `challenge`, `challengeDeclined`, `challengeCanceled`, "
         "`tournamentStart`, `tournamentFinish`, `notification`, `ping` when quiet, and `closing` when the server stops")


router = APIRouter(tags=["challenges"])

DOC = {200: {"description": f"newline-delimited JSON: {LINES}",
             "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
       **responses(401, 429)}


@router.get("/stream/events", response_class=StreamingResponse, responses=DOC,
            summary="Your events, live: matches and challenges")
async def event_stream(request: Request, who: AccountCaller, accounts: AccountsDep, challenges: ChallengesDep,
                       channel: ChannelDep, one_each: EventStreamsDep) -> StreamingResponse:
    """On opening, a `matchStart` for each of your matches under way and a
    `challenge` for each challenge awaiting an answer; then each of those as it
    happens, with `matchFinish`, `challengeDeclined` and `challengeCanceled`, and a
    `notification` for each new notice of your inbox; a
    `ping` line (nothing to answer) when nothing else went out for 7 s. One stream
    per token (or session): opening another ends this one."""
    address = address_of(request) or "-"
    await channel.reserve(address)  # TooManyChannels: answered 429 before anything streams
    if asked_head(request):  # the headers alone: no stream opened, so none of the token's ended
        channel.release(address)
        return StreamingResponse(no_lines(), media_type="application/x-ndjson", headers=HEADERS)
    token = bearer_of(request)
    cookie = None if request.headers.get("authorization") else request.cookies.get(COOKIE)
    # The credential, never its text: token ids are no secret; a session by a cut of its hash.
    credential = f"t{who.token_id}" if who.token_id is not None else "s" + digest(cookie or "")[:24]
    stream = one_each.open(credential)

    async def still() -> bool:
        """Not replaced by a newer stream, and the credential still holds."""
        return one_each.holds(credential, stream) and await still_holds(accounts, who.account_id, token, cookie)

    async def lines() -> AsyncIterator[str]:
        arenas = channel.person.arenas
        events = Events(channel.person.read_match, challenges.get,
                        read_tournament=arenas.view if arenas is not None else None,
                        read_notices=lambda after: channel.person.inbox.since(who.account_id, after))
        quiet = Quiet(channel.clock())
        try:
            async for message in channel.stream(Who(who.account_id), still, seen=seen, quiet=quiet,
                                                also=(one_each.key(credential, stream),)):
                said = await events.lines(message) if message["type"] == "person" else [message]
                if said:
                    quiet.at = channel.clock()
                    yield "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in said)
            if channel.closing():  # the server stops: the stream ended, nothing else did
                yield closing_line()
        finally:
            one_each.close(credential, stream)
            channel.release(address)

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers=HEADERS)
