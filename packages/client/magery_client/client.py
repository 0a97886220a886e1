"""`Magery`: one asyncio client of a Magery Online server, for one credential.

The REST calls a client needs for a match (create, join, read, legal, act) and
a bot account's (its account, challenges), and the two ndjson streams read line
by line, resumed by themselves when a connection breaks or a server process
stops (docs/api.md, "A match as a stream", "Your events, as a stream"). The
websocket is socket.py's.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx

from .compact import DeltaMismatch, apply_delta
from .shapes import Action, Legal, Line, Match, Seat
from .socket import MatchSocket
from .version import VERSION

# The servers send a line at least every 7 s (a `ping` when quiet): far longer
# with none means a dead connection, and the stream is opened again.
STREAM_READ_SECONDS = 20.0
RESENDS = 5  # tries of one action across broken connections (the same id: never applied twice)
RECONNECT_PAUSE = 0.5


class Refused(Exception):
    """The server refused a call: `status`, its `error` code and `detail` (docs/api.md, "Errors"),
    and the seconds its `Retry-After` asks to wait (`None` without one)."""

    def __init__(self, status: int, body: dict[str, Any], retry_after: float | None = None) -> None:
        self.status, self.body, self.retry_after = status, body, retry_after
        self.error: str = str(body.get("error", ""))
        self.detail: str = str(body.get("detail", ""))
        super().__init__(f"{status} {self.error}: {self.detail}")


def _body(answer: httpx.Response) -> dict[str, Any]:
    try:
        parsed = answer.json()
    except ValueError:
        return {"error": "not_json", "detail": answer.text[:500]}
    return parsed if isinstance(parsed, dict) else {"error": "not_an_object", "detail": str(parsed)[:500]}


def _seconds(answer: httpx.Response) -> float | None:
    wait = answer.headers.get("retry-after", "")
    return float(wait) if wait.isdigit() else None


def ndjson(text_lines: list[str]) -> list[Line]:
    """The JSON objects of ndjson text already read (blank lines skipped)."""
    return [json.loads(line) for line in text_lines if line.strip()]


class Magery:
    """A client of one server, as one caller: no token (a guest; the first seat it
    takes gives it that seat's token), a guest's seat token, or an account token (`mgo_...`).

        async with Magery("http://127.0.0.1:8000") as ada:
            seat = await ada.create_match(name="Ada", seat="white")
    """

    def __init__(self, server: str, token: str | None = None, *, timeout: float = 10.0,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self._http = httpx.AsyncClient(base_url=self.server + "/api/v1", timeout=timeout, transport=transport,
                                       headers={"User-Agent": f"magery-client/{VERSION}"})

    async def __aenter__(self) -> Magery:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def call(self, method: str, path: str, *, json_body: Any = None, params: dict[str, Any] | None = None,
                   headers: dict[str, str] | None = None) -> Any:
        """Any call of the API (`path` under /api/v1): its JSON answer, or `Refused`.
        A 429 or 503 is waited out as its `Retry-After` says, a few times."""
        for _ in range(RESENDS):
            answer = await self._http.request(method, path, json=json_body, params=params,
                                              headers={**self._headers(), **(headers or {})})
            if answer.status_code in (429, 503) and "retry-after" in answer.headers:
                await asyncio.sleep(min(float(answer.headers["retry-after"]), 60.0))
                continue
            if answer.status_code >= 400:
                raise Refused(answer.status_code, _body(answer), _seconds(answer))
            return answer.json() if answer.content else None
        raise Refused(answer.status_code, _body(answer), _seconds(answer))

    # ---- matches ---------------------------------------------------------------------------

    async def create_match(self, *, name: str | None = None, seat: str = "random", opponent: str = "human",
                           options: dict[str, Any] | None = None) -> Seat:
        """POST /matches. Safe to resend: an Idempotency-Key is sent with it."""
        body: dict[str, Any] = {"seat": seat, "opponent": opponent, "options": options or {}}
        if name is not None:
            body["name"] = name
        return self._took(await self.call("POST", "/matches", json_body=body, headers=_once()))

    async def join_match(self, match_id: str, *, name: str | None = None) -> Seat:
        """POST /matches/{id}/join: the free seat."""
        body = {} if name is None else {"name": name}
        return self._took(await self.call("POST", f"/matches/{match_id}/join", json_body=body, headers=_once()))

    def _took(self, seat: Seat) -> Seat:
        if self.token is None and seat.get("token"):
            self.token = seat["token"]
        return seat

    async def match(self, match_id: str) -> Match:
        """GET /matches/{id}: the state now."""
        return await self.call("GET", f"/matches/{match_id}")  # type: ignore[no-any-return]

    async def legal(self, match_id: str) -> Legal:
        """GET /matches/{id}/legal: what this seat may play now."""
        return await self.call("GET", f"/matches/{match_id}/legal")  # type: ignore[no-any-return]

    async def log(self, match_id: str) -> list[dict[str, Any]]:
        """GET /matches/{id}/actions: the log, every entry, version 1 first."""
        return await self.call("GET", f"/matches/{match_id}/actions")  # type: ignore[no-any-return]

    async def act(self, match_id: str, action: Action, version: int, *, action_id: str | None = None) -> Match:
        """POST /matches/{id}/actions: plays `action`, chosen on `version`; the state after it.

        `action_id` (a fresh one when not given) makes a resend safe: a connection
        that breaks before the answer is tried again with the same id and version,
        and the server applies it once. A refusal (`stale_version`, `illegal_action`, ...) raises `Refused`."""
        body = {"action": action, "version": version, "id": action_id or uuid.uuid4().hex}
        for attempt in range(RESENDS):
            try:
                answer = await self.call("POST", f"/matches/{match_id}/actions", json_body=body)
                return answer["match"]  # type: ignore[no-any-return]
            except httpx.TransportError:
                if attempt == RESENDS - 1:
                    raise
                await asyncio.sleep(RECONNECT_PAUSE)
        raise AssertionError("unreachable")

    async def resign(self, match_id: str) -> Match:
        answer = await self.call("POST", f"/matches/{match_id}/resign")
        return answer["match"]  # type: ignore[no-any-return]

    # ---- accounts and challenges ----------------------------------------------------------

    async def account(self) -> dict[str, Any]:
        """GET /account: the account token's own account."""
        return await self.call("GET", "/account")  # type: ignore[no-any-return]

    async def become_bot(self) -> dict[str, Any]:
        """POST /account/bot: makes the account a bot account, once and for good."""
        return await self.call("POST", "/account/bot")  # type: ignore[no-any-return]

    async def challenge(self, name: str, **options: Any) -> dict[str, Any]:
        """POST /challenges/{name}: `colour`, `rated`, `time_control`, ... as docs/api.md's Challenges."""
        return await self.call("POST", f"/challenges/{name}", json_body=options)  # type: ignore[no-any-return]

    async def accept(self, challenge_id: str) -> dict[str, Any]:
        return await self.call("POST", f"/challenges/{challenge_id}/accept")  # type: ignore[no-any-return]

    async def decline(self, challenge_id: str, reason: str = "generic") -> dict[str, Any]:
        return await self.call("POST", f"/challenges/{challenge_id}/decline",  # type: ignore[no-any-return]
                               json_body={"reason": reason})

    # ---- the ndjson streams ---------------------------------------------------------------

    async def lines(self, path: str, params: dict[str, str] | None = None) -> AsyncIterator[Line]:
        """One opening of an ndjson stream (`path` under /api/v1): its lines as
        JSON objects until it ends; raises `Refused` or httpx's TransportError."""
        timeout = httpx.Timeout(self._http.timeout.connect, read=STREAM_READ_SECONDS)
        async with self._http.stream("GET", path, params=params, headers=self._headers(),
                                     timeout=timeout) as answer:
            if answer.status_code != 200:
                await answer.aread()
                raise Refused(answer.status_code, _body(answer), _seconds(answer))
            async for line in answer.aiter_lines():
                if line.strip():
                    yield json.loads(line)

    async def match_stream(self, match_id: str, *, legal: bool = False, since: int | None = None,
                           compact: bool = False) -> AsyncIterator[Line]:
        """The match's stream, every version once and in order, until the line that
        shows it finished: reopened with `?since=` after a broken connection or a
        `closing` line (a server process stopping), so nothing is lost or doubled.

        `ping` and `closing` lines are not given. With `compact=True` the server may
        send `delta` lines; each comes with `match` set here, the state after it (a
        delta that does not fit the state held reopens the stream with `?since=`,
        which sends full updates)."""
        state: Match | None = None
        while True:
            params = {"legal": "true" if legal else "false", "updates": "compact" if compact else "full"}
            if since is not None:
                params["since"] = str(since)
            try:
                async for line in self.lines(f"/matches/{match_id}/stream", params):
                    kind = line.get("type")
                    if kind in ("ping", "closing"):
                        continue
                    if kind == "delta":
                        if state is None:
                            break  # a delta with no state to apply it to: resume, full updates come
                        try:
                            line = {**line, "match": apply_delta(state, line)}
                        except DeltaMismatch:
                            break
                    if kind in ("snapshot", "update", "delta"):
                        state = line["match"]
                        since = state["version"]
                    yield line
                    if state is not None and state.get("status") == "finished" and kind != "presence":
                        return
            except httpx.TransportError:
                pass
            await asyncio.sleep(RECONNECT_PAUSE)

    async def events(self) -> AsyncIterator[Line]:
        """The account's events stream, opened again whenever it ends or breaks (its
        opening lines are the whole picture again: a `matchStart` per running match,
        a `challenge` per pending one). `ping` and `closing` lines are not given."""
        while True:
            try:
                async for line in self.lines("/stream/events"):
                    if line.get("type") not in ("ping", "closing"):
                        yield line
            except httpx.TransportError:
                pass
            await asyncio.sleep(RECONNECT_PAUSE)

    async def export(self, name: str, *, since: int | None = None, until: int | None = None,
                     variant: str | None = None, rated: bool | None = None, max: int | None = None,  # noqa: A002
                     after: str | None = None) -> AsyncIterator[Match]:
        """`GET /users/{name}/matches/export`: the player's finished matches, newest
        first, each as `match(id)` reads it. `since`/`until` in milliseconds since the
        epoch; `after` a match's id to go on just past it.

        Resumed by itself: a connection that breaks (or a server process that stops)
        is opened again with `after=` the last match given, so none is given twice or
        skipped, and an answer cut at the server's `EXPORT_MAX_MATCHES` goes on the
        same way; it ends when an answer brings nothing more (or `max` were given).
        A `429`/`503` is waited out as its `Retry-After` says."""
        query: dict[str, str] = {}
        for key, value in (("since", since), ("until", until), ("variant", variant)):
            if value is not None:
                query[key] = str(value)
        if rated is not None:
            query["rated"] = "true" if rated else "false"
        given = 0
        while max is None or given < max:
            params = dict(query)
            if max is not None:
                params["max"] = str(max - given)
            if after is not None:
                params["after"] = after
            this_answer = 0
            try:
                async for line in self.lines(f"/users/{name}/matches/export", params):
                    after, given, this_answer = line["id"], given + 1, this_answer + 1
                    yield line
                if this_answer == 0:
                    return
            except Refused as refused:
                wait = _retry_after(refused)
                if wait is None:
                    raise
                await asyncio.sleep(wait)
            except httpx.TransportError:
                await asyncio.sleep(RECONNECT_PAUSE)

    # ---- the websocket --------------------------------------------------------------------

    def socket(self, match_id: str, *, legal: bool = False, since: int | None = None,
               compact: bool = False) -> MatchSocket:
        """The match's websocket, as this client's credential: `async with` it, iterate
        its messages, `await sock.act(...)` (socket.py)."""
        return MatchSocket(self.server, match_id, self.token, legal=legal, since=since, compact=compact)


def _retry_after(refused: Refused) -> float | None:
    """How long a refusal asks to wait before asking again (`None`: it does not)."""
    if refused.status not in (429, 503) or refused.retry_after is None:
        return None
    return min(refused.retry_after, 60.0)


def _once() -> dict[str, str]:
    """A fresh Idempotency-Key: a resend of the same call hands back the same seat."""
    return {"Idempotency-Key": str(uuid.uuid4())}
