"""`GET /api/v1/matches/{match_id}/stream`: a match, live, as newline-delimited
JSON, for a client that is not a browser: one HTTP request, read
line by line, no websocket library.

It is the websocket's feed, not a copy of it: the stream joins the hub as a
socket would (app/realtime/hub.py), with a `send` that queues each message as a
line. So it carries exactly what a socket is sent, in the same order, with the
same promise: the match's state first (or, with `?since=`, what came after that
version), then every update once, with no gap, on whichever process serves it
(the hub hears the others' commits on the bus). What differs:

- the chat lines said while it is open, in the room the caller reads (the
  players' for a seat, the spectators' for a watcher: app/chat's rule), each a
  `chatLine` line, carried by the chat's relay (app/chat/relay.py), which hears
  every process's lines;
- no `hello` (the response's status says the stream is live) and no `ping` to
  answer: a stream cannot answer, so the hub's pings are answered here, and a
  `ping` line that needs no answer goes out when nothing else has for
  `keepalive` seconds;
- it ends after the line that shows the match finished (an update, or the
  snapshot of a match finished already); or, when the hub lets it go (the server
  stopping: where a socket is closed 1001), after a `closing` line, so that the
  client knows the stream ended and the match did not: it resumes with `?since=`.

See docs/api.md, "A match as a stream (ndjson)"; its route is match_stream_route.py.
"""

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from app.chat import Chat, Relay
from app.kernel.errors import BadRequest, ServiceError
from app.matches import Caller, Gateway
from app.realtime.hub import Hub, Subscriber

from .head import no_lines
from .legal_lines import Send, for_seat

PING = '{"type":"ping"}'  # the hub's ping, and the stream's keep-alive line alike
STOPPING = "server shutting down"  # the hub's reason for a close it makes on shutdown
QUEUE = 64  # lines waiting for a slow reader; past it the hub queues, then resends a snapshot


class TooManyStreams(ServiceError):
    status, code = 429, "too_many_sockets"


class Stopping(ServiceError):
    status, code = 503, "unavailable"


class MatchStreams:
    def __init__(self, hub: Hub, gateway: Gateway, keepalive: float,
                 clock: Callable[[], float] = time.monotonic, chat: Chat | None = None,
                 relay: Relay | None = None) -> None:
        self.hub, self.gateway, self.keepalive, self.clock = hub, gateway, keepalive, clock
        # The chat lines said while the stream is open, in the caller's room; None: none.
        self.chat, self.relay = chat, relay

    async def open(self, match_id: str, caller: Caller, since: int | None, legal: bool,
                   address: str, head: bool = False, compact: bool = False) -> AsyncIterator[str]:
        """Admit the stream (raising the contract's errors before any line), then
        answer its lines. The place it holds among `address`'s sockets is kept
        until the lines end. `head`: asked as HEAD, the same checks and no line."""
        hub = self.hub
        if hub.closed:
            raise Stopping("the server is stopping: open the stream again (another process answers)")
        seat, version = await self.gateway.watch(match_id, caller.token, caller.account_id)
        if legal and seat is None:
            raise BadRequest("legal=true needs a seat: send its token (Authorization: Bearer)")
        if not await hub.reserve(address):
            raise TooManyStreams(f"at most {hub.sockets_per_address} sockets and streams from one address; "
                                 "close one first")
        try:
            _, finished = await self.gateway.service.reads.version_of(match_id)
        except BaseException:
            hub.release(address)
            raise
        if head:  # the headers are the whole answer: no place held, no seat shown connected
            hub.release(address)
            return no_lines()
        if since is not None and (since > version or (finished and since >= version)):
            since = None  # from the future, or nothing left to follow: the state, once
        try:
            # Read before the stream follows the chat: a line said in between is after it, and sent.
            chat_after = await self.chat.newest_line(match_id) if self.chat is not None and not finished else None
        except BaseException:
            hub.release(address)
            raise
        return self._lines(match_id, seat, since, legal, address, compact, chat_after)

    async def _lines(self, match_id: str, seat: str | None, since: int | None, legal: bool,
                     address: str, compact: bool, chat_after: int | None = None) -> AsyncIterator[str]:
        hub, lines = self.hub, asyncio.Queue[str | None](QUEUE)
        held: list[Subscriber] = []  # the stream's handle, once joined
        closed: list[dict[str, Any]] = []  # the hub's close, when it lets the stream go
        gone = False

        async def deliver(event: dict[str, Any]) -> None:
            if gone:
                return
            if event["type"] == "websocket.close":  # the hub is done with it (shutdown, dead)
                closed.append(event)
                await lines.put(None)
            elif event["text"] == PING:
                if held:  # the reader is here: a stream's pings are answered for it
                    hub.heard_from(held[0])
            else:
                await lines.put(event["text"])

        send: Send = deliver
        after = None
        if seat is not None:  # its legal actions on its states (?legal=true), and after a resume's catch-up
            send, after = for_seat(deliver, self.gateway.service.reads, match_id, seat, legal, since is not None)
        sub = hub.join(match_id, send, seat, since, address, compact=compact, after=after)
        held.append(sub)
        relay = self.relay if chat_after is not None else None
        try:
            if relay is not None:  # the room the chat lets the caller read: the players' for a seat
                relay.follow(match_id, sub, "players" if seat is not None else "spectators", after=chat_after)
            await hub.note_seat(sub)
            said = self.clock()
            while True:
                wait = max(0.0, self.keepalive - (self.clock() - said))
                try:
                    text = await asyncio.wait_for(lines.get(), wait)
                except TimeoutError:
                    said = self.clock()
                    yield PING + "\n"
                    continue
                if text is None:  # the hub let it go: say so, as a socket's close frame would
                    yield closing_line(closed[0].get("code", 1001), closed[0].get("reason") or STOPPING)
                    return
                said = self.clock()
                yield text + "\n"
                if _over(text):
                    return
        finally:
            gone = True
            if relay is not None:
                relay.leave(match_id, sub)
            while not lines.empty():  # a send blocked on a full queue goes on, and finds `gone`
                lines.get_nowait()
            hub.release(address)
            # Shielded: a stream ends by its reader leaving, i.e. by cancellation, and
            # the seat's last word to the database (not here any more) must still land.
            leaving = asyncio.ensure_future(hub.leave(sub))
            _leaving.add(leaving)
            leaving.add_done_callback(_leaving.discard)
            await asyncio.shield(leaving)


_leaving: set[asyncio.Future[None]] = set()  # the loop keeps only weak references to tasks


def closing_line(code: int = 1001, reason: str = STOPPING) -> str:
    """A stream's last line when it ends for another reason than its end (the
    server stopping): the websocket's close code and reason, as a line."""
    return json.dumps({"type": "closing", "code": code, "reason": reason}, separators=(",", ":")) + "\n"


def _over(text: str) -> bool:
    """The line shows the match finished: the stream's last."""
    message = json.loads(text)
    if message.get("type") == "delta":  # compact: its status is said beside its changes
        return bool(message.get("status") == "finished")
    state = message.get("match")
    return message.get("type") in ("update", "snapshot") and isinstance(state, dict) \
        and state.get("status") == "finished"
