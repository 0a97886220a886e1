"""An account's events, for a client that is not a browser: what the
person channel reads, told as happenings instead of pictures.

The person channel (channel.py) yields the whole picture (your challenges, your
running matches) whenever it changes; `Events` compares each picture with the one
before and says what happened, lichess's event stream in the game's words:

- `matchStart`: a match of yours is under way (a waiting one is told when its
  opponent takes the seat; one that ends before that is never told);
- `matchFinish`: a match told as started is over (with its result);
- `challenge`: a challenge to you or from you awaits its answer;
- `challengeDeclined`, `challengeCanceled` (canceled or expired; the challenge's
  `status` says which): a pending one is over without a match. An accepted one
  says nothing itself: its match's `matchStart` follows.
- `tournamentStart`: an arena you joined (and have not withdrawn from) is under
  way: it began, or you joined it running; before its games' `matchStart`;
- `tournamentFinish`: an arena told by `tournamentStart` is over, with its podium
  and your own standing. An arena game's `matchStart` names its `tournament`;
- `notification`: a new notice in the account's inbox (app/notify), each once.

The first picture is told whole: a `matchStart` for each running match and a
`challenge` for each pending challenge (but no old notice: the inbox's own
route lists them). A client that reconnects forgets what it
held and rebuilds from these opening lines.

`OneEach` keeps one stream per credential across processes: the newer stream
ends the older (a client that lost its connection without noticing comes back at
once, instead of being refused until the server notices the dead one).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from app.kernel.errors import NotFound
from app.realtime.nudges import Nudges

STARTED = "active"
PREFIX = "events:"  # nudge keys `events:<credential>:<stream id>`: a newer stream of the credential opened


def seen(message: dict[str, Any]) -> str:
    """What of a picture makes events: a change elsewhere (a move, a clock) is no line."""
    running = sorted((m["id"], m["status"]) for m in message["matches"])
    pending = sorted(c["id"] for c in _pending(message).values())
    arenas = sorted((t["id"], t["status"], t["joined"]) for t in message.get("tournaments", []))
    return json.dumps([running, pending, arenas, (message.get("inbox") or {}).get("latest", 0)])


def _pending(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    both = message["challenges"]["in"] + message["challenges"]["out"]
    return {c["id"]: c for c in both if c["status"] == "pending"}


class Events:
    """One stream's memory of the last picture, and the lines each new one makes."""

    def __init__(self, read_match: Callable[[str], Awaitable[Mapping[str, Any]]],
                 read_challenge: Callable[[str], Awaitable[dict[str, Any]]],
                 read_tournament: Callable[[str], Awaitable[dict[str, Any]]] | None = None,
                 read_notices: Callable[[int], Awaitable[list[dict[str, Any]]]] | None = None) -> None:
        self.read_match, self.read_challenge = read_match, read_challenge
        self.read_tournament = read_tournament
        self.read_notices = read_notices  # the inbox's notices after an id, oldest first
        self.noticed: int | None = None  # the newest notice told (or there when the stream opened)
        self.started: dict[str, dict[str, Any]] = {}  # told by matchStart, not yet by matchFinish
        self.pending: dict[str, dict[str, Any]] = {}  # told by `challenge`, not yet over
        self.arenas: dict[str, dict[str, Any]] = {}  # told by tournamentStart, not yet by tournamentFinish

    async def lines(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The matches' ends, the arenas' ends and starts, the matches' starts, then the challenges'."""
        out: list[dict[str, Any]] = []
        running = {m["id"]: m for m in message["matches"]}
        for match_id in [m for m in self.started if m not in running]:
            out += await self._finished(match_id)
        out += await self._arena_lines({t["id"]: t for t in message.get("tournaments", [])})
        for match_id, match in running.items():
            if match["status"] == STARTED and match_id not in self.started:
                self.started[match_id] = match
                out.append({"type": "matchStart", "match": match})
        now_pending = _pending(message)
        for challenge_id, challenge in now_pending.items():
            if challenge_id not in self.pending:
                out.append({"type": "challenge", "challenge": challenge})
        for challenge_id in [c for c in self.pending if c not in now_pending]:
            out += await self._challenge_over(challenge_id)
        self.pending = now_pending
        out += await self._notices(message)
        return out

    async def _arena_lines(self, arenas: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for arena_id in list(self.arenas):
            now = arenas.get(arena_id)
            if now is None or now["status"] == "finished":  # out of the picture: long over
                told = self.arenas.pop(arena_id)
                out.append(await self._arena_over(now or {**told, "status": "finished"}))
        for arena_id, arena in arenas.items():
            if arena["status"] == "started" and arena["joined"] and arena_id not in self.arenas:
                self.arenas[arena_id] = arena
                out.append({"type": "tournamentStart", "tournament": _arena_told(arena)})
        return out

    async def _arena_over(self, arena: dict[str, Any]) -> dict[str, Any]:
        """The tournamentFinish line: the arena, its podium and the player's own standing."""
        told = _arena_told(arena)
        podium: list[dict[str, Any]] = []
        mine = None
        if self.read_tournament is not None:
            try:
                standings = (await self.read_tournament(arena["id"]))["standings"]
            except NotFound:
                standings = []
            podium = standings[:3]
            mine = next((s for s in standings if s["name"] == arena.get("player")), None)
        return {"type": "tournamentFinish", "tournament": {**told, "podium": podium, "standing": mine}}

    async def _notices(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        latest = (message.get("inbox") or {}).get("latest")
        if latest is None or self.read_notices is None:
            return []
        if self.noticed is None:  # the stream opens: what was there is not news
            self.noticed = latest
            return []
        if latest <= self.noticed:
            return []
        new = await self.read_notices(self.noticed)
        if new:
            self.noticed = max(n["id"] for n in new)
        return [{"type": "notification", "notification": n} for n in new]

    async def _challenge_over(self, challenge_id: str) -> list[dict[str, Any]]:
        now = await self.read_challenge(challenge_id)
        kind = {"declined": "challengeDeclined", "canceled": "challengeCanceled",
                "expired": "challengeCanceled"}.get(now["status"])
        return [{"type": kind, "challenge": now}] if kind else []

    async def _finished(self, match_id: str) -> list[dict[str, Any]]:
        told = self.started.pop(match_id)
        try:
            state = await self.read_match(match_id)
        except NotFound:  # gone from the store: over, result unknown
            state = {"status": "finished", "result": None, "version": told["version"]}
        if state["status"] != "finished":  # out of the picture while running (past its size): keep it
            self.started[match_id] = told
            return []
        return [{"type": "matchFinish", "match": {
            "id": match_id, "colour": told["colour"], "opponent": told["opponent"],
            "opponent_computer": told["opponent_computer"], "opponent_title": told.get("opponent_title"),
            "variant": told["variant"],
            "status": state["status"], "result": state.get("result"), "version": state["version"]}}]


def _arena_told(arena: dict[str, Any]) -> dict[str, Any]:
    """An arena as a line tells it: as listed, without the picture's own fields."""
    return {k: v for k, v in arena.items() if k not in ("joined", "player")}


class OneEach:
    """One live event stream per credential: opening one ends the older, here or
    on any process (a nudge `events:<credential>:<new stream>` tells them)."""

    def __init__(self, nudges: Nudges) -> None:
        self.nudges = nudges
        self.live: dict[str, str] = {}  # credential → its stream on this process
        nudges.on(PREFIX, self._heard)

    def open(self, credential: str) -> str:
        stream = secrets.token_urlsafe(9)
        self._end(credential, but=stream)
        self.live[credential] = stream
        self.nudges.nudge(self.key(credential, stream))  # the other processes end theirs
        return stream

    def holds(self, credential: str, stream: str) -> bool:
        return self.live.get(credential) == stream

    def close(self, credential: str, stream: str) -> None:
        if self.live.get(credential) == stream:
            del self.live[credential]

    @staticmethod
    def key(credential: str, stream: str) -> str:
        """The stream's own key: rung when a newer one replaces it."""
        return f"{PREFIX}{credential}:{stream}"

    def _heard(self, rest: str | None) -> None:
        if rest is None:  # the bus was away: a newer stream elsewhere may go unheard (both stay open)
            return
        credential, _, stream = rest.rpartition(":")
        self._end(credential, but=stream)

    def _end(self, credential: str, but: str) -> None:
        older = self.live.get(credential)
        if older is not None and older != but:
            del self.live[credential]
            self.nudges.here(self.key(credential, older))  # it wakes, asks `holds`, and ends
