"""`Bot`: a bot account's program, all but the choosing.

It reads the account's events, accepts the challenges `accepts` approves, and
plays each match that starts through the match's stream with `?legal=true`
(resumed with `?since=` by the client), asking `choose` for each move.
Subclass it and write `choose` (and `accepts`, to be particular):

    class Mine(Bot):
        async def choose(self, match, legal):
            return legal["actions"][0] if legal["actions"] else {"type": "setup", "backrow": legal["setup"]}

    async with Magery(server, token) as client:
        await Mine(client).run()
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import httpx

from .client import STREAM_READ_SECONDS, Magery, Refused
from .shapes import Action, Legal, Line, Match


class Bot:
    def __init__(self, client: Magery, *, seed: int | None = None) -> None:
        self.client = client
        self.random = random.Random(seed)
        self.name = ""
        self.finished: set[str] = set()
        self._playing: dict[str, asyncio.Task[None]] = {}

    async def accepts(self, challenge: dict[str, Any]) -> bool:
        """Whether to take a challenge made to this account (all of them, here)."""
        return True

    async def choose(self, match: Match, legal: Legal) -> Action:
        """The action to play on `legal["version"]`: a shuffled backrow in the setup, else any legal action."""
        if legal["setup"]:
            row = list(legal["setup"])
            self.random.shuffle(row)
            return {"type": "setup", "backrow": row}
        return self.random.choice(legal["actions"])

    async def run(self, matches: int | None = None) -> None:
        """Until `matches` matches have finished (for ever when None)."""
        self.name = (await self.client.account())["name"]
        try:
            async for event in self.client.events():
                await self.on_event(event)
                if matches is not None and len(self.finished) >= matches:
                    break
        finally:
            # A finished match's stream ends by itself, soon: let it (and `over`) end.
            ending = [task for match_id, task in self._playing.items() if match_id in self.finished]
            if ending:
                await asyncio.wait(ending, timeout=STREAM_READ_SECONDS)
            for task in self._playing.values():
                task.cancel()
            await asyncio.gather(*self._playing.values(), return_exceptions=True)

    async def on_event(self, event: Line) -> None:
        kind = event.get("type")
        if kind == "challenge":
            challenge = event["challenge"]
            mine = challenge["challenged"].lower() == self.name.lower()
            if mine and challenge["status"] == "pending" and await self.accepts(challenge):
                with contextlib.suppress(Refused):  # canceled or taken meanwhile
                    await self.client.accept(challenge["id"])
        elif kind == "matchStart":
            match_id = event["match"]["id"]
            if match_id not in self._playing or self._playing[match_id].done():
                self._playing[match_id] = asyncio.create_task(self.play(match_id))
        elif kind == "matchFinish":
            self.finished.add(event["match"]["id"])

    async def over(self, match_id: str, match: Match) -> None:
        """Told once a match this bot played is over (`match`: its last state, with its `result`)."""

    async def play(self, match_id: str) -> None:
        """One match, to its end: each line that carries `legal` is this seat's turn."""
        last: Match | None = None
        async for line in self.client.match_stream(match_id, legal=True):
            last = line.get("match", last)
            legal = line.get("legal")
            if legal and line["match"]["status"] == "active" and (legal["setup"] or legal["actions"]):
                action = await self.choose(line["match"], legal)
                # stale_version, a match ended meanwhile, a server that stayed away longer
                # than the resends (its stream, resumed with `?since=`, then brings `legal`
                # again): the stream brings what is now.
                with contextlib.suppress(Refused, httpx.TransportError):
                    await self.client.act(match_id, action, legal["version"])
        if last is not None:
            await self.over(match_id, last)
